/*
 * fitapi.c - the small functions of mcastlat/fit.h around the fitting
 * core: the default options, the adapters by name (the table of
 * models), a params struct's costs by name, and a result's AIC and
 * release.  The fit itself is lsq.c's; --free auto is fit_auto.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit/fitint.h"

void ml_fit_options_init(struct ml_fit_options *o)
{
	*o = (struct ml_fit_options){
	    .relative = true,
	    .logscale = false,
	    .robust = false,
	    .level = 0.95,
	    .cond_max = 1e10,
	    .outlier = 3,
	    .threads = 1,
	};
}

static const struct ml_fit_model *const models[] = {
    &ml_fit_cluster, &ml_fit_collective, &ml_fit_hypercube,
    &ml_fit_kbinomial, &ml_fit_torus};

const struct ml_fit_model *ml_fit_model_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(models) / sizeof(models[0]); i++)
		if (strcmp(models[i]->name, name) == 0)
			return models[i];
	return NULL;
}

size_t ml_fit_params_size(const struct ml_fit_model *m)
{
	return m->size;
}

size_t ml_fit_param_names(const struct ml_fit_model *m, const char **names,
			  size_t max)
{
	size_t i;

	for (i = 0; i < m->nparams && i < max; i++)
		names[i] = m->params[i].name;
	return m->nparams;
}

long ml_fit_param_index(const struct ml_fit_model *m, const char *name)
{
	size_t i;

	for (i = 0; name && i < m->nparams; i++)
		if (strcmp(m->params[i].name, name) == 0)
			return (long)i;
	return -1;
}

enum ml_status ml_fit_get(const struct ml_fit_model *m, const void *params,
			  const char *name, double *value)
{
	long k = ml_fit_param_index(m, name);

	if (k < 0)
		return ML_EINVAL;
	*value = *fit_field(m, (void *)params, (size_t)k);
	return ML_OK;
}

enum ml_status ml_fit_set(const struct ml_fit_model *m, void *params,
			  const char *name, double value)
{
	long k = ml_fit_param_index(m, name);

	if (k < 0)
		return ML_EINVAL;
	*fit_field(m, params, (size_t)k) = value;
	return ML_OK;
}


void ml_fit_result_free(struct ml_fit_result *res)
{
	free(res->pred);
	free(res->resid);
	free(res->rel);
	free(res->stud);
	free(res->flag);
	res->pred = res->resid = res->rel = res->stud = NULL;
	res->flag = NULL;
}

double ml_fit_aic(const struct ml_fit_result *res)
{
	double n = (double)res->nfit;

	if (res->nfit == 0 || !(res->chi2 >= 0))
		return NAN;
	if (res->chi2 == 0)
		return -INFINITY;
	return n * log(res->chi2 / n) +
	       2.0 * ((double)res->nfit - res->dof + 1);
}
