/*
 * programs.c - what each rank does in each of Open MPI's broadcast
 * algorithms (ompi/mca/coll/base/coll_base_bcast.c, identical in 4.1.8
 * and 5.0.10 but for comments), one operation at a time, and the
 * segmentation and fall-backs that code applies before it starts.
 *
 * Each program is a coroutine over struct coll_prog: the engine calls
 * ml_coll_prog_next() for a rank's next operation until the rank blocks in
 * a wait; pc records where to resume, and every value that must survive
 * a yield lives in the struct, never in a local.  A blocking send is
 * ISEND + WAIT_SENDS; a blocking receive IRECV + WAIT_RECV; Open MPI's
 * ompi_coll_base_sendrecv (irecv, blocking send, wait) is IRECV + ISEND
 * + WAIT_BOTH.  Ranks are virtual ranks (root 0).
 */
#include <limits.h>

#include "collective/coll_int.h"

/* Coroutine helpers: EMIT returns one operation and resumes after it. */
#define CO_BEGIN(s)                                                            \
	switch ((s)->pc) {                                                     \
	case 0:
#define EMIT(s, op, c, pr, b, sg)                                              \
	do {                                                                   \
		(op)->code = (c);                                              \
		(op)->peer = (pr);                                             \
		(op)->bytes = (b);                                             \
		(op)->segment = (sg);                                          \
		(s)->pc = __LINE__;                                            \
		return;                                                        \
	case __LINE__:;                                                        \
	} while (0)
#define CO_END(s, op)                                                          \
	}                                                                      \
	(s)->pc = -1;                                                          \
	(op)->code = OP_END

/* Kept out of line: ml_coll_prog_next is called for every operation,
 * and with each program inlined into it, every call paid for the
 * registers of the largest (the scatter). */
#if defined(__GNUC__)
#define OUTLINE __attribute__((noinline))
#else
#define OUTLINE
#endif

static long long min_ll(long long a, long long b)
{
	return a < b ? a : b;
}

static long long clamp0(long long a)
{
	return a < 0 ? 0 : a;
}

/* Bytes of segment i of the generic engine. */
static long long seg_bytes(const struct coll_alg *a, long long i)
{
	return i == a->nseg - 1 ? a->msg - i * a->segcount : a->segcount;
}

/*
 * ompi_coll_base_bcast_intra_generic: the root sends each segment to
 * every child (isend to all, then wait for all); an interior rank keeps
 * two receives posted, forwards segment i-1 to all children once it has
 * arrived and the sends of segment i-2 are complete; a leaf keeps two
 * receives posted.  s->cnt caches the number of children, s->mask the
 * parent.
 */
OUTLINE static void prog_generic(const struct coll_alg *a, long long v,
			 struct coll_prog *s, struct coll_op *op)
{
	const struct coll_tree *t = &a->tree;

	CO_BEGIN(s);
	s->cnt = ml_coll_tree_nkids(t, v);
	s->mask = ml_coll_tree_parent(t, v);
	if (v == 0) {
		for (s->i = 0; s->i < a->nseg; s->i++) {
			for (s->j = 0; s->j < s->cnt; s->j++)
				EMIT(s, op, OP_ISEND,
				     ml_coll_tree_kid(t, v, (int)s->j),
				     seg_bytes(a, s->i), s->i);
			EMIT(s, op, OP_WAIT_SENDS, 0, 0, 0);
		}
	} else if (s->cnt > 0) {
		EMIT(s, op, OP_IRECV, s->mask, 0, 0);
		for (s->i = 1; s->i < a->nseg; s->i++) {
			EMIT(s, op, OP_IRECV, s->mask, 0, s->i);
			EMIT(s, op, OP_WAIT_RECV, 0, 0, 0);
			for (s->j = 0; s->j < s->cnt; s->j++)
				EMIT(s, op, OP_ISEND,
				     ml_coll_tree_kid(t, v, (int)s->j),
				     seg_bytes(a, s->i - 1), s->i - 1);
			EMIT(s, op, OP_WAIT_SENDS, 0, 0, 0);
		}
		EMIT(s, op, OP_WAIT_RECV, 0, 0, 0);
		for (s->j = 0; s->j < s->cnt; s->j++)
			EMIT(s, op, OP_ISEND, ml_coll_tree_kid(t, v, (int)s->j),
			     seg_bytes(a, a->nseg - 1), a->nseg - 1);
		EMIT(s, op, OP_WAIT_SENDS, 0, 0, 0);
	} else {
		EMIT(s, op, OP_IRECV, s->mask, 0, 0);
		for (s->i = 1; s->i < a->nseg; s->i++) {
			EMIT(s, op, OP_IRECV, s->mask, 0, s->i);
			EMIT(s, op, OP_WAIT_RECV, 0, 0, 0);
		}
		EMIT(s, op, OP_WAIT_RECV, 0, 0, 0);
	}
	CO_END(s, op);
}

