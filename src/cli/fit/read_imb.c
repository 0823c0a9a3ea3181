/*
 * read_imb.c - --data from the Intel MPI Benchmarks: the output of
 * IMB-MPI1, as defined by its source, src_c/IMB_output.c
 * (IMB_print_header, IMB_show_procids, IMB_display_times,
 * IMB_edit_format, IMB_make_line) and src_c/IMB_g_info.c (the banner).
 *
 * Each measured table is: a blank line, a rule "#-----...", "# Benchmarking
 * NAME", "# #processes = P" (", rank order (rowwise):" and the ranks with
 * -map), optionally "# ( N additional processes waiting in MPI_Barrier)",
 * a rule, optionally "#    MODE: ..." lines, then a header of tokens
 * right-aligned in 13 characters, "#bytes #repetitions t[usec] Mbytes/sec"
 * (PingPong) or "#bytes #repetitions t_min[usec] t_max[usec] t_avg[usec]"
 * (Bcast; Mbytes/sec or defects may follow in other builds), and one row
 * per size until a blank line.  Columns are mapped by their names.
 *
 * Times are microseconds.  PingPong gives op=p2p (t: half a round trip),
 * msg and nodes=P; Bcast gives op=bcast, msg, nodes=P and min, max, avg.
 * A zero-byte Bcast sends nothing and is dropped with a note; other
 * benchmarks (and Multi- runs) are skipped with one note per file; the
 * banner, the "# List of Benchmarks to run:" and "# All processes
 * entering MPI_Finalize" sections are '#' lines and pass unread.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/fit/fitread.h"
#include "cli/engine/parse.h"

#define IMB_MAX_COLS 16

enum imb_col { C_BYTES, C_AVG, C_MIN, C_MAX, C_INT, C_REAL };

static const char *const col_name[] = {"#bytes", "t_avg", "t_min",
				       "t_max",	 "count", "rate"};

struct imb {
	char bench[64]; /* the current benchmark, "" before the first */
	const char *op; /* "p2p", "bcast", or NULL: skipped */
	char procs[24]; /* its #processes, "" unknown */
	enum imb_col col[IMB_MAX_COLS];
	size_t ncol;
	bool table; /* between a header and the end of its rows */
	size_t header, rows;
	size_t nzero, zero_line; /* zero-byte Bcast rows dropped */
	size_t nskip, skip_line; /* text among the rows */
	size_t nother;		 /* tables of other benchmarks */
	char others[160];	 /* their names, each once */
};

static bool starts(const char *w, const char *s)
{
	return strncmp(w, s, strlen(s)) == 0;
}

static int end_table(struct fd_src *src, struct imb *m)
{
	if (m->table && m->op && m->rows == 0)
		return fd_fail(src, m->header, "table header without data");
	m->table = false;
	return 0;
}

/* Remember a skipped benchmark's name for the note, each once; the
 * list ends in "..." when it is full. */
static void other(struct imb *m, const char *name)
{
	size_t n = strlen(m->others), k = strlen(name);
	const char *p = m->others;

	m->nother++;
	for (p = m->others; *p; p += strcspn(p, ","), p += strspn(p, ", "))
		if (strncmp(p, name, k) == 0 && (p[k] == ',' || p[k] == '\0'))
			return;
	if (n >= 3 && strcmp(m->others + n - 3, "...") == 0)
		return;
	if (n + k + 8 > sizeof(m->others)) {
		memcpy(m->others + n, n ? ", ..." : "...", n ? 6 : 4);
		return;
	}
	if (n) {
		memcpy(m->others + n, ", ", 2);
		n += 2;
	}
	memcpy(m->others + n, name, k + 1);
}

/* "# Benchmarking NAME" */
static void read_bench(struct imb *m, char *s)
{
	char *w[2];
	size_t n = fd_words(s + strlen("# Benchmarking"), w, 2);

	snprintf(m->bench, sizeof(m->bench), "%s", n ? w[0] : "?");
	m->procs[0] = '\0';
	if (strcmp(m->bench, "PingPong") == 0)
		m->op = "p2p";
	else if (strcmp(m->bench, "Bcast") == 0)
		m->op = "bcast";
	else
		m->op = NULL;
	if (m->op == NULL)
		other(m, m->bench);
}

/* "# #processes = P" or "# #processes = P; rank order (rowwise):" */
static int read_procs(struct fd_src *src, size_t lineno, char *s, struct imb *m)
{
	char *p = strchr(s, '=') + 1, q[ML_QUOTE_LEN];
	const char *why;
	long long v;

	p[strcspn(p, ";")] = '\0';
	p = fd_trim(p);
	why = fd_count(p, &v);
	if (why == NULL && v < 1)
		why = "must be >= 1";
	if (why && m->op)
		return fd_fail(src, lineno, "#processes: %s %s", fd_q(q, p),
			       why);
	if (why == NULL)
		snprintf(m->procs, sizeof(m->procs), "%lld", v);
	return 0;
}

static int header_col(const char *w)
{
	static const struct {
		const char *name;
		enum imb_col col;
	} cols[] = {{"#bytes", C_BYTES},    {"#repetitions", C_INT},
		    {"t[usec]", C_AVG},	    {"t_avg[usec]", C_AVG},
		    {"t_min[usec]", C_MIN}, {"t_max[usec]", C_MAX},
		    {"Mbytes/sec", C_REAL}, {"Msg/sec", C_REAL},
		    {"defects", C_REAL}};
	size_t i;

	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (strcmp(w, cols[i].name) == 0)
			return (int)cols[i].col;
	return -1;
}

