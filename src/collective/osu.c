/*
 * osu.c - the barrier before each broadcast, as osu_bcast measures
 * it (SPEC 10.7, mcastlat-collective(1), "The benchmark's barrier").
 *
 * osu_bcast (and mcastlat-probe) time each broadcast on each rank from
 * its exit of the MPI_Barrier before it to its return from MPI_Bcast.
 * The ranks do not leave a barrier together: in Open MPI's tree barrier
 * (coll_base_barrier.c, ompi_coll_base_barrier_intra_tree, the fixed
 * decision's choice for 256 <= P < 512 and 1024 <= P < 4096) rank 0
 * leaves first and the release travels down a binomial tree, so a rank
 * deep in it starts its clock late, when the broadcast's data are
 * already on their way to it, and reports less than the broadcast
 * takes.  Modelled so: rank v's measured time is
 *
 *   m_v = max(c_v - (x_v - x_R), f_v)
 *
 * c_v its leaving time in the broadcast with every rank starting at 0
 * (the engine's; the broadcast starts when its root R leaves the barrier), x_v its exit time of the barrier with every rank
 * entering at 0 (the same engine, on the barrier's zero-byte messages),
 * and f_v the floor: its own sends' port time (overhead + b G_c each),
 * what it spends even when its data are there before it enters.  The
 * delay of a late rank is not passed on to its children (their c is
 * the engine's): first order in the skew.  latency, latency_avg and
 * latency_min are then the max, mean and min of m_v, as OSU's Max, Avg
 * and Min report them.
 *
 * The barriers are barrier.c's programs, run on the same engine and
 * machine; ml_collective_barrier_exits (models/collective_barrier.c) is
 * the public face of their exit times.
 */
#include <stdlib.h>
#include <string.h>

#include "collective/coll_int.h"

/* Keeps the engine off its fast paths, which leave no rank's time. */
static int every_message(void *arg, const struct ml_coll_msg *m)
{
	(void)arg;
	(void)m;
	return 0;
}

/* The barrier b's exit times of the P ranks of *p into x, in ws. */
enum ml_status ml_coll_barrier_exits_ws(struct coll_ws *ws,
					const struct ml_collective_params *p,
					enum ml_coll_barrier b, double *x)
{
	struct coll_alg a;
	struct ml_collective_params q;
	struct ml_collective_result r;
	enum ml_status st;

	if (b == ML_COLL_BARRIER_OMPI)
		b = ml_collective_barrier_decide(p->ranks);
	if (b == ML_COLL_BARRIER_OMPI_TREE) {
		q.ranks = p->ranks;
		q.barrier = ML_COLL_BARRIER_OMPI_TREE;
		b = ml_coll_barrier_of(&q);
	}
	if (b == ML_COLL_BARRIER_NONE) {
		memset(x, 0, (size_t)p->ranks * sizeof *x);
		return ML_OK;
	}
	memset(&a, 0, sizeof a);
	a.alg = (enum ml_coll_alg)(COLL_BARRIER_PROG + (int)b);
	a.library = ML_COLL_OPENMPI;
	a.ranks = p->ranks;
	a.msg = 0;
	a.nseg = 1;
	a.map_by = p->map_by;
	a.ppn = p->ppn;
	a.nodes = p->nodes;
	st = ml_coll_engine_run_ws(ws, p, &a, every_message, NULL, &r);
	if (st == ML_OK)
		memcpy(x, ml_coll_ws_times(ws), (size_t)p->ranks * sizeof *x);
	return st;
}

/* The broadcast's run, recording each sender's port time. */
struct osu_rec {
	const struct ml_collective_params *p;
	double *floor;
	ml_coll_msg_fn fn;
	void *arg;
};

static int record(void *arg, const struct ml_coll_msg *m)
{
	struct osu_rec *o = arg;

	o->floor[m->src] +=
	    o->p->overhead +
	    (double)m->bytes * ml_coll_gbyte(o->p, m->channel, m->bytes);
	return o->fn ? o->fn(o->arg, m) : 0;
}

enum ml_status ml_coll_osu_run(struct coll_ws *ws,
			       const struct ml_collective_params *p,
			       const struct coll_alg *a, ml_coll_msg_fn fn,
			       void *arg, struct ml_collective_result *r)
{
	long long P = p->ranks, v;
	double *c = malloc((size_t)P * sizeof *c),
	       *x = malloc((size_t)P * sizeof *x),
	       *f = calloc((size_t)P, sizeof *f);
	struct osu_rec o = {p, f, fn, arg};
	struct ml_collective_params q;
	struct ml_collective_result br;
	struct coll_times s;
	enum ml_status st = ML_ENOMEM;

	if (!c || !x || !f)
		goto out;
	st = ml_coll_engine_run_ws(ws, p, a, record, &o, &br);
	if (st != ML_OK)
		goto out;
	memcpy(c, ml_coll_ws_times(ws), (size_t)P * sizeof *c);
	/* The barrier's zero-byte messages take no NIC gap: the card
	 * sends such control messages side by side (measured: with the
	 * gap, the tree's skew at P = 256 by node is too large, rms ln
	 * error 2.56 against 1.07 without any barrier). */
	q = *p;
	q.nic_gap = 0;
	st = ml_coll_barrier_exits_ws(ws, &q, ml_coll_barrier_of(p), x);
	if (st != ML_OK)
		goto out;
	ml_coll_times_init(&s);
	for (v = 0; v < P; v++) {
		double m = c[v] - (x[v] - x[p->root]);

		ml_coll_times_add(&s, m > f[v] ? m : f[v]);
	}
	st = ml_coll_times_result(&s, a, br.messages, r);
out:
	free(c);
	free(x);
	free(f);
	return st;
}
