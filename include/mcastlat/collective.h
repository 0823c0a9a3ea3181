/*
 * collective.h - Open MPI's broadcast algorithms on a node hierarchy
 * (SPEC section 10), and MPICH 4.0.2's (SPEC 11: library ML_COLL_MPICH,
 * its four MPIR algorithms and its default decision, whose ch4
 * compositions run on the node and node-roots communicators of the
 * placement).
 *
 * P ranks (any root) are placed on nodes of ppn cores in S sockets by
 * mpirun's --map-by core|socket|node.  A pair of ranks talks over one of
 * three channels: the same socket, the other socket of the same node,
 * or the network.  A lone message of b bytes on channel c takes
 * L_c + b G_c from its start to its arrival (an eager one, b <= eager,
 * pays E_c more a byte wherever b G_c is written below, except on the
 * NICs: its copy through a bounce buffer).  Each of Open MPI's nine
 * broadcast algorithms (coll/base, 4.1 and 5.0) is run as the code runs
 * it: the same trees, the same order of posting, the same segments and
 * the same fall-backs, on exact event-driven arithmetic:
 *
 *   - a rank's send port serves one message at a time, each for
 *     overhead + b G_c; its receive side one at a time, each for b G_c
 *     ending at the arrival;
 *   - a message between nodes also holds the sending node's NIC and the
 *     receiving node's NIC (one message each way at a time) for
 *     nic_gap + b G_net;
 *   - a message starts at the earliest time at which it has been posted
 *     and its resources are free; resources serve messages in the order
 *     they were posted (ties by rank, then by the order the rank posted
 *     them);
 *   - a message of b <= eager bytes completes, for its sender's waits,
 *     when it leaves the send port; a larger one (rendezvous) cannot
 *     start before the receiver has posted its receive and one more L_c
 *     has passed (the handshake), and completes at its arrival.
 *
 * Times are in microseconds, per-byte times in microseconds per byte,
 * sizes in bytes (the datatype is MPI_BYTE, as in OSU's benchmarks).
 */
#ifndef MCASTLAT_COLLECTIVE_H
#define MCASTLAT_COLLECTIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "mcastlat/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The algorithms.  1-9 are Open MPI's coll_tuned_bcast_algorithm ids;
 * 10 its coll/han broadcast (ours, han has no ids); 11-14 MPICH 4.0.2's MPIR_CVAR_BCAST_INTRA_ALGORITHM values (struct
 * ml_collective_params.library ML_COLL_MPICH); 0 is the library's own
 * default decision (Open MPI's fixed decision, or MPICH's ch4
 * composition and MPIR selection).
 */
enum ml_coll_alg {
	ML_COLL_DEFAULT = 0,
	ML_COLL_LINEAR = 1,
	ML_COLL_CHAIN = 2,
	ML_COLL_PIPELINE = 3,
	ML_COLL_SPLIT_BINARY = 4,
	ML_COLL_BINARY = 5,
	ML_COLL_BINOMIAL = 6,
	ML_COLL_KNOMIAL = 7,
	ML_COLL_SCATTER_ALLGATHER = 8,
	ML_COLL_SCATTER_ALLGATHER_RING = 9,
	/* Open MPI's coll/han (not a tuned id: han reads no tuned rules
	 * file): the nodes' leaders, then each node (issue 47). */
	ML_COLL_HAN = 10,
	ML_COLL_MPICH_BINOMIAL = 11,
	ML_COLL_MPICH_SCATTER_RD_ALLGATHER = 12, /* _recursive_doubling_ */
	ML_COLL_MPICH_SCATTER_RING_ALLGATHER = 13,
	ML_COLL_MPICH_SMP = 14
};
#define ML_COLL_NALG 9 /* Open MPI's: 1 .. ML_COLL_NALG */
#define ML_COLL_MPICH_FIRST ML_COLL_MPICH_BINOMIAL
#define ML_COLL_MPICH_LAST  ML_COLL_MPICH_SMP

