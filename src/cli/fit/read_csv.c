/*
 * read_csv.c - --data in CSV: the format mcastlat itself writes with
 * --format csv and reads with --input (batch.c; SPEC 1 and 9.1), which
 * follows RFC 4180 (comma-separated, fields in double quotes with "" for
 * a quote, CRLF or LF line ends).  As --input does, blank lines and lines
 * starting with '#' are skipped and header cells are trimmed.
 *
 * The header must name a column `latency` or `latency[UNIT]` (ns, us, ms,
 * s), or `latency_avg` (a mean over ranks, OSU's Avg; SPEC 10.4), or
 * both (then latency_avg is the row's avg and latency its max, the last
 * rank's time; a latency_avg cell that is empty or not a time > 0, as
 * in the collective model's own p2p rows, leaves latency the row's one
 * value); an optional `weight` column (> 0) weights the point; every other
 * column is an input of the point, passed on as text (the fit command
 * decides whether it is an option, a result column to ignore, or
 * unknown).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/engine/csvline.h"
#include "cli/fit/fitread.h"
#include "cli/engine/parse.h"


/* A CSV header cell naming the measured column: latency, latency[UNIT]
 * or, as OSU writes it, Latency(UNIT) (any case). */
static bool latency_name(const char *h)
{
	return strncasecmp(h, "latency", 7) == 0 &&
	       (h[7] == '\0' || h[7] == '[' || h[7] == '(');
}

/* The same for the mean over ranks: latency_avg or latency_avg[UNIT]
 * (the collective model's column of OSU's Avg). */
static bool latency_avg_name(const char *h)
{
	return strncasecmp(h, "latency_avg", 11) == 0 &&
	       (h[11] == '\0' || h[11] == '[' || h[11] == '(');
}

static bool skipped(const char *s)
{
	return s[strspn(s, " \t")] == '\0' || s[0] == '#';
}

/* The columns of the header. */
struct csv_cols {
	char **name; /* every header cell, trimmed */
	size_t n;
	size_t lat, avg, weight; /* their index, or n */
	const char *unit;
};

/* A static name for a unit of ml_time_scale. */
static const char *unit_name(const char *u)
{
	static const char *const units[] = {"ns", "us", "ms", "s", NULL};
	size_t i;

	for (i = 0; units[i]; i++)
		if (strcmp(u, units[i]) == 0)
			return units[i];
	return NULL;
}

/* Column k named latency[...] (or latency_avg[...]: avg, the name's
 * length 11): its unit, or an error. */
static int latency_col(struct fd_src *src, size_t lineno, struct csv_cols *c,
		       size_t k, bool avg)
{
	const char *h = c->name[k], *was = c->unit;
	size_t at = avg ? 11 : 7, *col = avg ? &c->avg : &c->lat;
	char q[ML_QUOTE_LEN];

	if (*col < c->n)
		return fd_fail(src, lineno,
			       "column %s: a second latency "
			       "column",
			       fd_q(q, h));
	*col = k;
	if (h[at] == '\0') {
		c->unit = NULL;
	} else {
		size_t len = strlen(h);
		char u[8] = "";

		if (h[len - 1] == (h[at] == '[' ? ']' : ')') &&
		    len - at - 2 < sizeof(u)) {
			memcpy(u, h + at + 1, len - at - 2);
			u[len - at - 2] = '\0';
		}
		c->unit = unit_name(u);
		if (c->unit == NULL)
			return fd_fail(src, lineno,
				       "column %s: unknown unit (use "
				       "latency[ns], [us], [ms] or [s], or "
				       "Latency(us) as OSU writes it)",
				       fd_q(q, h));
	}
	if (c->lat < c->n && c->avg < c->n && was != c->unit &&
	    !(was && c->unit && strcmp(was, c->unit) == 0))
		return fd_fail(src, lineno,
			       "column %s: latency and latency_avg in "
			       "different units",
			       fd_q(q, h));
	return 0;
}

static int read_header(struct fd_src *src, size_t lineno, char *s,
		       struct csv_cols *c)
{
	size_t max = 2, i, k;
	char q[ML_QUOTE_LEN];

