/*
 * kbinomial.h - optimal multicast trees under packetization with smart
 * network interfaces (Kesavan & Panda, k-binomial trees, FPFS).
 *
 * A source multicasts an m-packet message to n - 1 destinations; the
 * network interfaces forward packets First-Packet-First-Served.  A
 * k-binomial tree (every vertex has at most k children) finishes in
 * L1(n,k) + (m-1) k steps, where L1(n,k) is the least s with N(s,k) >= n
 * and N(s,k) is the number of nodes a k-binomial tree reaches in s steps.
 * Times are in microseconds; counts are exact integers.
 */
#ifndef MCASTLAT_KBINOMIAL_H
#define MCASTLAT_KBINOMIAL_H

#include <stdbool.h>
#include <stdint.h>

#include "mcastlat/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest multicast set size n (2^62) and number of packets m (2^40):
 * with these every step count fits a long long exactly. */
#define ML_KBINOMIAL_MAX_NODES	 (1LL << 62)
#define ML_KBINOMIAL_MAX_PACKETS (1LL << 40)

/* Limits of the packet-by-packet simulation (--schedule): it keeps
 * O(n) memory (about 24 bytes per node) and takes O(n m) time. */
#define ML_KBINOMIAL_SIM_MAX_NODES (1LL << 20)
#define ML_KBINOMIAL_SIM_MAX_WORK  100000000LL /* n * m */

/* Which tree to use. */
enum ml_kbinomial_tree {
	ML_KBINOMIAL_OPTIMAL,  /* the k of Theorem 3 with the fewest steps */
	ML_KBINOMIAL_BINOMIAL, /* k = ceil(log2 n) */
	ML_KBINOMIAL_LINEAR,   /* k = 1 */
	ML_KBINOMIAL_FIXED     /* the k given in params.k */
};

/* Which k wins a tie between k values with equally few steps. */
enum ml_kbinomial_tie {
	ML_KBINOMIAL_TIE_LARGEST, /* Figure 12: m = 1 gives ceil(log2 n) */
	ML_KBINOMIAL_TIE_SMALLEST /* least interface buffering */
};

struct ml_kbinomial_params {
	long long nodes;   /* n, multicast set size with the source, >= 1 */
	long long packets; /* m, packets in the message, >= 1 */
	enum ml_kbinomial_tree tree;
	long long k; /* ML_KBINOMIAL_FIXED only: k >= 1 */
	enum ml_kbinomial_tie tie;
	double ts;     /* host send software overhead, us */
	double tr;     /* host receive software overhead, us */
	double tns;    /* interface send overhead per packet, us */
	double tnr;    /* interface receive overhead per packet, us */
	double tprop;  /* propagation time per packet, us */
	bool schedule; /* also simulate the FPFS pipeline */
};

struct ml_kbinomial_result {
	long long k;		  /* children of the root: the tree's k */
	long long l1;		  /* steps for one packet, L1(n,k) */
	long long steps;	  /* L1 + (m-1) k */
	double latency;		  /* t_s + steps t_step + t_r, us */
	long long binomial_steps; /* the same for k = ceil(log2 n) */
	double binomial_latency;  /* us */
	double speedup;		  /* binomial_latency / latency */
	long long sim_steps;	  /* simulated steps; -1 without schedule */
};

/*
 * Fill *p with the command's defaults, the paper's Section 5.2
 * parameters: n = 64, m = 1, the optimal tree with ties to the largest
 * k, t_s = t_r = 12.5 us, t_ns = 3.0 us, t_nr = 2.0 us, t_prop = 0, no
 * schedule.  A zeroed struct is invalid (n = 0, m = 0).
 */
ML_API void ml_kbinomial_params_init(struct ml_kbinomial_params *p);

/*
 * N(s,k) of Lemma 1, the number of nodes a k-binomial tree covers in s
 * steps, saturated at cap: *nodes = min(N(s,k), cap).  N(s,k) = 2^s
 * for s <= k and 1 + N(s-1,k) + ... + N(s-k,k) for s > k.  Returns ML_OK,
 * or ML_EINVAL (*nodes untouched) unless s >= 0, k >= 1 and cap >= 1.
 * Never overflows.
 */