/* Which Open MPI: 4.1 (Debian 12's 4.1.4; the default), whose default
 * broadcast is tuned's fixed decision, or 5.0, where coll/han takes the
 * broadcast wherever its conditions hold (ml_collective_han_takes). */
enum ml_coll_ompi_version {
	ML_COLL_OMPI_41 = 0,
	ML_COLL_OMPI_50 = 1
};

/* Whose broadcasts: Open MPI 4.1/5.0 (the default) or MPICH 4.0.2. */
enum ml_coll_library {
	ML_COLL_OPENMPI = 0,
	ML_COLL_MPICH = 1
};

/* MPICH's ch4 compositions (ch4_coll_impl.h), ML_COLL_COMP_NONE where
 * none applies (Open MPI, or an algorithm forced on the whole
 * communicator). */
enum ml_coll_composition {
	ML_COLL_COMP_NONE = 0,
	ML_COLL_COMP_ALPHA = 1,
	ML_COLL_COMP_BETA = 2,
	ML_COLL_COMP_GAMMA = 3
};

/* The channel between two ranks. */
enum ml_coll_channel {
	ML_COLL_SOCKET = 0, /* same socket */
	ML_COLL_NODE = 1,   /* same node, other socket */
	ML_COLL_NET = 2	    /* other node */
};
#define ML_COLL_NCHANNEL 3

/* mpirun --map-by. */
enum ml_coll_map {
	ML_COLL_MAP_CORE,   /* fill node 0's cores in order, then node 1 */
	ML_COLL_MAP_SOCKET, /* alternate sockets within a node, then next */
	ML_COLL_MAP_NODE    /* round-robin over the allocated nodes */
};

/* mpirun --bind-to, which decides the socket of a rank placed with
 * --map-by node (by core and by socket the mapping fixes the socket,
 * whatever the binding).  The node's i-th rank, with D NUMA domains a
 * socket: */
enum ml_coll_bind {
	ML_COLL_BIND_CORE,    /* the node's next free core: socket i / C */
	ML_COLL_BIND_SOCKET,  /* the least used socket: i mod S */
	ML_COLL_BIND_NUMA,    /* the least used NUMA domain: (i mod S D) / D */
	ML_COLL_BIND_DEFAULT  /* mpirun 4.1's default: core for P <= 2,
			       * else NUMA */
};

/* Open MPI's barriers (coll_tuned_barrier_algorithm ids 1-6), for the
 * barrier osu_bcast runs before each broadcast; NONE: none modelled;
 * OMPI: Open MPI 4.1's fixed decision for P
 * (ml_collective_barrier_decide); OMPI_TREE: the tree where that
 * decision is the tree (256 <= P < 512, 1024 <= P < 4096), none
 * elsewhere and for MPICH. */
enum ml_coll_barrier {
	ML_COLL_BARRIER_NONE = 0,
	ML_COLL_BARRIER_LINEAR = 1,
	ML_COLL_BARRIER_DOUBLE_RING = 2,
	ML_COLL_BARRIER_RECURSIVE_DOUBLING = 3,
	ML_COLL_BARRIER_BRUCK = 4,
	ML_COLL_BARRIER_TWO_PROC = 5,
	ML_COLL_BARRIER_TREE = 6,
	ML_COLL_BARRIER_OMPI = 7,
	ML_COLL_BARRIER_OMPI_TREE = 8
};

/* Limits: 2^24 ranks, 2^40 bytes, 2^31 messages per evaluation. */
#define ML_COLL_MAX_RANKS    (1LL << 24)
#define ML_COLL_MAX_MSG	     (1LL << 40)
#define ML_COLL_MAX_MESSAGES (1LL << 31)

