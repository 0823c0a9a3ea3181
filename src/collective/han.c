/*
 * han.c - Open MPI's coll/han broadcast (ompi/mca/coll/han, the same
 * algorithm in 4.1.4 and 5.0.x; issue 47, notes/ompi_han.md) as a
 * program every rank runs on the engine of engine.c: its conditions,
 * its two sub-communicators and its pipelined and simple broadcasts.
 *
 * The split (coll_han_subcomms.c): low = the ranks of a node, ranked by
 * their rank (ompi_comm_split_type SHARED); up = the ranks with the same
 * local rank across the nodes, ranked by their rank, so node n (nodes
 * counted by their first rank) is up rank n.  For a root r of node nr
 * and local rank jr (mca_coll_han_get_ranks): the up level runs among
 * the ranks of local rank jr, rooted at nr; each node's low level is
 * rooted at its rank of local rank jr.
 *
 * The pipelined broadcast (mca_coll_han_bcast_intra), S segments of
 * coll_han_bcast_segsize bytes (COLL_BASE_COMPUTED_SEGCOUNT: 0 or a size
 * >= M is one segment):
 *
 *   t0     the up ranks: a blocking bcast of segment 0 on up (served by
 *          tuned, libnbc having no blocking bcast: tuned's fixed
 *          decision at P = nodes);
 *   t1(i)  i = 0 .. S-1: the up ranks post an ibcast of segment i+1 on
 *          up (libnbc: linear for nodes <= 4, else binomial, whose
 *          virtual ranks swap the root and rank 0; unsegmented); every
 *          rank runs a blocking bcast of segment i on low (tuned's
 *          fixed decision at P = ranks a node); the up ranks wait for
 *          the ibcast.
 *
 * The simple one (mca_coll_han_bcast_intra_simple): the up ranks
 * broadcast the whole message on up, then every node on low.
 *
 * libnbc's progress.  An interior rank of libnbc's binomial forwards
 * its segment when a progress call sees it arrive, and the low bcast's
 * root spends its time in such calls (the wait for its sends); so where
 * the low algorithm's root posts all its sends and then waits (linear
 * and the unsegmented trees, all the fixed decision runs but
 * split-binary and the scatter-allgathers), the rank here waits for the
 * ibcast's segment after posting those sends, forwards it, and then
 * waits for all its sends.  Elsewhere it forwards after the low bcast;
 * and where the low root itself receives (the scatter-allgathers, M >=
 * ranks a node) its ibcast receive is posted after the low bcast (the
 * engine's waits take the oldest receive): a later handshake, the same
 * messages.
 *
 * State: hpc holds han's phase (low 4 bits) and segment (the rest);
 * pc, i, j, ... the tuned program han runs at the moment, or the
 * index of the ibcast's send (i while posting, mask2 while forwarding).
 */
#include <limits.h>
#include <string.h>

#include "collective/coll_int.h"

enum {
	PH_START,
	PH_UP0,	 /* t0 (simple: the whole message) on up */
	PH_POST, /* t1(i): the ibcast's sends or receive */
	PH_LOW,	 /* t1(i): the low bcast */
	PH_FWD,	 /* interleaved: the ibcast's forwards, then the low
		  * bcast's own wait */
	PH_FIN,	 /* t1(i): the ibcast's completion */
	PH_NEXT, /* t1(i) over: the next segment */
	PH_DONE
};

#define HPC(seg, ph) ((int)((seg) << 4 | (ph)))
#define HSEG(s)	     ((long long)((unsigned)(s)->hpc >> 4))
#define HPH(s)	     ((s)->hpc & 15)

/* Segments at most 2^27 (hpc's bits). */
#define HAN_MAX_SEG (1LL << 27)

struct geo {
	long long nodes, per; /* nodes holding ranks, ranks a node */
	int by_node;
};

/* The nodes holding ranks and the ranks a node, or per 0 when they
 * differ from node to node (the fall-back). */
static void geo_of(const struct ml_collective_params *p, struct geo *g)
{
	long long N = ml_coll_nodes(p), P = p->ranks;

	g->by_node = p->map_by == ML_COLL_MAP_NODE && p->ppn > 1;
	if (g->by_node) {
		g->nodes = P < N ? P : N;
		g->per = P % g->nodes == 0 ? P / g->nodes : 0;
	} else {
		g->nodes = (P + p->ppn - 1) / p->ppn;
		g->per = P % p->ppn == 0 ? p->ppn : 0;
	}
}

