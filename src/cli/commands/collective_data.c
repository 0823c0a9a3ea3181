/*
 * collective_data.c - `mcastlat collective --data FILE[,FILE...]`: the
 * measured broadcasts (fit's CSV, or the "# measured: " lines of a
 * machine that fit --emit wrote, also those of the --input file) read
 * into the library's table
 * (mcastlat/tune.h, SPEC 10.7), and the corrected predictor of each
 * machine and placement a sweep asks for, built once and shared by the
 * sweep's threads.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands/collective_data.h"
#include "cli/commands/collective_opts.h"
#include "cli/engine/columns.h"
#include "cli/engine/csvline.h"
#include "cli/engine/parse.h"

#define MAXF 256 /* columns of a data file */

/* The prefix of a machine file's measured lines (fit --emit). */
#define MEASURED "# measured: "

/* The line's CSV text: after MEASURED in a machine file (mode true),
 * else the line unless it is a comment; NULL for a line to skip. */
static char *csv_text(char *line, size_t len, bool mode)
{
	size_t n = strlen(MEASURED);

	if (mode)
		return len > n && strncmp(line, MEASURED, n) == 0 ? line + n
								  : NULL;
	return len == 0 || line[0] == '#' ? NULL : line;
}

/* Does the file at path have measured lines (a machine of fit --emit)?
 * -1 when unreadable. */
static int has_measured(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, len;
	int yes = 0;

	if (!f)
		return -1;
	while (!yes && ml_read_line(f, &line, &cap, &len) == 1)
		yes = strncmp(line, MEASURED, strlen(MEASURED)) == 0;
	free(line);
	fclose(f);
	return yes;
}

struct entry {
	struct ml_collective_params machine;
	struct ml_coll_errmodel em;
	double level;
	struct ml_coll_tune *t;
	struct entry *next;
};

struct ml_coll_tune_cache {
	pthread_mutex_t mu;
	struct entry *head;
};

/* The option of a column name (map_by is map-by), NOPTS for none. */
static size_t col_opt(const char *s)
{
	size_t i;

	for (i = 0; i < NOPTS; i++)
		if (ml_same_name(ml_collective_opts[i].name, s, strlen(s)))
			return i;
	return NOPTS;
}

/* One file's rows into *runs (grown); -1 with d set. */
static int read_file(const char *path, const union ml_val *base,
		     ml_coll_params_fn conv, const int *obj,
		     struct ml_coll_run **runs, size_t *n, size_t *cap,
		     struct ml_diag *d)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *fld[MAXF];
	size_t lcap = 0, len, nf, colopt[MAXF], ncol = 0, k, lineno = 0;
	long ycol[2] = {-1, -1}, opcol = -1, use;
	union ml_val v[NOPTS];
	int rc = -1, r, mode = has_measured(path);

	if (!f || mode < 0) {
		ml_diag_set(d, "data", "%s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	while ((r = ml_read_line(f, &line, &lcap, &len)) == 1) {
		struct ml_collective_params p;
		struct ml_vlist vl;
		char err[256];
		double y;
		int word;

		char *text;

		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!(text = csv_text(line, len, mode)))
			continue;
		if (ml_csv_split(text, fld, MAXF, &nf)) {
			ml_diag_set(d, "data", "%s:%zu: bad CSV", path, lineno);
			goto out;
		}
		if (ncol == 0) { /* the header */
			ncol = nf;
			for (k = 0; k < nf; k++) {
				colopt[k] = col_opt(fld[k]);
				if (strcmp(fld[k], "latency") == 0)
					ycol[0] = (long)k;
				if (strcmp(fld[k], "latency_avg") == 0)
					ycol[1] = (long)k;
				if (strcmp(fld[k], "op") == 0)
					opcol = (long)k;
			}
			if (ycol[0] < 0 && ycol[1] < 0) {
				ml_diag_set(d, "data", "%s: no latency or "
					    "latency_avg column", path);
				goto out;
			}
			continue;
		}
		if (nf != ncol) {
			ml_diag_set(d, "data", "%s:%zu: %zu fields, the header "
				    "has %zu", path, lineno, nf, ncol);
			goto out;
		}
		if (opcol >= 0 && strcmp(fld[opcol], "bcast") != 0)
			continue; /* ping-pongs, barriers */
		use = ycol[*obj];
		if (use >= 0 && fld[use][0] == '\0')
			continue; /* measured by the other statistic */
		if (use < 0) {
			ml_diag_set(d, "data", "%s: no %s column (the other "
				    "files' measure)", path,
				    *obj ? "latency_avg" : "latency");
			goto out;
		}
		memcpy(v, base, sizeof v);
		for (k = 0; k < nf; k++) {
			const struct ml_opt *o;

			if (colopt[k] == NOPTS || fld[k][0] == '\0')
				continue;
			o = &ml_collective_opts[colopt[k]];
			if (o->kind == ML_OPT_TEXT || o->kind == ML_OPT_FLAG)
				continue;
			if (strcmp(fld[k], "auto") == 0 && ml_opt_is_int(o)) {
				v[colopt[k]].i = ML_AUTO_INT; /* as emitted */
				continue;
			}
			if (ml_vlist_parse(&vl, o, fld[k], "us", err,
					   sizeof err)) {
				ml_diag_set(d, "data", "%s:%zu: %s: %s", path,
					    lineno, o->name, err);
				goto out;
			}
			v[colopt[k]] = ml_vlist_at(&vl, 0);
			ml_vlist_free(&vl);
		}
		conv(v, &p, &word);
		if (word == ALG_BEST) {
			ml_diag_set(d, "data", "%s:%zu: best is not a measured "
				    "algorithm", path, lineno);
			goto out;
		}
		if (word == ALG_OMPI)
			p.algorithm = ML_COLL_DEFAULT;
		if (ml_collective_validate(&p, NULL) != ML_OK ||
		    ml_parse_real(fld[use], &y) || !(y > 0)) {
			ml_diag_set(d, "data", "%s:%zu: not a broadcast the "
				    "model runs, or a time not > 0", path,
				    lineno);
			goto out;
		}
		if (*n == *cap) {
			size_t nc = *cap ? 2 * *cap : 1024;
			struct ml_coll_run *nr = realloc(*runs, nc * sizeof *nr);

			if (!nr) {
				ml_diag_set(d, "data", "out of memory");
				goto out;
			}
			*runs = nr;
			*cap = nc;
		}
		(*runs)[*n].p = p;
		(*runs)[(*n)++].value = y;
	}
	if (r < 0)
		ml_diag_set(d, "data", "%s: %s", path,
			    r == -2 ? "a line too long" : strerror(errno));
	else
		rc = 0;
