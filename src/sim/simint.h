/*
 * simint.h - the simulator's internal state, shared by the files of
 * src/sim/ (not installed).  One struct sim holds a whole simulation:
 * topology, router queues, messages, statistics, the generator.  Every
 * array is flat and sized once at the start (message pools grow by
 * doubling, bounded by max_queue), so nothing is allocated per flit.
 *
 *   topo.c    node coordinates, ports, neighbours, distances
 *   route.c   DOR and Duato: candidate (port, VC) sets, a pure function
 *   router.c  input/output VC queues, routing unit, switch, links
 *   traffic.c generation, patterns, source queues, software multicasts
 *   stats.c   batch means, Student t interval, accumulators
 *   sim.c     params, validation, the cycle loop, stopping, replications
 *   mcnet.c   what the hardware multicast mechanisms share in the
 *             router (state, masks, end marks, layouts, delivery)
 *   tree.c    tree multicast with pruning in the router (ml_mc_tree)
 *   path.c    Dual-Path and PM: routing functions, path worms in the
 *             router (ml_mc_path)
 *
 * Each file stands above what it calls (tests/cli/layers.sh): sim.c
 * calls the others; router.c calls route.c, topo.c, traffic.c (a message
 * delivered) and mcnet.c, and drives tree.c or path.c only through the
 * table of hooks sim.c picks (struct ml_mc_ops, sim/mcast.h), as it
 * drives routing through route.c's candidates; tree.c and path.c call
 * mcnet.c and route.c and report through return values; traffic.c
 * calls route.c, topo.c and path.c's pure functions, never the router.
 */
#ifndef MCASTLAT_SIMINT_H
#define MCASTLAT_SIMINT_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "mcastlat/sim.h"

#define SIM_NONE	 0xffffffffu
#define SIM_MAX_NODES	 (1u << 20)
#define SIM_MAX_DIMS	 20
#define SIM_MAX_VCS	 64
#define SIM_MAX_BUFFER	 1024
#define SIM_MAX_VC_TOTAL (1u << 28) /* VC ids fit 32 bits, with room */
#define SIM_MAX_CAND	 (2 * SIM_MAX_DIMS + 2)

/* ------------------------------------------------------------------ */
/* Flits: 12 bytes, typed, so that multicast worms (several address
 * flits, end-of-worm marks on any flit) need no other representation. */

enum flit_kind {
	FK_ADDR = 1, /* header / address flit: carries dest, is routed */
	FK_DATA = 2
};

enum flit_flag {
	FF_TAIL = 1 /* last flit of its worm: releases what the worm holds */
};

struct flit {
	uint32_t msg;	  /* message record (struct msg index) */
	uint32_t dest;	  /* address flits: destination node */
	uint16_t wrapped; /* address flits: torus dims whose wrap was crossed */
	uint8_t kind;	  /* enum flit_kind */
	uint8_t flags;	  /* enum flit_flag */
};

/* ------------------------------------------------------------------ */
/* Topology (topo.c).  Network ports: mesh and torus 2d (+ direction)
 * and 2d + 1 (- direction) for dimension d; hypercube d.  A flit that
 * leaves node u by output port p enters nbr(u, p) by input port p (input
 * ports are named by the direction of travel).  Ports P .. P + L - 1 are
 * the injection (input) and delivery (output) channels. */

struct topo {
	enum ml_sim_topology kind;
	unsigned k, n, N;
	unsigned P;	/* network ports per node */
	unsigned L;	/* injection = delivery channels per node */
	unsigned nport; /* P + L, on both sides of the router */
	unsigned diameter;
	unsigned *coord;  /* N * n */
	uint32_t *nbr;	  /* N * P, SIM_NONE at mesh edges */
	uint8_t *wrap;	  /* N * P: the link is a torus wraparound */
	uint32_t *sorted; /* N: nodes in dimension order (dim 0 major) */
	uint32_t *rank;	  /* N: position of a node in sorted[] */
};

