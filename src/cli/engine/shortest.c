/*
 * shortest.c - shortest round-trip printing of doubles (see shortest.h).
 *
 * Why it is correct.  Write d(n) for x rounded to n significant decimal
 * digits.  The round-trip interval of x (the reals that strtod rounds to
 * x) is at most one ulp wide, 2^-52 relative, while 15-digit decimals
 * are at least 10^-15 relative apart, so the interval holds at most one
 * decimal of n <= 15 digits.  If any decimal of n <= 15 digits reads back
 * as x, it is therefore d(15) (which is at least as close to x), with
 * trailing zeros.  Otherwise the shortest has 16 or 17 digits, and the
 * nearest one of each length, d(16) then d(17), is the one to try; d(17)
 * always reads back.  So three candidates, tried in order, give the
 * shortest and, among equals, the nearest.
 *
 * Why it is fast.  For 1e-15 <= |x| < 1e15 (every time, rate and ratio
 * the models print) everything is exact integer arithmetic on 128 bits:
 * x = m 2^e2 with m < 2^53, so x 10^k = m 5^k 2^(e2 + k), and with
 * k <= 32, 5^k < 2^75 and m 5^k fits; the digits are its integer part,
 * rounded by its remainder, and the distance to x is compared with half
 * an ulp, which in the same units is 5^k / 2.  Integers below 2^53 print
 * directly.  Anything else (huge, tiny) asks the C library: %.14e,
 * %.15e, %.16e and strtod, the same three candidates, slowly; for a
 * subnormal (where the argument above fails: fewer bits) every length.
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/shortest.h"

__extension__ typedef unsigned __int128 u128;

#define P5(hi, lo) (((u128)(hi) << 64) | (u128)(lo))

/* 5^k for k = 0..32: each below 2^75, so m 5^k < 2^128. */
static const u128 pow5[33] = {
    P5(0x0ULL, 0x0000000000000001ULL),	 /* 5^0 */
    P5(0x0ULL, 0x0000000000000005ULL),	 /* 5^1 */
    P5(0x0ULL, 0x0000000000000019ULL),	 /* 5^2 */
    P5(0x0ULL, 0x000000000000007dULL),	 /* 5^3 */
    P5(0x0ULL, 0x0000000000000271ULL),	 /* 5^4 */
    P5(0x0ULL, 0x0000000000000c35ULL),	 /* 5^5 */
    P5(0x0ULL, 0x0000000000003d09ULL),	 /* 5^6 */
    P5(0x0ULL, 0x000000000001312dULL),	 /* 5^7 */
    P5(0x0ULL, 0x000000000005f5e1ULL),	 /* 5^8 */
    P5(0x0ULL, 0x00000000001dcd65ULL),	 /* 5^9 */
    P5(0x0ULL, 0x00000000009502f9ULL),	 /* 5^10 */
    P5(0x0ULL, 0x0000000002e90eddULL),	 /* 5^11 */
    P5(0x0ULL, 0x000000000e8d4a51ULL),	 /* 5^12 */
    P5(0x0ULL, 0x0000000048c27395ULL),	 /* 5^13 */
    P5(0x0ULL, 0x000000016bcc41e9ULL),	 /* 5^14 */
    P5(0x0ULL, 0x000000071afd498dULL),	 /* 5^15 */
    P5(0x0ULL, 0x0000002386f26fc1ULL),	 /* 5^16 */
    P5(0x0ULL, 0x000000b1a2bc2ec5ULL),	 /* 5^17 */
    P5(0x0ULL, 0x000003782dace9d9ULL),	 /* 5^18 */
    P5(0x0ULL, 0x00001158e460913dULL),	 /* 5^19 */
    P5(0x0ULL, 0x000056bc75e2d631ULL),	 /* 5^20 */
    P5(0x0ULL, 0x0001b1ae4d6e2ef5ULL),	 /* 5^21 */
    P5(0x0ULL, 0x000878678326eac9ULL),	 /* 5^22 */
    P5(0x0ULL, 0x002a5a058fc295edULL),	 /* 5^23 */
    P5(0x0ULL, 0x00d3c21bcecceda1ULL),	 /* 5^24 */
    P5(0x0ULL, 0x0422ca8b0a00a425ULL),	 /* 5^25 */
    P5(0x0ULL, 0x14adf4b7320334b9ULL),	 /* 5^26 */
    P5(0x0ULL, 0x6765c793fa10079dULL),	 /* 5^27 */
    P5(0x2ULL, 0x04fce5e3e2502611ULL),	 /* 5^28 */
    P5(0xaULL, 0x18f07d736b90be55ULL),	 /* 5^29 */
    P5(0x32ULL, 0x7cb2734119d3b7a9ULL),	 /* 5^30 */
    P5(0xfcULL, 0x6f7c40458122964dULL),	 /* 5^31 */
    P5(0x4eeULL, 0x2d6d415b85acef81ULL), /* 5^32 */
};

