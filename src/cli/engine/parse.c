/*
 * parse.c - strict numbers, time units and value lists (see parse.h).
 *
 * Numbers are parsed with strtod/strtoll, requiring the whole string to be
 * consumed and checking ERANGE: "12abc", "nan", "inf", hexadecimal and
 * empty strings are all rejected.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/msg.h"
#include "cli/engine/parse.h"

/* Only decimal notation: strtod would also take hex, inf, nan, spaces. */
static bool looks_decimal(const char *s)
{
	if (*s == '+' || *s == '-')
		s++;
	if (!isdigit((unsigned char)*s) && *s != '.')
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s) && *s != '.' && *s != 'e' &&
		    *s != 'E' && *s != '+' && *s != '-')
			return false;
	return true;
}

const char *ml_parse_real(const char *s, double *out)
{
	char *end;
	double x;

	if (*s == '\0')
		return "is empty";
	if (!looks_decimal(s))
		return "is not a number";
	errno = 0;
	x = strtod(s, &end);
	if (end == s || *end != '\0')
		return "is not a number";
	if (errno == ERANGE && (x == HUGE_VAL || x == -HUGE_VAL))
		return "is out of range";
	if (!isfinite(x))
		return "is out of range";
	/* A value too small for a double is as wrong as one too large: a
	 * non-zero number that reads as 0 (1e-400) is out of range.  One
	 * that keeps a few digits (a subnormal) is kept. */
	if (x == 0.0 && strpbrk(s, "123456789") != NULL) {
		const char *e = strpbrk(s, "eE");

		if (e == NULL || strpbrk(s, "123456789") < e)
			return "is out of range (too small)";
	}
	*out = x;
	return NULL;
}

/*
 * An integer in decimal notation, exactly, in integer arithmetic and of
 * any length: DIGITS[.DIGITS][e[+-]DIGITS].  "1e6", "64.0" and "007" are
 * integers; "2.5", "1e-400" and "1.0000000000000000001" are not, and a
 * value outside the range of long long is out of range: nothing goes
 * through a double, so nothing is rounded.
 */
const char *ml_parse_int(const char *s, long long *out)
{
	const char *p = s, *d0, *d1, *f0 = NULL, *f1 = NULL;
	bool neg = false;
	long long ex = 0, e10;
	unsigned long long v = 0, lim;
	const char *q, *span[2][2];
	int k;

	if (*s == '\0')
		return "is empty";
	if (!looks_decimal(s))
		return "is not a number";
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	for (d0 = p; isdigit((unsigned char)*p); p++)
		;
	d1 = p;
	if (*p == '.') {
		for (f0 = ++p; isdigit((unsigned char)*p); p++)
			;
		f1 = p;
	}
	if (d0 == d1 && (f0 == NULL || f0 == f1))
		return "is not a number";
	if (*p == 'e' || *p == 'E') {
		bool eneg = false;

		p++;
		if (*p == '+' || *p == '-')
			eneg = *p++ == '-';
		if (!isdigit((unsigned char)*p))
			return "is not a number";
		/* Any exponent beyond 10^6 is as good as infinite. */
		for (; isdigit((unsigned char)*p); p++)
			if (ex < 1000000)
				ex = ex * 10 + (*p - '0');
		ex = eneg ? -ex : ex;
	}
	if (*p != '\0')
		return "is not a number";
	/* Digits d0..d1 then f0..f1, times 10^ex: drop trailing zeros of
	 * the fraction into the exponent, then the integer part's. */
	if (f0 != NULL) {
		while (f1 > f0 && f1[-1] == '0')
			f1--;
		if (f1 == f0)
			f0 = f1 = NULL;
	}
	e10 = ex - (f0 ? (long long)(f1 - f0) : 0);
	if (f0 == NULL)
		while (d1 > d0 && d1[-1] == '0') {
			d1--;
			e10++;
		}
	while (d0 < d1 && *d0 == '0')
		d0++;
	if (d0 == d1 && f0 != NULL)
		for (; f0 < f1 && *f0 == '0'; f0++)
			;
	if (d0 == d1 && (f0 == NULL || f0 == f1)) {
		*out = 0;
		return NULL;
	}
	if (e10 < 0)
		return "is not an integer";
	lim = neg ? (unsigned long long)LLONG_MAX + 1 : LLONG_MAX;
	span[0][0] = d0;
	span[0][1] = d1;
	span[1][0] = f0 ? f0 : d1;
	span[1][1] = f0 ? f1 : d1;
	for (k = 0; k < 2; k++)
		for (q = span[k][0]; q < span[k][1]; q++) {
			unsigned long long dg = (unsigned long long)(*q - '0');

			if (v > (lim - dg) / 10)
				return "is out of range";
			v = v * 10 + dg;
		}
	for (; e10 > 0; e10--) {
		if (v > lim / 10)
			return "is out of range";
		v *= 10;
	}
	*out = neg ? (long long)(0 - v) : (long long)v;
	return NULL;
}

