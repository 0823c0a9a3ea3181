/*
 * fitdata.c - the --data argument of `mcastlat fit` (see fitdata.h): the
 * FILE:key=value spec, loading a file's lines (bounded: ML_LINE_MAX, no
 * NUL byte), and recognising its format by content: the dispatcher asks
 * each reader of its table (struct fd_reader: read_osu.c, read_imb.c,
 * read_csv.c) whether a line is its title or its header, and hands the
 * lines to the one that claims them.  The row set and the helpers every
 * reader shares are fitread.c's, below both.
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

#include "cli/engine/csvline.h"
#include "cli/fit/fitread.h"
#include "cli/engine/msg.h"
#include "cli/engine/parse.h"

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
	fd_free_kv(a, n);
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
		v = fd_grow(&src->line, src->nline, sizeof(*v));
		if (v == NULL)
			break;
		*v = strdup(buf + off);
		if (*v == NULL)
			break;
		src->nline++;
	}
	free(buf);
	return got == 0 ? 0 : fd_oom(src);
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

/* The readers, in the order detection asks them. */
static const struct fd_reader *const readers[] = {
    &fd_reader_osu,
    &fd_reader_imb,
    &fd_reader_csv,
};

#define NREADERS (sizeof(readers) / sizeof(readers[0]))

static bool blank(const char *s)
{
	return s[strspn(s, " \t\r\f\v")] == '\0';
}

/* The reader whose title or banner s is, or NULL. */
static const struct fd_reader *marker(const char *s)
{
	size_t r;

	for (r = 0; r < NREADERS; r++)
		if (readers[r]->marker && readers[r]->marker(s))
			return readers[r];
	return NULL;
}

/* The reader whose table header s is (loose: its weaker test), or
 * NULL. */
static const struct fd_reader *header(const char *s, bool loose)
{
	size_t r;

	for (r = 0; r < NREADERS; r++)
		if (readers[r]->header && readers[r]->header(s, loose))
			return readers[r];
	return NULL;
}

/* The first title or banner at or after line index i. */
static const struct fd_reader *later_table(const struct fd_src *src,
					   size_t i, size_t *start)
{
	const struct fd_reader *r;

	for (; i < src->nline; i++) {
		*start = i;
		r = marker(src->line[i]);
		if (r != NULL)
			return r;
	}
	return NULL;
}

/*
 * The reader of the first significant line: blank lines and launcher
 * warnings (an Open MPI help frame whole) are passed over, and so are
 * '#' comments that are no reader's title or banner.  A first line
 * that is not a table header (a CSV header with a latency column) may
 * be a job script's preamble ("Running from: ...") before an OSU or
 * IMB table: the first such table then starts the file; failing that,
 * a header by a reader's weaker test (CSV: any comma).
 */
static const struct fd_reader *detect(const struct fd_src *src,
				      size_t *start, bool *empty)
{
	const struct fd_reader *r;
	size_t i, later;
	bool frame = false;

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
		r = marker(s);
		if (r != NULL)
			return r;
		if (frame || fd_is_warning(s))
			continue;
		if (s[0] == '#')
			continue;
		r = header(s, false);
		if (r != NULL)
			return r;
		r = later_table(src, i + 1, &later);
		if (r != NULL) {
			*start = later;
			return r;
		}
		return header(s, true);
	}
	return NULL;
}

/* ------------------------------------------------------------------ */

static int read_src(struct fd_src *src, FILE *f)
{
	const struct fd_reader *r;
	size_t start = 0, n;
	bool empty;
	int rc;

	if (load(src, f))
		return -1;
	r = detect(src, &start, &empty);
	if (empty)
		return fd_fail(src, 0, "empty file");
	if (r == NULL)
		return fd_fail(src, 0, "unknown format (read: %s)", FD_FORMATS);
	rc = r->read(src, start);
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
	slot = fd_grow(&s->files, s->nfiles, sizeof(*slot));
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
		fd_truncate(s, &mark);
	unload(&src);
	free_attr(attr, src.nattr);
	free(path);
	return rc;
}