	for (i = 0; s[i]; i++)
		max += s[i] == ',';
	c->name = calloc(max, sizeof(*c->name));
	if (c->name == NULL)
		return fd_fail(src, lineno, "out of memory");
	if (ml_csv_split(s, c->name, max, &c->n))
		return fd_fail(src, lineno, "unreadable header line (quotes)");
	c->lat = c->avg = c->weight = c->n;
	for (k = 0; k < c->n; k++) {
		const char *h = c->name[k] = fd_trim(c->name[k]);

		if (h[0] == '\0')
			return fd_fail(src, lineno, "column %zu has no name",
				       k + 1);
		for (i = 0; i < k; i++)
			if (strcmp(c->name[i], h) == 0)
				return fd_fail(src, lineno,
					       "column %s "
					       "appears twice in the header",
					       fd_q(q, h));
		if (latency_name(h) || latency_avg_name(h)) {
			if (latency_col(src, lineno, c, k,
					latency_avg_name(h)))
				return -1;
		} else if (strcmp(h, "weight") == 0) {
			c->weight = k;
		}
	}
	if (c->lat == c->n && c->avg == c->n)
		return fd_fail(src, lineno,
			       "no latency column (name it latency, "
			       "latency[us] or Latency(us); units ns, us, "
			       "ms, s)");
	return 0;
}

/* One data row: a row, a rejected row, or -1 (fatal). */
static int read_row(struct fd_src *src, size_t lineno, char *s,
		    const struct csv_cols *c, char **f, const char **keys,
		    const char **vals)
{
	struct fd_stat st = {NAN, NAN, NAN, NAN, c->unit, false};
	char q[ML_QUOTE_LEN];
	const char *why;
	size_t nf, k, n = 0;

	if (ml_csv_split(s, f, c->n + 1, &nf))
		return strchr(s, '"') ? fd_bad(src, lineno, "unbalanced quotes")
				      : fd_bad(src, lineno,
					       "expected %zu fields, "
					       "found more",
					       c->n);
	if (nf != c->n)
		return fd_bad(src, lineno, "expected %zu fields, found %zu",
			      c->n, nf);
	for (k = 0; k < nf; k++) {
		f[k] = fd_trim(f[k]);
		if (k == c->lat || k == c->avg || k == c->weight)
			continue;
		keys[n] = c->name[k];
		vals[n++] = f[k];
	}
	if (c->avg < c->n) {
		/* a mean over ranks, and the last rank's time beside it */
		why = fd_positive(f[c->avg], &st.avg);
		st.mean = why == NULL;
		if (why && c->lat == c->n)
			return fd_bad(src, lineno, "%s: %s %s", c->name[c->avg],
				      fd_q(q, f[c->avg]), why);
		if (c->lat < c->n) {
			why = fd_positive(f[c->lat], st.mean ? &st.max
							     : &st.avg);
			if (why)
				return fd_bad(src, lineno, "%s: %s %s",
					      c->name[c->lat],
					      fd_q(q, f[c->lat]), why);
		}
	} else {
		why = fd_positive(f[c->lat], &st.avg);
		if (why)
			return fd_bad(src, lineno, "%s: %s %s", c->name[c->lat],
				      fd_q(q, f[c->lat]), why);
	}
	if (c->weight < c->n) {
		why = fd_positive(f[c->weight], &st.weight);
		if (why)
			return fd_bad(src, lineno, "weight: %s %s",
				      fd_q(q, f[c->weight]), why);
	}
	return fd_add(src, lineno, keys, vals, n, &st);
}

static int read_csv(struct fd_src *src, size_t start)
{
	struct csv_cols c = {0};
	char **f = NULL;
	const char **keys = NULL, **vals = NULL;
	size_t i, nrow = 0;
	int rc;

	rc = read_header(src, start + 1, src->line[start], &c);
	if (rc == 0) {
		f = calloc(c.n + 1, sizeof(*f));
		keys = calloc(c.n + 1, sizeof(*keys));
		vals = calloc(c.n + 1, sizeof(*vals));
		if (!f || !keys || !vals)
			rc = fd_fail(src, 0, "out of memory");
	}
	for (i = start + 1; rc == 0 && i < src->nline; i++) {
		if (skipped(src->line[i]))
			continue;
		nrow++;
		rc = read_row(src, i + 1, src->line[i], &c, f, keys, vals);
	}
	if (rc == 0 && nrow == 0)
		rc = fd_fail(src, start + 1, "header without data");
	free(c.name);
	free(f);
	free(keys);
	free(vals);
	return rc;
}

/* A CSV header: one that names a latency column; loose, any line with
 * a comma, or a single latency cell. */
static bool csv_header(const char *s, bool loose)
{
	char *t = strdup(s), *c, *save = NULL;
	bool yes = false;

	if (t == NULL)
		return loose && strchr(s, ',') != NULL;
	if (loose) {
		c = fd_trim(t);
		yes = strchr(c, ',') != NULL || latency_name(c);
	} else {
		for (c = strtok_r(t, ",", &save); c && !yes;
		     c = strtok_r(NULL, ",", &save))
			yes = latency_name(fd_trim(c)) ||
			      latency_avg_name(fd_trim(c));
	}
	free(t);
	return yes;
}

const struct fd_reader fd_reader_csv = {
    .name = "CSV",
    .header = csv_header,
    .read = read_csv,
};