struct ml_collective_params {
	long long ranks; /* P >= 2 */
	long long msg;	 /* M bytes >= 1 */
	enum ml_coll_alg algorithm; /* one of library's, or ML_COLL_DEFAULT */
	long long segment; /* bytes, 0 = unsegmented */
	long long fanout;  /* chain: number of chains (0 -> 1), <= 32 */
	long long radix;   /* knomial: k >= 2 */
	long long ppn;	   /* cores per node >= 1 */
	long long sockets; /* sockets per node, divides ppn */
	long long nodes;   /* allocated nodes; 0 = ceil(P / ppn) */
	enum ml_coll_map map_by;
	enum ml_coll_bind bind_to; /* default ML_COLL_BIND_CORE (SPEC 10.2) */
	long long numa;	   /* NUMA domains a socket, divides ppn / sockets */
	double lat[ML_COLL_NCHANNEL];  /* L_c, us */
	double byte[ML_COLL_NCHANNEL]; /* G_c, us per byte */
	double ebyte[ML_COLL_NCHANNEL]; /* E_c, us per byte, eager only */
	double overhead;	       /* sender occupancy per message, us */
	double nic_gap;		       /* NIC occupancy per message, us */
	long long eager;	       /* largest eager message, bytes */
	enum ml_coll_library library;  /* whose algorithms (0: Open MPI) */
	long long root;		       /* the broadcast's root, 0 <= root < P */
	/* Open MPI: its version (what ML_COLL_DEFAULT runs), and han's
	 * coll_han_bcast_segsize (bytes, 0 = one segment; default 65536)
	 * and coll_han_use_simple_bcast (no pipeline). */
	enum ml_coll_ompi_version ompi_version;
	long long han_segment;
	bool han_simple;
	/* The barrier before each broadcast, whose exits the measured
	 * times start from (osu_bcast, the probe): ML_COLL_BARRIER_NONE,
	 * every rank starts at 0 (SPEC 10.2's latency); else each rank's
	 * time as the benchmark measures it (ml_coll_barrier). */
	enum ml_coll_barrier barrier;
};

struct ml_collective_result {
	double latency;	      /* latest time a rank leaves (OSU's Max), us */
	double latency_avg;   /* mean over ranks (OSU's Avg), us */
	double latency_min;   /* earliest, us */
	long long messages;   /* messages sent */
	long long segments;   /* segments the message was cut into */
	enum ml_coll_alg ran; /* the algorithm run after Open MPI's
			       * fall-backs (scatter-allgather with
			       * M < P runs linear, ...); MPICH: the
			       * algorithm on the whole communicator, or
			       * ML_COLL_DEFAULT when it ran on the node
			       * and node-roots communicators */
	/* MPICH: the composition of its default decision, and the MPIR
	 * algorithms run on the node-roots communicator and on the node
	 * communicators of the first and of the last node (0 where none
	 * ran: one node, one rank on a node, or the whole communicator). */
	enum ml_coll_composition composition;
	enum ml_coll_alg ran_roots, ran_node_first, ran_node_last;
};

/*
 * One data point of `mcastlat fit collective` (the params struct of the
 * fit adapter ml_fit_collective, mcastlat/fit.h): a broadcast at p, or,
 * with p2p, half a ping-pong of p.msg bytes on channel.  avg: the
 * measurement is a mean over ranks (OSU's Avg), fitted against
 * latency_avg; else the last rank's time (OSU's Max), against latency.
 * p.algorithm is a concrete algorithm (Open MPI's decision resolved).
 */
struct ml_collective_point {
	struct ml_collective_params p;
	bool p2p;
	enum ml_coll_channel channel;
	bool avg;
};

/* One message of a schedule. */
struct ml_coll_msg {
	long long src, dst;
	long long segment; /* index within its algorithm's phase */
	long long bytes;
	enum ml_coll_channel channel;
	double posted;	/* the sender posted it (rendezvous: the later of
			 * the send and the matching receive) */
	double start;	/* it took its resources */
	double arrival; /* its last byte reached the receiver */
};

/* Called once per message, in the order the messages are served: the
 * order they became ready (posted, for rendezvous with the handshake),
 * ties by rank, then posting order; their starts need not be in order (a
 * message may wait for a busy resource while a later one starts on free
 * ones).  A nonzero return stops the evaluation, which then returns
 * ML_EINVAL. */
