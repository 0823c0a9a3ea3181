/*
 * collective_meas.c - the table of measured broadcasts (SPEC 10.7):
 * runs grouped into cells of one placement, algorithm, P and size, each
 * with its runs' median, spread and each run's deviation from the
 * median (mcastlat/tune.h); collective_tune.c corrects the model by it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "mcastlat/collective.h"
#include "mcastlat/tune.h"

#define NA (ML_COLL_MPICH_LAST + 1) /* algorithm ids 0 .. 14 */

bool ml_coll_same_placement(const struct ml_collective_params *a,
			    const struct ml_collective_params *b)
{
	struct ml_collective_params x = *a;

	x.ranks = b->ranks;
	return a->library == b->library && ml_collective_place_cmp(&x, b) == 0;
}

/* Runs and cells in the order (placement, algorithm, ranks, msg). */
static int cmp_params(const struct ml_collective_params *a,
		      const struct ml_collective_params *b)
{
	struct ml_collective_params x = *a;
	int c;

	if (a->library != b->library)
		return a->library < b->library ? -1 : 1;
	x.ranks = b->ranks;
	c = ml_collective_place_cmp(&x, b);
	if (c)
		return c;
	if (a->algorithm != b->algorithm)
		return a->algorithm < b->algorithm ? -1 : 1;
	if (a->ranks != b->ranks)
		return a->ranks < b->ranks ? -1 : 1;
	if (a->msg != b->msg)
		return a->msg < b->msg ? -1 : 1;
	return 0;
}

static int cmp_run(const void *a, const void *b)
{
	const struct ml_coll_run *x = a, *y = b;
	int c = cmp_params(&x->p, &y->p);

	return c ? c : (x->value > y->value) - (x->value < y->value);
}

enum ml_status ml_coll_meas_build(const struct ml_coll_run *runs, size_t n,
				  enum ml_coll_objective obj,
				  struct ml_coll_meas *out)
{
	struct ml_coll_run *s;
	double *v;
	size_t i, j, k;

	out->cell = NULL;
	out->dev = NULL;
	out->ncell = 0;
	out->obj = obj;
	for (i = 0; i < n; i++)
		if (!(runs[i].value > 0) || !isfinite(runs[i].value) ||
		    runs[i].p.ranks < 1 || runs[i].p.msg < 1 ||
		    runs[i].p.algorithm < 0 || runs[i].p.algorithm >= NA)
			return ML_EINVAL;
	if (n == 0)
		return ML_OK;
	s = malloc(n * sizeof *s);
	v = malloc(2 * n * sizeof *v);
	out->cell = malloc(n * sizeof *out->cell);
	out->dev = malloc(n * sizeof *out->dev);
	if (!s || !v || !out->cell || !out->dev) {
		free(s);
		free(v);
		ml_coll_meas_free(out);
		return ML_ENOMEM;
	}
	memcpy(s, runs, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_run);
	for (i = 0; i < n; i = j) {
		struct ml_coll_cell *c = &out->cell[out->ncell++];

		for (j = i; j < n && cmp_params(&s[i].p, &s[j].p) == 0; j++)
			v[j - i] = s[j].value; /* sorted by value */
		c->p = s[i].p;
		c->runs = (int)(j - i);
		c->median = gsl_stats_median_from_sorted_data(v, 1, j - i);
		c->spread = c->sd = NAN;
		c->dev_first = i;
		for (k = 0; k < j - i; k++)
			out->dev[i + k] =
			    j - i > 1 ? fabs(log(v[k] / c->median)) *
					    sqrt((double)(j - i) /
						 (double)(j - i - 1))
				      : 0;
		if (j - i >= 3) {
			/* robust: 1.4826 x the median absolute deviation
			 * of ln (a run of 53 us among 9 us ones is one
			 * run, not the spread) */
			for (k = 0; k < j - i; k++)
				v[k] = log(v[k]);
			c->sd = gsl_stats_sd(v, 1, j - i);
			c->spread = gsl_stats_mad(v, 1, j - i, v + (j - i));
		}
	}
	free(s);
	free(v);
	return ML_OK;
}

void ml_coll_meas_free(struct ml_coll_meas *m)
{
	if (!m)
		return;
	free(m->cell);
	free(m->dev);
	m->cell = NULL;
	m->dev = NULL;
	m->ncell = 0;
}
