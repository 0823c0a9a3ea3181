/*
 * read_osu.c - --data from the OSU Micro-Benchmarks (MVAPICH project,
 * Ohio State University): the text osu_latency and osu_bcast print, as
 * defined by their source, c/util/osu_util.c and osu_util_mpi.c
 * (print_header, print_preamble, print_only_header, print_stats and the
 * BENCHMARK/HEADER macros; mpi/collective/osu_coll.c in 5.x), versions
 * 5.x and 7.x.
 *
 * A run prints a title "# OSU MPI[-CUDA...] <name> Test vX.Y", optionally
 * "# Datatype: MPI_CHAR." (7.3 after the column header, 7.4 before it),
 * the column header "# Size" + "Latency (us)" (5.x osu_latency) or
 * "Avg Latency(us)", then any of "Min Latency(us)", "Max Latency(us)",
 * "Iterations" (-f), "Validation" (-c), "P50 Tail Lat(us)"... (-z),
 * "Transmit Size" (derived datatypes); then one row per size, size
 * left-aligned, values right-aligned with two decimals.  -T prints one
 * header and table per datatype.  Columns are mapped by their names.
 *
 * Times are microseconds.  osu_latency gives op=p2p (half a round trip),
 * osu_bcast op=bcast; no process count is printed anywhere.  Blank lines,
 * '#' comments and repeated headers are passed over; launcher messages
 * and other text among the rows are skipped with one note per file.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/fit/fitread.h"
#include "cli/engine/parse.h"

#define OSU_MAX_COLS 32

enum osu_col { C_SIZE, C_AVG, C_MIN, C_MAX, C_INT, C_REAL, C_VALID };

/* How messages name a column. */
static const char *const col_name[] = {
    "size",  "avg latency",  "min latency", "max latency",
    "count", "tail latency", "validation"};

struct osu {
	const char *op; /* of the current title, or NULL */
	enum osu_col col[OSU_MAX_COLS];
	size_t ncol;
	size_t header;		 /* line of the current header, 0 none */
	size_t rows;		 /* lines read as rows under it */
	size_t nzero, zero_line; /* zero-byte broadcasts dropped */
	size_t nskip, skip_line; /* text among the rows */
};

static bool word_is(const char *w, const char *s)
{
	return strcmp(w, s) == 0;
}

static bool starts(const char *w, const char *s)
{
	return strncmp(w, s, strlen(s)) == 0;
}

/*
 * The title: the test it names must be osu_latency ("Latency") or
 * osu_bcast ("Broadcast Latency"), with or without an accelerator tag
 * ("MPI-CUDA").
 */
static int read_title(struct fd_src *src, size_t lineno, const char *s,
		      struct osu *o)
{
	const char *t = s + strlen("# OSU "), *end;
	char name[80], q[ML_QUOTE_LEN];
	size_t n;

	if (starts(t, "MPI-")) {
		t += strcspn(t, " ");
		t += strspn(t, " ");
		if (starts(t, "MANAGED "))
			t += strlen("MANAGED ");
	} else if (starts(t, "MPI ")) {
		t += strlen("MPI ");
	}
	end = strstr(t, " Test");
	n = end ? (size_t)(end - t) : strlen(t);
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, t, n);
	name[n] = '\0';
	if (word_is(name, "Latency"))
		o->op = "p2p";
	else if (word_is(name, "Broadcast Latency"))
		o->op = "bcast";
	else
		return fd_fail(src, lineno,
			       "OSU test %s is not read (read: "
			       "osu_latency, osu_bcast)",
			       fd_q(q, name));
	return 0;
}

/* After a label word at w[*i], its "Latency(us)" or "Latency (us)". */
static bool latency_unit(char **w, size_t n, size_t *i)
{
	if (*i + 1 < n && word_is(w[*i + 1], "Latency(us)")) {
		*i += 1;
		return true;
	}
	if (*i + 2 < n && word_is(w[*i + 1], "Latency") &&
	    word_is(w[*i + 2], "(us)")) {
		*i += 2;
		return true;
	}
	return false;
}

/* One column label starting at w[*i] (advanced past it); -1 unknown. */
static int header_col(char **w, size_t n, size_t *i)
{
	const char *x = w[*i];

	if (word_is(x, "Size"))
		return C_SIZE;
	if (word_is(x, "Iterations"))
		return C_INT;
	if (word_is(x, "Validation"))
		return C_VALID;
	if (word_is(x, "Transmit") && *i + 1 < n && word_is(w[*i + 1], "Size"))
		return *i += 1, C_INT;
	if (word_is(x, "Latency(us)"))
		return C_AVG;
	if (word_is(x, "Latency") && *i + 1 < n && word_is(w[*i + 1], "(us)"))
		return *i += 1, C_AVG;
	if (word_is(x, "Avg") && latency_unit(w, n, i))
		return C_AVG;
	if (word_is(x, "Min") && latency_unit(w, n, i))
		return C_MIN;
	if (word_is(x, "Max") && latency_unit(w, n, i))
		return C_MAX;
	if (x[0] == 'P' && fd_is_numeric(x + 1) && *i + 2 < n &&
	    word_is(w[*i + 1], "Tail") && starts(w[*i + 2], "Lat")) {
		*i += 2;
		if (strchr(w[*i], ')') == NULL && *i + 1 < n &&
		    w[*i + 1][0] == '(')
			*i += 1;
		return C_REAL;
	}
	return -1;
}

/* true for the column header: "# Size ..." or "# Avg Latency(us)...". */
static bool is_header(const char *s)
{
	s += strspn(s, "# \t");
	return (starts(s, "Size") &&
		(s[4] == ' ' || s[4] == '\t' || s[4] == '\0')) ||
	       starts(s, "Avg Latency") || starts(s, "Latency (us)");
}