double ml_time_scale(const char *unit)
{
	if (strcmp(unit, "ns") == 0)
		return 1e-3;
	if (strcmp(unit, "us") == 0)
		return 1.0;
	if (strcmp(unit, "ms") == 0)
		return 1e3;
	if (strcmp(unit, "s") == 0)
		return 1e6;
	return 0.0;
}

bool ml_opt_is_int(const struct ml_opt *opt)
{
	return opt->kind == ML_OPT_INT || opt->kind == ML_OPT_CHOICE ||
	       opt->kind == ML_OPT_FLAG;
}

/* Errors are reported through this small context to keep signatures short. */
struct pctx {
	const struct ml_opt *opt;
	const char *time_unit;
	char *err;
	size_t errlen;
};

static int fail(struct pctx *c, const char *tok, const char *why)
{
	char q[ML_QUOTE_LEN];

	snprintf(c->err, c->errlen, "%s %s", ml_quote(q, sizeof(q), tok), why);
	return -1;
}

/* A time value: number with optional unit suffix, converted to the
 * command's time unit. */
static int parse_time(struct pctx *c, const char *tok, double *out)
{
	char *num;
	size_t n = strlen(tok), i = n;
	const char *why;
	double scale = 1.0, x;
	bool cycles = strcmp(c->time_unit, "us") != 0;

	while (i > 0 && isalpha((unsigned char)tok[i - 1]))
		i--;
	/* The number first: "abc", "nan" and "us" are not numbers, whatever
	 * their letters look like. */
	num = strndup(tok, i);
	if (num == NULL)
		return fail(c, tok, "cannot be parsed: out of memory");
	why = ml_parse_real(num, out);
	free(num);
	if (why && (i == 0 || strcmp(why, "is not a number") == 0))
		return fail(c, tok,
			    cycles ? "is not a number (a time in cycles: 10, "
				     "2.5)"
				   : "is not a number (a time: 10, 2.5us, "
				     "300ns, 1ms, 1s)");
	if (why)
		return fail(c, tok, why);
	if (i < n) {
		if (cycles)
			return fail(c, tok,
				    "takes no unit suffix: times are in cycles");
		scale = ml_time_scale(tok + i);
		if (scale == 0.0)
			return fail(c, tok,
				    "has an unknown unit (use ns, us, ms or s)");
	}
	x = *out;
	*out *= scale;
	if (!isfinite(*out) || (*out == 0.0 && x != 0.0))
		return fail(c, tok, "is out of range");
	return 0;
}

/* A choice's name as typed: '-' and '_' are the same letter (MPICH's
 * algorithms are written with '_', mcastlat's words with '-'). */
static int same_choice(const char *tok, const char *name)
{
	for (; *tok && *name; tok++, name++)
		if (*tok != *name && !(strchr("-_", *tok) && strchr("-_", *name)))
			return 0;
	return *tok == *name;
}

static int parse_choice(struct pctx *c, const char *tok, long long *out)
{
	const struct ml_opt *o = c->opt;
	const char *why;
	size_t i;

	for (i = 0; o->choices[i]; i++)
		if (same_choice(tok, o->choices[i])) {
			*out = (o->flags & ML_OPT_INTOK) ? -(long long)i - 1
							 : (long long)i;
			return 0;
		}
	if (o->flags & ML_OPT_INTOK) {
		why = ml_parse_int(tok, out);
		if (why == NULL && *out >= 0) /* negatives encode choices */
			return 0;
	}
	{
		char list[256] = "";
		size_t len = 0;

		for (i = 0; o->choices[i] && len < sizeof(list) - 1; i++)
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%s", i ? ", " : "",
						o->choices[i]);
		if (o->flags & ML_OPT_ALL && len < sizeof(list) - 1)
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						", all");
		if (o->flags & ML_OPT_INTOK && len < sizeof(list) - 1)
			snprintf(list + len, sizeof(list) - len,
				 " or an integer >= %lld", o->imin);
		{
			char msg[300];

			snprintf(msg, sizeof(msg), "is not one of: %s", list);
			return fail(c, tok, msg);
		}
	}
}

