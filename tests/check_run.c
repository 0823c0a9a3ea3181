/*
 * check_run.c - the engine (src/cli/engine/run.c and the files it drives)
 * driven through a fake command: sweep order, defaults, --columns,
 * --unit, per-point checks, statuses, --jobs and --shard equality, batch
 * files and usage errors; and through a slow fake: prepare() once per
 * sweep, text cells, auto choices.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/run.h"

static const char *const modes[] = {"x", "y", NULL};

enum { A, B, T, MODE, FLAG, NOPTS };
static const struct ml_opt fake_opts[NOPTS] = {
	[A] = {"a", ML_OPT_INT, "1", NULL, 0, 0, 0, 0, 0, NULL, "integer", 0},
	[B] = {"b", ML_OPT_REAL, "0.5", NULL, 0, 0, 0, 0, 0, NULL, "real", 0},
	[T] = {"t", ML_OPT_TIME, "1", NULL, 0, 0, 0, 0, 0, NULL, "time", 0},
	[MODE] = {"mode", ML_OPT_CHOICE, "x", NULL, 0, 0, 0, 0, ML_OPT_ALL,
		  modes, "choice", 0},
	[FLAG] = {"twice", ML_OPT_FLAG, NULL, NULL, 0, 0, 0, 0, 0, NULL,
		  "flag", 0},
};

enum { SUM, TT, PARITY, NCOLS };
static const struct ml_col fake_cols[NCOLS] = {
	[SUM] = {.name = "sum", .kind = ML_COL_REAL, .help = "a + b"},
	[TT] = {.name = "tt",
		.kind = ML_COL_TIME,
		.help = "2 t",
		.only_with = "twice"},
	[PARITY] = {.name = "parity",
		    .kind = ML_COL_TEXT,
		    .help = "of a",
		    .always = true},
};

static enum ml_status fake_check(const struct ml_point *pt, struct ml_diag *d)
{
	if (pt->v[A].i == 13)
		return ml_diag_set(d, "a", "%lld is unlucky", pt->v[A].i);
	return ML_OK;
}

static enum ml_status fake_eval(const struct ml_point *pt, union ml_val *out)
{
	if (fake_check(pt, NULL) != ML_OK)
		return ML_EINVAL; /* the contract of cmd.h */
	out[SUM].r = (double)pt->v[A].i + pt->v[B].r;
	out[TT].r = 2 * pt->v[T].r;
	out[PARITY].s = pt->v[A].i % 2 ? "odd" : "even";
	return pt->v[B].r > 100 ? ML_SATURATED : ML_OK;
}

static const struct ml_command fake = {.name = "fake",
				       .summary = "a fake model",
				       .source = "none",
				       .time_unit = "us",
				       .opts = fake_opts,
				       .nopts = NOPTS,
				       .cols = fake_cols,
				       .ncols = NCOLS,
				       .check = fake_check,
				       .eval = fake_eval};

struct result {
	int rc;
	char *out, *err;
	size_t outlen, errlen;
};

/*
 * A slow command with a file-like TEXT option: prepare() turns --file
 * into what every point shares (here a copy of the text, counted so a
 * test can see it ran once), eval() writes a note into the row's text
 * scratch, and the choice --how has a derived default (auto).
 */
static const char *const hows[] = {"p", "q", NULL};
enum { S_N, S_HOW, S_FILE, SNOPTS };
static const struct ml_opt slow_opts[SNOPTS] = {
	[S_N] = {"n", ML_OPT_INT, "1", NULL, 0, 0, 0, 0, 0, NULL, "integer", 0},
	[S_HOW] = {"how", ML_OPT_CHOICE, NULL, NULL, 0, 0, 0, 0, 0, hows,
		   "choice, auto", 0},
	[S_FILE] = {"file", ML_OPT_TEXT, NULL, NULL, 0, 0, 0, 0, 0, NULL,
		    "text read once", 0},
};
enum { S_NOTE, SNCOLS };
static const struct ml_col slow_cols[SNCOLS] = {
	[S_NOTE] = {.name = "note",
		    .kind = ML_COL_TEXT,
		    .help = "n and the file",
		    .always = true},
};
static int prepared, released;

