/*
 * check_fitdata.c - the --data readers of `mcastlat fit`
 * (src/cli/fit/fitdata.c, read_csv.c, read_osu.c, read_imb.c): each format
 * from small literal texts written to temporary files, the FILE:key=value
 * spec, and every fatal error.  Expected values are the literal numbers
 * of the inputs.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/engine/csvline.h"
#include "cli/fit/fitdata.h"

/* A temporary file holding text; its name in path (PATH_LEN bytes). */
#define PATH_LEN 64
static void tmp_file(char *path, const char *prefix, const char *text,
		     size_t len)
{
	FILE *f;
	int fd;

	snprintf(path, PATH_LEN, "/tmp/%sXXXXXX", prefix);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* Read text (as a file named /tmp/fdXXXXXX, then attrs appended to the
 * spec) into s; returns fd_read's status, err its message, path the
 * file's name. */
static int read_text(struct fd_set *s, const char *text, const char *attrs,
		     char *path, char *err, size_t errlen)
{
	char spec[256];
	int rc;

	tmp_file(path, "fd", text, strlen(text));
	snprintf(spec, sizeof(spec), "%s%s", path, attrs ? attrs : "");
	rc = fd_read(s, spec, NULL, err, errlen);
	unlink(path);
	return rc;
}

/* Read text that must succeed. */
static void read_ok(struct fd_set *s, const char *text, const char *attrs)
{
	char path[PATH_LEN], err[512];

	ck_assert_msg(read_text(s, text, attrs, path, err, sizeof(err)) == 0,
		      "rejected: %s", err);
}

/* Read text that must fail with err "<path><want>". */
static void read_fails(const char *text, const char *attrs, const char *want)
{
	struct fd_set s = {0};
	char path[PATH_LEN], err[512], full[600];

	ck_assert_int_eq(read_text(&s, text, attrs, path, err, sizeof(err)),
			 -1);
	snprintf(full, sizeof(full), "%s%s", path, want);
	ck_assert_str_eq(err, full);
	ck_assert_uint_eq(s.nrows + s.nbad + s.nnotes + s.nfiles, 0);
	fd_free(&s);
}

static const char *kv(const struct fd_row *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nkv; i++)
		if (strcmp(r->kv[i].key, key) == 0)
			return r->kv[i].val;
	return NULL;
}

/* Row i has op, msg (and nodes unless NULL), avg, min, max (NaN: absent). */
static void row_is(const struct fd_set *s, size_t i, long line, const char *op,
		   const char *msg, const char *nodes, double avg, double min,
		   double max)
{
	const struct fd_row *r;
	const double want[3] = {avg, min, max};
	int k;

	ck_assert_uint_lt(i, s->nrows);
	r = &s->rows[i];
	ck_assert_int_eq(r->line, line);
	ck_assert_str_eq(kv(r, "op"), op);
	ck_assert_str_eq(kv(r, "msg"), msg);
	if (nodes)
		ck_assert_str_eq(kv(r, "nodes"), nodes);
	else
		ck_assert_ptr_null(kv(r, "nodes"));
	for (k = 0; k < 3; k++) {
		double x = k == 0 ? r->avg : k == 1 ? r->min : r->max;

		if (isnan(want[k]))
			ck_assert_msg(isnan(x), "row %zu stat %d: %g", i, k, x);
		else
			ck_assert_double_eq_tol(x, want[k], 1e-12);
	}
	ck_assert_str_eq(r->unit, "us");
	ck_assert(isnan(r->weight));
}

/* ------------------------------------------------------------------ */
/* OSU Micro-Benchmarks */

static const char osu5[] = "# OSU MPI Latency Test v5.3\n"
			   "# Size          Latency (us)\n"
			   "0                       1.10\n"
			   "1                       1.15\n"
			   "2                       1.16\n"
			   "4                       1.20\n";

START_TEST(test_osu_5x)
{
	struct fd_set s = {0};

	read_ok(&s, osu5, NULL);
	ck_assert_uint_eq(s.nrows, 4);
	ck_assert_uint_eq(s.nbad, 0);
	ck_assert_uint_eq(s.nnotes, 0);
	row_is(&s, 0, 3, "p2p", "0", NULL, 1.10, NAN, NAN);
	row_is(&s, 3, 6, "p2p", "4", NULL, 1.20, NAN, NAN);
	ck_assert_uint_eq(s.rows[0].nkv, 2);
	fd_free(&s);
}
END_TEST

