/*
 * torus.c - small-message multicast latency on unidirectional SCI tori
 * (S. Oral and A. D. George, "Multicast performance modeling and evaluation
 * for high-speed unidirectional torus networks", 2003).
 *
 * A root sends an M-byte message to the G - 1 other members of a group on
 * a k-ary N-dimensional unidirectional torus by one of five software
 * algorithms; the latency is that of the deepest path of the algorithm's
 * communication tree, each relaying node adding L_i (relaxed LogP):
 *
 *   t = max over paths [ o + h_i L_i + o ] = 2 o + h L_i        (eq 7)
 *   L_i = o + t_process + o                                      (eq 5)
 *   o(M) = 1.994 + 0.00315 (M - 128) us       (Figure 8, M = 128..512)
 *   t_process (Table 1, us): sep 7, Md 206, Mu 201, U 629, S 265
 *
 * Paper model (the closed forms for a 2-D k x k torus, p = ceil(G/r)):
 *   separate addressing  t = (G - 1)(2 o + t_p)                    (eq 8)
 *                  [eq6] t = (G - 1)(o + t_p) + o                  (eq 6)
 *   Md-torus             t = 2 o + ceil(G/k) L_i                   (eq 9)
 *              [minus1]  t = 2 o + (ceil(G/k) - 1) L_i
 *   Mu-torus             t = 2 o + (G - 2) L_i,          p < 2     (eq 10)
 *                        t = 2 o + (p + r - 2) L_i,      p >= 2
 *   U-torus              t = 2 o + ceil(log2 G) L_i                (eq 11)
 *               [literal] t = 2 o + ceil(log2 G) ((G mod k) + k)/k L_i
 *               [e]      t = 2 o + (ceil(log2 G) - 1) ((G mod k) + k)/k L_i
 *               [h]      t = 2 o + floor(log2 G) ((G mod k) + k)/k L_i
 *   S-torus              t = 2 o + (G - 2) L_i                     (eq 12)
 * Eqs 9, 10 (p >= 2) and 11 are readings of a damaged OCR (SPEC 5.1);
 * the bracketed variants are the other readings.  For eq 11 the default
 * is the `steps' reading, the binomial tree's ceil(log2 G) rounds: the
 * literal OCR (exact division by k) overshoots the top of the paper's own
 * Figure 12 (3500 us on 4x4: 3801.9 us at G = 10 and 14, 4434.9 at 11 and
 * 15) and is a sawtooth that drops by 43 % each time G reaches a multiple
 * of k (4434.9 at G = 15, 2535.9 at 16), while steps stays within the
 * axis (at most 2535.9) and never decreases with G.
 *
 * Structural model: the group is sorted by rank(v) = (v - root) mod k^N
 * and each algorithm's tree is built on it (sep: a star; S: one chain;
 * Mu: p chains of r, the root sending to its successor and then to the
 * other heads; Md: one chain per ringlet along dimension N - 1, the root
 * sending to its successor and then to the other ringlets' heads; U:
 * recursive halving, the sender sending to the head of the far half).  For
 * a path of m messages whose senders had already made s_1 .. s_m earlier
 * sends, h_plain = m - 1, h_serial = m - 1 + sum s_j, hop depth = m; the
 * tree's values are the maxima over paths, and eq 7 uses h = h_plain (S,
 * Mu with p < 2), h_serial (Mu, p >= 2), hop depth (Md) or h_serial + 1
 * (U; sep, where t = h (2 o + t_p) as in eq 8).  With full, the network
 * term of eqs 3 and 4 under unidirectional dimension-order routing is
 * added for the deepest path, summed over its messages u -> w:
 *
 *   hp = sum_d ((w_d - u_d) mod k),  hs = (dimensions crossed) - 1,
 *   hf = hp - 1 - hs,  t_network = hp Lp + hf Lf + hs Ls        (eq 4)
 *
 * with coordinates c_d(v) = floor(v / k^d) mod k.  The deepest path is
 * one with the largest h; among ties, the one with the largest network
 * term, then the first in tree order.
 *
 * Units: times in microseconds, M in bytes.  Cost: O(G log G) time and
 * O(G) memory per structural evaluation; no global state.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "mcastlat/torus.h"

/* ---------------------------------------------------------------------
 * Parameters
 */