static enum ml_status slow_prepare(const union ml_val *base, void **prep,
				   struct ml_diag *d)
{
	if (base[S_FILE].s == NULL)
		return ML_OK;
	if (strcmp(base[S_FILE].s, "bad") == 0)
		return ml_diag_set(d, "file", "bad:1: cannot read");
	prepared++;
	*prep = strdup(base[S_FILE].s);
	return ML_OK;
}

static void slow_release(void *prep)
{
	released++;
	free(prep);
}

static enum ml_status slow_eval(const struct ml_point *pt, union ml_val *out)
{
	snprintf(pt->text, ML_TEXT_MAX, "%lld:%s", pt->v[S_N].i,
		 pt->prep ? (const char *)pt->prep : "-");
	out[S_NOTE].s = pt->text;
	return ML_OK;
}

static const struct ml_command slow = {.name = "slow",
				       .summary = "a slow fake",
				       .source = "none",
				       .time_unit = "cycles",
				       .opts = slow_opts,
				       .nopts = SNOPTS,
				       .cols = slow_cols,
				       .ncols = SNCOLS,
				       .eval = slow_eval,
				       .prepare = slow_prepare,
				       .release = slow_release,
				       .slow = true};

/* Run "CMD ARGS" (space-separated words) capturing both streams. */
static struct result run_cmd(const struct ml_command *cmd, const char *args)
{
	struct result r;
	char *buf = strdup(args), *argv[64], *save = NULL, *w;
	int argc = 0;
	struct ml_ctx ctx = {0};

	argv[argc++] = (char *)cmd->name;
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	ctx.in = stdin;
	ctx.out = open_memstream(&r.out, &r.outlen);
	ctx.err = open_memstream(&r.err, &r.errlen);
	r.rc = ml_run(cmd, argc, argv, &ctx);
	fclose(ctx.out);
	fclose(ctx.err);
	free(buf);
	return r;
}

static struct result run(const char *args)
{
	return run_cmd(&fake, args);
}

static void done(struct result *r)
{
	free(r->out);
	free(r->err);
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

START_TEST(test_sweep_order)
{
	struct result r;

	/* The last option on the command line varies fastest. */
	r = run("--a 1:2 --b 10,20 --format csv --columns a,b,sum");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "a,b,sum\n1,10,11\n1,20,21\n2,10,12\n2,20,22\n");
	done(&r);
	r = run("--b 10,20 --a 1:2 --format csv --columns a,b,sum");
	ck_assert_str_eq(r.out, "a,b,sum\n1,10,11\n2,10,12\n1,20,21\n2,20,22\n");
	done(&r);
	/* The last occurrence of an option wins, value and position. */
	r = run("--a 5 --b 1,2 --a 7,8 --format csv --no-header --columns a,b");
	ck_assert_str_eq(r.out, "7,1\n8,1\n7,2\n8,2\n");
	done(&r);
}
END_TEST

START_TEST(test_defaults_and_columns)
{
	struct result r;

	/* Every input (swept or not) first, then results, then status. */
	r = run("--format csv");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "a,b,t,mode,sum,parity,status\n"
				"1,0.5,1,x,1.5,odd,ok\n");
	done(&r);
	/* A flag shows its columns; --unit converts time columns, whose
	 * names then carry the unit (as the CSV header, SPEC 1.2). */
	r = run("--twice --t 1.5us --unit ns --mode all --format json "
		"--columns mode,t,tt");
	ck_assert_str_eq(r.out,
			 "{\"mode\":\"x\",\"t[ns]\":1500,\"tt[ns]\":3000}\n"
			 "{\"mode\":\"y\",\"t[ns]\":1500,\"tt[ns]\":3000}\n");
	done(&r);
	r = run("--columns tt");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_int_eq(lines(r.err), 1);
	ck_assert_uint_eq(r.outlen, 0);
	done(&r);
}
END_TEST