/* One scalar of the option's kind. */
/*
 * A byte count with an optional suffix: k, M, G (SI: 10^3, 10^6, 10^9,
 * with or without a final B; K too, as numfmt) or KiB, MiB, GiB (2^10,
 * 2^20, 2^30), as in 1500, 64k, 1.5M, 64KiB.  SI values are exact
 * decimals (1.5M is 1500000; 1.0000005M is not an integer); binary
 * ones take an integer count.
 */
static int parse_bytes(struct pctx *c, const char *tok, long long *out)
{
	static const struct {
		const char *sfx;
		int e10;		/* SI: power of ten */
		long long mul;		/* binary: multiplier */
	} sfx[] = {{"k", 3, 0},	   {"K", 3, 0},	   {"kB", 3, 0}, {"KB", 3, 0},
		   {"M", 6, 0},	   {"MB", 6, 0},   {"G", 9, 0},	 {"GB", 9, 0},
		   {"B", 0, 1},	   {"KiB", 0, 1024}, {"MiB", 0, 1048576},
		   {"GiB", 0, 1073741824}};
	size_t n = strlen(tok), i = n, k;
	const char *why;
	char *num;
	long long v;

	while (i > 0 && isalpha((unsigned char)tok[i - 1]))
		i--;
	if (i == n) {
		why = ml_parse_int(tok, out);
		return why ? fail(c, tok, why) : 0;
	}
	for (k = 0; k < sizeof(sfx) / sizeof(sfx[0]); k++)
		if (strcmp(tok + i, sfx[k].sfx) == 0)
			break;
	num = malloc(i + 8);
	if (num == NULL)
		return fail(c, tok, "cannot be parsed: out of memory");
	memcpy(num, tok, i);
	num[i] = '\0';
	if (k == sizeof(sfx) / sizeof(sfx[0]) || memchr(num, 'e', i) ||
	    memchr(num, 'E', i)) {
		double x;
		bool isnum = i > 0 && ml_parse_real(num, &x) == NULL;

		free(num);
		/* "abc" is not a number; "64kb" is a number, badly sized. */
		return fail(c, tok, isnum ? "has an unknown size suffix (use k, "
					    "M, G, KiB, MiB or GiB)"
					  : "is not a number");
	}
	/* SI: the exact decimal mantissa times 10^e, as "1.5e6". */
	if (sfx[k].mul == 0)
		snprintf(num + i, 8, "e%d", sfx[k].e10);
	else
		num[i] = '\0';
	why = ml_parse_int(num, &v);
	free(num);
	if (why)
		return fail(c, tok, why);
	if (sfx[k].mul > 1) {
		if (v > LLONG_MAX / sfx[k].mul || v < LLONG_MIN / sfx[k].mul)
			return fail(c, tok, "is out of range");
		v *= sfx[k].mul;
	}
	*out = v;
	return 0;
}

static int parse_scalar(struct pctx *c, const char *tok, union ml_val *v)
{
	const char *why;

	switch (c->opt->kind) {
	case ML_OPT_INT:
		if (c->opt->unit && strcmp(c->opt->unit, "bytes") == 0)
			return parse_bytes(c, tok, &v->i);
		why = ml_parse_int(tok, &v->i);
		return why ? fail(c, tok, why) : 0;
	case ML_OPT_REAL:
		why = ml_parse_real(tok, &v->r);
		return why ? fail(c, tok, why) : 0;
	case ML_OPT_TIME:
		return parse_time(c, tok, &v->r);
	case ML_OPT_CHOICE:
		return parse_choice(c, tok, &v->i);
	case ML_OPT_FLAG:
	case ML_OPT_TEXT:
		break;
	}
	return fail(c, tok, "cannot be parsed");
}

