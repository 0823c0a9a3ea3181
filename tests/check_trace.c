/*
 * check_trace.c - the --trace reader (src/cli/commands/trace.c): a good file read
 * field by field, and every kind of bad file rejected with the one-line
 * message that names its line.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands/trace.h"

/* Read text as file "t.csv"; returns ml_trace_read's status. */
static int read_text(const char *text, size_t len, struct ml_trace *t,
		     char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, len, "r");
	int rc;

	ck_assert_ptr_nonnull(f);
	rc = ml_trace_read(f, "t.csv", t, err, errlen);
	fclose(f);
	return rc;
}

START_TEST(test_good)
{
	/* BOM, CRLF, a comment, spaces around cells, a quoted list. */
	static const char text[] = "\xEF\xBB\xBF"
				   "cycle, source ,dests,flits\r\n"
				   "# a unicast, then a multicast\r\n"
				   "0,3,5,9\r\n"
				   "\r\n"
				   "0, 0 ,\"1  2 15\",2\r\n"
				   "7,15,0 14,32\n";
	struct ml_trace t;
	char err[200] = "";

	ck_assert_int_eq(read_text(text, sizeof(text) - 1, &t, err,
				   sizeof(err)),
			 0);
	ck_assert_str_eq(err, "");
	ck_assert_uint_eq(t.n, 3);
	ck_assert_uint_eq(t.msgs[0].cycle, 0);
	ck_assert_uint_eq(t.msgs[0].source, 3);
	ck_assert_uint_eq(t.msgs[0].ndests, 1);
	ck_assert_uint_eq(t.msgs[0].dests[0], 5);
	ck_assert_uint_eq(t.msgs[0].flits, 9);
	ck_assert_uint_eq(t.msgs[1].source, 0);
	ck_assert_uint_eq(t.msgs[1].ndests, 3);
	ck_assert_uint_eq(t.msgs[1].dests[0], 1);
	ck_assert_uint_eq(t.msgs[1].dests[1], 2);
	ck_assert_uint_eq(t.msgs[1].dests[2], 15);
	ck_assert_uint_eq(t.msgs[1].flits, 2);
	ck_assert_uint_eq(t.msgs[2].cycle, 7);
	ck_assert_uint_eq(t.msgs[2].ndests, 2);
	ck_assert_uint_eq(t.msgs[2].dests[1], 14);
	ck_assert_uint_eq(t.line[0], 3);
	ck_assert_uint_eq(t.line[2], 6);
	/* 15 is named first on line 5. */
	ck_assert_uint_eq(t.max_node, 15);
	ck_assert_uint_eq(t.max_node_line, 5);
	ml_trace_free(&t);
}
END_TEST

static const struct {
	const char *text, *err;
} bad[] = {
    {"", "t.csv: empty file: no header line"},
    {"# nothing\n\n", "t.csv: empty file: no header line"},
    {"cycle,source,dests,flits\n", "t.csv: no messages after the header"},
    {"cycle,source,flits\n0,1,2,3\n",
     "t.csv:1: the header must be 'cycle,source,dests,flits'"},
    {"0,1,2,3\n", "t.csv:1: the header must be 'cycle,source,dests,flits'"},
    {"cycle,source,dests,flits\n0,1,2\n",
     "t.csv:2: 3 fields, expected 4 (cycle,source,dests,flits)"},
    {"cycle,source,dests,flits\n0,1,2,3,4\n",
     "t.csv:2: 5 fields, expected 4 (cycle,source,dests,flits)"},
    {"cycle,source,dests,flits\n0,1,2,3\n-1,1,2,3\n",
     "t.csv:3: cycle: '-1' is not a non-negative integer"},
    {"cycle,source,dests,flits\n1e3,1,2,3\n",
     "t.csv:2: cycle: '1e3' is not a non-negative integer"},
    {"cycle,source,dests,flits\n,1,2,3\n", "t.csv:2: cycle: empty field"},
    {"cycle,source,dests,flits\n0,x,2,3\n",
     "t.csv:2: source: 'x' is not a non-negative integer"},
    {"cycle,source,dests,flits\n0,99999999999,2,3\n",
     "t.csv:2: source: '99999999999' is larger than 4294967294"},
    {"cycle,source,dests,flits\n0,1,,3\n", "t.csv:2: dests: empty field"},
    {"cycle,source,dests,flits\n0,1,\"\",3\n", "t.csv:2: dests: empty field"},
    {"cycle,source,dests,flits\n0,1,2;3,3\n",
     "t.csv:2: dests: '2;3' is not a non-negative integer"},
    {"cycle,source,dests,flits\n0,1,2 1,3\n", "t.csv:2: dests: 1 is the source"},
    {"cycle,source,dests,flits\n0,1,2 5 2,3\n",
     "t.csv:2: dests: node 2 is listed twice"},
    {"cycle,source,dests,flits\n0,1,2,0\n", "t.csv:2: flits: 0 must be >= 1"},
    {"cycle,source,dests,flits\n0,1,2,3.5\n",
     "t.csv:2: flits: '3.5' is not a non-negative integer"},
    {"cycle,source,dests,flits\n5,1,2,3\n# c\n4,1,2,3\n",
     "t.csv:4: cycle 4 is before cycle 5 of line 2"},
    {"cycle,source,dests,flits\n0,1,2,3\x1b[31m\n",
     "t.csv:2: flits: '3?[31m' is not a non-negative integer"},
};

START_TEST(test_bad)
{
	struct ml_trace t;
	char err[200];

	err[0] = '\0';
	ck_assert_int_eq(read_text(bad[_i].text, strlen(bad[_i].text), &t, err,
				   sizeof(err)),
			 -1);
	ck_assert_str_eq(err, bad[_i].err);
	ck_assert_ptr_null(t.msgs);
	ml_trace_free(&t);
}
END_TEST

START_TEST(test_nul_and_long_lines)
{
	static const char nul[] = "cycle,source,dests,flits\n0,1\0,2,3\n";
	size_t n = ML_TRACE_LINE_MAX + 100;
	char *big = malloc(n), err[200];
	struct ml_trace t;

	ck_assert_int_eq(read_text(nul, sizeof(nul) - 1, &t, err, sizeof(err)),
			 -1);
	ck_assert_str_eq(err, "t.csv:2: line contains a NUL byte");
	ml_trace_free(&t);
	/* A line that never ends (as /dev/zero without NULs) stops at the
	 * cap instead of growing memory. */
	ck_assert_ptr_nonnull(big);
	memset(big, '1', n);
	ck_assert_int_eq(read_text(big, n, &t, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "t.csv:1: line longer than 1048576 bytes");
	ml_trace_free(&t);
	free(big);
	ck_assert_int_eq(ml_trace_load("/nonexistent/t.csv", &t, err,
				       sizeof(err)),
			 -1);
	ck_assert_str_eq(err, "/nonexistent/t.csv: No such file or directory");
	ml_trace_free(&t);
}
END_TEST

Suite *suite_trace(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("trace");

	tcase_add_test(tc, test_good);
	tcase_add_loop_test(tc, test_bad, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, test_nul_and_long_lines);
	suite_add_tcase(s, tc);
	return s;
}
