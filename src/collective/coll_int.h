/*
 * coll_int.h - the inside of the collective model (SPEC 10): Open MPI's
 * trees (trees.c), each algorithm as a program every rank runs
 * (programs.c), and the event-driven machine that runs them (engine.c).
 * Not installed; the interface is include/mcastlat/collective.h.
 */
#ifndef MCASTLAT_COLL_INT_H
#define MCASTLAT_COLL_INT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "mcastlat/collective.h"

/* ------------------------------------------------------------------ */
/* Trees (coll_base_topo.c), in virtual ranks v = rank - root mod P.   */

struct coll_tree {
	enum ml_coll_alg kind; /* BINARY, BINOMIAL, KNOMIAL, CHAIN, PIPELINE */
	long long ranks;
	long long radix;      /* KNOMIAL */
	long long chains;     /* CHAIN: fanout after Open MPI's caps */
	long long chain_len;  /* CHAIN: maxchainlen */
	long long chain_mark; /* CHAIN: chains before mark are maxchainlen */
};

/* Set up *t; arg is the radix (KNOMIAL) or the fanout (CHAIN; 0 -> 1,
 * capped at P - 1 as build_chain does).  Returns -1 for a bad kind. */
int ml_coll_tree_init(struct coll_tree *t, enum ml_coll_alg kind,
		      long long ranks, long long arg);
long long ml_coll_tree_parent(const struct coll_tree *t, long long v);
int ml_coll_tree_nkids(const struct coll_tree *t, long long v);
/* The c-th child (0-based, sending order) of v; c < ml_coll_tree_nkids. */
long long ml_coll_tree_kid(const struct coll_tree *t, long long v, int c);

/* ------------------------------------------------------------------ */
/* Programs: what one rank does, one operation at a time.              */

enum coll_opcode {
	OP_END,	       /* the rank leaves the algorithm */
	OP_ISEND,      /* post a send of bytes to peer */
	OP_IRECV,      /* post a receive from peer */
	OP_WAIT_SENDS, /* wait until every send posted so far completes */
	OP_WAIT_RECV,  /* wait for the oldest receive still open */
	OP_WAIT_BOTH   /* both of the above (a blocking sendrecv's end) */
};

struct coll_op {
	enum coll_opcode code;
	long long peer;
	long long bytes;
	long long segment;
};

/* A rank's place in its program (a coroutine: pc is where to resume;
 * hpc han's own place around the tuned and libnbc programs it runs,
 * han.c). */
struct coll_prog {
	int pc;
	int hpc;
	long long i, j;	       /* loop counters */
	long long cnt, cnt2;   /* Open MPI's curr_count, recv_count, ... */
	long long mask, mask2; /* scatter-allgather's masks */
	long long last_recv;   /* bytes of the receive last waited for */
};

/* Everything an algorithm's programs need, fixed for one evaluation. */
struct coll_alg {
	enum ml_coll_alg alg; /* after the fall-backs */
	long long ranks, msg;
	struct coll_tree tree; /* tree algorithms */
	long long segcount;    /* bytes per segment (generic engine) */
	long long nseg;	       /* segments (generic engine) */
	long long half[2];     /* split-binary: the halves' bytes */
	long long hseg;	       /* split-binary: bytes per segment */
	long long hnseg[2];    /* split-binary: segments per half */
	long long sc;	       /* scatter-allgather: block bytes */
	/* MPICH (mpich_programs.c); library ML_COLL_OPENMPI for the rest. */
	enum ml_coll_library library;
	enum ml_coll_alg whole; /* run on the whole communicator, or
				 * ML_COLL_DEFAULT: on the node-roots
				 * communicator, then on each node's */
	enum ml_coll_map map_by;
	long long ppn, nodes; /* cores per node, nodes allocated */
	long long nodes_used; /* nodes that hold a rank */
	enum ml_coll_composition composition;
	long long root_node, root_local; /* the root's node, its index there */
	int root_node_first; /* beta, smp's middle branch: a root that is not
			      * its node's first rank broadcasts on its node
			      * first (else alpha's: it hands the message to
			      * that rank, and gets it back) */
	/* Open MPI: the root (programs run in virtual ranks, rank - root
	 * mod P, ml_coll_prog_next rotating their peers back), and han's
	 * geometry (han.c; alg ML_COLL_HAN only). */
	long long root;
	struct coll_han_geo {
		long long nodes, per;  /* nodes holding ranks, ranks a node */
		long long seg, nseg;   /* segment bytes, segments */
		long long radix;       /* the tuned knomial's radix */
		int simple;	       /* coll_han_use_simple_bcast */
		int by_node;	       /* --map-by node: node r mod nodes */
	} han;
};