/* 7.3: the header before the datatype line; -f columns. */
START_TEST(test_osu_73_full)
{
	struct fd_set s = {0};

	read_ok(&s,
		"\n# OSU MPI Broadcast Latency Test v7.3\n"
		"# Size       Avg Latency(us)   Min Latency(us)   "
		"Max Latency(us)  Iterations\n"
		"# Datatype: MPI_CHAR.\n"
		"1                       2.10              1.50              "
		"3.20        1000\n"
		"2                       2.20              1.60              "
		"3.40        1000\n",
		":nodes=8");
	ck_assert_uint_eq(s.nrows, 2);
	row_is(&s, 0, 5, "bcast", "1", "8", 2.10, 1.50, 3.20);
	row_is(&s, 1, 6, "bcast", "2", "8", 2.20, 1.60, 3.40);
	fd_free(&s);
}
END_TEST

/* 7.4: a blank line, the title, the datatype line, then the header. */
static const char osu74[] =
    "\n"
    "# OSU MPI Latency Test v7.4\n"
    "# Datatype: MPI_CHAR.\n"
    "# Size       Avg Latency(us)\n"
    "0                       1.31\n"
    "1                       1.33\n"
    "[node01:4711] 1 more process has sent help message\n"
    "2                       1.35\n";

START_TEST(test_osu_74)
{
	struct fd_set s = {0};

	read_ok(&s, osu74, NULL);
	ck_assert_uint_eq(s.nrows, 3);
	row_is(&s, 0, 5, "p2p", "0", NULL, 1.31, NAN, NAN);
	row_is(&s, 2, 8, "p2p", "2", NULL, 1.35, NAN, NAN);
	/* the warning line is skipped, with a note */
	ck_assert_uint_eq(s.nbad, 0);
	ck_assert_uint_eq(s.nnotes, 1);
	ck_assert_ptr_nonnull(
	    strstr(s.notes[0], ":7: a line that is not a row"));
	fd_free(&s);
}
END_TEST

/* Detection passes over a launcher's warning block before the title. */
START_TEST(test_osu_after_warnings)
{
	struct fd_set s = {0};
	char *text = malloc(sizeof(osu5) + 400);

	ck_assert_ptr_nonnull(text);
	snprintf(text, sizeof(osu5) + 400, "%s%s",
		 "-----------------------------------------------------------\n"
		 "WARNING: There was an error initializing an OpenFabrics "
		 "device.\n"
		 "\n"
		 "  Local host:   node01\n"
		 "  Local device: mlx5_0\n"
		 "-----------------------------------------------------------\n"
		 "[node01:4711] mca_base_component_repository_open: unable\n",
		 osu5);
	read_ok(&s, text, NULL);
	ck_assert_uint_eq(s.nrows, 4);
	row_is(&s, 0, 10, "p2p", "0", NULL, 1.10, NAN, NAN);
	ck_assert_uint_eq(s.nnotes, 0);
	fd_free(&s);
	free(text);
}
END_TEST

/* -c and -z: Validation and tail columns; a failed validation. */
START_TEST(test_osu_validation_tail)
{
	struct fd_set s = {0};

	read_ok(&s,
		"# OSU MPI Latency Test v7.4\n"
		"# Datatype: MPI_CHAR.\n"
		"# Size       Avg Latency(us)          Validation   "
		"P50 Tail Lat(us)   P90 Tail Lat(us)   P99 Tail Lat(us)\n"
		"1                       1.40                Pass"
		"              1.38               1.45               1.90\n"
		"2                       1.42                Fail"
		"              1.40               1.47               1.95\n"
		"4                       1.44                Pass"
		"              1.41               1.49               2.01\n",
		NULL);
	ck_assert_uint_eq(s.nrows, 2);
	row_is(&s, 0, 4, "p2p", "1", NULL, 1.40, NAN, NAN);
	row_is(&s, 1, 6, "p2p", "4", NULL, 1.44, NAN, NAN);
	ck_assert_uint_eq(s.nbad, 1);
	ck_assert_str_eq(s.bad[0].msg, "validation failed");
	ck_assert_ptr_nonnull(strstr(s.bad[0].where, ":5"));
	fd_free(&s);
}
END_TEST

