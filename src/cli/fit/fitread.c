/*
 * fitread.c - what the --data readers (read_csv.c, read_osu.c,
 * read_imb.c) and their dispatcher (fitdata.c) share (fitread.h): the
 * row set a file adds to (rows, rejected rows, notes, and the undo of a
 * failed file), the messages, and the small parsers of cells and
 * words.  Below the readers and the dispatcher; calls neither.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/fit/fitread.h"
#include "cli/engine/parse.h"

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

int fd_oom(struct fd_src *src)
{
	return fd_fail(src, 0, "out of memory");
}

void *fd_grow(void *vp, size_t n, size_t sz)
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
	struct fd_problem *p = fd_grow(&s->bad, s->nbad, sizeof(*p));
	va_list ap;

	if (p == NULL)
		return fd_oom(src);
	va_start(ap, fmt);
	p->msg = vfmt(fmt, ap);
	va_end(ap);
	p->where = where(src, lineno);
	if (p->msg == NULL || p->where == NULL) {
		free(p->msg);
		free(p->where);
		return fd_oom(src);
	}
	s->nbad++;
	src->nbad++;
	return 0;
}

int fd_note(struct fd_src *src, size_t lineno, const char *fmt, ...)
{
	struct fd_set *s = src->set;
	char **p = fd_grow(&s->notes, s->nnotes, sizeof(*p));
	char *w = where(src, lineno), *m;
	va_list ap;

	if (p == NULL || w == NULL) {
		free(w);
		return fd_oom(src);
	}
	va_start(ap, fmt);
	m = vfmt(fmt, ap);
	va_end(ap);
	*p = m ? malloc(strlen(w) + strlen(m) + 3) : NULL;
	if (*p == NULL) {
		free(w);
		free(m);
		return fd_oom(src);
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

void fd_free_kv(struct fd_kv *kv, size_t n)
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
			return fd_oom(src);
		if (i < *n) { /* an empty cell */
			free(kv[i].val);
			kv[i].val = v;
			continue;
		}
		kv[*n].key = strdup(at->key);
		kv[*n].val = v;
		if (kv[*n].key == NULL) {
			free(v);
			return fd_oom(src);
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
		return fd_oom(src);
	for (i = 0; i < n; i++, nkv++) {
		kv[i].key = strdup(keys[i]);
		kv[i].val = strdup(vals[i]);
		if (kv[i].key == NULL || kv[i].val == NULL) {
			fd_free_kv(kv, i + 1);
			return fd_oom(src);
		}
	}
	if (merge_attr(src, lineno, kv, &nkv)) {
		fd_free_kv(kv, n + src->nattr);
		return -1;
	}
	r = fd_grow(&s->rows, s->nrows, sizeof(*r));
	if (r == NULL) {
		fd_free_kv(kv, nkv);
		return fd_oom(src);
	}
	*r = (struct fd_row){src->name, (long)lineno, kv,
			     nkv,	st->avg,      st->min,
			     st->max,	st->unit,     st->weight, st->mean};
	s->nrows++;
	src->nrows++;
	return 0;
}

/* Free what the set holds beyond the counts of mark (a fatal error). */
void fd_truncate(struct fd_set *s, const struct fd_set *mark)
{
	while (s->nrows > mark->nrows) {
		struct fd_row *r = &s->rows[--s->nrows];

		fd_free_kv(r->kv, r->nkv);
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

	fd_truncate(s, &none);
	free(s->rows);
	free(s->bad);
	free(s->notes);
	free(s->files);
	memset(s, 0, sizeof(*s));
}