int ml_topo_init(struct topo *t, const struct ml_sim_params *p);
void ml_topo_free(struct topo *t);
unsigned ml_topo_port_dim(const struct topo *t, unsigned port);
unsigned ml_topo_distance(const struct topo *t, unsigned a, unsigned b);
unsigned ml_topo_node(const struct topo *t, const unsigned *coord);

/* ------------------------------------------------------------------ */
/* Routing (route.c).  A candidate is an output port and a range of its
 * VCs; the selection (first free, random free adaptive, escape) is the
 * router's. */

struct cand {
	uint16_t port;
	uint8_t vc0, nvc;
	uint8_t escape; /* Duato: the escape VC (used only if no adaptive) */
};

struct rcfg {
	enum ml_sim_routing routing;
	unsigned V;
	unsigned c0n;	 /* DOR torus: VCs of dateline class 0 (the rest: 1) */
	unsigned adapt0; /* Duato: first adaptive VC (1 or, on tori, 2) */
};

void ml_route_config(struct rcfg *rc, const struct topo *t,
		     enum ml_sim_routing routing, unsigned vcs);
/* The permitted (port, VC) sets for an address flit at node bound for
 * dest, with the torus dimensions already wrapped in `wrapped`.  At the
 * destination: the L delivery ports, VC 0.  Returns the count. */
unsigned ml_route_cands(const struct topo *t, const struct rcfg *rc,
			unsigned node, unsigned dest, unsigned wrapped,
			struct cand *c);
/* The dimension-order first hop from node to dest (network port). */
unsigned ml_route_dor_port(const struct topo *t, unsigned node, unsigned dest);

/* ------------------------------------------------------------------ */
/* Router state (router.c). */

enum ivc_state {
	IV_IDLE = 0, /* no route: the head flit (an address) needs one */
	IV_ROUTED,   /* output reserved, header waits its R cycles */
	IV_ACTIVE    /* flits follow the reserved output */
};

/* Input virtual channel: a queue of `buffer` flits and the state of the
 * worm at its head.  Tree and path multicast add their fields here
 * (branch set, aux buffer, replay, blocked cycles). */
struct ivc {
	uint16_t head, cnt; /* ring in the input flit store */
	uint8_t state;	    /* enum ivc_state */
	uint8_t mc;	    /* enum ivc_mc: hardware multicast worm */
	uint32_t out;	    /* output VC the head flit goes to */
	uint64_t sw_at;	    /* a routed header may switch from this cycle */
	uint64_t pop_at;    /* last cycle a flit left (flow control) */
	uint64_t arr_at;    /* last cycle a flit arrived */
};

/* What an input VC carries when it is not an ordinary wormhole: a tree or
 * path multicast worm, handled by tree.c and path.c (state in struct mcin,
 * sim/mcast.h). */
enum ivc_mc {
	IVM_NONE = 0,
	IVM_TREE, /* tree-based multicast with pruning (tree.c) */
	IVM_PATH  /* Dual-Path or PM path worm, absorb and forward (path.c) */
};

/* An output port's physical channel, per router: where it leads,
 * computed once so that the link phase looks up one record per port. */
struct olink {
	uint32_t nb; /* downstream router, SIM_NONE: a delivery channel */
	uint32_t dn; /* its first input VC of this port, SIM_NONE likewise */
	/* the V input VCs whose counts say whether a flit may cross: dn,
	 * or for a delivery channel V always empty ones past the last VC */
	uint32_t room;
	uint8_t rr;  /* demand-slotted round robin: the VC served last */
};

/* Output virtual channel: a queue of `buffer` flits at the upstream end
 * of a link, owned by one input VC between header and tail. */
struct ovc {
	uint16_t head, cnt;
	uint32_t owner; /* input VC holding it, SIM_NONE when free */
};

/* One injection channel: a FIFO source queue of messages and the one
 * being sent. */
struct inj {
	uint32_t qhead, qtail; /* message FIFO through msg.next */
	uint32_t cur;	       /* message being injected, SIM_NONE */
	uint32_t sent;	       /* flits of cur already injected */
	uint64_t start_at;     /* cur's first flit may cross from here */
	uint32_t qlen;
	uint32_t node, in; /* its node and router input VC */
	uint8_t active;
};

