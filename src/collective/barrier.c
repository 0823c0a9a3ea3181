/*
 * barrier.c - the barrier before each broadcast, as osu_bcast measures
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
 *   m_v = max(c_v - (x_v - x_0), f_v)
 *
 * c_v its leaving time in the broadcast with every rank starting at 0
 * (the engine's), x_v its exit time of the barrier with every rank
 * entering at 0 (the same engine, on the barrier's zero-byte messages),
 * and f_v the floor: its own sends' port time (overhead + b G_c each),
 * what it spends even when its data are there before it enters.  The
 * delay of a late rank is not passed on to its children (their c is
 * the engine's): first order in the skew.  latency, latency_avg and
 * latency_min are then the max, mean and min of m_v, as OSU's Max, Avg
 * and Min report them.
 *
 * The barriers are Open MPI 4.1's (coll_base_barrier.c, the same in
 * 5.0): linear, double ring, recursive doubling, Bruck, two processes,
 * tree, each as programs of the engine (zero-byte messages; a
 * synchronous send is taken as a standard one; the linear root's
 * receives from any source are taken in rank order).
 */
#include <stdlib.h>
#include <string.h>

#include "collective/coll_int.h"

/* Coroutine helpers, as programs.c's. */
#define CO_BEGIN(s)                                                            \
	switch ((s)->pc) {                                                     \
	case 0:
#define EMIT(s, op, c, pr)                                                     \
	do {                                                                   \
		(op)->code = (c);                                              \
		(op)->peer = (pr);                                             \
		(op)->bytes = 0;                                               \
		(op)->segment = 0;                                             \
		(s)->pc = __LINE__;                                            \
		return;                                                        \
	case __LINE__:;                                                        \
	} while (0)
#define CO_END(s, op)                                                          \
	}                                                                      \
	(s)->pc = -1;                                                          \
	(op)->code = OP_END

/* ompi_coll_base_sendrecv_zero is IRECV, ISEND, WAIT_BOTH; a blocking
 * send ISEND, WAIT_SENDS; a receive IRECV, WAIT_RECV: one EMIT a line
 * (their case labels are line numbers). */

enum ml_coll_barrier ml_collective_barrier_decide(long long ranks)
{
	/* ompi_coll_tuned_barrier_intra_dec_fixed, 4.1.0-4.1.8, 5.0 (P = 2
	 * runs recursive doubling, which for two is one exchange). */
	if (ranks < 4)
		return ML_COLL_BARRIER_RECURSIVE_DOUBLING;
	if (ranks < 8)
		return ML_COLL_BARRIER_LINEAR;
	if (ranks < 64)
		return ML_COLL_BARRIER_RECURSIVE_DOUBLING;
	if (ranks < 256)
		return ML_COLL_BARRIER_BRUCK;
	if (ranks < 512)
		return ML_COLL_BARRIER_TREE;
	if (ranks < 1024)
		return ML_COLL_BARRIER_BRUCK;
	if (ranks < 4096)
		return ML_COLL_BARRIER_TREE;
	return ML_COLL_BARRIER_BRUCK;
}

/* The largest power of two <= P (opal_next_poweroftwo(P) >> 1). */
static long long pow2_below(long long P)
{
	long long k = 1;

	while (2 * k <= P)
		k *= 2;
	return k;
}

static void prog_linear(long long P, long long v, struct coll_prog *s,
			struct coll_op *op)
{
	CO_BEGIN(s);
	if (v > 0) {
		{
			EMIT(s, op, OP_ISEND, 0);
			EMIT(s, op, OP_WAIT_SENDS, 0);
		}
		{
			EMIT(s, op, OP_IRECV, 0);
			EMIT(s, op, OP_WAIT_RECV, 0);
		}
	} else {
		for (s->i = 1; s->i < P; s->i++) {
			EMIT(s, op, OP_IRECV, s->i);
			EMIT(s, op, OP_WAIT_RECV, 0);
		}
		for (s->i = 1; s->i < P; s->i++) {
			EMIT(s, op, OP_ISEND, s->i);
			EMIT(s, op, OP_WAIT_SENDS, 0);
		}
	}
	CO_END(s, op);
}

static void prog_doublering(long long P, long long v, struct coll_prog *s,
			    struct coll_op *op)
{
	CO_BEGIN(s);
	for (s->j = 0; s->j < 2; s->j++) {
		if (v > 0) {
			EMIT(s, op, OP_IRECV, (v + P - 1) % P);
			EMIT(s, op, OP_WAIT_RECV, 0);
		}
		{
			EMIT(s, op, OP_ISEND, (v + 1) % P);
			EMIT(s, op, OP_WAIT_SENDS, 0);
		}
		if (v == 0) {
			EMIT(s, op, OP_IRECV, P - 1);
			EMIT(s, op, OP_WAIT_RECV, 0);
		}
	}
	CO_END(s, op);
}

static void prog_rd(long long P, long long v, struct coll_prog *s,
		    struct coll_op *op)
{
	long long adj = pow2_below(P);

