/*
 * fit_models.c - the fitting adapters of the models that are affine in
 * their costs: kbinomial, torus and hypercube.  The core finds each
 * point's row by probing the model itself (lsq.c, make_pieces), so
 * these only name the costs and the --free auto carriers.
 *
 *   kbinomial  latency = (ts + tr) + steps(n, m, k) (tns + tprop + tnr):
 *              the step count does not depend on the costs, so two
 *              quantities, carried by ts (tr set to 0) and tns (tnr,
 *              tprop set to 0), determined by two distinct step counts.
 *   torus      t = (2 + 2h) o + h t_process (eq 7 with L_i = t_p + 2o;
 *              separate addressing: (G-1)(2o + t_p)); one algorithm at
 *              a time, since t_process is the algorithm's.
 *   hypercube  latency = n ((S_b + W_s) Vbar + Delta) (eq 1): linear in
 *              Delta, which enters nothing else.
 */
#include <stddef.h>

#include "fit/fitint.h"
#include "mcastlat/hypercube.h"
#include "mcastlat/kbinomial.h"
#include "mcastlat/torus.h"

/* kbinomial */

static const struct fit_param kbin_params[] = {
    {"ts", offsetof(struct ml_kbinomial_params, ts)},
    {"tr", offsetof(struct ml_kbinomial_params, tr)},
    {"tns", offsetof(struct ml_kbinomial_params, tns)},
    {"tnr", offsetof(struct ml_kbinomial_params, tnr)},
    {"tprop", offsetof(struct ml_kbinomial_params, tprop)},
};

static const struct fit_carrier kbin_carriers[] = {
    {"ts", {"tr", NULL}},
    {"tns", {"tnr", "tprop", NULL}},
};

static enum ml_status kbin_validate(const void *p, struct ml_diag *d)
{
	return ml_kbinomial_validate(p, d);
}

static enum ml_status kbin_eval(const void *p, double *y)
{
	struct ml_kbinomial_result r;
	enum ml_status st = ml_kbinomial_eval(p, &r);

	if (st == ML_OK)
		*y = r.latency;
	return st;
}

const struct ml_fit_model ml_fit_kbinomial = {
    .name = "kbinomial",
    .size = sizeof(struct ml_kbinomial_params),
    .params = kbin_params,
    .nparams = sizeof(kbin_params) / sizeof(kbin_params[0]),
    .carriers = kbin_carriers,
    .ncarriers = sizeof(kbin_carriers) / sizeof(kbin_carriers[0]),
    .validate = kbin_validate,
    .eval = kbin_eval,
};

/* torus */

static const struct fit_param torus_params[] = {
    {"tprocess", offsetof(struct ml_torus_params, tprocess)},
    {"o", offsetof(struct ml_torus_params, o)},
};

static const struct fit_carrier torus_carriers[] = {
    {"tprocess", {NULL}},
    {"o", {NULL}},
};

static enum ml_status torus_validate(const void *p, struct ml_diag *d)
{
	return ml_torus_validate(p, d);
}

static enum ml_status torus_eval(const void *p, double *y)
{
	struct ml_torus_result r;
	enum ml_status st = ml_torus_eval(p, &r);

	if (st == ML_OK)
		*y = r.latency;
	return st;
}

static enum ml_status torus_check(const void *pv, size_t n, struct ml_diag *d)
{
	const struct ml_torus_params *pts = pv;
	size_t i;

	for (i = 1; i < n; i++)
		if (pts[i].alg != pts[0].alg)
			return ml_diag_set(d, "algorithm",
					   "the data have more than one "
					   "algorithm: fit one at a time "
					   "(t_process is the algorithm's)");
	return ML_OK;
}

const struct ml_fit_model ml_fit_torus = {
    .name = "torus",
    .size = sizeof(struct ml_torus_params),
    .params = torus_params,
    .nparams = sizeof(torus_params) / sizeof(torus_params[0]),
    .carriers = torus_carriers,
    .ncarriers = sizeof(torus_carriers) / sizeof(torus_carriers[0]),
    .validate = torus_validate,
    .eval = torus_eval,
    .check_data = torus_check,
};

/* hypercube */

static const struct fit_param hcube_params[] = {
    {"delta", offsetof(struct ml_hypercube_params, delta)},
};

static const struct fit_carrier hcube_carriers[] = {
    {"delta", {NULL}},
};

static enum ml_status hcube_validate(const void *p, struct ml_diag *d)
{
	return ml_hypercube_validate(p, d);
}

static enum ml_status hcube_eval(const void *p, double *y)
{
	struct ml_hypercube_result r;
	enum ml_status st = ml_hypercube_eval(p, &r);

	if (st == ML_OK)
		*y = r.latency;
	return st;
}

const struct ml_fit_model ml_fit_hypercube = {
    .name = "hypercube",
    .size = sizeof(struct ml_hypercube_params),
    .params = hcube_params,
    .nparams = sizeof(hcube_params) / sizeof(hcube_params[0]),
    .carriers = hcube_carriers,
    .ncarriers = sizeof(hcube_carriers) / sizeof(hcube_carriers[0]),
    .validate = hcube_validate,
    .eval = hcube_eval,
};
