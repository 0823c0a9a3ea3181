/*
 * collective_errmodel.c - the error model of `mcastlat fit collective`
 * (SPEC 10.5): the fit's hook that measures it (ml_fit_collective_
 * errmodel, forward validation) and hands it to --emit as the err-
 * options of mcastlat-collective(1), with its # error model line.
 */
#include <stdio.h>

#include "cli/commands/collective_parts.h"
#include "mcastlat/collective.h"
#include "mcastlat/fit.h"

/* The fitted machine's error model by forward validation (SPEC 10.5). */
int ml_collective_fit_errmodel(const struct ml_fit_data *data,
			const char *const *freeset, size_t nfree,
			const struct ml_fit_options *o,
			const struct ml_fit_result *res,
			struct ml_fit_errout *out)
{
	static const char *const names[] = {
	    "err-ranks",	"err-sd-small",	     "err-sd-medium",
	    "err-sd-large",	"err-growth-small",  "err-growth-medium",
	    "err-growth-large", "err-diff",	     "err-diff-growth",
	    "err-diff-linear", "err-diff-chain", "err-diff-pipeline",
	    "err-diff-split-binary", "err-diff-binary", "err-diff-binomial",
	    "err-diff-knomial", "err-diff-scatter-allgather",
	    "err-diff-scatter-allgather-ring"};
	struct ml_coll_errmodel em;
	struct ml_coll_errfit info;
	struct ml_diag d = {NULL, ""};
	enum ml_status st;
	size_t j, n;

	st = ml_fit_collective_errmodel(data, freeset, nfree, o, res, &em,
					&info, &d);
	if (st == ML_ENOMEM)
		return -1;
	out->fwd_rms = info.fwd_rms;
	out->nset = sizeof names / sizeof names[0];
	for (j = 0; j < out->nset; j++)
		out->names[j] = names[j];
	out->vals[0] = (double)em.fit_ranks;
	for (j = 0; j < ML_COLL_NCLASS; j++) {
		out->vals[1 + j] = em.sd[j];
		out->vals[4 + j] = em.growth[j];
	}
	out->vals[7] = em.diff_sd;
	out->vals[8] = em.diff_growth;
	for (j = 1; j <= ML_COLL_NALG; j++)
		out->vals[8 + j] = em.diff_alg[j];
	if (st != ML_OK) {
		snprintf(out->note, sizeof out->note,
			 "# error model: none (%s)\n", d.msg);
		return 0;
	}
	n = (size_t)snprintf(out->note, sizeof out->note,
			     "# error model: forward validation, fitted P <= "
			     "%lld;",
			     em.fit_ranks);
	for (j = 0; j < info.ncuts && n < sizeof out->note; j++)
		n += (size_t)snprintf(out->note + n, sizeof out->note - n,
				      " fit P <= %lld judged %zu%s%s", info.cut[j],
				      info.judged[j],
				      info.status[j] == ML_OK ? "" : " (failed)",
				      j + 1 < info.ncuts ? "," : ";");
	if (n < sizeof out->note && info.ncuts == 0)
		n += (size_t)snprintf(out->note + n, sizeof out->note - n,
				      " no cut (fewer than 3 P): growth "
				      "taken equal to sd;");
	if (n < sizeof out->note)
		n += (size_t)snprintf(
		    out->note + n, sizeof out->note - n,
		    " forward rms of ln(measured/predicted) %.3g over %zu "
		    "points; sd %.3g %.3g %.3g, growth per doubling %.3g %.3g "
		    "%.3g (M <= 4 KiB, <= 64 KiB, larger); an algorithm "
		    "against the default %.3g (pooled; each one's own on "
		    "err-diff-ALG), growth %.3g, over %zu pairs\n",
		    info.fwd_rms, info.nfwd, em.sd[0], em.sd[1], em.sd[2],
		    em.growth[0], em.growth[1], em.growth[2], em.diff_sd,
		    em.diff_growth, info.npairs);
	return 0;
}

