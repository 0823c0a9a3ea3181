/*
 * mpich_programs.c - what each rank does in MPICH 4.0.2's broadcasts
 * (src/mpi/coll/bcast/, SPEC 11, notes/mpich_bcast.md section 4), one
 * operation at a time, and how MPICH puts them together on the node
 * hierarchy of the placement (its node and node-roots communicators).
 *
 * Each MPIR algorithm runs on a communicator view: the whole
 * communicator, the node roots (the lowest rank of each node, in node
 * order, as MPIR_Find_external lists them), or one node's ranks (in rank
 * order, MPIR_Find_local).  Each algorithm numbers its view's ranks
 * relative to the view's root, rel = (index - root) mod size, as MPICH
 * does, and the programs take and give real ranks.  A composition
 * (alpha, beta; smp's first two branches) is a broadcast among the node
 * roots from the root's node, then one inside every node from its first
 * rank (MPICH's auto selection on each, on Debian's build: ch4:ucx has
 * no shared-memory module, so the node's broadcast is an MPIR algorithm
 * over point-to-point too).  When the root is not its node's first
 * rank, alpha and smp's first branch start with the root handing the
 * whole message to that rank (MPIC_Send on the node communicator), and
 * the node's broadcast then brings it back to the root; beta and smp's
 * second branch start with a broadcast on the root's node from the root,
 * which then sits out the last phase (ch4_coll_impl.h,
 * bcast_intra_smp.c).
 *
 * The programs are coroutines over struct coll_prog as in programs.c:
 * s->j is the phase (0: the whole communicator, or the root's node's
 * start; 1: the node roots; 2: every node from its first rank), s->pc
 * the place in the phase's algorithm.  MPIC_Send is ISEND +
 * WAIT_SENDS, MPIC_Recv IRECV + WAIT_RECV, MPIC_Sendrecv IRECV + ISEND +
 * WAIT_BOTH.  Zero-byte pieces: the scatter skips them (a rank whose
 * first byte lies past the message receives nothing), the allgathers
 * send them.  No fall-backs: MPICH 4.0.2 runs every algorithm at every
 * P and count.
 */
#include <limits.h>

#include "collective/coll_int.h"

/* Coroutine helpers: EMIT returns 0 with one operation in *op and
 * resumes after it; base keeps the scatter's places apart from the
 * allgathers' (pc = base + line). */
#define EMIT(s, op, base, c, pr, b, sg)                                        \
	do {                                                                   \
		(op)->code = (c);                                              \
		(op)->peer = (pr);                                             \
		(op)->bytes = (b);                                             \
		(op)->segment = (sg);                                          \
		(s)->pc = (base) + __LINE__;                                   \
		return 0;                                                      \
	case (base) + __LINE__:;                                               \
	} while (0)

/* Where the allgather of a scatter algorithm starts. */
#define AG 100000

enum view_kind { V_WHOLE, V_ROOTS, V_NODE };

struct view {
	enum view_kind kind;
	long long size, me, node; /* me: this rank's index in the view */
	long long root;		  /* the root's index in the view */
};

static long long min_ll(long long a, long long b)
{
	return a < b ? a : b;
}

static long long clamp0(long long a)
{
	return a < 0 ? 0 : a;
}

