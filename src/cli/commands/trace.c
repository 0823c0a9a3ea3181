/*
 * trace.c - reads `simulate --trace FILE` (format in trace.h) strictly:
 * every field is checked in full, and the first problem is reported as
 * one line naming the file and line, so that a trace is never half-read.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands/trace.h"

#define HEADER "cycle,source,dests,flits"

/* The parser's state: the growing arrays and where we are. */
struct reader {
	struct ml_trace *t;
	size_t cap, ndests, capdests;
	size_t *first;		/* per message: offset of its dests */
	unsigned long lineno;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3))) static int fail(struct reader *r,
						       const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->err, r->errlen, "%s:%lu: ", r->t->name, r->lineno);
	if (n < 0 || (size_t)n >= r->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A field as messages quote it: at most 20 bytes, non-printables as '?'. */
static const char *shown(const char *s, size_t len, char *buf, size_t buflen)
{
	size_t i, n = len < buflen - 4 ? len : buflen - 4;

	for (i = 0; i < n; i++)
		buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	if (n < len)
		memcpy(buf + n, "...", 4);
	else
		buf[n] = '\0';
	return buf;
}

/*
 * Read one line into *buf (without its line end) of at most
 * ML_TRACE_LINE_MAX bytes.  Returns 1 for a line, 0 at end of file, -1
 * on an error (reported).
 */
static int read_line(struct reader *r, FILE *f, char **buf, size_t *cap)
{
	size_t n = 0;
	int c;

	r->lineno++; /* so that errors below name this line */
	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == '\0')
			return fail(r, "line contains a NUL byte");
		if (n >= ML_TRACE_LINE_MAX)
			return fail(r, "line longer than %d bytes",
				    ML_TRACE_LINE_MAX);
		if (n + 2 > *cap) {
			size_t nc = *cap ? 2 * *cap : 256;
			char *p;

			p = realloc(*buf, nc);
			if (p == NULL)
				return fail(r, "out of memory");
			*buf = p;
			*cap = nc;
		}
		(*buf)[n++] = (char)c;
	}
	if (ferror(f))
		return fail(r, "read error: %s", strerror(errno));
	if (c == EOF && n == 0)
		return 0;
	if (n > 0 && (*buf)[n - 1] == '\r')
		n--;
	if (*cap == 0) {
		*buf = malloc(1);
		if (*buf == NULL)
			return fail(r, "out of memory");
		*cap = 1;
	}
	(*buf)[n] = '\0';
	return 1;
}

