/* check_output.c - number formatting and the three renderers. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/output.h"
#include "cli/engine/table.h"

/* A small deterministic generator (xorshift64*), local to the test. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/*
 * The oracle is the C library's own printf("%.*g"): ml_fmt_g must agree
 * byte for byte on values of every magnitude, on exact ties and on
 * numbers that sit near a rounding boundary.
 */
START_TEST(test_fmt_g_matches_printf)
{
	static const double special[] = {
		0.5,	  1.5,	    2.5,       12.5,	   0.125,  1e-5,
		123456.5, 999999.5, 9999995.0, 0.0001,	   1e-4,   99999.95,
		1e15,	  1e16,	    1e22,      1e23,	   1e-300, 5e-324,
		1.7976931348623157e308, 28.0, 2535.94, 1233.916, 0.1 + 0.2, 198,
		-3769.82, 4.5,	    -0.0,      1e21,	   123456789012.0};
	char mine[64], ref[64];
	uint64_t s = 0x9E3779B97F4A7C15ULL;
	int prec;
	size_t i;

	for (prec = 1; prec <= 17; prec++) {
		for (i = 0; i < sizeof(special) / sizeof(special[0]); i++) {
			ml_fmt_g(mine, special[i], prec);
			snprintf(ref, sizeof(ref), "%.*g", prec, special[i]);
			ck_assert_msg(strcmp(mine, ref) == 0,
				      "%.17g at %d: '%s' != '%s'", special[i],
				      prec, mine, ref);
		}
		for (i = 0; i < 20000; i++) {
			uint64_t r = next_rand(&s);
			double mant = (double)(r >> 11) / 9007199254740992.0;
			int e = (int)(r % 60) - 30;
			double x = ldexp(mant + 0.5, e) * ((r >> 7 & 1) ? -1 : 1);

			/* and short decimals, the common case in sweeps */
			if (i % 3 == 0)
				x = (double)(int64_t)(r % 2000000) / 1000.0;
			ml_fmt_g(mine, x, prec);
			snprintf(ref, sizeof(ref), "%.*g", prec, x);
			ck_assert_msg(strcmp(mine, ref) == 0,
				      "%.17g at %d: '%s' != '%s'", x, prec,
				      mine, ref);
		}
	}
	ml_fmt_g(mine, NAN, 6);
	ck_assert_str_eq(mine, "nan");
	ml_fmt_g(mine, -INFINITY, 6);
	ck_assert_str_eq(mine, "-inf");
}
END_TEST

static const struct ml_outcol cols3[] = {
    {.name = "name", .left = true}, {.name = "value"}, {.name = "n"}};

/* A column's shorter form in the table: "long" as "l". */
static const char *brief_l(const char *text, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return strcmp(text, "long") == 0 ? "l" : text;
}

static char *render(enum ml_fmt fmt, bool header, const struct ml_cell *row)
{
	struct ml_outspec spec = {fmt, 6, header, cols3, 3};
	struct ml_buf b = {0};
	char *s;

	ml_out_header(&spec, &b);
	ml_out_row(&spec, row, &b);
	s = strndup(b.p, b.len);
	ml_buf_free(&b);
	return s;
}

START_TEST(test_csv)
{
	struct ml_cell row[3] = {{ML_CELL_TEXT, {.s = "a,\"b\""}, 0},
				 {ML_CELL_REAL, {.r = 1.0 / 3}, 0},
				 {ML_CELL_INT, {.i = -4611686018427387904LL}, 0}};
	char *s = render(ML_FMT_CSV, true, row);

	/* RFC 4180: a field with a comma or quote is quoted, quotes doubled. */
	ck_assert_str_eq(s, "name,value,n\n\"a,\"\"b\"\"\",0.333333,"
			    "-4611686018427387904\n");
	free(s);
	row[1].v.r = NAN;
	row[2] = (struct ml_cell){ML_CELL_RAW, {.s = "12.5"}, 4};
	s = render(ML_FMT_CSV, false, row);
	ck_assert_str_eq(s, "\"a,\"\"b\"\"\",nan,12.5\n");
	free(s);
}
END_TEST

