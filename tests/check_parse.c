/* check_parse.c - strict numbers and value lists (src/cli/parse.c). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "cli/parse.h"

static const char *const choices[] = {"alpha", "beta", "gamma", NULL};

static const struct ml_opt opt_int = {"n", ML_OPT_INT, "1", NULL, 0, 0,
				      0, 0, 0, NULL, "an integer", 0};
static const struct ml_opt opt_real = {"x", ML_OPT_REAL, "1", NULL, -1e300, 1e300,
				       0, 0, 0, NULL, "a real", 0};
static const struct ml_opt opt_prob = {"p", ML_OPT_REAL, "0", NULL, 0, 1,
				       0, 0, 0, NULL, "a probability", 0};
static const struct ml_opt opt_pos = {"g", ML_OPT_INT, "2", NULL, 0, 0,
				      2, 0, 0, NULL, "at least 2", 0};
static const struct ml_opt opt_time = {"t", ML_OPT_TIME, "1", NULL, 0, 0,
				       0, 0, 0, NULL, "a time", 0};
static const struct ml_opt opt_choice = {"c", ML_OPT_CHOICE, "alpha", NULL,
					 0, 0, 0, 0, ML_OPT_ALL, choices,
					 "a choice", 0};
static const struct ml_opt opt_intok = {"k", ML_OPT_CHOICE, "alpha", NULL,
					0, 0, 1, 0, ML_OPT_INTOK, choices,
					"choice or integer", 0};

/* Expand a list fully (small lists only). */
static size_t expand(const char *text, const struct ml_opt *o,
		     const char *unit, union ml_val *out, size_t max)
{
	struct ml_vlist vl;
	char err[256];
	size_t i, n;

	ck_assert_msg(ml_vlist_parse(&vl, o, text, unit, err, sizeof(err)) ==
			      0,
		      "'%s' rejected: %s", text, err);
	n = (size_t)vl.count;
	for (i = 0; i < n && i < max; i++)
		out[i] = ml_vlist_at(&vl, i);
	ml_vlist_free(&vl);
	return n;
}

START_TEST(test_strict_numbers)
{
	static const char *bad[] = {"",	   "12abc", "nan", "inf",  "-inf",
				    "0x10", " 1",   "1 ",  "1e400", "--1",
				    ".",    "e5",   "+",   "1e",   "infinity"};
	double x;
	long long v;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(ml_parse_real(bad[i], &x) != NULL,
			      "'%s' accepted as real", bad[i]);
		ck_assert_msg(ml_parse_int(bad[i], &v) != NULL,
			      "'%s' accepted as int", bad[i]);
	}
	ck_assert_ptr_null(ml_parse_real("-2.5e-3", &x));
	ck_assert_double_eq(x, -0.0025);
	ck_assert_ptr_null(ml_parse_int("4611686018427387904", &v));
	ck_assert(v == 4611686018427387904LL); /* 2^62 exactly */
	ck_assert_ptr_nonnull(ml_parse_int("99999999999999999999", &v));
	ck_assert_ptr_nonnull(ml_parse_int("2.5", &v));
	ck_assert_ptr_null(ml_parse_int("1e6", &v)); /* an exact integer */
	ck_assert(v == 1000000);
}
END_TEST

START_TEST(test_list_forms)
{
	union ml_val v[64];

	/* The table of SPEC 1.1, one row each. */
	ck_assert_uint_eq(expand("64", &opt_int, "us", v, 64), 1);
	ck_assert(v[0].i == 64);
	ck_assert_uint_eq(expand("4,8,16", &opt_int, "us", v, 64), 3);
	ck_assert(v[0].i == 4 && v[1].i == 8 && v[2].i == 16);
	ck_assert_uint_eq(expand("4:64", &opt_int, "us", v, 64), 61);
	ck_assert(v[0].i == 4 && v[1].i == 5 && v[60].i == 64);
	ck_assert_uint_eq(expand("4:64:4", &opt_int, "us", v, 64), 16);
	ck_assert(v[1].i == 8 && v[15].i == 64);
	ck_assert_uint_eq(expand("4:1024:*2", &opt_int, "us", v, 64), 9);
	ck_assert(v[0].i == 4 && v[3].i == 32 && v[8].i == 1024);
	ck_assert_uint_eq(expand("0.001:0.01:0.001,0.02", &opt_real, "us", v,
				 64),
			  11);
	ck_assert_double_eq_tol(v[4].r, 0.005, 1e-15);
	ck_assert_double_eq(v[9].r, 0.01); /* the end, hit within 1e-9 */
	ck_assert_double_eq(v[10].r, 0.02);
}
END_TEST