/* ------------------------------------------------------------------ */
/* Messages (traffic.c). */

enum msg_kind {
	MK_UNICAST, /* a generated unicast */
	MK_COPY,    /* one unicast of a software multicast */
	MK_BCOPY,   /* one send of a binomial tree: the receiver forwards */
	MK_TREE,    /* a tree multicast worm [d_1, data, d_2 .. d_n] (tree.c) */
	MK_PATH /* a Dual-Path or PM path worm [a_1 .. a_k][data] (path.c) */
};

struct msg {
	uint64_t gen;  /* generation cycle of the message or operation */
	uint32_t next; /* source-queue FIFO link, free list */
	uint32_t op;   /* multicast operation, SIM_NONE for a unicast */
	uint32_t src, dest;
	uint32_t lo, hi; /* BCOPY: subtree (list range, or hypercube level);
			  * TREE, PATH: the worm's addresses in the op list */
	uint32_t pos;	 /* BCOPY: the receiver's position in the list;
			  * PATH: Dual-Path delivery class (0 high, 1 low) */
	uint32_t hops;
	uint16_t flits;
	uint16_t got; /* flits delivered (conservation check); TREE,
		       * PATH: destinations that have the whole message */
	uint8_t kind;
	uint8_t measured;
};

/* A multicast operation (software mechanisms). */
struct mop {
	uint64_t gen;
	uint32_t src, ndest, left;
	uint32_t next; /* free list */
	uint32_t list; /* sorted destination list (with src): slot index,
			* SIM_NONE = topo.sorted (a broadcast) */
	uint32_t flits;
	uint16_t base; /* hypercube binomial: base dimension */
	uint8_t measured;
	uint8_t cube;	 /* spanning binomial tree of the hypercube */
	double dest_sum; /* sum over destinations of their latency */
	uint64_t channels;
	uint32_t prunings, branches; /* tree multicast (tree.c) */
	uint8_t unicast; /* a Dual-Path unicast: a path worm, measured as a
			  * unicast */
};

/* Events of a generation heap: next message of a node. */
struct gev {
	uint64_t t;
	uint32_t node;
};

/* ------------------------------------------------------------------ */
/* Statistics (stats.c). */

/* Fine batches held (stats.c): 1024, grouped for von Neumann's test
 * while at least SIM_NB_TEST groups remain, at level SIM_VN_ALPHA. */
#define SIM_NB_MAX   1024
#define SIM_NB_TEST  128
/* the fewest groups a run's final report may test (stats.c, step 6) */
#define SIM_NB_REPORT 16
#define SIM_VN_ALPHA 0.2

struct batches {
	double mean[SIM_NB_MAX];
	unsigned nb;	    /* complete fine batches */
	unsigned long size; /* messages per fine batch */
	unsigned long cur_n;
	double cur_sum;
	int indep; /* a trace: the observations need no test */
	int fresh; /* the batches filled since the last look */
	/* not 0: the batches of the interval hold at least this many
	 * observations and are not tested (a second stage, whose pilot's
	 * batches of that size passed the test; sim.c) */
	unsigned long fixed_m;
};

/* Batches of one message; independent: the observations need no test
 * (a trace), and the interval is the plain t interval of the fine
 * batches. */
void ml_batches_init(struct batches *b, int independent);
/* SIM_NB_MAX fine batches are full: mark them fresh, for the stopping
 * rule to look at (as at 128, 256 and 512 observations, before the
 * first merge). */
void ml_batches_full(struct batches *b);
/* Merge adjacent pairs of the full batches: the size doubles. */
void ml_batches_merge(struct batches *b);

static inline void ml_batches_add(struct batches *b, double x)
{
	if (b->nb == SIM_NB_MAX) /* looked at since it filled */
		ml_batches_merge(b);
	b->cur_sum += x;
	if (++b->cur_n < b->size)
		return;
	b->mean[b->nb++] = b->cur_sum / (double)b->cur_n;
	b->cur_sum = 0;
	b->cur_n = 0;
	if (b->nb == SIM_NB_MAX)
		ml_batches_full(b);
	else if (b->size == 1 && b->nb >= SIM_NB_TEST &&
		 (b->nb & (b->nb - 1)) == 0)
		b->fresh = 1; /* 128, 256, 512 observations: a look too, for
			       * a quantity that is a small share of the
			       * messages (multicasts) */
}