/* ompi_coll_base_bcast_intra_basic_linear: the root isends the whole
 * message to ranks 1 .. P-1 in order, then waits for all. */
OUTLINE static void prog_linear(const struct coll_alg *a, long long v,
			struct coll_prog *s, struct coll_op *op)
{
	CO_BEGIN(s);
	if (v == 0) {
		for (s->i = 1; s->i < a->ranks; s->i++)
			EMIT(s, op, OP_ISEND, s->i, a->msg, 0);
		EMIT(s, op, OP_WAIT_SENDS, 0, 0, 0);
	} else {
		EMIT(s, op, OP_IRECV, 0, 0, 0);
		EMIT(s, op, OP_WAIT_RECV, 0, 0, 0);
	}
	CO_END(s, op);
}

/* Split-binary: bytes of segment i of half h. */
static long long half_bytes(const struct coll_alg *a, int h, long long i)
{
	return min_ll(a->hseg, a->half[h] - i * a->hseg);
}

/*
 * ompi_coll_base_bcast_intra_split_bintree: odd virtual ranks ("left")
 * get half 0, even ones half 1 (the root is right), down the binary tree
 * with blocking sends, one receive posted ahead; then each left rank
 * swaps halves with rank + 1 and each right rank with rank - 1 in one
 * sendrecv; with P even the last rank is left unpaired and gets half 1
 * from the root.  s->cnt: children, s->mask: parent, s->mask2: lr.
 */
OUTLINE static void prog_split(const struct coll_alg *a, long long v,
		       struct coll_prog *s, struct coll_op *op)
{
	const struct coll_tree *t = &a->tree;
	long long P = a->ranks;

	CO_BEGIN(s);
	s->cnt = ml_coll_tree_nkids(t, v);
	s->mask = ml_coll_tree_parent(t, v);
	s->mask2 = (v + 1) % 2;
	if (v == 0) {
		for (s->i = 0; s->i < a->hnseg[0]; s->i++)
			for (s->j = 0; s->j < s->cnt && s->j < 2; s->j++) {
				if (s->i >= a->hnseg[s->j])
					continue;
				EMIT(s, op, OP_ISEND,
				     ml_coll_tree_kid(t, 0, (int)s->j),
				     half_bytes(a, (int)s->j, s->i), s->i);
				EMIT(s, op, OP_WAIT_SENDS, 0, 0, 0);
			}
	} else if (s->cnt > 0) {
		EMIT(s, op, OP_IRECV, s->mask, 0, 0);
		for (s->i = 1; s->i < a->hnseg[s->mask2]; s->i++) {
			EMIT(s, op, OP_IRECV, s->mask, 0, s->i);
			EMIT(s, op, OP_WAIT_RECV, 0, 0, 0);
			for (s->j = 0; s->j < s->cnt; s->j++) {
				EMIT(s, op, OP_ISEND,
				     ml_coll_tree_kid(t, v, (int)s->j),
				     half_bytes(a, (int)s->mask2, s->i - 1),
				     s->i - 1);
				EMIT(s, op, OP_WAIT_SENDS, 0, 0, 0);
			}
		}
		EMIT(s, op, OP_WAIT_RECV, 0, 0, 0);
		for (s->j = 0; s->j < s->cnt; s->j++) {
			EMIT(s, op, OP_ISEND, ml_coll_tree_kid(t, v, (int)s->j),
			     half_bytes(a, (int)s->mask2,
					a->hnseg[s->mask2] - 1),
			     a->hnseg[s->mask2] - 1);
			EMIT(s, op, OP_WAIT_SENDS, 0, 0, 0);
		}
	} else {
		for (s->i = 0; s->i < a->hnseg[s->mask2]; s->i++) {
			EMIT(s, op, OP_IRECV, s->mask, 0, s->i);
			EMIT(s, op, OP_WAIT_RECV, 0, 0, 0);
		}
	}
	/* Phase 2: the exchange of halves (segment index -1 marks it). */
	s->i = s->mask2 == 0 ? (v + 1) % P : (v + P - 1) % P; /* pair */
	if (P % 2 == 0 && v == 0) {
		EMIT(s, op, OP_ISEND, P - 1, a->half[1], -1);
		EMIT(s, op, OP_WAIT_SENDS, 0, 0, 0);
	} else if (P % 2 == 0 && v == P - 1) {
		EMIT(s, op, OP_IRECV, 0, 0, -1);
		EMIT(s, op, OP_WAIT_RECV, 0, 0, 0);
	} else if (v != 0) {
		EMIT(s, op, OP_IRECV, s->i, 0, -1);
		EMIT(s, op, OP_ISEND, s->i, a->half[s->mask2], -1);
		EMIT(s, op, OP_WAIT_BOTH, 0, 0, 0);
	}
	CO_END(s, op);
}

