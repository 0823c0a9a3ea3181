/*
 * collective_errmodel.c - the error model of `mcastlat fit collective`
 * (SPEC 10.5): the fit's hook that measures it (ml_fit_collective_
 * errmodel, forward validation) and hands it to --emit as the err-
 * options of mcastlat-collective(1), with its # error model line.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands/collective_parts.h"
#include "mcastlat/collective.h"
#include "mcastlat/fit.h"

/*
 * The channels the fitted broadcasts span (*seen), and those the data
 * show the machine has (*exist: a ping-pong's channel, or one that any
 * broadcast, held out or not, spans).  Each placement is looked at
 * once (the distinct ones, fitted and held out apart, are few: a list).
 */
static void fitted_spans(const struct ml_fit_data *data, unsigned *seen,
			 unsigned *exist)
{
	const struct ml_collective_point *pt = data->points;
	size_t i, j, nd = 0, cap = 0, *d = NULL, *nw;
	unsigned m;

	*seen = *exist = 0;
	for (i = 0; i < data->n; i++) {
		const struct ml_collective_params *p = &pt[i].p;
		bool fitted = !data->use || data->use[i];

		if (pt[i].p2p) {
			*exist |= 1u << pt[i].channel;
			continue;
		}
		for (j = 0; j < nd; j++)
			if (ml_collective_place_cmp(&pt[d[j]].p, p) == 0 &&
			    (!data->use || data->use[d[j]] == fitted))
				break;
		if (j < nd)
			continue;
		if (nd == cap) {
			cap = cap ? 2 * cap : 64;
			nw = realloc(d, cap * sizeof *d);
			if (!nw) { /* out of memory: no note */
				*seen = *exist = 0;
				break;
			}
			d = nw;
		}
		d[nd++] = i;
		if (ml_collective_spans(p, &m) != ML_OK)
			m = 0; /* no placement: nothing seen */
		*exist |= m;
		if (fitted)
			*seen |= m;
	}
	free(d);
}

/* Append to note (n used) a # line naming the channels of the fitted
 * machines that no fitted broadcast spans, if any. */
static void unseen_note(const struct ml_fit_data *data, char *note,
			size_t n)
{
	static const char *const what[] = {"one socket (socket)",
					   "two sockets of a node (node)",
					   "two nodes (net)"};
	unsigned seen, exist, c, k = 0;
	size_t cap = sizeof(((struct ml_fit_errout *)0)->note);

	fitted_spans(data, &seen, &exist);
	if (!(exist & ~seen) || n >= cap)
		return;
	n += (size_t)snprintf(note + n, cap - n,
			      "# error model: no fitted broadcast has ranks "
			      "on");
	for (c = 0; c < ML_COLL_NCHANNEL && n < cap; c++)
		if (exist & ~seen & 1u << c)
			n += (size_t)snprintf(note + n, cap - n, "%s %s",
					      k++ ? " or" : "", what[c]);
	if (n < cap)
		snprintf(note + n, cap - n,
			 ": where a prediction's ranks are, its interval is "
			 "measured without %s (mcastlat-collective(1), "
			 "DISCUSSION)\n",
			 k > 1 ? "those channels" : "that channel");
}

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
	    "err-diff-scatter-allgather-ring", "err-socket-ranks"};
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
	out->nfwdfits = info.nforward;
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
	out->vals[9 + ML_COLL_NALG] = (double)em.fit_socket_ranks;
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
	else if (n < sizeof out->note && out->nfwdfits < 2)
		n += (size_t)snprintf(out->note + n, sizeof out->note - n,
				      " one forward fit: growth at least the "
				      "sd, and no mechanism dropped;");
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
	unseen_note(data, out->note, n);
	return 0;
}

