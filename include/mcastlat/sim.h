/*
 * sim.h - a cycle-driven flit-level simulator of wormhole-switched direct
 * networks (meshes, tori, hypercubes) with software and hardware
 * multicast, for validating the analytical models (SPEC sections 7, 8).
 *
 * One call simulates one parameter point to its stopping rule and fills a
 * result struct: no printing, no exit, no global state, so points may run
 * on several threads at once.  The simulation is deterministic: the same
 * parameters (seed included) give the same result on any machine.
 * Times are in cycles; traffic in flits received per node per cycle.
 */
#ifndef MCASTLAT_SIM_H
#define MCASTLAT_SIM_H

#include <stddef.h>

#include "mcastlat/status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ml_sim_topology {
	ML_SIM_MESH,	 /* k-ary n-mesh */
	ML_SIM_TORUS,	 /* k-ary n-cube, bidirectional links */
	ML_SIM_HYPERCUBE /* binary n-cube, one link per dimension */
};

enum ml_sim_routing {
	ML_SIM_DOR,  /* dimension order; tori: dateline, two VC classes */
	ML_SIM_DUATO /* fully adaptive VCs and one dimension-order escape VC */
};

/* How a message with several destinations travels (SPEC section 8). */
enum ml_sim_multicast {
	ML_SIM_BINOMIAL,  /* software tree of unicasts, forwarded by receivers */
	ML_SIM_UNICAST,	  /* one unicast per destination from the source */
	ML_SIM_TREE,	  /* one worm branching in the routers, with pruning */
	ML_SIM_DUAL_PATH, /* two path worms on the Hamiltonian labelling */
	ML_SIM_PM	  /* one path worm, west-first then never west */
};

/* Destination of unicast messages (SPEC section 7.2). */
enum ml_sim_pattern {
	ML_SIM_UNIFORM,
	ML_SIM_TRANSPOSE,
	ML_SIM_BITCOMP,
	ML_SIM_BITREV,
	ML_SIM_SHUFFLE,
	ML_SIM_TORNADO,
	ML_SIM_NEIGHBOR,
	ML_SIM_HOTSPOT
};

/* The quantity whose interval the stopping rule judges (SPEC 7.3). */
enum ml_sim_ci_on {
	ML_SIM_CI_ALL,	     /* mean latency of all measured messages */
	ML_SIM_CI_MULTICAST /* mean multicast latency (needs beta > 0) */
};

/* ports: one injection and delivery channel per network output channel;
 * dests: every other node (broadcast). */
#define ML_SIM_ALL 0u

/* One message of a trace: injected at `cycle` by `source` to the ndests
 * nodes of dests[] (one destination: a unicast), `flits` flits long. */
struct ml_sim_trace_msg {
	unsigned long long cycle;
	unsigned source;
	unsigned flits;
	unsigned ndests;
	const unsigned *dests;
};

struct ml_sim_params {
	/* Network (SPEC 7.1). */
	enum ml_sim_topology topology;
	unsigned k;		/* nodes per dimension, mesh and torus, >= 2 */
	unsigned dims;		/* n >= 1; a hypercube has 2^n nodes */
	enum ml_sim_routing routing;
	unsigned vcs;		/* virtual channels per physical channel */
	unsigned buffer;	/* flits per VC queue, at each end of a link */
	unsigned ports;		/* injection = delivery channels per node;
				 * ML_SIM_ALL: one per network output */
	unsigned router_cycles; /* R: cycles of a header in a router */

	/* Traffic (SPEC 7.2). */
	double rate;		/* messages per node per cycle, (0, 1] */
	unsigned flits;		/* M, header included, >= 1 (tree: >= 2) */
	unsigned unicast_flits; /* 0: same as flits */
	double beta;		/* fraction of messages that are multicasts */
	unsigned dests;		/* per multicast; ML_SIM_ALL: broadcast */
	enum ml_sim_multicast multicast;
	enum ml_sim_pattern pattern;
	unsigned hotspot;	  /* ML_SIM_HOTSPOT: the hot node */
	double hotspot_fraction;  /* ML_SIM_HOTSPOT: share sent to it */
	unsigned delta;		/* start-up cycles before each send */
	unsigned long seed;	/* seed of the GSL generator */
	const struct ml_sim_trace_msg *trace; /* not NULL: replay instead;
				 * warmup still applies (0 measures every
				 * message), the run ends when all are done */
	size_t ntrace;

	/* Tree-based multicast and path-based rivals (SPEC 8). */
	unsigned aux;		/* auxiliary buffer flits; 0: M - 1 */
	unsigned prune_wait;	/* blocked cycles before pruning */
	int pruning;		/* 0: never prune (shows the deadlock) */
	unsigned prep_cycles;	/* path-based message preparation */