	CO_BEGIN(s);
	if (adj != P && v >= adj) {
		EMIT(s, op, OP_IRECV, v - adj);
		EMIT(s, op, OP_ISEND, v - adj);
		EMIT(s, op, OP_WAIT_BOTH, 0);
	} else if (adj != P && v < P - adj) {
		EMIT(s, op, OP_IRECV, v + adj);
		EMIT(s, op, OP_WAIT_RECV, 0);
	}
	if (v < adj)
		for (s->mask = 1; s->mask < adj; s->mask <<= 1) {
			EMIT(s, op, OP_IRECV, v ^ s->mask);
			EMIT(s, op, OP_ISEND, v ^ s->mask);
			EMIT(s, op, OP_WAIT_BOTH, 0);
		}
	if (adj != P && v < P - adj) {
		EMIT(s, op, OP_ISEND, v + adj);
		EMIT(s, op, OP_WAIT_SENDS, 0);
	}
	CO_END(s, op);
}

static void prog_bruck(long long P, long long v, struct coll_prog *s,
		       struct coll_op *op)
{
	CO_BEGIN(s);
	for (s->i = 1; s->i < P; s->i <<= 1) {
		EMIT(s, op, OP_IRECV, (v + P - s->i) % P);
		EMIT(s, op, OP_ISEND, (v + s->i) % P);
		EMIT(s, op, OP_WAIT_BOTH, 0);
	}
	CO_END(s, op);
}

static void prog_tree(long long P, long long v, struct coll_prog *s,
		      struct coll_op *op)
{
	long long depth = 1, partner;

	while (depth < P)
		depth *= 2;
	CO_BEGIN(s);
	for (s->i = 1; s->i < depth; s->i <<= 1) {
		partner = v ^ s->i;
		if ((partner & (s->i - 1)) || partner >= P)
			continue;
		if (partner > v) {
			EMIT(s, op, OP_IRECV, v ^ s->i);
			EMIT(s, op, OP_WAIT_RECV, 0);
		} else {
			EMIT(s, op, OP_ISEND, v ^ s->i);
			EMIT(s, op, OP_WAIT_SENDS, 0);
		}
	}
	for (s->i = depth / 2; s->i > 0; s->i >>= 1) {
		partner = v ^ s->i;
		if ((partner & (s->i - 1)) || partner >= P)
			continue;
		if (partner > v) {
			EMIT(s, op, OP_ISEND, v ^ s->i);
			EMIT(s, op, OP_WAIT_SENDS, 0);
		} else {
			EMIT(s, op, OP_IRECV, v ^ s->i);
			EMIT(s, op, OP_WAIT_RECV, 0);
		}
	}
	CO_END(s, op);
}

void ml_coll_barrier_next(const struct coll_alg *a, long long v,
			  struct coll_prog *s, struct coll_op *op)
{
	long long P = a->ranks;

	switch ((enum ml_coll_barrier)(a->alg - COLL_BARRIER_PROG)) {
	case ML_COLL_BARRIER_LINEAR:
		prog_linear(P, v, s, op);
		return;
	case ML_COLL_BARRIER_DOUBLE_RING:
		prog_doublering(P, v, s, op);
		return;
	case ML_COLL_BARRIER_TWO_PROC: /* P = 2: one exchange */
	case ML_COLL_BARRIER_RECURSIVE_DOUBLING:
		prog_rd(P, v, s, op);
		return;
	case ML_COLL_BARRIER_BRUCK:
		prog_bruck(P, v, s, op);
		return;
	case ML_COLL_BARRIER_TREE:
		prog_tree(P, v, s, op);
		return;
	default:
		op->code = OP_END;
		return;
	}
}

/* Keeps the engine off its fast paths, which leave no rank's time. */
static int every_message(void *arg, const struct ml_coll_msg *m)
{
	(void)arg;
	(void)m;
	return 0;
}

/* The barrier b's exit times of the P ranks of *p into x, in ws. */
static enum ml_status exits_ws(struct coll_ws *ws,
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

enum ml_status ml_collective_barrier_exits(const struct ml_collective_params *p,
					   enum ml_coll_barrier b, double *x)
{
	struct ml_collective_params q = *p;
	struct coll_ws *ws;
	enum ml_status st;

	q.algorithm = ML_COLL_BINOMIAL;
	q.library = ML_COLL_OPENMPI;
	q.barrier = ML_COLL_BARRIER_NONE;
	if (!x || (int)b < ML_COLL_BARRIER_LINEAR || b > ML_COLL_BARRIER_OMPI_TREE ||
	    (b == ML_COLL_BARRIER_TWO_PROC && p->ranks != 2) ||
	    ml_collective_validate(&q, NULL) != ML_OK)
		return ML_EINVAL;
	ws = ml_coll_ws_new();
	if (!ws)
		return ML_ENOMEM;
	st = exits_ws(ws, &q, b, x);
	ml_coll_ws_free(ws);
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
	struct ml_collective_result br;
	struct coll_times s;
	enum ml_status st = ML_ENOMEM;

	if (!c || !x || !f)
		goto out;
	st = ml_coll_engine_run_ws(ws, p, a, record, &o, &br);
	if (st != ML_OK)
		goto out;
	memcpy(c, ml_coll_ws_times(ws), (size_t)P * sizeof *c);
	st = exits_ws(ws, p, ml_coll_barrier_of(p), x);
	if (st != ML_OK)
		goto out;
	ml_coll_times_init(&s);
	for (v = 0; v < P; v++) {
		double m = c[v] - (x[v] - x[0]);

		ml_coll_times_add(&s, m > f[v] ? m : f[v]);
	}
	st = ml_coll_times_result(&s, a, br.messages, r);
out:
	free(c);
	free(x);
	free(f);
	return st;
}