/* Mean of the interval's batch means and the 95 % half-width (stats.c:
 * von Neumann's test, the batch count growing with the run, Skart's
 * autoregressive and skewness adjustments); NaN before the batches pass
 * the test.  Returns the number of batches of the interval (0 before). */
unsigned ml_batches_ci(const struct batches *b, double *mean, double *half);
/* The same for a run's final report: when no grouping of at least
 * SIM_NB_TEST batches passes the test, groupings down to SIM_NB_REPORT
 * are tried (a fixed-length or cut run too short for the rule's), and
 * with none passing, the longest batches numbering SIM_NB_REPORT,
 * untested (NaN only with fewer observations). */
unsigned ml_batches_ci_report(const struct batches *b, double *mean,
			      double *half);
/* The interval the stopping rule judges, with the estimates behind it
 * (the skewness of the spaced batch means: the bias bound of sim.c's
 * converged()).  Returns the number of batches (0 before the test). */
struct ml_bm_ci;
unsigned ml_batches_interval(const struct batches *b, struct ml_bm_ci *r,
			     unsigned min_groups);
/* Observations per batch of the first grouping of at least min_groups
 * groups that passes the test of independence (stats.c, step 2), 0 when
 * none does. */
unsigned long ml_batches_tested(const struct batches *b, unsigned min_groups);

/* Skart's interval from k >= 8 batch means y (in time order): the
 * estimates behind it, for the tests. */
struct ml_bm_ci {
	double mean, var; /* of the batch means */
	double phi;	  /* lag-1 autocorrelation used, in [0, 0.9] */
	double skew;	  /* of the spaced batch means, bias-corrected */
	double beta;	  /* skew / (6 sqrt(k / 2)) */
	double se;	  /* sqrt(A var / k), A = (1 + phi) / (1 - phi) */
	double half;	  /* se max(G(t), -G(-t)) */
	unsigned k;
};
int ml_skart_interval(const double *y, unsigned k, struct ml_bm_ci *r);
/* Whether the first-order stopping bias of a rule that stops on the
 * interval r, -gamma sqrt(n_pilot / n) / sqrt(k) standard errors (sim.c,
 * converged()), is at most bias whatever the stop: gamma, the skewness
 * of the k batch means, bounded by that of the k / 2 spaced ones plus
 * one standard error, sqrt(6 / (k / 2)).  With 128 batches and bias 0.1
 * that asks for a skewness of at most 0.825; with 512, 2.11. */
int ml_bm_calm(const struct ml_bm_ci *r, double bias);
/* The stopping rule's decision at a look (sim.c, converged(), says why):
 * the batches b of the quantity, n messages of it measured, first: the
 * first look past min_messages; ci the target half-width over the mean.
 * ML_LOOK_PILOT sets *need, the messages of a second stage measured
 * afresh, and *m, the observations per batch that passed the test. */
#define SIM_NB_FIRST  64  /* fewest tested groups the first look may judge */
#define SIM_CALM_BIAS 0.1 /* standard errors: ml_bm_calm() at a look */
enum { ML_LOOK_GO_ON, ML_LOOK_STOP, ML_LOOK_PILOT };
int ml_stop_rule(const struct batches *b, unsigned long long n, int first,
		 double ci, double *need, unsigned long *m);
/* Willink's skewness-adjusted quantile G(zeta) for beta. */
double ml_willink(double zeta, double beta);
/* 1 when y[0..k-1] pass von Neumann's test of randomness (one-sided,
 * level SIM_VN_ALPHA), 0 when they look positively correlated. */
int ml_von_neumann_random(const double *y, unsigned k);
/* 95 % half-width of the mean of n values with sample sd s. */
double ml_t_half(double s, unsigned long n);

struct acc {
	double sum;
	unsigned long long n;
};

static inline void acc_add(struct acc *a, double x)
{
	a->sum += x;
	a->n++;
}

