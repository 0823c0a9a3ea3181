/*
 * collective_plan.c - `mcastlat collective --plan` (SPEC 10.7,
 * mcastlat-collective(1), PLAN): the options -> ml_collective_plan ->
 * one CSV row per broadcast to measure, with the header
 * algorithm,ranks,map_by,msg,ppn,sockets,nodes (fit's column names, so
 * a plan joins the measurements; mcastlat-probe --plan reads it).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands/collective_opts.h"
#include "cli/commands/collective_parts.h"
#include "cli/engine/msg.h"
#include "cli/engine/parse.h"
#include "mcastlat/tune.h"

static const char *const map_word[] = {"core", "socket", "node"};

/* The values of a list option as integers into a new array (*n). */
static long long *list_of(const struct ml_vlist *vl, size_t *n)
{
	long long *v = malloc((size_t)vl->count * sizeof *v);
	unsigned long long i;

	if (!v)
		return NULL;
	for (i = 0; i < vl->count; i++)
		v[i] = ml_vlist_at(vl, i).i;
	*n = (size_t)vl->count;
	return v;
}

int ml_collective_one_allocation(const struct ml_command *cmd,
				 struct ml_ctx *ctx,
				 const struct ml_vlist *const *vl,
				 const int *opts, size_t n, const char *flag)
{
	char msg[96];
	size_t k;

	for (k = 0; k < n; k++)
		if (vl[opts[k]]->count > 1) {
			snprintf(msg, sizeof msg,
				 "--%s takes one value (the allocation's)",
				 flag);
			return ml_usage_err(ctx, cmd->name,
					    ml_collective_opts[opts[k]].name,
					    msg);
		}
	return 0;
}

int ml_collective_print_plan(const struct ml_command *cmd, struct ml_ctx *ctx,
			     const struct ml_vlist *const *vl,
			     const union ml_val *base, unsigned among,
			     const struct ml_coll_adapt_params *ap)
{
	static const int single[] = {O_PPN, O_SOCKETS, O_NODES, O_EAGER,
				     O_BUDGET};
	struct ml_coll_plan_params pp;
	struct ml_coll_plan pl;
	struct ml_diag d = {NULL, ""};
	long long *ranks = NULL, *msgs = NULL;
	unsigned long long i;
	size_t k;
	enum ml_status st;
	int rc = ML_EXIT_OK;

	if ((rc = ml_collective_one_allocation(cmd, ctx, vl, single,
					       sizeof single / sizeof *single,
					       "plan")))
		return rc;
	if (base[O_NODES].i == ML_AUTO_INT)
		return ml_usage_err(ctx, cmd->name, "plan",
				    "needs the allocation: --ppn, --sockets "
				    "and --nodes");
	if (base[O_LIBRARY].i != 0)
		return ml_usage_err(ctx, cmd->name, "plan",
				    "plans Open MPI's broadcasts only (the "
				    "probe forces Open MPI's algorithms)");
	if (base[O_OP].i != 0)
		return ml_usage_err(ctx, cmd->name, "plan", "needs --op bcast");
	ml_collective_plan_init(&pp);
	pp.ppn = base[O_PPN].i;
	pp.sockets = base[O_SOCKETS].i;
	pp.nodes = base[O_NODES].i;
	pp.eager = base[O_EAGER].i;
	pp.budget = base[O_BUDGET].i;
	pp.among = among & ((1u << (ML_COLL_NALG + 1)) - 1);
	pp.maps = 0;
	for (i = 0; i < vl[O_MAP_BY]->count; i++)
		pp.maps |= 1u << ml_vlist_at(vl[O_MAP_BY], i).i;
	/* A list of --ranks or --msg: the plan chooses among its values;
	 * one --ranks above 2: the largest P; one --msg above 1: the
	 * largest size. */
	if (vl[O_RANKS]->count > 1 &&
	    !(ranks = list_of(vl[O_RANKS], &pp.nranks)))
		goto nomem;
	pp.ranks = ranks;
	if (!ranks && base[O_RANKS].i > 2)
		pp.ranks_max = base[O_RANKS].i;
	if (vl[O_MSG]->count > 1 && !(msgs = list_of(vl[O_MSG], &pp.nmsgs)))
		goto nomem;
	pp.msgs = msgs;
	if (!msgs && base[O_MSG].i > 1)
		pp.msg_max = base[O_MSG].i;
	if (ap && ap->meas && ap->meas->ncell) {
		struct ml_coll_adapt_params a = *ap;

		a.plan = pp;
		st = ml_collective_plan_adaptive(&a, &pl, &d);
	} else {
		st = ml_collective_plan(&pp, &pl, &d);
	}
	if (st == ML_ENOMEM)
		goto nomem;
	if (st != ML_OK) {
		rc = ml_usage_err(ctx, cmd->name, d.param ? d.param : "plan",
				  d.msg);
		goto out;
	}
	fputs("algorithm,ranks,map_by,msg,ppn,sockets,nodes\n", ctx->out);
	for (k = 0; k < pl.n; k++) {
		const struct ml_coll_plan_row *r = &pl.rows[k];

		fprintf(ctx->out, "%s,%lld,%s,%lld,%lld,%lld,%lld\n",
			r->alg == ML_COLL_DEFAULT
			    ? "ompi"
			    : ml_collective_alg_name(r->alg),
			r->ranks, map_word[r->map_by], r->msg, pp.ppn,
			pp.sockets, pp.nodes);
	}
	ml_collective_plan_free(&pl);
	if (fflush(ctx->out) != 0 || ferror(ctx->out)) {
		ml_err(ctx, "collective: --plan: write failed");
		rc = ML_EXIT_ROWS;
	}
	goto out;
nomem:
	ml_err(ctx, "collective: --plan: out of memory");
	rc = ML_EXIT_ROWS;
out:
	free(ranks);
	free(msgs);
	return rc;
}
