/*
 * dispatch.c - which programs an evaluation runs: Open MPI's tuned
 * algorithms (programs.c), its coll/han (han.c, which runs tuned's on
 * its sub-communicators), its barriers (barrier.c, for osu.c) or MPICH's
 * (mpich_programs.c).  The model's
 * interface and the engine call these three; each hands its library's
 * setup, message bound and next operation to that library's file.
 */
#include "collective/coll_int.h"

enum ml_status ml_coll_alg_setup(const struct ml_collective_params *p,
				 struct coll_alg *a)
{
	if (p->library == ML_COLL_MPICH)
		return ml_coll_mpich_setup(p, a);
	if (p->algorithm == ML_COLL_HAN)
		return ml_coll_han_setup(p, a);
	return ml_coll_tuned_setup(p, a);
}

long long ml_coll_alg_messages_bound(const struct coll_alg *a)
{
	if (a->library == ML_COLL_MPICH)
		return ml_coll_mpich_messages_bound(a);
	if (a->alg == ML_COLL_HAN)
		return ml_coll_han_messages_bound(a);
	return ml_coll_tuned_messages_bound(a);
}

void ml_coll_prog_next(const struct coll_alg *a, long long v,
		       struct coll_prog *s, struct coll_op *op)
{
	if (a->library == ML_COLL_MPICH)
		ml_coll_mpich_next(a, v, s, op);
	else if (a->alg >= COLL_BARRIER_PROG) /* osu.c's barriers */
		ml_coll_barrier_next(a, v, s, op);
	else if (a->alg == ML_COLL_HAN)
		ml_coll_han_next(a, v, s, op);
	else
		ml_coll_tuned_next(a, v, s, op);
}
