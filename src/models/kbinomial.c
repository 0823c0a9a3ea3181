/*
 * kbinomial.c - optimal multicast trees under packetization with smart
 * network interface support (Kesavan & Panda, "Optimal Multicast with
 * Packetization and Network Interface Support").
 *
 * Model: a source multicasts an m-packet message to the other n - 1
 * members of a multicast set through network interfaces that forward
 * each packet First-Packet-First-Served (FPFS, Figure 7): a packet is
 * sent to every child before the next packet.  Time is counted in steps,
 * one packet transmission from interface to interface, t_step = t_ns +
 * t_prop + t_nr.  A k-binomial tree is a recursively doubling tree whose
 * vertices have at most k children (Definition 1).
 *
 *   Lemma 1:    N(s,k) = 2^s                               s <= k
 *               N(s,k) = 1 + N(s-1,k) + ... + N(s-k,k)      s > k
 *   L1(n,k)     = min { s : N(s,k) >= n }       (steps for one packet)
 *   Theorems 1, 2: steps(n,m,k) = L1(n,k) + (m-1) k
 *   Theorem 3:  the optimal k minimises steps over 1 <= k <= ceil(log2 n)
 *   Section 2.5, 4.1: latency = t_s + steps t_step + t_r
 *
 * Arithmetic.  Lemma 1 gives, for s >= 1 with N(0,k) = 1 and N(t,k) = 0
 * for t < 0, the two-term form N(s,k) = 2 N(s-1,k) - N(s-1-k,k) (subtract
 * the expansions of N(s,k) and N(s-1,k)).  ml_kbinomial_nodes iterates it
 * with saturation at the cap, so it never overflows.  L1 stops as soon as
 * N reaches n, so every iterate but the last is below n < 2^63 and
 * doubling it is safe.  For k = 1, N(s,1) = s + 1 and L1 = n - 1; for
 * k >= 2, N grows at least like the Fibonacci numbers (N(s,2) =
 * F(s+3) - 1), so L1 is at most about 1.44 log2 n, and for k >= h/2 the
 * closed form below finds it in a step or two.  Theorem 3's search
 * stops as soon as the bound h + (m-1) k (L1 >= h = ceil(log2 n)) exceeds
 * the best count found: for m >= 2 few k are tried.
 *
 * Assumptions: the step model of the paper (contention-free tree on an
 * ordered chain, every transmission one step, an interface receives
 * while it sends); host overheads t_s, t_r are paid once.  Units: us.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "mcastlat/kbinomial.h"

/*
 * The paper's Section 5.2 parameters: 64 processors, t_s = t_r = 12.5 us,
 * t_ns = 3.0 us, t_nr = 2.0 us per packet; no propagation time (the paper
 * gives none); one packet; the optimal tree of Theorem 3 with ties to the
 * largest k (Figure 12).  The command's defaults.
 */
void ml_kbinomial_params_init(struct ml_kbinomial_params *p)
{
	*p = (struct ml_kbinomial_params){
	    .nodes = 64,
	    .packets = 1,
	    .tree = ML_KBINOMIAL_OPTIMAL,
	    .k = 0,
	    .tie = ML_KBINOMIAL_TIE_LARGEST,
	    .ts = 12.5,
	    .tr = 12.5,
	    .tns = 3.0,
	    .tnr = 2.0,
	    .tprop = 0,
	    .schedule = false,
	};
}

/* Room for N(t,k), t <= 91, while iterating: for k >= 2 and any cap
 * below 2^64, N(t,k) >= N(t,2) = F(t+3) - 1 reaches the cap by t = 91
 * (F(94) > 2^64). */
#define HIST 128

/* ceil(log2 n) for n >= 1. */
static long long ceil_log2(unsigned long long n)
{
#if defined(__GNUC__)
	return n <= 1 ? 0 : 64 - __builtin_clzll(n - 1);
#else
	long long h = 0;

	while (h < 64 && (1ULL << h) < n)
		h++;
	return h;
#endif
}