static long long int_max(const struct ml_opt *o)
{
	return o->imax > o->imin && o->imax < ML_INT_MAX ? o->imax : ML_INT_MAX;
}

static void fmt_bound(char *buf, size_t len, const struct ml_opt *o,
		      bool upper)
{
	if (ml_opt_is_int(o))
		snprintf(buf, len, "%lld", upper ? int_max(o) : o->imin);
	else
		snprintf(buf, len, "%.17g", upper ? o->max : o->min);
}

/* Domain check of one value against the option's min/max. */
static int check_domain(struct pctx *c, const char *tok, union ml_val v)
{
	const struct ml_opt *o = c->opt;
	bool isint = ml_opt_is_int(o), bad, hasmax;
	char lo[32], hi[32];

	if (o->kind == ML_OPT_CHOICE) {
		if (!(o->flags & ML_OPT_INTOK) || v.i < 0)
			return 0;
	}
	if (isint) {
		/* No option goes above 2^53 (ML_INT_MAX): the models compute
		 * in double, which holds every integer up to there exactly. */
		hasmax = o->imax > o->imin;
		bad = v.i < o->imin || v.i > int_max(o);
		if (bad && !hasmax && v.i > ML_INT_MAX)
			hasmax = true; /* "outside [min,2^53]" */
	} else {
		hasmax = o->max > o->min && o->max != HUGE_VAL;
		bad = v.r < o->min || (hasmax && v.r > o->max) ||
		      ((o->flags & ML_OPT_MINOPEN) && v.r == o->min);
	}
	if (!bad)
		return 0;
	{
		/* A range is quoted as a whole: "'0:8' must be >= 1". */
		char q[ML_QUOTE_LEN];
		const char *t = strchr(tok, ':') || strlen(tok) > 40
					? ml_quote(q, sizeof(q), tok)
					: tok;

		fmt_bound(lo, sizeof(lo), o, false);
		fmt_bound(hi, sizeof(hi), o, true);
		if (hasmax)
			snprintf(c->err, c->errlen, "%s is outside %c%s,%s]",
				 t, (o->flags & ML_OPT_MINOPEN) ? '(' : '[',
				 lo, hi);
		else
			snprintf(c->err, c->errlen, "%s must be %s%s %s",
				 t, isint ? "an integer " : "",
				 (o->flags & ML_OPT_MINOPEN) ? ">" : ">=", lo);
	}
	return -1;
}

static const double dec_p10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,
				   1e6, 1e7, 1e8,  1e9,  1e10, 1e11,
				   1e12, 1e13, 1e14, 1e15};

/*
 * The decimal form of a real LIN item: the least dec <= 15 at which
 * first and step are integers a and s over 10^dec (each reads back as
 * the same double), when every a + i s of the item stays below 2^53
 * (exact in a double).  Otherwise dec = -1.
 */
static void find_decimal(struct ml_item *it)
{
	double f = it->first.r, st = it->step.r, lim = 9007199254740992.0;
	int d;

	it->dec = -1;
	for (d = 0; d <= 15; d++) {
		double a = nearbyint(f * dec_p10[d]), s = nearbyint(st * dec_p10[d]);

		if (a / dec_p10[d] != f || s / dec_p10[d] != st)
			continue;
		if (fabs(a) + (double)it->count * fabs(s) >= lim)
			return;
		it->dec = d;
		it->a = a;
		it->s = s;
		return;
	}
}

/* Point i of a range by its formula, first + i*step or first * factor^i
 * (never accumulated, as coreutils seq). */
static union ml_val item_formula(const struct ml_item *it, bool is_int,
				 unsigned long long i)
{
	union ml_val v = it->first;

	if (it->kind == ML_ITEM_ONE || i == 0)
		return v;
	if (it->kind == ML_ITEM_LIN) {
		if (is_int)
			v.i = (long long)((unsigned long long)it->first.i +
					  i * (unsigned long long)it->step.i);
		else if (it->dec >= 0)
			v.r = (it->a + (double)i * it->s) / dec_p10[it->dec];
		else
			v.r = it->first.r + (double)i * it->step.r;
	} else if (is_int) {
		long long x = it->first.i;

		while (i--)
			x *= it->step.i;
		v.i = x;
	} else {
		v.r = it->first.r * pow(it->step.r, (double)i);
		/* 1e-300 * 10^600: the power alone overflows, the point
		 * does not; in two halves it stays in range. */
		if (!isfinite(v.r) || v.r == 0.0)
			v.r = it->first.r * pow(it->step.r, (double)(i / 2)) *
			      pow(it->step.r, (double)(i - i / 2));
	}
	return v;
}