/* Strip spaces and tabs at both ends of [*s, *s + *len). */
static void trim(const char **s, size_t *len)
{
	while (*len > 0 && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t'))
		(*len)--;
}

/* A whole field as an unsigned decimal integer no larger than max:
 * digits only (no sign, no exponent, no spaces inside). */
static int parse_uint(struct reader *r, const char *what, const char *s,
		      size_t len, unsigned long long max,
		      unsigned long long *out)
{
	unsigned long long v = 0;
	char buf[32];
	size_t i;

	if (len == 0)
		return fail(r, "%s: empty field", what);
	for (i = 0; i < len; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (s[i] < '0' || s[i] > '9')
			return fail(r, "%s: '%s' is not a non-negative integer",
				    what, shown(s, len, buf, sizeof(buf)));
		if (v > (max - d) / 10)
			return fail(r, "%s: '%s' is larger than %llu", what,
				    shown(s, len, buf, sizeof(buf)), max);
		v = 10 * v + d;
	}
	*out = v;
	return 0;
}

/* Keep the largest node id and its first line, for the range check. */
static void note_node(struct reader *r, unsigned v)
{
	if (r->t->max_node_line == 0 || v > r->t->max_node) {
		r->t->max_node = v;
		r->t->max_node_line = r->lineno;
	}
}

static int add_dest(struct reader *r, unsigned v)
{
	if (r->ndests == r->capdests) {
		size_t nc = r->capdests ? 2 * r->capdests : 256;
		unsigned *p = realloc(r->t->dests, nc * sizeof(*p));

		if (p == NULL)
			return fail(r, "out of memory");
		r->t->dests = p;
		r->capdests = nc;
	}
	r->t->dests[r->ndests++] = v;
	return 0;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* The destination list: ids separated by spaces, distinct, not src. */
static int parse_dests(struct reader *r, const char *s, size_t len,
		       unsigned src, unsigned *count)
{
	size_t start = r->ndests, i = 0, n;
	unsigned *sorted;

	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		s++;
		len -= 2;
		trim(&s, &len);
	}
	while (i < len) {
		unsigned long long v;
		size_t j = i;

		while (j < len && s[j] != ' ' && s[j] != '\t')
			j++;
		if (parse_uint(r, "dests", s + i, j - i, UINT_MAX - 1, &v) ||
		    add_dest(r, (unsigned)v))
			return -1;
		if (v == src)
			return fail(r, "dests: %u is the source", src);
		note_node(r, (unsigned)v);
		while (j < len && (s[j] == ' ' || s[j] == '\t'))
			j++;
		i = j;
	}
	n = r->ndests - start;
	if (n == 0)
		return fail(r, "dests: empty field");
	/* Duplicates: sort a copy (lists are short, files are read once). */
	sorted = malloc(n * sizeof(*sorted));
	if (sorted == NULL)
		return fail(r, "out of memory");
	memcpy(sorted, r->t->dests + start, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_uint);
	for (i = 1; i < n; i++)
		if (sorted[i] == sorted[i - 1]) {
			unsigned d = sorted[i];

			free(sorted);
			return fail(r, "dests: node %u is listed twice", d);
		}
	free(sorted);
	*count = (unsigned)n;
	return 0;
}

static int grow_msgs(struct reader *r)
{
	struct ml_trace *t = r->t;
	size_t nc = r->cap ? 2 * r->cap : 64;
	struct ml_sim_trace_msg *m;
	unsigned long *l;
	size_t *fi;

	m = realloc(t->msgs, nc * sizeof(*m));
	if (m == NULL)
		return fail(r, "out of memory");
	t->msgs = m;
	l = realloc(t->line, nc * sizeof(*l));
	if (l == NULL)
		return fail(r, "out of memory");
	t->line = l;
	fi = realloc(r->first, nc * sizeof(*fi));
	if (fi == NULL)
		return fail(r, "out of memory");
	r->first = fi;
	r->cap = nc;
	return 0;
}

/* Split a line at its commas into exactly 4 fields. */
static int split4(struct reader *r, const char *line, const char **f,
		  size_t *len)
{
	const char *p = line;
	size_t n = 0;

	for (;;) {
		size_t l = strcspn(p, ",");

		if (n < 4) {
			f[n] = p;
			len[n] = l;
			trim(&f[n], &len[n]);
		}
		n++;
		if (p[l] == '\0')
			break;
		p += l + 1;
	}
	if (n != 4)
		return fail(r, "%zu fields, expected 4 (" HEADER ")", n);
	return 0;
}

static int parse_message(struct reader *r, const char *line)
{
	struct ml_trace *t = r->t;
	struct ml_sim_trace_msg *m;
	unsigned long long cycle, src, flits;
	const char *f[4];
	size_t len[4];
	unsigned nd = 0;

	if (split4(r, line, f, len) ||
	    parse_uint(r, "cycle", f[0], len[0], ULLONG_MAX / 2, &cycle) ||
	    parse_uint(r, "source", f[1], len[1], UINT_MAX - 1, &src))
		return -1;
	if (t->n > 0 && cycle < t->msgs[t->n - 1].cycle)
		return fail(r, "cycle %llu is before cycle %llu of line %lu",
			    cycle, t->msgs[t->n - 1].cycle,
			    t->line[t->n - 1]);
	note_node(r, (unsigned)src);
	if (t->n == r->cap && grow_msgs(r))
		return -1;
	r->first[t->n] = r->ndests;
	if (parse_dests(r, f[2], len[2], (unsigned)src, &nd) ||
	    parse_uint(r, "flits", f[3], len[3], UINT_MAX, &flits))
		return -1;
	if (flits < 1)
		return fail(r, "flits: 0 must be >= 1");
	m = &t->msgs[t->n];
	m->cycle = cycle;
	m->source = (unsigned)src;
	m->flits = (unsigned)flits;
	m->ndests = nd;
	m->dests = NULL; /* set once the dests array stops moving */
	t->line[t->n++] = r->lineno;
	return 0;
}

static bool blank(const char *s)
{
	return s[strspn(s, " \t")] == '\0' || s[0] == '#';
}

static bool is_header(const char *line)
{
	const char *want = HEADER, *p = line;

	/* Cells may carry spaces around them, as in the data lines. */
	while (*want) {
		size_t l = strcspn(p, ","), w = strcspn(want, ",");
		const char *c = p;
		size_t cl = l;

		trim(&c, &cl);
		if (cl != w || strncmp(c, want, w) != 0)
			return false;
		p += l;
		want += w;
		if (*want == '\0')
			break;
		if (*p != ',')
			return false;
		p++;
		want++;
	}
	return *p == '\0';
}

int ml_trace_read(FILE *f, const char *name, struct ml_trace *t, char *err,
		  size_t errlen)
{
	struct reader r = {t, 0, 0, 0, NULL, 0, err, errlen};
	char *buf = NULL;
	size_t cap = 0, nlen = strlen(name), i;
	bool header = true;
	int rc;

	memset(t, 0, sizeof(*t));
	/* Long names keep their end, which tells files apart. */
	if (nlen < sizeof(t->name))
		memcpy(t->name, name, nlen + 1);
	else
		snprintf(t->name, sizeof(t->name), "...%s",
			 name + nlen - (sizeof(t->name) - 4));
	while ((rc = read_line(&r, f, &buf, &cap)) == 1) {
		char *s = buf;

		if (r.lineno == 1 && strncmp(s, "\xEF\xBB\xBF", 3) == 0)
			s += 3;
		if (blank(s))
			continue;
		if (header) {
			header = false;
			if (!is_header(s)) {
				rc = fail(&r, "the header must be '" HEADER
					      "'");
				break;
			}
			continue;
		}
		if (parse_message(&r, s)) {
			rc = -1;
			break;
		}
	}
	free(buf);
	if (rc == 0 && t->n == 0) {
		snprintf(err, errlen, "%s: %s", t->name,
			 header ? "empty file: no header line"
				: "no messages after the header");
		rc = -1;
	}
	if (rc == 0)
		for (i = 0; i < t->n; i++)
			t->msgs[i].dests = t->dests + r.first[i];
	free(r.first);
	if (rc != 0) {
		ml_trace_free(t);
		return -1;
	}
	return 0;
}

int ml_trace_load(const char *path, struct ml_trace *t, char *err,
		  size_t errlen)
{
	FILE *f = fopen(path, "r");
	int rc;

	if (f == NULL) {
		char buf[48];

		memset(t, 0, sizeof(*t));
		snprintf(err, errlen, "%s: %s",
			 shown(path, strlen(path), buf, sizeof(buf)),
			 strerror(errno));
		return -1;
	}
	rc = ml_trace_read(f, path, t, err, errlen);
	fclose(f);
	return rc;
}

void ml_trace_free(struct ml_trace *t)
{
	free(t->msgs);
	free(t->dests);
	free(t->line);
	t->msgs = NULL;
	t->dests = NULL;
	t->line = NULL;
	t->n = 0;
}