typedef int (*ml_coll_msg_fn)(void *arg, const struct ml_coll_msg *m);

/*
 * Fill *p with the command's defaults: P = 2, M = 1 byte, binomial,
 * unsegmented, fanout 4, radix 4, one rank per node (ppn 1, 1 socket,
 * --map-by core), the default machine: a fit of the THIN nodes of ORFEO
 * (per-channel latencies and per-byte times, sender's overhead and NIC
 * gap; mcastlat-collective(1), DEFAULTS), eager limit 4096 bytes.
 */
ML_API void ml_collective_params_init(struct ml_collective_params *p);

/* Check *p; ML_OK or ML_EINVAL with *d naming the option. */
ML_API enum ml_status
ml_collective_validate(const struct ml_collective_params *p, struct ml_diag *d);

/* Evaluate the broadcast at *p.  ML_OK, ML_EINVAL, ML_ENOMEM. */
ML_API enum ml_status ml_collective_eval(const struct ml_collective_params *p,
					 struct ml_collective_result *r);

/* The same, calling fn for every message (fn may be NULL). */
ML_API enum ml_status
ml_collective_schedule(const struct ml_collective_params *p, ml_coll_msg_fn fn,
		       void *arg, struct ml_collective_result *r);

/* Half a round trip of a ping-pong between two ranks on channel c:
 * L_c + b G_c, plus L_c above the eager limit (the handshake). */
ML_API enum ml_status ml_collective_p2p(const struct ml_collective_params *p,
					enum ml_coll_channel c, long long bytes,
					double *t);

/*
 * MPICH 4.0.2's default decision (SPEC 11; its Debian build ch4:ucx, no
 * shared-memory module).  ml_collective_mpich_composition: the ch4
 * level, ch4/generic.json (strict bounds: alpha below 12288 bytes,
 * beta below 524288 for a power of two P >= 8, else gamma; every
 * communicator that is not a parent one gets gamma).  parent: the
 * communicator has node and node-roots communicators, i.e. some node
 * holds two of its ranks.  ml_collective_mpich_mpir: the MPIR level,
 * mpir/generic.json (inclusive bounds: binomial up to 12288 bytes or
 * for P < 8, then scatter_recursive_doubling_allgather up to 524288 for
 * a power of two, else scatter_ring_allgather; smp only for an empty
 * message, which a parent communicator never sends here).  msg is the
 * whole message (MPICH's avg_msg_size for a broadcast).
 */
ML_API enum ml_coll_composition
ml_collective_mpich_composition(long long ranks, long long msg, bool parent);
ML_API enum ml_coll_alg ml_collective_mpich_mpir(long long ranks,
						 long long msg, bool parent);

/* The name of a composition: "alpha", "beta", "gamma" ("-" for none). */
ML_API const char *
ml_collective_composition_name(enum ml_coll_composition c);

/*
 * Does Open MPI's coll/han take the broadcast of *p (4.1.4 and 5.0's
 * conditions, coll_han_module.c and coll_han_subcomms.c): the ranks on
 * two nodes or more, more than one rank on some node, and every node
 * that holds a rank holding the same number.  Else han hands the
 * broadcast to tuned on the whole communicator.  false for an invalid
 * *p or for MPICH.
 */
ML_API bool ml_collective_han_takes(const struct ml_collective_params *p);

/* The algorithm Open MPI 4.1's (and 5.0's tuned) fixed decision picks
 * for P ranks and M bytes (ompi_coll_tuned_bcast_intra_dec_fixed); it
 * is always run unsegmented, chain with fanout 0 (one chain). */
ML_API enum ml_coll_alg ml_collective_ompi_decide(long long ranks,
						  long long msg);

/*
 * Where rank r sits: *node, and *socket within the node.  ML_EINVAL
 * unless 0 <= r < P and p is valid.
 */
ML_API enum ml_status ml_collective_place(const struct ml_collective_params *p,
					  long long r, long long *node,
					  long long *socket);