/* n values whose sum is sum. */
static inline void acc_add_n(struct acc *a, double sum, unsigned long long n)
{
	a->sum += sum;
	a->n += n;
}

static inline double acc_mean(const struct acc *a)
{
	return a->n ? a->sum / (double)a->n : 0.0 / 0.0;
}

/* ------------------------------------------------------------------ */
/* Test hooks: internal, so the tests can see every delivery and check
 * conservation.  Not part of the public API. */
struct sim_hooks {
	/* Called for every message whose last flit was delivered: the
	 * receiving node, the message's source and destination, its
	 * operation id (SIM_NONE: unicast) and the cycle. */
	void (*deliver)(void *arg, unsigned node, unsigned src, unsigned dest,
			unsigned op, unsigned flits, unsigned long long cycle);
	void *arg;
	int skip_validate; /* run an invalid configuration (deadlock test) */
	/* Called for every flit that crosses a link or a delivery channel
	 * (port >= P), after it left the output queue: hand-worked cycle-by-
	 * cycle tests of the multicast mechanisms.  May be NULL. */
	void (*flit)(void *arg, unsigned node, unsigned port, unsigned vc,
		     const struct flit *f, unsigned long long cycle);
};

/* Counters of one run (tests). */
struct sim_counters {
	unsigned long long flits_injected, flits_delivered;
	unsigned long long msgs_delivered, misdelivered, bad_flits;
	unsigned long long ops_done;
};

/* ------------------------------------------------------------------ */
/* The whole simulation. */

struct sim {
	const struct ml_sim_params *p;
	struct topo t;
	struct rcfg rc;
	gsl_rng *rng;
	unsigned V, B, R;
	unsigned W;	   /* 64-bit words of a per-router VC mask */
	unsigned nvc_node; /* nport * V */
	uint64_t now;

	/* router */
	struct ivc *iv;
	struct ovc *ov;
	struct flit *iq, *oq; /* flit stores, B per VC */
	uint64_t *imask;      /* nonempty input VCs, W per node */
	uint64_t *omask;      /* nonempty output VCs, W per node */
	uint64_t *rmask;      /* input VCs whose head awaits the routing
			       * unit (nonempty and IV_IDLE), W per node */
	uint16_t *port_of;    /* nvc_node: port of a VC bit */
	uint32_t *rr_route;   /* routing unit round robin, per node */
	struct olink *link;   /* per output port: its link and DSRR pointer */
	uint32_t *act;	      /* active routers */
	uint8_t *in_act;
	unsigned nact;
	unsigned long long flits_in_net;
	uint64_t last_move;

	/* injection */
	struct inj *inj; /* N * L */
	uint32_t *inj_act;
	unsigned ninj_act;
	unsigned long long queued; /* messages waiting in source queues */

	/* messages */
	struct msg *msgs;
	uint32_t nmsgs, msg_free;
	struct mop *ops;
	uint32_t nops, op_free;
	uint32_t *lists; /* per op: slot of list_slot node ids */
	unsigned list_slot;
	unsigned long long ops_live;
	uint32_t last_op; /* the op start_multicast allocated last */

	/* generation */
	struct gev *heap;
	unsigned nheap;
	uint32_t *scratch;     /* 2 N: destinations, then the candidates */
	uint32_t *bcast_count; /* per source: broadcasts started (base dim) */
	size_t trace_next;
	unsigned mflits, uflits;
	unsigned long long generated;	/* messages and operations generated */
	unsigned long long outstanding; /* generated, not yet complete */

