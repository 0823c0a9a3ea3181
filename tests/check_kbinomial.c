/* check_kbinomial.c - the k-binomial model against the paper's examples,
 * hand expansions of Lemma 1, and its own FPFS simulation. */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "mcastlat/kbinomial.h"

/* The paper's Section 5.2 parameters: t_s = t_r = 12.5, t_ns = 3.0,
 * t_nr = 2.0 (us), no propagation: t_step = 5 us. */
static struct ml_kbinomial_params params(long long n, long long m,
					 enum ml_kbinomial_tree tree)
{
	struct ml_kbinomial_params p = {.nodes = n,
					.packets = m,
					.tree = tree,
					.k = 0,
					.tie = ML_KBINOMIAL_TIE_LARGEST,
					.ts = 12.5,
					.tr = 12.5,
					.tns = 3.0,
					.tnr = 2.0,
					.tprop = 0.0,
					.schedule = false};
	return p;
}

static struct ml_kbinomial_result eval_ok(const struct ml_kbinomial_params *p)
{
	struct ml_kbinomial_result r;

	ck_assert_int_eq(ml_kbinomial_eval(p, &r), ML_OK);
	return r;
}

/* ceil(log2 n), independently of the model: the least h with 2^h >= n. */
static long long clog2(long long n)
{
	long long h = 0;

	while (h < 63 && (1LL << h) < n)
		h++;
	return h;
}

/* The helpers' values, asserting ML_OK (the domain errors are tested
 * directly in test_nodes_edges and test_l1_hand). */
static unsigned long long nodes(long long s, long long k,
				unsigned long long cap)
{
	unsigned long long v = 0;

	ck_assert_int_eq(ml_kbinomial_nodes(s, k, cap, &v), ML_OK);
	return v;
}

static long long l1(long long n, long long k)
{
	long long v = -1;

	ck_assert_int_eq(ml_kbinomial_l1(n, k, &v), ML_OK);
	return v;
}

/* L1 by definition, from N(s,k): the least s with N(s,k) >= n. */
static long long l1_brute(long long n, long long k)
{
	long long s = 0;

	while (nodes(s, k, (unsigned long long)n) <
	       (unsigned long long)n)
		s++;
	return s;
}

/* ------------------------------------------------------------------ */
/* Lemma 1                                                             */

/*
 * Hand expansion of Lemma 1 (2^s for s <= k, else 1 + the k previous):
 *   k = 1: 1, 2; N(2) = 1 + 2 = 3; N(3) = 1 + 3 = 4; N(6) = 7.
 *   k = 2: 1, 2, 4; N(3) = 1 + 4 + 2 = 7; N(4) = 1 + 7 + 4 = 12;
 *          N(5) = 1 + 12 + 7 = 20; N(6) = 1 + 20 + 12 = 33.
 *   k = 3: 1, 2, 4, 8; N(4) = 1 + 8 + 4 + 2 = 15;
 *          N(5) = 1 + 15 + 8 + 4 = 28; N(6) = 1 + 28 + 15 + 8 = 52.
 *   k = 4: 1, 2, 4, 8, 16; N(5) = 1 + 16 + 8 + 4 + 2 = 31;
 *          N(6) = 1 + 31 + 16 + 8 + 4 = 60.
 */
static const struct {
	long long s, k;
	unsigned long long n;
} lemma1[] = {
    {0, 1, 1},	{1, 1, 2},  {2, 1, 3},	{3, 1, 4},  {6, 1, 7},	{0, 2, 1},
    {1, 2, 2},	{2, 2, 4},  {3, 2, 7},	{4, 2, 12}, {5, 2, 20}, {6, 2, 33},
    {0, 3, 1},	{3, 3, 8},  {4, 3, 15}, {5, 3, 28}, {6, 3, 52}, {4, 4, 16},
    {5, 4, 31}, {6, 4, 60}, {3, 9, 8},
};

START_TEST(test_nodes_hand)
{
	ck_assert_uint_eq(
	    nodes(lemma1[_i].s, lemma1[_i].k, ULLONG_MAX),
	    lemma1[_i].n);
	/* A cap at or below the value saturates, one above does not. */
	ck_assert_uint_eq(
	    nodes(lemma1[_i].s, lemma1[_i].k, lemma1[_i].n),
	    lemma1[_i].n);
	ck_assert_uint_eq(
	    nodes(lemma1[_i].s, lemma1[_i].k, lemma1[_i].n + 1),
	    lemma1[_i].n);
	if (lemma1[_i].n > 1)
		ck_assert_uint_eq(nodes(lemma1[_i].s, lemma1[_i].k,
						     lemma1[_i].n - 1),
				  lemma1[_i].n - 1);
}
END_TEST

/* N(s,2) = F(s+3) - 1 with F(1) = F(2) = 1: both satisfy
 * a(s) = a(s-1) + a(s-2) + 1 (for N: Lemma 1 with k = 2; for F - 1:
 * F(s+3) - 1 = (F(s+2) - 1) + (F(s+1) - 1) + 1) and agree at s = 0, 1
 * (F(3) - 1 = 1, F(4) - 1 = 2).  F(93) < 2^64: the whole range up to the
 * edge of 64 bits. */
START_TEST(test_nodes_fibonacci)
{
	unsigned long long f1 = 1, f2 = 1, f3; /* F(1), F(2) */
	long long s;

	for (s = 0; s <= 90; s++) {
		f3 = f1 + f2; /* F(s+3): F(s+1) + F(s+2) */
		ck_assert_uint_eq(nodes(s, 2, ULLONG_MAX), f3 - 1);
		f1 = f2;
		f2 = f3;
	}
	/* Beyond 2^64 it saturates instead of wrapping. */
	ck_assert_uint_eq(nodes(200, 2, ULLONG_MAX), ULLONG_MAX);
	ck_assert_uint_eq(nodes(1000, 3, 1000), 1000);
}
END_TEST