/*
 * Iterate N(t,k) for t = k+1, k+2, ... with 2 <= k <= 63, given that
 * N(k,k) = 2^k < cap.  Stop at t = smax or when N(t,k) >= cap; return
 * min(N(t,k), cap) and the t reached in *t_out.
 */
static unsigned long long grow(long long k, unsigned long long cap,
			       long long smax, long long *t_out)
{
	unsigned long long hist[HIST]; /* N(t,k) at index t - k - 1 */
	unsigned long long prev = 1ULL << k, cur = prev, old, d;
	long long t, back;

	for (t = k + 1; t - k - 1 < HIST; t++) {
		/* N(t) = N(t-1) + (N(t-1) - N(t-1-k)); N(t-1-k) = 2^(t-1-k)
		 * while t - 1 - k <= k, else an earlier iterate. */
		back = t - 1 - k;
		old = back <= k ? 1ULL << back : hist[back - k - 1];
		d = prev - old;
		cur = d >= cap - prev ? cap : prev + d;
		hist[t - k - 1] = cur;
		prev = cur;
		if (cur >= cap || t >= smax)
			break;
	}
	*t_out = t;
	return cur;
}

/* N(s,k) saturated at cap, for s >= 0, k >= 1, cap >= 1. */
static unsigned long long nodes_of(long long s, long long k,
				   unsigned long long cap)
{
	long long t;

	if (k == 1) /* N(s,1) = 1 + N(s-1,1): a chain */
		return (unsigned long long)s + 1 < cap
			   ? (unsigned long long)s + 1
			   : cap;
	if (s <= k)
		return s < 64 && (1ULL << s) < cap ? 1ULL << s : cap;
	if (k >= 64 || (1ULL << k) >= cap) /* N(s,k) > N(k,k) = 2^k */
		return cap;
	return grow(k, cap, s, &t);
}

/* L1(n,k) by iterating N(t,k) = 2 N(t-1,k) - N(t-1-k,k) from N(k,k) =
 * 2^k < n, for 2 <= k <= 63: every iterate before the last is below
 * n < 2^63, so doubling it cannot overflow. */
static long long l1_iter(unsigned long long n, long long k)
{
	unsigned long long hist[HIST]; /* N(t,k) at index t */
	long long t;

	for (t = 0; t <= k; t++)
		hist[t] = 1ULL << t;
	for (; t < HIST; t++) {
		hist[t] = 2 * hist[t - 1] - hist[t - 1 - k];
		if (hist[t] >= n)
			break;
	}
	return t;
}

/*
 * L1(n,k) for n >= 2, k >= 1 and h = ceil(log2 n).  L1 >= h always, and
 * for k >= h it is h.  For s <= 2k+1 the two-term form unrolls to
 *   N(s,k) = 2^s - (s-k) 2^(s-k-1)
 * (induction on s from N(k,k) = 2^k: 2 N(s-1,k) - N(s-1-k,k) with
 * N(s-1-k,k) = 2^(s-1-k)), within a fraction (s-k)/2^(k+1) of 2^s: when
 * L1 <= 2k+1 it is found by trying s = h, h+1, ..., a step or two.
 * Other k (below about h/2) iterate the recurrence, O(log n) steps.
 * nodes_short(s,k) is that form, for k + 1 <= s <= min(2k+1, 63).
 */
static unsigned long long nodes_short(long long s, long long k)
{
	return (1ULL << s) -
	       (unsigned long long)(s - k) * (1ULL << (s - k - 1));
}

static long long l1_of(long long n, long long k, long long h)
{
	unsigned long long un = (unsigned long long)n;
	long long s, shi;

	if (k == 1) /* N(s,1) = s + 1 */
		return n - 1;
	if (k >= h) /* N(h,k) = 2^h >= n > 2^(h-1) */
		return h;
	shi = 2 * k + 1 < 63 ? 2 * k + 1 : 63; /* 2^s stays exact */
	if (shi >= h && nodes_short(shi, k) >= un) {
		for (s = h; nodes_short(s, k) < un; s++)
			;
		return s;
	}
	return l1_iter(un, k);
}

