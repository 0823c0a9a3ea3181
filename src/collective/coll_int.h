/*
 * coll_int.h - the inside of the collective model (SPEC 10): Open MPI's
 * trees (trees.c), each algorithm as a program every rank runs
 * (programs.c), and the event-driven machine that runs them (engine.c).
 * Not installed; the interface is include/mcastlat/collective.h.
 */
#ifndef MCASTLAT_COLL_INT_H
#define MCASTLAT_COLL_INT_H

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

/* A rank's place in its program (a coroutine: pc is where to resume). */
struct coll_prog {
	int pc;
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
	long long ppn, nodes;	/* cores per node, nodes allocated */
	long long nodes_used;	/* nodes that hold a rank */
	enum ml_coll_composition composition;
};

/* Resolve the fall-backs and segmentation of Open MPI's code for *p
 * into *a.  Returns ML_OK or ML_EINVAL. */
enum ml_status ml_coll_alg_setup(const struct ml_collective_params *p,
				 struct coll_alg *a);

/* An upper bound on the messages *a sends (for the domain check). */
long long ml_coll_alg_messages_bound(const struct coll_alg *a);

/* The next operation of rank v (root 0: ranks are virtual ranks). */
void ml_coll_prog_next(const struct coll_alg *a, long long v,
		       struct coll_prog *s, struct coll_op *op);

/* MPICH 4.0.2 (mpich_programs.c): the same for p->library ML_COLL_MPICH;
 * ml_coll_alg_setup and ml_coll_prog_next hand MPICH's algorithms to
 * these. */
enum ml_status ml_coll_mpich_setup(const struct ml_collective_params *p,
				   struct coll_alg *a);
long long ml_coll_mpich_messages_bound(const struct coll_alg *a);
void ml_coll_mpich_next(const struct coll_alg *a, long long v,
			struct coll_prog *s, struct coll_op *op);
/* The MPIR algorithms run on the node-roots communicator and on the node
 * communicators of the first and last node (0 where none runs). */
void ml_coll_mpich_parts(const struct coll_alg *a, enum ml_coll_alg *roots,
			 enum ml_coll_alg *first, enum ml_coll_alg *last);

/* ------------------------------------------------------------------ */
/* The engine.                                                         */

/* Run *a on the machine *p; fn (may be NULL) sees every message. */
enum ml_status ml_coll_engine_run(const struct ml_collective_params *p,
				  const struct coll_alg *a, ml_coll_msg_fn fn,
				  void *arg, struct ml_collective_result *r);

/* Placement (place.c).  Node and socket (within its node) of rank r. */
void ml_coll_place_one(const struct ml_collective_params *p, long long nodes,
		       long long r, long long *node, long long *socket);
/* Node and socket of every rank: node[r] and sock[r] (socket index
 * unique over the machine: node * sockets + socket). */
void ml_coll_place_all(const struct ml_collective_params *p, long long nodes,
		       uint32_t *node, uint32_t *sock);
long long ml_coll_nodes(const struct ml_collective_params *p);

#endif