START_TEST(test_nodes_edges)
{
	unsigned long long v = 77;

	/* 2^s for s <= k, up to the last power that fits. */
	ck_assert_uint_eq(nodes(63, 63, ULLONG_MAX), 1ULL << 63);
	ck_assert_uint_eq(nodes(64, 64, ULLONG_MAX), ULLONG_MAX);
	ck_assert_uint_eq(nodes(70, 65, 12345), 12345);
	/* N(s,1) = s + 1, saturated. */
	ck_assert_uint_eq(nodes(100, 1, ULLONG_MAX), 101);
	ck_assert_uint_eq(nodes(LLONG_MAX, 1, 1ULL << 62),
			  1ULL << 62);
	ck_assert_uint_eq(nodes(LLONG_MAX, 1, ULLONG_MAX),
			  (unsigned long long)LLONG_MAX + 1);
	ck_assert_uint_eq(nodes(LLONG_MAX, 2, ULLONG_MAX),
			  ULLONG_MAX);
	/* Outside the domain: ML_EINVAL, the output untouched. */
	ck_assert_int_eq(ml_kbinomial_nodes(-1, 2, 10, &v), ML_EINVAL);
	ck_assert_int_eq(ml_kbinomial_nodes(3, 0, 10, &v), ML_EINVAL);
	ck_assert_int_eq(ml_kbinomial_nodes(3, 2, 0, &v), ML_EINVAL);
	ck_assert_uint_eq(v, 77);
}
END_TEST

/* ------------------------------------------------------------------ */
/* L1                                                                  */

START_TEST(test_l1_hand)
{
	long long v = -7;

	/* From the expansions above: N(2,2) = 4 >= 4; N(3,2) = 7 < 8 <=
	 * N(4,2) = 12; N(4,3) = 15 < 16 <= N(5,3) = 28; N(4,4) = 16;
	 * N(3,2) = 7 < 9 <= 12; a chain needs n - 1 steps; one node none. */
	ck_assert_int_eq(l1(4, 2), 2);
	ck_assert_int_eq(l1(8, 2), 4);
	ck_assert_int_eq(l1(16, 3), 5);
	ck_assert_int_eq(l1(15, 3), 4);
	ck_assert_int_eq(l1(16, 4), 4);
	ck_assert_int_eq(l1(9, 2), 4);
	ck_assert_int_eq(l1(9, 3), 4);
	ck_assert_int_eq(l1(100, 1), 99);
	ck_assert_int_eq(l1(1, 1), 0);
	ck_assert_int_eq(l1(1, 5), 0);
	ck_assert_int_eq(ml_kbinomial_l1(0, 2, &v), ML_EINVAL);
	ck_assert_int_eq(ml_kbinomial_l1(5, 0, &v), ML_EINVAL);
	ck_assert_int_eq(v, -7);
}
END_TEST

/* L1 against its definition over N(s,k) (a separate code path). */
START_TEST(test_l1_definition)
{
	long long n, k;

	for (n = 1; n <= 3000; n++)
		for (k = 1; k <= 14; k++)
			ck_assert_int_eq(l1(n, k), l1_brute(n, k));
}
END_TEST

START_TEST(test_l1_large)
{
	/* Around powers of two up to 2^62 and near LLONG_MAX, every k. */
	long long base[] = {3,	       1000,	  1LL << 20,
			    1LL << 31, 1LL << 40, 1LL << 52,
			    1LL << 61, 1LL << 62, LLONG_MAX - 2};
	long long d, k, n;
	size_t i;

	for (i = 0; i < sizeof(base) / sizeof(base[0]); i++)
		for (d = -2; d <= 2; d++) {
			n = base[i] + d;
			if (n < 1)
				continue;
			for (k = 2; k <= 64; k++)
				ck_assert_int_eq(l1(n, k),
						 l1_brute(n, k));
		}
	/* A chain over 2^62 nodes, and n - 1 near LLONG_MAX. */
	ck_assert_int_eq(l1(1LL << 62, 1), (1LL << 62) - 1);
	ck_assert_int_eq(l1(LLONG_MAX, 1), LLONG_MAX - 1);
	/* k >= ceil(log2 n): binomial, L1 = 62 and 63. */
	ck_assert_int_eq(l1(1LL << 62, 62), 62);
	ck_assert_int_eq(l1(1LL << 62, 1000), 62);
	ck_assert_int_eq(l1(LLONG_MAX, 63), 63);
}
END_TEST

/* L1(2^62, 2): the least s with F(s+3) - 1 >= 2^62.  F(90) =
 * 2880067194370816120 < 2^62 = 4611686018427387904 < F(91) - 1 =
 * 4660046610375530308, so s + 3 = 91, s = 88. */
