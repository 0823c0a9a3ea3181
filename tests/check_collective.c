/*
 * check_collective.c - Open MPI's broadcast algorithms on a node
 * hierarchy (SPEC section 10, include/mcastlat/collective.h).
 *
 * Every expected value here comes from outside the implementation:
 *   - the trees are built again in this file from their mathematical
 *     definitions (notes/ompi_bcast.md section 2.2): binomial by bits,
 *     build_tree(2) by level order, the k-nomial tree by base-k digits,
 *     chains by cutting 1..P-1 into runs; each builder lists a rank's
 *     children by inverting the parent relation, not by a child formula;
 *   - Open MPI's fixed decision is the table of notes section 3, written
 *     below as data (checked against coll_tuned_decision_fixed.c at tag
 *     v4.1.8 by reading it);
 *   - placements from the words of SPEC 10.2;
 *   - times from the engine rules of collective.h, by an independent
 *     recurrence (one rank per node, no overhead, no NIC gap, eager
 *     segments) and by hand for the tiny cases written out in comments.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcastlat/collective.h"

Suite *suite_collective(void);

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

#define TMAX 301 /* ranks of the independent trees: P <= 300 */
#define KMAX 128 /* children per rank (linear's root: P <= 129) */
#define KCAP 64	 /* kids buffer handed to ml_collective_tree */
#define SMAX 64	 /* segments in the independent engine */

static int close_rel(double got, double want, double rel)
{
	double scale = fabs(want) > 1.0 ? fabs(want) : 1.0;

	return fabs(got - want) <= rel * scale;
}