/*
 * The paper's testbed, a 4 x 4 unidirectional torus (Section 4), with a
 * group of all 16 nodes and the 128-byte messages of Figures 9 to 13;
 * o(M) of Figure 8 and Table 1's t_process (NaN asks for them); Mu-torus
 * r = k; Lp = 14, Lf = 60, Ls = 670 ns (Figure 8).
 * alg is separate addressing, the first of the command's default "all".
 */
void ml_torus_params_init(struct ml_torus_params *p)
{
	*p = (struct ml_torus_params){
	    .alg = ML_TORUS_SEP,
	    .model = ML_TORUS_PAPER,
	    .variant = ML_TORUS_VAR_DEFAULT,
	    .k = 4,
	    .dims = 2,
	    .group = 16,
	    .msg = 128,
	    .r = 0,
	    .o = NAN,
	    .tprocess = NAN,
	    .root = 0,
	    .placement = ML_TORUS_ROWMAJOR,
	    .seed = 1,
	    .members = NULL,
	    .nmembers = 0,
	    .full = false,
	    .lp = 0.014,
	    .lf = 0.060,
	    .ls = 0.670,
	};
}

double ml_torus_overhead(unsigned long long msg)
{
	return 1.994 + 0.00315 * ((double)msg - 128.0);
}

/* Table 1, for a valid algorithm. */
static double tprocess_of(enum ml_torus_alg alg)
{
	static const double us[ML_TORUS_NALG] = {
	    [ML_TORUS_SEP] = 7.0, [ML_TORUS_U] = 629.0, [ML_TORUS_S] = 265.0,
	    [ML_TORUS_MD] = 206.0, [ML_TORUS_MU] = 201.0};

	return us[alg];
}

enum ml_status ml_torus_tprocess(enum ml_torus_alg alg, double *us)
{
	if ((unsigned)alg >= ML_TORUS_NALG)
		return ML_EINVAL;
	*us = tprocess_of(alg);
	return ML_OK;
}

const char *ml_torus_note(unsigned notes)
{
	static const char *const text[8] = {
	    "",
	    "o extrapolated outside 128..512 bytes",
	    "2-D closed form used for N != 2",
	    "o extrapolated outside 128..512 bytes; "
	    "2-D closed form used for N != 2",
	    "variant ignored by the structural model",
	    "o extrapolated outside 128..512 bytes; "
	    "variant ignored by the structural model",
	    "2-D closed form used for N != 2; "
	    "variant ignored by the structural model",
	    "o extrapolated outside 128..512 bytes; "
	    "2-D closed form used for N != 2; "
	    "variant ignored by the structural model",
	};
	return text[notes & 7u];
}