enum ml_status ml_kbinomial_nodes(long long s, long long k,
				  unsigned long long cap,
				  unsigned long long *nodes)
{
	if (s < 0 || k < 1 || cap < 1)
		return ML_EINVAL;
	*nodes = nodes_of(s, k, cap);
	return ML_OK;
}

/* L1(n,k) for n >= 1, k >= 1. */
static long long l1_full(long long n, long long k)
{
	return n == 1 ? 0 : l1_of(n, k, ceil_log2((unsigned long long)n));
}

enum ml_status ml_kbinomial_l1(long long n, long long k, long long *l1)
{
	if (n < 1 || k < 1)
		return ML_EINVAL;
	*l1 = l1_full(n, k);
	return ML_OK;
}

/*
 * Theorem 3: the k in [1, h] with the fewest steps.  Since L1(n,k) >= h,
 * h + (m-1) k bounds steps(k) from below, and the scan stops once that
 * bound rules out every larger k.  For m = 1 steps(k) = L1(n,k), which
 * falls with k to its least value h at k = h: the largest k ties there,
 * the smallest is found by bisection.
 */
static long long optimal_k(long long n, long long m, long long h,
			   enum ml_kbinomial_tie tie, long long *l1)
{
	long long k, best_k = 1, best = LLONG_MAX, best_l1 = n - 1, l, st;
	long long lo, hi, mid;

	if (m == 1) {
		*l1 = h;
		if (tie == ML_KBINOMIAL_TIE_LARGEST)
			return h;
		lo = 1;
		hi = h; /* L1(n,hi) == h */
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (l1_of(n, mid, h) == h)
				hi = mid;
			else
				lo = mid + 1;
		}
		return lo;
	}
	for (k = 1; k <= h; k++) {
		/* h + (m-1) k cannot overflow: h <= 63, m <= 2^40. */
		if (h + (m - 1) * k > best)
			break;
		l = l1_of(n, k, h);
		st = l + (m - 1) * k;
		if (st < best ||
		    (st == best && tie == ML_KBINOMIAL_TIE_LARGEST)) {
			best = st;
			best_k = k;
			best_l1 = l;
		}
	}
	*l1 = best_l1;
	return best_k;
}

enum ml_status ml_kbinomial_validate(const struct ml_kbinomial_params *p,
				     struct ml_diag *d)
{
	const struct {
		const char *name;
		double v;
	} times[] = {{"ts", p->ts},
		     {"tr", p->tr},
		     {"tns", p->tns},
		     {"tnr", p->tnr},
		     {"tprop", p->tprop}};
	size_t i;

	if (p->nodes < 1 || p->nodes > ML_KBINOMIAL_MAX_NODES)
		return ml_diag_set(d, "nodes", "%lld is outside [1, 2^62]",
				   p->nodes);
	if (p->packets < 1 || p->packets > ML_KBINOMIAL_MAX_PACKETS)
		return ml_diag_set(d, "packets", "%lld is outside [1, 2^40]",
				   p->packets);
	if (p->tree < ML_KBINOMIAL_OPTIMAL || p->tree > ML_KBINOMIAL_FIXED)
		return ml_diag_set(d, "tree", "unknown tree");
	if (p->tree == ML_KBINOMIAL_FIXED && p->k < 1)
		return ml_diag_set(d, "tree", "k = %lld is not >= 1", p->k);
	if (p->tie != ML_KBINOMIAL_TIE_LARGEST &&
	    p->tie != ML_KBINOMIAL_TIE_SMALLEST)
		return ml_diag_set(d, "tie", "unknown tie rule");
	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		if (!isfinite(times[i].v) || times[i].v < 0)
			return ml_diag_set(d, times[i].name,
					   "%g is not a time >= 0", times[i].v);
	if (p->schedule) {
		if (p->nodes > ML_KBINOMIAL_SIM_MAX_NODES)
			return ml_diag_set(d, "schedule",
					   "nodes = %lld exceeds the "
					   "simulation limit 2^20 = %lld",
					   p->nodes,
					   ML_KBINOMIAL_SIM_MAX_NODES);
		/* nodes <= 2^20, packets <= 2^40: the product fits */
		if (p->nodes * p->packets > ML_KBINOMIAL_SIM_MAX_WORK)
			return ml_diag_set(d, "schedule",
					   "nodes x packets = %lld exceeds the "
					   "simulation limit %lld",
					   p->nodes * p->packets,
					   ML_KBINOMIAL_SIM_MAX_WORK);
	}
	return ML_OK;
}