	/* Measurement (SPEC 7.3). */
	unsigned long warmup;	     /* messages not measured */
	double ci;		     /* target 95 % half-width / mean:
				      * the run stops when it is met, or a
				      * pilot turns it into the length of
				      * a second stage (sim.c,
				      * converged()) */
	enum ml_sim_ci_on ci_on;     /* the quantity ci applies to */
	unsigned long min_messages;  /* measured, of any kind, before the
				      * first look (sim.c, converged()) */
	unsigned long long cycles;   /* not 0: measure exactly this many
				      * cycles, no interval target */
	unsigned long long max_cycles;
	unsigned long max_queue;     /* messages in source queues */
	unsigned replications;	     /* independent seeds, >= 1 */

	/* Called now and then by the simulating thread with the fraction of
	 * the work done, in [0, 1] (an estimate); may be NULL. */
	void (*progress)(void *arg, double done);
	void *progress_arg;
	/* When not NULL, filled just before each progress call with where
	 * the run stands, for a display of a long run; may be NULL. */
	struct ml_sim_progress *progress_info;
};

/* Where a simulation stands (struct ml_sim_params progress_info). */
struct ml_sim_progress {
	unsigned long long cycles; /* simulated in this replication */
	unsigned rep;		   /* the replication, from 0 */
	double half_rel;	   /* 95 % half-width of the mean latency
				    * over the mean so far (the stopping
				    * rule's, to compare with ci); NaN
				    * while there is none, and with a trace */
};

/* Every latency has its 95 % confidence half-width beside it (_ci): from
 * batch means within a run (NaN until its batches are long enough to
 * pass the independence test, see stats.c), from the spread of the
 * replications' means with replications > 1. */
struct ml_sim_result {
	double latency;		/* mean over all measured messages */
	double latency_ci;
	double unicast_latency;
	double unicast_latency_ci;
	double multicast_latency;      /* until the last destination */
	double multicast_latency_ci;
	double multicast_latency_dest; /* mean over destinations */
	double multicast_latency_dest_ci;
	double offered;		/* flits per node per cycle */
	double accepted;	/* flits received per node per cycle */
	double accepted_min;	/* the same, of the node that received
				 * least (fairness) */
	double accepted_max;	/* ... and most */
	double hops;		/* mean hops of a delivered copy (tree and
				 * path worms: from the source to each
				 * destination along the worm) */
	double prunings;	/* per multicast */
	double branches;	/* per multicast */
	double channels;	/* physical channel crossings per multicast */
	unsigned long long cycles;   /* simulated, warm-up included */
	unsigned long long messages; /* measured */
};

/* Fill *p with SPEC 7's defaults for the given topology: k = 8, n = 2,
 * DOR (Duato on hypercubes), V = 1 on meshes and 2 otherwise, 2-flit
 * buffers, one port (all on hypercubes), R = 2 (0 on hypercubes),
 * rate 0.001, M = 32, beta 0, broadcasts by binomial tree, uniform
 * unicasts (hotspot: node 0, fraction 0.1), Delta 0, seed 1, pruning on
 * after 1 cycle, 20000 warm-up messages, ci 0.02 on the latency of all
 * messages, looks from 5000 measured messages on, no fixed length, 10^7
 * cycles, 10^5 queued messages, 1 replication.  Cannot fail: a topology outside the
 * enum is stored as given, for ml_sim_validate to reject. */
ML_API void ml_sim_params_init(struct ml_sim_params *p,
			       enum ml_sim_topology topology);

/* Check every parameter and their combinations.  Return ML_OK, or
 * ML_EINVAL with *d (when not NULL) naming the option ("vcs", "k", ...). */
ML_API enum ml_status ml_sim_validate(const struct ml_sim_params *p,
				      struct ml_diag *d);

/*
 * Simulate the point.  Returns ML_OK (a look met the target, or the
 * second stage a pilot fixed was measured, or the cycles of a
 * fixed-length run were), ML_ENOCONV (max_cycles reached first; with cycles, before
 * the warm-up ended), ML_SATURATED, ML_DEADLOCK, ML_ENOMEM, or ML_EINVAL
 * as ml_sim_validate.  *res is filled for every status but ML_EINVAL and
 * ML_ENOMEM: the values measured so far, each latency with its interval
 * (NaN only where a column has fewer than 16 measured messages: a run's
 * report whose batches never passed the test of independence takes 16
 * longer ones untested, sim/stats.c); after a second stage, that stage's
 * alone, or the pilot's when a run cut by max_cycles has measured fewer
 * messages of the quantity, or no interval yet, in its second stage.
 */
ML_API enum ml_status ml_sim_run(const struct ml_sim_params *p,
				 struct ml_sim_result *res, struct ml_diag *d);

#ifdef __cplusplus
}
#endif

#endif