/* k^N, or 0 when it exceeds ML_TORUS_MAX_NODES. */
static unsigned long long torus_nodes(unsigned long long k, unsigned dims)
{
	unsigned long long n = 1;
	unsigned i;

	for (i = 0; i < dims; i++) {
		if (n > ML_TORUS_MAX_NODES / k)
			return 0;
		n *= k;
	}
	return n;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

static bool bad_time(double t)
{
	return !isfinite(t) || t < 0.0;
}

/* The member list: range, duplicates, root.  May return ML_ENOMEM. */
static enum ml_status torus_check_members(const struct ml_torus_params *p,
					  unsigned long long n,
					  struct ml_diag *d)
{
	unsigned long long *s;
	bool has_root = false;
	size_t i;

	if (p->nmembers != p->group)
		return ml_diag_set(d, "group",
				   "%llu differs from the number of "
				   "members, %zu",
				   p->group, p->nmembers);
	for (i = 0; i < p->nmembers; i++) {
		if (p->members[i] >= n)
			return ml_diag_set(d, "members",
					   "id %llu exceeds k^N - 1 = %llu",
					   p->members[i], n - 1);
		if (p->members[i] == p->root)
			has_root = true;
	}
	if (!has_root)
		return ml_diag_set(d, "root", "%llu is not among the members",
				   p->root);
	s = malloc(p->nmembers * sizeof(*s));
	if (s == NULL)
		return ML_ENOMEM;
	for (i = 0; i < p->nmembers; i++)
		s[i] = p->members[i];
	qsort(s, p->nmembers, sizeof(*s), cmp_ull);
	for (i = 1; i < p->nmembers; i++) {
		if (s[i] == s[i - 1]) {
			unsigned long long dup = s[i];

			free(s);
			return ml_diag_set(d, "members",
					   "id %llu is listed "
					   "twice",
					   dup);
		}
	}
	free(s);
	return ML_OK;
}

enum ml_status ml_torus_validate(const struct ml_torus_params *p,
				 struct ml_diag *d)
{
	unsigned long long n, r;

	if ((unsigned)p->alg >= ML_TORUS_NALG)
		return ml_diag_set(d, "algorithm", "unknown algorithm %u",
				   (unsigned)p->alg);
	if ((unsigned)p->model >= ML_TORUS_NMODEL)
		return ml_diag_set(d, "model", "unknown model %u",
				   (unsigned)p->model);
	if ((unsigned)p->variant >= ML_TORUS_NVARIANT)
		return ml_diag_set(d, "variant", "unknown variant %u",
				   (unsigned)p->variant);
	if ((unsigned)p->placement >= ML_TORUS_NPLACEMENT)
		return ml_diag_set(d, "placement", "unknown placement %u",
				   (unsigned)p->placement);
	if (p->k < 2)
		return ml_diag_set(d, "k", "%llu is less than 2", p->k);
	if (p->dims < 1)
		return ml_diag_set(d, "dims", "%u is less than 1", p->dims);
	n = torus_nodes(p->k, p->dims);
	if (n == 0)
		return ml_diag_set(d, "dims",
				   "k^N = %llu^%u exceeds 2^53 nodes", p->k,
				   p->dims);
	if (p->group < 2)
		return ml_diag_set(d, "group", "%llu is less than 2", p->group);
	if (p->group > n)
		return ml_diag_set(d, "group", "%llu exceeds k^N = %llu",
				   p->group, n);
	if (p->model == ML_TORUS_STRUCTURAL && p->group > ML_TORUS_MAX_TREE)
		return ml_diag_set(d, "group",
				   "%llu exceeds the structural "
				   "model's limit of %llu",
				   p->group, ML_TORUS_MAX_TREE);
	if (p->msg < 1)
		return ml_diag_set(d, "msg", "%llu is less than 1", p->msg);
	r = p->r == 0 ? p->k : p->r;
	if (r < 2)
		return ml_diag_set(d, "r", "%llu is less than 2", r);
	if (!isnan(p->o) && bad_time(p->o))
		return ml_diag_set(d, "o", "%g is not a time >= 0", p->o);
	if (!isnan(p->tprocess) && bad_time(p->tprocess))
		return ml_diag_set(d, "tprocess", "%g is not a time >= 0",
				   p->tprocess);
	if (bad_time(p->lp))
		return ml_diag_set(d, "lp", "%g is not a time >= 0", p->lp);
	if (bad_time(p->lf))
		return ml_diag_set(d, "lf", "%g is not a time >= 0", p->lf);
	if (bad_time(p->ls))
		return ml_diag_set(d, "ls", "%g is not a time >= 0", p->ls);
	if (p->root >= n)
		return ml_diag_set(d, "root", "%llu exceeds k^N - 1 = %llu",
				   p->root, n - 1);
	if (p->members != NULL) {
		if (p->placement == ML_TORUS_RANDOM)
			return ml_diag_set(d, "placement",
					   "random conflicts "
					   "with an explicit member list");
		return torus_check_members(p, n, d);
	}
	return ML_OK;
}

/* ---------------------------------------------------------------------
 * Paper model: the closed forms of SPEC 5.1.
 */

static unsigned long long ceil_div(unsigned long long a, unsigned long long b)
{
	return a / b + (a % b != 0);
}

/* floor(log2 x) and ceil(log2 x) for x >= 1, exactly. */
static unsigned floor_log2(unsigned long long x)
{
	unsigned l = 0;

	while (x >>= 1)
		l++;
	return l;
}

static unsigned ceil_log2(unsigned long long x)
{
	unsigned l = floor_log2(x);

	return (x & (x - 1)) != 0 ? l + 1 : l;
}

/* h of eqs 9 to 12 (sep: G - 1, the number of serial sends). */
static double paper_h(const struct ml_torus_params *p, unsigned long long r)
{
	unsigned long long g = p->group, pp;
	double factor;

	switch (p->alg) {
	case ML_TORUS_SEP:
		return (double)(g - 1);
	case ML_TORUS_S:
		return (double)(g - 2);
	case ML_TORUS_MD:
		if (p->variant == ML_TORUS_VAR_MINUS1)
			return (double)(ceil_div(g, p->k) - 1);
		return (double)ceil_div(g, p->k);
	case ML_TORUS_MU:
		pp = ceil_div(g, r);
		if (pp < 2)
			return (double)(g - 2);
		return (double)(pp + r - 2);
	case ML_TORUS_U:
		/* Exact division: h may be fractional (SPEC 5.1). */
		factor = (double)(g % p->k + p->k) / (double)p->k;
		switch (p->variant) {
		case ML_TORUS_VAR_LITERAL:
			return (double)ceil_log2(g) * factor;
		case ML_TORUS_VAR_E:
			return (double)(ceil_log2(g) - 1) * factor;
		case ML_TORUS_VAR_H:
			return (double)floor_log2(g) * factor;
		default: /* steps */
			return (double)ceil_log2(g);
		}
	case ML_TORUS_NALG:
		break;
	}
	return NAN;
}

/* ---------------------------------------------------------------------
 * Structural model: the group, the trees, the walk.
 */

/* One member in tree order; parent and order describe its incoming
 * message, depth/serial/net the path from the root. */
struct tnode {
	unsigned long long id;
	unsigned long long key; /* rank, or the Md ringlet sort key */
	uint32_t parent;
	uint32_t order;
	uint32_t depth;
	uint32_t serial;
	double net;
};

/* xoshiro256** seeded by splitmix64: a generator local to one call. */
struct prng {
	uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void prng_seed(struct prng *g, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		g->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t prng_next(struct prng *g)
{
	uint64_t *s = g->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

/* Uniform in [0, n), n >= 1, without modulo bias. */
static uint64_t prng_below(struct prng *g, uint64_t n)
{
	uint64_t lim = (0 - n) % n; /* 2^64 mod n */
	uint64_t x;

	do
		x = prng_next(g);
	while (x < lim);
	return x % n;
}

/*
 * rank[1 .. need] = need distinct ranks drawn uniformly from 1 .. n - 1,
 * sorted.  Dense groups use selection sampling (Knuth's algorithm S,
 * O(n)); sparse ones draw with replacement and redraw the duplicates
 * (O(G log G), a collision chance below 1/4 per draw).
 */
static enum ml_status random_ranks(unsigned long long *rank, size_t need,
				   unsigned long long n, uint64_t seed)
{
	unsigned long long m = n - 1, c;
	unsigned long long *out = rank + 1;
	struct prng g;
	size_t have = 0, i, j;

	prng_seed(&g, seed);
	if (m <= 4 * (unsigned long long)need) {
		for (c = 0; c < m && have < need; c++)
			if (prng_below(&g, m - c) < need - have)
				out[have++] = c + 1;
		return ML_OK;
	}
	while (have < need) {
		for (i = have; i < need; i++)
			out[i] = 1 + prng_below(&g, m);
		qsort(out, need, sizeof(*out), cmp_ull);
		for (i = 1, j = 1; i < need; i++)
			if (out[i] != out[j - 1])
				out[j++] = out[i];
		have = j;
	}
	return ML_OK;
}

/* The group's ranks, sorted, rank[0] = 0 being the root. */
static enum ml_status group_ranks(const struct ml_torus_params *p,
				  unsigned long long n,
				  unsigned long long *rank)
{
	size_t g = (size_t)p->group, i;

	if (p->members != NULL) {
		for (i = 0; i < g; i++)
			rank[i] = (p->members[i] + n - p->root) % n;
		qsort(rank, g, sizeof(*rank), cmp_ull);
		return ML_OK;
	}
	rank[0] = 0;
	if (p->placement == ML_TORUS_RANDOM)
		return random_ranks(rank, g - 1, n, p->seed);
	for (i = 1; i < g; i++)
		rank[i] = i;
	return ML_OK;
}

/* U-torus on t[lo .. hi - 1]: lo sends to the head of the far half, the
 * far half recurses, lo goes on with the near half.  Depth <= log2 G. */
static void u_tree(struct tnode *t, size_t lo, size_t hi)
{
	uint32_t ord = 0;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo + 1) / 2;

		t[mid].parent = (uint32_t)lo;
		t[mid].order = ord++;
		u_tree(t, mid, hi);
		hi = mid;
	}
}

/* Md-torus sort key: the ringlet (all coordinates but c_(N-1)) relative
 * to the root's, then the position along the ringlet downstream of the
 * root's c_(N-1).  Keys are distinct and the root alone has key 0. */
static void md_keys(struct tnode *t, size_t g, const struct ml_torus_params *p,
		    unsigned long long n)
{
	unsigned long long k1 = n / p->k; /* k^(N-1) */
	unsigned long long rkey = p->root % k1, rc = p->root / k1;
	size_t i;

	for (i = 0; i < g; i++) {
		unsigned long long v = t[i].id;
		unsigned long long kk = (v % k1 + k1 - rkey) % k1;
		unsigned long long off = (v / k1 + p->k - rc) % p->k;

		t[i].key = kk * p->k + off;
	}
}

static int cmp_tnode_key(const void *a, const void *b)
{
	const struct tnode *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/* Build alg's tree on t[0 .. g-1] (ids filled, rank order): reorders t
 * into tree order for Md and sets parent/order of every node but t[0]. */
static void build_tree(struct tnode *t, size_t g,
		       const struct ml_torus_params *p, unsigned long long n,
		       unsigned long long r)
{
	size_t i;

	for (i = 1; i < g; i++)
		t[i].order = 0;
	t[0].parent = 0;
	t[0].order = 0;
	switch (p->alg) {
	case ML_TORUS_SEP:
		for (i = 1; i < g; i++) {
			t[i].parent = 0;
			t[i].order = (uint32_t)(i - 1);
		}
		break;
	case ML_TORUS_S:
		for (i = 1; i < g; i++)
			t[i].parent = (uint32_t)(i - 1);
		break;
	case ML_TORUS_MU:
		/* Partition j = ranks j r .. j r + r - 1; the root sends to
		 * rank 1 first (send 0), then to head j (send j). */
		for (i = 1; i < g; i++) {
			if (i % r == 0) {
				t[i].parent = 0;
				t[i].order = (uint32_t)(i / r);
			} else {
				t[i].parent = (uint32_t)(i - 1);
			}
		}
		break;
	case ML_TORUS_MD: {
		uint32_t ord;
		size_t head;

		md_keys(t, g, p, n);
		qsort(t, g, sizeof(*t), cmp_tnode_key);
		/* t[0] is the root (key 0); ringlet = key / k. */
		ord = (g > 1 && t[1].key / p->k == 0) ? 1 : 0;
		head = 0;
		for (i = 1; i < g; i++) {
			if (t[i].key / p->k != t[head].key / p->k) {
				head = i;
				t[i].parent = 0;
				t[i].order = ord++;
			} else {
				t[i].parent = (uint32_t)(i - 1);
			}
		}
		break;
	}
	case ML_TORUS_U:
		u_tree(t, 0, g);
		break;
	case ML_TORUS_NALG:
		break;
	}
}

/* Network hops of one message u -> w under unidirectional
 * dimension-order routing (eq 4). */
static void edge_hops(unsigned long long u, unsigned long long w,
		      unsigned long long k, unsigned dims,
		      unsigned long long *hp, unsigned long long *hf,
		      unsigned long long *hs)
{
	unsigned long long p = 0, crossed = 0;
	unsigned d;

	for (d = 0; d < dims; d++) {
		unsigned long long delta = (w % k + k - u % k) % k;

		p += delta;
		crossed += delta != 0;
		u /= k;
		w /= k;
	}
	*hp = p;
	*hs = crossed > 0 ? crossed - 1 : 0;
	*hf = p > 0 ? p - 1 - *hs : 0;
}

static double edge_net(unsigned long long u, unsigned long long w,
		       const struct ml_torus_params *p)
{
	unsigned long long hp, hf, hs;

	edge_hops(u, w, p->k, p->dims, &hp, &hf, &hs);
	return (double)hp * p->lp + (double)hf * p->lf + (double)hs * p->ls;
}

/* The group in tree order with each node's incoming message set; the
 * caller frees *out.  ML_ENOMEM when it cannot be allocated. */
static enum ml_status make_tree(const struct ml_torus_params *p,
				unsigned long long r, struct tnode **out)
{
	unsigned long long n = torus_nodes(p->k, p->dims);
	size_t g = (size_t)p->group, i;
	unsigned long long *rank;
	struct tnode *t;
	enum ml_status st;

	rank = malloc(g * sizeof(*rank));
	t = malloc(g * sizeof(*t));
	if (rank == NULL || t == NULL) {
		free(rank);
		free(t);
		return ML_ENOMEM;
	}
	st = group_ranks(p, n, rank);
	if (st != ML_OK) {
		free(rank);
		free(t);
		return st;
	}
	for (i = 0; i < g; i++) {
		t[i].id = (p->root + rank[i]) % n;
		t[i].key = rank[i];
	}
	free(rank);
	build_tree(t, g, p, n, r);
	*out = t;
	return ML_OK;
}

/* h of the path ending at t[i] for p->alg. */
static uint64_t path_h(const struct tnode *x, enum ml_torus_alg alg, bool chain)
{
	uint64_t plain = x->depth - 1, serial = plain + x->serial;

	switch (alg) {
	case ML_TORUS_SEP:
	case ML_TORUS_U:
		return serial + 1;
	case ML_TORUS_MD:
		return x->depth;
	case ML_TORUS_MU:
		return chain ? plain : serial;
	case ML_TORUS_S:
	case ML_TORUS_NALG:
		break;
	}
	return plain;
}

static enum ml_status structural_eval(const struct ml_torus_params *p,
				      unsigned long long r,
				      struct ml_torus_result *res)
{
	size_t g = (size_t)p->group, i, best = 1;
	bool chain = ceil_div(p->group, r) < 2;
	uint64_t maxdepth = 0, maxserial = 0, besth = 0;
	struct tnode *t;
	enum ml_status st;

	st = make_tree(p, r, &t);
	if (st != ML_OK)
		return st;
	t[0].depth = 0;
	t[0].serial = 0;
	t[0].net = 0.0;
	for (i = 1; i < g; i++) {
		const struct tnode *u = &t[t[i].parent];
		uint64_t h;

		t[i].depth = u->depth + 1;
		t[i].serial = u->serial + t[i].order;
		t[i].net = p->full ? u->net + edge_net(u->id, t[i].id, p) : 0.0;
		if (t[i].depth > maxdepth)
			maxdepth = t[i].depth;
		if (t[i].depth - 1 + (uint64_t)t[i].serial > maxserial)
			maxserial = t[i].depth - 1 + (uint64_t)t[i].serial;
		h = path_h(&t[i], p->alg, chain);
		if (h > besth || (h == besth && t[i].net > t[best].net)) {
			besth = h;
			best = i;
		}
	}
	res->h = (double)besth;
	res->h_plain = (double)(maxdepth - 1);
	res->h_serial = (double)maxserial;
	res->hop_depth = (double)maxdepth;
	if (p->full) {
		unsigned long long hp = 0, hf = 0, hs = 0, a, b, c;

		for (i = best; i != 0; i = t[i].parent) {
			edge_hops(t[t[i].parent].id, t[i].id, p->k, p->dims, &a,
				  &b, &c);
			hp += a;
			hf += b;
			hs += c;
		}
		res->hp = (double)hp;
		res->hf = (double)hf;
		res->hs = (double)hs;
		res->t_network = t[best].net;
	}
	free(t);
	return ML_OK;
}

/* ---------------------------------------------------------------------
 * Entry points
 */

enum ml_status ml_torus_eval(const struct ml_torus_params *p,
			     struct ml_torus_result *res)
{
	struct ml_torus_result x;
	unsigned long long r;
	double o, tp, li, net = 0.0;
	enum ml_status st;
	unsigned notes = 0;

	st = ml_torus_validate(p, NULL);
	if (st != ML_OK)
		return st;
	r = p->r == 0 ? p->k : p->r;
	o = p->o;
	if (isnan(o)) {
		o = ml_torus_overhead(p->msg);
		if (p->msg < 128 || p->msg > 512)
			notes |= ML_TORUS_NOTE_EXTRAPOLATED;
	}
	tp = isnan(p->tprocess) ? tprocess_of(p->alg) : p->tprocess;
	li = tp + 2.0 * o;
	x.o = o;
	x.tprocess = tp;
	x.li = li;
	x.r = r;
	x.h_plain = x.h_serial = x.hop_depth = NAN;
	x.hp = x.hf = x.hs = x.t_network = NAN;
	if (p->model == ML_TORUS_PAPER) {
		x.h = paper_h(p, r);
		if (p->dims != 2)
			notes |= ML_TORUS_NOTE_NOT2D;
	} else {
		st = structural_eval(p, r, &x);
		if (st != ML_OK)
			return st;
		if (p->full)
			net = x.t_network;
		if ((p->variant == ML_TORUS_VAR_MINUS1 &&
		     p->alg == ML_TORUS_MD) ||
		    (p->variant > ML_TORUS_VAR_STEPS && p->alg == ML_TORUS_U))
			notes |= ML_TORUS_NOTE_VARIANT;
	}
	if (p->alg == ML_TORUS_SEP) {
		/* Eq 8: G - 1 serial unicasts, no relays; eq 6 overlaps the
		 * sender's and receiver's o of consecutive sends. */
		if (p->variant == ML_TORUS_VAR_EQ6)
			x.latency = x.h * (o + tp) + o;
		else
			x.latency = x.h * li;
	} else {
		x.latency = 2.0 * o + x.h * li; /* eq 7 */
	}
	x.latency += net;
	x.notes = notes;
	*res = x;
	return ML_OK;
}

enum ml_status ml_torus_tree(const struct ml_torus_params *p,
			     struct ml_torus_edge *edges, size_t cap,
			     size_t *nedges)
{
	struct ml_torus_params q = *p;
	unsigned long long r;
	struct tnode *t;
	enum ml_status st;
	size_t i;

	q.model = ML_TORUS_STRUCTURAL;
	st = ml_torus_validate(&q, NULL);
	if (st != ML_OK)
		return st;
	if (cap < q.group - 1)
		return ML_EINVAL;
	r = q.r == 0 ? q.k : q.r;
	st = make_tree(&q, r, &t);
	if (st != ML_OK)
		return st;
	for (i = 1; i < (size_t)q.group; i++) {
		edges[i - 1].from = t[t[i].parent].id;
		edges[i - 1].to = t[i].id;
		edges[i - 1].order = t[i].order;
	}
	*nedges = (size_t)q.group - 1;
	free(t);
	return ML_OK;
}