union ml_val ml_item_at(const struct ml_item *it, bool is_int,
			unsigned long long i)
{
	/* The last point is stored: the exact end when the range hits it. */
	if (i != 0 && i == it->count - 1)
		return it->last;
	return item_formula(it, is_int, i);
}

/*
 * first:step:last, the other common order (numpy, MATLAB), would give
 * one point silently: a step that overshoots a range that is not empty
 * is an error that shows the rule and the reading meant.
 */
static int step_misuse(struct pctx *c, struct ml_item *it, bool isint,
		       const char *tok)
{
	bool over;

	if (isint)
		over = it->last.i > it->first.i &&
		       (it->kind == ML_ITEM_LIN
			    ? it->step.i > 0 &&
				      (unsigned long long)it->step.i >
					      (unsigned long long)it->last.i -
						      (unsigned long long)it->first.i
			    : it->first.i > 0 && it->step.i >= 2 &&
				      it->first.i > it->last.i / it->step.i);
	else
		over = it->last.r > it->first.r &&
		       (it->kind == ML_ITEM_LIN
			    ? it->step.r > (it->last.r - it->first.r) *
						   (1 + ML_RANGE_EPS)
			    : it->first.r > 0 && it->step.r > 1 &&
				      it->first.r * it->step.r >
					      it->last.r * (1 + ML_RANGE_EPS));
	if (!over)
		return 0;
	return fail(c, tok, it->kind == ML_ITEM_LIN
				    ? "has a step larger than its range (one "
				      "point); ranges are first:last:step"
				    : "has a factor larger than its range (one "
				      "point); ranges are first:last:*factor");
}

/* Count the points of a linear or geometric item, or fail. */
static int count_item(struct pctx *c, struct ml_item *it, bool isint,
		      const char *tok)
{
	if (step_misuse(c, it, isint, tok))
		return -1;
	if (isint) {
		long long a = it->first.i, b = it->last.i, s = it->step.i;
		unsigned long long n = 0;

		if (b < a)
			return fail(c, tok,
				    "is a range whose end lies before its start");
		if (it->kind == ML_ITEM_LIN) {
			if (s <= 0)
				return fail(c, tok,
					    "has a zero or negative step");
			n = ((unsigned long long)b - (unsigned long long)a) /
			    (unsigned long long)s;
			if (n >= ML_MAX_POINTS) /* before n + 1 can wrap */
				return fail(c, tok,
					    "has more than 10^9 points");
			n++;
			/* In unsigned arithmetic: a + (n-1) s is in [a, b],
			 * but (n-1) s itself may exceed LLONG_MAX. */
			it->last.i = (long long)((unsigned long long)a +
						 (n - 1) * (unsigned long long)s);
		} else {
			long long x = a;

			if (s < 2)
				return fail(c, tok,
					    "needs an integer factor >= 2");
			if (a <= 0)
				return fail(c, tok,
					    "is a geometric range that must start above 0");
			for (n = 1; x <= b / s; n++)
				x *= s;
			it->last.i = x;
		}
		it->count = n;
	} else {
		double a = it->first.r, b = it->last.r, s = it->step.r, q;

		if (b < a)
			return fail(c, tok,
				    "is a range whose end lies before its start");
		if (it->kind == ML_ITEM_LIN) {
			if (!(s > 0))
				return fail(c, tok,
					    "has a zero or negative step");
			q = (b - a) / s;
		} else {
			if (!(s > 1))
				return fail(c, tok,
					    "needs a factor > 1");
			if (!(a > 0))
				return fail(c, tok,
					    "is a geometric range that must start above 0");
			/* log(b) - log(a), not log(b / a), which overflows
			 * for 1e-300:1e300.  The tolerance is the relative
			 * one on the value, carried to the exponent. */
			q = (log(b) - log(a)) / log(s);
			q += ML_RANGE_EPS / log(s);
		}
		if (it->kind == ML_ITEM_LIN)
			q += ML_RANGE_EPS * fmax(1.0, q);
		if (!(q < (double)ML_MAX_POINTS))
			return fail(c, tok,
				    "has more than 10^9 points");
		it->count = (unsigned long long)floor(q) + 1;
		if (it->kind == ML_ITEM_LIN)
			find_decimal(it);
		/* The last point: the end itself when it is hit within the
		 * tolerance; a point beyond the end (rounding) is dropped. */
		for (;;) {
			it->last = item_formula(it, false, it->count - 1);
			if (fabs(it->last.r - b) <= ML_RANGE_EPS * fabs(b)) {
				it->last.r = b;
				break;
			}
			if (it->last.r <= b || it->count == 1)
				break;
			it->count--;
		}
	}
	if (it->count > ML_MAX_POINTS)
		return fail(c, tok, "has more than 10^9 points");
	return 0;
}