/* Resolve the fall-backs and segmentation of the library's code for
 * *p into *a (dispatch.c: MPICH's, han's or tuned's).  Returns ML_OK or
 * ML_EINVAL. */
enum ml_status ml_coll_alg_setup(const struct ml_collective_params *p,
				 struct coll_alg *a);

/* An upper bound on the messages *a sends (for the domain check). */
long long ml_coll_alg_messages_bound(const struct coll_alg *a);

/* The same for Open MPI's tuned algorithms alone (programs.c). */
enum ml_status ml_coll_tuned_setup(const struct ml_collective_params *p,
				   struct coll_alg *a);
long long ml_coll_tuned_messages_bound(const struct coll_alg *a);

/*
 * The next operation of rank v (a real rank: Open MPI's programs rotate
 * by the root themselves).  A
 * program must be a function of (a, v, *s) alone, s starting zeroed and
 * last_recv set only by the engine: the engine keeps no state for a
 * rank blocked in its first receive (an IRECV then its WAIT_RECV or
 * WAIT_BOTH) and replays those two operations from a zeroed *s when it
 * needs the rank again (engine.c, issue 36).
 */
void ml_coll_prog_next(const struct coll_alg *a, long long v,
		       struct coll_prog *s, struct coll_op *op);

/* MPICH 4.0.2 (mpich_programs.c): the same for p->library ML_COLL_MPICH;
 * ml_coll_alg_setup and ml_coll_prog_next hand MPICH's algorithms to
 * these.  MPICH's programs take and give real ranks (any root: they
 * rotate by it themselves, on each communicator they run on). */
enum ml_status ml_coll_mpich_setup(const struct ml_collective_params *p,
				   struct coll_alg *a);
long long ml_coll_mpich_messages_bound(const struct coll_alg *a);
void ml_coll_mpich_next(const struct coll_alg *a, long long v,
			struct coll_prog *s, struct coll_op *op);
/* The MPIR algorithms run on the node-roots communicator and on the node
 * communicators of the first and last node (0 where none runs). */
void ml_coll_mpich_parts(const struct coll_alg *a, enum ml_coll_alg *roots,
			 enum ml_coll_alg *first, enum ml_coll_alg *last);

/* coll/han (han.c): its setup into *a (ML_OK, or ML_EINVAL), whether
 * it takes the broadcast of *p (else tuned's fixed decision runs on the
 * whole communicator), its messages' bound and its programs. */
int ml_coll_han_takes(const struct ml_collective_params *p);
enum ml_status ml_coll_han_setup(const struct ml_collective_params *p,
				 struct coll_alg *a);
long long ml_coll_han_messages_bound(const struct coll_alg *a);
void ml_coll_han_next(const struct coll_alg *a, long long r,
		      struct coll_prog *s, struct coll_op *op);
/* The tuned algorithms han runs: across the nodes (segment 0, or the
 * whole message), on a node for a full segment and for the last. */
void ml_coll_han_parts(const struct coll_alg *a, enum ml_coll_alg *up,
		       enum ml_coll_alg *low, enum ml_coll_alg *last);

/* Open MPI's tuned programs for rank r of a->ranks, root a->root (the
 * programs run in virtual ranks, their peers rotated back), for
 * ml_coll_prog_next and han's sub-communicators. */
void ml_coll_tuned_next(const struct coll_alg *a, long long r,
			struct coll_prog *s, struct coll_op *op);

/* ------------------------------------------------------------------ */
/* The engine.                                                         */

/* Run *a on the machine *p; fn (may be NULL) sees every message.
 * ML_OK, ML_ENOMEM, ML_EINVAL (fn stopped it), ML_DEADLOCK,
 * ML_OVERFLOW. */
enum ml_status ml_coll_engine_run(const struct ml_collective_params *p,
				  const struct coll_alg *a, ml_coll_msg_fn fn,
				  void *arg, struct ml_collective_result *r);

struct coll_ws;

/* Barriers (barrier.c): coll_alg.alg COLL_BARRIER_PROG + b runs barrier
 * b's program, on zero-byte messages. */
#define COLL_BARRIER_PROG 64
void ml_coll_barrier_next(const struct coll_alg *a, long long v,
			  struct coll_prog *s, struct coll_op *op);
/* The broadcast *a as osu_bcast measures it after p->barrier (osu.c):
 * ml_coll_engine_run_ws's contract. */
enum ml_status ml_coll_osu_run(struct coll_ws *ws,
			       const struct ml_collective_params *p,
			       const struct coll_alg *a, ml_coll_msg_fn fn,
			       void *arg, struct ml_collective_result *r);
