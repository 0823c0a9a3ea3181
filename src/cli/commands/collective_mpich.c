/*
 * collective_mpich.c - MPICH's JSON tuning file from `mcastlat collective
 * --library mpich --algorithm best --rules FILE` (SPEC 11).
 *
 * The file is an MPIR-level file (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_
 * FILE), which replaces MPICH's whole MPIR tree: its MPI_Bcast entry is
 * best's choice, and every other collective keeps MPICH 4.0.2's own
 * entry (collective_mpich_generic.c), since MPICH aborts on a file that
 * lacks a collective the program calls.  Bounds are written with "<="
 * only (csel reads "comm_size<N" as "<=" when it searches below a
 * message-size key, notes/mpich_bcast.md section 2).  As in Open MPI's
 * rules file, a communicator of P ranks takes the rules of the largest
 * swept size <= P (the smallest below it), and a message of M bytes the
 * pick at the largest swept size <= M:
 *
 *   "collective=bcast": { "comm_type=intra": {
 *       "comm_size<=P2-1": { "avg_msg_size<=M2-1": {alg(P1,M1)}, ...,
 *                            "avg_msg_size=any": {alg(P1,Mlast)} },
 *       ...
 *       "comm_size=any": { ... P last ... } },
 *     "comm_type=inter": { MPICH's own: remote_send_local_bcast } }
 *
 * smp runs only on a parent communicator (MPICH asserts it): where it is
 * best, its leaf is guarded by comm_hierarchy=parent, other communicators
 * (the node ones, under a ch4 composition) getting MPICH's own choice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands/collective_mpich.h"
#include "cli/engine/msg.h"
#include "cli/engine/parse.h"

static const char *mpir_name(enum ml_coll_alg a)
{
	switch (a) {
	case ML_COLL_MPICH_SCATTER_RD_ALLGATHER:
		return "MPIR_Bcast_intra_scatter_recursive_doubling_allgather";
	case ML_COLL_MPICH_SCATTER_RING_ALLGATHER:
		return "MPIR_Bcast_intra_scatter_ring_allgather";
	case ML_COLL_MPICH_SMP:
		return "MPIR_Bcast_intra_smp";
	default:
		return "MPIR_Bcast_intra_binomial";
	}
}

/* The leaf of one (P, M): the algorithm, smp only on a parent. */
static void leaf(FILE *f, long long P, long long M, enum ml_coll_alg a,
		 const char *ind)
{
	if (a != ML_COLL_MPICH_SMP) {
		fprintf(f, "{\"algorithm=%s\": {}}", mpir_name(a));
		return;
	}
	fprintf(f,
		"{\n%s  \"comm_hierarchy=parent\": {\"algorithm=%s\": {}},\n"
		"%s  \"comm_hierarchy=any\": {\"algorithm=%s\": {}}\n%s}",
		ind, mpir_name(a), ind,
		mpir_name(ml_collective_mpich_mpir(P, M, false)), ind);
}

int ml_collective_mpich_json(FILE *f, const long long *ps, size_t np,
			     const long long *ms, size_t nm,
			     const enum ml_coll_alg *alg)
{
	size_t i, j, k;
	const char *ind = "          ";

	fprintf(f,
		"{\n  \"collective=bcast\": {\n    \"comm_type=intra\": {\n");
	for (i = 0; i < np; i++) {
		if (i + 1 < np)
			fprintf(f, "      \"comm_size<=%lld\": {\n",
				ps[i + 1] - 1);
		else
			fprintf(f, "      \"comm_size=any\": {\n");
		for (j = 0; j < nm; j = k) {
			/* Merge the sizes that share this algorithm. */
			for (k = j + 1;
			     k < nm && alg[i * nm + k] == alg[i * nm + j]; k++)
				;
			if (k < nm)
				fprintf(f, "        \"avg_msg_size<=%lld\": ",
					ms[k] - 1);
			else
				fprintf(f, "        \"avg_msg_size=any\": ");
			leaf(f, ps[i], ms[j], alg[i * nm + j], ind);
			fprintf(f, "%s\n", k < nm ? "," : "");
		}
		fprintf(f, "      }%s\n", i + 1 < np ? "," : "");
	}
	fprintf(f, "    },\n    \"comm_type=inter\": {\n      "
		   "\"algorithm=MPIR_Bcast_inter_remote_send_local_bcast\": "
		   "{}\n    }\n  }");
	for (i = 0; ml_mpich_generic_other[i]; i++)
		fprintf(f, ",\n  %s", ml_mpich_generic_other[i]);
	fprintf(f, "\n}\n");
	return ferror(f) ? -1 : 0;
}

/* The pick, as the grid calls it (a function pointer cannot travel
 * in a void *). */
struct pick {
	ml_coll_pick_fn fn;
	const void *arg;
};

static enum ml_status pick_point(void *arg, const union ml_val *v, void *out,
				 struct ml_diag *d)
{
	const struct pick *pk = arg;

	return pk->fn(pk->arg, v, out, d);
}

/* What the file is written from. */
static int write_json(FILE *f, const void *arg)
{
	const struct ml_coll_picks *pk = arg;

	return ml_collective_mpich_json(f, pk->ps, pk->np, pk->ms, pk->nm,
					pk->out);
}

int ml_collective_mpich_rules(const struct ml_command *cmd, struct ml_ctx *ctx,
			      const struct ml_vlist *const *vl,
			      const union ml_val *base, size_t o_ranks,
			      size_t o_msg, size_t o_rules,
			      ml_coll_pick_fn pick, const void *pick_arg)
{
	struct pick pf = {pick, pick_arg};
	struct ml_coll_picks pk;
	int rc;

	/* Every pick first, on --jobs threads: a point that cannot be
	 * evaluated leaves no file behind. */
	rc = ml_coll_rules_picks(cmd, ctx, vl, base, o_ranks, o_msg,
				 pick_point, &pf, sizeof(enum ml_coll_alg),
				 &pk);
	if (rc == ML_EXIT_OK)
		rc = ml_coll_rules_write(cmd, ctx, base[o_rules].s, write_json,
					 &pk);
	ml_coll_picks_free(&pk);
	return rc;
}