START_TEST(test_range_details)
{
	union ml_val v[64];

	/* The end is included only when hit. */
	ck_assert_uint_eq(expand("1:10:4", &opt_int, "us", v, 64), 3);
	ck_assert(v[2].i == 9);
	/* 0.1 steps to 1: 11 points, the last exactly 1 (0.1 * 10 is not). */
	ck_assert_uint_eq(expand("0:1:0.1", &opt_real, "us", v, 64), 11);
	ck_assert_double_eq(v[10].r, 1.0);
	/* Decimal first and step: point i is the decimal first + i step,
	 * rounded once (0.3, where 3 * 0.1 is 0.30000000000000004). */
	ck_assert(v[3].r == 0.3 && 3 * 0.1 != 0.3);
	ck_assert_uint_eq(expand("0:0.02:0.001", &opt_real, "us", v, 64), 21);
	ck_assert(v[9].r == 0.009 && v[13].r == 0.013 && v[18].r == 0.018);
	ck_assert_uint_eq(expand("-1.5:1.5:0.7", &opt_real, "us", v, 64), 5);
	ck_assert(v[1].r == -0.8 && v[3].r == 0.6);
	/* A step that is no short decimal: first + i*step, seq-style. */
	ck_assert_uint_eq(expand("0:1:0.33333333333333331", &opt_real, "us",
				 v, 64), 4);
	ck_assert(v[2].r == 2 * 0.33333333333333331);
	ck_assert_uint_eq(expand("1:1000:*10", &opt_real, "us", v, 64), 4);
	ck_assert_double_eq(v[3].r, 1000.0);
	ck_assert_uint_eq(expand("1.5:2.5:0.25", &opt_real, "us", v, 64), 5);
	ck_assert_double_eq(v[4].r, 2.5);
	/* A one-point range. */
	ck_assert_uint_eq(expand("7:7", &opt_int, "us", v, 64), 1);
	/* Negative ranges are fine where the domain allows them. */
	ck_assert_uint_eq(expand("-2:2", &opt_real, "us", v, 64), 5);
	ck_assert(v[0].r == -2 && v[4].r == 2);
}
END_TEST

START_TEST(test_time_units)
{
	union ml_val v[8];

	ck_assert_uint_eq(expand("500ns,2us,0.5ms,1s,3", &opt_time, "us", v, 8),
			  5);
	ck_assert_double_eq_tol(v[0].r, 0.5, 1e-15);
	ck_assert_double_eq(v[1].r, 2.0);
	ck_assert_double_eq(v[2].r, 500.0);
	ck_assert_double_eq(v[3].r, 1e6);
	ck_assert_double_eq(v[4].r, 3.0);
	ck_assert_uint_eq(expand("1us:3us:500ns", &opt_time, "us", v, 8), 5);
	ck_assert_double_eq(v[4].r, 3.0);
	ck_assert_uint_eq(expand("5", &opt_time, "cycles", v, 8), 1);
}
END_TEST

START_TEST(test_choices)
{
	union ml_val v[8];

	ck_assert_uint_eq(expand("gamma,alpha", &opt_choice, "us", v, 8), 2);
	ck_assert(v[0].i == 2 && v[1].i == 0);
	ck_assert_uint_eq(expand("all", &opt_choice, "us", v, 8), 3);
	ck_assert(v[2].i == 2);
	ck_assert_uint_eq(expand("beta,3,1:2", &opt_intok, "us", v, 8), 4);
	ck_assert(ml_choice_of(v[0].i) == 1);
	ck_assert(ml_choice_of(v[1].i) == -1 && v[1].i == 3);
	ck_assert(v[2].i == 1 && v[3].i == 2);
}
END_TEST

/* Every rejection: each must fail with a message. */
static const struct {
	const char *text;
	const struct ml_opt *opt;
	const char *unit;
	const char *msg; /* a fragment of the message */
} rejects[] = {
	{"", &opt_int, "us", "empty"},
	{"1,,2", &opt_int, "us", "empty item"},
	{"4,", &opt_int, "us", "empty item"},
	{"12abc", &opt_int, "us", "not a number"},
	{"nan", &opt_real, "us", "not a number"},
	{"inf", &opt_real, "us", "not a number"},
	{"1e400", &opt_real, "us", "out of range"},
	{"10:1", &opt_int, "us", "end lies before its start"},
	{"1:0.5", &opt_real, "us", "end lies before its start"},
	{"1:10:0", &opt_int, "us", "zero or negative step"},
	{"1:10:-1", &opt_int, "us", "zero or negative step"},
	{"0:1:0", &opt_real, "us", "zero or negative step"},
	{"0:1:-0.1", &opt_real, "us", "zero or negative step"},
	{"1:2:3:4", &opt_int, "us", "not a valid range"},
	{"1:10:*1", &opt_int, "us", "factor"},
	{"1:10:*0.5", &opt_real, "us", "factor > 1"},
	{"0:10:*2", &opt_int, "us", "start above 0"},
	{"2.5", &opt_int, "us", "not an integer"},
	{"1:10:0.5", &opt_int, "us", "not an integer"},
	{"0:2000000000", &opt_int, "us", "10^9"},
	{"0:1:1e-12", &opt_real, "us", "10^9"},
	{"1.5", &opt_prob, "us", "outside [0,1]"},
	{"-0.1", &opt_prob, "us", "outside [0,1]"},
	{"0:2", &opt_prob, "us", "outside [0,1]"},
	{"1", &opt_pos, "us", "must be an integer >= 2"},
	{"5ns", &opt_time, "cycles", "cycles"},
	{"5h", &opt_time, "us", "unknown unit"},
	{"delta", &opt_choice, "us", "not one of"},
	{"alpha:gamma", &opt_choice, "us", "not a valid range"},
	{"0", &opt_intok, "us", ">= 1"},
};