/*
 * The binomial scatter of scatter_allgather and scatter_allgather_ring:
 * v receives from v - lowbit(v) the blocks from its own to the end of
 * its parent's range (nothing when its first block is past the
 * message), then sends to v + m for m = lowbit(v)/2 .. 1 what lies past
 * v + m's first block.  s->cnt is Open MPI's curr_count, s->cnt2 its
 * recv_count (read later by the non-power-of-two fix-up, as in the
 * code).  Returns 1 when the scatter has finished (op untouched), 0
 * with the next operation in *op.  Uses pc values below 100.
 */
OUTLINE static int scatter(const struct coll_alg *a, long long v,
			   struct coll_prog *s, struct coll_op *op)
{
	long long P = a->ranks, sc = a->sc, n;

	switch (s->pc) {
	case 0:
		s->cnt = v == 0 ? a->msg : 0;
		s->cnt2 = 0;
		for (s->mask = 1; s->mask < P; s->mask <<= 1) {
			if (v & s->mask) {
				s->cnt2 = a->msg - v * sc;
				if (s->cnt2 <= 0) {
					s->cnt = 0;
				} else {
					op->code = OP_IRECV;
					op->peer = v - s->mask;
					op->bytes = 0;
					op->segment = v;
					s->pc = 1;
					return 0;
				case 1:
					op->code = OP_WAIT_RECV;
					s->pc = 2;
					return 0;
				case 2:
					s->cnt = s->last_recv;
				}
				break;
			}
		}
		for (s->mask >>= 1; s->mask > 0; s->mask >>= 1) {
			if (v + s->mask >= P)
				continue;
			n = s->cnt - sc * s->mask;
			if (n <= 0)
				continue;
			s->cnt -= n;
			op->code = OP_ISEND;
			op->peer = v + s->mask;
			op->bytes = n;
			op->segment = v + s->mask;
			s->pc = 3;
			return 0;
		case 3:
			op->code = OP_WAIT_SENDS;
			s->pc = 4;
			return 0;
		case 4:;
		}
		s->pc = 100;
		return 1;
	default:
		return 1;
	}
}

/*
 * ompi_coll_base_bcast_intra_scatter_allgather: the scatter, then a
 * recursive-doubling allgather (one sendrecv with v ^ mask of what v's
 * aligned group holds), with MPICH's recursive-halving fix-up where the
 * partner group is incomplete (P not a power of two).
 */
OUTLINE static void prog_sag(const struct coll_alg *a, long long v, struct coll_prog *s,
		     struct coll_op *op)
{
	long long P = a->ranks, sc = a->sc, vr, vtr, vrtr, nad, troot;