static int is_pow2(long long x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

/* ---- the placement's nodes ----------------------------------------- */

static long long node_of(const struct coll_alg *a, long long r)
{
	return a->map_by == ML_COLL_MAP_NODE ? r % a->nodes : r / a->ppn;
}

static long long local_of(const struct coll_alg *a, long long r)
{
	return a->map_by == ML_COLL_MAP_NODE ? r / a->nodes : r % a->ppn;
}

static long long node_size(const struct coll_alg *a, long long k)
{
	if (a->map_by == ML_COLL_MAP_NODE)
		return (a->ranks - k + a->nodes - 1) / a->nodes;
	return min_ll(a->ppn, a->ranks - k * a->ppn);
}

/* The rank of local index i of node k. */
static long long node_member(const struct coll_alg *a, long long k, long long i)
{
	return a->map_by == ML_COLL_MAP_NODE ? k + i * a->nodes
					     : k * a->ppn + i;
}

/* The rank (COMM_WORLD) of index i of view c. */
static long long world(const struct coll_alg *a, const struct view *c,
		       long long i)
{
	switch (c->kind) {
	case V_ROOTS:
		return node_member(a, i, 0);
	case V_NODE:
		return node_member(a, c->node, i);
	default:
		return i;
	}
}

/* The real rank of the root. */
static long long root_of(const struct coll_alg *a)
{
	return node_member(a, a->root_node, a->root_local);
}

/* This rank's index relative to the view's root. */
static long long rel_of(const struct view *c)
{
	return (c->me - c->root + c->size) % c->size;
}

/* The real rank of relative index rel (0 <= rel < 2 size) of view c. */
static long long at(const struct coll_alg *a, const struct view *c,
		    long long rel)
{
	return world(a, c, (rel + c->root) % c->size);
}

/* ---- the MPIR algorithms on a view, in relative ranks -------------- */

/*
 * MPIR_Bcast_intra_binomial: receive the whole message once from
 * rel - lowbit(rel), then send it to rel + mask for mask from
 * lowbit(rel) / 2 (the root: the largest power of two below the size)
 * down to 1, each a blocking send.
 */
static int binomial(const struct coll_alg *a, const struct view *c,
		    struct coll_prog *s, struct coll_op *op)
{
	long long n = c->size, rel = rel_of(c);

	switch (s->pc) {
	case 0:
		for (s->mask = 1; s->mask < n; s->mask <<= 1)
			if (rel & s->mask) {
				EMIT(s, op, 0, OP_IRECV,
				     at(a, c, rel - s->mask), 0, 0);
				EMIT(s, op, 0, OP_WAIT_RECV, 0, 0, 0);
				break;
			}
		for (s->mask >>= 1; s->mask > 0; s->mask >>= 1)
			if (rel + s->mask < n) {
				EMIT(s, op, 0, OP_ISEND,
				     at(a, c, rel + s->mask), a->msg, 0);
				EMIT(s, op, 0, OP_WAIT_SENDS, 0, 0, 0);
			}
	}
	return 1;
}

/*
 * MPII_Scatter_for_bcast: blocks of ss = ceil(n / size) bytes, block i
 * for rel i.  A non-root receives from rel - lowbit(rel) the tail of its
 * parent's range (nothing, and no receive, when its block starts past
 * the message), then hands rel + mask, for mask downward, what lies
 * past that rank's first block, when that is more than nothing.
 * s->cnt is MPICH's curr_size.  Finished: pc = AG, returns 1.
 */
static int scatter(const struct coll_alg *a, const struct view *c,
		   struct coll_prog *s, struct coll_op *op)
{
	long long n = c->size, rel = rel_of(c), ss = (a->msg + n - 1) / n;

	switch (s->pc) {
	case 0:
		s->cnt = rel == 0 ? a->msg : 0;
		for (s->mask = 1; s->mask < n; s->mask <<= 1)
			if (rel & s->mask) {
				if (a->msg - rel * ss > 0) {
					EMIT(s, op, 0, OP_IRECV,
					     at(a, c, rel - s->mask), 0, rel);
					EMIT(s, op, 0, OP_WAIT_RECV, 0, 0, 0);
					s->cnt = s->last_recv;
				}
				break;
			}
		for (s->mask >>= 1; s->mask > 0; s->mask >>= 1)
			if (rel + s->mask < n && s->cnt - ss * s->mask > 0) {
				EMIT(s, op, 0, OP_ISEND,
				     at(a, c, rel + s->mask),
				     s->cnt - ss * s->mask, rel + s->mask);
				EMIT(s, op, 0, OP_WAIT_SENDS, 0, 0, 0);
				s->cnt = ss * s->mask;
			}
	}
	s->pc = AG;
	return 1;
}

/*
 * MPIR_Bcast_intra_scatter_recursive_doubling_allgather, after the
 * scatter: for mask = 1, 2, ... below the size, a sendrecv with
 * rel ^ mask (when it exists) of everything held (curr_size, s->cnt;
 * zero bytes are sent too); where the partner's subtree is incomplete
 * (size not a power of two), the ranks of the subtree that got data
 * pass the last received size (recv_size, s->cnt2, 0 at the start) on
 * to those that did not, by recursive halving (mask2).
 */
static int srd(const struct coll_alg *a, const struct view *c,
	       struct coll_prog *s, struct coll_op *op)
{
	long long n = c->size, rel = rel_of(c), ss = (a->msg + n - 1) / n;
	long long partner, mytree, npc, tree, d;

	if (s->pc < AG && !scatter(a, c, s, op))
		return 0;
	switch (s->pc) {
	case AG:
		s->cnt = clamp0(min_ll(ss, a->msg - rel * ss));
		s->cnt2 = 0;
		for (s->mask = 1; s->mask < n; s->mask <<= 1) {
			if ((rel ^ s->mask) < n) {
				EMIT(s, op, AG, OP_IRECV,
				     at(a, c, rel ^ s->mask), 0, s->mask);
				EMIT(s, op, AG, OP_ISEND,
				     at(a, c, rel ^ s->mask), s->cnt, s->mask);
				EMIT(s, op, AG, OP_WAIT_BOTH, 0, 0, 0);
				s->cnt2 = s->last_recv;
				s->cnt += s->cnt2;
			}
			partner = (rel ^ s->mask) & ~(s->mask - 1);
			if (partner + s->mask <= n)
				continue;
			for (s->mask2 = s->mask >> 1; s->mask2 > 0;
			     s->mask2 >>= 1) {
				mytree = rel & ~(s->mask - 1);
				npc = n - mytree - s->mask;
				d = rel ^ s->mask2;
				tree = rel & ~((s->mask2 << 1) - 1);
				if (d > rel && rel < tree + npc &&
				    d >= tree + npc) {
					EMIT(s, op, AG, OP_ISEND, at(a, c, d),
					     s->cnt2, s->mask2);
					EMIT(s, op, AG, OP_WAIT_SENDS, 0, 0, 0);
				} else if (d < rel && d < tree + npc &&
					   rel >= tree + npc) {
					EMIT(s, op, AG, OP_IRECV, at(a, c, d),
					     0, s->mask2);
					EMIT(s, op, AG, OP_WAIT_RECV, 0, 0, 0);
					s->cnt2 = s->last_recv;
					s->cnt += s->cnt2;
				}
			}
		}
	}
	return 1;
}

/*
 * MPIR_Bcast_intra_scatter_ring_allgather, after the scatter: size - 1
 * sendrecvs, to rel + 1 and from rel - 1; at step i rel sends block
 * rel - i + 1 (the one it received the step before; its own first),
 * min(ss, n - block * ss) bytes, zero when the block lies past the
 * message.
 */
static int ring(const struct coll_alg *a, const struct view *c,
		struct coll_prog *s, struct coll_op *op)
{
	long long n = c->size, rel = rel_of(c), ss = (a->msg + n - 1) / n;
	long long blk;

	if (s->pc < AG && !scatter(a, c, s, op))
		return 0;
	switch (s->pc) {
	case AG:
		for (s->i = 1; s->i < n; s->i++) {
			EMIT(s, op, AG, OP_IRECV, at(a, c, rel + n - 1), 0,
			     (rel - s->i + n) % n);
			blk = (rel - s->i + 1 + n) % n;
			EMIT(s, op, AG, OP_ISEND, at(a, c, rel + 1),
			     clamp0(min_ll(ss, a->msg - blk * ss)), blk);
			EMIT(s, op, AG, OP_WAIT_BOTH, 0, 0, 0);
		}
	}
	return 1;
}

/* ---- phases -------------------------------------------------------- */

/*
 * Alpha's (and smp's first branch's) start when the root is not its
 * node's first rank: the root sends the whole message to that rank
 * (MPIC_Send), which receives it (MPIC_Recv) before the node roots'
 * broadcast.
 */
static int handover(const struct coll_alg *a, const struct view *c,
		    struct coll_prog *s, struct coll_op *op)
{
	switch (s->pc) {
	case 0:
		if (c->me == c->root) {
			EMIT(s, op, 0, OP_ISEND, world(a, c, 0), a->msg, 0);
			EMIT(s, op, 0, OP_WAIT_SENDS, 0, 0, 0);
		} else {
			EMIT(s, op, 0, OP_IRECV, world(a, c, c->root), 0, 0);
			EMIT(s, op, 0, OP_WAIT_RECV, 0, 0, 0);
		}
	}
	return 1;
}

/*
 * The view and algorithm of phase j of rank v; 0 when v sits it out.
 * ML_COLL_DEFAULT as *alg: the handover above.  Phases of a
 * composition: 0, on the root's node when the root is not its first
 * rank, the handover (alpha) or a broadcast from the root (beta);
 * 1, the node roots from the root's node; 2, every node from its first
 * rank, but for beta the root's node when phase 0 ran there.
 */
static int phase(const struct coll_alg *a, long long v, long long j,
		 struct view *c, enum ml_coll_alg *alg)
{
	long long k;
	int started;

	if (a->whole != ML_COLL_DEFAULT) {
		c->kind = V_WHOLE;
		c->size = a->ranks;
		c->me = v;
		c->node = 0;
		c->root = root_of(a);
		*alg = a->whole;
		return j == 0;
	}
	k = node_of(a, v);
	c->node = k;
	started = k == a->root_node && a->root_local > 0;
	if (j == 1) {
		c->kind = V_ROOTS;
		c->size = a->nodes_used;
		c->me = k;
		c->root = a->root_node;
		*alg = ml_collective_mpich_mpir(c->size, a->msg, false);
		return local_of(a, v) == 0 && c->size > 1;
	}
	c->kind = V_NODE;
	c->size = node_size(a, k);
	c->me = local_of(a, v);
	c->root = j == 0 ? a->root_local : 0;
	*alg = ml_collective_mpich_mpir(c->size, a->msg, false);
	if (j == 0) {
		if (!a->root_node_first) {
			*alg = ML_COLL_DEFAULT;
			return started && (c->me == 0 || c->me == c->root);
		}
		return started;
	}
	return j == 2 && c->size > 1 && !(started && a->root_node_first);
}

void ml_coll_mpich_next(const struct coll_alg *a, long long v,
			struct coll_prog *s, struct coll_op *op)
{
	struct view c;
	enum ml_coll_alg alg;
	int done;

	for (; s->j < 3; s->j++, s->pc = 0) {
		if (!phase(a, v, s->j, &c, &alg))
			continue;
		switch (alg) {
		case ML_COLL_DEFAULT:
			done = handover(a, &c, s, op);
			break;
		case ML_COLL_MPICH_SCATTER_RD_ALLGATHER:
			done = srd(a, &c, s, op);
			break;
		case ML_COLL_MPICH_SCATTER_RING_ALLGATHER:
			done = ring(a, &c, s, op);
			break;
		default:
			done = binomial(a, &c, s, op);
			break;
		}
		if (!done)
			return;
	}
	s->pc = -1;
	op->code = OP_END;
}

/* ---- setup --------------------------------------------------------- */

enum ml_status ml_coll_mpich_setup(const struct ml_collective_params *p,
				   struct coll_alg *a)
{
	long long P = p->ranks, M = p->msg;
	bool parent;

	a->library = ML_COLL_MPICH;
	a->ranks = P;
	a->msg = M;
	a->segcount = M;
	a->nseg = 1;
	a->sc = (M + P - 1) / P;
	a->hseg = 0;
	a->half[0] = a->half[1] = a->hnseg[0] = a->hnseg[1] = 0;
	a->map_by = p->map_by;
	a->ppn = p->ppn;
	a->nodes = ml_coll_nodes(p);
	if (a->ppn < 1 || a->nodes < 1)
		return ML_EINVAL;
	a->nodes_used = a->map_by == ML_COLL_MAP_NODE
			    ? min_ll(a->nodes, P)
			    : (P + a->ppn - 1) / a->ppn;
	parent = node_size(a, 0) >= 2;
	a->root = p->root; /* MPICH's programs rotate on each communicator */
	a->root_node = node_of(a, p->root);
	a->root_local = local_of(a, p->root);
	a->root_node_first = 0;
	a->composition = ML_COLL_COMP_NONE;
	switch (p->algorithm) {
	case ML_COLL_DEFAULT:
		a->composition = ml_collective_mpich_composition(P, M, parent);
		a->root_node_first = a->composition == ML_COLL_COMP_BETA;
		a->whole = a->composition == ML_COLL_COMP_GAMMA
			       ? ml_collective_mpich_mpir(P, M, parent)
			       : ML_COLL_DEFAULT;
		a->alg = a->whole;
		return ML_OK;
	case ML_COLL_MPICH_BINOMIAL:
	case ML_COLL_MPICH_SCATTER_RD_ALLGATHER:
	case ML_COLL_MPICH_SCATTER_RING_ALLGATHER:
		a->whole = a->alg = p->algorithm;
		return ML_OK;
	case ML_COLL_MPICH_SMP:
		/* Restricted to parent communicators: elsewhere MPICH falls
		 * back to its auto selection (MPIR_CVAR_COLLECTIVE_FALLBACK
		 * silent).  MPIR_CVAR_BCAST_SHORT_MSG_SIZE 12288,
		 * _MIN_PROCS 8, _LONG_MSG_SIZE 524288. */
		if (!parent) {
			a->whole = a->alg =
			    ml_collective_mpich_mpir(P, M, false);
			return ML_OK;
		}
		a->alg = ML_COLL_MPICH_SMP;
		a->whole = M < 12288 || P < 8 || (M < 524288 && is_pow2(P))
			       ? ML_COLL_DEFAULT
			       : ML_COLL_MPICH_SCATTER_RING_ALLGATHER;
		a->root_node_first = !(M < 12288 || P < 8);
		return ML_OK;
	default:
		return ML_EINVAL;
	}
}

void ml_coll_mpich_parts(const struct coll_alg *a, enum ml_coll_alg *roots,
			 enum ml_coll_alg *first, enum ml_coll_alg *last)
{
	long long s0, s1;

	*roots = *first = *last = ML_COLL_DEFAULT;
	if (a->library != ML_COLL_MPICH || a->whole != ML_COLL_DEFAULT)
		return;
	s0 = node_size(a, 0);
	s1 = node_size(a, a->nodes_used - 1);
	if (a->nodes_used > 1)
		*roots = ml_collective_mpich_mpir(a->nodes_used, a->msg, false);
	if (s0 > 1)
		*first = ml_collective_mpich_mpir(s0, a->msg, false);
	if (s1 > 1)
		*last = ml_collective_mpich_mpir(s1, a->msg, false);
}

/* a * b, saturated at LLONG_MAX (both >= 0). */
static long long mul_sat(long long a, long long b)
{
	return b != 0 && a > LLONG_MAX / b ? LLONG_MAX : a * b;
}

static long long add_sat(long long a, long long b)
{
	return a > LLONG_MAX - b ? LLONG_MAX : a + b;
}

/* An upper bound on the messages of alg on n ranks. */
static long long bound(enum ml_coll_alg alg, long long n)
{
	long long lg = 0;

	while ((1LL << lg) < n)
		lg++;
	switch (alg) {
	case ML_COLL_MPICH_SCATTER_RD_ALLGATHER:
		return mul_sat(n, 2 * lg + 2);
	case ML_COLL_MPICH_SCATTER_RING_ALLGATHER:
		return add_sat(mul_sat(n, n), n);
	default:
		return n;
	}
}

long long ml_coll_mpich_messages_bound(const struct coll_alg *a)
{
	enum ml_coll_alg r, f, l;

	if (a->whole != ML_COLL_DEFAULT)
		return bound(a->whole, a->ranks);
	ml_coll_mpich_parts(a, &r, &f, &l);
	/* and the handover, or the root's node's broadcast, a node's */
	return add_sat(bound(r, a->nodes_used),
		       mul_sat(a->nodes_used + 1, bound(f, node_size(a, 0))));
}
