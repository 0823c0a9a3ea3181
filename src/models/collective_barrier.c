/*
 * collective_barrier.c - ml_collective_barrier_exits (mcastlat/
 * collective.h): each rank's exit time of one of Open MPI's barriers on
 * a machine, checked and run by the collective engine (the programs are
 * src/collective/barrier.c's, the run osu.c's).
 */
#include <string.h>

#include "collective/coll_int.h"

enum ml_status ml_collective_barrier_exits(const struct ml_collective_params *p,
					   enum ml_coll_barrier b, double *x)
{
	struct ml_collective_params q = *p;
	struct coll_ws *ws;
	enum ml_status st;

	q.algorithm = ML_COLL_BINOMIAL;
	q.library = ML_COLL_OPENMPI;
	q.barrier = ML_COLL_BARRIER_NONE;
	if (!x || (int)b < ML_COLL_BARRIER_LINEAR ||
	    b > ML_COLL_BARRIER_OMPI_TREE ||
	    (b == ML_COLL_BARRIER_TWO_PROC && p->ranks != 2) ||
	    ml_collective_validate(&q, NULL) != ML_OK)
		return ML_EINVAL;
	ws = ml_coll_ws_new();
	if (!ws)
		return ML_ENOMEM;
	st = ml_coll_barrier_exits_ws(ws, &q, b, x);
	ml_coll_ws_free(ws);
	return st;
}