	if (s->pc < 100 && !scatter(a, v, s, op))
		return;
	switch (s->pc) {
	case 100:
		s->cnt = clamp0(min_ll(sc, a->msg - v * sc));
		for (s->mask = 1; s->mask < P; s->mask <<= 1) {
			if ((v ^ s->mask) < P) {
				op->code = OP_IRECV;
				op->peer = v ^ s->mask;
				op->bytes = 0;
				op->segment = s->mask;
				s->pc = 101;
				return;
			case 101:
				op->code = OP_ISEND;
				op->peer = v ^ s->mask;
				op->bytes = s->cnt;
				op->segment = s->mask;
				s->pc = 102;
				return;
			case 102:
				op->code = OP_WAIT_BOTH;
				s->pc = 103;
				return;
			case 103:
				s->cnt2 = s->last_recv;
				s->cnt += s->cnt2;
			}
			vtr = v & ~(s->mask - 1);
			vrtr = (v ^ s->mask) & ~(s->mask - 1);
			if (vrtr + s->mask <= P)
				continue;
			for (s->mask2 = s->mask >> 1; s->mask2 > 0;
			     s->mask2 >>= 1) {
				vtr = v & ~(s->mask - 1);
				nad = P - vtr - s->mask;
				vr = v ^ s->mask2;
				troot = v & ~((s->mask2 << 1) - 1);
				if (vr > v && v < troot + nad &&
				    vr >= troot + nad && vr < P) {
					op->code = OP_ISEND;
					op->peer = vr;
					op->bytes = s->cnt2;
					op->segment = s->mask2;
					s->pc = 104;
					return;
				case 104:
					op->code = OP_WAIT_SENDS;
					s->pc = 105;
					return;
				case 105:;
				} else if (vr < v && vr < troot + nad &&
					   v >= troot + nad) {
					op->code = OP_IRECV;
					op->peer = vr;
					op->bytes = 0;
					op->segment = s->mask2;
					s->pc = 106;
					return;
				case 106:
					op->code = OP_WAIT_RECV;
					s->pc = 107;
					return;
				case 107:
					s->cnt2 = s->last_recv;
					s->cnt += s->cnt2;
				}
			}
		}
		s->pc = -1;
		/* fall through */
	default:
		op->code = OP_END;
	}
}

/*
 * ompi_coll_base_bcast_intra_scatter_allgather_ring: the scatter, then
 * P - 1 sendrecvs around the ring: at step i, v sends block v - i + 1
 * to v + 1 and receives block v - i from v - 1 (mod P; a block past
 * the message is sent empty).
 */
OUTLINE static void ring_allgather(const struct coll_alg *a, long long v,
				   struct coll_prog *s, struct coll_op *op)
{
	long long P = a->ranks, sc = a->sc, blk;

	/* Indices mod P by a compare, not a division (P^2 of them). */
	switch (s->pc) {
	case 100:
		for (s->i = 1; s->i < P; s->i++) {
			op->code = OP_IRECV;
			op->peer = v == 0 ? P - 1 : v - 1;
			op->bytes = 0;
			op->segment = v - s->i < 0 ? v - s->i + P : v - s->i;
			s->pc = 101;
			return;
		case 101:
			blk = v - s->i + 1 < 0 ? v - s->i + 1 + P : v - s->i + 1;
			op->code = OP_ISEND;
			op->peer = v + 1 == P ? 0 : v + 1;
			op->bytes = clamp0(min_ll(sc, a->msg - blk * sc));
			op->segment = blk;
			s->pc = 102;
			return;
		case 102:
			op->code = OP_WAIT_BOTH;
			s->pc = 103;
			return;
		case 103:;
		}
		s->pc = -1;
		/* fall through */
	default:
		op->code = OP_END;
	}
}

/* The ring: the scatter, then the allgather (whose P - 1 steps
 * ml_coll_prog_next calls directly, with no frame to set up). */
OUTLINE static void prog_ring(const struct coll_alg *a, long long v,
			      struct coll_prog *s, struct coll_op *op)
{
	if (!scatter(a, v, s, op))
		return;
	ring_allgather(a, v, s, op);
}

void ml_coll_prog_next(const struct coll_alg *a, long long v,
		       struct coll_prog *s, struct coll_op *op)
{
	if (a->library == ML_COLL_MPICH) {
		ml_coll_mpich_next(a, v, s, op);
		return;
	}
	if (a->alg >= COLL_BARRIER_PROG) {
		ml_coll_barrier_next(a, v, s, op);
		return;
	}
	switch (a->alg) {
	case ML_COLL_LINEAR:
		prog_linear(a, v, s, op);
		return;
	case ML_COLL_SPLIT_BINARY:
		prog_split(a, v, s, op);
		return;
	case ML_COLL_SCATTER_ALLGATHER:
		prog_sag(a, v, s, op);
		return;
	case ML_COLL_SCATTER_ALLGATHER_RING:
		if (s->pc >= 100 || s->pc < 0)
			ring_allgather(a, v, s, op);
		else
			prog_ring(a, v, s, op);
		return;
	default:
		prog_generic(a, v, s, op);
		return;
	}
}