/* Build the tree of k and simulate it: *steps, or a status. */
static enum ml_status simulate(long long n, long long m, long long k,
			       long long *steps)
{
	uint32_t *off, *kid;
	enum ml_status st;

	off = malloc(((size_t)n + 1) * sizeof(*off));
	kid = malloc((size_t)(n > 1 ? n - 1 : 1) * sizeof(*kid));
	if (off == NULL || kid == NULL) {
		st = ML_ENOMEM;
	} else {
		st = ml_kbinomial_tree_build(n, k, off, kid);
		if (st == ML_OK)
			st = ml_kbinomial_fpfs(n, off, kid, m, steps);
	}
	free(off);
	free(kid);
	return st;
}

enum ml_status ml_kbinomial_eval(const struct ml_kbinomial_params *p,
				 struct ml_kbinomial_result *res)
{
	long long n = p->nodes, m = p->packets, h, k = 0, l1, sim = -1;
	double tstep = p->tns + p->tprop + p->tnr;
	struct ml_kbinomial_result r;
	enum ml_status st;

	st = ml_kbinomial_validate(p, NULL);
	if (st != ML_OK)
		return st;
	h = ceil_log2((unsigned long long)n);
	l1 = -1;
	switch (p->tree) {
	case ML_KBINOMIAL_OPTIMAL:
		k = n > 1 ? optimal_k(n, m, h, p->tie, &l1) : 0;
		break;
	case ML_KBINOMIAL_BINOMIAL:
		k = h;
		break;
	case ML_KBINOMIAL_LINEAR:
		k = h < 1 ? h : 1;
		break;
	case ML_KBINOMIAL_FIXED:
		k = p->k < h ? p->k : h;
		break;
	}
	r.k = k;
	if (l1 < 0)
		l1 = k > 0 ? l1_of(n, k, h) : 0;
	r.l1 = l1;
	r.steps = r.l1 + (m - 1) * k;
	r.latency = p->ts + (double)r.steps * tstep + p->tr;
	r.binomial_steps = (h > 0 ? l1_of(n, h, h) : 0) + (m - 1) * h;
	r.binomial_latency = p->ts + (double)r.binomial_steps * tstep + p->tr;
	/* Both latencies are 0 only when every time is 0: no difference. */
	r.speedup = r.latency > 0 ? r.binomial_latency / r.latency : 1.0;
	if (p->schedule) {
		st = simulate(n, m, k > 0 ? k : 1, &sim);
		if (st != ML_OK)
			return st;
	}
	r.sim_steps = sim;
	*res = r;
	return ML_OK;
}