int ml_coll_han_takes(const struct ml_collective_params *p)
{
	struct geo g;

	if (p->library != ML_COLL_OPENMPI)
		return 0;
	geo_of(p, &g);
	return g.nodes >= 2 && g.per >= 2;
}

/* The world rank of node n's local rank j. */
static long long world(const struct coll_alg *a, long long n, long long j)
{
	return a->han.by_node ? j * a->han.nodes + n : n * a->han.per + j;
}

static long long node_of(const struct coll_alg *a, long long r)
{
	return a->han.by_node ? r % a->han.nodes : r / a->han.per;
}

static long long local_of(const struct coll_alg *a, long long r)
{
	return a->han.by_node ? r / a->han.nodes : r % a->han.per;
}

/* Bytes of segment i. */
static long long seg_bytes(const struct coll_alg *a, long long i)
{
	return i == a->han.nseg - 1 ? a->msg - i * a->han.seg : a->han.seg;
}

/* Tuned's fixed decision for bytes on n ranks rooted at root, as the
 * sub-communicator's own tuned module runs it. */
static void sub_alg(const struct coll_alg *a, long long n, long long bytes,
		    long long root, struct coll_alg *sub)
{
	struct ml_collective_params q;

	memset(&q, 0, sizeof q);
	q.library = ML_COLL_OPENMPI;
	q.ranks = n;
	q.msg = bytes;
	q.algorithm = ml_collective_ompi_decide(n, bytes);
	q.radix = a->han.radix;
	q.root = root;
	ml_coll_tuned_setup(&q, sub);
}

enum ml_status ml_coll_han_setup(const struct ml_collective_params *p,
				 struct coll_alg *a)
{
	struct ml_collective_params q;
	struct geo g;
	long long M = p->msg;

	if (!ml_coll_han_takes(p)) {
		/* han hands the broadcast to tuned on the whole
		 * communicator: the fixed decision. */
		q = *p;
		q.algorithm = ml_collective_ompi_decide(p->ranks, p->msg);
		q.segment = 0;
		q.fanout = 0;
		return ml_coll_tuned_setup(&q, a);
	}
	geo_of(p, &g);
	memset(a, 0, sizeof *a);
	a->library = ML_COLL_OPENMPI;
	a->composition = ML_COLL_COMP_NONE;
	a->alg = ML_COLL_HAN;
	a->ranks = p->ranks;
	a->msg = M;
	a->root = p->root;
	a->han.nodes = g.nodes;
	a->han.per = g.per;
	a->han.by_node = g.by_node;
	a->han.radix = p->radix;
	a->han.simple = p->han_simple;
	a->han.seg = !p->han_simple && p->han_segment >= 1 &&
			     p->han_segment < M
			 ? p->han_segment
			 : M;
	a->han.nseg = (M + a->han.seg - 1) / a->han.seg;
	if (a->han.nseg > HAN_MAX_SEG)
		return ML_EINVAL;
	a->segcount = a->han.seg;
	a->nseg = a->han.nseg;
	return ML_OK;
}

/* a + b and a * b, saturated at LLONG_MAX (both >= 0). */
static long long add_sat(long long a, long long b)
{
	return a > LLONG_MAX - b ? LLONG_MAX : a + b;
}

static long long mul_sat(long long a, long long b)
{
	return b != 0 && a > LLONG_MAX / b ? LLONG_MAX : a * b;
}

/* t0 (or the simple up bcast), S - 1 ibcasts of N - 1 messages, and on
 * each node S - 1 full low bcasts and the last one. */
long long ml_coll_han_messages_bound(const struct coll_alg *a)
{
	struct coll_alg up, low, last;
	long long N = a->han.nodes, S = a->han.nseg, b;

	sub_alg(a, N, seg_bytes(a, 0), 0, &up);
	sub_alg(a, a->han.per, seg_bytes(a, 0), 0, &low);
	sub_alg(a, a->han.per, seg_bytes(a, S - 1), 0, &last);
	b = add_sat(mul_sat(S - 1, ml_coll_tuned_messages_bound(&low)),
		    ml_coll_tuned_messages_bound(&last));
	return add_sat(add_sat(ml_coll_tuned_messages_bound(&up),
			       mul_sat(S - 1, N - 1)),
		       mul_sat(N, b));
}

