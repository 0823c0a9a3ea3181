/*
 * trees.c - the trees of Open MPI's coll_base_topo.c (4.1 and 5.0, the
 * same for broadcast), in virtual ranks v = (rank - root) mod P:
 *
 *   BINOMIAL  build_bmtree: parent = v without its highest set bit;
 *             children v + 2^k for every 2^k > v, increasing k (the
 *             largest subtree first).
 *   BINARY    build_tree(2): level L holds 2^L ranks, 2^L - 1 above it;
 *             children v + 2^L and v + 2 * 2^L; the parent of offset o
 *             in level L is offset o mod 2^(L-1) in level L - 1.
 *   KNOMIAL   build_kmtree(k): the parent of v is v rounded down to a
 *             multiple of k m, m the least power of k with v not a
 *             multiple of k m; children v + r m' for m' = m/k, m/k^2,
 *             ..., 1 and r = 1 .. k-1 (largest subtrees first).
 *   CHAIN     build_chain(f): the P - 1 non-roots cut into f chains of
 *             consecutive ranks, the first (P-1) mod f of them one longer;
 *             the root sends to the heads in order.  PIPELINE is f = 1.
 */
#include "collective/coll_int.h"

/* Bit length of v > 0: the k with 2^(k-1) <= v < 2^k. */
static int bitlen(unsigned long long v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

int ml_coll_tree_init(struct coll_tree *t, enum ml_coll_alg kind,
		      long long ranks, long long arg)
{
	long long f;

	t->kind = kind;
	t->ranks = ranks;
	t->radix = 0;
	t->chains = t->chain_len = t->chain_mark = 0;
	switch (kind) {
	case ML_COLL_BINARY:
	case ML_COLL_BINOMIAL:
		return 0;
	case ML_COLL_KNOMIAL:
		if (arg < 2)
			return -1;
		t->radix = arg;
		return 0;
	case ML_COLL_PIPELINE:
		arg = 1;
		/* fall through */
	case ML_COLL_CHAIN:
		t->kind = ML_COLL_CHAIN;
		f = arg < 1 ? 1 : arg;
		if (f > ranks - 1)
			f = ranks - 1;
		t->chains = f;
		t->chain_len = (ranks - 1) / f;
		if ((ranks - 1) % f != 0) {
			t->chain_len++;
			t->chain_mark = (ranks - 1) % f;
		} else {
			t->chain_mark = f + 1;
		}
		return 0;
	default:
		return -1;
	}
}

/* CHAIN: the head and length of the chain holding v > 0. */
static void chain_of(const struct coll_tree *t, long long v, long long *head,
		     long long *len)
{
	long long L = t->chain_len, mark = t->chain_mark, col;

	if (v - 1 < mark * L) {
		col = (v - 1) / L;
		*head = 1 + col * L;
		*len = L;
	} else {
		col = mark + (v - 1 - mark * L) / (L - 1);
		*head = mark * L + 1 + (col - mark) * (L - 1);
		*len = L - 1;
	}
}

long long ml_coll_tree_parent(const struct coll_tree *t, long long v)
{
	long long head, len, m, level, above;

	if (v == 0)
		return -1;
	switch (t->kind) {
	case ML_COLL_BINOMIAL:
		return v & ~(1LL << (bitlen((unsigned long long)v) - 1));
	case ML_COLL_BINARY:
		level = bitlen((unsigned long long)v + 1) - 1;
		above = (1LL << level) - 1;
		return (1LL << (level - 1)) - 1 +
		       (v - above) % (1LL << (level - 1));
	case ML_COLL_KNOMIAL:
		for (m = 1;; m *= t->radix)
			if (v % (t->radix * m))
				return v / (t->radix * m) * (t->radix * m);
	case ML_COLL_CHAIN:
		if (t->chains == 1)
			return v - 1;
		chain_of(t, v, &head, &len);
		return v == head ? 0 : v - 1;
	default:
		return -1;
	}
}

/* KNOMIAL: the largest power m of the radix at which v's children
 * start (m = the least power with v % (k m) != 0, divided by k; for
 * the root the least power >= P, divided by k). */
static long long kmtree_top(const struct coll_tree *t, long long v)
{
	long long m = 1;

	while (m < t->ranks) {
		if (v % (t->radix * m))
			break;
		m *= t->radix;
	}
	return m / t->radix;
}

int ml_coll_tree_nkids(const struct coll_tree *t, long long v)
{
	long long P = t->ranks, head, len, m, r;
	int n = 0, k;

	switch (t->kind) {
	case ML_COLL_BINOMIAL:
		for (k = bitlen((unsigned long long)v); k < 63; k++) {
			if (v + (1LL << k) >= P)
				break;
			n++;
		}
		return n;
	case ML_COLL_BINARY:
		m = 1LL << (bitlen((unsigned long long)v + 1) - 1);
		return (v + m < P) + (v + 2 * m < P);
	case ML_COLL_KNOMIAL:
		for (m = kmtree_top(t, v); m > 0; m /= t->radix)
			for (r = 1; r < t->radix; r++)
				n += v + m * r < P;
		return n;
	case ML_COLL_CHAIN:
		if (v == 0)
			return (int)t->chains;
		if (t->chains == 1)
			return v + 1 < P;
		chain_of(t, v, &head, &len);
		return v != head + len - 1 && v + 1 < P;
	default:
		return 0;
	}
}

long long ml_coll_tree_kid(const struct coll_tree *t, long long v, int c)
{
	long long m, r, kid;
	int n = 0, i;

	switch (t->kind) {
	case ML_COLL_BINOMIAL:
		return v + (1LL << (bitlen((unsigned long long)v) + c));
	case ML_COLL_BINARY:
		m = 1LL << (bitlen((unsigned long long)v + 1) - 1);
		return v + (c + 1) * m;
	case ML_COLL_KNOMIAL:
		for (m = kmtree_top(t, v); m > 0; m /= t->radix)
			for (r = 1; r < t->radix; r++)
				if (v + m * r < t->ranks && n++ == c)
					return v + m * r;
		return -1;
	case ML_COLL_CHAIN:
		if (v != 0)
			return v + 1;
		kid = 1;
		for (i = 1; i <= c; i++)
			kid += t->chain_len - (i > t->chain_mark);
		return kid;
	default:
		return -1;
	}
}
