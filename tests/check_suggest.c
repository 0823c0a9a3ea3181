/*
 * check_suggest.c - "did you mean" (edit distance), the progress line's
 * text and the atomic output file of -o.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/engine/outfile.h"
#include "cli/engine/progress.h"
#include "cli/meta/suggest.h"

/* Distances worked by hand: one substitution, insertion, deletion or
 * swap of neighbours each count 1. */
START_TEST(test_distance)
{
	ck_assert_int_eq(ml_edit_distance("group", "group", 3), 0);
	ck_assert_int_eq(ml_edit_distance("gropu", "group", 3), 1); /* swap */
	ck_assert_int_eq(ml_edit_distance("grup", "group", 3), 1);  /* insert */
	ck_assert_int_eq(ml_edit_distance("groups", "group", 3), 1);
	ck_assert_int_eq(ml_edit_distance("griup", "group", 3), 1);
	ck_assert_int_eq(ml_edit_distance("kitten", "sitting", 5), 3);
	ck_assert_int_eq(ml_edit_distance("", "abc", 5), 3);
	/* capped: anything beyond cap is cap + 1 */
	ck_assert_int_eq(ml_edit_distance("abcdefgh", "zyxwvuts", 2), 3);
}
END_TEST

START_TEST(test_suggest)
{
	static const char *const names[] = {
	    "group", "k",      "dims", "algorithm",  "columns",
	    "jobs",  "format", NULL,   "packet-size"};
	size_t n = sizeof(names) / sizeof(names[0]);

	ck_assert_str_eq(ml_suggest("gropu", names, n), "group");
	ck_assert_str_eq(ml_suggest("algoritm", names, n), "algorithm");
	ck_assert_str_eq(ml_suggest("colums", names, n), "columns");
	ck_assert_str_eq(ml_suggest("packetsize", names, n), "packet-size");
	ck_assert_str_eq(ml_suggest("dim", names, n), "dims");
	ck_assert_ptr_null(ml_suggest("xyz", names, n));
	ck_assert_ptr_null(ml_suggest("rate", names, n));
	/* two names equally near: no guess */
	{
		static const char *const two[] = {"tns", "tnr"};

		ck_assert_ptr_null(ml_suggest("tn", two, 2));
	}
}
END_TEST

START_TEST(test_progress_text)
{
	char b[160];

	/* 250 of 1000 in 5 s: 50 points/s, 750 left: 15 s */
	ml_progress_text(b, sizeof(b), 250, 1000, 5.0);
	ck_assert_str_eq(b, "250/1000 points (25%), 50 points/s, 15s left");
	/* 1000 of 10^6 in 10 s: 100/s, 999000 left: 9990 s = 2h46m */
	ml_progress_text(b, sizeof(b), 1000, 1000000, 10.0);
	ck_assert_str_eq(b,
			 "1000/1000000 points (0%), 100 points/s, 2h46m left");
	/* 3 * 10^6 of 10^7 in 2 s: 1.5M/s, 7 * 10^6 left: 4.67 s */
	ml_progress_text(b, sizeof(b), 3000000, 10000000, 2.0);
	ck_assert_str_eq(b, "3000000/10000000 points (30%), 1.5M points/s, "
			    "5s left");
	ml_progress_text(b, sizeof(b), 0, 10, 1.0);
	ck_assert_str_eq(b, "0/10 points (0%), 0 points/s, ? left");
	/* fit's line counts fits: 3 of 12 in 6 s, 0.5/s, 9 left: 18 s */
	ml_progress_line_of(b, sizeof(b), "fits", "now", 3, 12, 6.0,
			    "error model, forward validation");
	ck_assert_str_eq(b, "3/12 fits (25%), 0.5 fits/s, 18s left; now: "
			    "error model, forward validation");
}
END_TEST

/* Inside a long point (issue 21): the line carries where it stands,
 * until the point is done. */