/* COLL_BASE_COMPUTED_SEGCOUNT with one-byte elements: a segment size
 * in [1, M) cuts the message, anything else leaves it whole. */
static void generic_setup(const struct ml_collective_params *p,
			  struct coll_alg *a)
{
	a->segcount =
	    p->segment >= 1 && p->segment < a->msg ? p->segment : a->msg;
	a->nseg = (a->msg + a->segcount - 1) / a->segcount;
}

enum ml_status ml_coll_alg_setup(const struct ml_collective_params *p,
				 struct coll_alg *a)
{
	long long M = p->msg, P = p->ranks, seg = p->segment, arg = 0;
	int h;

	if (p->library == ML_COLL_MPICH)
		return ml_coll_mpich_setup(p, a);
	a->library = ML_COLL_OPENMPI;
	a->composition = ML_COLL_COMP_NONE;
	a->alg = p->algorithm;
	a->ranks = P;
	a->msg = M;
	a->segcount = M;
	a->nseg = 1;
	a->sc = 0;
	a->hseg = 0;
	a->half[0] = a->half[1] = a->hnseg[0] = a->hnseg[1] = 0;
	if ((a->alg == ML_COLL_SCATTER_ALLGATHER ||
	     a->alg == ML_COLL_SCATTER_ALLGATHER_RING) &&
	    M < P)
		a->alg = ML_COLL_LINEAR; /* count < comm_size */
	if (a->alg == ML_COLL_SPLIT_BINARY) {
		a->half[0] = (M + 1) / 2;
		a->half[1] = M - a->half[0];
		if (a->half[1] == 0 || seg > a->half[1] || seg > a->half[0]) {
			a->alg = ML_COLL_PIPELINE; /* chain with fanout 1 */
		} else {
			for (h = 0; h < 2; h++) {
				a->hseg = seg > 0 ? seg : a->half[h];
				a->hnseg[h] =
				    (a->half[h] + a->hseg - 1) / a->hseg;
			}
			if (seg == 0) /* one segment each: its whole half */
				a->hseg = a->half[0];
		}
	}
	switch (a->alg) {
	case ML_COLL_SCATTER_ALLGATHER:
	case ML_COLL_SCATTER_ALLGATHER_RING:
		a->sc = (M + P - 1) / P;
		return ML_OK;
	case ML_COLL_LINEAR:
		return ML_OK;
	case ML_COLL_SPLIT_BINARY:
		ml_coll_tree_init(&a->tree, ML_COLL_BINARY, P, 0);
		return ML_OK;
	case ML_COLL_KNOMIAL:
		arg = p->radix;
		break;
	case ML_COLL_CHAIN:
		arg = p->fanout;
		break;
	default:
		break;
	}
	if (ml_coll_tree_init(&a->tree, a->alg, P, arg) != 0)
		return ML_EINVAL;
	generic_setup(p, a);
	return ML_OK;
}

/* a * b, saturated at LLONG_MAX (both >= 0). */
static long long mul_sat(long long a, long long b)
{
	return b != 0 && a > LLONG_MAX / b ? LLONG_MAX : a * b;
}

long long ml_coll_alg_messages_bound(const struct coll_alg *a)
{
	long long P = a->ranks, lg = 0;

	if (a->library == ML_COLL_MPICH)
		return ml_coll_mpich_messages_bound(a);
	while ((1LL << lg) < P)
		lg++;
	switch (a->alg) {
	case ML_COLL_LINEAR:
		return P - 1;
	case ML_COLL_SPLIT_BINARY:
		return mul_sat(a->hnseg[0] + 1, P);
	case ML_COLL_SCATTER_ALLGATHER:
		return P * (2 * lg + 1);
	case ML_COLL_SCATTER_ALLGATHER_RING:
		return P * P;
	default:
		return mul_sat(a->nseg, P - 1);
	}
}