out:
	free(line);
	fclose(f);
	return rc;
}

/* Which measured columns path has values in (a header column that
 * some row fills; fit --emit writes both, one empty a row): bit 0
 * latency, bit 1 latency_avg; -1 with d set when unreadable. */
static int header_cols(const char *path, struct ml_diag *d)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *fld[MAXF], *text;
	size_t cap = 0, len, nf, k;
	long col[2] = {-1, -1};
	int r, has = 0, head = 1, mode = has_measured(path);

	if (!f || mode < 0) {
		ml_diag_set(d, "data", "%s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	while (has != 3 && (r = ml_read_line(f, &line, &cap, &len)) == 1) {
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!(text = csv_text(line, len, mode)) ||
		    ml_csv_split(text, fld, MAXF, &nf))
			continue;
		if (head) {
			for (k = 0; k < nf; k++) {
				if (strcmp(fld[k], "latency") == 0)
					col[0] = (long)k;
				if (strcmp(fld[k], "latency_avg") == 0)
					col[1] = (long)k;
			}
			head = 0;
			continue;
		}
		for (k = 0; k < 2; k++)
			if (col[k] >= 0 && (size_t)col[k] < nf &&
			    fld[col[k]][0] != '\0')
				has |= 1 << k;
	}
	free(line);
	fclose(f);
	return has;
}

/* The same measured cell: placement, library, algorithm, P and M. */
static bool same_cell(const struct ml_collective_params *a,
		      const struct ml_collective_params *b)
{
	return a->library == b->library && a->algorithm == b->algorithm &&
	       a->ranks == b->ranks && a->msg == b->msg &&
	       ml_collective_place_cmp(a, b) == 0;
}

/* Drop runs[0..nfirst-1] of a cell that runs[nfirst..n-1] measure too
 * (--data's files override the machine file's measured lines). */
static size_t override(struct ml_coll_run *runs, size_t nfirst, size_t n)
{
	size_t i, j, k = 0;

	for (i = 0; i < nfirst; i++) {
		for (j = nfirst; j < n; j++)
			if (same_cell(&runs[i].p, &runs[j].p))
				break;
		if (j == n)
			runs[k++] = runs[i];
	}
	memmove(runs + k, runs + nfirst, (n - nfirst) * sizeof *runs);
	return k + n - nfirst;
}

/* The next file of the comma-separated list at *i into path; 0 at the
 * list's end, -1 with d set for an empty or too long name. */
static int next_path(const char *list, size_t *i, char *path, size_t cap,
		     struct ml_diag *d)
{
	size_t len;

	if (!list || !list[*i])
		return 0;
	len = strcspn(list + *i, ",");
	if (len == 0 || len >= cap) {
		ml_diag_set(d, "data", "an empty or too long file name");
		return -1;
	}
	memcpy(path, list + *i, len);
	path[len] = '\0';
	*i += len + (list[*i + len] == ',');
	return 1;
}

int ml_collective_data_read(const char *list, const char *machine,
			    const union ml_val *base, ml_coll_params_fn conv,
			    bool avg, struct ml_coll_meas *m,
			    struct ml_diag *d)
{
	struct ml_coll_run *runs = NULL;
	size_t n = 0, cap = 0, i, nfirst = 0;
	char path[4096];
	int pass, more;
	int obj = 0, all = 3, h;
	enum ml_status st;

