/*
 * check_shortest.c - shortest round-trip printing (src/cli/engine/shortest.c)
 * against the C library as an independent oracle, over millions of
 * doubles drawn with GSL's generator (fixed seed) and hand-picked edges.
 *
 * For each x with output s of n significant digits the oracle demands:
 *  - strtod(s) == x, bit for bit (round trip, negative zero included);
 *  - the digits of s are printf("%.*e", n - 1, x)'s: the nearest n-digit
 *    decimal (correct rounding);
 *  - printf("%.*e", n - 2, x) does not read back as x: no shorter decimal
 *    does (if one did, the nearest one of that length would too);
 *  - the layout: fixed for decimal exponents -4 to 15, else scientific.
 */
#include <check.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "cli/engine/shortest.h"

/* Significant digits of a printed number (mantissa without sign, point,
 * leading zeros and exponent) into dig; returns their count. */
static int sig_digits(const char *s, char *dig)
{
	int n = 0;
	bool lead = true;

	for (; *s && *s != 'e'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (lead && *s == '0')
			continue;
		lead = false;
		dig[n++] = *s;
	}
	while (n > 1 && dig[n - 1] == '0')
		n--; /* integers: 5000040 has 6 significant digits */
	dig[n] = '\0';
	return n;
}

/* The layout of n digits: scientific for a decimal exponent below -4
 * or above 15 (as Python's repr), else fixed. */
static void layout_ref(double x, char *out, int n)
{
	char t[64];
	int e10;

	snprintf(t, sizeof(t), "%.*e", n - 1, x);
	e10 = atoi(strchr(t, 'e') + 1);
	if (e10 < -4 || e10 >= 16)
		strcpy(out, t);
	else
		snprintf(out, 64, "%.*f", n - 1 - e10 > 0 ? n - 1 - e10 : 0, x);
}

static unsigned long nfail;

static void check_one(double x)
{
	char s[64], dig[32], ref[64], rdig[32], lay[64];
	double back;
	int n;

	ml_fmt_shortest(s, x);
	back = strtod(s, NULL);
	if (memcmp(&back, &x, sizeof(x)) != 0) {
		if (nfail++ < 10)
			fprintf(stderr, "round trip: %.17g -> %s\n", x, s);
		return;
	}
	if (x == 0)
		return;
	n = sig_digits(s, dig);
	snprintf(ref, sizeof(ref), "%.*e", n - 1, fabs(x));
	sig_digits(ref, rdig);
	if (strcmp(dig, rdig) != 0) {
		if (nfail++ < 10)
			fprintf(stderr, "not nearest: %.17g -> %s, %s\n", x, s,
				ref);
		return;
	}
	if (n > 1) {
		snprintf(ref, sizeof(ref), "%.*e", n - 2, x);
		if (strtod(ref, NULL) == x) {
			if (nfail++ < 10)
				fprintf(stderr,
					"not shortest: %.17g -> %s, %s\n", x, s,
					ref);
			return;
		}
	}
	layout_ref(x, lay, n);
	if (strcmp(lay, s) != 0 && nfail++ < 10)
		fprintf(stderr, "layout: %.17g -> %s, want %s\n", x, s, lay);
}

static double from_bits(uint64_t b)
{
	double x;

	memcpy(&x, &b, sizeof(x));
	return x;
}

START_TEST(test_examples)
{
	static const struct {
		double x;
		const char *s;
	} ex[] = {
	    {5000040, "5000040"},
	    {1233.917, "1233.917"},
	    {0.1, "0.1"},
	    {0.1 + 0.2, "0.30000000000000004"},
	    {1.0 / 3, "0.3333333333333333"},
	    {2.0 / 3, "0.6666666666666666"},
	    {47.0 / 14, "3.357142857142857"},
	    {1e-5, "1e-05"},
	    {0.0001, "0.0001"},
	    {1e16, "1e+16"},
	    {1e15, "1000000000000000"},
	    {9999999999999998.0, "9999999999999998"},
	    {1e17, "1e+17"},
	    {1e21, "1e+21"},
	    {-12.5, "-12.5"},
	    {9007199254740992.0, "9007199254740992"},
	    {9007199254740994.0, "9007199254740994"},
	    {DBL_MAX, "1.7976931348623157e+308"},
	    {DBL_MIN, "2.2250738585072014e-308"},
	    {4.9406564584124654e-324, "5e-324"},
	    {-0.0, "-0"},
	    {0.0, "0"},
	    {123456789012345678.0, "1.2345678901234568e+17"},
	};
	char s[64];
	size_t i;

	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		ml_fmt_shortest(s, ex[i].x);
		ck_assert_str_eq(s, ex[i].s);
	}
	ml_fmt_shortest(s, NAN);
	ck_assert_str_eq(s, "nan");
	ml_fmt_shortest(s, -INFINITY);
	ck_assert_str_eq(s, "-inf");
}
END_TEST