START_TEST(test_l1_fibonacci_2_62)
{
	ck_assert_int_eq(l1(1LL << 62, 2), 88);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The paper's examples                                                */

START_TEST(test_figure5)
{
	struct ml_kbinomial_params p = params(4, 3, ML_KBINOMIAL_BINOMIAL);
	struct ml_kbinomial_result r;

	/* Figure 5(a): binomial tree, 3 destinations, 3 packets: 6 steps;
	 * latency t_s + 6 t_step + t_r = 12.5 + 30 + 12.5 = 55. */
	r = eval_ok(&p);
	ck_assert_int_eq(r.k, 2);
	ck_assert_int_eq(r.l1, 2);
	ck_assert_int_eq(r.steps, 6);
	ck_assert_double_eq_tol(r.latency, 55.0, 1e-12);
	ck_assert_int_eq(r.binomial_steps, 6);
	ck_assert_double_eq_tol(r.speedup, 1.0, 1e-12);
	/* Figure 5(b): linear tree, 5 steps, 12.5 + 25 + 12.5 = 50; the
	 * binomial tree is 55 / 50 = 1.1 times slower. */
	p.tree = ML_KBINOMIAL_LINEAR;
	r = eval_ok(&p);
	ck_assert_int_eq(r.k, 1);
	ck_assert_int_eq(r.l1, 3);
	ck_assert_int_eq(r.steps, 5);
	ck_assert_double_eq_tol(r.latency, 50.0, 1e-12);
	ck_assert_int_eq(r.binomial_steps, 6);
	ck_assert_double_eq_tol(r.binomial_latency, 55.0, 1e-12);
	ck_assert_double_eq_tol(r.speedup, 1.1, 1e-12);
}
END_TEST

START_TEST(test_figure8)
{
	struct ml_kbinomial_params p = params(8, 3, ML_KBINOMIAL_BINOMIAL);
	struct ml_kbinomial_result r;

	/* Figure 8: 7 destinations, 3 packets, binomial: 3 + (3-1) 3 = 9. */
	r = eval_ok(&p);
	ck_assert_int_eq(r.k, 3);
	ck_assert_int_eq(r.l1, 3);
	ck_assert_int_eq(r.steps, 9);
	/* t_prop adds to every step: 12.5 + 9 (3 + 1 + 2) + 12.5 = 79. */
	p.tprop = 1.0;
	r = eval_ok(&p);
	ck_assert_double_eq_tol(r.latency, 79.0, 1e-12);
}
END_TEST

/* Section 2.5 / Figure 4(b): one packet over a binomial tree costs
 * t_s + ceil(log2 n) t_step + t_r: n = 4 gives 12.5 + 10 + 12.5. */
START_TEST(test_figure4)
{
	struct ml_kbinomial_params p = params(4, 1, ML_KBINOMIAL_BINOMIAL);
	struct ml_kbinomial_result r = eval_ok(&p);

	ck_assert_int_eq(r.steps, 2);
	ck_assert_double_eq_tol(r.latency, 35.0, 1e-12);
}
END_TEST

/* Figure 12(a) at m = 1: the optimal k is ceil(log2 n), and so are the
 * steps, for every n = 2..1000. */
START_TEST(test_m1_optimal)
{
	struct ml_kbinomial_params p = params(2, 1, ML_KBINOMIAL_OPTIMAL);
	struct ml_kbinomial_result r;
	long long n;

	for (n = 2; n <= 1000; n++) {
		p.nodes = n;
		r = eval_ok(&p);
		ck_assert_int_eq(r.k, clog2(n));
		ck_assert_int_eq(r.steps, clog2(n));
		ck_assert_int_eq(r.binomial_steps, clog2(n));
	}
}
END_TEST

/* n = 1: nothing to send, 0 steps, whatever the tree or m. */
START_TEST(test_n1)
{
	static const enum ml_kbinomial_tree trees[] = {
	    ML_KBINOMIAL_OPTIMAL, ML_KBINOMIAL_BINOMIAL, ML_KBINOMIAL_LINEAR,
	    ML_KBINOMIAL_FIXED};
	struct ml_kbinomial_params p = params(1, 1, trees[_i]);
	struct ml_kbinomial_result r;
	long long m;

	p.k = 3;
	p.schedule = true;
	for (m = 1; m <= 5; m += 4) {
		p.packets = m;
		r = eval_ok(&p);
		ck_assert_int_eq(r.k, 0);
		ck_assert_int_eq(r.l1, 0);
		ck_assert_int_eq(r.steps, 0);
		ck_assert_int_eq(r.binomial_steps, 0);
		ck_assert_int_eq(r.sim_steps, 0);
		ck_assert_double_eq_tol(r.latency, 25.0, 1e-12);
		ck_assert_double_eq_tol(r.speedup, 1.0, 1e-12);
	}
}
END_TEST

/* n = 9, m = 1: L1(9,1) = 8, L1(9,2) = L1(9,3) = 4 (above), and
 * L1(9,4) = 4 (2^4 = 16 >= 9): k = 2, 3, 4 tie at 4 steps.  Largest: 4;
 * smallest: 2. */
START_TEST(test_tie_n9)
{
	struct ml_kbinomial_params p = params(9, 1, ML_KBINOMIAL_OPTIMAL);
	struct ml_kbinomial_result r;

	r = eval_ok(&p);
	ck_assert_int_eq(r.k, 4);
	ck_assert_int_eq(r.steps, 4);
	p.tie = ML_KBINOMIAL_TIE_SMALLEST;
	r = eval_ok(&p);
	ck_assert_int_eq(r.k, 2);
	ck_assert_int_eq(r.steps, 4);
	ck_assert_int_eq(r.l1, 4);
}
END_TEST

/* Figure 12(b): for m = 4 the optimal k is 2 for every n from 9 to 64.
 * E.g. n = 9: k = 1: 8 + 3 = 11, k = 2: 4 + 6 = 10, k = 3: 4 + 9 = 13;
 * n = 64: k = 1: 63 + 3, k = 2: L1 = 8 (N(7,2) = 54 < 64 <= 88) + 6 = 14,
 * k = 3: L1 = 7 (52 < 64 <= 96) + 9 = 16. */
START_TEST(test_m4_k2)
{
	struct ml_kbinomial_params p = params(9, 4, ML_KBINOMIAL_OPTIMAL);
	struct ml_kbinomial_result r;
	long long n;

	for (n = 9; n <= 64; n++) {
		p.nodes = n;
		r = eval_ok(&p);
		ck_assert_int_eq(r.k, 2);
	}
	p.nodes = 9;
	ck_assert_int_eq(eval_ok(&p).steps, 10);
	p.nodes = 64;
	ck_assert_int_eq(eval_ok(&p).steps, 14);
}
END_TEST

/* Figure 12(a): the optimal k falls as m grows and ends at 1.  n = 16:
 * linear 15 + (m-1) against k = 2: L1 = 5 (N(4,2) = 12 < 16 <= 20),
 * 5 + 2 (m-1): equal at m = 11 (25), linear ahead from m = 12 (26 < 27).
 * n = 32: k = 2 has L1 = 6 (N(5,2) = 20 < 32 <= N(6,2) = 33): equal
 * to linear at m = 26 (56), linear ahead from m = 27 (57 < 58); k = 3
 * has L1 = 6 (28 < 32 <= 52) and is far behind.  Size 16 reaches k = 1
 * first, as the paper observes. */
START_TEST(test_k_falls_with_m)
{
	struct ml_kbinomial_params p = params(16, 11, ML_KBINOMIAL_OPTIMAL);
	struct ml_kbinomial_result r;
	long long n, m, prev;

	r = eval_ok(&p);
	ck_assert_int_eq(r.k, 2);
	ck_assert_int_eq(r.steps, 25);
	p.packets = 12;
	r = eval_ok(&p);
	ck_assert_int_eq(r.k, 1);
	ck_assert_int_eq(r.steps, 26);
	p.nodes = 32;
	p.packets = 26;
	r = eval_ok(&p);
	ck_assert_int_eq(r.k, 2);
	ck_assert_int_eq(r.steps, 56);
	p.packets = 27;
	r = eval_ok(&p);
	ck_assert_int_eq(r.k, 1);
	ck_assert_int_eq(r.steps, 57);
	/* Never rising with m, for both tie rules. */
	for (n = 2; n <= 64; n++) {
		p.nodes = n;
		prev = LLONG_MAX;
		for (m = 1; m <= 200; m++) {
			p.packets = m;
			r = eval_ok(&p);
			ck_assert_int_le(r.k, prev);
			prev = r.k;
		}
		ck_assert_int_eq(prev, 1);
	}
}
END_TEST

/* Theorem 3 by exhaustion: every k in [1, ceil(log2 n)], L1 from its
 * definition; the search in the model prunes, this does not. */
START_TEST(test_optimal_exhaustive)
{
	struct ml_kbinomial_params p = params(2, 1, ML_KBINOMIAL_OPTIMAL);
	struct ml_kbinomial_result r;
	long long n, m, k, h, st, best, klarge, ksmall;

	for (n = 2; n <= 300; n++) {
		h = clog2(n);
		for (m = 1; m <= 40; m++) {
			best = LLONG_MAX;
			klarge = ksmall = 0;
			for (k = 1; k <= h; k++) {
				st = l1_brute(n, k) + (m - 1) * k;
				if (st < best) {
					best = st;
					ksmall = k;
				}
				if (st <= best)
					klarge = k;
			}
			p.nodes = n;
			p.packets = m;
			p.tie = ML_KBINOMIAL_TIE_LARGEST;
			r = eval_ok(&p);
			ck_assert_int_eq(r.k, klarge);
			ck_assert_int_eq(r.steps, best);
			ck_assert_int_eq(r.l1, l1_brute(n, klarge));
			p.tie = ML_KBINOMIAL_TIE_SMALLEST;
			r = eval_ok(&p);
			ck_assert_int_eq(r.k, ksmall);
			ck_assert_int_eq(r.steps, best);
		}
	}
}
END_TEST

/* A fixed k above ceil(log2 n) is the binomial tree; a fixed k below it
 * follows Theorems 1 and 2.  n = 16: h = 4, binomial steps 4 m. */
START_TEST(test_fixed_k)
{
	struct ml_kbinomial_params p = params(16, 3, ML_KBINOMIAL_FIXED);
	struct ml_kbinomial_result r;

	p.k = 10;
	r = eval_ok(&p);
	ck_assert_int_eq(r.k, 4);
	ck_assert_int_eq(r.steps, 12);
	ck_assert_int_eq(r.binomial_steps, 12);
	/* k = 3: L1(16,3) = 5, 5 + 2 * 3 = 11; 12.5 + 55 + 12.5 = 80
	 * against 12.5 + 60 + 12.5 = 85. */
	p.k = 3;
	r = eval_ok(&p);
	ck_assert_int_eq(r.k, 3);
	ck_assert_int_eq(r.steps, 11);
	ck_assert_double_eq_tol(r.latency, 80.0, 1e-12);
	ck_assert_double_eq_tol(r.speedup, 85.0 / 80.0, 1e-12);
	p.k = LLONG_MAX;
	ck_assert_int_eq(eval_ok(&p).k, 4);
}
END_TEST

/* All times zero: both latencies are 0 and the speedup is taken as 1. */
START_TEST(test_zero_times)
{
	struct ml_kbinomial_params p = params(64, 4, ML_KBINOMIAL_LINEAR);
	struct ml_kbinomial_result r;

	p.ts = p.tr = p.tns = p.tnr = 0;
	r = eval_ok(&p);
	ck_assert_double_eq(r.latency, 0.0);
	ck_assert_double_eq(r.binomial_latency, 0.0);
	ck_assert_double_eq(r.speedup, 1.0);
}
END_TEST

/* n = 2^62, m = 2^40: no step count overflows.  Optimal: k = 1 needs
 * 2^62 - 1 + 2^40 - 1, k = 2 L1 = 88 (above) + 2 (2^40 - 1), k >= 3 at
 * least 62 + 3 (2^40 - 1): k = 2, 2^41 + 86 steps.  Binomial 62 2^40. */
START_TEST(test_no_overflow)
{
	struct ml_kbinomial_params p =
	    params(1LL << 62, 1LL << 40, ML_KBINOMIAL_OPTIMAL);
	struct ml_kbinomial_result r;

	r = eval_ok(&p);
	ck_assert_int_eq(r.k, 2);
	ck_assert_int_eq(r.l1, 88);
	ck_assert_int_eq(r.steps, (1LL << 41) + 86);
	ck_assert_int_eq(r.binomial_steps, 62 * (1LL << 40));
	ck_assert(isfinite(r.latency) && r.latency > 0);
	p.tree = ML_KBINOMIAL_LINEAR;
	r = eval_ok(&p);
	ck_assert_int_eq(r.steps, (1LL << 62) - 1 + (1LL << 40) - 1);
	/* (25 + 5 * 62 * 2^40) / (25 + 5 (2^62 + 2^40 - 2)), 62 / (2^22 + 1)
	 * to within 1e-17 */
	ck_assert_double_eq_tol(r.speedup, 62.0 / (4194304.0 + 1.0), 1e-15);
	p.tree = ML_KBINOMIAL_OPTIMAL;
	p.packets = 1;
	r = eval_ok(&p);
	ck_assert_int_eq(r.k, 62);
	ck_assert_int_eq(r.steps, 62);
	p.tie = ML_KBINOMIAL_TIE_SMALLEST;
	r = eval_ok(&p);
	ck_assert_int_eq(r.steps, 62);
	ck_assert_int_eq(l1(1LL << 62, r.k), 62);
	ck_assert_int_gt(l1(1LL << 62, r.k - 1), 62);
}
END_TEST

/* ------------------------------------------------------------------ */
/* FPFS simulation                                                     */

/* Figure 5(a): 0 -> 2 (step 1), 0 -> 1 (step 2), 2 -> 3.  By hand, packet
 * p leaves the source for 2 in step 2p - 1 and for 1 in step 2p, and 2
 * forwards it to 3 in step 2p: the last arrives in step 6. */
START_TEST(test_fpfs_figure5a)
{
	static const uint32_t off[] = {0, 2, 2, 3, 3}, kid[] = {2, 1, 3};
	long long steps = -1;

	ck_assert_int_eq(ml_kbinomial_fpfs(4, off, kid, 3, &steps), ML_OK);
	ck_assert_int_eq(steps, 6);
}
END_TEST

/* Figure 5(b): the chain 0 -> 1 -> 2 -> 3; packet p reaches 3 in step
 * p + 2: 5 for three packets. */
START_TEST(test_fpfs_figure5b)
{
	static const uint32_t off[] = {0, 1, 2, 3, 3}, kid[] = {1, 2, 3};
	long long steps = -1;

	ck_assert_int_eq(ml_kbinomial_fpfs(4, off, kid, 3, &steps), ML_OK);
	ck_assert_int_eq(steps, 5);
}
END_TEST

/* Figure 8: the binomial tree on 8 nodes, 0 -> 4, 2, 1; 4 -> 6, 5;
 * 2 -> 3; 6 -> 7.  One packet: 3 steps; three: 3 + 2 * 3 = 9. */
START_TEST(test_fpfs_figure8)
{
	static const uint32_t off[] = {0, 3, 3, 4, 4, 6, 6, 7, 7},
			      kid[] = {4, 2, 1, 3, 6, 5, 7};
	long long steps = -1;

	ck_assert_int_eq(ml_kbinomial_fpfs(8, off, kid, 1, &steps), ML_OK);
	ck_assert_int_eq(steps, 3);
	ck_assert_int_eq(ml_kbinomial_fpfs(8, off, kid, 3, &steps), ML_OK);
	ck_assert_int_eq(steps, 9);
}
END_TEST

/* A star: the source sends every packet to each of its 3 children in
 * turn, 3 m steps; one node alone takes 0. */
START_TEST(test_fpfs_star)
{
	static const uint32_t off[] = {0, 3, 3, 3, 3}, kid[] = {1, 2, 3};
	static const uint32_t off1[] = {0, 0};
	long long steps = -1;

	ck_assert_int_eq(ml_kbinomial_fpfs(4, off, kid, 7, &steps), ML_OK);
	ck_assert_int_eq(steps, 21);
	ck_assert_int_eq(ml_kbinomial_fpfs(1, off1, NULL, 4, &steps), ML_OK);
	ck_assert_int_eq(steps, 0);
}
END_TEST

START_TEST(test_fpfs_rejects)
{
	static const uint32_t off[] = {0, 2, 2, 3, 3}, kid[] = {2, 1, 3};
	static const uint32_t back[] = {0, 1, 2, 3, 3}, kback[] = {1, 1, 3};
	static const uint32_t twice[] = {0, 2, 2, 3, 3}, ktwice[] = {2, 2, 3};
	static const uint32_t left[] = {0, 2, 2, 3, 3}, kleft[] = {3, 1, 2};
	static const uint32_t fall[] = {0, 3, 1, 3, 3}, kfall[] = {2, 1, 3};
	static const uint32_t cnt[] = {0, 2, 2, 2, 2}, kcnt[] = {2, 1, 3};
	static const uint32_t far[] = {0, 2, 2, 3, 3}, kfar[] = {2, 1, 9};
	long long steps = 77;

	ck_assert_int_eq(ml_kbinomial_fpfs(0, off, kid, 1, &steps), ML_EINVAL);
	ck_assert_int_eq(ml_kbinomial_fpfs(4, off, kid, 0, &steps), ML_EINVAL);
	ck_assert_int_eq(ml_kbinomial_fpfs(4, NULL, kid, 1, &steps), ML_EINVAL);
	ck_assert_int_eq(ml_kbinomial_fpfs(4, off, NULL, 1, &steps), ML_EINVAL);
	ck_assert_int_eq(ml_kbinomial_fpfs(4, off, kid, 1, NULL), ML_EINVAL);
	/* child 1 of node 1 is not to its right */
	ck_assert_int_eq(ml_kbinomial_fpfs(4, back, kback, 1, &steps),
			 ML_EINVAL);
	/* node 2 has two parents */
	ck_assert_int_eq(ml_kbinomial_fpfs(4, twice, ktwice, 1, &steps),
			 ML_EINVAL);
	/* node 2 sends to itself */
	ck_assert_int_eq(ml_kbinomial_fpfs(4, left, kleft, 1, &steps),
			 ML_EINVAL);
	/* offsets fall */
	ck_assert_int_eq(ml_kbinomial_fpfs(4, fall, kfall, 1, &steps),
			 ML_EINVAL);
	/* off[n] != n - 1 */
	ck_assert_int_eq(ml_kbinomial_fpfs(4, cnt, kcnt, 1, &steps), ML_EINVAL);
	/* a child beyond the chain */
	ck_assert_int_eq(ml_kbinomial_fpfs(4, far, kfar, 1, &steps), ML_EINVAL);
	ck_assert_int_eq(steps, 77);
}
END_TEST

/* Build a tree into fresh arrays; the caller frees *off and *kid. */
static void build(long long n, long long k, uint32_t **off, uint32_t **kid)
{
	*off = malloc(((size_t)n + 1) * sizeof(**off));
	*kid = malloc((size_t)(n > 1 ? n - 1 : 1) * sizeof(**kid));
	ck_assert(*off != NULL && *kid != NULL);
	ck_assert_int_eq(ml_kbinomial_tree_build(n, k, *off, *kid), ML_OK);
}

/* Figure 11 on n = N(4,3) = 15, k = 3 (s = 4): the source's children
 * head blocks of N(3,3) = 8, N(2,3) = 4 and N(1,3) = 2 positions laid
 * from the right end: 15 - 8 = 7, 7 - 4 = 3, 3 - 2 = 1.  Node 7 covers
 * 7..14 in 3 steps: children at 15 - 4 = 11, 11 - 2 = 9, 9 - 1 = 8. */
START_TEST(test_tree_figure11)
{
	uint32_t *off, *kid;

	build(15, 3, &off, &kid);
	ck_assert_uint_eq(off[1] - off[0], 3);
	ck_assert_uint_eq(kid[off[0]], 7);
	ck_assert_uint_eq(kid[off[0] + 1], 3);
	ck_assert_uint_eq(kid[off[0] + 2], 1);
	ck_assert_uint_eq(off[8] - off[7], 3);
	ck_assert_uint_eq(kid[off[7]], 11);
	ck_assert_uint_eq(kid[off[7] + 1], 9);
	ck_assert_uint_eq(kid[off[7] + 2], 8);
	free(off);
	free(kid);
	/* k = h = 4 on 16 nodes: the binomial tree, children 8, 4, 2, 1. */
	build(16, 4, &off, &kid);
	ck_assert_uint_eq(off[1], 4);
	ck_assert_uint_eq(kid[0], 8);
	ck_assert_uint_eq(kid[1], 4);
	ck_assert_uint_eq(kid[2], 2);
	ck_assert_uint_eq(kid[3], 1);
	free(off);
	free(kid);
}
END_TEST

/* n = 5, k = 3, s = L1 = 3: 4 positions for blocks of at most N(2,3) = 4,
 * 2, 1; keeping one for each later child the blocks are 2, 1, 1: the
 * source sends to 3, 2 and 1, and 3 sends to 4.  (Laid out in full from
 * the right, the first block would take all four and the source would
 * have a single child, against Theorem 1's delta_r = k.) */
START_TEST(test_tree_truncated)
{
	static const uint32_t eoff[] = {0, 3, 3, 3, 4, 4},
			      ekid[] = {3, 2, 1, 4};
	uint32_t *off, *kid;
	int i;

	build(5, 3, &off, &kid);
	for (i = 0; i < 6; i++)
		ck_assert_uint_eq(off[i], eoff[i]);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(kid[i], ekid[i]);
	free(off);
	free(kid);
}
END_TEST

START_TEST(test_tree_rejects)
{
	uint32_t off[4], kid[3];

	ck_assert_int_eq(ml_kbinomial_tree_build(0, 2, off, kid), ML_EINVAL);
	ck_assert_int_eq(ml_kbinomial_tree_build(4, 0, off, kid), ML_EINVAL);
	ck_assert_int_eq(ml_kbinomial_tree_build(4, 2, NULL, kid), ML_EINVAL);
	ck_assert_int_eq(ml_kbinomial_tree_build(4, 2, off, NULL), ML_EINVAL);
	ck_assert_int_eq(ml_kbinomial_tree_build(ML_KBINOMIAL_SIM_MAX_NODES + 1,
						 2, off, kid),
			 ML_EINVAL);
}
END_TEST

/* The simulation agrees with L1 + (m-1) k on every n <= 64, m <= 16 and
 * k in 1..ceil(log2 n); the tree's source has k children and no vertex
 * more (so Theorem 1's delta_r is k). */
START_TEST(test_fpfs_theorem)
{
	long long n = _i, m, k, steps, v, deg, maxdeg;
	uint32_t *off, *kid;

	for (k = 1; k <= clog2(n); k++) {
		build(n, k, &off, &kid);
		ck_assert_int_eq(off[1] - off[0], k);
		maxdeg = 0;
		for (v = 0; v < n; v++) {
			deg = off[v + 1] - off[v];
			maxdeg = deg > maxdeg ? deg : maxdeg;
		}
		ck_assert_int_eq(maxdeg, k);
		for (m = 1; m <= 16; m++) {
			ck_assert_int_eq(
			    ml_kbinomial_fpfs(n, off, kid, m, &steps), ML_OK);
			ck_assert_int_eq(steps,
					 l1(n, k) + (m - 1) * k);
		}
		free(off);
		free(kid);
	}
}
END_TEST

/* Through eval: --schedule reports the simulated steps beside the
 * formula's, for the optimal, binomial, linear and fixed trees. */
START_TEST(test_schedule_eval)
{
	static const enum ml_kbinomial_tree trees[] = {
	    ML_KBINOMIAL_OPTIMAL, ML_KBINOMIAL_BINOMIAL, ML_KBINOMIAL_LINEAR,
	    ML_KBINOMIAL_FIXED};
	struct ml_kbinomial_params p = params(4, 3, ML_KBINOMIAL_OPTIMAL);
	struct ml_kbinomial_result r;
	long long n, m;
	size_t t;

	p.schedule = true;
	p.k = 5;
	for (t = 0; t < 4; t++)
		for (n = 1; n <= 40; n += 3)
			for (m = 1; m <= 9; m += 4) {
				p.tree = trees[t];
				p.nodes = n;
				p.packets = m;
				r = eval_ok(&p);
				ck_assert_int_eq(r.sim_steps, r.steps);
			}
	/* Figure 5 again, simulated. */
	p.nodes = 4;
	p.packets = 3;
	p.tree = ML_KBINOMIAL_BINOMIAL;
	ck_assert_int_eq(eval_ok(&p).sim_steps, 6);
	p.tree = ML_KBINOMIAL_LINEAR;
	ck_assert_int_eq(eval_ok(&p).sim_steps, 5);
	/* Without --schedule: -1. */
	p.schedule = false;
	ck_assert_int_eq(eval_ok(&p).sim_steps, -1);
	/* At the size limit: n = 2^20 (k = 2: L1 = 28, N(27,2) = F(30) - 1 =
	 * 832039 < 2^20 <= F(31) - 1 = 1346268) with m = 95 (n m < 10^8):
	 * 28 + 94 * 2 = 216 steps. */
	p.schedule = true;
	p.nodes = ML_KBINOMIAL_SIM_MAX_NODES;
	p.packets = 95;
	p.tree = ML_KBINOMIAL_OPTIMAL;
	r = eval_ok(&p);
	ck_assert_int_eq(r.k, 2);
	ck_assert_int_eq(r.steps, 216);
	ck_assert_int_eq(r.sim_steps, 216);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Domain                                                              */

static const struct {
	const char *param;
	long long nodes, packets;
	int tree, tie;
	long long k;
	double ts, tns, tprop;
	bool schedule;
} bad[] = {
    {"nodes", 0, 1, 0, 0, 0, 1, 1, 0, false},
    {"nodes", ML_KBINOMIAL_MAX_NODES + 1, 1, 0, 0, 0, 1, 1, 0, false},
    {"packets", 4, 0, 0, 0, 0, 1, 1, 0, false},
    {"packets", 4, ML_KBINOMIAL_MAX_PACKETS + 1, 0, 0, 0, 1, 1, 0, false},
    {"tree", 4, 1, 9, 0, 0, 1, 1, 0, false},
    {"tree", 4, 1, ML_KBINOMIAL_FIXED, 0, 0, 1, 1, 0, false},
    {"tie", 4, 1, 0, 7, 0, 1, 1, 0, false},
    {"ts", 4, 1, 0, 0, 0, -1, 1, 0, false},
    {"tns", 4, 1, 0, 0, 0, 1, NAN, 0, false},
    {"tprop", 4, 1, 0, 0, 0, 1, 1, INFINITY, false},
    {"schedule", ML_KBINOMIAL_SIM_MAX_NODES + 1, 1, 0, 0, 0, 1, 1, 0, true},
    /* 2^20 * 96 = 100663296 > 10^8 */
    {"schedule", ML_KBINOMIAL_SIM_MAX_NODES, 96, 0, 0, 0, 1, 1, 0, true},
};

START_TEST(test_validate)
{
	struct ml_kbinomial_params p = params(4, 1, ML_KBINOMIAL_OPTIMAL);
	struct ml_kbinomial_result r = {.k = 123}, r0 = r;
	struct ml_diag d = {0};

	p.nodes = bad[_i].nodes;
	p.packets = bad[_i].packets;
	p.tree = (enum ml_kbinomial_tree)bad[_i].tree;
	p.tie = (enum ml_kbinomial_tie)bad[_i].tie;
	p.k = bad[_i].k;
	p.ts = bad[_i].ts;
	p.tns = bad[_i].tns;
	p.tprop = bad[_i].tprop;
	p.schedule = bad[_i].schedule;
	ck_assert_int_eq(ml_kbinomial_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, bad[_i].param);
	ck_assert(d.msg[0] != '\0');
	ck_assert_int_eq(ml_kbinomial_validate(&p, NULL), ML_EINVAL);
	/* eval refuses too and leaves the result alone. */
	ck_assert_int_eq(ml_kbinomial_eval(&p, &r), ML_EINVAL);
	ck_assert_int_eq(r.k, r0.k);
}
END_TEST

START_TEST(test_validate_ok)
{
	struct ml_kbinomial_params p = params(4, 1, ML_KBINOMIAL_OPTIMAL);
	struct ml_diag d = {0};

	ck_assert_int_eq(ml_kbinomial_validate(&p, &d), ML_OK);
	p.nodes = ML_KBINOMIAL_MAX_NODES;
	p.packets = ML_KBINOMIAL_MAX_PACKETS;
	p.ts = p.tr = p.tns = p.tnr = p.tprop = 0;
	ck_assert_int_eq(ml_kbinomial_validate(&p, &d), ML_OK);
	/* exactly 10^8 node-packets may be simulated: 10^6 x 100 */
	p.schedule = true;
	p.nodes = 1000000;
	p.packets = 100;
	ck_assert_int_eq(ml_kbinomial_validate(&p, &d), ML_OK);
}
END_TEST

/*
 * ML_ENOMEM: with the address space capped just above what the process
 * already maps, the 4 MB scratch arrays of a 2^20-node tree cannot be
 * had.  Check runs each test in its own process; the old limit is put
 * back anyway.  AddressSanitizer reserves terabytes of shadow memory and
 * cannot run under such a cap, so there the test does nothing.
 */
#if defined(__SANITIZE_ADDRESS__)
#define ML_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ML_ASAN 1
#endif
#endif

START_TEST(test_enomem)
{
#ifndef ML_ASAN
	long long n = ML_KBINOMIAL_SIM_MAX_NODES, steps;
	struct ml_kbinomial_params p = params(n, 1, ML_KBINOMIAL_OPTIMAL);
	struct ml_kbinomial_result r;
	struct rlimit old, cap;
	uint32_t *off, *kid;
	unsigned long pages = 0;
	FILE *f;
	int rc;

	build(n, 2, &off, &kid);
	f = fopen("/proc/self/statm", "r");
	if (f == NULL)
		goto done; /* no /proc: cannot measure the process */
	rc = fscanf(f, "%lu", &pages);
	fclose(f);
	ck_assert_int_eq(rc, 1);
	ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
	cap = old;
	cap.rlim_cur =
	    (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (1u << 20);
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &cap), 0);
	p.schedule = true;
	ck_assert_int_eq(ml_kbinomial_tree_build(n, 2, off, kid), ML_ENOMEM);
	ck_assert_int_eq(ml_kbinomial_fpfs(n, off, kid, 1, &steps), ML_ENOMEM);
	ck_assert_int_eq(ml_kbinomial_eval(&p, &r), ML_ENOMEM);
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
done:
	free(off);
	free(kid);
#endif
}
END_TEST

Suite *suite_kbinomial(void)
{
	Suite *s = suite_create("kbinomial");
	TCase *tc;

	tc = tcase_create("lemma1");
	tcase_add_loop_test(tc, test_nodes_hand, 0,
			    sizeof(lemma1) / sizeof(lemma1[0]));
	tcase_add_test(tc, test_nodes_fibonacci);
	tcase_add_test(tc, test_nodes_edges);
	suite_add_tcase(s, tc);

	tc = tcase_create("l1");
	tcase_add_test(tc, test_l1_hand);
	tcase_add_test(tc, test_l1_definition);
	tcase_add_test(tc, test_l1_large);
	tcase_add_test(tc, test_l1_fibonacci_2_62);
	suite_add_tcase(s, tc);

	tc = tcase_create("paper");
	tcase_add_test(tc, test_figure5);
	tcase_add_test(tc, test_figure8);
	tcase_add_test(tc, test_figure4);
	tcase_add_test(tc, test_m1_optimal);
	tcase_add_loop_test(tc, test_n1, 0, 4);
	tcase_add_test(tc, test_tie_n9);
	tcase_add_test(tc, test_m4_k2);
	tcase_add_test(tc, test_k_falls_with_m);
	suite_add_tcase(s, tc);

	tc = tcase_create("optimal");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_optimal_exhaustive);
	tcase_add_test(tc, test_fixed_k);
	tcase_add_test(tc, test_zero_times);
	tcase_add_test(tc, test_no_overflow);
	suite_add_tcase(s, tc);

	tc = tcase_create("fpfs");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fpfs_figure5a);
	tcase_add_test(tc, test_fpfs_figure5b);
	tcase_add_test(tc, test_fpfs_figure8);
	tcase_add_test(tc, test_fpfs_star);
	tcase_add_test(tc, test_fpfs_rejects);
	tcase_add_test(tc, test_tree_figure11);
	tcase_add_test(tc, test_tree_truncated);
	tcase_add_test(tc, test_tree_rejects);
	tcase_add_loop_test(tc, test_fpfs_theorem, 1, 65);
	tcase_add_test(tc, test_schedule_eval);
	suite_add_tcase(s, tc);

	tc = tcase_create("domain");
	tcase_add_loop_test(tc, test_validate, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_validate_ok);
	tcase_add_test(tc, test_enomem);
	suite_add_tcase(s, tc);
	return s;
}