void ml_coll_han_parts(const struct coll_alg *a, enum ml_coll_alg *up,
		       enum ml_coll_alg *low, enum ml_coll_alg *last)
{
	long long S = a->han.nseg;
	struct coll_alg x;

	/* what runs, after tuned's fall-backs (a scatter below a byte a
	 * rank runs linear) */
	sub_alg(a, a->han.nodes, a->han.simple ? a->msg : seg_bytes(a, 0), 0,
		&x);
	*up = x.alg;
	sub_alg(a, a->han.per, seg_bytes(a, 0), 0, &x);
	*low = x.alg;
	sub_alg(a, a->han.per, seg_bytes(a, S - 1), 0, &x);
	*last = x.alg;
}

/* libnbc's virtual rank (RANK2VRANK, its own inverse): the root and 0
 * swap places. */
static long long nbc_swap(long long r, long long root)
{
	return r == 0 ? root : r == root ? 0 : r;
}

/* libnbc's binomial (bcast_sched_binomial): the parent of virtual rank
 * v > 0 is v without its highest bit; its children v + 2^k for 2^k > v,
 * increasing k, below n.  c-th child's virtual rank, or -1. */
static long long nbc_kid(long long n, long long v, long long c)
{
	long long m = 1;

	while (m <= v)
		m <<= 1;
	for (; v + m < n; m <<= 1)
		if (c-- == 0)
			return v + m;
	return -1;
}

static long long nbc_parent(long long v)
{
	long long m = 1;

	while (m <= v / 2)
		m <<= 1;
	return v - m;
}

/* Run the tuned program *sub as rank sr of a sub-communicator: its
 * next operation in *op, its peer a world rank (node n's ranks for
 * low, up: local rank j's across the nodes). */
static void sub_next(const struct coll_alg *a, const struct coll_alg *sub,
		     long long sr, int low, long long n, long long j,
		     long long seg, struct coll_prog *s, struct coll_op *op)
{
	ml_coll_tuned_next(sub, sr, s, op);
	if (op->code == OP_ISEND || op->code == OP_IRECV)
		op->peer = low ? world(a, n, op->peer) : world(a, op->peer, j);
	op->segment = seg;
}

static void set_op(struct coll_op *op, enum coll_opcode c, long long peer,
		   long long bytes, long long seg)
{
	op->code = c;
	op->peer = peer;
	op->bytes = bytes;
	op->segment = seg;
}

/* A fresh start for the next tuned program, han's place kept. */
static void sub_reset(struct coll_prog *s)
{
	int hpc = s->hpc;
	long long last = s->last_recv;

	memset(s, 0, sizeof *s);
	s->hpc = hpc;
	s->last_recv = last;
}

/* Does the low root post all its sends, then wait (interleave)?  Does
 * it receive (post the ibcast's receive late)? */
static int low_posts_then_waits(const struct coll_alg *low)
{
	return low->alg != ML_COLL_SPLIT_BINARY &&
	       low->alg != ML_COLL_SCATTER_ALLGATHER &&
	       low->alg != ML_COLL_SCATTER_ALLGATHER_RING;
}

static int low_root_receives(const struct coll_alg *low)
{
	return low->alg == ML_COLL_SCATTER_ALLGATHER ||
	       low->alg == ML_COLL_SCATTER_ALLGATHER_RING;
}

void ml_coll_han_next(const struct coll_alg *a, long long r,
		      struct coll_prog *s, struct coll_op *op)
{
	long long N = a->han.nodes, n = node_of(a, r), j = local_of(a, r);
	long long nr = node_of(a, a->root), jr = local_of(a, a->root);
	long long S = a->han.nseg, i = HSEG(s), v, peer;
	int up = j == jr, linear = N <= 4, fwd;
	struct coll_alg sub;