#define ck_close(got, want)                                                    \
	do {                                                                   \
		double g_ = (got), w_ = (want);                                \
		ck_assert_msg(close_rel(g_, w_, 1e-9),                         \
			      "%s = %.17g, expected %.17g (%s)", #got, g_, w_, \
			      #want);                                          \
	} while (0)

/* An assertion for the inner loops: Check's ck_assert reports every
 * passing check to the runner (a write each), which in the loops over
 * hundreds of thousands of ranks would cost seconds. */
#define require(cond)                                                          \
	do {                                                                   \
		if (!(cond))                                                   \
			ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #cond);  \
	} while (0)

/* The tree kinds of this file's own builder. */
enum mykind { T_BINOMIAL, T_BINARY, T_KNOMIAL, T_CHAIN, T_LINEAR };

struct tree {
	long long n;
	long long par[TMAX];
	int nk[TMAX];
	long long kid[TMAX][KMAX];
};

static struct tree *tree_new(void)
{
	struct tree *t = calloc(1, sizeof(*t));

	ck_assert_ptr_nonnull(t);
	return t;
}

/* Empty the first n ranks (clearing all 300 KB each time would cost
 * more than the whole suite). */
static void tree_reset(struct tree *t, long long n)
{
	memset(t->par, 0, (size_t)n * sizeof(t->par[0]));
	memset(t->nk, 0, (size_t)n * sizeof(t->nk[0]));
	t->n = n;
}

/* The largest power of k dividing w (w >= 1): the place value of w's
 * lowest nonzero base-k digit. */
static long long low_place(long long w, long long k)
{
	long long pv = 1;

	while (w % (pv * k) == 0)
		pv *= k;
	return pv;
}

/* S(L) = (f^L - 1) / (f - 1): the number of ranks above level L of
 * build_tree(f), by summing the levels. */
static long long above_level(long long f, long long level)
{
	long long s = 0, w = 1, l;

	for (l = 0; l < level; l++) {
		s += w;
		w *= f;
	}
	return s;
}

static long long ipow(long long b, long long e)
{
	long long r = 1;

	while (e-- > 0)
		r *= b;
	return r;
}

/*
 * Parent of w >= 1 by definition:
 *   binomial: w with its highest set bit cleared;
 *   binary (build_tree(2)), level order: level L holds 2^L ranks; the
 *     rank at offset o of level L hangs under offset o mod 2^(L-1) of
 *     level L-1;
 *   knomial(k): w with its lowest nonzero base-k digit cleared;
 *   linear: the root.
 * (Chains are cut separately in build_chain_tree.)
 */
static long long parent_of(enum mykind kind, long long w, long long arg)
{
	long long hb, level, o;

	switch (kind) {
	case T_BINOMIAL:
		hb = 1;
		while (hb * 2 <= w)
			hb *= 2;
		return w - hb;
	case T_BINARY:
		level = 0;
		while (above_level(2, level + 1) <= w)
			level++;
		o = w - above_level(2, level);
		return above_level(2, level - 1) + o % ipow(2, level - 1);
	case T_KNOMIAL: {
		long long pv = low_place(w, arg);

		return w - ((w / pv) % arg) * pv;
	}
	case T_LINEAR:
	case T_CHAIN:
	default:
		return 0;
	}
}

static void add_kid(struct tree *t, long long v, long long w)
{
	require(t->nk[v] < KMAX);
	t->kid[v][t->nk[v]++] = w;
	t->par[w] = v;
}

/* build_chain(f): 1..P-1 cut into f' = min(max(f, 1), 32, P-1) runs of
 * consecutive ranks, the first (P-1) mod f' of them one longer; the
 * root feeds the heads in increasing order, each rank the next one. */
static void build_chain_tree(struct tree *t, long long f)
{
	long long n = t->n, q, r, c, next = 1, j;

	if (f < 1)
		f = 1;
	if (f > 32)
		f = 32;
	if (f > n - 1)
		f = n - 1;
	q = (n - 1) / f;
	r = (n - 1) % f;
	for (c = 0; c < f; c++) {
		long long len = q + (c < r ? 1 : 0);

		add_kid(t, 0, next);
		for (j = 1; j < len; j++)
			add_kid(t, next + j - 1, next + j);
		next += len;
	}
	require(next == n);
}

static void build_tree(struct tree *t, enum mykind kind, long long n,
		       long long arg)
{
	long long w, v;

	require(n >= 2 && n < TMAX);
	tree_reset(t, n);
	t->par[0] = -1;
	if (kind == T_CHAIN) {
		build_chain_tree(t, arg);
		return;
	}
	/* Children by inverting the parent relation, in increasing rank. */
	for (w = 1; w < n; w++) {
		long long p = parent_of(kind, w, arg);

		require(p >= 0 && p < w);
		add_kid(t, p, w);
	}
	if (kind != T_KNOMIAL)
		return;
	/* k-nomial order: the largest subtrees first, i.e. by the place
	 * value of the digit the child sets, descending; within one place
	 * value by the digit, ascending.  Stable insertion sort. */
	for (v = 0; v < n; v++) {
		int i, j;

		for (i = 1; i < t->nk[v]; i++) {
			long long x = t->kid[v][i];
			long long px = low_place(x, arg);

			for (j = i;
			     j > 0 && low_place(t->kid[v][j - 1], arg) < px;
			     j--)
				t->kid[v][j] = t->kid[v][j - 1];
			t->kid[v][j] = x;
		}
	}
}

/* ------------------------------------------------------------------ */
/* 1. Trees                                                            */

struct tree_case {
	enum ml_coll_alg kind; /* what ml_collective_tree is asked */
	long long arg;
	enum mykind mine;
	long long myarg;
};

static const struct tree_case tree_cases[] = {
    {ML_COLL_BINOMIAL, 0, T_BINOMIAL, 0},
    {ML_COLL_BINARY, 0, T_BINARY, 0},
    {ML_COLL_KNOMIAL, 2, T_KNOMIAL, 2},
    {ML_COLL_KNOMIAL, 3, T_KNOMIAL, 3},
    {ML_COLL_KNOMIAL, 4, T_KNOMIAL, 4},
    {ML_COLL_KNOMIAL, 5, T_KNOMIAL, 5},
    {ML_COLL_CHAIN, 1, T_CHAIN, 1},
    {ML_COLL_CHAIN, 2, T_CHAIN, 2},
    {ML_COLL_CHAIN, 4, T_CHAIN, 4},
    {ML_COLL_CHAIN, 7, T_CHAIN, 7},
    {ML_COLL_CHAIN, 32, T_CHAIN, 32},
    {ML_COLL_CHAIN, 0, T_CHAIN, 1}, /* fanout 0 -> 1 */
    {ML_COLL_PIPELINE, 0, T_CHAIN, 1},
};
#define NTREE_CASES ((int)(sizeof(tree_cases) / sizeof(tree_cases[0])))

/* The implementation's tree of P ranks into t (asserting ML_OK). */
static void impl_tree(struct tree *t, enum ml_coll_alg kind, long long n,
		      long long arg)
{
	long long v, kids[KCAP];

	tree_reset(t, n);
	for (v = 0; v < n; v++) {
		long long parent = -2;
		int nk = -1, i;
		enum ml_status st = ml_collective_tree(kind, n, arg, v, &parent,
						       kids, KCAP, &nk);

		if (st != ML_OK || nk < 0 || nk > KCAP)
			ck_abort_msg("tree(kind %d, P %lld, arg %lld, v %lld): "
				     "status %d, nkids %d",
				     (int)kind, n, arg, v, (int)st, nk);
		t->par[v] = parent;
		t->nk[v] = nk;
		for (i = 0; i < nk; i++)
			t->kid[v][i] = kids[i];
	}
}

/* Structural invariants of any broadcast tree, on the implementation's
 * output alone: the root has no parent, every other rank exactly one,
 * listed once among that parent's children, P-1 edges, and every rank
 * reaches the root. */
static void check_invariants(const struct tree *t, const char *what)
{
	long long n = t->n, v, edges = 0;

	if (t->par[0] != -1)
		ck_abort_msg("%s P %lld: root's parent %lld", what, n,
			     t->par[0]);
	for (v = 0; v < n; v++) {
		int i, seen = 0;
		long long p = t->par[v], u, steps;

		edges += t->nk[v];
		for (i = 0; i < t->nk[v]; i++) {
			long long c = t->kid[v][i];

			if (c <= 0 || c >= n || t->par[c] != v)
				ck_abort_msg("%s P %lld: %lld lists child %lld "
					     "whose parent is %lld",
					     what, n, v, c,
					     c > 0 && c < n ? t->par[c] : -9);
		}
		if (v == 0)
			continue;
		if (p < 0 || p >= n || p == v)
			ck_abort_msg("%s P %lld: parent of %lld is %lld", what,
				     n, v, p);
		for (i = 0; i < t->nk[p]; i++)
			seen += t->kid[p][i] == v;
		if (seen != 1)
			ck_abort_msg("%s P %lld: %lld listed %d times by its "
				     "parent %lld",
				     what, n, v, seen, p);
		for (u = v, steps = 0; u != 0 && steps < n; steps++)
			u = t->par[u];
		if (u != 0)
			ck_abort_msg("%s P %lld: %lld does not reach the root",
				     what, n, v);
	}
	if (edges != n - 1)
		ck_abort_msg("%s P %lld: %lld edges", what, n, edges);
}

static void compare_trees(const struct tree *got, const struct tree *want,
			  const char *what)
{
	long long v;

	for (v = 0; v < want->n; v++) {
		int i, same = got->par[v] == want->par[v] &&
			      got->nk[v] == want->nk[v];

		for (i = 0; same && i < want->nk[v]; i++)
			same = got->kid[v][i] == want->kid[v][i];
		if (!same) {
			char gs[256] = "", ws[256] = "";
			size_t gl = 0, wl = 0;

			for (i = 0; i < got->nk[v] && gl < 200; i++)
				gl += (size_t)snprintf(gs + gl, sizeof(gs) - gl,
						       " %lld", got->kid[v][i]);
			for (i = 0; i < want->nk[v] && wl < 200; i++)
				wl +=
				    (size_t)snprintf(ws + wl, sizeof(ws) - wl,
						     " %lld", want->kid[v][i]);
			ck_abort_msg(
			    "%s P %lld v %lld: got parent %lld kids [%s]"
			    ", expected parent %lld kids [%s]",
			    what, want->n, v, got->par[v], gs, want->par[v],
			    ws);
		}
	}
}

/* Every tree for P = 2..300 against this file's construction. */
START_TEST(test_tree_construction)
{
	const struct tree_case *c = &tree_cases[_i];
	struct tree *got = tree_new(), *want = tree_new();
	char what[64];
	long long n;

	snprintf(what, sizeof(what), "kind %d arg %lld", (int)c->kind, c->arg);
	for (n = 2; n < TMAX; n++) {
		build_tree(want, c->mine, n, c->myarg);
		impl_tree(got, c->kind, n, c->arg);
		check_invariants(got, what);
		compare_trees(got, want, what);
	}
	free(got);
	free(want);
}
END_TEST

/*
 * The worked examples of notes/ompi_bcast.md section 2.2 (and the
 * radix-3 picture in coll_base_topo.c's comment), literally, for both
 * this file's builder and the implementation.  Children lists, -1 ends.
 */
struct example {
	enum ml_coll_alg kind;
	long long arg, n;
	enum mykind mine;
	long long lists[10][6]; /* lists[v] = children of v, then -1 */
};

static const struct example examples[] = {
    /* build_tree(2), P=10: 0:[1,2] 1:[3,5] 2:[4,6] 3:[7] 4:[8] 5:[9] */
    {ML_COLL_BINARY,
     0,
     10,
     T_BINARY,
     {{1, 2, -1},
      {3, 5, -1},
      {4, 6, -1},
      {7, -1},
      {8, -1},
      {9, -1},
      {-1},
      {-1},
      {-1},
      {-1}}},
    /* bmtree, P=10: 0:[1,2,4,8] 1:[3,5,9] 2:[6] 3:[7] */
    {ML_COLL_BINOMIAL,
     0,
     10,
     T_BINOMIAL,
     {{1, 2, 4, 8, -1},
      {3, 5, 9, -1},
      {6, -1},
      {7, -1},
      {-1},
      {-1},
      {-1},
      {-1},
      {-1},
      {-1}}},
    /* kmtree k=4, P=10: 0:[4,8,1,2,3] 4:[5,6,7] 8:[9] */
    {ML_COLL_KNOMIAL,
     4,
     10,
     T_KNOMIAL,
     {{4, 8, 1, 2, 3, -1},
      {-1},
      {-1},
      {-1},
      {5, 6, 7, -1},
      {-1},
      {-1},
      {-1},
      {9, -1},
      {-1}}},
    /* kmtree k=2, P=10: 0:[8,4,2,1] 2:[3] 4:[6,5] 6:[7] 8:[9] */
    {ML_COLL_KNOMIAL,
     2,
     10,
     T_KNOMIAL,
     {{8, 4, 2, 1, -1},
      {-1},
      {3, -1},
      {-1},
      {6, 5, -1},
      {-1},
      {7, -1},
      {-1},
      {9, -1},
      {-1}}},
    /* kmtree k=3, P=10 (coll_base_topo.c): 0:[9,3,6,1,2] 3:[4,5]
     * 6:[7,8] */
    {ML_COLL_KNOMIAL,
     3,
     10,
     T_KNOMIAL,
     {{9, 3, 6, 1, 2, -1},
      {-1},
      {-1},
      {4, 5, -1},
      {-1},
      {-1},
      {7, 8, -1},
      {-1},
      {-1},
      {-1}}},
    /* chain f=4, P=10: root -> [1,4,6,8]; 1->2->3, 4->5, 6->7, 8->9 */
    {ML_COLL_CHAIN,
     4,
     10,
     T_CHAIN,
     {{1, 4, 6, 8, -1},
      {2, -1},
      {3, -1},
      {-1},
      {5, -1},
      {-1},
      {7, -1},
      {-1},
      {9, -1},
      {-1}}},
    /* chain f=4, P=8: root -> [1,3,5,7]; 1->2, 3->4, 5->6, 7 alone */
    {ML_COLL_CHAIN,
     4,
     8,
     T_CHAIN,
     {{1, 3, 5, 7, -1}, {2, -1}, {-1}, {4, -1}, {-1}, {6, -1}, {-1}, {-1}}},
    /* pipeline, P=5: 0->1->2->3->4 */
    {ML_COLL_PIPELINE,
     0,
     5,
     T_CHAIN,
     {{1, -1}, {2, -1}, {3, -1}, {4, -1}, {-1}}},
    /* chain f=32 capped at P-1 = 4, P=5: the root feeds every rank */
    {ML_COLL_CHAIN, 32, 5, T_CHAIN, {{1, 2, 3, 4, -1}, {-1}, {-1}, {-1}, {-1}}},
    /* chain f=3, P=9: 8 ranks in 3 chains of 3, 3, 2: [1,4,7] */
    {ML_COLL_CHAIN,
     3,
     9,
     T_CHAIN,
     {{1, 4, 7, -1},
      {2, -1},
      {3, -1},
      {-1},
      {5, -1},
      {6, -1},
      {-1},
      {8, -1},
      {-1}}},
};
#define NEXAMPLES ((int)(sizeof(examples) / sizeof(examples[0])))

static void example_tree(struct tree *t, const struct example *e)
{
	long long v;

	tree_reset(t, e->n);
	t->par[0] = -1;
	for (v = 0; v < e->n; v++) {
		int i;

		for (i = 0; e->lists[v][i] >= 0; i++) {
			t->kid[v][i] = e->lists[v][i];
			t->par[e->lists[v][i]] = v;
		}
		t->nk[v] = i;
	}
}

START_TEST(test_tree_examples)
{
	const struct example *e = &examples[_i];
	struct tree *lit = tree_new(), *mine = tree_new(), *got = tree_new();

	example_tree(lit, e);
	build_tree(mine, e->mine, e->n, e->arg);
	compare_trees(mine, lit, "this file's builder vs the notes");
	impl_tree(got, e->kind, e->n, e->arg);
	compare_trees(got, lit, "ml_collective_tree vs the notes");
	free(lit);
	free(mine);
	free(got);
}
END_TEST

START_TEST(test_tree_rejects)
{
	long long parent = 77, kids[KCAP];
	int nk = 55;

	kids[0] = 99;
	/* Kinds without a tree. */
	ck_assert_int_eq(ml_collective_tree(ML_COLL_LINEAR, 8, 0, 1, &parent,
					    kids, KCAP, &nk),
			 ML_EINVAL);
	ck_assert_int_eq(ml_collective_tree(ML_COLL_SPLIT_BINARY + 100, 8, 0, 1,
					    &parent, kids, KCAP, &nk),
			 ML_EINVAL);
	ck_assert_int_eq(ml_collective_tree(ML_COLL_SCATTER_ALLGATHER, 8, 0, 1,
					    &parent, kids, KCAP, &nk),
			 ML_EINVAL);
	ck_assert_int_eq(ml_collective_tree(ML_COLL_SPLIT_BINARY, 8, 0, 1,
					    &parent, kids, KCAP, &nk),
			 ML_EINVAL);
	/* Ranks and v out of range. */
	ck_assert_int_eq(ml_collective_tree(ML_COLL_BINOMIAL, 0, 0, 0, &parent,
					    kids, KCAP, &nk),
			 ML_EINVAL);
	ck_assert_int_eq(ml_collective_tree(ML_COLL_BINOMIAL, 8, 0, 8, &parent,
					    kids, KCAP, &nk),
			 ML_EINVAL);
	ck_assert_int_eq(ml_collective_tree(ML_COLL_BINOMIAL, 8, 0, -1, &parent,
					    kids, KCAP, &nk),
			 ML_EINVAL);
	/* Radix < 2, fanout outside 0..32. */
	ck_assert_int_eq(ml_collective_tree(ML_COLL_KNOMIAL, 8, 1, 0, &parent,
					    kids, KCAP, &nk),
			 ML_EINVAL);
	ck_assert_int_eq(ml_collective_tree(ML_COLL_CHAIN, 8, -1, 0, &parent,
					    kids, KCAP, &nk),
			 ML_EINVAL);
	ck_assert_int_eq(ml_collective_tree(ML_COLL_CHAIN, 80, 33, 0, &parent,
					    kids, KCAP, &nk),
			 ML_EINVAL);
	/* cap too small: the binomial root of 8 has 3 children [1,2,4]. */
	ck_assert_int_eq(ml_collective_tree(ML_COLL_BINOMIAL, 8, 0, 0, &parent,
					    kids, 2, &nk),
			 ML_EINVAL);
	ck_assert_int_eq(parent, 77); /* outputs untouched */
	ck_assert_int_eq(nk, 55);
	/* ... and exactly enough is fine. */
	ck_assert_int_eq(ml_collective_tree(ML_COLL_BINOMIAL, 8, 0, 0, &parent,
					    kids, 3, &nk),
			 ML_OK);
	ck_assert_int_eq(nk, 3);
	ck_assert_int_eq(parent, -1);
	ck_assert_int_eq(kids[0], 1);
	ck_assert_int_eq(kids[1], 2);
	ck_assert_int_eq(kids[2], 4);
	/* A leaf needs no room at all. */
	ck_assert_int_eq(ml_collective_tree(ML_COLL_BINOMIAL, 8, 0, 7, &parent,
					    kids, 0, &nk),
			 ML_OK);
	ck_assert_int_eq(nk, 0);
	ck_assert_int_eq(parent, 3);
	/* One rank is outside params' domain (P >= 2) but is a tree all
	 * the same (Open MPI builds it): either refused or the bare root. */
	parent = 77;
	nk = 55;
	if (ml_collective_tree(ML_COLL_BINOMIAL, 1, 0, 0, &parent, kids, KCAP,
			       &nk) == ML_OK) {
		ck_assert_int_eq(parent, -1);
		ck_assert_int_eq(nk, 0);
	} else {
		ck_assert_int_eq(parent, 77);
		ck_assert_int_eq(nk, 55);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* 2. Open MPI's fixed decision                                        */

/*
 * notes/ompi_bcast.md section 3 (= coll_tuned_decision_fixed.c,
 * ompi_coll_tuned_bcast_intra_dec_fixed, v4.1.8 and v5.0.10): for P in
 * [plo, phi), alg[i] while m < th[i]; alg[nth] above the last threshold.
 */
static const struct decide_row {
	long long plo, phi;
	int nth;
	long long th[10];
	int alg[11];
} decide_table[] = {
    {2,
     4,
     9,
     {32, 256, 512, 1024, 32768, 131072, 262144, 524288, 1048576},
     {3, 5, 3, 7, 1, 5, 2, 1, 6, 5}},
    {4, 8, 5, {64, 128, 2048, 8192, 1048576}, {5, 6, 5, 6, 1, 2}},
    {8, 16, 5, {8, 64, 4096, 16384, 32768}, {7, 5, 7, 5, 6, 1}},
    {16, 32, 2, {4096, 1048576}, {7, 6, 8}},
    {32, 64, 1, {2048}, {6, 7}},
    {64, 128, 0, {0}, {7}},
    {128, 256, 4, {2, 16384, 32768, 65536}, {6, 5, 1, 5, 7}},
    {256, 1024, 2, {16384, 32768}, {7, 4, 7}},
    {1024, 2048, 1, {524288}, {7, 8}},
    {2048, 4096, 1, {262144}, {7, 8}},
    {4096, ML_COLL_MAX_RANKS + 1, 3, {8192, 16384, 262144}, {7, 5, 7, 8}},
};

START_TEST(test_decide_table)
{
	size_t r;

	for (r = 0; r < sizeof(decide_table) / sizeof(decide_table[0]); r++) {
		const struct decide_row *row = &decide_table[r];
		int nth = row->nth;
		long long ps[4] = {row->plo, row->plo + 1, row->phi - 2,
				   row->phi - 1};
		int pi, i;

		for (pi = 0; pi < 4; pi++) {
			long long n = ps[pi];

			if (n < row->plo || n >= row->phi)
				continue;
			/* m = 1 and the largest message. */
			ck_assert_msg(ml_collective_ompi_decide(n, 1) ==
					  (enum ml_coll_alg)row->alg[0],
				      "P %lld m 1: got %d", n,
				      (int)ml_collective_ompi_decide(n, 1));
			ck_assert_msg(
			    ml_collective_ompi_decide(n, ML_COLL_MAX_MSG) ==
				(enum ml_coll_alg)row->alg[nth],
			    "P %lld m 2^40: got %d", n,
			    (int)ml_collective_ompi_decide(n, ML_COLL_MAX_MSG));
			/* Just below and at each threshold. */
			for (i = 0; i < nth; i++) {
				long long m = row->th[i];
				enum ml_coll_alg below =
				    ml_collective_ompi_decide(n, m - 1);
				enum ml_coll_alg at =
				    ml_collective_ompi_decide(n, m);

				if (m - 1 >= 1)
					ck_assert_msg(
					    below ==
						(enum ml_coll_alg)row->alg[i],
					    "P %lld m %lld: got %d, expected "
					    "%d",
					    n, m - 1, (int)below, row->alg[i]);
				ck_assert_msg(
				    at == (enum ml_coll_alg)row->alg[i + 1],
				    "P %lld m %lld: got %d, expected %d", n, m,
				    (int)at, row->alg[i + 1]);
			}
		}
	}
	/* Alg 9 is never chosen; spot checks of the notes' prose. */
	ck_assert_int_eq(ml_collective_ompi_decide(2, 1), ML_COLL_PIPELINE);
	ck_assert_int_eq(ml_collective_ompi_decide(100, 1), ML_COLL_KNOMIAL);
	ck_assert_int_eq(ml_collective_ompi_decide(300, 20000),
			 ML_COLL_SPLIT_BINARY);
	ck_assert_int_eq(ml_collective_ompi_decide(20, 1 << 20),
			 ML_COLL_SCATTER_ALLGATHER);
	ck_assert_int_eq(ml_collective_ompi_decide(5, 1 << 20), ML_COLL_CHAIN);
	ck_assert_int_eq(ml_collective_ompi_decide(200, 1), ML_COLL_BINOMIAL);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Machines                                                            */

/* One rank per node (every pair talks over the net), L and G on the
 * net; the other channels get values that must not matter. */
static struct ml_collective_params logp_params(long long n, long long m,
					       enum ml_coll_alg a,
					       long long seg, double lat,
					       double gap)
{
	struct ml_collective_params p;

	ml_collective_params_init(&p);
	p.ranks = n;
	p.msg = m;
	p.algorithm = a;
	p.segment = seg;
	p.fanout = 4;
	p.radix = 4;
	p.ppn = 1;
	p.sockets = 1;
	p.nodes = 0;
	p.map_by = ML_COLL_MAP_CORE;
	p.lat[ML_COLL_SOCKET] = 0.31;
	p.lat[ML_COLL_NODE] = 0.57;
	p.lat[ML_COLL_NET] = lat;
	p.byte[ML_COLL_SOCKET] = 1.3e-4;
	p.byte[ML_COLL_NODE] = 2.9e-4;
	p.byte[ML_COLL_NET] = gap;
	p.overhead = 0;
	p.nic_gap = 0;
	p.eager = 4096;
	return p;
}

/* Three channels with distinct values: L = 1, 2, 5 us, G = 0.001,
 * 0.002, 0.01 us/B (100 B: 0.1, 0.2, 1.0 us). */
static struct ml_collective_params
hier_params(long long n, long long m, enum ml_coll_alg a, long long ppn,
	    long long sockets, long long nodes, enum ml_coll_map map)
{
	struct ml_collective_params p = logp_params(n, m, a, 0, 5.0, 0.01);

	p.ppn = ppn;
	p.sockets = sockets;
	p.nodes = nodes;
	p.map_by = map;
	p.lat[ML_COLL_SOCKET] = 1.0;
	p.lat[ML_COLL_NODE] = 2.0;
	p.byte[ML_COLL_SOCKET] = 0.001;
	p.byte[ML_COLL_NODE] = 0.002;
	return p;
}

static struct ml_collective_result eval_ok(const struct ml_collective_params *p)
{
	struct ml_collective_result r;
	enum ml_status st;

	memset(&r, 0, sizeof(r));
	st = ml_collective_eval(p, &r);
	ck_assert_msg(st == ML_OK,
		      "eval(alg %d, P %lld, M %lld, seg %lld) status %d",
		      (int)p->algorithm, p->ranks, p->msg, p->segment, (int)st);
	return r;
}

/* ------------------------------------------------------------------ */
/* 3. Placement                                                        */

/* SPEC 10.2 in words: core fills node 0's cores in order (socket 0's
 * cores first), then node 1; socket alternates the sockets of a node,
 * then the next node; node deals ranks round robin over all N nodes,
 * each node's ranks filling its cores in order. */
static void my_place(long long r, long long ppn, long long sockets,
		     long long nodes, enum ml_coll_map map, long long *node,
		     long long *socket)
{
	long long per = ppn / sockets, local;

	switch (map) {
	case ML_COLL_MAP_CORE:
		*node = r / ppn;
		*socket = (r % ppn) / per;
		return;
	case ML_COLL_MAP_SOCKET:
		*node = r / ppn;
		*socket = (r % ppn) % sockets;
		return;
	case ML_COLL_MAP_NODE:
	default:
		*node = r % nodes;
		local = r / nodes;
		*socket = local / per;
		return;
	}
}

/* ppn 4, 2 sockets (2 cores each), 3 nodes, P = 12, by hand:
 *   core:   node r/4, socket 0 0 1 1 | 0 0 1 1 | 0 0 1 1
 *   socket: node r/4, socket 0 1 0 1 | 0 1 0 1 | 0 1 0 1
 *   node:   node 0 1 2 0 1 2 0 1 2 0 1 2 (r mod 3), socket 0 0 0 0 0 0
 *           1 1 1 1 1 1 (r/3 = the local core 0..3, /2) */
START_TEST(test_place_hand)
{
	static const long long want[3][12][2] = {
	    {{0, 0},
	     {0, 0},
	     {0, 1},
	     {0, 1},
	     {1, 0},
	     {1, 0},
	     {1, 1},
	     {1, 1},
	     {2, 0},
	     {2, 0},
	     {2, 1},
	     {2, 1}},
	    {{0, 0},
	     {0, 1},
	     {0, 0},
	     {0, 1},
	     {1, 0},
	     {1, 1},
	     {1, 0},
	     {1, 1},
	     {2, 0},
	     {2, 1},
	     {2, 0},
	     {2, 1}},
	    {{0, 0},
	     {1, 0},
	     {2, 0},
	     {0, 0},
	     {1, 0},
	     {2, 0},
	     {0, 1},
	     {1, 1},
	     {2, 1},
	     {0, 1},
	     {1, 1},
	     {2, 1}},
	};
	static const enum ml_coll_map maps[3] = {
	    ML_COLL_MAP_CORE, ML_COLL_MAP_SOCKET, ML_COLL_MAP_NODE};
	int mi;
	long long r;

	for (mi = 0; mi < 3; mi++) {
		struct ml_collective_params p =
		    hier_params(12, 100, ML_COLL_BINOMIAL, 4, 2, 3, maps[mi]);

		for (r = 0; r < 12; r++) {
			long long node = -1, socket = -1;

			ck_assert_int_eq(
			    ml_collective_place(&p, r, &node, &socket), ML_OK);
			ck_assert_msg(
			    node == want[mi][r][0] && socket == want[mi][r][1],
			    "map %d rank %lld: node %lld socket %lld, "
			    "expected %lld %lld",
			    mi, r, node, socket, want[mi][r][0],
			    want[mi][r][1]);
		}
	}
}
END_TEST

/* Channels by hand, same machine (P = 12):
 *   core: 0-1 socket, 0-2 node, 0-4 net, 5-6 node, 6-7 socket
 *   socket: 0-1 node, 0-2 socket, 1-3 socket, 3-4 net
 *   node: 0-3 socket, 0-6 node, 0-1 net, 3-9 node, 1-4 socket */
START_TEST(test_channel_hand)
{
	static const struct {
		enum ml_coll_map map;
		long long a, b;
		enum ml_coll_channel c;
	} cases[] = {
	    {ML_COLL_MAP_CORE, 0, 1, ML_COLL_SOCKET},
	    {ML_COLL_MAP_CORE, 0, 2, ML_COLL_NODE},
	    {ML_COLL_MAP_CORE, 0, 4, ML_COLL_NET},
	    {ML_COLL_MAP_CORE, 5, 6, ML_COLL_NODE},
	    {ML_COLL_MAP_CORE, 6, 7, ML_COLL_SOCKET},
	    {ML_COLL_MAP_CORE, 7, 6, ML_COLL_SOCKET},
	    {ML_COLL_MAP_SOCKET, 0, 1, ML_COLL_NODE},
	    {ML_COLL_MAP_SOCKET, 0, 2, ML_COLL_SOCKET},
	    {ML_COLL_MAP_SOCKET, 1, 3, ML_COLL_SOCKET},
	    {ML_COLL_MAP_SOCKET, 3, 4, ML_COLL_NET},
	    {ML_COLL_MAP_NODE, 0, 3, ML_COLL_SOCKET},
	    {ML_COLL_MAP_NODE, 0, 6, ML_COLL_NODE},
	    {ML_COLL_MAP_NODE, 0, 1, ML_COLL_NET},
	    {ML_COLL_MAP_NODE, 3, 9, ML_COLL_NODE},
	    {ML_COLL_MAP_NODE, 1, 4, ML_COLL_SOCKET},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ml_collective_params p = hier_params(
		    12, 100, ML_COLL_BINOMIAL, 4, 2, 3, cases[i].map);
		enum ml_coll_channel c = (enum ml_coll_channel)99;

		ck_assert_int_eq(
		    ml_collective_channel(&p, cases[i].a, cases[i].b, &c),
		    ML_OK);
		ck_assert_msg(c == cases[i].c,
			      "map %d %lld-%lld: channel %d, expected %d",
			      (int)cases[i].map, cases[i].a, cases[i].b, (int)c,
			      (int)cases[i].c);
	}
}
END_TEST

/* Every rank and pair of several machines against my_place. */
START_TEST(test_place_all)
{
	static const struct {
		long long n, ppn, sockets, nodes;
	} m[] = {
	    {12, 4, 2, 3}, {10, 4, 2, 3}, {4, 4, 2, 3}, {6, 4, 2, 2},
	    {7, 6, 3, 0},  {13, 8, 2, 4}, {5, 1, 1, 0}, {9, 2, 2, 7},
	    {16, 4, 4, 0}, {3, 2, 1, 2},
	};
	static const enum ml_coll_map maps[3] = {
	    ML_COLL_MAP_CORE, ML_COLL_MAP_SOCKET, ML_COLL_MAP_NODE};
	size_t i;
	int mi;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		for (mi = 0; mi < 3; mi++) {
			struct ml_collective_params p =
			    hier_params(m[i].n, 100, ML_COLL_BINOMIAL, m[i].ppn,
					m[i].sockets, m[i].nodes, maps[mi]);
			long long nodes =
			    m[i].nodes ? m[i].nodes
				       : (m[i].n + m[i].ppn - 1) / m[i].ppn;
			long long a, b;
			unsigned all = 0, got = 99;

			for (a = 0; a < m[i].n; a++) {
				long long node = -1, socket = -1, wn, ws;

				my_place(a, m[i].ppn, m[i].sockets, nodes,
					 maps[mi], &wn, &ws);
				ck_assert_int_eq(
				    ml_collective_place(&p, a, &node, &socket),
				    ML_OK);
				ck_assert_msg(node == wn && socket == ws,
					      "P %lld ppn %lld S %lld N %lld "
					      "map %d rank %lld: %lld/%lld, "
					      "expected %lld/%lld",
					      m[i].n, m[i].ppn, m[i].sockets,
					      m[i].nodes, mi, a, node, socket,
					      wn, ws);
				for (b = 0; b < m[i].n; b++) {
					long long bn, bs;
					enum ml_coll_channel want, c;

					if (b == a)
						continue;
					my_place(b, m[i].ppn, m[i].sockets,
						 nodes, maps[mi], &bn, &bs);
					want = bn != wn	  ? ML_COLL_NET
					       : bs != ws ? ML_COLL_NODE
							  : ML_COLL_SOCKET;
					ck_assert_int_eq(
					    ml_collective_channel(&p, a, b, &c),
					    ML_OK);
					ck_assert_int_eq(c, want);
					all |= 1u << want;
				}
			}
			/* the channels of some pair: every pair's, by hand */
			ck_assert_int_eq(ml_collective_spans(&p, &got), ML_OK);
			ck_assert_uint_eq(got, all);
		}
}
END_TEST

/*
 * --bind-to under --map-by node, against a replay of what mpirun 4.1
 * does (rmaps_base_binding.c, bind_downwards): each of a node's ranks in
 * turn is bound to the first of the node's targets (cores, sockets or
 * NUMA domains, in order) that holds the fewest ranks so far; a rank's
 * socket is its target's.  --map-by core and socket keep their sockets
 * whatever the binding.
 */
static long long replay_socket(long long local, long long ppn,
			       long long sockets, long long numa,
			       enum ml_coll_bind bind, long long ranks)
{
	long long used[64] = {0}, targets, per_target, i, t, best = 0;

	if (bind == ML_COLL_BIND_DEFAULT)
		bind = ranks <= 2 ? ML_COLL_BIND_CORE : ML_COLL_BIND_NUMA;
	targets = bind == ML_COLL_BIND_CORE     ? ppn
		  : bind == ML_COLL_BIND_SOCKET ? sockets
						: sockets * numa;
	per_target = ppn / targets;
	ck_assert(targets <= 64);
	for (i = 0; i <= local; i++) {
		best = 0;
		for (t = 1; t < targets; t++)
			if (used[t] < used[best])
				best = t;
		used[best]++;
	}
	return best * per_target / (ppn / sockets);
}

START_TEST(test_place_bind)
{
	static const struct {
		long long n, ppn, sockets, numa, nodes;
	} m[] = {
	    {12, 4, 2, 1, 3}, {12, 4, 2, 2, 3}, {16, 8, 2, 4, 2},
	    {3, 4, 2, 1, 1},  {2, 4, 2, 2, 1},	{30, 12, 3, 2, 3},
	    {9, 6, 1, 3, 2},  {40, 16, 2, 2, 0}, {7, 8, 4, 2, 1},
	    {2, 4, 2, 1, 1},
	};
	static const enum ml_coll_bind binds[4] = {
	    ML_COLL_BIND_CORE, ML_COLL_BIND_SOCKET, ML_COLL_BIND_NUMA,
	    ML_COLL_BIND_DEFAULT};
	size_t i;
	int bi, mi;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		for (bi = 0; bi < 4; bi++)
			for (mi = 0; mi < 3; mi++) {
				enum ml_coll_map map = (enum ml_coll_map)mi;
				struct ml_collective_params p = hier_params(
				    m[i].n, 100, ML_COLL_BINOMIAL, m[i].ppn,
				    m[i].sockets, m[i].nodes, map);
				long long nodes =
				    m[i].nodes
					? m[i].nodes
					: (m[i].n + m[i].ppn - 1) / m[i].ppn;
				long long a, b, na, sa, nb, sb, wn, ws;
				unsigned all = 0, got = 99;

				p.bind_to = binds[bi];
				p.numa = m[i].numa;
				for (a = 0; a < m[i].n; a++) {
					my_place(a, m[i].ppn, m[i].sockets,
						 nodes, map, &wn, &ws);
					if (map == ML_COLL_MAP_NODE)
						ws = replay_socket(
						    a / nodes, m[i].ppn,
						    m[i].sockets, m[i].numa,
						    binds[bi], m[i].n);
					ck_assert_int_eq(
					    ml_collective_place(&p, a, &na,
								&sa),
					    ML_OK);
					ck_assert_msg(
					    na == wn && sa == ws,
					    "case %zu bind %d map %d rank "
					    "%lld: %lld/%lld, expected "
					    "%lld/%lld",
					    i, bi, mi, a, na, sa, wn, ws);
					for (b = 0; b < m[i].n; b++) {
						enum ml_coll_channel c, want;

						if (b == a)
							continue;
						ml_collective_place(&p, b, &nb,
								    &sb);
						want = nb != na	  ? ML_COLL_NET
						       : sb != sa ? ML_COLL_NODE
								  : ML_COLL_SOCKET;
						all |= 1u << want;
						ck_assert_int_eq(
						    ml_collective_channel(
							&p, a, b, &c),
						    ML_OK);
						ck_assert_int_eq(c, want);
					}
				}
				ck_assert_int_eq(ml_collective_spans(&p, &got),
						 ML_OK);
				ck_assert_uint_eq(got, all);
			}
}
END_TEST

/* The engine places as the library does: each message of a linear
 * broadcast from the root is on the channel the binding gives its
 * receiver.  24 ranks on 3 nodes of 8 cores in 2 sockets of 2 NUMA
 * domains: node 0's ranks 0, 3, 6, ... are its ranks i = 0..7, dealt
 * over the domains 0 1 2 3 0 1 2 3, so on sockets 0 0 1 1 0 0 1 1. */
static int bind_channel_fn(void *arg, const struct ml_coll_msg *m)
{
	long long *seen = arg, i = m->dst / 3;
	enum ml_coll_channel want = m->dst % 3	    ? ML_COLL_NET
				    : (i % 4) / 2 ? ML_COLL_NODE
						  : ML_COLL_SOCKET;

	(*seen)++;
	return m->src != 0 || m->channel != want;
}

START_TEST(test_place_bind_schedule)
{
	struct ml_collective_params p =
	    hier_params(24, 1, ML_COLL_LINEAR, 8, 2, 3, ML_COLL_MAP_NODE);
	struct ml_collective_result r;
	long long seen = 0;

	p.bind_to = ML_COLL_BIND_NUMA;
	p.numa = 2;
	ck_assert_int_eq(ml_collective_schedule(&p, bind_channel_fn, &seen, &r),
			 ML_OK);
	ck_assert_int_eq(seen, 23);
	p.bind_to = ML_COLL_BIND_CORE; /* sockets 0 0 0 0 1 1 1 1: differs */
	seen = 0;
	ck_assert_int_eq(ml_collective_schedule(&p, bind_channel_fn, &seen, &r),
			 ML_EINVAL);
}
END_TEST

/* Placements are equal when every input that places a rank is; each
 * one alone orders them, the same way round both ways; the algorithm,
 * the message and the machine's times do not. */
START_TEST(test_place_cmp)
{
	struct ml_collective_params a =
	    hier_params(12, 100, ML_COLL_BINOMIAL, 4, 2, 3, ML_COLL_MAP_NODE);
	struct ml_collective_params b;
	int f;

	for (f = 0; f < 10; f++) {
		b = a;
		switch (f) {
		case 0: b.ranks = 11; break;
		case 1: b.ppn = 6; break;
		case 2: b.sockets = 1; break;
		case 3: b.nodes = 4; break;
		case 4: b.map_by = ML_COLL_MAP_CORE; break;
		case 5: b.bind_to = ML_COLL_BIND_NUMA; break;
		case 6: b.numa = 2; break;
		case 7: b.algorithm = ML_COLL_LINEAR; break;
		case 8: b.msg = 7; break;
		default: b.lat[ML_COLL_NET] = 9; break;
		}
		if (f >= 7) {
			ck_assert_int_eq(ml_collective_place_cmp(&a, &b), 0);
			continue;
		}
		ck_assert_msg(ml_collective_place_cmp(&a, &b) != 0, "field %d", f);
		ck_assert_int_eq(ml_collective_place_cmp(&a, &b),
				 -ml_collective_place_cmp(&b, &a));
	}
	ck_assert_int_eq(ml_collective_place_cmp(&a, &a), 0);
}
END_TEST

START_TEST(test_place_rejects)
{
	struct ml_collective_params p =
	    hier_params(12, 100, ML_COLL_BINOMIAL, 4, 2, 3, ML_COLL_MAP_CORE);
	long long node = 7, socket = 8;
	enum ml_coll_channel c = ML_COLL_NODE;

	ck_assert_int_eq(ml_collective_place(&p, -1, &node, &socket),
			 ML_EINVAL);
	ck_assert_int_eq(ml_collective_place(&p, 12, &node, &socket),
			 ML_EINVAL);
	ck_assert_int_eq(ml_collective_channel(&p, 0, 12, &c), ML_EINVAL);
	ck_assert_int_eq(ml_collective_channel(&p, -1, 0, &c), ML_EINVAL);
	p.sockets = 3; /* does not divide 4 */
	ck_assert_int_eq(ml_collective_place(&p, 0, &node, &socket), ML_EINVAL);
	ck_assert_int_eq(ml_collective_channel(&p, 0, 1, &c), ML_EINVAL);
	{
		unsigned m = 99;

		ck_assert_int_eq(ml_collective_spans(&p, &m), ML_EINVAL);
		ck_assert_uint_eq(m, 0);
	}
	ck_assert_int_eq(node, 7);
	ck_assert_int_eq(socket, 8);
	ck_assert_int_eq(c, ML_COLL_NODE);
}
END_TEST

/* The messages of a schedule, through ml_collective_schedule's fn. */
#define MSG_CAP 4096

struct collect {
	const struct ml_collective_params *p;
	long long n;
	int stop_at; /* return nonzero at this call (1-based); 0 never */
	struct ml_coll_msg m[MSG_CAP];
};

static int collect_fn(void *arg, const struct ml_coll_msg *m)
{
	struct collect *c = arg;

	if (c->n < MSG_CAP)
		c->m[c->n] = *m;
	c->n++;
	return c->stop_at && c->n >= c->stop_at;
}

/* ------------------------------------------------------------------ */
/* 4. Times                                                            */

struct expect {
	double max, min, avg;
	long long messages, segments;
};

/* Segment sizes as COLL_BASE_COMPUTED_SEGCOUNT cuts MPI_BYTE data: one
 * segment when seg is 0 or >= M, else ceil(M/seg) of seg bytes, the
 * last one what is left. */
static long long cut(long long m, long long seg, long long *bytes)
{
	long long s, n;

	if (seg <= 0 || seg >= m) {
		bytes[0] = m;
		return 1;
	}
	n = (m + seg - 1) / seg;
	ck_assert_int_le(n, SMAX);
	for (s = 0; s < n; s++)
		bytes[s] = s < n - 1 ? seg : m - (n - 1) * seg;
	return n;
}

/* One rank per node: every message on the net channel. */
struct net {
	double lat, byte; /* L, G */
	double overhead;  /* o: the sender's port holds a message o + b G */
	double nic_gap;	  /* g: each NIC holds a message g + b G */
	long long eager;
};

/*
 * The generic engine (coll_base_bcast.c, notes 2.1) under the rules of
 * collective.h with one rank per node.  A rank forwards segment s when
 * it has it and its sends of segment s-1 have completed:
 *   post(v, s) = max(arrival(v, s), done(v, s-1))   (root: arrival 0)
 * and posts one send per child in tree order.  Child i's message starts
 * when it is ready (eager: at post; rendezvous: post + L, every receive
 * having been posted at time 0, which holds for one segment) and both
 * the port and the node's outgoing NIC are free:
 *   start_i = max(ready, start_{i-1} + o + b G, start_{i-1} + g + b G)
 *   arrival at child i = start_i + L + b G
 * A send completes when it leaves the port (eager) or at its arrival
 * (rendezvous); done(v, s) is the last completion.  Nothing else binds
 * with one rank per node: a rank has one sender, whose messages reach it
 * at least max(o, g) + b G apart, so neither its receive side nor its
 * node's incoming NIC is ever busy.  With o = g = 0 and eager messages
 * this is the LogP recursion of SPEC 10.2: child i of a rank that has
 * the message at t receives it at t + i b G + L + b G, and the rank
 * leaves at t + nkids b G.
 * A rank leaves at done(v, S-1), a leaf at arrival(v, S-1).  Parents are
 * numbered below their children in every tree of this file, so one pass
 * in rank order suffices.  Linear is the star with one segment.
 */
static struct expect engine_net(const struct tree *t, long long m,
				long long seg, const struct net *x)
{
	long long bytes[SMAX], ns = cut(m, seg, bytes), v, s;
	double *arr = calloc((size_t)(t->n * ns), sizeof(double));
	struct expect e = {0, 1e300, 0, (t->n - 1) * ns, ns};

	ck_assert_ptr_nonnull(arr);
	for (s = 0; s < ns; s++) /* receives posted later: not modelled */
		require(ns == 1 || bytes[s] <= x->eager);
	for (v = 0; v < t->n; v++) {
		double done = 0, port = 0, nic = 0, leave;

		for (s = 0; s < ns; s++) {
			double a = v == 0 ? 0 : arr[v * ns + s];
			double post = a > done ? a : done;
			double bg = (double)bytes[s] * x->byte;
			int rdv = bytes[s] > x->eager, i;

			done = post;
			for (i = 0; i < t->nk[v]; i++) {
				double start = post + (rdv ? x->lat : 0);
				double arrival, complete;

				if (port > start)
					start = port;
				if (nic > start)
					start = nic;
				arrival = start + x->lat + bg;
				port = start + x->overhead + bg;
				nic = start + x->nic_gap + bg;
				complete = rdv ? arrival : port;
				arr[t->kid[v][i] * ns + s] = arrival;
				if (complete > done)
					done = complete;
			}
		}
		leave = t->nk[v] ? done : arr[v * ns + ns - 1];
		if (leave > e.max)
			e.max = leave;
		if (leave < e.min)
			e.min = leave;
		e.avg += leave;
	}
	e.avg /= (double)t->n;
	free(arr);
	return e;
}

/* The plain LogP case: no overhead, no NIC gap, eager. */
static struct expect engine(const struct tree *t, long long m, long long seg,
			    double lat, double byte)
{
	struct net x = {lat, byte, 0, 0, 4096};

	return engine_net(t, m, seg, &x);
}

static void check_result(const struct ml_collective_result *r,
			 const struct expect *e, const char *what)
{
	ck_assert_msg(close_rel(r->latency, e->max, 1e-9),
		      "%s: latency %.17g, expected %.17g", what, r->latency,
		      e->max);
	ck_assert_msg(close_rel(r->latency_min, e->min, 1e-9),
		      "%s: latency_min %.17g, expected %.17g", what,
		      r->latency_min, e->min);
	ck_assert_msg(close_rel(r->latency_avg, e->avg, 1e-9),
		      "%s: latency_avg %.17g, expected %.17g", what,
		      r->latency_avg, e->avg);
	ck_assert_msg(r->messages == e->messages,
		      "%s: messages %lld, expected %lld", what, r->messages,
		      e->messages);
	ck_assert_msg(r->segments == e->segments,
		      "%s: segments %lld, expected %lld", what, r->segments,
		      e->segments);
}

/* The engine's algorithms against the recurrence, at P = 2, 3, 7, 8,
 * 13, 64, 100, unsegmented and segmented. */
static const struct logp_case {
	enum ml_coll_alg alg;
	long long arg; /* fanout or radix */
	enum mykind mine;
	long long myarg;
} logp_cases[] = {
    {ML_COLL_BINOMIAL, 0, T_BINOMIAL, 0}, {ML_COLL_BINARY, 0, T_BINARY, 0},
    {ML_COLL_KNOMIAL, 2, T_KNOMIAL, 2},	  {ML_COLL_KNOMIAL, 3, T_KNOMIAL, 3},
    {ML_COLL_KNOMIAL, 4, T_KNOMIAL, 4},	  {ML_COLL_KNOMIAL, 5, T_KNOMIAL, 5},
    {ML_COLL_CHAIN, 1, T_CHAIN, 1},	  {ML_COLL_CHAIN, 2, T_CHAIN, 2},
    {ML_COLL_CHAIN, 4, T_CHAIN, 4},	  {ML_COLL_CHAIN, 7, T_CHAIN, 7},
    {ML_COLL_CHAIN, 32, T_CHAIN, 32},	  {ML_COLL_PIPELINE, 0, T_CHAIN, 1},
    {ML_COLL_LINEAR, 0, T_LINEAR, 0},
};
#define NLOGP ((int)(sizeof(logp_cases) / sizeof(logp_cases[0])))

static const struct {
	long long m, seg;
	double overhead, nic_gap;
} logp_sizes[] = {
    {1000, 0, 0, 0},	 /* one segment */
    {4096, 0, 0, 0},	 /* the eager limit itself is eager */
    {1000, 128, 0, 0},	 /* 7 x 128 + 104 */
    {3000, 1024, 0, 0},	 /* 1024, 1024, 952 */
    {1000, 1000, 0, 0},	 /* segment = M: one segment */
    {1000, 0, 0.2, 0.5}, /* the NIC spaces the sends */
    {3000, 1024, 0.2, 0.5}, {1000, 128, 0.5, 0.2}, /* the port spaces them */
    {5000, 0, 0, 0},				   /* rendezvous */
    {5000, 0, 0.1, 0.3},    {9000, 0, 0.3, 0.1},
};
#define NLOGP_SIZES ((int)(sizeof(logp_sizes) / sizeof(logp_sizes[0])))

START_TEST(test_logp_recursion)
{
	static const long long ps[] = {2, 3, 7, 8, 13, 64, 100};
	const struct logp_case *c = &logp_cases[_i / NLOGP_SIZES];
	long long m = logp_sizes[_i % NLOGP_SIZES].m;
	long long seg = logp_sizes[_i % NLOGP_SIZES].seg;
	struct net x = {1.7, 0.003, logp_sizes[_i % NLOGP_SIZES].overhead,
			logp_sizes[_i % NLOGP_SIZES].nic_gap, 4096};
	struct tree *t = tree_new();
	size_t pi;

	for (pi = 0; pi < sizeof(ps) / sizeof(ps[0]); pi++) {
		struct ml_collective_params p =
		    logp_params(ps[pi], m, c->alg, seg, x.lat, x.byte);
		struct ml_collective_result r;
		struct expect e;
		char what[128];

		p.overhead = x.overhead;
		p.nic_gap = x.nic_gap;
		p.eager = x.eager;
		if (c->alg == ML_COLL_KNOMIAL)
			p.radix = c->arg;
		if (c->alg == ML_COLL_CHAIN)
			p.fanout = c->arg;
		build_tree(t, c->mine, ps[pi], c->myarg);
		/* basic_linear is never segmented. */
		e = engine_net(t, m, c->alg == ML_COLL_LINEAR ? 0 : seg, &x);
		r = eval_ok(&p);
		snprintf(what, sizeof(what),
			 "alg %d arg %lld P %lld M %lld seg %lld o %g g %g",
			 (int)c->alg, c->arg, ps[pi], m, seg, x.overhead,
			 x.nic_gap);
		check_result(&r, &e, what);
		if (c->alg != ML_COLL_CHAIN)
			ck_assert_msg(r.ran == c->alg, "%s: ran %d", what,
				      (int)r.ran);
	}
	free(t);
}
END_TEST

/*
 * P = 4 binomial by hand, L = 1, G = 0.01, M = 100 (b G = 1), tree
 * 0:[1,2], 1:[3]:
 *   0->1 posted 0, starts 0, arrives 0 + 1 + 1 = 2; the root's port is
 *        free at 1;
 *   0->2 posted 0, starts 1, arrives 1 + 1 + 1 = 3; the root leaves at 2;
 *   1->3 posted 2 (1 has the message), starts 2, arrives 4; 1 leaves 3.
 * Leaves: 0 at 2, 1 at 3, 2 (leaf) at 3, 3 (leaf) at 4: latency 4,
 * min 2, avg 12/4 = 3, 3 messages.
 * With overhead 0.3 the port holds each message 1.3 (arrivals stay
 * start + L + b G): 0->1 0..2, 0->2 starts 1.3 arrives 3.3, the root
 * leaves 2.6; 1->3 starts 2 arrives 4, 1 leaves 3.3: latency 4, min 2.6,
 * avg (2.6 + 3.3 + 3.3 + 4) / 4 = 3.3.
 */
START_TEST(test_hand_binomial4)
{
	struct ml_collective_params p =
	    logp_params(4, 100, ML_COLL_BINOMIAL, 0, 1.0, 0.01);
	struct ml_collective_result r = eval_ok(&p);

	ck_close(r.latency, 4.0);
	ck_close(r.latency_min, 2.0);
	ck_close(r.latency_avg, 3.0);
	ck_assert_int_eq(r.messages, 3);
	ck_assert_int_eq(r.segments, 1);
	ck_assert_int_eq(r.ran, ML_COLL_BINOMIAL);

	p.overhead = 0.3;
	r = eval_ok(&p);
	ck_close(r.latency, 4.0);
	ck_close(r.latency_min, 2.6);
	ck_close(r.latency_avg, 3.3);
}
END_TEST

/*
 * Pipeline, P = 5, L = 1, G = 0.01, eager segments.
 * (a) M = 400 in 100-byte segments (S = 4, b G = 1):
 *   root posts segment s at done(0, s-1) = s: arrival(1, s) = s + 2,
 *     i.e. 2, 3, 4, 5; the root leaves at 4;
 *   rank 1: post = max(arrival, done) = 2, 3, 4, 5, done 3, 4, 5, 6:
 *     arrival(2, s) = 4, 5, 6, 7; rank 1 leaves at 6;
 *   rank 2 forwards at 4..7: arrival(3, s) = 6..9, leaves at 8;
 *   rank 3 forwards at 6..9: arrival(4, s) = 8..11, leaves at 10;
 *   rank 4 (leaf) leaves at 11 = (P-1)(L + b G) + (S-1) b G.
 *   latency 11, min 4, avg (4 + 6 + 8 + 10 + 11)/5 = 7.8, 16 messages.
 * (b) M = 350: segments 100, 100, 100, 50 (the last b G = 0.5):
 *   root posts at 0, 1, 2, 3 (done 3.5): arrival(1) = 2, 3, 4, 4.5;
 *   rank 1: posts 2, 3, 4, then max(4.5, done 5) = 5 (the previous
 *     send binds), done 5.5: arrival(2) = 4, 5, 6, 6.5;
 *   rank 2: posts 4, 5, 6, max(6.5, 7) = 7, done 7.5: arrival(3) = 6, 7,
 *     8, 8.5;
 *   rank 3: posts 6, 7, 8, 9, done 9.5: arrival(4) = 8, 9, 10, 10.5.
 *   latency 10.5, min 3.5, avg (3.5 + 5.5 + 7.5 + 9.5 + 10.5)/5 = 7.3.
 */
START_TEST(test_hand_pipeline5)
{
	struct ml_collective_params p =
	    logp_params(5, 400, ML_COLL_PIPELINE, 100, 1.0, 0.01);
	struct ml_collective_result r = eval_ok(&p);
	struct tree *t = tree_new();
	struct expect e;

	ck_close(r.latency, 11.0);
	ck_close(r.latency_min, 4.0);
	ck_close(r.latency_avg, 7.8);
	ck_assert_int_eq(r.messages, 16);
	ck_assert_int_eq(r.segments, 4);

	/* The hand values are the recurrence's. */
	build_tree(t, T_CHAIN, 5, 1);
	e = engine(t, 400, 100, 1.0, 0.01);
	ck_close(e.max, 11.0);
	ck_close(e.avg, 7.8);

	p.msg = 350;
	r = eval_ok(&p);
	ck_close(r.latency, 10.5);
	ck_close(r.latency_min, 3.5);
	ck_close(r.latency_avg, 7.3);
	ck_assert_int_eq(r.messages, 16);
	ck_assert_int_eq(r.segments, 4);
	e = engine(t, 350, 100, 1.0, 0.01);
	ck_close(e.max, 10.5);
	ck_close(e.avg, 7.3);
	free(t);
}
END_TEST

/*
 * Rendezvous.  P = 2, M > eager: the receiver posts its receive at 0;
 * the message starts after the handshake, at 0 + L, and arrives L later
 * plus M G: 2 L + M G; the sender's send completes at the arrival, so
 * both ranks leave then.  L = 1.7, G = 0.003, M = 5000: 3.4 + 15 = 18.4.
 * At M = eager = 4096 the message is eager: arrival L + M G = 13.988,
 * the root leaves at M G = 12.288.
 * Linear, P = 3, M = 5000 (M G = 15): both isends posted at 0;
 *   0->1 starts at L = 1.7, holds the port to 16.7, arrives 18.4;
 *   0->2 handshake done at 1.7, the port free at 16.7: starts 16.7,
 *   arrives 16.7 + 1.7 + 15 = 33.4; the root completes at 33.4.
 *   latency 33.4, min 18.4, avg (33.4 + 18.4 + 33.4)/3 = 28.4.
 */
START_TEST(test_hand_rendezvous)
{
	struct ml_collective_params p =
	    logp_params(2, 5000, ML_COLL_BINOMIAL, 0, 1.7, 0.003);
	struct ml_collective_result r = eval_ok(&p);

	ck_close(r.latency, 18.4);
	ck_close(r.latency_min, 18.4);
	ck_close(r.latency_avg, 18.4);
	ck_assert_int_eq(r.messages, 1);

	p.msg = 4096;
	r = eval_ok(&p);
	ck_close(r.latency, 1.7 + 4096 * 0.003);
	ck_close(r.latency_min, 4096 * 0.003);
	ck_close(r.latency_avg, (1.7 + 2 * 4096 * 0.003) / 2);

	p.msg = 4097;
	r = eval_ok(&p);
	ck_close(r.latency, 2 * 1.7 + 4097 * 0.003);

	p = logp_params(3, 5000, ML_COLL_LINEAR, 0, 1.7, 0.003);
	r = eval_ok(&p);
	ck_close(r.latency, 33.4);
	ck_close(r.latency_min, 18.4);
	ck_close(r.latency_avg, 28.4);
	ck_assert_int_eq(r.messages, 2);
}
END_TEST

/*
 * Eager copies (E_c, eager-byte): an eager message costs b (G_c + E_c)
 * on the sender's port and to its arrival, a rendezvous one b G_c, and
 * the NIC holds only nic_gap + b G_c (the copy is the CPUs' work).
 * Linear, P = 3, one rank per node, L = 1.7, G = 0.003, E = 0.002,
 * nic-gap 0.5, M = 1000 (eager): b (G + E) = 5, the NIC 0.5 + 3 = 3.5:
 *   0->1 starts 0, the port frees at 5, arrives 1.7 + 5 = 6.7;
 *   0->2 waits for the port (5; the NIC freed at 3.5), arrives 11.7;
 *   the root leaves at 10 (eager: its port).  avg (10 + 6.7 + 11.7)/3.
 * (Were the copy the NIC's, it would hold 5.5 and 0->2 arrive 12.2.)
 * Then nic-gap 0.  M = 5000 (rendezvous): E does not apply, as
 * test_hand_rendezvous: 33.4.  p2p: 1000 B: 1.7 + 5 = 6.7; 5000 B:
 * 3.4 + 15 = 18.4.  E on the socket channel only, M = 1000: the net
 * costs 3 a message, 0->2 arrives 3 + 1.7 + 3 = 7.7.
 */
START_TEST(test_hand_eager_copy)
{
	struct ml_collective_params p =
	    logp_params(3, 1000, ML_COLL_LINEAR, 0, 1.7, 0.003);
	struct ml_collective_result r;
	double t = -1;

	p.ebyte[ML_COLL_NET] = 0.002;
	p.nic_gap = 0.5;
	r = eval_ok(&p);
	ck_close(r.latency, 11.7);
	ck_close(r.latency_min, 6.7);
	ck_close(r.latency_avg, (10 + 6.7 + 11.7) / 3);
	ck_assert_int_eq(ml_collective_p2p(&p, ML_COLL_NET, 1000, &t), ML_OK);
	ck_close(t, 6.7);
	p.nic_gap = 0;
	p.msg = 5000;
	r = eval_ok(&p);
	ck_close(r.latency, 33.4);
	ck_close(r.latency_min, 18.4);
	ck_assert_int_eq(ml_collective_p2p(&p, ML_COLL_NET, 5000, &t), ML_OK);
	ck_close(t, 18.4);
	/* Another channel's E_c does not touch the network's. */
	p.ebyte[ML_COLL_NET] = 0;
	p.ebyte[ML_COLL_SOCKET] = 0.5;
	p.msg = 1000;
	r = eval_ok(&p);
	ck_close(r.latency, 1.7 + 3 + 3);
	p.ebyte[ML_COLL_SOCKET] = -1e-9;
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_EINVAL);
}
END_TEST

/* ml_collective_p2p: L_c + b G_c, plus L_c above the eager limit.
 * Channels L = 1, 2, 5, G = 0.001, 0.002, 0.01:
 *   socket 4096 B: 1 + 4.096 = 5.096; 4097 B: 2 + 4.097 = 6.097;
 *   node 100 B: 2 + 0.2 = 2.2; 10000 B: 4 + 20 = 24;
 *   net 1 B: 5.01; 4097 B: 10 + 40.97 = 50.97. */
START_TEST(test_p2p)
{
	struct ml_collective_params p =
	    hier_params(2, 1, ML_COLL_BINOMIAL, 1, 1, 0, ML_COLL_MAP_CORE);
	double t = -1;

	ck_assert_int_eq(ml_collective_p2p(&p, ML_COLL_SOCKET, 4096, &t),
			 ML_OK);
	ck_close(t, 5.096);
	ck_assert_int_eq(ml_collective_p2p(&p, ML_COLL_SOCKET, 4097, &t),
			 ML_OK);
	ck_close(t, 6.097);
	ck_assert_int_eq(ml_collective_p2p(&p, ML_COLL_NODE, 100, &t), ML_OK);
	ck_close(t, 2.2);
	ck_assert_int_eq(ml_collective_p2p(&p, ML_COLL_NODE, 10000, &t), ML_OK);
	ck_close(t, 24.0);
	ck_assert_int_eq(ml_collective_p2p(&p, ML_COLL_NET, 1, &t), ML_OK);
	ck_close(t, 5.01);
	ck_assert_int_eq(ml_collective_p2p(&p, ML_COLL_NET, 4097, &t), ML_OK);
	ck_close(t, 50.97);
	t = -3;
	ck_assert_int_eq(ml_collective_p2p(&p, (enum ml_coll_channel)3, 1, &t),
			 ML_EINVAL);
	ck_assert_int_eq(ml_collective_p2p(&p, ML_COLL_NET, -1, &t), ML_EINVAL);
	ck_close(t, -3.0);
}
END_TEST

/* A broadcast between two ranks is the ping-pong of their channel:
 * ppn 1 net, ppn 2 one socket: socket, ppn 2 two sockets: node; for
 * every algorithm that sends the message whole. */
START_TEST(test_p2p_is_bcast2)
{
	static const long long sizes[] = {1, 100, 4096, 4097, 100000};
	static const struct {
		long long ppn, sockets;
		enum ml_coll_channel c;
	} mach[] = {
	    {1, 1, ML_COLL_NET}, {2, 1, ML_COLL_SOCKET}, {2, 2, ML_COLL_NODE}};
	static const enum ml_coll_alg algs[] = {
	    ML_COLL_LINEAR, ML_COLL_CHAIN,    ML_COLL_PIPELINE,
	    ML_COLL_BINARY, ML_COLL_BINOMIAL, ML_COLL_KNOMIAL};
	size_t i, j, k;

	for (i = 0; i < sizeof(mach) / sizeof(mach[0]); i++)
		for (j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++)
			for (k = 0; k < sizeof(algs) / sizeof(algs[0]); k++) {
				struct ml_collective_params p = hier_params(
				    2, sizes[j], algs[k], mach[i].ppn,
				    mach[i].sockets, 0, ML_COLL_MAP_CORE);
				struct ml_collective_result r = eval_ok(&p);
				double t;

				ck_assert_int_eq(
				    ml_collective_p2p(&p, mach[i].c, sizes[j],
						      &t),
				    ML_OK);
				ck_assert_msg(close_rel(r.latency, t, 1e-9),
					      "alg %d ppn %lld S %lld M %lld: "
					      "latency %.17g, p2p %.17g",
					      (int)algs[k], mach[i].ppn,
					      mach[i].sockets, sizes[j],
					      r.latency, t);
			}
}
END_TEST

/*
 * Sharing a NIC.  P = 4, binomial 0:[1,2], 1:[3], M = 100, channels
 * L = 1, 2, 5 and b G = 0.1, 0.2, 1.0 (socket, node, net).
 * (a) ppn 2, 1 socket, 2 nodes, --map-by core: 0, 1 on node 0; 2, 3 on
 *     node 1; nic-gap 0.5 (a net message holds both NICs 1.5):
 *   0->1 socket: starts 0, port to 0.1, arrives 1.1;
 *   0->2 net: starts 0.1 (port), NICs busy 0.1..1.6, port to 1.1,
 *        arrives 0.1 + 5 + 1 = 6.1; the root leaves at 1.1;
 *   1->3 net: posted 1.1, node 0's NIC is busy to 1.6 (node 1's for the
 *        same span, so wherever its hold sits it frees in time): starts
 *        1.6, arrives 7.6; rank 1 leaves at 1.6 + 1 = 2.6.
 *   latency 7.6, min 1.1, avg (1.1 + 2.6 + 6.1 + 7.6)/4 = 4.35.
 *   With nic-gap 0 the NIC frees at 1.1 exactly when 1->3 is posted:
 *   starts 1.1, arrives 7.1, 1 leaves 2.1: avg (1.1+2.1+6.1+7.1)/4 = 4.1.
 * (b) 2 sockets: 0->1 is the node channel; nic-gap 3 (holds 4):
 *   0->1 node: starts 0, port to 0.2, arrives 2.2;
 *   0->2 net: starts 0.2, NICs to 4.2, port to 1.2, arrives 6.2;
 *   1->3 net: posted 2.2, NIC free at 4.2: starts 4.2, arrives 10.2,
 *        1 leaves at 5.2.
 *   latency 10.2, min 1.2, avg (1.2 + 5.2 + 6.2 + 10.2)/4 = 5.7.
 * (c) --map-by node, 1 socket, nic-gap 0.5: 0, 2 on node 0, 1, 3 on
 *     node 1:
 *   0->1 net: starts 0, port to 1, arrives 6; 0->2 socket: starts 1,
 *   arrives 2.1, the root leaves 1.1; 2 is a leaf (2.1); 1->3 socket:
 *   posted 6, arrives 7.1, 1 leaves 6.1.
 *   latency 7.1, min 1.1, avg (1.1 + 6.1 + 2.1 + 7.1)/4 = 4.1.
 */
START_TEST(test_hand_nic)
{
	struct ml_collective_params p =
	    hier_params(4, 100, ML_COLL_BINOMIAL, 2, 1, 2, ML_COLL_MAP_CORE);
	struct ml_collective_result r;

	p.nic_gap = 0.5;
	r = eval_ok(&p);
	ck_close(r.latency, 7.6);
	ck_close(r.latency_min, 1.1);
	ck_close(r.latency_avg, 4.35);
	ck_assert_int_eq(r.messages, 3);

	p.nic_gap = 0;
	r = eval_ok(&p);
	ck_close(r.latency, 7.1);
	ck_close(r.latency_min, 1.1);
	ck_close(r.latency_avg, 4.1);

	p = hier_params(4, 100, ML_COLL_BINOMIAL, 2, 2, 2, ML_COLL_MAP_CORE);
	p.nic_gap = 3;
	r = eval_ok(&p);
	ck_close(r.latency, 10.2);
	ck_close(r.latency_min, 1.2);
	ck_close(r.latency_avg, 5.7);

	p = hier_params(4, 100, ML_COLL_BINOMIAL, 2, 1, 2, ML_COLL_MAP_NODE);
	p.nic_gap = 0.5;
	r = eval_ok(&p);
	ck_close(r.latency, 7.1);
	ck_close(r.latency_min, 1.1);
	ck_close(r.latency_avg, 4.1);
}
END_TEST

/*
 * Split-binary, P = 3, M = 100, unsegmented, L = 1, G = 0.001 (50 B:
 * b G = 0.05), ppn 1.  Halves 50 | 50; tree 0:[1,2]; 1 is left (half 0),
 * 2 right (half 1); P odd: 1 and 2 swap halves with one sendrecv.
 *   phase 1, blocking sends: 0->1 starts 0, arrives 1.05, port to 0.05;
 *     0->2 posted 0.05, arrives 0.05 + 1 + 0.05 = 1.1; the root leaves
 *     at 0.1;
 *   phase 2: 1->2 posted 1.05 arrives 2.1 (2's receive side was busy
 *     1.05..1.1, this one's 2.05..2.1), 1's send done 1.1;
 *     2->1 posted 1.1 arrives 2.15, 2's send done 1.15.
 *   1 leaves when its sendrecv completes: 2.15; 2 at 2.1.
 *   latency 2.15, min 0.1, avg (0.1 + 2.15 + 2.1)/3 = 1.45, 4 messages.
 */
START_TEST(test_hand_split_binary3)
{
	struct ml_collective_params p =
	    logp_params(3, 100, ML_COLL_SPLIT_BINARY, 0, 1.0, 0.001);
	struct ml_collective_result r = eval_ok(&p);

	ck_assert_int_eq(r.ran, ML_COLL_SPLIT_BINARY);
	ck_close(r.latency, 2.15);
	ck_close(r.latency_min, 0.1);
	ck_close(r.latency_avg, 1.45);
	ck_assert_int_eq(r.messages, 4);
}
END_TEST

/*
 * Split-binary segmented, P = 3, ppn 1, L = 1, G = 0.01, segment 50
 * (50 B: b G = 0.5), all eager.  Tree 0:[1,2], both leaves in phase 1.
 * (a) M = 200: halves 100 | 100, two segments each.  The root's
 *   blocking sends alternate left, right:
 *     s0 0->1 start 0 arr 1.5 (returns 0.5); 0->2 start 0.5 arr 2.0;
 *     s1 0->1 start 1.0 arr 2.5; 0->2 start 1.5 arr 3.0; the root
 *     returns at 2.0 and, P odd, leaves then.
 *   phase 2 (100 B, b G = 1): 1->2 posted 2.5, 2's receive side free
 *     at 3.0 = start + L from 2.0 on: start 2.5, arr 4.5, 1's port to
 *     3.5; 2->1 posted 3.0 arr 5.0, port to 4.0.
 *   1 leaves 5.0, 2 leaves 4.5: latency 5, min 2, avg 11.5/3; 4 + 2
 *   messages.
 * (b) M = 201: halves 101 | 100; the left half has a third segment of
 *   1 B (b G = 0.01), which the root sends alone:
 *     as (a) to 2.0, then s2 0->1 start 2.0 arr 3.01; the root leaves
 *     at 2.01.
 *   phase 2: 1->2 (101 B, 1.01) posted 3.01 arr 5.02, port to 4.02;
 *     2->1 (100 B) posted 3.0, 1's receive side free at 3.01 (start
 *     >= 2.01): start 3.0 arr 5.0, port to 4.0.
 *   1 leaves 5.0, 2 leaves 5.02: latency 5.02, min 2.01, avg
 *   (2.01 + 5.0 + 5.02)/3 = 4.01; 5 + 2 messages.
 */
START_TEST(test_hand_split_binary_segmented)
{
	struct ml_collective_params p =
	    logp_params(3, 200, ML_COLL_SPLIT_BINARY, 50, 1.0, 0.01);
	struct ml_collective_result r = eval_ok(&p);

	ck_assert_int_eq(r.ran, ML_COLL_SPLIT_BINARY);
	ck_close(r.latency, 5.0);
	ck_close(r.latency_min, 2.0);
	ck_close(r.latency_avg, 11.5 / 3);
	ck_assert_int_eq(r.messages, 6);

	p.msg = 201;
	r = eval_ok(&p);
	ck_assert_int_eq(r.ran, ML_COLL_SPLIT_BINARY);
	ck_close(r.latency, 5.02);
	ck_close(r.latency_min, 2.01);
	ck_close(r.latency_avg, 4.01);
	ck_assert_int_eq(r.messages, 7);
}
END_TEST

/*
 * Linear through a shared NIC.  P = 4, ppn 2, one socket, --map-by
 * core (0, 1 on node 0; 2, 3 on node 1), M = 100 (b G: socket 0.1,
 * net 1.0), nic-gap 3 (a net message holds the NICs 4):
 *   0->1 socket: start 0, port to 0.1, arr 1.1;
 *   0->2 net: start 0.1, port to 1.1, NICs to 4.1, arr 6.1;
 *   0->3 net: port free at 1.1 but both NICs at 4.1: start 4.1, port
 *     to 5.1, arr 10.1; the root leaves at 5.1.
 *   latency 10.1, min 1.1, avg (5.1 + 1.1 + 6.1 + 10.1)/4 = 5.6.
 */
START_TEST(test_hand_linear_nic)
{
	struct ml_collective_params p =
	    hier_params(4, 100, ML_COLL_LINEAR, 2, 1, 2, ML_COLL_MAP_CORE);
	struct ml_collective_result r;

	p.nic_gap = 3;
	r = eval_ok(&p);
	ck_close(r.latency, 10.1);
	ck_close(r.latency_min, 1.1);
	ck_close(r.latency_avg, 5.6);
	ck_assert_int_eq(r.messages, 3);
}
END_TEST

/*
 * A rendezvous waits for its receive.  Pipeline P = 3, ppn 2, one
 * socket, --map-by core: 0, 1 on node 0 (socket channel L 1, G 0.001),
 * 2 on node 1 (net, L 5, G 0.01).  M = 15000 in 3 segments of 5000 >
 * eager 4096 (b G: socket 5, net 50).  The engine's receives: rank 1
 * posts irecv 0 and 1 at 0, irecv 2 only when its sends of segment 0
 * have completed; the leaf 2 posts irecv 0, 1 at 0 and irecv 2 when
 * segment 0 has arrived.
 *   0->1 s0: posted 0, start 0 + L 1 = 1, arrives 7 (= completes);
 *   0->1 s1: posted 7, start 8, arrives 14;
 *   1->2 s0: posted 7, start 12, arrives 12 + 5 + 50 = 67 (completes);
 *   rank 1 posts irecv 2 at 67; 1->2 s1: posted 67, start 72, arrives
 *     127;
 *   0->1 s2: the root is ready at 14 but the receive is posted at 67:
 *     posted 67, start 68, arrives 74; the root leaves at 74;
 *   1->2 s2: posted 127 (after s1 completes; irecv 2 of rank 2 at 67),
 *     start 132, arrives 187; ranks 1 and 2 leave at 187.
 *   latency 187, min 74, avg (74 + 187 + 187)/3 = 149.333..., 6 messages.
 */
START_TEST(test_hand_rendezvous_posting)
{
	struct ml_collective_params p =
	    hier_params(3, 15000, ML_COLL_PIPELINE, 2, 1, 2, ML_COLL_MAP_CORE);
	struct collect *c = calloc(1, sizeof(*c));
	struct ml_collective_result r;
	long long k, found = 0;

	ck_assert_ptr_nonnull(c);
	p.segment = 5000;
	r = eval_ok(&p);
	ck_close(r.latency, 187.0);
	ck_close(r.latency_min, 74.0);
	ck_close(r.latency_avg, 448.0 / 3);
	ck_assert_int_eq(r.messages, 6);
	ck_assert_int_eq(r.segments, 3);
	c->p = &p;
	ck_assert_int_eq(ml_collective_schedule(&p, collect_fn, c, &r), ML_OK);
	ck_assert_int_eq(c->n, 6);
	for (k = 0; k < c->n; k++) {
		const struct ml_coll_msg *m = &c->m[k];

		if (m->src == 0 && m->segment == 2) {
			ck_close(m->posted, 67.0);
			ck_close(m->start, 68.0);
			ck_close(m->arrival, 74.0);
			found++;
		}
		if (m->src == 1 && m->segment == 1) {
			ck_close(m->posted, 67.0);
			ck_close(m->start, 72.0);
			ck_close(m->arrival, 127.0);
			found++;
		}
	}
	ck_assert_int_eq(found, 2);
	free(c);
}
END_TEST

/*
 * A receive side serves one message at a time.  Split-binary P = 4,
 * M = 100 (halves 50 | 50), ppn 1, L = 0.1, G = 0.01 (b G = 0.5).
 * Tree 0:[1,2], 1:[3]; 1, 3 left (half 0), 2 right; P even: 1 and 2
 * swap halves, the root sends half 1 to 3.
 *   0->1: start 0, arrives 0.6, the blocking send returns at 0.5;
 *   0->2: start 0.5, arrives 1.1, returns 1.0;
 *   1->3 (phase 1, posted 0.6): start 0.6, arrives 1.2 (3's receive
 *     side busy 0.7..1.2), returns 1.1;
 *   0->3 (phase 2, posted 1.0, after 1->3): its receive would span
 *     start + 0.1 .. start + 0.6, so it starts 1.1 (not 1.0), arrives
 *     1.7; the root leaves at 1.6;
 *   1->2 and 2->1 (sendrecv, both posted 1.1): arrive 1.7; 1 and 2
 *     leave at 1.7; 3 has both halves at 1.7.
 *   latency 1.7, min 1.6, avg (1.6 + 3 x 1.7)/4 = 1.675; 6 messages
 *   (0->1, 0->2, 1->3; 0->3, 1->2, 2->1).
 */
START_TEST(test_hand_split_binary4)
{
	struct ml_collective_params p =
	    logp_params(4, 100, ML_COLL_SPLIT_BINARY, 0, 0.1, 0.01);
	struct ml_collective_result r = eval_ok(&p);

	ck_assert_int_eq(r.ran, ML_COLL_SPLIT_BINARY);
	ck_close(r.latency, 1.7);
	ck_close(r.latency_min, 1.6);
	ck_close(r.latency_avg, 1.675);
	ck_assert_int_eq(r.messages, 6);
}
END_TEST

/*
 * Scatter-allgather, P = 4, M = 8 (blocks of 2), ppn 1, L = 1,
 * G = 1/64 (2 B: 1/32, 4 B: 1/16; every time below is exact in binary).
 * Scatter (blocking): 0->2 4 B start 0 arr 1.0625 (root free .0625);
 *   0->1 2 B start .0625 arr 1.09375 (root free .09375);
 *   2->3 2 B start 1.0625 arr 2.09375 (2 free 1.09375).
 * (a) recursive doubling, one sendrecv per round:
 *   mask 1: 0->1 posted .09375; 1's receive side is busy to 1.09375 and
 *     this one's would start at start + 1: start .09375, arr 1.125;
 *     1->0 posted 1.09375 arr 2.125; 2->3 posted 1.09375 (3 busy to
 *     2.09375): arr 2.125; 3->2 posted 2.09375 arr 3.125.
 *     Done: 0 at 2.125, 1 at 1.125, 2 at 3.125, 3 at 2.125.
 *   mask 2 (4 B): 0->2 posted 2.125 arr 3.1875; 2->0 posted 3.125 arr
 *     4.1875; 1->3 posted 1.125 arr 2.1875; 3->1 posted 2.125 arr
 *     3.1875.  Leave: 0 4.1875, 1 3.1875, 2 3.1875, 3 2.1875.
 *   latency 4.1875, min 2.1875, avg 12.75/4 = 3.1875, 3 + 8 messages.
 * (b) ring: step i sends to rank+1 the block received at step i-1:
 *   step 1: 0->1 .09375 arr 1.125; 1->2 1.09375 arr 2.125; 2->3
 *     1.09375 arr 2.125; 3->0 2.09375 arr 3.125.  Done 0 3.125,
 *     1 1.125, 2 2.125, 3 2.125.
 *   step 2: 0->1 3.125 arr 4.15625; 1->2 1.125 arr 2.15625; 2->3 2.125
 *     arr 3.15625; 3->0 2.125 arr 3.15625.  Done 0 3.15625, 1 4.15625,
 *     2 2.15625, 3 3.15625.
 *   step 3: 0->1 3.15625 arr 4.1875 (1's receive side busy to 4.15625,
 *     exactly when this one's would begin); 1->2 4.15625 arr 5.1875;
 *     2->3 2.15625 arr 3.1875; 3->0 3.15625 arr 4.1875.
 *   Leave: 0 4.1875, 1 4.1875, 2 5.1875, 3 3.1875: latency 5.1875,
 *   min 3.1875, avg 16.75/4 = 4.1875, 3 + 12 messages.
 */
START_TEST(test_hand_scatter_allgather4)
{
	struct ml_collective_params p =
	    logp_params(4, 8, ML_COLL_SCATTER_ALLGATHER, 0, 1.0, 1.0 / 64);
	struct ml_collective_result r = eval_ok(&p);

	ck_assert_int_eq(r.ran, ML_COLL_SCATTER_ALLGATHER);
	ck_close(r.latency, 4.1875);
	ck_close(r.latency_min, 2.1875);
	ck_close(r.latency_avg, 3.1875);
	ck_assert_int_eq(r.messages, 11);

	p.algorithm = ML_COLL_SCATTER_ALLGATHER_RING;
	r = eval_ok(&p);
	ck_assert_int_eq(r.ran, ML_COLL_SCATTER_ALLGATHER_RING);
	ck_close(r.latency, 5.1875);
	ck_close(r.latency_min, 3.1875);
	ck_close(r.latency_avg, 4.1875);
	ck_assert_int_eq(r.messages, 15);
}
END_TEST

/* ------------------------------------------------------------------ */
/* 5. Validation                                                       */

enum bad_field {
	B_RANKS,
	B_MSG,
	B_ALG,
	B_SEGMENT,
	B_FANOUT,
	B_RADIX,
	B_PPN,
	B_SOCKETS,
	B_NODES,
	B_MAP,
	B_BIND,
	B_NUMA,
	B_LAT0,
	B_LAT1,
	B_LAT2,
	B_BYTE0,
	B_BYTE1,
	B_BYTE2,
	B_OVERHEAD,
	B_NICGAP,
	B_EAGER
};

static const struct bad_case {
	enum bad_field f;
	double v;      /* the bad value */
	long long ppn; /* 0: keep */
	const char *param;
} bad[] = {
    {B_RANKS, 1, 0, "ranks"},
    {B_RANKS, 0, 0, "ranks"},
    {B_RANKS, -5, 0, "ranks"},
    {B_RANKS, (double)(ML_COLL_MAX_RANKS + 1), 0, "ranks"},
    {B_MSG, 0, 0, "msg"},
    {B_MSG, -1, 0, "msg"},
    {B_MSG, (double)(ML_COLL_MAX_MSG + 1), 0, "msg"},
    {B_ALG, 11, 0, "algorithm"}, /* MPICH's binomial (0 is the default) */
    {B_ALG, 15, 0, "algorithm"}, /* 10 is han */
    {B_SEGMENT, -1, 0, "segment"},
    {B_FANOUT, -1, 0, "fanout"},
    {B_FANOUT, 33, 0, "fanout"},
    {B_RADIX, 1, 0, "radix"},
    {B_RADIX, 0, 0, "radix"},
    {B_PPN, 0, 0, "ppn"},
    {B_SOCKETS, 0, 0, "sockets"},
    {B_SOCKETS, 3, 4, "sockets"}, /* 3 does not divide 4 */
    {B_SOCKETS, 8, 4, "sockets"}, /* more sockets than cores */
    {B_NODES, 1, 4, "nodes"},	  /* 8 ranks on 1 node of 4 */
    {B_NODES, -1, 0, "nodes"},
    {B_MAP, 7, 0, "map-by"},
    {B_BIND, 4, 0, "bind-to"},
    {B_BIND, -1, 0, "bind-to"},
    {B_NUMA, 0, 0, "numa"},
    {B_NUMA, 3, 4, "numa"}, /* 4 cores a socket */
    {B_NUMA, 8, 4, "numa"},
    {B_LAT0, -0.1, 0, "lat-socket"},
    {B_LAT1, -0.1, 0, "lat-node"},
    {B_LAT2, -0.1, 0, "lat-net"},
    {B_LAT2, NAN, 0, "lat-net"},
    {B_LAT2, INFINITY, 0, "lat-net"},
    {B_BYTE0, -1e-3, 0, "byte-socket"},
    {B_BYTE1, -1e-3, 0, "byte-node"},
    {B_BYTE2, -1e-3, 0, "byte-net"},
    {B_BYTE2, NAN, 0, "byte-net"},
    {B_OVERHEAD, -0.5, 0, "overhead"},
    {B_OVERHEAD, NAN, 0, "overhead"},
    {B_NICGAP, -0.5, 0, "nic-gap"},
    {B_EAGER, -1, 0, "eager"},
};
#define NBAD ((int)(sizeof(bad) / sizeof(bad[0])))

/* A valid base: 8 ranks, 1000 B, the algorithm the field belongs to. */
static struct ml_collective_params bad_params(int i)
{
	struct ml_collective_params p =
	    hier_params(8, 1000, ML_COLL_BINOMIAL, 1, 1, 0, ML_COLL_MAP_CORE);
	const struct bad_case *b = &bad[i];

	if (b->ppn)
		p.ppn = b->ppn;
	switch (b->f) {
	case B_RANKS:
		p.ranks = (long long)b->v;
		break;
	case B_MSG:
		p.msg = (long long)b->v;
		break;
	case B_ALG:
		p.algorithm = (enum ml_coll_alg)(int)b->v;
		break;
	case B_SEGMENT:
		p.segment = (long long)b->v;
		break;
	case B_FANOUT:
		p.algorithm = ML_COLL_CHAIN;
		p.fanout = (long long)b->v;
		break;
	case B_RADIX:
		p.algorithm = ML_COLL_KNOMIAL;
		p.radix = (long long)b->v;
		break;
	case B_PPN:
		p.ppn = (long long)b->v;
		break;
	case B_SOCKETS:
		p.sockets = (long long)b->v;
		break;
	case B_NODES:
		p.nodes = (long long)b->v;
		break;
	case B_MAP:
		p.map_by = (enum ml_coll_map)(int)b->v;
		break;
	case B_BIND:
		p.bind_to = (enum ml_coll_bind)(int)b->v;
		break;
	case B_NUMA:
		p.numa = (long long)b->v;
		break;
	case B_LAT0:
		p.lat[ML_COLL_SOCKET] = b->v;
		break;
	case B_LAT1:
		p.lat[ML_COLL_NODE] = b->v;
		break;
	case B_LAT2:
		p.lat[ML_COLL_NET] = b->v;
		break;
	case B_BYTE0:
		p.byte[ML_COLL_SOCKET] = b->v;
		break;
	case B_BYTE1:
		p.byte[ML_COLL_NODE] = b->v;
		break;
	case B_BYTE2:
		p.byte[ML_COLL_NET] = b->v;
		break;
	case B_OVERHEAD:
		p.overhead = b->v;
		break;
	case B_NICGAP:
		p.nic_gap = b->v;
		break;
	case B_EAGER:
		p.eager = (long long)b->v;
		break;
	}
	return p;
}

START_TEST(test_validate_bad)
{
	struct ml_collective_params p = bad_params(_i);
	struct ml_diag d = {NULL, ""};
	struct ml_collective_result r, r0;
	enum ml_status st = ml_collective_validate(&p, &d);

	ck_assert_msg(st == ML_EINVAL, "case %d (%s = %g): status %d", _i,
		      bad[_i].param, bad[_i].v, (int)st);
	ck_assert_ptr_nonnull(d.param);
	ck_assert_msg(strcmp(d.param, bad[_i].param) == 0,
		      "case %d (%s = %g): diag names \"%s\" (\"%s\")", _i,
		      bad[_i].param, bad[_i].v, d.param, d.msg);
	ck_assert(d.msg[0] != '\0');
	/* A NULL diag is fine too. */
	ck_assert_int_eq(ml_collective_validate(&p, NULL), ML_EINVAL);
	/* eval and schedule refuse it and leave the result untouched. */
	memset(&r, 0x5a, sizeof(r));
	r0 = r;
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_EINVAL);
	ck_assert(memcmp(&r, &r0, sizeof(r)) == 0);
	ck_assert_int_eq(ml_collective_schedule(&p, NULL, NULL, &r), ML_EINVAL);
	ck_assert(memcmp(&r, &r0, sizeof(r)) == 0);
}
END_TEST

START_TEST(test_validate_good)
{
	struct ml_collective_params p;
	struct ml_diag d = {NULL, ""};
	int a;

	ml_collective_params_init(&p);
	ck_assert_int_eq(ml_collective_validate(&p, &d), ML_OK);
	/* The edges of the domain are inside it. */
	p = hier_params(8, 1, ML_COLL_CHAIN, 4, 2, 2, ML_COLL_MAP_NODE);
	p.fanout = 0;
	ck_assert_int_eq(ml_collective_validate(&p, &d), ML_OK);
	p.fanout = 32;
	ck_assert_int_eq(ml_collective_validate(&p, &d), ML_OK);
	p.algorithm = ML_COLL_KNOMIAL;
	p.radix = 2;
	ck_assert_int_eq(ml_collective_validate(&p, &d), ML_OK);
	p.lat[0] = p.lat[1] = p.lat[2] = 0;
	p.byte[0] = p.byte[1] = p.byte[2] = 0;
	p.eager = 0;
	ck_assert_int_eq(ml_collective_validate(&p, &d), ML_OK);
	p.nodes = 5; /* more nodes than needed */
	ck_assert_int_eq(ml_collective_validate(&p, &d), ML_OK);
	/* The limits themselves are inside. */
	p = hier_params(ML_COLL_MAX_RANKS, ML_COLL_MAX_MSG, ML_COLL_BINOMIAL, 1,
			1, 0, ML_COLL_MAP_CORE);
	ck_assert_int_eq(ml_collective_validate(&p, &d), ML_OK);
	for (a = ML_COLL_LINEAR; a <= ML_COLL_SCATTER_ALLGATHER_RING; a++) {
		p = hier_params(2, 1, (enum ml_coll_alg)a, 1, 1, 0,
				ML_COLL_MAP_CORE);
		ck_assert_int_eq(ml_collective_validate(&p, &d), ML_OK);
	}
}
END_TEST

/*
 * The limit of 2^31 messages per evaluation (collective.h).  The engine
 * algorithms send S (P - 1) messages: P = 2^15 + 1 ranks and 2^16
 * one-byte segments are exactly 2^31 (inside), one rank more is outside.
 * At the corner of the domain, P = 2^24 and M = 2^40 in 1-byte segments,
 * that count is about 2^64: it must be refused (not wrap around), by
 * validate, so that eval never starts on it.
 */
START_TEST(test_validate_message_limit)
{
	static const enum ml_coll_alg algs[] = {
	    ML_COLL_CHAIN,  ML_COLL_PIPELINE, ML_COLL_SPLIT_BINARY,
	    ML_COLL_BINARY, ML_COLL_BINOMIAL, ML_COLL_KNOMIAL};
	struct ml_collective_params p;
	struct ml_diag d = {NULL, ""};
	size_t i;

	p = logp_params((1LL << 15) + 1, 1LL << 16, ML_COLL_BINOMIAL, 1, 1.0,
			0.01);
	ck_assert_int_eq(ml_collective_validate(&p, &d), ML_OK);
	p.ranks++;
	ck_assert_int_eq(ml_collective_validate(&p, &d), ML_EINVAL);
	ck_assert_ptr_nonnull(d.param);
	for (i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
		enum ml_status st;

		p = logp_params(ML_COLL_MAX_RANKS, ML_COLL_MAX_MSG, algs[i], 1,
				1.0, 0.01);
		d.param = NULL;
		st = ml_collective_validate(&p, &d);
		ck_assert_msg(st == ML_EINVAL,
			      "alg %d, P 2^24, M 2^40 in 1 B segments: "
			      "validate %d (about 2^64 messages)",
			      (int)algs[i], (int)st);
		ck_assert_ptr_nonnull(d.param);
	}
}
END_TEST

/* params_init: the command's defaults as collective.h lists them. */
START_TEST(test_defaults)
{
	struct ml_collective_params p;
	int c;

	memset(&p, 0x33, sizeof(p));
	ml_collective_params_init(&p);
	ck_assert_int_eq(p.ranks, 2);
	ck_assert_int_eq(p.msg, 1);
	ck_assert_int_eq(p.algorithm, ML_COLL_BINOMIAL);
	ck_assert_int_eq(p.segment, 0);
	ck_assert_int_eq(p.fanout, 4);
	ck_assert_int_eq(p.radix, 4);
	ck_assert_int_eq(p.ppn, 1);
	ck_assert_int_eq(p.sockets, 1);
	ck_assert_int_eq(p.nodes, 0);
	ck_assert_int_eq(p.map_by, ML_COLL_MAP_CORE);
	/* the default machine of mcastlat-collective(1), DEFAULTS */
	ck_assert_double_eq(p.overhead, 0.000814965);
	ck_assert_double_eq(p.nic_gap, 0.0694796);
	ck_assert_double_eq(p.lat[ML_COLL_NET], 1.55067);
	ck_assert_double_eq(p.byte[ML_COLL_NET], 9.81964e-05);
	ck_assert_int_eq(p.eager, 4096);
	/* fitted without the eager copies (DEFAULTS says why) */
	for (c = 0; c < ML_COLL_NCHANNEL; c++)
		ck_assert_double_eq(p.ebyte[c], 0);
	for (c = 0; c < ML_COLL_NCHANNEL; c++) {
		ck_assert(isfinite(p.lat[c]) && p.lat[c] > 0);
		ck_assert(isfinite(p.byte[c]) && p.byte[c] > 0);
	}
}
END_TEST

START_TEST(test_alg_names)
{
	static const char *names[] = {"linear",
				      "chain",
				      "pipeline",
				      "split-binary",
				      "binary",
				      "binomial",
				      "knomial",
				      "scatter-allgather",
				      "scatter-allgather-ring"};
	int a;

	for (a = ML_COLL_LINEAR; a <= ML_COLL_SCATTER_ALLGATHER_RING; a++) {
		const char *s = ml_collective_alg_name((enum ml_coll_alg)a);

		ck_assert_ptr_nonnull(s);
		ck_assert_str_eq(s, names[a - 1]);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* 6. Fall-backs                                                       */

static void same_result(const struct ml_collective_result *a,
			const struct ml_collective_result *b, const char *what)
{
	ck_assert_msg(close_rel(a->latency, b->latency, 1e-12) &&
			  close_rel(a->latency_avg, b->latency_avg, 1e-12) &&
			  close_rel(a->latency_min, b->latency_min, 1e-12) &&
			  a->messages == b->messages,
		      "%s: %.17g/%.17g/%.17g/%lld vs %.17g/%.17g/%.17g/%lld",
		      what, a->latency, a->latency_avg, a->latency_min,
		      a->messages, b->latency, b->latency_avg, b->latency_min,
		      b->messages);
}

/* The machines the fall-backs are tried on: one rank per node, and
 * two packed placements with overhead and a NIC gap. */
static struct ml_collective_params fb_params(int mach, long long n, long long m,
					     enum ml_coll_alg a, long long seg)
{
	struct ml_collective_params p;

	if (mach == 0)
		return logp_params(n, m, a, seg, 1.7, 0.003);
	p = hier_params(n, m, a, 4, 2, 0,
			mach == 1 ? ML_COLL_MAP_CORE : ML_COLL_MAP_SOCKET);
	p.segment = seg;
	p.overhead = 0.07;
	p.nic_gap = 0.3;
	return p;
}

/* scatter-allgather(-ring) with M < P (elements = bytes) runs linear;
 * at M = P it runs itself. */
START_TEST(test_fallback_scatter_allgather)
{
	static const long long ps[] = {2, 5, 8, 13, 64};
	static const enum ml_coll_alg algs[] = {ML_COLL_SCATTER_ALLGATHER,
						ML_COLL_SCATTER_ALLGATHER_RING};
	size_t i, j;
	int mach;

	for (mach = 0; mach < 3; mach++)
		for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
			for (j = 0; j < 2; j++) {
				long long n = ps[i], m;

				for (m = 1; m < n; m += (n > 8 ? 7 : 1)) {
					struct ml_collective_params p =
					    fb_params(mach, n, m, algs[j], 0);
					struct ml_collective_params q =
					    fb_params(mach, n, m,
						      ML_COLL_LINEAR, 0);
					struct ml_collective_result r =
					    eval_ok(&p);
					struct ml_collective_result l =
					    eval_ok(&q);
					char what[80];

					snprintf(what, sizeof(what),
						 "alg %d mach %d P %lld M %lld",
						 (int)algs[j], mach, n, m);
					ck_assert_msg(r.ran == ML_COLL_LINEAR,
						      "%s: ran %d", what,
						      (int)r.ran);
					same_result(&r, &l, what);
				}
				{
					struct ml_collective_params p =
					    fb_params(mach, n, n, algs[j], 0);
					struct ml_collective_result r =
					    eval_ok(&p);

					ck_assert_msg(r.ran == algs[j],
						      "alg %d P %lld M = P: "
						      "ran %d",
						      (int)algs[j], n,
						      (int)r.ran);
				}
			}
}
END_TEST

/*
 * split-binary: halves ceil(M/2) | floor(M/2).  It runs the pipeline
 * (chain of fanout 1, same segment) when a half is empty (M = 1) or the
 * segment exceeds either half in bytes:
 *   M 1000 (500|500): seg 500 runs itself, 501 the pipeline;
 *   M 1001 (501|500): seg 500 itself, 501 the pipeline;
 *   M 2 (1|1): seg 0 itself, seg 2 the pipeline (one segment);
 *   M 1: the pipeline at seg 0.
 */
START_TEST(test_fallback_split_binary)
{
	static const struct {
		long long m, seg;
		int falls;
	} c[] = {
	    {1000, 500, 0}, {1000, 501, 1},  {1001, 500, 0}, {1001, 501, 1},
	    {2, 0, 0},	    {2, 2, 1},	     {1, 0, 1},	     {1000, 0, 0},
	    {1000, 100, 0}, {1000, 4000, 1}, {3, 1, 0},	     {3, 2, 1},
	};
	static const long long ps[] = {2, 3, 8, 13};
	size_t i, j;
	int mach;

	for (mach = 0; mach < 3; mach++)
		for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
			for (j = 0; j < sizeof(ps) / sizeof(ps[0]); j++) {
				struct ml_collective_params p =
				    fb_params(mach, ps[j], c[i].m,
					      ML_COLL_SPLIT_BINARY, c[i].seg);
				struct ml_collective_result r = eval_ok(&p);
				char what[96];

				snprintf(what, sizeof(what),
					 "split-binary mach %d P %lld M %lld "
					 "seg %lld",
					 mach, ps[j], c[i].m, c[i].seg);
				if (!c[i].falls) {
					ck_assert_msg(
					    r.ran == ML_COLL_SPLIT_BINARY,
					    "%s: ran %d", what, (int)r.ran);
					continue;
				}
				ck_assert_msg(r.ran == ML_COLL_PIPELINE,
					      "%s: ran %d", what, (int)r.ran);
				{
					struct ml_collective_params q =
					    fb_params(mach, ps[j], c[i].m,
						      ML_COLL_PIPELINE,
						      c[i].seg);
					struct ml_collective_result l =
					    eval_ok(&q);

					same_result(&r, &l, what);
					ck_assert_int_eq(r.segments,
							 l.segments);
				}
			}
}
END_TEST

/* chain with fanout 0 (and 1) is the pipeline, segmented or not. */
START_TEST(test_fallback_chain0)
{
	static const long long ps[] = {2, 3, 8, 13, 40};
	static const long long segs[] = {0, 100, 333};
	size_t i, j;
	int mach;
	long long f;

	for (mach = 0; mach < 3; mach++)
		for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
			for (j = 0; j < sizeof(segs) / sizeof(segs[0]); j++) {
				struct ml_collective_params q =
				    fb_params(mach, ps[i], 1000,
					      ML_COLL_PIPELINE, segs[j]);
				struct ml_collective_result l = eval_ok(&q);

				for (f = 0; f <= 1; f++) {
					struct ml_collective_params p =
					    fb_params(mach, ps[i], 1000,
						      ML_COLL_CHAIN, segs[j]);
					struct ml_collective_result r;
					char what[80];

					p.fanout = f;
					r = eval_ok(&p);
					snprintf(what, sizeof(what),
						 "chain f %lld mach %d P %lld "
						 "seg %lld",
						 f, mach, ps[i], segs[j]);
					same_result(&r, &l, what);
					ck_assert_int_eq(r.segments,
							 l.segments);
				}
			}
}
END_TEST

/* ------------------------------------------------------------------ */
/* 7. Schedules                                                        */

/* P = 4 binomial by hand (test_hand_binomial4): in the order they
 * start, 0->1 posted 0 start 0 arrival 2; 0->2 posted 0 start 1
 * arrival 3; 1->3 posted 2 start 2 arrival 4; all net, 100 bytes,
 * segment 0. */
START_TEST(test_schedule_hand)
{
	static const struct {
		long long src, dst;
		double posted, start, arrival;
	} want[] = {{0, 1, 0, 0, 2}, {0, 2, 0, 1, 3}, {1, 3, 2, 2, 4}};
	struct ml_collective_params p =
	    logp_params(4, 100, ML_COLL_BINOMIAL, 0, 1.0, 0.01);
	struct collect *c = calloc(1, sizeof(*c));
	struct ml_collective_result r;
	int i;

	ck_assert_ptr_nonnull(c);
	c->p = &p;
	ck_assert_int_eq(ml_collective_schedule(&p, collect_fn, c, &r), ML_OK);
	ck_assert_int_eq(c->n, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(c->m[i].src, want[i].src);
		ck_assert_int_eq(c->m[i].dst, want[i].dst);
		ck_assert_int_eq(c->m[i].bytes, 100);
		ck_assert_int_eq(c->m[i].segment, 0);
		ck_assert_int_eq(c->m[i].channel, ML_COLL_NET);
		ck_close(c->m[i].posted, want[i].posted);
		ck_close(c->m[i].start, want[i].start);
		ck_close(c->m[i].arrival, want[i].arrival);
	}
	/* Rendezvous, P = 2: posted 0 (send and receive), start after the
	 * handshake at L = 1, arrival 1 + 1 + 5000 x 0.01 = 52. */
	p = logp_params(2, 5000, ML_COLL_BINOMIAL, 0, 1.0, 0.01);
	c->n = 0;
	ck_assert_int_eq(ml_collective_schedule(&p, collect_fn, c, &r), ML_OK);
	ck_assert_int_eq(c->n, 1);
	ck_close(c->m[0].posted, 0.0);
	ck_close(c->m[0].start, 1.0);
	ck_close(c->m[0].arrival, 52.0);
	ck_close(r.latency, 52.0);
	free(c);
}
END_TEST

/* Every algorithm on a packed machine with overhead and a NIC gap:
 * one call per message, each consistent with its channel, every
 * non-root receiving the whole message; and (loop indices 9..17) the
 * calls in the order the messages start, as collective.h promises. */
/* When message m became ready to be served (collective.h). */
static double ready_of(const struct ml_collective_params *p,
		       const struct ml_coll_msg *m)
{
	return m->bytes > p->eager ? m->posted + p->lat[m->channel]
				   : m->posted;
}

START_TEST(test_schedule_invariants)
{
	static const struct {
		long long m, seg, eager;
	} sz[] = {
	    {1000, 256, 4096}, /* eager segments */
	    {1000, 0, 4096},
	    {20000, 0, 4096},	 /* rendezvous */
	    {20000, 6000, 4096}, /* rendezvous segments */
	};
	static const long long ps[] = {2, 7, 13};
	/* _i < 9: the invariants; _i >= 9: also the order of the calls. */
	enum ml_coll_alg alg = (enum ml_coll_alg)(_i % ML_COLL_NALG + 1);
	int order = _i >= ML_COLL_NALG;
	struct collect *c = calloc(1, sizeof(*c));
	size_t si, pi;

	ck_assert_ptr_nonnull(c);
	for (si = 0; si < sizeof(sz) / sizeof(sz[0]); si++)
		for (pi = 0; pi < sizeof(ps) / sizeof(ps[0]); pi++) {
			struct ml_collective_params p = hier_params(
			    ps[pi], sz[si].m, alg, 4, 2, 0, ML_COLL_MAP_SOCKET);
			struct ml_collective_result r, e;
			long long got[16] = {0}, k;
			char what[80];

			p.segment = sz[si].seg;
			p.eager = sz[si].eager;
			p.overhead = 0.05;
			p.nic_gap = 0.1;
			p.fanout = 2;
			p.radix = 3;
			c->p = &p;
			c->n = 0;
			c->stop_at = 0;
			snprintf(what, sizeof(what),
				 "alg %d P %lld M %lld seg %lld", (int)alg,
				 ps[pi], sz[si].m, sz[si].seg);
			ck_assert_int_eq(
			    ml_collective_schedule(&p, collect_fn, c, &r),
			    ML_OK);
			e = eval_ok(&p);
			same_result(&r, &e, what);
			ck_assert_msg(c->n == r.messages,
				      "%s: %lld calls, %lld messages", what,
				      c->n, r.messages);
			ck_assert_int_le(c->n, MSG_CAP);
			for (k = 0; k < c->n; k++) {
				const struct ml_coll_msg *m = &c->m[k];
				enum ml_coll_channel ch;
				double want;

				ck_assert_msg(m->src >= 0 && m->src < p.ranks &&
						  m->dst >= 0 &&
						  m->dst < p.ranks &&
						  m->src != m->dst,
					      "%s: message %lld %lld->%lld",
					      what, k, m->src, m->dst);
				ck_assert_int_eq(ml_collective_channel(
						     &p, m->src, m->dst, &ch),
						 ML_OK);
				ck_assert_msg(m->channel == ch,
					      "%s: %lld->%lld channel %d, "
					      "expected %d",
					      what, m->src, m->dst,
					      (int)m->channel, (int)ch);
				/* Open MPI sends empty trailing blocks too. */
				ck_assert(m->bytes >= 0 && m->bytes <= p.msg);
				ck_assert_msg(m->start >= m->posted - 1e-12,
					      "%s: message %lld starts %.17g "
					      "before it is posted %.17g",
					      what, k, m->start, m->posted);
				if (m->bytes > p.eager)
					ck_assert_msg(
					    m->start >=
						m->posted + p.lat[ch] - 1e-9,
					    "%s: rendezvous %lld->%lld starts "
					    "%.17g, posted %.17g + L %g",
					    what, m->src, m->dst, m->start,
					    m->posted, p.lat[ch]);
				want = m->start + p.lat[ch] +
				       (double)m->bytes * p.byte[ch];
				ck_assert_msg(close_rel(m->arrival, want, 1e-9),
					      "%s: %lld->%lld start %.17g "
					      "arrival %.17g, expected %.17g",
					      what, m->src, m->dst, m->start,
					      m->arrival, want);
				/* Served in the order they became ready: an
				 * eager message when posted, a rendezvous one
				 * L_c after (collective.h). */
				if (order && k > 0)
					ck_assert_msg(ready_of(&p, m) >=
							  ready_of(&p, &c->m[k - 1]) -
							      1e-12,
						      "%s: message %lld ready "
						      "%.17g before %.17g",
						      what, k, ready_of(&p, m),
						      ready_of(&p, &c->m[k - 1]));
				ck_assert_msg(m->arrival <= r.latency + 1e-9,
					      "%s: arrival %.17g after the "
					      "latency %.17g",
					      what, m->arrival, r.latency);
				got[m->dst] += m->bytes;
			}
			/* Nothing to the root, except in the allgathers of
			 * algorithms 8 and 9, where the root exchanges like
			 * any rank (coll_base_bcast.c: every vrank does the
			 * sendrecv, the root included). */
			if (alg != ML_COLL_SCATTER_ALLGATHER &&
			    alg != ML_COLL_SCATTER_ALLGATHER_RING)
				ck_assert_int_eq(got[0], 0);
			for (k = 1; k < p.ranks; k++) {
				if (alg == ML_COLL_SCATTER_ALLGATHER ||
				    alg == ML_COLL_SCATTER_ALLGATHER_RING) {
					/* Recursive doubling re-sends a
					 * scattered block: at least M. */
					ck_assert_msg(got[k] >= p.msg,
						      "%s: rank %lld got %lld",
						      what, k, got[k]);
					continue;
				}
				ck_assert_msg(got[k] == p.msg,
					      "%s: rank %lld received %lld "
					      "bytes",
					      what, k, got[k]);
			}
		}
	free(c);
}
END_TEST

/* A nonzero return from fn stops the evaluation: ML_EINVAL, no more
 * calls; fn NULL is eval. */
START_TEST(test_schedule_stop)
{
	struct ml_collective_params p =
	    logp_params(16, 1000, ML_COLL_BINOMIAL, 0, 1.0, 0.01);
	struct collect *c = calloc(1, sizeof(*c));
	struct ml_collective_result r, e;

	ck_assert_ptr_nonnull(c);
	c->p = &p;
	c->stop_at = 2;
	ck_assert_int_eq(ml_collective_schedule(&p, collect_fn, c, &r),
			 ML_EINVAL);
	ck_assert_int_eq(c->n, 2);
	ck_assert_int_eq(ml_collective_schedule(&p, NULL, NULL, &r), ML_OK);
	e = eval_ok(&p);
	same_result(&r, &e, "schedule without fn");
	free(c);
}
END_TEST

/* ------------------------------------------------------------------ */

/*
 * ml_collective_best against brute force: every algorithm evaluated on
 * its own, the least latency (ties to the lower id) and the runner-up.
 * The points include rings that win (large M, many ranks, cheap
 * latency) and rings that the pruning bound skips, on machines of one
 * and several ranks per node, with rendezvous everywhere (eager 0: the
 * bound's handshakes), NIC gaps and free same-socket messages (issue
 * 36: the bound follows block 0 on its own channels).
 */
START_TEST(test_best_brute_force)
{
	static const long long ranks[] = {2, 3, 7, 16, 33, 64, 130};
	static const long long msgs[] = {1, 100, 4096, 65536, 1048576,
					 4194304};
	struct ml_collective_params p, q;
	struct ml_collective_result r, x;
	enum ml_coll_alg best, want;
	double margin, lo, second;
	size_t i, j;
	int a, machine;

	for (machine = 0; machine < 4; machine++)
		for (i = 0; i < sizeof ranks / sizeof *ranks; i++)
			for (j = 0; j < sizeof msgs / sizeof *msgs; j++) {
				ml_collective_params_init(&p);
				p.ranks = ranks[i];
				p.msg = msgs[j];
				if (machine == 1) {
					p.ppn = 8;
					p.sockets = 2;
					p.overhead = 0.3;
					p.map_by = ML_COLL_MAP_NODE;
					p.nodes = 17;
				}
				if (machine == 2) {
					p.ppn = 4;
					p.sockets = 2;
					p.map_by = ML_COLL_MAP_SOCKET;
					p.eager = 0;
					p.nic_gap = 0.2;
				}
				if (machine == 3) {
					p.ppn = 24;
					p.sockets = 2;
					p.lat[ML_COLL_SOCKET] = 0;
					p.byte[ML_COLL_NODE] = 1e-5;
				}
				lo = second = INFINITY;
				want = ML_COLL_LINEAR;
				for (a = 1; a <= ML_COLL_NALG; a++) {
					q = p;
					q.algorithm = (enum ml_coll_alg)a;
					ck_assert_int_eq(ml_collective_eval(&q, &x),
							 ML_OK);
					if (x.latency < lo * (1 - 1e-12)) {
						second = lo;
						lo = x.latency;
						want = (enum ml_coll_alg)a;
					} else if (x.latency < second) {
						second = x.latency;
					}
				}
				ck_assert_int_eq(
				    ml_collective_best(&p, &best, &r, &margin),
				    ML_OK);
				ck_assert_msg(best == want,
					      "P %lld M %lld machine %d: best "
					      "%d, brute force %d",
					      p.ranks, p.msg, machine, (int)best,
					      (int)want);
				ck_assert(close_rel(r.latency, lo, 1e-12));
				ck_assert_msg(close_rel(margin, second / lo, 1e-9),
					      "P %lld M %lld: margin %.17g, "
					      "brute force %.17g",
					      p.ranks, p.msg, margin, second / lo);
			}
}
END_TEST

Suite *suite_collective(void)
{
	Suite *s = suite_create("collective");
	TCase *tc;

	tc = tcase_create("trees");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_tree_construction, 0, NTREE_CASES);
	tcase_add_loop_test(tc, test_tree_examples, 0, NEXAMPLES);
	tcase_add_test(tc, test_tree_rejects);
	suite_add_tcase(s, tc);

	tc = tcase_create("decide");
	tcase_add_test(tc, test_decide_table);
	suite_add_tcase(s, tc);

	tc = tcase_create("place");
	tcase_add_test(tc, test_place_hand);
	tcase_add_test(tc, test_channel_hand);
	tcase_add_test(tc, test_place_all);
	tcase_add_test(tc, test_place_bind);
	tcase_add_test(tc, test_place_bind_schedule);
	tcase_add_test(tc, test_place_cmp);
	tcase_add_test(tc, test_place_rejects);
	suite_add_tcase(s, tc);

	tc = tcase_create("times");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_logp_recursion, 0, NLOGP * NLOGP_SIZES);
	tcase_add_test(tc, test_hand_binomial4);
	tcase_add_test(tc, test_hand_pipeline5);
	tcase_add_test(tc, test_hand_rendezvous);
	tcase_add_test(tc, test_p2p);
	tcase_add_test(tc, test_hand_eager_copy);
	tcase_add_test(tc, test_p2p_is_bcast2);
	tcase_add_test(tc, test_hand_nic);
	tcase_add_test(tc, test_hand_split_binary3);
	tcase_add_test(tc, test_hand_split_binary4);
	tcase_add_test(tc, test_hand_split_binary_segmented);
	tcase_add_test(tc, test_hand_linear_nic);
	tcase_add_test(tc, test_hand_scatter_allgather4);
	tcase_add_test(tc, test_hand_rendezvous_posting);
	suite_add_tcase(s, tc);

	tc = tcase_create("domain");
	tcase_add_loop_test(tc, test_validate_bad, 0, NBAD);
	tcase_add_test(tc, test_validate_good);
	tcase_add_test(tc, test_validate_message_limit);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_alg_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("fallbacks");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fallback_scatter_allgather);
	tcase_add_test(tc, test_fallback_split_binary);
	tcase_add_test(tc, test_fallback_chain0);
	suite_add_tcase(s, tc);

	tc = tcase_create("schedule");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_schedule_hand);
	tcase_add_loop_test(tc, test_schedule_invariants, 0, 2 * ML_COLL_NALG);
	tcase_add_test(tc, test_schedule_stop);
	suite_add_tcase(s, tc);

	tc = tcase_create("best");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_best_brute_force);
	suite_add_tcase(s, tc);
	return s;
}
