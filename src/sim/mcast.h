/*
 * mcast.h - the pure parts of the hardware multicast mechanisms of SPEC
 * section 8 (notes/multicast_mechanisms.md): Dual-Path's Hamiltonian
 * labelling, its routing function and destination split (path.c), the PM
 * reconstruction as a routing function returning the permitted outputs
 * (path.c), and the worm layouts of the path and tree mechanisms.
 *
 * Internal to the simulator (src/sim); no state, no allocation, so the
 * router calls these from its hot loop and the tests check them alone.
 * The end of the file declares the router side: the per-input worm
 * state and what the mechanisms share (mcnet.c), and the table of hooks
 * through which router.c drives a mechanism (struct ml_mc_ops: tree.c's
 * ml_mc_tree, path.c's ml_mc_path), as it drives routing through
 * route.c's candidates: sim.c picks the table, router.c calls it, and a
 * mechanism reports back only through return values.
 *
 * Coordinates: a 2-D mesh of w columns by h rows, node id = x + w * y
 * (dimension 0 varies fastest, as in the engine).  Directions are output
 * ports numbered 2 * dimension + (1 when negative): ML_MC_XP = +x, ...,
 * the engine's numbering of the network ports of a mesh router.
 */
#ifndef MCASTLAT_SIM_MCAST_H
#define MCASTLAT_SIM_MCAST_H

#include <stddef.h>
#include <stdint.h>

#include "sim/simint.h"

enum ml_mc_dir {
	ML_MC_XP = 0, /* +x, east */
	ML_MC_XM = 1, /* -x, west */
	ML_MC_YP = 2, /* +y, north */
	ML_MC_YM = 3, /* -y, south */
	ML_MC_NDIR = 4,
	ML_MC_NONE = -1 /* arrived from the injection channel / no output */
};

/* Bit masks of directions, as returned by ml_pm_route(). */
#define ML_MC_BIT(d) (1u << (unsigned)(d))

/* ---- Dual-Path (Lin & Ni; notes section 1) ---------------------------- */

/* L(x, y): the boustrophedon label, row 0 west to east, row 1 back. */
unsigned ml_dp_label(unsigned w, unsigned node);

/* The node with label l (inverse of ml_dp_label). */
unsigned ml_dp_node(unsigned w, unsigned l);

/* R(u, v) for u != v: the direction of the neighbour of u with the largest
 * label <= L(v) when L(u) < L(v) (high network), the smallest label >=
 * L(v) otherwise (low network).  ML_MC_NONE when u == v. */
int ml_dp_route(unsigned w, unsigned h, unsigned u, unsigned v);

/* Whether the channel from u in direction dir belongs to the high-channel
 * network (the label increases along it). */
int ml_dp_is_high(unsigned w, unsigned h, unsigned u, int dir);

/* Split dests[0..n-1] (distinct, none equal to src) into the high worm's
 * destinations, ascending labels, and the low worm's, descending labels.
 * high[] and low[] need room for n each; *nh + *nl = n. */
void ml_dp_split(unsigned w, unsigned src, const unsigned *dests, size_t n,
		 unsigned *high, size_t *nh, unsigned *low, size_t *nl);

/* ---- PM (reconstruction, notes section 2) ----------------------------- */

/* Sort dests[0..n-1] in place by (x ascending, y ascending): the order in
 * which the single PM worm visits them. */
void ml_pm_sort(unsigned w, unsigned *dests, size_t n);

/*
 * The outputs PM permits at node u for a worm heading to v (u != v), as a
 * mask of ML_MC_BIT(dir).  leg0: the worm has not yet reached its first
 * (west-most) destination, so it follows XY deterministically.  Otherwise
 * only minimal +x, +y, -y moves, and -y is forbidden when the worm
 * arrived moving +y (arrived: the direction it moved to reach u, or
 * ML_MC_NONE at the source).  Never empty for a worm built by
 * ml_pm_sort (see path.c); 0 when u == v.
 */
unsigned ml_pm_route(unsigned w, unsigned u, unsigned v, int leg0, int arrived);

/* ---- Worm layouts ------------------------------------------------------ */

/* One flit of a worm as the source writes it: an address (dest = node) or
 * data flit number dest = 0 .. D-1. */
enum ml_mc_flit_kind { ML_MC_ADDR, ML_MC_DATA };
struct ml_mc_flit {
	enum ml_mc_flit_kind kind;
	unsigned dest; /* the address, or the data flit's index */
};

/* Tree worm [d_1, data_1 .. data_D, d_2 .. d_n] (004 Figure 1) into
 * out[0 .. n + D - 1]; returns the number of flits, n + D. */
size_t ml_tree_layout(const unsigned *dests, size_t n, unsigned data,
		      struct ml_mc_flit *out);

/* Path worm [a_1 .. a_n][data_1 .. data_D] (addresses in visiting order)
 * into out[0 .. n + D - 1]; returns n + D. */
size_t ml_path_layout(const unsigned *dests, size_t n, unsigned data,
		      struct ml_mc_flit *out);

/* ---- Router side (mcnet.c; tree.c, path.c through their hooks) -------- */

/*
 * A hardware multicast mechanism as the router drives it: tree.c's
 * ml_mc_tree (tree-based multicast with pruning), path.c's ml_mc_path
 * (Dual-Path and PM path worms).  sim.c picks one for --multicast and
 * hands it to ml_mc_init; router.c calls it through s->mc->ops.
 */
