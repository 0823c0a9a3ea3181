/*
 * fit_auto.c - --free auto (ml_fit_auto): the free set grown from what
 * the data determine, one group of carriers at a time, each trial an
 * ordinary ml_fit that is kept while the fit stays determined; the
 * partners of a kept quantity the user did not give are held at 0.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit/fitint.h"

static bool listed(const char *const *names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* Set the named costs to 0 in every point of a copy. */
static void zero_costs(const struct ml_fit_model *m, void *pts, size_t n,
		       const char *const *names, size_t nn)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < nn; j++)
			ml_fit_set(m, (char *)pts + i * m->size, names[j], 0);
}

/* The state of --free auto: the free set and the zeroed partners so
 * far, and what a trial needs. */
struct autofit {
	const struct ml_fit_model *m;
	const struct ml_fit_data *data;
	struct ml_fit_data trial;
	void *copy;
	const char *const *given;
	size_t ngiven;
	const struct ml_fit_options *o;
	const char **freeset, **zeroed;
	size_t nf, nz;
	char reason[160];
};

/* Try adding the carriers grp[0..ng) to the free set: kept when the fit
 * stays determined.  Returns ML_OK (kept), ML_EUNIDENT (not kept) or
 * ML_ENOMEM. */
static enum ml_status try_group(struct autofit *af,
				const struct fit_carrier *const *grp,
				size_t ng)
{
	const char *tf[ML_FIT_MAXFREE], *tz[2 * ML_FIT_MAXFREE];
	struct ml_fit_result res;
	size_t ntf = af->nf, ntz = 0, g, j;
	enum ml_status st;

	if (af->nf + ng > ML_FIT_MAXFREE)
		return ML_EUNIDENT;
	memcpy(tf, af->freeset, af->nf * sizeof(*tf));
	for (g = 0; g < ng; g++)
		tf[ntf++] = grp[g]->name;
	/* partners so far, less the new carriers, plus their own */
	for (j = 0; j < af->nz; j++)
		if (!listed(tf, ntf, af->zeroed[j]))
			tz[ntz++] = af->zeroed[j];
	for (g = 0; g < ng; g++)
		for (j = 0; grp[g]->partners[j]; j++) {
			const char *q = grp[g]->partners[j];

			if (!listed(af->given, af->ngiven, q) &&
			    !listed(tf, ntf, q) && !listed(tz, ntz, q))
				tz[ntz++] = q;
		}
	memcpy(af->copy, af->data->points, af->data->n * af->m->size);
	zero_costs(af->m, af->copy, af->data->n, tz, ntz);
	st = ml_fit(af->m, &af->trial, tf, ntf, af->o, &res, NULL);
	if (st == ML_ENOMEM)
		return st;
	if (st == ML_ENOCONV) {
		/* a solver failure is no answer about the data: say so */
		snprintf(af->reason, sizeof(af->reason), "%s", res.reason);
		return st;
	}
	if (st != ML_OK)
		return ML_EUNIDENT; /* EUNIDENT, EINVAL: not these */
	ml_fit_result_free(&res);
	memcpy(af->freeset, tf, ntf * sizeof(*tf));
	memcpy(af->zeroed, tz, ntz * sizeof(*tz));
	af->nf = ntf;
	af->nz = ntz;
	return ML_OK;
}

enum ml_status ml_fit_auto(const struct ml_fit_model *m,
			   const struct ml_fit_data *data,
			   const char *const *given, size_t ngiven,
			   const struct ml_fit_options *o, const char **freeset,
			   size_t *nfree, const char **zeroed,
			   size_t *nzeroed, struct ml_diag *d)
{
	struct autofit af = {m,	  data,	 *data, NULL, given, ngiven,
			     o,	  freeset, zeroed, 0,	  0, ""};
	const struct fit_carrier *failed[ML_FIT_MAXFREE], *grp[ML_FIT_MAXFREE];
	size_t c, g, nfailed = 0, nleft;
	enum ml_status st = ML_OK;

	*nfree = *nzeroed = 0;
	if (!m || !data || !data->points || data->n == 0)
		return ml_diag_set(d, NULL, "no data points");
	af.copy = malloc(data->n * m->size);
	if (!af.copy)
		return ML_ENOMEM;
	af.trial.points = af.copy;
	/*
	 * Each carrier in turn; one the data do not determine alone waits
	 * in failed[] and is tried again together with each later one (the
	 * cluster model's O_s and O_r + U_r are determined only together,
	 * by the eq 2.9 regime at two depths), and alone once more at the
	 * end, beside all that was kept after it.
	 */
	for (c = 0; c < m->ncarriers && st != ML_ENOMEM && st != ML_ENOCONV;
	     c++) {
		const struct fit_carrier *cr = &m->carriers[c];

		if (listed(given, ngiven, cr->name))
			continue;
		st = try_group(&af, &cr, 1);
		if (st == ML_EUNIDENT && nfailed > 0) {
			for (g = 0; g < nfailed; g++)
				grp[g] = failed[g];
			grp[nfailed] = cr;
			st = try_group(&af, grp, nfailed + 1);
			if (st == ML_OK) {
				nfailed = 0;
				continue;
			}
		}
		if (st == ML_EUNIDENT && nfailed < ML_FIT_MAXFREE)
			failed[nfailed++] = cr;
	}
	for (g = 0, nleft = nfailed;
	     g < nleft && st != ML_ENOMEM && st != ML_ENOCONV; g++)
		st = try_group(&af, &failed[g], 1);
	if (st == ML_EUNIDENT)
		st = ML_OK;
	free(af.copy);
	if (st == ML_ENOCONV && d)
		snprintf(d->msg, sizeof(d->msg), "%s", af.reason);
	if (st != ML_OK)
		return st;
	zero_costs(m, (void *)data->points, data->n, zeroed, af.nz);
	*nfree = af.nf;
	*nzeroed = af.nz;
	return ML_OK;
}