/* The barrier *p's times start from: OMPI_TREE resolved at p->ranks,
 * none for MPICH (NONE: every rank starts at 0). */
static inline enum ml_coll_barrier
ml_coll_barrier_of(const struct ml_collective_params *p)
{
	if (p->barrier != ML_COLL_BARRIER_OMPI_TREE)
		return p->barrier;
	if (p->library != ML_COLL_OPENMPI)
		return ML_COLL_BARRIER_NONE;
	return ml_collective_barrier_decide(p->ranks) == ML_COLL_BARRIER_TREE
		   ? ML_COLL_BARRIER_TREE
		   : ML_COLL_BARRIER_NONE;
}

/* Barrier b's exit times of the P ranks of a valid *p into x, every
 * rank entering at 0, in ws (osu.c); OMPI and OMPI_TREE resolved at P
 * (NONE: every exit 0). */
enum ml_status ml_coll_barrier_exits_ws(struct coll_ws *ws,
					const struct ml_collective_params *p,
					enum ml_coll_barrier b, double *x);

/* Every rank's leaving time of the last run in ws (valid after a run
 * with a message function: the fast paths keep none). */
const double *ml_coll_ws_times(const struct coll_ws *ws);

/* ml_collective_schedule in the workspace ws (models/collective.c). */
enum ml_status ml_coll_eval_ws(struct coll_ws *ws,
			       const struct ml_collective_params *p,
			       ml_coll_msg_fn fn, void *arg,
			       struct ml_collective_result *r);

/* A lower bound on the latency (the last rank's time, not the mean) of
 * algorithm a on the machine of *p, or 0 (models/collective.c): a best
 * need not run an algorithm whose bound is no better than the
 * runner-up so far. */
double ml_coll_lower_bound(const struct ml_collective_params *p,
			   enum ml_coll_alg a);

/* The engine's memory, for a caller that runs it many times (best's
 * nine algorithms): one workspace per thread, its buffers kept and
 * grown from run to run.  ml_coll_ws_new returns NULL when out of
 * memory. */
struct coll_ws *ml_coll_ws_new(void);
void ml_coll_ws_free(struct coll_ws *ws);
enum ml_status ml_coll_engine_run_ws(struct coll_ws *ws,
				     const struct ml_collective_params *p,
				     const struct coll_alg *a,
				     ml_coll_msg_fn fn, void *arg,
				     struct ml_collective_result *r);

/*
 * The result of a run from the ranks' times, shared by the engine and
 * its recurrences (ring.c, once.c) so that they agree to the bit: add
 * each rank's time in rank order, then ml_coll_times_result fills *res
 * (latency the largest, latency_avg the mean, latency_min the least)
 * and returns ML_OVERFLOW where a sum or the largest is not finite.
 */
struct coll_times {
	double sum, max, min;
};

static inline void ml_coll_times_init(struct coll_times *s)
{
	s->sum = 0;
	s->max = -INFINITY;
	s->min = INFINITY;
}

static inline void ml_coll_times_add(struct coll_times *s, double t)
{
	s->sum += t;
	s->max = t > s->max ? t : s->max;
	s->min = t < s->min ? t : s->min;
}

static inline enum ml_status
ml_coll_times_result(const struct coll_times *s, const struct coll_alg *a,
		     long long messages, struct ml_collective_result *res)
{
	res->latency = s->max;
	res->latency_avg = s->sum / (double)a->ranks;
	res->latency_min = s->min;
	res->messages = messages;
	res->ran = a->alg;
	res->segments = a->alg == ML_COLL_SPLIT_BINARY ? a->hnseg[0] : a->nseg;
	if (!isfinite(s->max) || !isfinite(s->sum))
		return ML_OVERFLOW;
	return ML_OK;
}

/*
 * Open MPI's scatter-allgather ring timed by a recurrence instead of
 * the event queue (ring.c), to the same bits as ml_coll_engine_run.
 * ml_coll_ring_fits says where it is worth trying: each NIC carrying
 * one pair of the ring (a rank a node, or the ranks of a node
 * contiguous).  buf holds ml_coll_ring_size(p) bytes.  ml_coll_ring_run
 * returns 1 with *res set as the engine sets it, or 0 where the
 * recurrence does not apply (not the ring, an order it cannot vouch
 * for, a time past the finite): then run the engine.
 */
int ml_coll_ring_fits(const struct ml_collective_params *p,
		      const struct coll_alg *a);
size_t ml_coll_ring_size(const struct ml_collective_params *p);
int ml_coll_ring_run(const struct ml_collective_params *p,
		     const struct coll_alg *a, void *buf,
		     struct ml_collective_result *res);