/* End of a table: a header that got no row is fatal. */
static int end_table(struct fd_src *src, struct osu *o)
{
	if (o->header && o->rows == 0)
		return fd_fail(src, o->header, "table header without data");
	o->header = 0;
	return 0;
}

static int read_header(struct fd_src *src, size_t lineno, char *s,
		       struct osu *o)
{
	char *w[OSU_MAX_COLS * 4];
	enum osu_col col[OSU_MAX_COLS];
	size_t n, i, k = 0;
	bool lat = false;
	char q[ML_QUOTE_LEN];

	n = fd_words(s + strspn(s, "# \t"), w, sizeof(w) / sizeof(w[0]));
	for (i = 0; i < n; i++) {
		int c = header_col(w, n, &i);

		if (c < 0)
			return fd_fail(src, lineno,
				       "OSU column %s is not "
				       "read",
				       fd_q(q, w[i]));
		if (k == OSU_MAX_COLS)
			return fd_fail(src, lineno, "more than %d columns",
				       OSU_MAX_COLS);
		col[k++] = (enum osu_col)c;
		lat = lat || c == C_AVG || c == C_MIN || c == C_MAX;
	}
	if (!lat)
		return fd_fail(src, lineno, "no latency column");
	/* The same header again before any row: printed twice. */
	if (o->header && o->rows == 0 && k == o->ncol &&
	    memcmp(col, o->col, k * sizeof(col[0])) == 0)
		return 0;
	if (end_table(src, o))
		return -1;
	memcpy(o->col, col, k * sizeof(col[0]));
	o->ncol = k;
	o->header = lineno;
	o->rows = 0;
	return 0;
}

/* The cell of column c: NULL when good, else the phrase. */
static const char *cell(enum osu_col c, const char *w, struct fd_stat *st,
			const char **msg, bool *fail)
{
	long long v;
	double x;

	switch (c) {
	case C_SIZE:
		*msg = w;
		return fd_count(w, &v);
	case C_AVG:
		return fd_positive(w, &st->avg);
	case C_MIN:
		return fd_positive(w, &st->min);
	case C_MAX:
		return fd_positive(w, &st->max);
	case C_INT:
		return fd_count(w, &v);
	case C_REAL:
		return ml_parse_real(w, &x);
	case C_VALID:
		*fail = word_is(w, "Fail");
		return *fail || word_is(w, "Pass") ? NULL
						   : "is not Pass or Fail";
	}
	return "is not read";
}

static int read_row(struct fd_src *src, size_t lineno, char *s, struct osu *o)
{
	static const char *const keys[] = {"op", "msg"};
	struct fd_stat st = {NAN, NAN, NAN, NAN, "us", true};
	const char *vals[2] = {o->op, NULL}, *why;
	char *w[OSU_MAX_COLS + 1], q[ML_QUOTE_LEN];
	bool fail = false;
	size_t n, k;

	o->rows++;
	n = fd_words(s, w, o->ncol + 1);
	if (n != o->ncol)
		return fd_bad(src, lineno, "expected %zu fields, found %s%zu",
			      o->ncol, n > o->ncol ? "more than " : "",
			      n > o->ncol ? o->ncol : n);
	for (k = 0; k < n; k++) {
		why = cell(o->col[k], w[k], &st, &vals[1], &fail);
		if (why)
			return fd_bad(src, lineno, "%s: %s %s",
				      col_name[o->col[k]], fd_q(q, w[k]), why);
	}
	if (fail)
		return fd_bad(src, lineno, "validation failed");
	if (vals[1] && word_is(o->op, "bcast") &&
	    strspn(vals[1], "0") == strlen(vals[1])) {
		if (o->nzero++ == 0)
			o->zero_line = lineno;
		return 0;
	}
	return fd_add(src, lineno, keys, vals, vals[1] ? 2 : 1, &st);
}

static int one_line(struct fd_src *src, size_t lineno, char *s, struct osu *o)
{
	const char *t = s + strspn(s, " \t");

	if (*t == '\0')
		return 0;
	if (*t == '#') {
		if (strncmp(t, "# OSU ", 6) == 0)
			return end_table(src, o)
				   ? -1
				   : read_title(src, lineno, t, o);
		if (is_header(t))
			return read_header(src, lineno, s + (t - s), o);
		return 0; /* a comment, "# Datatype: MPI_CHAR." */
	}
	if (!fd_is_warning(t) && fd_is_numeric(t)) {
		if (o->header)
			return read_row(src, lineno, s + (t - s), o);
		return fd_bad(src, lineno, "a row before the table header");
	}
	if (o->nskip++ == 0)
		o->skip_line = lineno;
	return 0;
}

static int read_osu(struct fd_src *src, size_t start)
{
	struct osu o = {0};
	size_t i;

	for (i = start; i < src->nline; i++)
		if (one_line(src, i + 1, src->line[i], &o))
			return -1;
	if (end_table(src, &o))
		return -1;
	if (fd_note_zero(src, o.nzero, o.zero_line, "broadcast",
			 "broadcasts"))
		return -1;
	if (fd_note_skipped(src, o.nskip, o.skip_line))
		return -1;
	return 0;
}

/* The title of an OSU Micro-Benchmarks table. */
static bool osu_title(const char *s)
{
	return strncmp(s, "# OSU ", 6) == 0;
}

const struct fd_reader fd_reader_osu = {
    .name = "OSU Micro-Benchmarks",
    .marker = osu_title,
    .read = read_osu,
};