/* Orders placements by the inputs that decide where ranks sit (P, ppn,
 * sockets, nodes, map-by, bind-to, numa): 0 when they are all equal,
 * else < 0 or > 0 as a total order (for qsort), like strcmp. */
ML_API int ml_collective_place_cmp(const struct ml_collective_params *a,
				   const struct ml_collective_params *b);

/* The channels (bit c for channel c) that some two of the P ranks of
 * *p are on: one socket, the two sockets of a node, two nodes; what a
 * broadcast of *p can use.  ML_EINVAL for invalid *p, ML_ENOMEM. */
ML_API enum ml_status ml_collective_spans(const struct ml_collective_params *p,
					  unsigned *channels);

/* The channel between ranks a and b under *p. */
ML_API enum ml_status
ml_collective_channel(const struct ml_collective_params *p, long long a,
		      long long b, enum ml_coll_channel *c);

/*
 * The trees of coll_base_topo.c, for virtual rank v (rank - root mod P)
 * of P: *parent (-1 for the root) and up to cap children in sending
 * order into kids, their number into *nkids.  kind is ML_COLL_BINARY
 * (build_tree(2)), ML_COLL_BINOMIAL (build_bmtree), ML_COLL_KNOMIAL
 * (build_kmtree(arg = radix)), ML_COLL_CHAIN (build_chain(arg = fanout))
 * or ML_COLL_PIPELINE (build_chain(1)).  ML_EINVAL for other kinds or
 * out-of-range arguments, or when cap is too small.
 */
ML_API enum ml_status ml_collective_tree(enum ml_coll_alg kind, long long ranks,
					 long long arg, long long v,
					 long long *parent, long long *kids,
					 int cap, int *nkids);

/*
 * The fastest concrete algorithm of p->library at *p (Open MPI's nine,
 * or MPICH's four; p->algorithm is ignored;
 * ties, latencies equal to 1e-12 relative, go to the lower id): its id into
 * *best, its result into *r, and the runner-up's latency over the best's into
 * *margin.  An algorithm whose lower bound is no better than the runner-up so
 * far is not run (the ring's P - 1 dependent steps of at least min L_c each),
 * which changes no result.  ML_OK, ML_EINVAL, ML_ENOMEM.
 */
ML_API enum ml_status ml_collective_best(const struct ml_collective_params *p,
					 enum ml_coll_alg *best,
					 struct ml_collective_result *r,
					 double *margin);

/* ------------------------------------------------------------------ */
/* Trust (SPEC 10.5): how far a prediction holds, and picks that do no
 * harm.  mcastlat-collective(1), INTERVALS.                          */

/* Message-size classes of the error model: M <= 4 KiB, <= 64 KiB,
 * larger. */
#define ML_COLL_NCLASS 3

/*
 * The error model of a machine: the discrepancy d = ln(measured /
 * predicted) of its predictions, as measured by forward validation (fit
 * the smaller process counts, judge the larger; mcastlat fit
 * collective).  At P <= fit_ranks its mean square is sd[k]^2 for message
 * class k; beyond, it grows by growth[k]^2 per doubling of P (variances
 * add: sd^2 + growth^2 log2(P / fit_ranks)).  The difference of an
 * algorithm's discrepancy and the library's default decision's at one
 * point decides whether the algorithm is faster than the default: its
 * rms is diff_sd (pooled over the algorithms measured beside the
 * default), or diff_alg[a] for Open MPI's algorithm a where that is
 * larger (0: not measured), growing by diff_growth^2 per doubling.
 * fit_ranks = 0: no error model.  fit_socket_ranks: the most ranks one
 * socket held in a fitted broadcast (ml_coll_socket_ranks), 0 when not
 * known; a pick that differs from the default where a socket holds more
 * must hold at that density too (ml_collective_best_among).
 */
struct ml_coll_errmodel {
	long long fit_ranks;
	double sd[ML_COLL_NCLASS];
	double growth[ML_COLL_NCLASS];
	double diff_sd, diff_growth;
	double diff_alg[ML_COLL_NALG + 1];
	long long fit_socket_ranks;
};