	/* libnbc's virtual rank of this node on up */
	v = nbc_swap(n, nr);
	for (;;) {
		switch (HPH(s)) {
		case PH_START:
			sub_reset(s);
			s->hpc = HPC(0, up ? PH_UP0 : PH_LOW);
			continue;
		case PH_UP0:
			sub_alg(a, N, a->han.simple ? a->msg : seg_bytes(a, 0),
				nr, &sub);
			sub_next(a, &sub, n, 0, n, jr, 0, s, op);
			if (op->code != OP_END)
				return;
			sub_reset(s);
			s->hpc = HPC(0, a->han.simple || S == 1 ? PH_LOW
							       : PH_POST);
			continue;
		case PH_POST:
			/* the ibcast of segment i + 1 (i + 1 < S, up only) */
			if (n == nr) {
				/* root: every send at once */
				peer = linear
					   ? s->i + (s->i >= nr)
					   : nbc_kid(N, 0, s->i);
				if (peer >= 0 && peer < N) {
					s->i++;
					set_op(op, OP_ISEND,
					       world(a, linear ? peer
							       : nbc_swap(peer, nr),
						     jr),
					       seg_bytes(a, i + 1), i + 1);
					return;
				}
			} else {
				sub_alg(a, a->han.per, seg_bytes(a, i), jr,
					&sub);
				if (!low_root_receives(&sub) && s->i == 0) {
					s->i = 1;
					peer = linear ? nr
						      : nbc_swap(nbc_parent(v), nr);
					set_op(op, OP_IRECV, world(a, peer, jr),
					       0, i + 1);
					return;
				}
			}
			sub_reset(s);
			s->hpc = HPC(i, PH_LOW);
			continue;
		case PH_LOW:
			sub_alg(a, a->han.per,
				a->han.simple ? a->msg : seg_bytes(a, i), jr,
				&sub);
			sub_next(a, &sub, j, 1, n, jr, i, s, op);
			fwd = up && !a->han.simple && i + 1 < S && n != nr &&
			      !linear && nbc_kid(N, v, 0) >= 0 &&
			      low_posts_then_waits(&sub);
			if (fwd && op->code == OP_WAIT_SENDS) {
				/* the forwards go out as the segment comes
				 * in, while the low root waits */
				s->mask2 = 0;
				s->hpc = HPC(i, PH_FWD);
				set_op(op, OP_WAIT_RECV, 0, 0, i + 1);
				return;
			}
			if (op->code != OP_END)
				return;
			sub_reset(s);
			s->hpc = HPC(i, up && !a->han.simple && i + 1 < S
					    ? PH_FIN
					    : PH_NEXT);
			s->i = fwd; /* the forwards are done */
			continue;
		case PH_FWD:
			peer = nbc_kid(N, v, s->mask2);
			if (peer >= 0) {
				s->mask2++;
				set_op(op, OP_ISEND, world(a, nbc_swap(peer, nr), jr),
				       seg_bytes(a, i + 1), i + 1);
				return;
			}
			/* the low root's own wait, then the rest of it */
			s->mask2 = 0;
			s->hpc = HPC(i, PH_LOW);
			set_op(op, OP_WAIT_SENDS, 0, 0, i);
			return;
		case PH_FIN:
			/* s->i: 1 once forwarded; s->j counts steps here,
			 * -1 once done */
			if (s->j < 0) {
				/* done */
			} else if (n == nr) {
				if (s->j++ == 0) {
					set_op(op, OP_WAIT_SENDS, 0, 0, i + 1);
					return;
				}
			} else if (!s->i) {
				sub_alg(a, a->han.per, seg_bytes(a, i), jr,
					&sub);
				if (low_root_receives(&sub) && s->j == 0) {
					s->j = 1;
					peer = linear ? nr
						      : nbc_swap(nbc_parent(v), nr);
					set_op(op, OP_IRECV, world(a, peer, jr),
					       0, i + 1);
					return;
				}
				if (s->j <= 1) {
					s->j = 2;
					set_op(op, OP_WAIT_RECV, 0, 0, i + 1);
					return;
				}
				peer = linear ? -1 : nbc_kid(N, v, s->j - 2);
				if (peer >= 0) {
					s->j++;
					set_op(op, OP_ISEND,
					       world(a, nbc_swap(peer, nr), jr),
					       seg_bytes(a, i + 1), i + 1);
					return;
				}
				if (s->j > 2) {
					s->j = -1;
					set_op(op, OP_WAIT_SENDS, 0, 0, i + 1);
					return;
				}
			}
			sub_reset(s);
			s->hpc = HPC(i, PH_NEXT);
			continue;
		case PH_NEXT:
			if (a->han.simple || i + 1 >= S) {
				s->hpc = HPC(i, PH_DONE);
				continue;
			}
			sub_reset(s);
			i++;
			s->hpc = HPC(i, up && i + 1 < S ? PH_POST : PH_LOW);
			continue;
		default:
			set_op(op, OP_END, 0, 0, 0);
			return;
		}
	}
}