/* Split tok at ':' into up to three parts; returns number of parts. */
static int split_range(char *tok, char *part[3])
{
	int n = 1;
	char *p;

	part[0] = tok;
	for (p = tok; *p; p++)
		if (*p == ':') {
			if (n == 3)
				return 4;
			*p = '\0';
			part[n++] = p + 1;
		}
	return n;
}

static int parse_item_parts(struct pctx *c, char *tok, const char *orig,
			    struct ml_item *it);

static int parse_item(struct pctx *c, char *tok, struct ml_item *it)
{
	char *orig;
	int rc;

	/* tok is cut into parts: messages quote the item whole. */
	orig = strdup(tok);
	if (orig == NULL)
		return fail(c, tok, "cannot be parsed: out of memory");
	rc = parse_item_parts(c, tok, orig, it);
	free(orig);
	return rc;
}

/* The forms of a value list, for a message about one that is not. */
#define LIST_FORMS "a list is 4,8,16; a range 4:64, 4:64:4 or 4:1024:*2"

/*
 * An item that is not a number but looks meant as a list or a range
 * ("2-1024", "2..64", "4;8") gets the forms named; parse_scalar() has
 * written "'TOK' is not a number...".
 */
static int hint_forms(struct pctx *c, const char *tok)
{
	const char *p;
	bool sep = false;

	for (p = tok + 1; *p && !sep; p++)
		sep = strchr(";/_~x", *p) != NULL || (*p == '.' && p[1] == '.') ||
		      (*p == '-' && p[-1] != 'e' && p[-1] != 'E');
	if (sep && strstr(c->err, "is not a number") && !strchr(c->err, '(')) {
		size_t len = strlen(c->err);

		snprintf(c->err + len, c->errlen - len, " (%s)", LIST_FORMS);
	}
	return -1;
}

/* A part of a range that is not a number: the range is quoted whole,
 * with the forms a range takes. */
static int bad_part(struct pctx *c, const char *orig, const char *part,
		    union ml_val *v)
{
	char q[ML_QUOTE_LEN], why[160];
	const char *w;

	if (parse_scalar(c, part, v) == 0)
		return 0;
	w = strstr(c->err, "' ");
	if (w == NULL || strncmp(w + 2, "is not a number", 15) != 0)
		return -1;
	snprintf(why, sizeof(why), "is not a range: %s is not a number (%s)",
		 ml_quote(q, sizeof(q), part), LIST_FORMS);
	return fail(c, orig, why);
}

static int parse_item_parts(struct pctx *c, char *tok, const char *orig,
			    struct ml_item *it)
{
	char *part[3];
	bool isint = ml_opt_is_int(c->opt);
	int n;

