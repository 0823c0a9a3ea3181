/*
 * mpich_decide.c - MPICH 4.0.2's default choice of a broadcast (SPEC 11;
 * notes/mpich_bcast.md section 2), at its two levels:
 *
 *   ch4 (maint/tuning/coll/ch4/generic.json, searched in MPID_Bcast):
 *     parent communicator, P < 8                 alpha
 *     parent, P a power of two:  n < 12288       alpha
 *                                n < 524288      beta
 *                                otherwise       gamma
 *     parent, other P:           n < 12288       alpha
 *                                otherwise       gamma
 *     any other communicator                     gamma
 *
 *   MPIR (maint/tuning/coll/mpir/generic.json, MPIR_Bcast_allcomm_auto):
 *     n <= 0 on a parent communicator            smp
 *     P < 8                                      binomial
 *     P a power of two:          n <= 12288      binomial
 *                                n <= 524288
 * scatter_recursive_doubling_allgather otherwise       scatter_ring_allgather
 *     other P:                   n <= 12288      binomial
 *                                otherwise       scatter_ring_allgather
 *
 * n is the whole message in bytes (csel's avg_msg_size for a broadcast
 * is type size times count, not divided by P).  The bounds are strict at
 * the ch4 level and inclusive at the MPIR level, as the two files write
 * them; "comm_size<8" is resolved when a communicator is created
 * (prune_tree), which reads it as strict.  A parent communicator is one
 * that got node and node-roots communicators: some node holds two of its
 * ranks (MPIR_Comm_create_subcomms).
 */
#include "collective/coll_int.h"

static int is_pow2(long long x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

enum ml_coll_composition
ml_collective_mpich_composition(long long ranks, long long msg, bool parent)
{
	if (!parent)
		return ML_COLL_COMP_GAMMA;
	if (ranks < 8)
		return ML_COLL_COMP_ALPHA;
	if (msg < 12288)
		return ML_COLL_COMP_ALPHA;
	if (is_pow2(ranks) && msg < 524288)
		return ML_COLL_COMP_BETA;
	return ML_COLL_COMP_GAMMA;
}

enum ml_coll_alg ml_collective_mpich_mpir(long long ranks, long long msg,
					  bool parent)
{
	if (parent && msg <= 0)
		return ML_COLL_MPICH_SMP;
	if (ranks < 8 || msg <= 12288)
		return ML_COLL_MPICH_BINOMIAL;
	if (is_pow2(ranks) && msg <= 524288)
		return ML_COLL_MPICH_SCATTER_RD_ALLGATHER;
	return ML_COLL_MPICH_SCATTER_RING_ALLGATHER;
}

const char *ml_collective_composition_name(enum ml_coll_composition c)
{
	switch (c) {
	case ML_COLL_COMP_ALPHA:
		return "alpha";
	case ML_COLL_COMP_BETA:
		return "beta";
	case ML_COLL_COMP_GAMMA:
		return "gamma";
	default:
		return "-";
	}
}