START_TEST(test_statuses)
{
	struct result r;

	/* saturated: numeric results nan, text results kept */
	r = run("--b 1,200 --format csv --columns b,sum,parity,status");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "b,sum,parity,status\n1,2,odd,ok\n"
				"200,nan,odd,saturated\n");
	done(&r);
	r = run("--b 200 --format json --columns sum,status");
	ck_assert_str_eq(r.out, "{\"sum\":null,\"status\":\"saturated\"}\n");
	done(&r);
}
END_TEST

START_TEST(test_point_checks)
{
	struct result r;

	/* One point failing check(): a usage error, one line, no output. */
	r = run("--a 13");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, "mcastlat: fake: --a: 13 is unlucky\n");
	ck_assert_uint_eq(r.outlen, 0);
	done(&r);
	/* A sweep none of whose points passes: a usage error too. */
	r = run("--a 13,13 --b 1:3");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, "mcastlat: fake: --a: 13 is unlucky\n");
	ck_assert_uint_eq(r.outlen, 0);
	done(&r);
	/* In a sweep: the row is invalid, the sweep goes on, one warning. */
	r = run("--a 12:14 --format csv --no-header --columns a,sum,status");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "12,12.5,ok\n13,nan,invalid\n14,14.5,ok\n");
	ck_assert_int_eq(lines(r.err), 1);
	ck_assert_ptr_nonnull(strstr(r.err, "warning"));
	done(&r);
}
END_TEST

START_TEST(test_usage_errors)
{
	static const char *bad[] = {
		"--a",		"--a x",	  "--aa 1",	"--b 1e400",
		"--q 1",	"-z",		  "--mode z",	"--format xml",
		"--precision 18", "--unit cycles", "--jobs 0",	"--shard 0/2",
		"--shard 2",	"--a 1:1000000 --b 0:1:0.0001", "word",
		"--t 1parsec",	"--columns nope", "--a 2:1",	"--twice=1"};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct result r = run(bad[i]);

		ck_assert_msg(r.rc == 2, "'%s': exit %d", bad[i], r.rc);
		ck_assert_msg(lines(r.err) == 1, "'%s': stderr '%s'", bad[i],
			      r.err);
		ck_assert_msg(strncmp(r.err, "mcastlat: fake: ", 16) == 0,
			      "'%s': stderr '%s'", bad[i], r.err);
		ck_assert_msg(r.outlen == 0, "'%s': stdout '%s'", bad[i],
			      r.out);
		done(&r);
	}
}
END_TEST

START_TEST(test_jobs_and_shards)
{
	const char *sweep = "--a 0:299 --b 0:1:0.01 --mode all --format csv";
	char args[256], *cat = NULL;
	size_t catlen = 0;
	FILE *f;
	struct result one, two;
	int i;

	one = run(sweep);
	ck_assert_int_eq(lines(one.out), 1 + 300 * 101 * 2);
	snprintf(args, sizeof(args), "%s --jobs 2", sweep);
	two = run(args);
	ck_assert_str_eq(one.out, two.out);
	done(&two);
	snprintf(args, sizeof(args), "%s --jobs 3", sweep);
	two = run(args);
	ck_assert_str_eq(one.out, two.out);
	done(&two);
	/* Shards 1..7 concatenated equal the whole; header from shard 1. */
	f = open_memstream(&cat, &catlen);
	for (i = 1; i <= 7; i++) {
		snprintf(args, sizeof(args), "%s --shard %d/7%s", sweep, i,
			 i == 4 ? " --jobs 2" : "");
		two = run(args);
		ck_assert_int_eq(two.rc, 0);
		fputs(two.out, f);
		done(&two);
	}
	fclose(f);
	ck_assert_str_eq(one.out, cat);
	free(cat);
	done(&one);
}
END_TEST