/* -T: one table per datatype; CRLF line ends and trailing spaces. */
START_TEST(test_osu_two_tables_crlf)
{
	struct fd_set s = {0};

	read_ok(&s,
		"\r\n# OSU MPI Broadcast Latency Test v7.4\r\n"
		"# Datatype: MPI_CHAR.\r\n"
		"# Size       Avg Latency(us)\r\n"
		"1                       3.10   \r\n"
		"2                       3.20\r\n"
		"# Datatype: MPI_INT.\r\n"
		"# Size       Avg Latency(us)\r\n"
		"4                       3.30\r\n"
		"8                       3.40\r\n",
		":nodes=16:op=bcast");
	ck_assert_uint_eq(s.nrows, 4);
	row_is(&s, 0, 5, "bcast", "1", "16", 3.10, NAN, NAN);
	row_is(&s, 3, 10, "bcast", "8", "16", 3.40, NAN, NAN);
	fd_free(&s);
}
END_TEST

/* ------------------------------------------------------------------ */
/* IMB-MPI1 */

static const char imb[] =
    "#----------------------------------------------------------------\n"
    "#    Intel(R) MPI Benchmarks 2021.3, MPI-1 part\n"
    "#----------------------------------------------------------------\n"
    "# Date                  : Thu Nov 20 10:00:00 2025\n"
    "\n"
    "# List of Benchmarks to run:\n"
    "\n"
    "# PingPong\n"
    "# Bcast\n"
    "# Allreduce\n"
    "\n"
    "#---------------------------------------------------\n" /* 12 */
    "# Benchmarking PingPong \n"
    "# #processes = 2 \n"
    "# ( 6 additional processes waiting in MPI_Barrier)\n"
    "#---------------------------------------------------\n"
    "       #bytes #repetitions      t[usec]   Mbytes/sec\n"
    "            0         1000         0.18         0.00\n" /* 18 */
    "            1         1000         0.19         5.26\n"
    "\n"
    "#----------------------------------------------------------------\n"
    "# Benchmarking Bcast \n"
    "# #processes = 2 \n"
    "# ( 6 additional processes waiting in MPI_Barrier)\n"
    "#----------------------------------------------------------------\n"
    "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
    "            0         1000         0.02         0.03         0.02\n" /* 27
									   */
    "            1         1000         1.00         1.50         1.20\n"
    "\n"
    "#----------------------------------------------------------------\n"
    "# Benchmarking Bcast \n"
    "# #processes = 4 \n"
    "# ( 4 additional processes waiting in MPI_Barrier)\n"
    "#----------------------------------------------------------------\n"
    "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
    "            0         1000         0.02         0.03         0.02\n" /* 36
									   */
    "            1         1000         2.00         2.50         2.20\n"
    "WARNING: a launcher message among the rows\n"
    "            2         1000         2.10         2.60         2.30\n"
    "\n"
    "#----------------------------------------------------------------\n"
    "# Benchmarking Bcast \n"
    "# #processes = 8 \n"
    "#----------------------------------------------------------------\n"
    "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
    "            0         1000         0.02         0.03         0.02\n" /* 46
									   */
    "            1         1000         3.00         3.50         3.20\n"
    "\n"
    "#----------------------------------------------------------------\n"
    "# Benchmarking Allreduce \n"
    "# #processes = 8 \n"
    "#----------------------------------------------------------------\n"
    "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
    "            0         1000         0.05         0.06         0.05\n"
    "            4         1000         4.00         4.50         4.20\n"
    "\n"
    "\n"
    "# All processes entering MPI_Finalize\n"
    "\n";

