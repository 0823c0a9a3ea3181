/*
 * barrier.c - Open MPI 4.1's barriers (coll_base_barrier.c, the same in
 * 5.0) as programs of the collective engine, and its fixed decision
 * among them (SPEC 10.7; the measured quantity they serve is osu.c's):
 * linear, double ring, recursive doubling, Bruck, two processes, tree,
 * on zero-byte messages; a synchronous send is taken as a standard one,
 * the linear root's receives from any source are taken in rank order.
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

bool ml_collective_barrier_uneven(long long ranks, long long nodes)
{
	return nodes > 1 && ranks > nodes && ranks % nodes != 0 &&
	       ml_collective_barrier_decide(ranks) == ML_COLL_BARRIER_BRUCK;
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