START_TEST(test_batch)
{
	char path[] = "/tmp/mcastlat-batch-XXXXXX", args[128];
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct result r;

	/* BOM, CRLF, a quoted list, a blank line, a bad row, a bad check. */
	fputs("\xEF\xBB\xBF"
	      "a,b\r\n1,2\r\n2,\"3,4\"\r\n\r\nx,1\r\n13,1\r\n5,\r\n",
	      f);
	fclose(f);
	snprintf(args, sizeof(args),
		 "--input %s --format csv --columns a,b,sum --b 9", path);
	r = run(args);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.out, "a,b,sum\n1,2,3\n2,3,5\n2,4,6\n5,9,14\n");
	ck_assert_int_eq(lines(r.err), 2);
	{
		char want[256];

		snprintf(want, sizeof(want),
			 "mcastlat: %s:5: a: 'x' is not a number\n"
			 "mcastlat: %s:6: a: 13 is unlucky\n",
			 path, path);
		ck_assert_str_eq(r.err, want);
	}
	done(&r);
	/* --b beside a column b that every row sets: the rows keep
	 * theirs, and a warning says the command line's was not used. */
	f = fopen(path, "w");
	fputs("a,b\n1,2\n3,4\n", f);
	fclose(f);
	r = run(args);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "a,b,sum\n1,2,3\n3,4,7\n");
	{
		char want[256];

		snprintf(want, sizeof(want),
			 "mcastlat: warning: %s: --b given on the command "
			 "line was not used: every row of %s sets it\n",
			 "fake", path);
		ck_assert_str_eq(r.err, want);
	}
	done(&r);
	/* An unknown header column is a usage error. */
	f = fopen(path, "w");
	fputs("a,zz\n1,2\n", f);
	fclose(f);
	r = run(args);
	ck_assert_int_eq(r.rc, 2);
	ck_assert_int_eq(lines(r.err), 1);
	ck_assert_uint_eq(r.outlen, 0);
	done(&r);
	remove(path);
}
END_TEST

START_TEST(test_prepare_and_slow)
{
	char path[] = "/tmp/mcastlat-batch-XXXXXX", args[128];
	struct result r, s1;
	int fd;
	FILE *f;

	/* prepare() once per run, not per point; its result reaches every
	 * point; the row's note is text the command wrote; auto prints. */
	prepared = released = 0;
	r = run_cmd(&slow, "--n 1:5 --file x --format csv");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "n,how,note,status\n1,auto,1:x,ok\n"
				"2,auto,2:x,ok\n3,auto,3:x,ok\n4,auto,4:x,ok\n"
				"5,auto,5:x,ok\n");
	ck_assert_int_eq(prepared, 1);
	ck_assert_int_eq(released, 1);
	/* A slow command spreads even 5 points over threads, in order. */
	s1 = run_cmd(&slow, "--n 1:5 --file x --format csv --jobs 3");
	ck_assert_str_eq(r.out, s1.out);
	done(&s1);
	done(&r);
	/* A failing prepare() is a usage error naming the option. */
	r = run_cmd(&slow, "--file bad");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, "mcastlat: slow: --file: bad:1: cannot read\n");
	ck_assert_uint_eq(r.outlen, 0);
	done(&r);
	/* A batch row that sets the text gets its own prepare(); the other
	 * rows share the command line's; a bad one rejects its row. */
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	fputs("n,file\n1,\n2,y\n3,bad\n4,\n", f);
	fclose(f);
	prepared = released = 0;
	snprintf(args, sizeof(args), "--input %s --file x --format csv "
		 "--columns note", path);
	r = run_cmd(&slow, args);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.out, "note\n1:x\n2:y\n4:x\n");
	ck_assert_int_eq(prepared, 2);
	ck_assert_int_eq(released, 2);
	done(&r);
	remove(path);
}
END_TEST

Suite *suite_run(void)
{
	Suite *s = suite_create("run");
	TCase *tc = tcase_create("run");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_sweep_order);
	tcase_add_test(tc, test_defaults_and_columns);
	tcase_add_test(tc, test_statuses);
	tcase_add_test(tc, test_point_checks);
	tcase_add_test(tc, test_usage_errors);
	tcase_add_test(tc, test_jobs_and_shards);
	tcase_add_test(tc, test_batch);
	tcase_add_test(tc, test_prepare_and_slow);
	suite_add_tcase(s, tc);
	return s;
}