START_TEST(test_imb)
{
	struct fd_set s = {0};

	read_ok(&s, imb, NULL);
	ck_assert_uint_eq(s.nrows, 6);
	ck_assert_uint_eq(s.nbad, 0);
	/* PingPong keeps its zero-byte row and process count */
	row_is(&s, 0, 18, "p2p", "0", "2", 0.18, NAN, NAN);
	row_is(&s, 1, 19, "p2p", "1", "2", 0.19, NAN, NAN);
	row_is(&s, 2, 28, "bcast", "1", "2", 1.20, 1.00, 1.50);
	row_is(&s, 3, 37, "bcast", "1", "4", 2.20, 2.00, 2.50);
	row_is(&s, 4, 39, "bcast", "2", "4", 2.30, 2.10, 2.60);
	row_is(&s, 5, 47, "bcast", "1", "8", 3.20, 3.00, 3.50);
	ck_assert_uint_eq(s.nnotes, 3);
	ck_assert_ptr_nonnull(strstr(s.notes[0], ": 3 zero-byte Bcast rows "
						 "dropped (they send nothing; "
						 "first at line 27)"));
	ck_assert_ptr_nonnull(strstr(s.notes[1], ": 1 benchmark other than "
						 "PingPong and Bcast skipped "
						 "(Allreduce)"));
	ck_assert_ptr_nonnull(strstr(s.notes[2], ":38: a line that is not"));
	fd_free(&s);
}
END_TEST

/* CRLF gives the same rows. */
START_TEST(test_imb_crlf)
{
	struct fd_set s = {0};
	char *crlf = malloc(2 * sizeof(imb)), *w = crlf;
	const char *p;

	ck_assert_ptr_nonnull(crlf);
	for (p = imb; *p; p++) {
		if (*p == '\n')
			*w++ = '\r';
		*w++ = *p;
	}
	*w = '\0';
	read_ok(&s, crlf, NULL);
	ck_assert_uint_eq(s.nrows, 6);
	row_is(&s, 5, 47, "bcast", "1", "8", 3.20, 3.00, 3.50);
	fd_free(&s);
	free(crlf);
}
END_TEST

/* ------------------------------------------------------------------ */
/* CSV */

START_TEST(test_csv)
{
	struct fd_set s = {0};
	const struct fd_row *r;

	read_ok(&s,
		"\xEF\xBB\xBF# measured on cluster A\r\n"
		"op, msg,nodes,latency[ms],weight,label\r\n"
		"bcast,1024,16,0.5,2,\"a, b\"\r\n"
		"\r\n"
		"bcast,2048,,0.75,1,\r\n"
		"bcast,4096,16,-3,1,x\r\n"
		"bcast,8192,16,nan,1,x\r\n"
		"bcast,8192,16,1,0,x\r\n"
		"bcast,8192,16\r\n",
		":nodes=16");
	ck_assert_uint_eq(s.nrows, 2);
	r = &s.rows[0];
	ck_assert_int_eq(r->line, 3);
	ck_assert_uint_eq(r->nkv, 4);
	ck_assert_str_eq(r->kv[0].key, "op");
	ck_assert_str_eq(r->kv[1].key, "msg");
	ck_assert_str_eq(kv(r, "msg"), "1024");
	ck_assert_str_eq(kv(r, "label"), "a, b");
	ck_assert_str_eq(r->unit, "ms");
	ck_assert_double_eq_tol(r->avg, 0.5, 1e-12);
	ck_assert_double_eq_tol(r->weight, 2, 1e-12);
	ck_assert(isnan(r->min) && isnan(r->max));
	r = &s.rows[1];
	ck_assert_int_eq(r->line, 5);
	ck_assert_str_eq(kv(r, "nodes"), "16"); /* the attribute fills it */
	ck_assert_str_eq(kv(r, "label"), "");	/* kept empty */
	ck_assert_uint_eq(s.nbad, 4);
	ck_assert_ptr_nonnull(strstr(s.bad[0].where, ":6"));
	ck_assert_str_eq(s.bad[0].msg, "latency[ms]: '-3' must be > 0");
	ck_assert_str_eq(s.bad[1].msg, "latency[ms]: 'nan' is not a number");
	ck_assert_str_eq(s.bad[2].msg, "weight: '0' must be > 0");
	ck_assert_ptr_nonnull(strstr(s.bad[3].where, ":9"));
	ck_assert_str_eq(s.bad[3].msg, "expected 6 fields, found 3");
	fd_free(&s);
}
END_TEST