START_TEST(test_rejects)
{
	struct ml_vlist vl;
	char err[256] = "";

	ck_assert_msg(ml_vlist_parse(&vl, rejects[_i].opt, rejects[_i].text,
				     rejects[_i].unit, err, sizeof(err)) != 0,
		      "'%s' accepted", rejects[_i].text);
	ck_assert_msg(strstr(err, rejects[_i].msg) != NULL,
		      "'%s': message '%s' lacks '%s'", rejects[_i].text, err,
		      rejects[_i].msg);
	ck_assert_ptr_null(vl.items);
}
END_TEST

START_TEST(test_random_access)
{
	struct ml_vlist vl;
	char err[128];
	union ml_val v;

	/* Items combine; point numbering runs across them. */
	ck_assert_int_eq(ml_vlist_parse(&vl, &opt_int, "1:3,10,100:1000:*10",
					"us", err, sizeof(err)),
			 0);
	ck_assert(vl.count == 6);
	v = ml_vlist_at(&vl, 3);
	ck_assert(v.i == 10);
	v = ml_vlist_at(&vl, 5);
	ck_assert(v.i == 1000);
	ml_vlist_free(&vl);
	/* A huge range is not expanded: constant memory. */
	ck_assert_int_eq(ml_vlist_parse(&vl, &opt_int, "1:999999999", "us",
					err, sizeof(err)),
			 0);
	ck_assert(vl.nitems == 1 && vl.count == 999999999ULL);
	v = ml_vlist_at(&vl, 123456788);
	ck_assert(v.i == 123456789);
	ml_vlist_free(&vl);
}
END_TEST

/* Integers exactly, by their decimal digits (issue 10, items 2, 7, 11). */
START_TEST(test_exact_integers)
{
	static const struct {
		const char *s;
		long long v;
	} good[] = {
		{"9007199254740993", 9007199254740993LL}, /* 2^53 + 1 */
		{"9007199254740993.0", 9007199254740993LL},
		{"9223372036854775807", 9223372036854775807LL},
		{"-9223372036854775808", -9223372036854775807LL - 1},
		{"1e18", 1000000000000000000LL},
		{"12.5e1", 125},
		{"1500e-2", 15},
		{"0e-99999999999999999999", 0},
		{"-0", 0},
		{".5e1", 5},
		{"000000000000000000000000000000000000000000000000000000000000000000042",
		 42},
	};
	static const char *const notint[] = {
		"1e-400", "1.0000000000000000001", "2.5", "15e-1", "1e-1",
	};
	static const char *const range[] = {
		"9223372036854775808", "-9223372036854775809", "1e19",
		"1e99999999999999999999", "92233720368547758080e-1",
	};
	long long v;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ck_assert_msg(ml_parse_int(good[i].s, &v) == NULL, "%s rejected",
			      good[i].s);
		ck_assert_msg(v == good[i].v, "%s read as %lld", good[i].s, v);
	}
	for (i = 0; i < sizeof(notint) / sizeof(notint[0]); i++)
		ck_assert_str_eq(ml_parse_int(notint[i], &v), "is not an integer");
	for (i = 0; i < sizeof(range) / sizeof(range[0]); i++)
		ck_assert_str_eq(ml_parse_int(range[i], &v), "is out of range");
}
END_TEST

/* Geometric ranges: count without overflow, exact end, no overshoot. */
START_TEST(test_geometric_ends)
{
	union ml_val out[700];

	/* 10^-300 .. 10^300: 601 points, b/a itself would overflow. */
	ck_assert_uint_eq(expand("1e-300:1e300:*10", &opt_real, "us", out, 700),
			  601);
	ck_assert(out[600].r == 1e300);
	ck_assert(out[0].r == 1e-300);
	ck_assert(isfinite(out[599].r) && fabs(out[599].r / 1e299 - 1) < 1e-12);
	/* An end 1e-8 relative short of 10^15 is not reached: 15 points,
	 * the last 10^14, never a point above the end. */
	ck_assert_uint_eq(expand("1:999999990000000:*10", &opt_real, "us", out,
				 700),
			  15);
	ck_assert(out[14].r <= 999999990000000.0);
	ck_assert(expand("3:3e15:*10", &opt_real, "us", out, 700) == 16);
	ck_assert(out[15].r == 3e15);
}
END_TEST

Suite *suite_parse(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_strict_numbers);
	tcase_add_test(tc, test_list_forms);
	tcase_add_test(tc, test_range_details);
	tcase_add_test(tc, test_time_units);
	tcase_add_test(tc, test_choices);
	tcase_add_loop_test(tc, test_rejects, 0,
			    (int)(sizeof(rejects) / sizeof(rejects[0])));
	tcase_add_test(tc, test_random_access);
	tcase_add_test(tc, test_exact_integers);
	tcase_add_test(tc, test_geometric_ends);
	suite_add_tcase(s, tc);
	return s;
}