START_TEST(test_progress_point)
{
	char b[320], *text = NULL;
	size_t len = 0;
	struct ml_progress p = {0};
	FILE *f = open_memstream(&text, &len);

	ml_progress_line(b, sizeof(b), 0, 1, 10.0, "1.2M cycles");
	ck_assert_str_eq(b, "0/1 points (0%), 0 points/s, ? left; point: "
			    "1.2M cycles");
	ml_progress_line(b, sizeof(b), 0, 1, 10.0, NULL);
	ck_assert_str_eq(b, "0/1 points (0%), 0 points/s, ? left");
	ml_progress_start(&p, f, 1, 1);
	p.t0 -= 2; /* a run that has lasted 2 s */
	ml_progress_point(&p, 0.5, "16.4k cycles, interval 3% of the mean "
				   "(target 2%)");
	fflush(f);
	ck_assert_ptr_nonnull(strstr(text, "0/1 points (0%)"));
	ck_assert_ptr_nonnull(strstr(text, "; point: 16.4k cycles, interval "
					   "3% of the mean (target 2%)"));
	/* The point done: its detail goes. */
	p.last -= 1;
	ml_progress_update(&p, 1);
	ml_progress_end(&p);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "\r\033[K1/1 points (100%)"));
	ck_assert_str_eq(strrchr(text, '\r'), "\r\033[K");
	ck_assert_ptr_null(strstr(strstr(text, "1/1 points"), "point:"));
	free(text);
}
END_TEST

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The destination keeps its old content until commit, and after an
 * abort; no temporary file is left either way. */
START_TEST(test_outfile)
{
	char dir[] = "/tmp/mcastlat-outfile-XXXXXX", path[64], err[128];
	struct ml_outfile o;
	struct stat st;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.csv", dir);
	ck_assert_int_eq(ml_outfile_open(&o, path, err, sizeof(err)), 0);
	fputs("a,b\n1,2\n", o.f);
	fflush(o.f);
	ck_assert_ptr_null(slurp(path)); /* not there before commit */
	ck_assert_int_eq(ml_outfile_commit(&o, err, sizeof(err)), 0);
	ck_assert_str_eq(slurp(path), "a,b\n1,2\n");
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_ne(st.st_mode & 0044, 0); /* not mkstemp's 0600 */

	ck_assert_int_eq(ml_outfile_open(&o, path, err, sizeof(err)), 0);
	fputs("half a fi", o.f);
	ml_outfile_abort(&o);
	ck_assert_str_eq(slurp(path), "a,b\n1,2\n");

	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0); /* empty: no temporary file left */
	ck_assert_int_eq(
	    ml_outfile_open(&o, "/nonexistent-dir/x.csv", err, sizeof(err)),
	    -1);
	ck_assert_ptr_nonnull(strstr(err, "No such file"));
}
END_TEST

/* -o onto what is not a regular file (/dev/null, a FIFO) writes to it
 * in place: renaming a temporary file onto it would replace the device
 * (as root, /dev/null itself).  A FIFO with a reader shows both. */
START_TEST(test_outfile_special)
{
	char dir[] = "/tmp/mcastlat-outfile-XXXXXX", path[64], err[128],
	     got[16] = "";
	struct ml_outfile o;
	struct stat st;
	int rd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	rd = open(path, O_RDONLY | O_NONBLOCK);
	ck_assert_int_ge(rd, 0);
	ck_assert_int_eq(ml_outfile_open(&o, path, err, sizeof(err)), 0);
	fputs("1,2\n", o.f);
	ck_assert_int_eq(ml_outfile_commit(&o, err, sizeof(err)), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	ck_assert_int_eq(read(rd, got, sizeof(got) - 1), 4);
	ck_assert_str_eq(got, "1,2\n");
	close(rd);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0); /* no temporary file left */
	/* /dev/null too, when it is the device (on a shared machine another
	 * program may have replaced it: then there is nothing to check). */
	if (stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode)) {
		ck_assert_int_eq(
		    ml_outfile_open(&o, "/dev/null", err, sizeof(err)), 0);
		fputs("x\n", o.f);
		ck_assert_int_eq(ml_outfile_commit(&o, err, sizeof(err)), 0);
		ck_assert_int_eq(stat("/dev/null", &st), 0);
		ck_assert(S_ISCHR(st.st_mode));
	}
	ck_assert_int_eq(ml_outfile_open(&o, "/tmp", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "is a directory");
}
END_TEST

Suite *suite_suggest(void)
{
	Suite *s = suite_create("suggest");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_distance);
	tcase_add_test(tc, test_suggest);
	tcase_add_test(tc, test_progress_text);
	tcase_add_test(tc, test_progress_point);
	tcase_add_test(tc, test_outfile);
	tcase_add_test(tc, test_outfile_special);
	suite_add_tcase(s, tc);
	return s;
}