/* The most ranks one socket holds in p's placement (that of node 0's
 * socket 0, where every --map-by puts the most), or 0 when p is not
 * valid. */
ML_API long long ml_coll_socket_ranks(const struct ml_collective_params *p);

/* No error model (fit_ranks 0, every term 0). */
ML_API void ml_coll_errmodel_init(struct ml_coll_errmodel *em);

/* The class (0, 1, 2) of a message of msg bytes. */
ML_API int ml_coll_msg_class(long long msg);

/* The rms of ln(measured / predicted) at (ranks, msg); NaN without an
 * error model or for ranks < 1. */
ML_API double ml_coll_err_sigma(const struct ml_coll_errmodel *em,
				long long ranks, long long msg);

/* The rms of the difference of algorithm a's ln error and the default
 * decision's at ranks. */
ML_API double ml_coll_err_diff_sigma(const struct ml_coll_errmodel *em,
				     enum ml_coll_alg a, long long ranks);

/*
 * The prediction interval at level (0 < level < 1) of a prediction pred
 * at (ranks, msg): pred exp(-+z sigma), z the standard normal quantile
 * at (1 + level) / 2.  ML_EINVAL (and NaN) without an error model or for
 * a level outside (0, 1).
 */
ML_API enum ml_status ml_collective_interval(const struct ml_coll_errmodel *em,
					     long long ranks, long long msg,
					     double level, double pred,
					     double *lo, double *hi);

/* Candidates of ml_collective_best_among: bit a for algorithm a (Open
 * MPI's 1-9 and han 10, MPICH's 11-14), bit 0 for the library's own
 * decision (ML_COLL_DEFAULT: "ompi" or "mpich", "leave it to the
 * library"); bits of the other library's algorithms are ignored.
 * ML_COLL_AMONG_ALL: every one but han (a tuned rules file cannot say
 * han: it is a candidate only when named). */
#define ML_COLL_AMONG(a)   (1u << (a))
#define ML_COLL_AMONG_ALL  (0xffffffffu & ~ML_COLL_AMONG(ML_COLL_HAN))

/* What ranks the candidates. */
enum ml_coll_objective {
	ML_COLL_BY_LATENCY, /* the last rank (OSU's Max) */
	ML_COLL_BY_AVG	    /* the mean over ranks (OSU's Avg) */
};

struct ml_coll_pick {
	/* The pick: one of the library's algorithms, or ML_COLL_DEFAULT
	 * for its own decision (kept, or the fastest). */
	enum ml_coll_alg alg;
	/* The pick's result (for the default: what its decision ran). */
	struct ml_collective_result r;
	/* The fastest candidate by prediction alone, and the runner-up's
	 * objective over the fastest's (NaN with one candidate). */
	enum ml_coll_alg fastest;
	double margin;
	/* The library's decision's objective over the pick's (1 when the
	 * pick is the default), whether or not it is a candidate. */
	double vs_default;
	/* True when the default was kept although a candidate was
	 * predicted faster: its gain was within the error model's. */
	bool kept;
};

/*
 * The pick among the candidates in among (ML_COLL_AMONG bits), ranked by
 * obj: the fastest by prediction, except that with an error model (em
 * not NULL and em->fit_ranks > 0) and the default a candidate, an
 * algorithm replaces the default only where its predicted gain
 * ln(default / it) exceeds z sigma_diff (z the standard normal quantile
 * at (1 + level) / 2, sigma_diff = ml_coll_err_diff_sigma): where the
 * two predictions could not be that wrong together.  Ties go to the
 * default, then to the lower id.  Concrete candidates run with p's
 * segment, fanout and radix; the default as the library runs it.
 * ML_OK; ML_EINVAL (no candidate of p's library, a level outside (0,
 * 1), or no candidate valid at *p); ML_ENOMEM.
 */