struct ml_mc_ops {
	/* Routing unit, for input VC id of node: -1 when the head is not
	 * this mechanism's worm (the engine routes it), else 1 for a
	 * successful decision, 0 for none. */
	int (*route)(struct sim *s, unsigned node, uint32_t id);
	/* Switch stage of an input VC holding a worm (ivc.mc set). */
	void (*sw)(struct sim *s, unsigned node, uint32_t id);
	/* Start of every cycle, before the routers, or NULL. */
	void (*cycle)(struct sim *s);
};

extern const struct ml_mc_ops ml_mc_tree, ml_mc_path;

/* Per input VC state of a hardware multicast worm (ivc.mc != IVM_NONE). */
struct mcin {
	uint32_t msg;	  /* the worm's message (replayed data flits) */
	uint32_t loc;	  /* path: local delivery output VC, SIM_NONE */
	uint32_t onw;	  /* path: onward output VC, SIM_NONE */
	uint32_t cur;	  /* tree: branch of the opening address (data) */
	uint32_t rout;	  /* tree: branch being replayed on */
	uint32_t out1;	  /* tree: decision for the second flit */
	uint32_t blocked; /* consecutive cycles the head could not move:
			   * compared with prune_wait (up to 10^6 from the
			   * CLI), so 16 bits would wrap */
	uint64_t sw1;	  /* tree: it may switch from this cycle */
	uint16_t nbr;	  /* tree: reserved branches (struct mcnet.br) */
	uint16_t replay;  /* tree: data flits still to replay from aux */
	uint16_t seen;	  /* tree: data flits copied into the aux buffer */
	uint8_t rt;	  /* the head address has been routed */
	uint8_t newbr;	  /* tree: the routed address opened a branch */
	uint8_t tail;	  /* tree: the worm's last flit has passed */
	uint8_t hold;	  /* path: an address was stripped here; the next
			   * address is routed onward */
	uint8_t rt1, nb1; /* tree: second flit routed, opened a branch */
	uint8_t opened;	  /* tree: the opening address is routed */
};

/* The multicast state of a simulation (struct sim.mc). */
struct mcnet {
	struct mcin *in; /* per input VC (N * nvc_node) */
	uint32_t *br;	 /* per input VC: maxbr reserved output VCs */
	unsigned maxbr;
	uint16_t *dcnt;		/* per delivery channel (N * L): data flits the
				 * current destination received */
	uint8_t *darm;		/* per delivery channel: its address arrived */
	uint32_t *pend, *pnext; /* output VCs whose end mark crosses to
				 * an empty input VC next cycle (A2) */
	unsigned npend, npnext;
	uint64_t *mask; /* per router (W words): input VCs holding a
			 * multicast worm, switched even while the flit
			 * behind the head waits for the routing unit */
	int pruning;
	unsigned prune_wait;
	int pm; /* path worms: PM (else Dual-Path) */
	const struct ml_mc_ops *ops; /* the mechanism */
};

/* mcnet.c.  Allocate the multicast state for the mechanism ops (s->mc
 * stays NULL when ops is NULL: no hardware multicast); 0 or -1 (no
 * memory). */
int ml_mc_init(struct sim *s, const struct ml_mc_ops *ops);
void ml_mc_free(struct sim *s);
/* Flit f of a hardware multicast message reaches the node through
 * delivery channel l: 1 when the node now has the whole message (its
 * address and every data flit; the caller tells traffic.c), else 0. */
int ml_mc_deliver(struct sim *s, unsigned node, unsigned l,
		  const struct flit *f);
/* The sent-th flit of hardware multicast message m at its source. */
void ml_mc_flit(const struct sim *s, const struct msg *m, unsigned sent,
		struct flit *f);
/* Input VC id of node changed: its bits in the router's masks of
 * nonempty inputs (a pending replay counts) and of inputs waiting for
 * the routing unit. */
void ml_mc_settle(struct sim *s, unsigned node, uint32_t id);
/* Input VC id of node starts (mc != IVM_NONE) or ends a multicast worm:
 * its bit in mcnet.mask. */
void ml_mc_mark(struct sim *s, uint32_t id, int on);
/* Release the end of output VC o's worm (notes A2): mark its last queued
 * flit, or pass the mark downstream. */
void ml_mc_mark_end(struct sim *s, uint32_t o);

/* The i-th flit queued in input VC id. */
static inline struct flit *ml_mc_iq_at(const struct sim *s, uint32_t id,
				       unsigned i)
{
	unsigned slot = s->iv[id].head + i;

	if (slot >= s->B)
		slot -= s->B;
	return &s->iq[(size_t)id * s->B + slot];
}

/* Which queue position of tree input VC id waits for the routing unit:
 * 0, 1, or -1. */
static inline int ml_mc_tree_pending(const struct sim *s, uint32_t id)
{
	const struct ivc *iv = &s->iv[id];
	const struct mcin *t = &s->mc->in[id];
	const struct flit *h;

	if (iv->cnt == 0 || t->replay)
		return -1;
	h = ml_mc_iq_at(s, id, 0);
	if (h->kind == FK_ADDR && !t->rt)
		return 0;
	if (iv->cnt >= 2 && !t->rt1 && ml_mc_iq_at(s, id, 1)->kind == FK_ADDR)
		return 1;
	return -1;
}

/* The input VC at the far end of network output VC o. */
static inline uint32_t ml_mc_downstream(const struct sim *s, uint32_t o)
{
	unsigned node = o / s->nvc_node, port = o % s->nvc_node / s->V;

	return (s->t.nbr[(size_t)node * s->t.P + port] * s->t.nport + port) *
		   s->V +
	       o % s->V;
}

#endif