ML_API enum ml_status ml_kbinomial_nodes(long long s, long long k,
					 unsigned long long cap,
					 unsigned long long *nodes);

/*
 * L1(n,k): the least s with N(s,k) >= n, i.e. the steps a k-binomial
 * tree needs to deliver one packet to a multicast set of n nodes (0 for
 * n = 1, n - 1 for k = 1), into *l1.  O(log n) time.  Returns ML_OK, or
 * ML_EINVAL (*l1 untouched) unless n >= 1 and k >= 1.
 */
ML_API enum ml_status ml_kbinomial_l1(long long n, long long k, long long *l1);

/*
 * Check p against the domain (the limits above; for schedule also
 * n <= ML_KBINOMIAL_SIM_MAX_NODES and n m <= ML_KBINOMIAL_SIM_MAX_WORK).
 * Return ML_OK, or ML_EINVAL with *d (when not NULL) naming the option.
 */
ML_API enum ml_status ml_kbinomial_validate(const struct ml_kbinomial_params *p,
					    struct ml_diag *d);

/*
 * Evaluate the model at p.  The k of a fixed tree larger than
 * ceil(log2 n) yields the binomial tree (no vertex of a recursively
 * doubling tree on n nodes has more children), so res->k is
 * min(k, ceil(log2 n)); for n = 1 it is 0 and every step count is 0.
 * With p->schedule the tree is built and simulated as well
 * (ml_kbinomial_tree_build, ml_kbinomial_fpfs).  Returns ML_OK,
 * ML_EINVAL (res untouched) or ML_ENOMEM.
 */
ML_API enum ml_status ml_kbinomial_eval(const struct ml_kbinomial_params *p,
					struct ml_kbinomial_result *res);

/*
 * Build the contention-free k-binomial tree of Figure 11 on the ordered
 * chain 0, 1, ..., n-1 with the source at 0.  A node covering c chain
 * positions (itself and the c - 1 to its right) in s steps sends, in
 * step i = 1, 2, ..., d with d = min(k, s, c - 1), to the first node of
 * a block of at most N(s-i,k) positions, blocks laid from the right end
 * leftwards (the paper's "N(s-1,k) places from the right end"); where
 * c < N(s,k) the block sizes are cut from the left so that each of the d
 * children keeps at least one position, which keeps the root at exactly
 * k children as Theorem 1 assumes.  Each child covers its block in
 * s - i steps recursively; the root has s = L1(n,k).
 *
 * The tree is written in compressed form: the children of node v, in
 * the order v sends to them, are kid[off[v]] .. kid[off[v+1]-1].  off
 * must hold n + 1 entries and kid n - 1 (kid may be NULL when n = 1).
 * Every child's position exceeds its parent's.  Requires
 * 1 <= n <= ML_KBINOMIAL_SIM_MAX_NODES and k >= 1; returns ML_EINVAL
 * otherwise and ML_ENOMEM when scratch memory runs out.
 */
ML_API enum ml_status ml_kbinomial_tree_build(long long n, long long k,
					      uint32_t *off, uint32_t *kid);

/*
 * Simulate the FPFS pipeline (Figure 7) of an m-packet multicast on any
 * tree given as by ml_kbinomial_tree_build (node 0 is the source; every
 * child's position exceeds its parent's; children in sending order).  One
 * step is one packet transmission, interface to interface.  In each
 * step a node sends at most one packet; it sends packet 1 to each child
 * in order, then packet 2 to each child, and so on, each send in the
 * first step after both its previous send and the packet's arrival (a
 * packet received in step t is forwarded from step t + 1 on; receiving
 * does not hold up sending).  The source holds every packet at step 0.
 * *steps receives the step in which the last packet reaches the last
 * destination (0 for n = 1).  Work O(n m), memory O(n).  Returns
 * ML_EINVAL when n < 1, m < 1 or the tree breaks the order rules,
 * ML_ENOMEM when memory runs out.
 */
ML_API enum ml_status ml_kbinomial_fpfs(long long n, const uint32_t *off,
					const uint32_t *kid, long long m,
					long long *steps);

#ifdef __cplusplus
}
#endif

#endif