ML_API enum ml_status
ml_collective_best_among(const struct ml_collective_params *p, unsigned among,
			 enum ml_coll_objective obj,
			 const struct ml_coll_errmodel *em, double level,
			 struct ml_coll_pick *out);

/* The algorithm's name as --algorithm takes it ("split-binary",
 * "scatter_ring_allgather"; "default" for ML_COLL_DEFAULT). */
ML_API const char *ml_collective_alg_name(enum ml_coll_alg a);

/* ------------------------------------------------------------------ */
/* The measurement plan (SPEC 10.7): which broadcasts to measure on an
 * allocation for a budget of points.  mcastlat-collective(1), PLAN.   */

struct ml_coll_plan_params {
	long long ppn, sockets, nodes; /* the allocation: P <= ppn x nodes */
	unsigned maps;		       /* bit m: plan --map-by m (enum
					* ml_coll_map) */
	unsigned among;		       /* the candidates: ML_COLL_AMONG bits
					* of Open MPI's (0: its decision,
					* 1-9); every one at every cell */
	long long budget;	       /* rows at most; 0: 5 % of the full
					* grid (every P from 2, every size,
					* candidate and placement), at most
					* the grid of 1 + ceil(2 log2(Pmax /
					* 2)) P, at least the minimum */
	long long msg_min, msg_max;    /* the sizes: powers of two between
					* and both ends */
	long long eager;	       /* the eager limit, bytes */
	const long long *ranks;	       /* if not NULL: the process counts to
					* choose from (nranks), else every
					* P in [2, ranks_max] */
	size_t nranks;
	long long ranks_max;	       /* 0: ppn x nodes */
	const long long *msgs;	       /* if not NULL: the sizes to choose
					* from (nmsgs), else the range */
	size_t nmsgs;
};

/* One broadcast to measure: ML_COLL_DEFAULT is the library's own
 * decision (nothing forced). */
struct ml_coll_plan_row {
	enum ml_coll_alg alg;
	long long ranks, msg;
	enum ml_coll_map map_by;
};

struct ml_coll_plan {
	struct ml_coll_plan_row *rows; /* by placement, P, M, then candidate
					* in id order */
	size_t n;
	long long *ranks, *msgs;       /* the planned P and M, ascending */
	long long nranks, nmsgs;
	long long budget;	       /* the budget used (0 resolved) */
};

/* Defaults: ppn 1, one socket, 2 nodes, --map-by core, every candidate
 * (the nine and the decision), sizes 1 byte to 1 MiB, eager 4096, the
 * budget 0 (5 %). */
ML_API void ml_collective_plan_init(struct ml_coll_plan_params *pp);

/*
 * The plan: per placement a grid of nP process counts x nM sizes x every
 * candidate.  With C = budget / (candidates x placements), nP =
 * floor(sqrt(C)) (at least 2), nM = floor(C / nP), each at most as many
 * as there are (a rest goes to nP).  Process counts log-spaced from 2
 * to ppn x nodes, both included (the i-th of n the free count nearest
 * in log to 2 (Pmax/2)^(i/(n-1))).  Sizes by priority: the least and
 * the largest, the two around the eager limit (<= eager, > eager), the
 * two around each size bound of Open MPI's fixed decision in the rows of
 * the planned P (largest P first), then the size farthest in log from
 * those taken (of equals, the one in the widest gap between them).
 * *pl is allocated (ml_collective_plan_free).  ML_OK;
 * ML_EINVAL with *d naming the parameter (a budget below 2 x 2 x
 * candidates x placements among them); ML_ENOMEM.
 */
ML_API enum ml_status ml_collective_plan(const struct ml_coll_plan_params *pp,
					 struct ml_coll_plan *pl,
					 struct ml_diag *d);
ML_API void ml_collective_plan_free(struct ml_coll_plan *pl);

/* The adaptive plan (SPEC 10.7): the next broadcasts to measure, given
 * those measured so far (mcastlat/tune.h's table). */