	memset(it, 0, sizeof(*it));
	it->dec = -1;
	n = split_range(tok, part);
	if (n == 1) {
		it->kind = ML_ITEM_ONE;
		it->count = 1;
		if (parse_scalar(c, tok, &it->first))
			return c->opt->kind == ML_OPT_CHOICE ? -1
							     : hint_forms(c, tok);
		it->last = it->first;
		return check_domain(c, orig, it->first);
	}
	if (n == 4 || (c->opt->kind == ML_OPT_CHOICE &&
		       !(c->opt->flags & ML_OPT_INTOK)))
		return fail(c, orig, "is not a valid range");
	if (bad_part(c, orig, part[0], &it->first) ||
	    bad_part(c, orig, part[1], &it->last))
		return -1;
	if (c->opt->kind == ML_OPT_CHOICE &&
	    (it->first.i < 0 || it->last.i < 0))
		return fail(c, orig, "is not a valid range");
	it->kind = ML_ITEM_LIN;
	if (isint)
		it->step.i = 1;
	else
		it->step.r = 1.0;
	if (n == 3 && part[2][0] == '*') {
		const char *why;

		it->kind = ML_ITEM_GEO;
		if (isint) {
			why = ml_parse_int(part[2] + 1, &it->step.i);
		} else {
			why = ml_parse_real(part[2] + 1, &it->step.r);
		}
		if (why) {
			char msg[64];

			snprintf(msg, sizeof(msg), "has a factor that %s", why);
			return fail(c, orig, msg);
		}
	} else if (n == 3) {
		if (bad_part(c, orig, part[2], &it->step))
			return -1;
	}
	if (count_item(c, it, isint, orig))
		return -1;
	if (check_domain(c, orig, it->first))
		return -1;
	return check_domain(c, orig, it->last);
}

static int add_item(struct ml_vlist *vl, const struct ml_item *it)
{
	struct ml_item *p;

	p = realloc(vl->items, (vl->nitems + 1) * sizeof(*p));
	if (p == NULL)
		return -1;
	vl->items = p;
	p[vl->nitems] = *it;
	p[vl->nitems].start = vl->count;
	vl->nitems++;
	vl->count += it->count;
	return 0;
}

/* "all" for an ML_OPT_ALL choice: every choice in order. */
static int add_all(struct ml_vlist *vl, const struct ml_opt *opt)
{
	struct ml_item it = {.kind = ML_ITEM_ONE, .count = 1};
	size_t i;

	for (i = 0; opt->choices[i] &&
		    (opt->all_count == 0 || i < opt->all_count);
	     i++) {
		it.first.i = it.last.i = (opt->flags & ML_OPT_INTOK)
					     ? -(long long)i - 1
					     : (long long)i;
		if (add_item(vl, &it))
			return -1;
	}
	return 0;
}

int ml_vlist_parse(struct ml_vlist *vl, const struct ml_opt *opt,
		   const char *text, const char *time_unit, char *err,
		   size_t errlen)
{
	struct pctx c = {opt, time_unit, err, errlen};
	char *buf, *tok, *next;
	struct ml_item it;
	int rc = -1;

	memset(vl, 0, sizeof(*vl));
	vl->opt = opt;
	buf = strdup(text);
	if (buf == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (tok = buf;; tok = next + 1) {
		next = strchr(tok, ',');
		if (next)
			*next = '\0';
		if (*tok == '\0') {
			if (*text == '\0')
				snprintf(err, errlen, "empty value");
			else
				fail(&c, text,
				     "has an empty item in its list");
			goto out;
		}
		if (next && (opt->flags & ML_OPT_SINGLE)) {
			fail(&c, text, "takes a single value");
			goto out;
		}
		if (opt->kind == ML_OPT_CHOICE && (opt->flags & ML_OPT_ALL) &&
		    strcmp(tok, "all") == 0) {
			if (add_all(vl, opt))
				goto nomem;
		} else if (parse_item(&c, tok, &it)) {
			goto out;
		} else if (add_item(vl, &it)) {
			goto nomem;
		}
		if (vl->count > ML_MAX_POINTS) {
			fail(&c, text, "has more than 10^9 points");
			goto out;
		}
		if (next == NULL)
			break;
	}
	if ((opt->flags & ML_OPT_SINGLE) && vl->count != 1) {
		fail(&c, text, "takes a single value");
		goto out;
	}
	rc = 0;
	goto out;
nomem:
	snprintf(err, errlen, "out of memory");
out:
	free(buf);
	if (rc)
		ml_vlist_free(vl);
	return rc;
}

void ml_vlist_free(struct ml_vlist *vl)
{
	free(vl->items);
	vl->items = NULL;
	vl->nitems = 0;
	vl->count = 0;
}

union ml_val ml_vlist_at(const struct ml_vlist *vl, unsigned long long idx)
{
	size_t lo = 0, hi = vl->nitems;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (vl->items[mid].start <= idx)
			lo = mid;
		else
			hi = mid;
	}
	return ml_item_at(&vl->items[lo], ml_opt_is_int(vl->opt),
			  idx - vl->items[lo].start);
}