enum ml_status ml_kbinomial_tree_build(long long n, long long k, uint32_t *off,
				       uint32_t *kid)
{
	uint32_t *cnt, *bud;
	long long v, s, c, d, i, rem, right, a, child, pos = 0;
	enum ml_status st = ML_OK;

	if (n < 1 || n > ML_KBINOMIAL_SIM_MAX_NODES || k < 1 || off == NULL ||
	    (n > 1 && kid == NULL))
		return ML_EINVAL;
	if (k > 64)
		k = 64; /* no node of n <= 2^20 has more than 20 children */
	cnt = malloc((size_t)n * sizeof(*cnt)); /* positions v covers */
	bud = malloc((size_t)n * sizeof(*bud)); /* steps v has for them */
	if (cnt == NULL || bud == NULL) {
		free(cnt);
		free(bud);
		return ML_ENOMEM;
	}
	cnt[0] = (uint32_t)n;
	bud[0] = (uint32_t)l1_full(n, k);
	/* Children lie to the right of their parent, so chain order visits
	 * every parent before its children. */
	for (v = 0; v < n; v++) {
		off[v] = (uint32_t)pos;
		c = cnt[v];
		s = bud[v];
		d = k < s ? k : s;
		if (c - 1 < d)
			d = c - 1;
		rem = c - 1;
		right = v + c; /* one past the last position v covers */
		for (i = 1; i <= d; i++) {
			/* Block of child i: N(s-i,k) positions from the right
			 * (Figure 11), less when fewer remain, leaving one for
			 * each of the d - i children still to come. */
			a = (long long)nodes_of(s - i, k,
					       (unsigned long long)rem);
			if (a > rem - (d - i))
				a = rem - (d - i);
			child = right - a;
			kid[pos++] = (uint32_t)child;
			cnt[child] = (uint32_t)a;
			bud[child] = (uint32_t)(s - i);
			right = child;
			rem -= a;
		}
		if (rem != 0) { /* cannot happen: c <= N(s,k) throughout */
			st = ML_EINVAL;
			break;
		}
	}
	off[n] = (uint32_t)pos;
	free(cnt);
	free(bud);
	return st;
}

enum ml_status ml_kbinomial_fpfs(long long n, const uint32_t *off,
				 const uint32_t *kid, long long m,
				 long long *steps)
{
	long long *arr, *last, v, j, t, a, done = 0;
	uint32_t e;
	enum ml_status st = ML_OK;

	if (n < 1 || n > ML_KBINOMIAL_SIM_MAX_NODES || m < 1 || off == NULL ||
	    (n > 1 && kid == NULL) || steps == NULL)
		return ML_EINVAL;
	if (off[0] != 0 || off[n] != (uint32_t)(n - 1))
		return ML_EINVAL;
	arr = calloc((size_t)n, sizeof(*arr));	 /* arrival of this packet */
	last = calloc((size_t)n, sizeof(*last)); /* step of the last send */
	if (arr == NULL || last == NULL) {
		st = ML_ENOMEM;
		goto out;
	}
	/* off must not fall (with off[n] = n - 1 no index then leaves kid),
	 * and every node but the source must have exactly one parent, to its
	 * left; last[] marks the nodes seen. */
	for (v = 0; v < n; v++)
		if (off[v + 1] < off[v])
			st = ML_EINVAL;
	for (v = 0; v < n && st == ML_OK; v++) {
		for (e = off[v]; e < off[v + 1]; e++) {
			if (kid[e] <= v || kid[e] >= n || last[kid[e]]) {
				st = ML_EINVAL;
				break;
			}
			last[kid[e]] = 1;
		}
	}
	if (st != ML_OK)
		goto out;
	for (v = 0; v < n; v++)
		last[v] = 0;
	/*
	 * Packet by packet, node by node in chain order: when node v is
	 * reached, its parent has already sent it packet j (arr[v]), and
	 * last[v] is the step of v's own latest send (of packet j-1).  FPFS:
	 * packet j goes to each child in order, each send in the step after
	 * the later of the previous send and the packet's arrival.
	 */
	for (j = 0; j < m; j++) {
		arr[0] = 0;
		for (v = 0; v < n; v++) {
			t = last[v];
			a = arr[v];
			for (e = off[v]; e < off[v + 1]; e++) {
				t = (t > a ? t : a) + 1;
				arr[kid[e]] = t;
			}
			last[v] = t;
			if (t > done)
				done = t;
		}
	}
	*steps = done;
out:
	free(arr);
	free(last);
	return st;
}