static const uint64_t pow10u[18] = {
    1ULL,
    10ULL,
    100ULL,
    1000ULL,
    10000ULL,
    100000ULL,
    1000000ULL,
    10000000ULL,
    100000000ULL,
    1000000000ULL,
    10000000000ULL,
    100000000000ULL,
    1000000000000ULL,
    10000000000000ULL,
    100000000000000ULL,
    1000000000000000ULL,
    10000000000000000ULL,
    100000000000000000ULL,
};

/* The candidate d(n) of x = m 2^e2 with decimal exponent *e10. */
struct cand {
	uint64_t d; /* n digits */
	int e10;    /* x ~ d 10^(e10 - n + 1) */
	int lg;	    /* floor(log10 x), before any carry of rounding */
	bool exact; /* reads back as x */
};

/*
 * d(n) by exact arithmetic; *e10 is a guess of floor(log10 x) that may
 * be one too low (never too high) and is corrected here.  Requires
 * 0 <= n - 1 - e10 <= 32 (the caller's range ensures it).
 */
static struct cand cand_exact(uint64_t m, int e2, int n, int e10,
			      bool lower_closer)
{
	struct cand c;
	int k, q;
	u128 p, rem, err, half5;

	for (;;) {
		k = n - 1 - e10;
		p = (u128)m * pow5[k];
		q = -(e2 + k); /* x 10^k = p / 2^q */
		if (q <= 0) {
			c.d = (uint64_t)(p << -q);
			rem = 0;
		} else {
			c.d = (uint64_t)(p >> q);
			rem = p & (((u128)1 << q) - 1);
		}
		if (c.d < pow10u[n])
			break;
		e10++; /* the guess was one too low */
	}
	c.e10 = c.lg = e10;
	if (rem == 0) {
		c.exact = true;
		return c;
	}
	/* Round to nearest, ties to even; err is |d - x 10^k| 2^q. */
	{
		u128 half = (u128)1 << (q - 1);
		bool up = rem > half || (rem == half && (c.d & 1));

		err = up ? ((u128)1 << q) - rem : rem;
		if (up && ++c.d == pow10u[n]) {
			c.d = pow10u[n - 1];
			c.e10++;
		}
		/* Half an ulp is 5^k / 2 in these units; below a power of
		 * two the gap under x is half as wide.  A decimal exactly
		 * on the boundary reads back as x when m is even. */
		half5 = pow5[k];
		if (!up && lower_closer)
			err *= 2;
		err *= 2;
		c.exact = err < half5 || (err == half5 && !(m & 1));
	}
	return c;
}

static const char pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* Digits of u, most significant first, exactly n of them; two at a
 * time, since the divisions are most of the cost of printing. */
static void put_digits(char *d, uint64_t u, int n)
{
	while (n >= 2) {
		unsigned r = (unsigned)(u % 100);

		u /= 100;
		n -= 2;
		d[n] = pairs[2 * r];
		d[n + 1] = pairs[2 * r + 1];
	}
	if (n)
		d[0] = (char)('0' + u % 10);
}

/* Number of decimal digits of u < 10^17. */
static int ndigits(uint64_t u)
{
	int n = 1;

	while (n < 17 && u >= pow10u[n])
		n++;
	return n;
}

/* u < 10^17 in decimal at out, NUL-terminated; returns the length.  One
 * and two digits, the commonest integers (steps, k, hops), go first. */
static size_t put_uint(char *out, uint64_t u)
{
	int n;

	if (u < 10) {
		out[0] = (char)('0' + u);
		out[1] = '\0';
		return 1;
	}
	if (u < 100) {
		out[0] = pairs[2 * u];
		out[1] = pairs[2 * u + 1];
		out[2] = '\0';
		return 2;
	}
	n = ndigits(u);
	put_digits(out, u, n);
	out[n] = '\0';
	return (size_t)n;
}

size_t ml_fmt_int(char *out, long long v)
{
	uint64_t u = v < 0 ? 0ULL - (uint64_t)v : (uint64_t)v;
	size_t len = v < 0;
	int n;

	if (v < 0)
		out[0] = '-';
	if (u >= pow10u[17]) {
		/* 18 or 19 digits: rare, the plain way */
		char tmp[24];

		n = 0;
		do {
			tmp[n++] = (char)('0' + u % 10);
			u /= 10;
		} while (u);
		while (n)
			out[len++] = tmp[--n];
		out[len] = '\0';
		return len;
	}
	return len + put_uint(out + len, u);
}