	/* measurement */
	uint64_t meas_start; /* cycle the first measured message appeared */
	int measuring;
	double offered_flits, accepted_flits;
	uint64_t *node_flits; /* flits received per node, measured */
	unsigned long long meas_generated;
	/* first cycle of the current run of throughput tests that found
	 * accepted < 0.95 offered (sim.c's saturated()), 0: none */
	uint64_t short_since;
	/* batch means of every latency column: all messages, unicasts,
	 * multicasts, multicasts' mean over destinations */
	struct batches bat, bat_u, bat_m, bat_md;
	/* the stopping rule (sim.c, converged()): the messages of the
	 * quantity the second stage measures (0: the pilot is still
	 * running), and the measurement's epoch (1: the pilot, 2: the second
	 * stage; a message counts when its measured field equals it) */
	double need;
	unsigned epoch;
	int looked; /* a look past min_messages has been made */
	/* the pilot's results, and its messages of the quantity: what a
	 * run cut in the second stage reports when the second stage has
	 * measured fewer */
	struct ml_sim_result pilot;
	unsigned long long pilot_n;
	struct acc lat, ulat, mlat, mdest, hops, chan;
	struct acc prune, branch; /* tree multicast, per measured multicast */

	/* hardware multicast (tree.c, path.c); NULL for the others */
	struct mcnet *mc;

	int failed; /* an allocation failed */
	const struct sim_hooks *hooks;
	struct sim_counters cnt;
};

/* Append f to output VC o of node (the caller checked there is room)
 * and mark o nonempty: the multicast switches of tree.c and path.c.
 * router.c's unicast switch keeps its own copy with the router's mask
 * pointer hoisted out of its loop: with this helper the 8x8 torus of
 * scripts/bench_sim.c ran 0.3 % more instructions. */
static inline void oq_push(struct sim *s, unsigned node, uint32_t o,
			   const struct flit *f)
{
	struct ovc *ov = &s->ov[o];
	unsigned slot = ov->head + ov->cnt;

	if (slot >= s->B)
		slot -= s->B;
	s->oq[(size_t)o * s->B + slot] = *f;
	if (ov->cnt++ == 0) {
		unsigned b = o - node * s->nvc_node;

		s->omask[(size_t)node * s->W + (b >> 6)] |= (uint64_t)1
							    << (b & 63);
	}
}

/* Make the next message of injection channel in's source queue its
 * current one (none: in->cur = SIM_NONE): router.c's injection phase
 * when a message has left, traffic.c when a message joins an idle
 * channel. */
static inline void ml_inj_next(struct sim *s, struct inj *in)
{
	uint32_t m = in->qhead;

	in->cur = m;
	in->sent = 0;
	if (m == SIM_NONE)
		return;
	in->qhead = s->msgs[m].next;
	if (in->qhead == SIM_NONE)
		in->qtail = SIM_NONE;
}

/* router.c: the network, called by sim.c; it tells traffic.c of every
 * message delivered (ml_traffic_delivered, ml_traffic_mc_done) and
 * drives the multicast mechanisms through their hooks (sim/mcast.h). */
int ml_net_init(struct sim *s);
void ml_net_free(struct sim *s);
/* The cycle of the first n routers of the active list, in its order. */
void ml_net_routers_cycle(struct sim *s, unsigned n);
uint32_t ml_net_select(struct sim *s, unsigned node, const struct cand *c,
		       unsigned nc);
void ml_net_inject_phase(struct sim *s);
void ml_net_compact(struct sim *s);

/* traffic.c: messages, their source queues and their completion; calls
 * nothing of router.c, tree.c or sim.c. */
int ml_traffic_init(struct sim *s);
void ml_traffic_free(struct sim *s);
int ml_traffic_generate(struct sim *s); /* messages born this cycle */
uint64_t ml_traffic_next_event(const struct sim *s);
void ml_traffic_delivered(struct sim *s, unsigned node, uint32_t m);
unsigned ml_traffic_pattern_dest(struct sim *s, unsigned src);
int ml_traffic_failed(const struct sim *s); /* an allocation failed */

/* Hardware multicast: mcnet.c, tree.c and path.c (declared in
 * sim/mcast.h).  traffic.c: a destination of hardware multicast message
 * m has the whole message (router.c calls it when ml_mc_deliver says
 * so). */
void ml_traffic_mc_done(struct sim *s, unsigned node, uint32_t m);

/* sim.c */
enum ml_status ml_sim_run_hooked(const struct ml_sim_params *p,
				 struct ml_sim_result *res, struct ml_diag *d,
				 const struct sim_hooks *h,
				 struct sim_counters *cnt);

#endif