/* Powers of ten and of two and their neighbours; 2^53 and around it;
 * the smallest subnormals; the boundaries of the exact path. */
START_TEST(test_edges)
{
	int e, j;
	double x;

	nfail = 0;
	for (e = -323; e <= 308; e++) {
		char t[32];

		snprintf(t, sizeof(t), "1e%d", e);
		x = strtod(t, NULL);
		check_one(x);
		check_one(nextafter(x, 0));
		check_one(nextafter(x, INFINITY));
		check_one(-x);
	}
	for (e = -1074; e <= 1023; e++) {
		x = ldexp(1, e);
		check_one(x);
		check_one(nextafter(x, 0));
		check_one(nextafter(x, INFINITY));
	}
	for (j = -5000; j <= 5000; j++) {
		check_one(9007199254740992.0 + j);
		check_one(4503599627370496.0 + j * 0.5);
		check_one(1e15 + j * 0.125);
		check_one(1e-15 * (1 + j * DBL_EPSILON));
	}
	for (j = 1; j < 100000; j++)
		check_one(from_bits((uint64_t)j)); /* subnormals */
	check_one(DBL_MAX);
	check_one(DBL_MIN);
	check_one(-0.0);
	ck_assert_uint_eq(nfail, 0);
}
END_TEST

/* 2.2 x 10^6 doubles: random bit patterns (every exponent), log-uniform in
 * the exact path's range [1e-15, 1e15], and short decimals k / 10^j as
 * users type them (1233.917) and models produce (ratios). */
START_TEST(test_random)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	long i;
	double x;

	gsl_rng_set(r, 20261123);
	nfail = 0;
	for (i = 0; i < 200000; i++) {
		uint64_t b = ((uint64_t)gsl_rng_get(r) << 32) ^ gsl_rng_get(r);

		x = from_bits(b);
		if (isfinite(x))
			check_one(x);
	}
	for (i = 0; i < 1000000; i++) {
		x = pow(10, -15 + 30 * gsl_rng_uniform(r));
		check_one(gsl_rng_uniform(r) < 0.5 ? x : -x);
	}
	for (i = 0; i < 1000000; i++) {
		long k = (long)gsl_rng_uniform_int(r, 10000000);
		int j = (int)gsl_rng_uniform_int(r, 12);

		if (i % 2)
			x = (double)k / pow(10, j);
		else
			x = (double)(k + 1) /
			    (double)(1 + gsl_rng_uniform_int(r, 1000));
		check_one(x);
	}
	gsl_rng_free(r);
	ck_assert_uint_eq(nfail, 0);
}
END_TEST

/* Integers exactly, against printf("%lld"), around every power of ten
 * and at the extremes. */
START_TEST(test_int)
{
	char mine[32], ref[32];
	long long p = 1, v;
	int e, j;

	for (e = 0; e <= 18; e++, p = e <= 18 ? p * 10 : p) {
		for (j = -3; j <= 3; j++) {
			v = p + j;
			ml_fmt_int(mine, v);
			snprintf(ref, sizeof(ref), "%lld", v);
			ck_assert_str_eq(mine, ref);
			ml_fmt_int(mine, -v);
			snprintf(ref, sizeof(ref), "%lld", -v);
			ck_assert_str_eq(mine, ref);
		}
	}
	ck_assert_uint_eq(ml_fmt_int(mine, LLONG_MIN), 20);
	ck_assert_str_eq(mine, "-9223372036854775808");
	ml_fmt_int(mine, LLONG_MAX);
	ck_assert_str_eq(mine, "9223372036854775807");
	ml_fmt_int(mine, 0);
	ck_assert_str_eq(mine, "0");
}
END_TEST

Suite *suite_shortest(void)
{
	Suite *s = suite_create("shortest");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_examples);
	tcase_add_test(tc, test_int);
	tcase_add_test(tc, test_edges);
	tcase_add_test(tc, test_random);
	suite_add_tcase(s, tc);
	return s;
}