/* Strip trailing zeros of n digits; returns the new count. */
static int strip(const char *dig, int n)
{
	while (n > 1 && dig[n - 1] == '0')
		n--;
	return n;
}

/*
 * The slow path: the C library's correctly rounded %.*e and strtod.  A
 * subnormal has fewer significant bits, so its shortest form may have
 * fewer than 15 digits without being d(15): every length is tried.
 */
static int digits_libc(double ax, char *dig, int *e10)
{
	char buf[40], *p, *end;
	int n, i;

	for (n = ax < DBL_MIN ? 1 : 15; n <= 17; n++) {
		snprintf(buf, sizeof(buf), "%.*e", n - 1, ax);
		if (n == 17 || strtod(buf, NULL) == ax)
			break;
	}
	/* buf is "d.ddd...e[+-]XX", or "de[+-]XX" for one digit */
	dig[0] = buf[0];
	for (i = 1, p = buf + 2; i < n; i++, p++)
		dig[i] = *p;
	p = strchr(buf, 'e');
	*e10 = (int)strtol(p + 1, &end, 10);
	return strip(dig, n);
}

int ml_shortest_digits(double x, char *dig, int *e10)
{
	double ax = fabs(x);
	uint64_t bits, m;
	int e2, n, be;

	if (x == 0 || !isfinite(x))
		return 0;
	if (ax < 9007199254740992.0 && ax == floor(ax)) {
		uint64_t u = (uint64_t)ax;

		for (n = 1; n < 17 && u >= pow10u[n]; n++)
			;
		put_digits(dig, u, n);
		*e10 = n - 1;
		return strip(dig, n);
	}
	if (!(ax >= 1e-15 && ax < 1e15))
		return digits_libc(ax, dig, e10);
	memcpy(&bits, &ax, sizeof(bits));
	be = (int)(bits >> 52); /* normal here: ax >= 1e-15 */
	m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
	e2 = be - 1075;
	{
		/* ax >= 2^(e2 + 52): a guess of floor(log10 ax) that is
		 * right or one too low. */
		int g = (int)floor((e2 + 52) * 0.30102999566398120);
		bool lc = (m == (1ULL << 52));
		struct cand c;

		for (n = 15; n <= 17; n++) {
			c = cand_exact(m, e2, n, g, lc);
			if (c.exact || n == 17)
				break;
			g = c.lg;
		}
		put_digits(dig, c.d, n);
		*e10 = c.e10;
		return strip(dig, n);
	}
}

size_t ml_fmt_shortest(char *out, double x)
{
	char dig[20], *o = out;
	int n, e, i;

	if (isnan(x)) {
		memcpy(out, "nan", 4);
		return 3;
	}
	if (isinf(x)) {
		strcpy(out, x < 0 ? "-inf" : "inf");
		return x < 0 ? 4 : 3;
	}
	if (x == 0) {
		strcpy(out, signbit(x) ? "-0" : "0");
		return signbit(x) ? 2 : 1;
	}
	if (x < 0)
		*o++ = '-';
	if (fabs(x) < 9007199254740992.0 && (double)(int64_t)x == x) {
		/* An integer below 2^53, the commonest number: as itself. */
		return (size_t)(o - out) + put_uint(o, (uint64_t)fabs(x));
	}
	n = ml_shortest_digits(x, dig, &e);
	if (e < -4 || e >= 16) {
		*o++ = dig[0];
		if (n > 1) {
			*o++ = '.';
			memcpy(o, dig + 1, (size_t)n - 1);
			o += n - 1;
		}
		*o++ = 'e';
		*o++ = e < 0 ? '-' : '+';
		if (e < 0)
			e = -e;
		if (e >= 100)
			*o++ = (char)('0' + e / 100);
		*o++ = (char)('0' + e / 10 % 10);
		*o++ = (char)('0' + e % 10);
	} else if (e >= 0) {
		for (i = 0; i <= e; i++)
			*o++ = i < n ? dig[i] : '0';
		if (n > e + 1) {
			*o++ = '.';
			memcpy(o, dig + e + 1, (size_t)(n - e - 1));
			o += n - e - 1;
		}
	} else {
		*o++ = '0';
		*o++ = '.';
		for (i = 0; i < -e - 1; i++)
			*o++ = '0';
		memcpy(o, dig, (size_t)n);
		o += n;
	}
	*o = '\0';
	return (size_t)(o - out);
}