struct ml_coll_meas;
struct ml_coll_adapt_params {
	struct ml_coll_plan_params plan; /* the allocation, the values to
					  * choose from, the candidates
					  * and the budget (of new rows) */
	struct ml_collective_params machine; /* the fitted machine and its
					      * placement (map_by: set per
					      * planned placement) */
	const struct ml_coll_meas *meas; /* measured so far; NULL or no
					  * cell of a placement: the fixed
					  * design there */
	const struct ml_coll_errmodel *em; /* may be NULL */
	double level;			   /* the intervals' (0.9) */
};

/*
 * The next rows: per placement with measured cells (the budget split
 * evenly over the placements), at every (P, M) of the universe where a
 * candidate is not measured yet, best's pick D (ml_coll_tune_best) and
 * each other candidate a's corrected prediction (ml_coll_tune_predict):
 * the gain g = ln(D / a) ~ N(mu, s), s from the two intervals' ln
 * half-widths h less their new run's deviation (the medians'
 * uncertainty; s = sqrt(hD^2 + ha^2) / z), and the cell's score the
 * largest expected loss of keeping D, E[max(g, 0)] = s phi(mu / s) +
 * mu Phi(mu / s).  Cells are taken greedily by score, each with every
 * candidate not measured there, while the rows fit the budget; a cell
 * at a P with no measured row opens a row there, and the others' s is
 * scaled by sqrt(d' / d) (d: doublings of P to the nearest measured or
 * chosen row), as the intervals narrow with the square root of that
 * distance.  A universe of every integer P holds 64 log-spaced ones.
 * Without measured cells of a placement: ml_collective_plan's design
 * there.  Rows are never a measured (candidate, P, M).  ML_OK,
 * ML_EINVAL (*d names the parameter), ML_ENOMEM.
 */
ML_API enum ml_status ml_collective_plan_adaptive(
    const struct ml_coll_adapt_params *ap, struct ml_coll_plan *pl,
    struct ml_diag *d);

/* ------------------------------------------------------------------ */
/* The benchmark's own barrier (SPEC 10.7): osu_bcast times each
 * broadcast on each rank from its exit of the barrier before it.
 * mcastlat-collective(1), "The benchmark's barrier".                  */

/* The barrier Open MPI 4.1's fixed decision runs for P ranks
 * (ompi_coll_tuned_barrier_intra_dec_fixed): recursive doubling below
 * 4, linear below 8, recursive doubling below 64, Bruck below 256, the
 * tree below 512, Bruck below 1024, the tree below 4096, then Bruck. */
ML_API enum ml_coll_barrier ml_collective_barrier_decide(long long ranks);

/* Whether that barrier, before a broadcast of P ranks dealt in turn to
 * nodes nodes (--map-by node), crosses the nodes in every round: it is
 * Bruck (round k pairs rank r with r + 2^k mod P), there are more ranks
 * than nodes and P is not a multiple of them (some hold a rank more),
 * so the pairs that wrap around land on another node.  osu_bcast's
 * times after it are of another class (mcastlat-collective(1),
 * MEASUREMENTS); false for nodes < 2. */
ML_API bool ml_collective_barrier_uneven(long long ranks, long long nodes);

/*
 * Each rank's exit time of barrier b (ML_COLL_BARRIER_OMPI: the fixed
 * decision's at p->ranks) on the machine and placement of *p, every
 * rank entering at 0, into x[0 .. P-1]: Open MPI's code's zero-byte
 * messages run on the engine of ml_collective_eval.  With *p's barrier
 * set, ml_collective_eval reports rank v's time as
 * max(c_v - (x_v - x_0), f_v): c_v its leaving time with every rank
 * starting at 0, f_v its own sends' port time (overhead + b G_c each).
 * ML_OK, ML_EINVAL (b NONE or unknown, TWO_PROC for P != 2, an invalid
 * machine), ML_ENOMEM.
 */
ML_API enum ml_status
ml_collective_barrier_exits(const struct ml_collective_params *p,
			    enum ml_coll_barrier b, double *x);

#ifdef __cplusplus
}
#endif

#endif