/*
 * Open MPI's unsegmented trees and linear with one rank a node, timed
 * by a recurrence (once.c), to the same bits as ml_coll_engine_run.  t
 * holds P doubles.  Returns 1 with *res set as the engine sets it, or 0
 * where the recurrence does not apply (not ml_coll_once_fits, a time
 * past the finite): then run the engine.
 */
int ml_coll_once_fits(const struct ml_collective_params *p,
		      const struct coll_alg *a);
int ml_coll_once_run(const struct ml_collective_params *p,
		     const struct coll_alg *a, double *t,
		     struct ml_collective_result *res);

/* Placement (place.c).  Node and socket (within its node) of rank r. */
void ml_coll_place_one(const struct ml_collective_params *p, long long nodes,
		       long long r, long long *node, long long *socket);
long long ml_coll_nodes(const struct ml_collective_params *p);
long long ml_coll_rr_numa(const struct ml_collective_params *p);

/*
 * The channel between two ranks, computed rather than stored (a table
 * of 2^24 ranks' nodes and sockets would be most of the engine's
 * memory): each division of place.c is a multiply and a shift by a
 * constant set up once per machine.
 */
struct coll_div {
	uint64_t m;
	unsigned k;
	uint32_t d;
};

struct coll_place {
	enum ml_coll_map map;
	int single; /* ppn 1: a node per rank */
	struct coll_div ppn, sockets, per, nodes;
	int rr;			/* --map-by node dealt over NUMA domains */
	struct coll_div numa, sd; /* D, and S D domains a node */
};

void ml_coll_place_init(const struct ml_collective_params *p,
			struct coll_place *pl);

static inline uint32_t ml_coll_div(const struct coll_div *v, uint32_t n)
{
	return (uint32_t)((n * v->m) >> v->k);
}

/* G_c of a message of b bytes on channel c: an eager one (b <= the
 * eager limit) also pays E_c, the copy through a bounce buffer that a
 * rendezvous message does without (eager_byte). */
static inline double ml_coll_gbyte(const struct ml_collective_params *p,
				   enum ml_coll_channel c, long long b)
{
	return b <= p->eager ? p->byte[c] + p->ebyte[c] : p->byte[c];
}

/* Rank r's node, as ml_coll_place_one. */
static inline uint32_t ml_coll_node_of(const struct coll_place *pl, uint32_t r)
{
	if (pl->single)
		return r;
	if (pl->map == ML_COLL_MAP_NODE)
		return r - ml_coll_div(&pl->nodes, r) * pl->nodes.d;
	return ml_coll_div(&pl->ppn, r);
}

/* The channel between ranks a and b, as ml_coll_place_one places them
 * (sockets compared within the node). */
static inline enum ml_coll_channel
ml_coll_channel_of(const struct coll_place *pl, uint32_t a, uint32_t b)
{
	uint32_t na, nb, ra, rb;

	if (a == b)
		return ML_COLL_SOCKET;
	if (pl->single)
		return ML_COLL_NET;
	if (pl->map == ML_COLL_MAP_NODE) {
		na = a - ml_coll_div(&pl->nodes, a) * pl->nodes.d;
		nb = b - ml_coll_div(&pl->nodes, b) * pl->nodes.d;
		if (na != nb)
			return ML_COLL_NET;
		ra = ml_coll_div(&pl->nodes, a);
		rb = ml_coll_div(&pl->nodes, b);
		if (pl->rr) {
			ra = ml_coll_div(&pl->numa,
					 ra - ml_coll_div(&pl->sd, ra) * pl->sd.d);
			rb = ml_coll_div(&pl->numa,
					 rb - ml_coll_div(&pl->sd, rb) * pl->sd.d);
		} else {
			ra = ml_coll_div(&pl->per, ra);
			rb = ml_coll_div(&pl->per, rb);
		}
		return ra != rb ? ML_COLL_NODE : ML_COLL_SOCKET;
	}
	na = ml_coll_div(&pl->ppn, a);
	nb = ml_coll_div(&pl->ppn, b);
	if (na != nb)
		return ML_COLL_NET;
	ra = a - na * pl->ppn.d;
	rb = b - nb * pl->ppn.d;
	if (pl->map == ML_COLL_MAP_SOCKET) {
		ra -= ml_coll_div(&pl->sockets, ra) * pl->sockets.d;
		rb -= ml_coll_div(&pl->sockets, rb) * pl->sockets.d;
	} else {
		ra = ml_coll_div(&pl->per, ra);
		rb = ml_coll_div(&pl->per, rb);
	}
	return ra != rb ? ML_COLL_NODE : ML_COLL_SOCKET;
}

#endif
