/*
 * fitdata.c - the --data argument of `mcastlat fit` (see fitdata.h): the
 * FILE:key=value spec, loading a file's lines (bounded: ML_LINE_MAX, no
 * NUL byte), recognising its format by content, the row set it adds to,
 * and the checks and helpers every reader shares.
 *
 * A file is read whole into memory before it is parsed: benchmark output
 * is small, and detection and the table readers look ahead freely.  Each
 * call adds to the set or, on a fatal error, leaves it as it was.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/csvline.h"
#include "cli/fitread.h"
#include "cli/msg.h"
#include "cli/parse.h"

/* ------------------------------------------------------------------ */
/* Small helpers shared with the readers */

static char *vfmt(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

/* fmt and ap formatted into a new string, or NULL. */
static char *vfmt(const char *fmt, va_list ap)
{
	va_list aq;
	int n;
	char *s;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return NULL;
	s = malloc((size_t)n + 1);
	if (s != NULL)
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

/* "NAME" or "NAME:LINE" */
static char *where(const struct fd_src *src, size_t lineno)
{
	size_t n = strlen(src->name) + 32;
	char *s = malloc(n);

	if (s == NULL)
		return NULL;
	if (lineno)
		snprintf(s, n, "%s:%zu", src->name, lineno);
	else
		snprintf(s, n, "%s", src->name);
	return s;
}

int fd_fail(struct fd_src *src, size_t lineno, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (lineno)
		n = snprintf(src->err, src->errlen, "%s:%zu: ", src->name,
			     lineno);
	else
		n = snprintf(src->err, src->errlen, "%s: ", src->name);
	if (n >= 0 && (size_t)n < src->errlen) {
		va_start(ap, fmt);
		vsnprintf(src->err + n, src->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int oom(struct fd_src *src)
{
	return fd_fail(src, 0, "out of memory");
}

/*
 * Room for element n of the array *vp of elements of size sz, zeroed;
 * NULL when out of memory.  The array holds a power of two of elements,
 * doubled when n reaches it, so that adding n rows costs O(n).
 */
static void *grow(void *vp, size_t n, size_t sz)
{
	void **v = vp;
	char *p = *v;

	if ((n & (n - 1)) == 0) { /* 0, 1, 2, 4, ...: full */
		size_t cap = n ? 2 * n : 1;

		if (cap > SIZE_MAX / sz)
			return NULL;
		p = realloc(*v, cap * sz);
		if (p == NULL)
			return NULL;
		*v = p;
	}
	memset(p + n * sz, 0, sz);
	return p + n * sz;
}

int fd_bad(struct fd_src *src, size_t lineno, const char *fmt, ...)
{
	struct fd_set *s = src->set;
	struct fd_problem *p = grow(&s->bad, s->nbad, sizeof(*p));
	va_list ap;

	if (p == NULL)
		return oom(src);
	va_start(ap, fmt);
	p->msg = vfmt(fmt, ap);
	va_end(ap);
	p->where = where(src, lineno);
	if (p->msg == NULL || p->where == NULL) {
		free(p->msg);
		free(p->where);
		return oom(src);
	}
	s->nbad++;
	src->nbad++;
	return 0;
}

int fd_note(struct fd_src *src, size_t lineno, const char *fmt, ...)
{
	struct fd_set *s = src->set;
	char **p = grow(&s->notes, s->nnotes, sizeof(*p));
	char *w = where(src, lineno), *m;
	va_list ap;

	if (p == NULL || w == NULL) {
		free(w);
		return oom(src);
	}
	va_start(ap, fmt);
	m = vfmt(fmt, ap);
	va_end(ap);
	*p = m ? malloc(strlen(w) + strlen(m) + 3) : NULL;
	if (*p == NULL) {
		free(w);
		free(m);
		return oom(src);
	}
	sprintf(*p, "%s: %s", w, m);
	free(w);
	free(m);
	s->nnotes++;
	return 0;
}

int fd_note_skipped(struct fd_src *src, size_t n, size_t first)
{
	if (n == 0)
		return 0;
	if (n == 1)
		return fd_note(src, first, "a line that is not a row skipped");
	return fd_note(src, 0,
		       "%zu lines that are not rows skipped (first "
		       "at line %zu)",
		       n, first);
}

int fd_note_zero(struct fd_src *src, size_t n, size_t first,
		 const char *one, const char *many)
{
	if (n == 0)
		return 0;
	if (n == 1)
		return fd_note(src, first, "zero-byte %s dropped (sends nothing)",
			       one);
	return fd_note(src, 0,
		       "%zu zero-byte %s dropped (they send nothing; first "
		       "at line %zu)",
		       n, many, first);
}

const char *fd_positive(const char *s, double *out)
{
	const char *why = ml_parse_real(s, out);

	if (why == NULL && !(*out > 0))
		why = "must be > 0";
	return why;
}

const char *fd_count(const char *s, long long *out)
{
	const char *why = ml_parse_int(s, out);

	if (why == NULL && *out < 0)
		why = "must be >= 0";
	if (why == NULL && *out > ML_INT_MAX)
		why = "is out of range";
	return why;
}

size_t fd_words(char *s, char **w, size_t max)
{
	size_t n = 0;

	while (n < max) {
		s += strspn(s, " \t\r\f\v");
		if (*s == '\0')
			break;
		w[n++] = s;
		if (n == max)
			break;
		s += strcspn(s, " \t\r\f\v");
		if (*s == '\0')
			break;
		*s++ = '\0';
	}
	if (n == max) { /* the last word keeps the rest, without its end */
		char *e = w[n - 1] + strlen(w[n - 1]);

		while (e > w[n - 1] && isspace((unsigned char)e[-1]))
			*--e = '\0';
	}
	return n;
}

char *fd_trim(char *s)
{
	size_t n;

	s += strspn(s, " \t\r\f\v");
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

static bool prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* Case-insensitive search for an ASCII word. */
static bool contains_ci(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (; *s; s++) {
		size_t i;

		for (i = 0; i < n; i++)
			if (tolower((unsigned char)s[i]) != w[i])
				break;
		if (i == n)
			return true;
	}
	return false;
}

bool fd_is_warning(const char *s)
{
	static const char *const pre[] = {
	    "[",       "srun:",	  "slurmstepd:", "mpirun",     "mpiexec",
	    "prterun", "orterun", "libibverbs:", "librdmacm:", "UCX ",
	    "hwloc",   "NOTE:",	  "Note:",	 "ERROR:",     NULL};
	size_t i, d;

	s += strspn(s, " \t");
	for (i = 0; pre[i]; i++)
		if (prefix(s, pre[i]))
			return true;
	/* Open MPI frames its help messages with a line of dashes. */
	d = strspn(s, "-");
	if (d >= 10 && s[d + strspn(s + d, " \t\r")] == '\0')
		return true;
	return contains_ci(s, "warning:") || contains_ci(s, "help message") ||
	       ((prefix(s, "WARNING") || prefix(s, "Warning")) &&
		(s[7] == ' ' || s[7] == '!' || s[7] == ':'));
}

bool fd_is_numeric(const char *w)
{
	if (*w == '+' || *w == '-')
		w++;
	if (*w == '.')
		w++;
	return isdigit((unsigned char)*w);
}

const char *fd_q(char *buf, const char *s)
{
	return ml_quote(buf, ML_QUOTE_LEN, s);
}

/* ------------------------------------------------------------------ */
/* Rows and attributes */

static bool same_value(const char *a, const char *b)
{
	double x, y;

	if (strcmp(a, b) == 0)
		return true;
	return ml_parse_real(a, &x) == NULL && ml_parse_real(b, &y) == NULL &&
	       x == y;
}

static void free_kv(struct fd_kv *kv, size_t n)
{
	size_t i;

	for (i = 0; kv && i < n; i++) {
		free(kv[i].key);
		free(kv[i].val);
	}
	free(kv);
}

/* The attributes merged into kv (n filled of cap): -1 with err on a
 * conflict or no memory. */
static int merge_attr(struct fd_src *src, size_t lineno, struct fd_kv *kv,
		      size_t *n)
{
	size_t a, i;

	for (a = 0; a < src->nattr; a++) {
		const struct fd_kv *at = &src->attr[a];
		char *v;

		for (i = 0; i < *n; i++)
			if (strcmp(kv[i].key, at->key) == 0)
				break;
		if (i < *n && kv[i].val[0] != '\0') {
			if (same_value(kv[i].val, at->val))
				continue;
			return fd_fail(src, lineno,
				       "%s: the file says %.40s, "
				       "the attribute says %.40s",
				       at->key, kv[i].val, at->val);
		}
		v = strdup(at->val);
		if (v == NULL)
			return oom(src);
		if (i < *n) { /* an empty cell */
			free(kv[i].val);
			kv[i].val = v;
			continue;
		}
		kv[*n].key = strdup(at->key);
		kv[*n].val = v;
		if (kv[*n].key == NULL) {
			free(v);
			return oom(src);
		}
		(*n)++;
	}
	return 0;
}

int fd_add(struct fd_src *src, size_t lineno, const char *const *keys,
	   const char *const *vals, size_t n, const struct fd_stat *st)
{
	struct fd_set *s = src->set;
	struct fd_kv *kv = calloc(n + src->nattr + 1, sizeof(*kv));
	struct fd_row *r;
	size_t i, nkv = 0;

	if (kv == NULL)
		return oom(src);
	for (i = 0; i < n; i++, nkv++) {
		kv[i].key = strdup(keys[i]);
		kv[i].val = strdup(vals[i]);
		if (kv[i].key == NULL || kv[i].val == NULL) {
			free_kv(kv, i + 1);
			return oom(src);
		}
	}
	if (merge_attr(src, lineno, kv, &nkv)) {
		free_kv(kv, n + src->nattr);
		return -1;
	}
	r = grow(&s->rows, s->nrows, sizeof(*r));
	if (r == NULL) {
		free_kv(kv, nkv);
		return oom(src);
	}
	*r = (struct fd_row){src->name, (long)lineno, kv,
			     nkv,	st->avg,      st->min,
			     st->max,	st->unit,     st->weight, st->mean};
	s->nrows++;
	src->nrows++;
	return 0;
}

/* Free what the set holds beyond the counts of mark (a fatal error). */
static void truncate_set(struct fd_set *s, const struct fd_set *mark)
{
	while (s->nrows > mark->nrows) {
		struct fd_row *r = &s->rows[--s->nrows];

		free_kv(r->kv, r->nkv);
	}
	while (s->nbad > mark->nbad) {
		s->nbad--;
		free(s->bad[s->nbad].where);
		free(s->bad[s->nbad].msg);
	}
	while (s->nnotes > mark->nnotes)
		free(s->notes[--s->nnotes]);
	while (s->nfiles > mark->nfiles)
		free(s->files[--s->nfiles]);
}

void fd_free(struct fd_set *s)
{
	static const struct fd_set none;

	truncate_set(s, &none);
	free(s->rows);
	free(s->bad);
	free(s->notes);
	free(s->files);
	memset(s, 0, sizeof(*s));
}

/* ------------------------------------------------------------------ */
/* The spec: FILE[:key=value]... */

static bool key_char(int c)
{
	return isalnum(c) || c == '-' || c == '_';
}

/* true when every ':'-separated item of s is key=value. */
static bool attr_list(const char *s)
{
	for (;;) {
		const char *k = s;

		while (key_char((unsigned char)*s))
			s++;
		if (s == k || *s != '=')
			return false;
		s += strcspn(s, ":");
		if (*s == '\0')
			return true;
		s++;
	}
}

static void free_attr(struct fd_kv *a, size_t n)
{
	free_kv(a, n);
}

/*
 * Split spec into *path (allocated) and attributes.  Returns 0, or -1
 * with err written (an attribute given twice, no memory).
 */
static int parse_spec(const char *spec, char **path, struct fd_kv **attr,
		      size_t *nattr, char *err, size_t errlen)
{
	struct stat st;
	const char *c = NULL, *p;
	size_t n = 0, i;

	*path = NULL;
	*attr = NULL;
	*nattr = 0;
	/* The first split whose name exists, else the first split. */
	if (strcmp(spec, "-") != 0 && stat(spec, &st) != 0)
		for (p = strchr(spec, ':'); p; p = strchr(p + 1, ':')) {
			char *name;
			bool found;

			if (p == spec || !attr_list(p + 1))
				continue;
			if (c == NULL)
				c = p;
			name = strndup(spec, (size_t)(p - spec));
			found = name && (strcmp(name, "-") == 0 ||
					 stat(name, &st) == 0);
			free(name);
			if (found) {
				c = p;
				break;
			}
		}
	if (c == NULL) {
		*path = strdup(spec);
		goto check;
	}
	*path = strndup(spec, (size_t)(c - spec));
	for (p = c; *p; p++)
		n += *p == ':';
	*attr = calloc(n, sizeof(**attr));
	if (*path == NULL || *attr == NULL)
		goto check;
	for (p = c + 1; *nattr < n; p += strcspn(p, ":") + 1) {
		size_t kl = strcspn(p, "="), vl = strcspn(p, ":");
		struct fd_kv *a = &(*attr)[*nattr];

		a->key = strndup(p, kl);
		a->val = strndup(p + kl + 1, vl - kl - 1);
		if (a->key == NULL || a->val == NULL) {
			free(a->key);
			free(a->val);
			break;
		}
		for (i = 0; i < *nattr; i++)
			if (strcmp((*attr)[i].key, a->key) == 0) {
				snprintf(err, errlen,
					 "%s: attribute %s given "
					 "twice",
					 *path, a->key);
				free(a->key);
				free(a->val);
				goto fail;
			}
		(*nattr)++;
	}
check:
	if (*path != NULL && (c == NULL || *nattr == n))
		return 0;
	snprintf(err, errlen, "%s: out of memory", spec);
fail:
	free(*path);
	free_attr(*attr, *nattr);
	*path = NULL;
	*attr = NULL;
	*nattr = 0;
	return -1;
}

/* ------------------------------------------------------------------ */
/* Loading lines */


/* Every line of f into src->line: 0, or -1 with the error written. */
static int load(struct fd_src *src, FILE *f)
{
	char *buf = NULL, **v;
	size_t cap = 0, len = 0;
	int got;

	while ((got = ml_read_line(f, &buf, &cap, &len)) != 0) {
		size_t no = src->nline + 1, off = 0;

		if (got == -2) {
			free(buf);
			return fd_fail(src, no, "line longer than %d bytes",
				       ML_LINE_MAX);
		}
		if (got == -1) {
			int e = errno;

			free(buf);
			return fd_fail(src, no, "read error: %s", strerror(e));
		}
		if (len > 0 && buf[len - 1] == '\n')
			buf[--len] = '\0'; /* the line end */
		if (no == 1 && len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
			off = 3; /* UTF-8 byte order mark */
		if (memchr(buf, '\0', len)) {
			free(buf);
			return fd_fail(src, no, "line contains a NUL byte");
		}
		while (len > off && buf[len - 1] == '\r')
			buf[--len] = '\0';
		v = grow(&src->line, src->nline, sizeof(*v));
		if (v == NULL)
			break;
		*v = strdup(buf + off);
		if (*v == NULL)
			break;
		src->nline++;
	}
	free(buf);
	return got == 0 ? 0 : oom(src);
}

static void unload(struct fd_src *src)
{
	while (src->nline > 0)
		free(src->line[--src->nline]);
	free(src->line);
	src->line = NULL;
}

/* ------------------------------------------------------------------ */
/* Detection by content */

enum fd_format { FD_UNKNOWN, FD_CSV, FD_OSU, FD_IMB };

static bool blank(const char *s)
{
	return s[strspn(s, " \t\r\f\v")] == '\0';
}

/* The title of an OSU Micro-Benchmarks table. */
static bool osu_title(const char *s)
{
	return prefix(s, "# OSU ");
}

/* The banner, a rule or a benchmark title of IMB. */
static bool imb_marker(const char *s)
{
	return prefix(s, "#---") || prefix(s, "# Benchmarking ") ||
	       (s[0] == '#' && (strstr(s, "Intel(R) MPI Benchmarks") ||
				strstr(s, "Intel (R) MPI Benchmarks") ||
				strstr(s, "Intel MPI Benchmarks")));
}

bool fd_latency_name(const char *h)
{
	return strncasecmp(h, "latency", 7) == 0 &&
	       (h[7] == '\0' || h[7] == '[' || h[7] == '(');
}

bool fd_latency_avg_name(const char *h)
{
	return strncasecmp(h, "latency_avg", 11) == 0 &&
	       (h[11] == '\0' || h[11] == '[' || h[11] == '(');
}

/* A CSV header that names a latency column. */
static bool csv_has_latency(const char *s)
{
	char *t = strdup(s), *c, *save = NULL;
	bool yes = false;

	if (t == NULL)
		return false;
	for (c = strtok_r(t, ",", &save); c && !yes;
	     c = strtok_r(NULL, ",", &save))
		yes = fd_latency_name(fd_trim(c)) ||
		      fd_latency_avg_name(fd_trim(c));
	free(t);
	return yes;
}

/* A CSV header: a comma, or a single latency cell. */
static bool csv_header(const char *s)
{
	char *t = strdup(s), *c;
	bool yes;

	if (t == NULL)
		return strchr(s, ',') != NULL;
	c = fd_trim(t);
	yes = strchr(c, ',') != NULL || fd_latency_name(c);
	free(t);
	return yes;
}

/* The first OSU title or IMB marker at or after line index i. */
static enum fd_format later_table(const struct fd_src *src, size_t i,
				  size_t *start)
{
	for (; i < src->nline; i++) {
		*start = i;
		if (osu_title(src->line[i]))
			return FD_OSU;
		if (imb_marker(src->line[i]))
			return FD_IMB;
	}
	return FD_UNKNOWN;
}

/*
 * The format of the first significant line: blank lines and launcher
 * warnings (an Open MPI help frame whole) are passed over, and so are
 * '#' comments that are neither an OSU title nor an IMB marker.  A
 * first line that is not a CSV header with a latency column may be a
 * job script's preamble ("Running from: ...") before an OSU or IMB
 * table: the first such table then starts the file.
 */
static enum fd_format detect(const struct fd_src *src, size_t *start,
			     bool *empty)
{
	size_t i, later;
	bool frame = false;
	enum fd_format f;

	*empty = true;
	for (i = 0; i < src->nline; i++) {
		const char *s = src->line[i];
		size_t d = strspn(s, "-");

		if (blank(s))
			continue;
		*empty = false;
		if (d >= 10 && blank(s + d)) {
			frame = !frame;
			continue;
		}
		*start = i;
		if (osu_title(s))
			return FD_OSU;
		if (imb_marker(s))
			return FD_IMB;
		if (frame || fd_is_warning(s))
			continue;
		if (s[0] == '#')
			continue;
		if (csv_has_latency(s))
			return FD_CSV;
		f = later_table(src, i + 1, &later);
		if (f != FD_UNKNOWN) {
			*start = later;
			return f;
		}
		return csv_header(s) ? FD_CSV : FD_UNKNOWN;
	}
	return FD_UNKNOWN;
}

/* ------------------------------------------------------------------ */

static int read_src(struct fd_src *src, FILE *f)
{
	enum fd_format fmt;
	size_t start = 0, n;
	bool empty;
	int rc;

	if (load(src, f))
		return -1;
	fmt = detect(src, &start, &empty);
	if (empty)
		return fd_fail(src, 0, "empty file");
	switch (fmt) {
	case FD_CSV:
		rc = fd_read_csv(src, start);
		break;
	case FD_OSU:
		rc = fd_read_osu(src, start);
		break;
	case FD_IMB:
		rc = fd_read_imb(src, start);
		break;
	default:
		return fd_fail(src, 0, "unknown format (read: %s)", FD_FORMATS);
	}
	if (rc)
		return rc;
	n = src->nrows + src->nbad;
	if (n < 2)
		return fd_fail(src, 0,
			       "%zu data point%s (at least 2 are "
			       "needed)",
			       n, n == 1 ? "" : "s");
	return 0;
}

int fd_read(struct fd_set *s, const char *spec, FILE *in, char *err,
	    size_t errlen)
{
	struct fd_set mark = *s;
	struct fd_src src = {0};
	struct fd_kv *attr;
	char *path, **slot;
	FILE *f;
	int rc = -1;

	if (errlen)
		err[0] = '\0';
	if (parse_spec(spec, &path, &attr, &src.nattr, err, errlen))
		return -1;
	src.attr = attr;
	src.set = s;
	src.err = err;
	src.errlen = errlen;
	slot = grow(&s->files, s->nfiles, sizeof(*slot));
	if (slot != NULL)
		*slot = strdup(strcmp(path, "-") == 0 ? "stdin" : path);
	if (slot == NULL || *slot == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	s->nfiles++;
	src.name = *slot;
	if (strcmp(path, "-") == 0) {
		f = in;
		if (f == NULL) {
			fd_fail(&src, 0, "no standard input");
			goto out;
		}
	} else {
		f = fopen(path, "r");
		if (f == NULL) {
			fd_fail(&src, 0, "cannot open: %s", strerror(errno));
			goto out;
		}
	}
	rc = read_src(&src, f);
	if (f != in)
		fclose(f);
out:
	if (rc)
		truncate_set(s, &mark);
	unload(&src);
	free_attr(attr, src.nattr);
	free(path);
	return rc;
}