/* Plain latency: no unit (the caller's --unit); mcastlat's own output. */
START_TEST(test_csv_plain)
{
	struct fd_set s = {0};

	read_ok(&s,
		"msg,nodes,op,latency,formula,status\n"
		"1,4,bcast,14,2.8,ok\n"
		"1024,4,bcast,15.5,2.8,ok\n",
		NULL);
	ck_assert_uint_eq(s.nrows, 2);
	ck_assert_ptr_null(s.rows[0].unit);
	ck_assert_uint_eq(s.rows[0].nkv, 5);
	ck_assert_double_eq_tol(s.rows[1].avg, 15.5, 1e-12);
	fd_free(&s);
}
END_TEST

/* Standard input, with attributes; rows accumulate across calls. */
START_TEST(test_stdin_and_accumulate)
{
	static const char text[] = "msg,latency\n1,2\n2,3\n";
	struct fd_set s = {0};
	char err[256];
	FILE *in = fmemopen((void *)text, strlen(text), "r");

	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(fd_read(&s, "-:op=p2p", in, err, sizeof(err)), 0);
	fclose(in);
	ck_assert_uint_eq(s.nrows, 2);
	ck_assert_str_eq(s.rows[0].file, "stdin");
	ck_assert_str_eq(kv(&s.rows[1], "op"), "p2p");
	read_ok(&s, osu5, NULL);
	ck_assert_uint_eq(s.nrows, 6);
	ck_assert_uint_eq(s.nfiles, 2);
	/* a failing file leaves the set as it was */
	ck_assert_int_eq(fd_read(&s, "/nonexistent/x", NULL, err, sizeof(err)),
			 -1);
	ck_assert_uint_eq(s.nrows, 6);
	ck_assert_uint_eq(s.nfiles, 2);
	ck_assert_str_eq(s.rows[0].file, "stdin");
	fd_free(&s);
	ck_assert_ptr_null(s.rows);
}
END_TEST