START_TEST(test_json)
{
	struct ml_cell row[3] = {{ML_CELL_TEXT, {.s = "q\"\\\n"}, 0},
				 {ML_CELL_REAL, {.r = INFINITY}, 0},
				 {ML_CELL_INT, {.i = 7}, 0}};
	char *s = render(ML_FMT_JSON, true, row);

	/* JSON Lines: no header; non-finite numbers are null; escapes. */
	ck_assert_str_eq(s, "{\"name\":\"q\\\"\\\\\\u000a\",\"value\":null,"
			    "\"n\":7}\n");
	free(s);
	row[1].v.r = 1e-7;
	s = render(ML_FMT_JSON, false, row);
	ck_assert_str_eq(s, "{\"name\":\"q\\\"\\\\\\u000a\",\"value\":1e-07,"
			    "\"n\":7}\n");
	free(s);
}
END_TEST

START_TEST(test_table)
{
	struct ml_cell row[3] = {{ML_CELL_TEXT, {.s = "ab"}, 0},
				 {ML_CELL_REAL, {.r = 2.5}, 0},
				 {ML_CELL_INT, {.i = 12}, 0}};
	struct ml_cell row2[3] = {{ML_CELL_TEXT, {.s = ""}, 0},
				  {ML_CELL_REAL, {.r = 12345.5}, 0},
				  {ML_CELL_INT, {.i = 7}, 0}};
	struct ml_outspec spec = {ML_FMT_TABLE, 7, true, cols3, 3};
	struct ml_table t;
	struct ml_buf b = {0};
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	/* Cells leave output.c tab-separated, an empty text as "-"; table.c
	 * pads each column to its widest cell (the header's included): text
	 * left, numbers right, two spaces apart, no trailing blanks. */
	ml_out_header(&spec, &b);
	ml_out_row(&spec, row, &b);
	ml_out_row(&spec, row2, &b);
	ck_assert_int_eq(b.len, strlen("name\tvalue\tn\nab\t2.5\t12\n"
				       "-\t12345.5\t7\n"));
	ck_assert_int_eq(ml_table_init(&t, cols3, 3), 0);
	ck_assert_int_eq(ml_table_feed(&t, "# a=1\n", 6, f), 0);
	ck_assert_int_eq(ml_table_feed(&t, b.p, 7, f), 0); /* a part line */
	ck_assert_int_eq(ml_table_feed(&t, b.p + 7, b.len - 7, f), 0);
	ck_assert_int_eq(ml_table_finish(&t, f), 0);
	ml_table_free(&t);
	fclose(f);
	ck_assert_str_eq(s, "# a=1\n"
			    "name    value   n\n"
			    "ab        2.5  12\n"
			    "-     12345.5   7\n");
	free(s);
	ml_buf_free(&b);
}
END_TEST

/* A text column's brief form goes into the table's cells only: CSV and
 * JSON keep the text. */
START_TEST(test_brief_table_only)
{
	static const struct ml_outcol col[] = {
	    {.name = "chosen", .left = true, .brief = brief_l}};
	struct ml_cell row[1] = {{ML_CELL_TEXT, {.s = "long"}, 0}};
	struct ml_outspec spec = {ML_FMT_TABLE, 6, false, col, 1};
	struct ml_buf b = {0};

	ml_out_row(&spec, row, &b);
	spec.fmt = ML_FMT_CSV;
	ml_out_row(&spec, row, &b);
	spec.fmt = ML_FMT_JSON;
	ml_out_row(&spec, row, &b);
	ck_assert_int_eq(b.len, strlen("l\nlong\n{\"chosen\":\"long\"}\n"));
	ck_assert(memcmp(b.p, "l\nlong\n{\"chosen\":\"long\"}\n", b.len) == 0);
	ml_buf_free(&b);
}
END_TEST

Suite *suite_output(void)
{
	Suite *s = suite_create("output");
	TCase *tc = tcase_create("output");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fmt_g_matches_printf);
	tcase_add_test(tc, test_csv);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_brief_table_only);
	tcase_add_test(tc, test_table);
	suite_add_tcase(s, tc);
	return s;
}