static int read_header(struct fd_src *src, size_t lineno, char *s,
		       struct imb *m)
{
	char *w[IMB_MAX_COLS + 1], q[ML_QUOTE_LEN];
	size_t n, i;
	bool t = false, bytes = false;

	if (end_table(src, m))
		return -1;
	if (m->bench[0] == '\0')
		return fd_fail(src, lineno,
			       "table header before "
			       "'# Benchmarking'");
	m->table = true;
	m->header = lineno;
	m->rows = 0;
	if (m->op == NULL)
		return 0;
	if (m->procs[0] == '\0')
		return fd_fail(src, lineno, "%s table without '# #processes'",
			       m->bench);
	n = fd_words(s, w, IMB_MAX_COLS + 1);
	if (n > IMB_MAX_COLS)
		return fd_fail(src, lineno, "more than %d columns",
			       IMB_MAX_COLS);
	for (i = 0; i < n; i++) {
		int c = header_col(w[i]);

		if (c < 0)
			return fd_fail(src, lineno,
				       "IMB column %s is not "
				       "read",
				       fd_q(q, w[i]));
		m->col[i] = (enum imb_col)c;
		t = t || c == C_AVG || c == C_MIN || c == C_MAX;
		bytes = bytes || c == C_BYTES;
	}
	if (!t || !bytes)
		return fd_fail(src, lineno, "%s table without %s column",
			       m->bench, t ? "a #bytes" : "a time");
	m->ncol = n;
	return 0;
}

static const char *cell(enum imb_col c, const char *w, struct fd_stat *st,
			long long *bytes)
{
	long long v;
	double x;

	switch (c) {
	case C_BYTES:
		return fd_count(w, bytes);
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
	}
	return "is not read";
}

static int read_row(struct fd_src *src, size_t lineno, char *s, struct imb *m)
{
	static const char *const keys[] = {"op", "msg", "nodes"};
	struct fd_stat st = {NAN, NAN, NAN, NAN, "us", true};
	const char *vals[3] = {m->op, NULL, m->procs}, *why;
	char *w[IMB_MAX_COLS + 1], q[ML_QUOTE_LEN];
	long long bytes = 0;
	size_t n, k;

	m->rows++;
	n = fd_words(s, w, m->ncol + 1);
	if (n != m->ncol)
		return fd_bad(src, lineno, "expected %zu fields, found %s%zu",
			      m->ncol, n > m->ncol ? "more than " : "",
			      n > m->ncol ? m->ncol : n);
	for (k = 0; k < n; k++) {
		why = cell(m->col[k], w[k], &st, &bytes);
		if (why)
			return fd_bad(src, lineno, "%s: %s %s",
				      col_name[m->col[k]], fd_q(q, w[k]), why);
		if (m->col[k] == C_BYTES)
			vals[1] = w[k];
	}
	if (bytes == 0 && strcmp(m->op, "bcast") == 0) {
		if (m->nzero++ == 0)
			m->zero_line = lineno;
		return 0;
	}
	return fd_add(src, lineno, keys, vals, 3, &st);
}

static void skip(struct imb *m, size_t lineno)
{
	if (m->nskip++ == 0)
		m->skip_line = lineno;
}

static int one_line(struct fd_src *src, size_t lineno, char *s, struct imb *m)
{
	char *t = s + strspn(s, " \t");

	if (*t == '\0' || starts(t, "#---") ||
	    starts(t, "# All processes entering MPI_Finalize"))
		return end_table(src, m);
	if (starts(t, "# Benchmarking ")) {
		if (end_table(src, m))
			return -1;
		read_bench(m, t);
		return 0;
	}
	if (starts(t, "# #processes =") && !m->table)
		return read_procs(src, lineno, t, m);
	if (starts(t, "#bytes") || starts(t, "#repetitions"))
		return read_header(src, lineno, t, m);
	if (*t == '#')
		return 0;
	if (m->table && m->op == NULL)
		return 0;
	if (m->table && !fd_is_warning(t) && fd_is_numeric(t))
		return read_row(src, lineno, t, m);
	skip(m, lineno);
	return 0;
}

static int notes(struct fd_src *src, const struct imb *m)
{
	if (fd_note_zero(src, m->nzero, m->zero_line, "Bcast", "Bcast rows"))
		return -1;
	if (m->nother &&
	    fd_note(src, 0,
		    "%zu benchmark%s other than PingPong "
		    "and Bcast skipped (%s)",
		    m->nother, m->nother == 1 ? "" : "s", m->others))
		return -1;
	if (fd_note_skipped(src, m->nskip, m->skip_line))
		return -1;
	return 0;
}

static int read_imb(struct fd_src *src, size_t start)
{
	struct imb m = {0};
	size_t i;

	for (i = start; i < src->nline; i++)
		if (one_line(src, i + 1, src->line[i], &m))
			return -1;
	if (end_table(src, &m))
		return -1;
	return notes(src, &m);
}

/* The banner, a rule or a benchmark title of IMB. */
static bool imb_marker(const char *s)
{
	return strncmp(s, "#---", 4) == 0 ||
	       strncmp(s, "# Benchmarking ", 15) == 0 ||
	       (s[0] == '#' && (strstr(s, "Intel(R) MPI Benchmarks") ||
				strstr(s, "Intel (R) MPI Benchmarks") ||
				strstr(s, "Intel MPI Benchmarks")));
}

const struct fd_reader fd_reader_imb = {
    .name = "IMB-MPI1",
    .marker = imb_marker,
    .read = read_imb,
};