/* A literal name containing ':' that exists is never split. */
START_TEST(test_literal_colon_name)
{
	struct fd_set s = {0};
	char path[PATH_LEN], spec[PATH_LEN + 16], err[256];

	tmp_file(path, "fd:nodes=4", osu5, strlen(osu5));
	ck_assert_int_eq(fd_read(&s, path, NULL, err, sizeof(err)), 0);
	ck_assert_uint_eq(s.nrows, 4);
	ck_assert_ptr_null(kv(&s.rows[0], "nodes"));
	ck_assert_str_eq(s.rows[0].file, path);
	/* with an attribute: split where the name before it exists */
	snprintf(spec, sizeof(spec), "%s:nodes=2", path);
	ck_assert_int_eq(fd_read(&s, spec, NULL, err, sizeof(err)), 0);
	ck_assert_uint_eq(s.nrows, 8);
	ck_assert_str_eq(kv(&s.rows[4], "nodes"), "2");
	ck_assert_str_eq(s.rows[4].file, path);
	unlink(path);
	fd_free(&s);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Fatal errors */

START_TEST(test_errors)
{
	char big[ML_LINE_MAX + 64], path[PATH_LEN], err[256];
	struct fd_set s = {0};

	read_fails("", NULL, ": empty file");
	read_fails("\n  \n\r\n", NULL, ": empty file");
	read_fails("hello world\n1 2\n", NULL,
		   ": unknown format (read: " FD_FORMATS ")");
	read_fails("# OSU MPI Latency Test v5.3\n# Size          Latency (us)\n"
		   "0                       1.10\n",
		   NULL, ": 1 data point (at least 2 are needed)");
	read_fails("msg,latency\n", NULL, ":1: header without data");
	read_fails("msg,time\n1,2\n", NULL,
		   ":1: no latency column (name it latency, latency[us] or "
		   "Latency(us); units ns, us, ms, s)");
	read_fails("msg,latency[min]\n1,2\n", NULL,
		   ":1: column 'latency[min]': unknown unit (use latency[ns], "
		   "[us], [ms] or [s], or Latency(us) as OSU writes it)");
	/* as OSU names it: Latency(us), any case */
	read_fails("msg,Latency(min)\n1,2\n", NULL,
		   ":1: column 'Latency(min)': unknown unit (use latency[ns], "
		   "[us], [ms] or [s], or Latency(us) as OSU writes it)");
	read_fails(osu5, ":op=bcast",
		   ":3: op: the file says p2p, the "
		   "attribute says bcast");
	read_fails(imb, ":nodes=2",
		   ":37: nodes: the file says 4, the "
		   "attribute says 2");
	read_fails(osu5, ":nodes=2:nodes=4", ": attribute nodes given twice");
	read_fails("# OSU MPI Allreduce Latency Test v7.4\n", NULL,
		   ":1: OSU test 'Allreduce Latency' is not read (read: "
		   "osu_latency, osu_bcast)");
	read_fails("# OSU MPI Latency Test v7.4\n# Datatype: MPI_CHAR.\n"
		   "# Size       Avg Latency(us)\n1 1.0\n2 2.0\n"
		   "# Datatype: MPI_INT.\n# Size       Avg Latency(us)\n",
		   NULL, ":7: table header without data");
	read_fails("#-----\n# Benchmarking Bcast \n# #processes = 4 \n"
		   "       #bytes #repetitions  t_min[usec]  t_max[usec]  "
		   "t_avg[usec]\n\n",
		   NULL, ":4: table header without data");
	/* a NUL byte, a line too long: fatal, naming the line */
	tmp_file(path, "fd", "msg,latency\n1,2\n2,\0003\n", 20);
	ck_assert_int_eq(fd_read(&s, path, NULL, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, ":3: line contains a NUL byte"));
	unlink(path);
	memset(big, '1', sizeof(big));
	memcpy(big, "msg,latency\n1,2\n", 16);
	big[sizeof(big) - 1] = '\0';
	read_fails(big, NULL, ":3: line longer than 65536 bytes");
	/* "-" without a stream */
	ck_assert_int_eq(fd_read(&s, "-", NULL, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "stdin: no standard input");
	/* cannot open: why */
	ck_assert_int_eq(
	    fd_read(&s, "/nonexistent/x.txt", NULL, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "/nonexistent/x.txt: cannot open: No such file "
			      "or directory");
	fd_free(&s);
}
END_TEST

/* Malformed rows are rejected naming FILE:LINE, not fatal. */
START_TEST(test_bad_rows)
{
	struct fd_set s = {0};

	read_ok(&s,
		"# OSU MPI Broadcast Latency Test v7.4\n"
		"# Size       Avg Latency(us)\n"
		"0                       0.02\n"
		"1                       2.00\n"
		"2                       abc\n"
		"4                       0.00\n"
		"8                       nan\n"
		"16                      2.10  9\n"
		"32\n"
		"x4                      2.20\n",
		":nodes=4");
	ck_assert_uint_eq(s.nrows, 1);
	ck_assert_uint_eq(s.nbad, 5);
	ck_assert_ptr_nonnull(strstr(s.bad[0].where, ":5"));
	ck_assert_str_eq(s.bad[0].msg, "avg latency: 'abc' is not a number");
	ck_assert_str_eq(s.bad[1].msg, "avg latency: '0.00' must be > 0");
	ck_assert_str_eq(s.bad[2].msg, "avg latency: 'nan' is not a number");
	ck_assert_str_eq(s.bad[3].msg, "expected 2 fields, found more than 2");
	ck_assert_str_eq(s.bad[4].msg, "expected 2 fields, found 1");
	/* the zero-byte broadcast is dropped; "x4" is text, skipped */
	ck_assert_uint_eq(s.nnotes, 2);
	ck_assert_ptr_nonnull(strstr(s.notes[0], ":3: zero-byte broadcast "
						 "dropped (sends nothing)"));
	ck_assert_ptr_nonnull(strstr(s.notes[1], ":10: a line that is not"));
	fd_free(&s);
}
END_TEST

Suite *suite_fitdata(void)
{
	Suite *s = suite_create("fitdata");
	TCase *tc = tcase_create("readers");

	tcase_add_test(tc, test_osu_5x);
	tcase_add_test(tc, test_osu_73_full);
	tcase_add_test(tc, test_osu_74);
	tcase_add_test(tc, test_osu_after_warnings);
	tcase_add_test(tc, test_osu_validation_tail);
	tcase_add_test(tc, test_osu_two_tables_crlf);
	tcase_add_test(tc, test_imb);
	tcase_add_test(tc, test_imb_crlf);
	tcase_add_test(tc, test_csv);
	tcase_add_test(tc, test_csv_plain);
	tcase_add_test(tc, test_stdin_and_accumulate);
	tcase_add_test(tc, test_literal_colon_name);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_bad_rows);
	suite_add_tcase(s, tc);
	return s;
}
