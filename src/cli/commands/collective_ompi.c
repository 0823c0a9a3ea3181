/*
 * collective_ompi.c - `mcastlat collective --algorithm best --rules FILE`
 * for Open MPI: its coll/tuned dynamic rules file for MPI_Bcast
 * (mcastlat-collective(1), RULES; algorithm 0 where the pick is Open
 * MPI's own decision; where the pick is coll/han, which reads no tuned
 * rule, 0 too, and a comment and a warning say what a han user sets).
 */
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
	const void *arg;
};

static enum ml_status pick_point(void *arg, const union ml_val *v, void *out,
				 struct ml_diag *d)
{
	const struct picker *pk = arg;
	struct pick *x = out;

	return pk->fn(pk->arg, v, &x->alg, &x->fanout, &x->segment, d);
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

/* What the file is written from. */
struct ompi_file {
	const struct ml_coll_picks *pk;
	bool fitted, v50;
	size_t han; /* points whose pick is han */
};

/* What a han user must set (mcastlat-collective(1), han). */
#define HAN_HOW                                                                \
	"coll/han is not a tuned algorithm: run it with --mca "              \
	"coll_han_priority 100 in 4.1 (5.0 runs it by default on several "  \
	"nodes with equal ranks a node); its segment is "                    \
	"coll_han_bcast_segsize"


static int write_rules(FILE *f, const void *arg)
{
	const struct ompi_file *of = arg;
	const struct ml_coll_picks *pk = of->pk;
	const struct pick *picks = pk->out;
	struct rule *rs = malloc((pk->nm + 1) * sizeof *rs);
	size_t i, j;
	int k;

	if (!rs)
		return -1;
	fprintf(f, "# Open MPI coll/tuned dynamic rules for MPI_Bcast, "
		   "written by mcastlat collective --algorithm best.\n"
		   "# Format of 4.1.0-4.1.7 and 5.0.0-5.0.6 (read by later "
		   "releases too); see mcastlat-collective(1).\n"
		   "# Use: mpirun --mca coll_tuned_use_dynamic_rules 1 "
		   "--mca coll_tuned_dynamic_rules_filename FILE\n"
		   "# Algorithm 0: Open MPI's own fixed decision.\n");
	if (!of->fitted)
		fprintf(f, "# Not fitted: the default machine of mcastlat "
			   "collective(1), not yours.\n");
	if (of->han)
		fprintf(f, "# han is the pick at %zu points, written 0 here: "
			   "%s.\n", of->han, HAN_HOW);
	if (of->v50)
		fprintf(f, "# Open MPI 5.0: where coll/han takes MPI_Bcast "
			   "(several nodes, equal ranks a node) tuned reads "
			   "these rules only inside it; for them to run on "
			   "the whole communicator set --mca "
			   "coll_han_priority 0.\n");
	fprintf(f,
		"1 # collectives\n7 # MPI_Bcast\n%zu # communicator "
		"sizes\n",
		pk->np);
	for (i = 0; i < pk->np; i++) {
		k = rules_for(pk->ms, pk->nm, picks + i * pk->nm, rs);
		fprintf(f, "%lld # ranks\n%d # message sizes\n", pk->ps[i],
			k);
		for (j = 0; j < (size_t)k; j++)
			fprintf(f, "%lld %lld %lld %lld # %s\n", rs[j].msg,
				rs[j].alg == ML_COLL_HAN ? 0 : rs[j].alg,
				rs[j].topo, rs[j].seg,
				rs[j].alg == ML_COLL_HAN
				    ? "han: tuned's fixed decision, han run "
				      "by --mca coll_han_priority 100"
				: rs[j].alg == ML_COLL_DEFAULT
				    ? "ompi: Open MPI's fixed decision"
				    : ml_collective_alg_name(
					  (enum ml_coll_alg)rs[j].alg));
	}
	free(rs);
	return ferror(f) ? -1 : 0;
}

int ml_collective_ompi_rules(const struct ml_command *cmd, struct ml_ctx *ctx,
			     const struct ml_vlist *const *vl,
			     const union ml_val *base, size_t o_ranks,
			     size_t o_msg, size_t o_rules, bool fitted,
			     bool v50, ml_coll_rule_fn pick, const void *pick_arg)
{
	struct picker pf = {pick, pick_arg};
	struct ml_coll_picks pk;
	struct ompi_file of = {&pk, fitted, v50, 0};
	const struct pick *x;
	size_t i;
	int rc;

	/* Every pick first, on --jobs threads: a point that cannot be
	 * evaluated leaves no file behind. */
	rc = ml_coll_rules_picks(cmd, ctx, vl, base, o_ranks, o_msg,
				 pick_point, &pf, sizeof(struct pick), &pk);
	if (rc == ML_EXIT_OK) {
		x = pk.out;
		for (i = 0; i < pk.np * pk.nm; i++)
			of.han += x[i].alg == ML_COLL_HAN;
		rc = ml_coll_rules_write(cmd, ctx, base[o_rules].s,
					 write_rules, &of);
	}
	if (rc == ML_EXIT_OK && of.han)
		ml_warn(ctx, "collective: --rules: han is the pick at %zu "
			     "points, written as tuned's fixed decision: %s",
			of.han, HAN_HOW);
	ml_coll_picks_free(&pk);
	return rc;
}