	m->cell = NULL;
	m->dev = NULL;
	m->ncell = 0;
	/* A machine file without measured lines is not read. */
	if (machine && has_measured(machine) != 1)
		machine = NULL;
	if (!machine && !list)
		return 0;
	/* The objective's column where every file has it, else the other
	 * where every file has that. */
	for (pass = 0; pass < 2; pass++) {
		i = 0;
		for (more = machine ? 2 : 1; more;) {
			const char *at = path;

			if (more == 2) {
				at = machine;
				more = 1;
			} else if ((more = next_path(list, &i, path,
						     sizeof path, d)) < 0) {
				free(runs);
				return -1;
			} else if (more == 0) {
				break;
			}
			if (pass == 1) {
				if (read_file(at, base, conv, &obj, &runs, &n,
					      &cap, d)) {
					free(runs);
					return -1;
				}
				if (at == machine)
					nfirst = n;
				continue;
			}
			h = header_cols(at, d);
			if (h < 0)
				return -1;
			if (h == 0 && at == machine)
				h = 3; /* no broadcast: adds nothing */
			if (h == 0) {
				ml_diag_set(d, "data", "%s: no latency or "
					    "latency_avg column", at);
				return -1;
			}
			all &= h;
		}
		if (pass == 0 && all == 0) {
			ml_diag_set(d, "data", "the files do not all measure "
				    "latency, nor all latency_avg");
			return -1;
		}
		obj = (avg ? all & 2 : !(all & 1)) ? 1 : 0;
	}
	if (nfirst)
		n = override(runs, nfirst, n);
	st = ml_coll_meas_build(runs, n, obj == 1 ? ML_COLL_BY_AVG
						  : ML_COLL_BY_LATENCY, m);
	free(runs);
	if (st != ML_OK) {
		ml_diag_set(d, "data", "%s", st == ML_ENOMEM ? "out of memory"
							      : "a bad run");
		return -1;
	}
	if (m->ncell == 0 && list) {
		ml_diag_set(d, "data", "%s: no broadcast", list);
		return -1;
	}
	return 0;
}

struct ml_coll_tune_cache *ml_coll_tune_cache_new(void)
{
	struct ml_coll_tune_cache *c = calloc(1, sizeof *c);

	if (c && pthread_mutex_init(&c->mu, NULL)) {
		free(c);
		return NULL;
	}
	return c;
}

void ml_coll_tune_cache_free(struct ml_coll_tune_cache *c)
{
	struct entry *e, *nx;

	if (!c)
		return;
	for (e = c->head; e; e = nx) {
		nx = e->next;
		ml_coll_tune_free(e->t);
		free(e);
	}
	pthread_mutex_destroy(&c->mu);
	free(c);
}

/* The same machine and placement (the fields a prediction reads). */
static bool same_machine(const struct ml_collective_params *a,
			 const struct ml_collective_params *b)
{
	int c;

	for (c = 0; c < ML_COLL_NCHANNEL; c++)
		if (a->lat[c] != b->lat[c] || a->byte[c] != b->byte[c] ||
		    a->ebyte[c] != b->ebyte[c])
			return false;
	return a->overhead == b->overhead && a->nic_gap == b->nic_gap &&
	       a->eager == b->eager && ml_coll_same_placement(a, b);
}

static bool same_em(const struct ml_coll_errmodel *a,
		    const struct ml_coll_errmodel *b)
{
	int k;

	if (a->fit_ranks != b->fit_ranks || a->diff_growth != b->diff_growth)
		return false;
	for (k = 0; k < ML_COLL_NCLASS; k++)
		if (a->growth[k] != b->growth[k])
			return false;
	return true;
}

enum ml_status ml_coll_tune_cached(struct ml_coll_tune_cache *c,
				   const struct ml_coll_meas *m,
				   const struct ml_collective_params *machine,
				   const struct ml_coll_errmodel *em,
				   double level,
				   const struct ml_coll_tune **t)
{
	struct entry *e;
	enum ml_status st = ML_OK;

	*t = NULL;
	pthread_mutex_lock(&c->mu);
	for (e = c->head; e; e = e->next)
		if (e->level == level && same_machine(&e->machine, machine) &&
		    same_em(&e->em, em))
			break;
	if (!e) {
		e = calloc(1, sizeof *e);
		if (!e) {
			st = ML_ENOMEM;
		} else {
			e->machine = *machine;
			e->em = *em;
			e->level = level;
			st = ml_coll_tune_new(m, machine, em, level, &e->t);
			if (st != ML_OK) {
				free(e);
				e = NULL;
			} else {
				e->next = c->head;
				c->head = e;
			}
		}
	}
	if (e)
		*t = e->t;
	pthread_mutex_unlock(&c->mu);
	return st;
}
