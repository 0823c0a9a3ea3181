/*
 * collective_ompi.c - `mcastlat collective --algorithm best --rules FILE`
 * for Open MPI: its coll/tuned dynamic rules file for MPI_Bcast
 * (mcastlat-collective(1), RULES; algorithm 0 where the pick is Open
 * MPI's own decision).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands/collective_mpich.h"
#include "cli/commands/collective_parts.h"
#include "cli/engine/msg.h"
#include "cli/engine/parse.h"

/* One message-size rule: "msgsize alg topo segsize". */
struct rule {
	long long msg, alg, topo, seg;
};

/* best's pick at one point of the grid. */
struct pick {
	long long alg, fanout, segment;
};

/* The pick function, as the grid calls it (a function pointer cannot
 * travel in a void *). */
struct picker {
	ml_coll_rule_fn fn;
};

static enum ml_status pick_point(void *arg, const union ml_val *v, void *out,
				 struct ml_diag *d)
{
	const struct picker *pk = arg;
	struct pick *x = out;

	return pk->fn(v, &x->alg, &x->fanout, &x->segment, d);
}

/* The rules of one communicator size from its picks pk[0..nm-1],
 * consecutive repeats merged. */
static int rules_for(const long long *msgs, size_t nm, const struct pick *pk,
		     struct rule *out)
{
	size_t i, k = 0;
	struct rule x;

	for (i = 0; i < nm; i++) {
		x.alg = pk[i].alg;
		x.msg = k == 0 ? 0 : msgs[i];
		/* Algorithm 0: Open MPI's own fixed decision (its
		 * coll_tuned_decision_dynamic.c falls through to it). */
		x.topo = x.alg == ML_COLL_CHAIN ? pk[i].fanout : 0;
		x.seg = (x.alg == ML_COLL_DEFAULT || x.alg == ML_COLL_LINEAR ||
			 x.alg >= ML_COLL_SCATTER_ALLGATHER)
			    ? 0
			    : pk[i].segment;
		if (k > 0 && out[k - 1].alg == x.alg &&
		    out[k - 1].topo == x.topo && out[k - 1].seg == x.seg)
			continue;
		out[k++] = x;
	}
	return (int)k;
}

int ml_collective_ompi_rules(const struct ml_command *cmd, struct ml_ctx *ctx,
			     const struct ml_vlist *const *vl,
			     const union ml_val *base, size_t o_ranks,
			     size_t o_msg, size_t o_rules, bool fitted,
			     ml_coll_rule_fn pick)
{
	size_t np = 0, nm = 0, i, j, n = cmd->nopts;
	long long *ps = ml_coll_sorted_values(vl[o_ranks], &np);
	long long *ms = ml_coll_sorted_values(vl[o_msg], &nm);
	struct rule *rs = malloc((nm + 1) * sizeof *rs);
	struct pick *pk = NULL;
	struct picker pf = {pick};
	struct ml_coll_grid g;
	struct ml_diag d = {NULL, ""};
	enum ml_status st;
	const char *path = base[o_rules].s;
	char *tmp = malloc(strlen(path) + 16);
	FILE *f = NULL;
	int rc = ML_EXIT_OK, k;

	if (ps && ms && np > 0 && nm > 0 &&
	    np <= ((size_t)-1) / sizeof *pk / nm)
		pk = malloc(np * nm * sizeof *pk);
	if (!ps || !ms || !rs || !pk || !tmp) {
		rc = ml_usage_err(ctx, cmd->name, NULL, "out of memory");
		goto out;
	}
	rc = ml_coll_rules_sweeps_ok(cmd, ctx, vl, o_ranks, o_msg);
	if (rc)
		goto out;
	sprintf(tmp, "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		rc = ml_usage_err(ctx, cmd->name, "rules", strerror(errno));
		goto out;
	}
	/* Every pick first, on --jobs threads. */
	g = (struct ml_coll_grid){base, n,  o_ranks,    o_msg, ps, ms,
				 np,   nm, pick_point, &pf, pk, sizeof *pk};
	st = ml_coll_grid_run(&g, ctx->jobs, &d);
	if (st != ML_OK) {
		rc = ml_usage_err(ctx, cmd->name,
				  st == ML_ENOMEM ? NULL
				  : d.param	  ? d.param
						  : "ranks",
				  st == ML_ENOMEM ? "out of memory" : d.msg);
		goto out;
	}
	fprintf(f, "# Open MPI coll/tuned dynamic rules for MPI_Bcast, "
		   "written by mcastlat collective --algorithm best.\n"
		   "# Format of 4.1.0-4.1.7 and 5.0.0-5.0.6 (read by later "
		   "releases too); see mcastlat-collective(1).\n"
		   "# Use: mpirun --mca coll_tuned_use_dynamic_rules 1 "
		   "--mca coll_tuned_dynamic_rules_filename FILE\n"
		   "# Algorithm 0: Open MPI's own fixed decision.\n");
	if (!fitted)
		fprintf(f, "# Not fitted: the default machine of mcastlat "
			   "collective(1), not yours.\n");
	fprintf(f,
		"1 # collectives\n7 # MPI_Bcast\n%zu # communicator "
		"sizes\n",
		np);
	for (i = 0; i < np; i++) {
		k = rules_for(ms, nm, pk + i * nm, rs);
		fprintf(f, "%lld # ranks\n%d # message sizes\n", ps[i], k);
		for (j = 0; j < (size_t)k; j++)
			fprintf(f, "%lld %lld %lld %lld # %s\n", rs[j].msg,
				rs[j].alg, rs[j].topo, rs[j].seg,
				rs[j].alg == ML_COLL_DEFAULT
				    ? "ompi: Open MPI's fixed decision"
				    : ml_collective_alg_name(
					  (enum ml_coll_alg)rs[j].alg));
	}
	if (fclose(f) != 0) {
		f = NULL;
		rc = ml_usage_err(ctx, cmd->name, "rules", "write failed");
		goto out;
	}
	f = NULL;
	if (rename(tmp, path) != 0)
		rc = ml_usage_err(ctx, cmd->name, "rules", strerror(errno));
out:
	if (f) {
		fclose(f);
		remove(tmp);
	} else if (rc != ML_EXIT_OK && tmp) {
		remove(tmp);
	}
	free(ps);
	free(ms);
	free(rs);
	free(pk);
	free(tmp);
	return rc;
}
