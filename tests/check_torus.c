/*
 * check_torus.c - tests of the torus model (src/models/torus.c).
 *
 * Every expected value is a reference value of SPEC 5.1 or a hand
 * calculation written out beside it.  Constants used throughout, for
 * M = 128: o = 1.994, 2 o = 3.988, and L_i = t_process + 3.988:
 * sep 10.988, Md 209.988, Mu 204.988, U 632.988, S 268.988 (us).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcastlat/torus.h"

#define TOL 1e-9

static struct ml_torus_params base(enum ml_torus_alg alg, unsigned long long k,
				   unsigned long long g)
{
	struct ml_torus_params p;

	memset(&p, 0, sizeof(p));
	p.alg = alg;
	p.model = ML_TORUS_PAPER;
	p.variant = ML_TORUS_VAR_DEFAULT;
	p.k = k;
	p.dims = 2;
	p.group = g;
	p.msg = 128;
	p.r = 0;
	p.o = NAN;
	p.tprocess = NAN;
	p.root = 0;
	p.placement = ML_TORUS_ROWMAJOR;
	p.seed = 1;
	p.members = NULL;
	p.full = false;
	p.lp = 0.014;
	p.lf = 0.060;
	p.ls = 0.670;
	return p;
}

static double latency(const struct ml_torus_params *p)
{
	struct ml_torus_result res;

	ck_assert_int_eq(ml_torus_eval(p, &res), ML_OK);
	return res.latency;
}

/* ------------------------------------------------------------------ */
/* SPEC 5.1 reference values (k x k, M = 128). */

/* SPEC's U-torus values were computed with the literal reading of eq 11
 * (now --variant literal); at G = 4 and 16 its factor ((G mod 4) + 4)/4
 * is 1, so the default (steps) reading gives them too (test below). */
static const struct {
	enum ml_torus_alg alg;
	enum ml_torus_variant var;
	unsigned long long k, g, r;
	double want;
} refs[] = {
    {ML_TORUS_SEP, ML_TORUS_VAR_DEFAULT, 4, 16, 0, 164.82},
    {ML_TORUS_S, ML_TORUS_VAR_DEFAULT, 4, 16, 0, 3769.82},
    {ML_TORUS_MD, ML_TORUS_VAR_DEFAULT, 4, 16, 0, 843.94},
    {ML_TORUS_MU, ML_TORUS_VAR_DEFAULT, 4, 16, 4, 1233.916},
    {ML_TORUS_U, ML_TORUS_VAR_LITERAL, 4, 16, 0, 2535.94},
    {ML_TORUS_SEP, ML_TORUS_VAR_DEFAULT, 4, 4, 0, 32.964},
    {ML_TORUS_S, ML_TORUS_VAR_DEFAULT, 4, 4, 0, 541.964},
    {ML_TORUS_MD, ML_TORUS_VAR_DEFAULT, 4, 4, 0, 213.976},
    {ML_TORUS_MU, ML_TORUS_VAR_DEFAULT, 4, 4, 4, 413.964},
    {ML_TORUS_U, ML_TORUS_VAR_LITERAL, 4, 4, 0, 1269.964},
    {ML_TORUS_MD, ML_TORUS_VAR_DEFAULT, 8, 64, 0, 1683.892},
    {ML_TORUS_MU, ML_TORUS_VAR_DEFAULT, 8, 64, 8, 2873.82},
};

START_TEST(test_paper_reference)
{
	struct ml_torus_params p = base(refs[_i].alg, refs[_i].k, refs[_i].g);

	p.r = refs[_i].r;
	p.variant = refs[_i].var;
	ck_assert_double_eq_tol(latency(&p), refs[_i].want, 1e-6);
}
END_TEST

/*
 * U-torus, default (steps) reading, by hand: t = 2 o + ceil(log2 G) L_i
 * = 3.988 + ceil(log2 G) x 632.988 on 4x4 (M = 128):
 *   G = 2: 1 step  -> 636.976     G = 3, 4: 2 -> 1269.964
 *   G = 5..8: 3   -> 1902.952     G = 9..16: 4 -> 2535.94
 * and on 8x8 at G = 64: 6 steps -> 3.988 + 3797.928 = 3801.916.
 */
START_TEST(test_u_steps_default)
{
	static const double by_steps[] = {0, 636.976, 1269.964, 1902.952,
					  2535.94};
	unsigned long long g;
	struct ml_torus_params p;
	struct ml_torus_result res;

	for (g = 2; g <= 16; g++) {
		unsigned steps = g <= 2 ? 1 : g <= 4 ? 2 : g <= 8 ? 3 : 4;

		p = base(ML_TORUS_U, 4, g);
		ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
		ck_assert_double_eq_tol(res.h, steps, TOL);
		ck_assert_double_eq_tol(res.latency, by_steps[steps], 1e-6);
		p.variant = ML_TORUS_VAR_STEPS; /* the same, by name */
		ck_assert_double_eq_tol(latency(&p), by_steps[steps], 1e-6);
	}
	p = base(ML_TORUS_U, 8, 64);
	ck_assert_double_eq_tol(latency(&p), 3801.916, 1e-6);
}
END_TEST

/*
 * The evidence against the literal reading (man page, RECONSTRUCTED
 * EQUATIONS), on the 4x4 testbed whose Figure 12 axis ends at 3500 us:
 * literal h = ceil(log2 G) ((G mod 4) + 4)/4:
 *   G = 10, 14: 4 x 6/4 = 6 -> 3.988 + 6 x 632.988 = 3801.916 > 3500
 *   G = 11, 15: 4 x 7/4 = 7 -> 3.988 + 7 x 632.988 = 4434.904 > 3500
 *   G = 16: 4 x 1 -> 2535.94, 43 % below G = 15 (1 - 2535.94/4434.904
 *   = 0.4282): a larger group is cheaper.
 * The steps reading never decreases with G (on 4x4, 8x8, 16x16) and
 * stays at or below 2535.94 on 4x4.
 */
START_TEST(test_u_literal_evidence)
{
	static const struct {
		unsigned long long g;
		double want;
	} lit[] = {{10, 3801.916},
		   {14, 3801.916},
		   {11, 4434.904},
		   {15, 4434.904},
		   {16, 2535.94}};
	static const unsigned long long ks[] = {4, 8, 16};
	struct ml_torus_params p;
	size_t i;

	for (i = 0; i < sizeof(lit) / sizeof(lit[0]); i++) {
		p = base(ML_TORUS_U, 4, lit[i].g);
		p.variant = ML_TORUS_VAR_LITERAL;
		ck_assert_double_eq_tol(latency(&p), lit[i].want, 1e-6);
	}
	ck_assert_double_eq_tol(1 - 2535.94 / 4434.904, 0.4282, 1e-4);
	for (i = 0; i < 3; i++) {
		double prev = 0;
		unsigned long long g;

		for (g = 2; g <= ks[i] * ks[i]; g++) {
			double t;

			p = base(ML_TORUS_U, ks[i], g);
			t = latency(&p);
			ck_assert(t >= prev);
			if (ks[i] == 4)
				ck_assert(t <= 2535.94 + 1e-9);
			prev = t;
		}
	}
}
END_TEST

/* r defaults to k: Mu on 4x4, G = 16 with r = 0 is the r = 4 value. */
START_TEST(test_paper_r_default)
{
	struct ml_torus_params p = base(ML_TORUS_MU, 4, 16);
	struct ml_torus_result res;

	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.latency, 1233.916, 1e-6);
	ck_assert_uint_eq(res.r, 4);
	ck_assert_double_eq_tol(res.h, 6.0, TOL); /* p + r - 2 = 4+4-2 */
	ck_assert_double_eq_tol(res.li, 204.988, TOL);
	ck_assert(isnan(res.h_plain) && isnan(res.hop_depth));
}
END_TEST

/* Variants and other cases, by hand (4x4, M = 128). */
static const struct {
	enum ml_torus_alg alg;
	enum ml_torus_variant var;
	unsigned long long g, r;
	double want;
} vars[] = {
    /* eq 6: 15 (1.994 + 7) + 1.994 = 134.91 + 1.994 */
    {ML_TORUS_SEP, ML_TORUS_VAR_EQ6, 16, 0, 136.904},
    /* minus1: 3.988 + (4 - 1) 209.988 */
    {ML_TORUS_MD, ML_TORUS_VAR_MINUS1, 16, 0, 633.952},
    /* Md, G = 10: 3.988 + ceil(10/4) = 3 x 209.988 */
    {ML_TORUS_MD, ML_TORUS_VAR_DEFAULT, 10, 0, 633.952},
    /* U literal, G = 10: ceil(log2 10) = 4, factor (2 + 4)/4 = 1.5,
     * h = 6: 3.988 + 6 x 632.988 = 3.988 + 3797.928 */
    {ML_TORUS_U, ML_TORUS_VAR_LITERAL, 10, 0, 3801.916},
    /* default = steps: h = 4: 3.988 + 2531.952 */
    {ML_TORUS_U, ML_TORUS_VAR_STEPS, 10, 0, 2535.94},
    {ML_TORUS_U, ML_TORUS_VAR_DEFAULT, 10, 0, 2535.94},
    /* e: h = 3 x 1.5 = 4.5: 3.988 + 2848.446 */
    {ML_TORUS_U, ML_TORUS_VAR_E, 10, 0, 2852.434},
    /* h: floor(log2 10) = 3, h = 4.5 */
    {ML_TORUS_U, ML_TORUS_VAR_H, 10, 0, 2852.434},
    /* e, G = 16: h = 3 x 1: 3.988 + 1898.964 */
    {ML_TORUS_U, ML_TORUS_VAR_E, 16, 0, 1902.952},
    /* h, G = 16: floor(log2 16) = 4 = ceil: the reference 2535.94 */
    {ML_TORUS_U, ML_TORUS_VAR_H, 16, 0, 2535.94},
    /* U literal, G = 5: ceil(log2 5) = 3, factor 5/4, h = 3.75:
     * 3.988 + 3.75 x 632.988 = 3.988 + 2373.705 */
    {ML_TORUS_U, ML_TORUS_VAR_LITERAL, 5, 0, 2377.693},
    /* default, G = 5: h = 3: 3.988 + 1898.964 */
    {ML_TORUS_U, ML_TORUS_VAR_DEFAULT, 5, 0, 1902.952},
    /* Mu, G = 10, r = 4: p = 3, h = 3 + 4 - 2 = 5: 3.988 + 1024.94 */
    {ML_TORUS_MU, ML_TORUS_VAR_DEFAULT, 10, 4, 1028.928},
    /* Mu, G = 10, r = 16: p = 1, chain, h = 8: 3.988 + 1639.904 */
    {ML_TORUS_MU, ML_TORUS_VAR_DEFAULT, 10, 16, 1643.892},
    /* Mu, G = 10, r = 2: p = 5, h = 5 + 2 - 2 = 5 */
    {ML_TORUS_MU, ML_TORUS_VAR_DEFAULT, 10, 2, 1028.928},
    /* A variant of another algorithm changes nothing. */
    {ML_TORUS_S, ML_TORUS_VAR_EQ6, 16, 0, 3769.82},
    {ML_TORUS_MD, ML_TORUS_VAR_STEPS, 16, 0, 843.94},
    {ML_TORUS_MU, ML_TORUS_VAR_LITERAL, 16, 4, 1233.916},
    {ML_TORUS_SEP, ML_TORUS_VAR_MINUS1, 16, 0, 164.82},
};

START_TEST(test_paper_variants)
{
	struct ml_torus_params p = base(vars[_i].alg, 4, vars[_i].g);

	p.variant = vars[_i].var;
	p.r = vars[_i].r;
	ck_assert_double_eq_tol(latency(&p), vars[_i].want, 1e-6);
}
END_TEST

/* Table 1's t_process, asserting ML_OK. */
static double tprocess(enum ml_torus_alg alg)
{
	double us = NAN;

	ck_assert_int_eq(ml_torus_tprocess(alg, &us), ML_OK);
	return us;
}

/* Figure 8: o(128) = 1994 ns, o(512) = 1994 + 3.15 x 384 = 3203.6 ns. */
START_TEST(test_overhead)
{
	struct ml_torus_params p = base(ML_TORUS_SEP, 4, 2);
	struct ml_torus_result res;
	double us = -1;

	ck_assert_double_eq_tol(ml_torus_overhead(128), 1.994, TOL);
	ck_assert_double_eq_tol(ml_torus_overhead(512), 3.2036, TOL);
	ck_assert_double_eq_tol(tprocess(ML_TORUS_SEP), 7.0, TOL);
	ck_assert_double_eq_tol(tprocess(ML_TORUS_MD), 206.0, TOL);
	ck_assert_double_eq_tol(tprocess(ML_TORUS_MU), 201.0, TOL);
	ck_assert_double_eq_tol(tprocess(ML_TORUS_U), 629.0, TOL);
	ck_assert_double_eq_tol(tprocess(ML_TORUS_S), 265.0, TOL);
	ck_assert_int_eq(ml_torus_tprocess(ML_TORUS_NALG, &us), ML_EINVAL);
	ck_assert_double_eq(us, -1); /* untouched */

	/* Inside 128..512: no note.  G = 2, sep: 1 x (2 o + 7). */
	p.msg = 512;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.o, 3.2036, TOL);
	ck_assert_double_eq_tol(res.latency, 6.4072 + 7.0, 1e-9);
	ck_assert_uint_eq(res.notes, 0);
	ck_assert_str_eq(ml_torus_note(res.notes), "");
	p.msg = 128;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_uint_eq(res.notes, 0);

	/* 1024 bytes: 1.994 + 0.00315 x 896 = 1.994 + 2.8224, noted. */
	p.msg = 1024;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.o, 4.8164, TOL);
	ck_assert_uint_eq(res.notes, ML_TORUS_NOTE_EXTRAPOLATED);
	ck_assert_ptr_nonnull(strstr(ml_torus_note(res.notes), "extrapolated"));
	/* 2 bytes: 1.994 - 0.00315 x 126 = 1.5971, noted. */
	p.msg = 2;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.o, 1.5971, TOL);
	ck_assert_uint_eq(res.notes, ML_TORUS_NOTE_EXTRAPOLATED);
	/* An explicit o is not extrapolated. */
	p.o = 2.0;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_uint_eq(res.notes, 0);
}
END_TEST

/* --o 2 --tprocess 100, S, G = 16: 4 + 14 x (100 + 4) = 1460. */
START_TEST(test_overrides)
{
	struct ml_torus_params p = base(ML_TORUS_S, 4, 16);
	struct ml_torus_result res;

	p.o = 2.0;
	p.tprocess = 100.0;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.latency, 1460.0, 1e-9);
	ck_assert_double_eq_tol(res.o, 2.0, TOL);
	ck_assert_double_eq_tol(res.tprocess, 100.0, TOL);
	ck_assert_double_eq_tol(res.li, 104.0, TOL);
	ck_assert_double_eq_tol(res.h, 14.0, TOL);
	/* sep with t_p = 0 and o = 0: no time at all. */
	p = base(ML_TORUS_SEP, 4, 16);
	p.o = 0.0;
	p.tprocess = 0.0;
	ck_assert_double_eq_tol(latency(&p), 0.0, TOL);
}
END_TEST

/* N != 2: the 2-D closed form, noted.  Md, 4x4x4, G = 16: 843.94. */
START_TEST(test_paper_not2d)
{
	struct ml_torus_params p = base(ML_TORUS_MD, 4, 16);
	struct ml_torus_result res;

	p.dims = 3;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.latency, 843.94, 1e-6);
	ck_assert_uint_eq(res.notes, ML_TORUS_NOTE_NOT2D);
	ck_assert_str_eq(ml_torus_note(ML_TORUS_NOTE_NOT2D),
			 "2-D closed form used for N != 2");
	p.msg = 1;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_uint_eq(res.notes,
			  ML_TORUS_NOTE_NOT2D | ML_TORUS_NOTE_EXTRAPOLATED);
	/* The structural model has no such note. */
	p.model = ML_TORUS_STRUCTURAL;
	p.msg = 128;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_uint_eq(res.notes, 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Trees. */

struct want_edge {
	unsigned long long from, to, order;
};

/* The tree of p must be exactly the edge set w[0 .. n-1]. */
static void assert_tree(const struct ml_torus_params *p,
			const struct want_edge *w, size_t n)
{
	struct ml_torus_edge e[64];
	size_t ne = 0, i, j;

	ck_assert_int_eq(ml_torus_tree(p, e, 64, &ne), ML_OK);
	ck_assert_uint_eq(ne, n);
	for (i = 0; i < n; i++) {
		for (j = 0; j < ne; j++)
			if (e[j].from == w[i].from && e[j].to == w[i].to)
				break;
		ck_assert_msg(j < ne, "edge %llu->%llu missing", w[i].from,
			      w[i].to);
		ck_assert_uint_eq(e[j].order, w[i].order);
	}
}

/* Figure 6: U-torus, G = 8 on 4x4, root 0. */
START_TEST(test_tree_u_fig6)
{
	static const struct want_edge w[] = {
	    {0, 4, 0}, {0, 2, 1}, {0, 1, 2}, {4, 6, 0},
	    {4, 5, 1}, {2, 3, 0}, {6, 7, 0},
	};
	struct ml_torus_params p = base(ML_TORUS_U, 4, 8);
	struct ml_torus_result res;

	assert_tree(&p, w, 7);
	/* Every leaf is reached after 3 sends in sequence: h_serial = 2,
	 * h = 3 = ceil(log2 8); hop depth 3 (0->4->6->7). */
	p.model = ML_TORUS_STRUCTURAL;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.h_serial, 2.0, TOL);
	ck_assert_double_eq_tol(res.h, 3.0, TOL);
	ck_assert_double_eq_tol(res.hop_depth, 3.0, TOL);
	ck_assert_double_eq_tol(res.h_plain, 2.0, TOL);
	/* 3.988 + 3 x 632.988 */
	ck_assert_double_eq_tol(res.latency, 1902.952, 1e-6);
}
END_TEST

/* U-torus, G = 5: the near half is the larger one, ceil(n/2). */
START_TEST(test_tree_u_odd)
{
	/* [0..4]: far half starts at 0 + ceil(5/2) = 3: 0->3 (send 0);
	 * [3,4]: 3->4; near [0..2]: far at 2: 0->2 (send 1); [0,1]:
	 * 0->1 (send 2). */
	static const struct want_edge w[] = {
	    {0, 3, 0},
	    {3, 4, 0},
	    {0, 2, 1},
	    {0, 1, 2},
	};
	struct ml_torus_params p = base(ML_TORUS_U, 4, 5);

	assert_tree(&p, w, 4);
}
END_TEST

/* S-torus: one chain in rank order, here from root 14 wrapping past
 * the last node: 14->15->0->1->2->3. */
START_TEST(test_tree_s_chain)
{
	static const struct want_edge w[] = {
	    {14, 15, 0}, {15, 0, 0}, {0, 1, 0}, {1, 2, 0}, {2, 3, 0},
	};
	struct ml_torus_params p = base(ML_TORUS_S, 4, 6);
	struct ml_torus_result res;

	p.root = 14;
	assert_tree(&p, w, 5);
	p.model = ML_TORUS_STRUCTURAL;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.h_plain, 4.0, TOL);
	ck_assert_double_eq_tol(res.hop_depth, 5.0, TOL);
	ck_assert_double_eq_tol(res.h_serial, 4.0, TOL);
	ck_assert_double_eq_tol(res.h, 4.0, TOL);
}
END_TEST

/* An explicit group is ordered by rank from the root: members
 * {9, 2, 5, 12} with root 5 on 4x4 have ranks 4, 13, 0, 7. */
START_TEST(test_tree_members)
{
	static const unsigned long long ids[] = {9, 2, 5, 12};
	static const struct want_edge w[] = {
	    {5, 9, 0},
	    {9, 12, 0},
	    {12, 2, 0},
	};
	struct ml_torus_params p = base(ML_TORUS_S, 4, 4);

	p.root = 5;
	p.members = ids;
	p.nmembers = 4;
	assert_tree(&p, w, 3);
}
END_TEST

/* Mu-torus, G = 10, r = 4: partitions {0..3}, {4..7}, {8, 9} = 4+4+2;
 * the root sends to 1, then to heads 4 and 8. */
START_TEST(test_tree_mu_partitions)
{
	static const struct want_edge w[] = {
	    {0, 1, 0}, {1, 2, 0}, {2, 3, 0}, {0, 4, 1}, {4, 5, 0},
	    {5, 6, 0}, {6, 7, 0}, {0, 8, 2}, {8, 9, 0},
	};
	struct ml_torus_params p = base(ML_TORUS_MU, 4, 10);
	struct ml_torus_edge e[16];
	size_t ne, i, j, len[3] = {0, 0, 0};
	struct ml_torus_result res;

	p.r = 4;
	assert_tree(&p, w, 9);
	/* Partition sizes from the tree: the root's chain, then each
	 * chain hanging from a head the root sent to. */
	ck_assert_int_eq(ml_torus_tree(&p, e, 16, &ne), ML_OK);
	for (i = 0; i < ne; i++) {
		unsigned long long v = e[i].to, part;

		/* climb to the root's child (or the root's chain) */
		for (;;) {
			for (j = 0; j < ne && e[j].to != v; j++)
				;
			if (e[j].from == 0)
				break;
			v = e[j].from;
		}
		part = e[j].order; /* 0: root's chain, 1, 2: heads */
		len[part]++;
	}
	len[0]++; /* the root itself */
	ck_assert_uint_eq(len[0], 4);
	ck_assert_uint_eq(len[1], 4);
	ck_assert_uint_eq(len[2], 2);

	/* Structural: path to 7: relays 3 + earlier sends 1 = 4; to 9:
	 * 1 + 2 = 3; root's chain 2.  h_serial = 4 (paper: 5), so
	 * t = 3.988 + 4 x 204.988 = 823.94. */
	p.model = ML_TORUS_STRUCTURAL;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.h_serial, 4.0, TOL);
	ck_assert_double_eq_tol(res.h, 4.0, TOL);
	ck_assert_double_eq_tol(res.latency, 823.94, 1e-6);
}
END_TEST

/* Md-torus on 4x4: ringlets share c_0 (v mod 4) and run along c_1. */
START_TEST(test_tree_md)
{
	/* G = 6, root 0: ringlets {0, 4}, {1, 5}, {2}, {3}. */
	static const struct want_edge w1[] = {
	    {0, 4, 0}, {0, 1, 1}, {1, 5, 0}, {0, 2, 2}, {0, 3, 3},
	};
	/* G = 6, root 12: members 12..15, 0, 1; ringlets {12, 0} (0 is
	 * one hop downstream of row 3), {13, 1}, {14}, {15}. */
	static const struct want_edge w2[] = {
	    {12, 0, 0}, {12, 13, 1}, {13, 1, 0}, {12, 14, 2}, {12, 15, 3},
	};
	/* G = 3, root 0: {0}, {1}, {2}: the root has no successor, so
	 * its first send goes to a head. */
	static const struct want_edge w3[] = {
	    {0, 1, 0},
	    {0, 2, 1},
	};
	struct ml_torus_params p = base(ML_TORUS_MD, 4, 6);
	struct ml_torus_result res;

	assert_tree(&p, w1, 5);
	p.model = ML_TORUS_STRUCTURAL;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.hop_depth, 2.0, TOL); /* 0->1->5 */
	ck_assert_double_eq_tol(res.h, 2.0, TOL);
	/* h_serial: 0->3 is the root's 4th send: 0 relays + 3 = 3. */
	ck_assert_double_eq_tol(res.h_serial, 3.0, TOL);
	p.model = ML_TORUS_PAPER;
	p.root = 12;
	assert_tree(&p, w2, 5);
	p = base(ML_TORUS_MD, 4, 3);
	assert_tree(&p, w3, 2);

	/* G = 5 (G mod k = 1): {0, 4}, {1}, {2}, {3}: hop depth 1, so
	 * 3.988 + 209.988 = 213.976, where eq 9 gives ceil(5/4) = 2. */
	p = base(ML_TORUS_MD, 4, 5);
	p.model = ML_TORUS_STRUCTURAL;
	ck_assert_double_eq_tol(latency(&p), 213.976, 1e-6);
}
END_TEST

/* Separate addressing: a star in rank order; h = G - 1 sends. */
START_TEST(test_tree_sep)
{
	static const struct want_edge w[] = {
	    {3, 4, 0},
	    {3, 5, 1},
	    {3, 6, 2},
	};
	struct ml_torus_params p = base(ML_TORUS_SEP, 4, 4);
	struct ml_torus_result res;

	p.root = 3;
	assert_tree(&p, w, 3);
	p.model = ML_TORUS_STRUCTURAL;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.h, 3.0, TOL);
	ck_assert_double_eq_tol(res.h_serial, 2.0, TOL);
	ck_assert_double_eq_tol(res.hop_depth, 1.0, TOL);
	ck_assert_double_eq_tol(res.latency, 32.964, 1e-6);
	/* eq 6 reading applies to the star as well: 3 x 8.994 + 1.994 */
	p.variant = ML_TORUS_VAR_EQ6;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.latency, 28.976, 1e-6);
	ck_assert_uint_eq(res.notes, 0);
	/* A U-torus variant on a U row is noted as ignored, but for steps,
	 * the reading the tree reproduces. */
	p.alg = ML_TORUS_U;
	p.variant = ML_TORUS_VAR_E;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_uint_eq(res.notes, ML_TORUS_NOTE_VARIANT);
	p.variant = ML_TORUS_VAR_LITERAL;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_uint_eq(res.notes, ML_TORUS_NOTE_VARIANT);
	p.variant = ML_TORUS_VAR_STEPS;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_uint_eq(res.notes, 0);
	p.alg = ML_TORUS_MD;
	p.variant = ML_TORUS_VAR_MINUS1;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_uint_eq(res.notes, ML_TORUS_NOTE_VARIANT);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Structural == paper where SPEC 5.2 says so, for every G on k x k. */

static const unsigned long long eq_k[] = {4, 8, 16};

static void assert_same(struct ml_torus_params *p)
{
	double a, b;

	p->model = ML_TORUS_PAPER;
	a = latency(p);
	p->model = ML_TORUS_STRUCTURAL;
	b = latency(p);
	ck_assert_msg(fabs(a - b) < 1e-6,
		      "alg %d k %llu G %llu r %llu var %d: paper %.6f, "
		      "structural %.6f",
		      (int)p->alg, p->k, p->group, p->r, (int)p->variant, a, b);
}

/* The literal reading of eq 11 equals the structural tree (the steps
 * reading) where its factor is 1. */
static void a_eq_steps(struct ml_torus_params *p)
{
	struct ml_torus_params q = *p;
	double a;

	a = latency(p);
	q.variant = ML_TORUS_VAR_DEFAULT;
	q.model = ML_TORUS_STRUCTURAL;
	ck_assert_double_eq_tol(a, latency(&q), 1e-6);
}

START_TEST(test_structural_equals_paper)
{
	unsigned long long k = eq_k[_i], n = k * k, g, r;
	struct ml_torus_params p;

	for (g = 2; g <= n; g++) {
		p = base(ML_TORUS_SEP, k, g);
		assert_same(&p);
		p.variant = ML_TORUS_VAR_EQ6;
		assert_same(&p);
		p = base(ML_TORUS_S, k, g);
		assert_same(&p);
		for (r = 2; r <= k + 1; r++) {
			if (g % r != 0)
				continue;
			p = base(ML_TORUS_MU, k, g);
			p.r = r;
			assert_same(&p);
		}
		p = base(ML_TORUS_MU, k, g); /* r >= G: one chain */
		p.r = g;
		assert_same(&p);
		if (g % k != 1) {
			p = base(ML_TORUS_MD, k, g);
			assert_same(&p);
		}
		/* U: the halving tree takes ceil(log2 G) rounds, which is
		 * the default (steps) reading always and the literal one
		 * when G mod k = 0. */
		p = base(ML_TORUS_U, k, g);
		assert_same(&p);
		if (g % k == 0) {
			p.variant = ML_TORUS_VAR_LITERAL;
			p.model = ML_TORUS_PAPER;
			a_eq_steps(&p);
		}
	}
}
END_TEST

/* The same holds from any root (the torus is vertex transitive). */
START_TEST(test_structural_any_root)
{
	struct ml_torus_params p;
	unsigned long long g;

	for (g = 2; g <= 64; g++) {
		p = base(ML_TORUS_MD, 8, g);
		p.root = 45;
		if (g % 8 != 1)
			assert_same(&p);
		p.alg = ML_TORUS_MU;
		p.r = 8;
		if (g % 8 == 0)
			assert_same(&p);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* --full: hops of hand-worked pairs on 4x4, c(v) = (v mod 4, v div 4).
 * Lp = 0.014, Lf = 0.060, Ls = 0.670 us. */

static const struct {
	unsigned long long src, dst, hp, hf, hs;
	double net;
} hops[] = {
    /* (0,0) -> (1,1): 1 + 1 hops, 2 dims, hs 1, hf 0 */
    {0, 5, 2, 0, 1, 2 * 0.014 + 0.670},
    /* (0,0) -> (3,0): 3 hops in dim 0, hf 2 */
    {0, 3, 3, 2, 0, 3 * 0.014 + 2 * 0.060},
    /* (3,0) -> (0,0): (0 - 3) mod 4 = 1 hop */
    {3, 0, 1, 0, 0, 0.014},
    /* (1,1) -> (0,0): 3 + 3 hops, hs 1, hf 6 - 1 - 1 = 4 */
    {5, 0, 6, 4, 1, 6 * 0.014 + 4 * 0.060 + 0.670},
    /* (0,0) -> (3,3): same */
    {0, 15, 6, 4, 1, 6 * 0.014 + 4 * 0.060 + 0.670},
    /* (2,1) -> (1,2): (1 - 2) mod 4 = 3, 1: hp 4, hs 1, hf 2 */
    {6, 9, 4, 2, 1, 4 * 0.014 + 2 * 0.060 + 0.670},
    /* (0,0) -> (0,2): 2 hops in dim 1 */
    {0, 8, 2, 1, 0, 2 * 0.014 + 0.060},
};

START_TEST(test_full_pairs)
{
	unsigned long long ids[2];
	struct ml_torus_params p = base(ML_TORUS_SEP, 4, 2);
	struct ml_torus_result res;

	ids[0] = hops[_i].src;
	ids[1] = hops[_i].dst;
	p.model = ML_TORUS_STRUCTURAL;
	p.root = hops[_i].src;
	p.members = ids;
	p.nmembers = 2;
	p.full = true;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.hp, (double)hops[_i].hp, TOL);
	ck_assert_double_eq_tol(res.hf, (double)hops[_i].hf, TOL);
	ck_assert_double_eq_tol(res.hs, (double)hops[_i].hs, TOL);
	ck_assert_double_eq_tol(res.t_network, hops[_i].net, 1e-12);
	/* one send: 2 o + 7 = 10.988, plus the network */
	ck_assert_double_eq_tol(res.latency, 10.988 + hops[_i].net, 1e-9);
}
END_TEST

START_TEST(test_full_paths)
{
	struct ml_torus_params p = base(ML_TORUS_S, 4, 3);
	struct ml_torus_result res;

	/* S chain 0->1->2: 1 hop each, hp 2: 3.988 + 268.988 + 0.028 */
	p.model = ML_TORUS_STRUCTURAL;
	p.full = true;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.hp, 2.0, TOL);
	ck_assert_double_eq_tol(res.hf, 0.0, TOL);
	ck_assert_double_eq_tol(res.hs, 0.0, TOL);
	ck_assert_double_eq_tol(res.latency, 273.004, 1e-9);

	/* U, G = 8 (Figure 6): leaves 1, 3, 5, 7 all have h = 3; their
	 * networks: 0->1: hp 1; 0->2->3: hp 2+1, hf 1; 0->4->5: hp 1+1;
	 * 0->4->6->7: hp 1+2+1 = 4, hf 1 (through 5): the largest, 0.116.
	 * t = 3.988 + 3 x 632.988 + 0.116 */
	p = base(ML_TORUS_U, 4, 8);
	p.model = ML_TORUS_STRUCTURAL;
	p.full = true;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.hp, 4.0, TOL);
	ck_assert_double_eq_tol(res.hf, 1.0, TOL);
	ck_assert_double_eq_tol(res.hs, 0.0, TOL);
	ck_assert_double_eq_tol(res.t_network, 0.116, 1e-12);
	ck_assert_double_eq_tol(res.latency, 1903.068, 1e-9);

	/* Without full the network columns are NaN. */
	p.full = false;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert(isnan(res.hp) && isnan(res.t_network));
	ck_assert_double_eq_tol(res.latency, 1902.952, 1e-9);

	/* Md, G = 6 on 4x4 (ringlets as in test_tree_md): 0->1->5 is the
	 * only path of 2 messages: 0->1 hp 1 (dim 0), 1->5 hp 1 (dim 1),
	 * so hp 2, hf 0, hs 0. */
	p = base(ML_TORUS_MD, 4, 6);
	p.model = ML_TORUS_STRUCTURAL;
	p.full = true;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.hp, 2.0, TOL);
	ck_assert_double_eq_tol(res.hf, 0.0, TOL);
	ck_assert_double_eq_tol(res.hs, 0.0, TOL);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Random placement. */

START_TEST(test_random_group)
{
	struct ml_torus_params p = base(ML_TORUS_S, 16, 100);
	struct ml_torus_edge *e, *e2;
	size_t ne, i, j, n = 16 * 16 * 16;
	unsigned char *seen = calloc(n, 1);
	struct ml_torus_result res;
	int differ = 0;

	e = malloc(4096 * sizeof(*e));
	e2 = malloc(4096 * sizeof(*e2));
	ck_assert_ptr_nonnull(seen);
	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_nonnull(e2);
	p.dims = 3;
	p.root = 1234;
	p.placement = ML_TORUS_RANDOM;
	p.seed = 7;
	ck_assert_int_eq(ml_torus_tree(&p, e, 4096, &ne), ML_OK);
	ck_assert_uint_eq(ne, 99);
	/* A chain from the root through 99 distinct nodes in increasing
	 * rank (v - 1234) mod 4096. */
	ck_assert_uint_eq(e[0].from, 1234);
	seen[1234] = 1;
	for (i = 0; i < ne; i++) {
		ck_assert_uint_lt(e[i].to, n);
		ck_assert_int_eq(seen[e[i].to], 0);
		seen[e[i].to] = 1;
		if (i > 0)
			ck_assert_uint_eq(e[i].from, e[i - 1].to);
		ck_assert_uint_gt((e[i].to + n - 1234) % n,
				  (e[i].from + n - 1234) % n);
	}
	/* Same seed, same group; another seed, another group. */
	ck_assert_int_eq(ml_torus_tree(&p, e2, 4096, &ne), ML_OK);
	for (i = 0; i < ne; i++)
		ck_assert_uint_eq(e[i].to, e2[i].to);
	p.seed = 8;
	ck_assert_int_eq(ml_torus_tree(&p, e2, 4096, &ne), ML_OK);
	for (i = 0; i < ne; i++)
		differ |= e[i].to != e2[i].to;
	ck_assert(differ);

	/* Dense: G = k^N takes every node (selection sampling). */
	p.group = n;
	p.alg = ML_TORUS_U;
	memset(seen, 0, n);
	ck_assert_int_eq(ml_torus_tree(&p, e, 4096, &ne), ML_OK);
	ck_assert_uint_eq(ne, n - 1);
	for (i = 0; i < ne; i++)
		seen[e[i].to]++;
	for (j = 0, i = 0; i < n; i++)
		j += seen[i];
	ck_assert_uint_eq(j, n - 1);
	ck_assert_int_eq(seen[1234], 0);

	/* Chains do not care where the members are: S gives G - 2. */
	p.alg = ML_TORUS_S;
	p.group = 3000;
	p.model = ML_TORUS_STRUCTURAL;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.h, 2998.0, TOL);
	free(seen);
	free(e);
	free(e2);
}
END_TEST

/* Large: every algorithm on 16x16x16 with 4096 members, and a sparse
 * random group of 100000 on a 1024^3 torus (O(G log G) throughout). */
START_TEST(test_large)
{
	struct ml_torus_params p;
	struct ml_torus_result res;
	int a;

	for (a = 0; a < ML_TORUS_NALG; a++) {
		p = base((enum ml_torus_alg)a, 16, 4096);
		p.dims = 3;
		p.model = ML_TORUS_STRUCTURAL;
		p.full = true;
		ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
		ck_assert(isfinite(res.latency));
		p.placement = ML_TORUS_RANDOM;
		p.group = 3000;
		ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
		ck_assert(isfinite(res.latency));
	}
	/* Row-major 4096 on 16^3, S: h = 4094. */
	p = base(ML_TORUS_S, 16, 4096);
	p.dims = 3;
	p.model = ML_TORUS_STRUCTURAL;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.h, 4094.0, TOL);
	/* U on 4096: ceil(log2 4096) = 12 rounds. */
	p.alg = ML_TORUS_U;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.h, 12.0, TOL);

	p = base(ML_TORUS_U, 1024, 100000);
	p.dims = 3;
	p.model = ML_TORUS_STRUCTURAL;
	p.placement = ML_TORUS_RANDOM;
	p.full = true;
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_OK);
	ck_assert_double_eq_tol(res.h, 17.0, TOL); /* ceil(log2 1e5) */
}
END_TEST

/* ------------------------------------------------------------------ */
/* Invalid parameters: each rejected with ML_EINVAL naming the option. */

static const unsigned long long dup_ids[] = {0, 5, 5};
static const unsigned long long far_ids[] = {0, 16, 3};
static const unsigned long long noroot_ids[] = {1, 2, 3};

static void mutate(int i, struct ml_torus_params *p, const char **param)
{
	switch (i) {
	case 0: /* G > k^N */
		p->group = 17, *param = "group";
		break;
	case 1:
		p->r = 1, *param = "r";
		break;
	case 2:
		p->k = 1, *param = "k";
		break;
	case 3:
		p->group = 1, *param = "group";
		break;
	case 4:
		p->dims = 0, *param = "dims";
		break;
	case 5: /* 2^54 nodes */
		p->k = 2, p->dims = 54, *param = "dims";
		break;
	case 6:
		p->members = dup_ids, p->nmembers = 3, p->group = 3;
		*param = "members";
		break;
	case 7:
		p->members = far_ids, p->nmembers = 3, p->group = 3;
		*param = "members";
		break;
	case 8:
		p->members = noroot_ids, p->nmembers = 3, p->group = 3;
		*param = "root";
		break;
	case 9:
		p->members = dup_ids, p->nmembers = 3, p->group = 4;
		*param = "group";
		break;
	case 10:
		p->members = far_ids, p->nmembers = 3, p->group = 3;
		p->placement = ML_TORUS_RANDOM, *param = "placement";
		break;
	case 11:
		p->root = 16, *param = "root";
		break;
	case 12:
		p->msg = 0, *param = "msg";
		break;
	case 13:
		p->o = -1.0, *param = "o";
		break;
	case 14:
		p->tprocess = INFINITY, *param = "tprocess";
		break;
	case 15:
		p->lp = -0.1, *param = "lp";
		break;
	case 16:
		p->lf = NAN, *param = "lf";
		break;
	case 17:
		p->ls = -1.0, *param = "ls";
		break;
	case 18:
		p->alg = ML_TORUS_NALG, *param = "algorithm";
		break;
	case 19:
		p->model = ML_TORUS_NMODEL, *param = "model";
		break;
	case 20:
		p->variant = ML_TORUS_NVARIANT, *param = "variant";
		break;
	case 21:
		p->placement = ML_TORUS_NPLACEMENT, *param = "placement";
		break;
	case 22: /* the structural limit */
		p->k = 1u << 12, p->group = ML_TORUS_MAX_TREE + 1;
		p->model = ML_TORUS_STRUCTURAL, *param = "group";
		break;
	case 23:
		p->k = 0, *param = "k";
		break;
	}
}

START_TEST(test_invalid)
{
	struct ml_torus_params p = base(ML_TORUS_MU, 4, 16);
	struct ml_torus_result res;
	struct ml_torus_edge e[32];
	struct ml_diag d;
	const char *param = NULL;
	size_t ne = 12345;

	mutate(_i, &p, &param);
	memset(&d, 0, sizeof(d));
	ck_assert_int_eq(ml_torus_validate(&p, &d), ML_EINVAL);
	ck_assert_ptr_nonnull(d.param);
	ck_assert_str_eq(d.param, param);
	ck_assert(d.msg[0] != '\0');
	ck_assert_int_eq(ml_torus_validate(&p, NULL), ML_EINVAL);
	memset(&res, 0xa5, sizeof(res));
	ck_assert_int_eq(ml_torus_eval(&p, &res), ML_EINVAL);
	ck_assert_uint_eq(res.notes, 0xa5a5a5a5u); /* untouched */
	if (p.model != ML_TORUS_NMODEL) {
		ck_assert_int_eq(ml_torus_tree(&p, e, 32, &ne), ML_EINVAL);
		ck_assert_uint_eq(ne, 12345);
	}
}
END_TEST

/* Exact messages of a few. */
START_TEST(test_invalid_messages)
{
	struct ml_torus_params p = base(ML_TORUS_S, 4, 32);
	struct ml_diag d;

	ck_assert_int_eq(ml_torus_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.msg, "32 exceeds k^N = 16");
	p = base(ML_TORUS_S, 4, 3);
	p.members = dup_ids;
	p.nmembers = 3;
	ck_assert_int_eq(ml_torus_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.msg, "id 5 is listed twice");
	p.members = far_ids;
	ck_assert_int_eq(ml_torus_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.msg, "id 16 exceeds k^N - 1 = 15");
	p = base(ML_TORUS_S, 2, 3);
	p.dims = 60;
	ck_assert_int_eq(ml_torus_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.msg, "k^N = 2^60 exceeds 2^53 nodes");
	/* 2^53 itself is allowed in the paper model. */
	p.dims = 53;
	ck_assert_int_eq(ml_torus_validate(&p, &d), ML_OK);
}
END_TEST

START_TEST(test_tree_small_buffer)
{
	struct ml_torus_params p = base(ML_TORUS_U, 4, 8);
	struct ml_torus_edge e[7];
	size_t ne = 99;

	ck_assert_int_eq(ml_torus_tree(&p, e, 6, &ne), ML_EINVAL);
	ck_assert_uint_eq(ne, 99);
	ck_assert_int_eq(ml_torus_tree(&p, e, 7, &ne), ML_OK);
	ck_assert_uint_eq(ne, 7);
}
END_TEST

Suite *suite_torus(void);

Suite *suite_torus(void)
{
	Suite *s = suite_create("torus");
	TCase *tc;

	tc = tcase_create("paper_reference");
	tcase_add_loop_test(tc, test_paper_reference, 0,
			    (int)(sizeof(refs) / sizeof(refs[0])));
	tcase_add_test(tc, test_paper_r_default);
	tcase_add_test(tc, test_u_steps_default);
	tcase_add_test(tc, test_u_literal_evidence);
	suite_add_tcase(s, tc);

	tc = tcase_create("paper_variants");
	tcase_add_loop_test(tc, test_paper_variants, 0,
			    (int)(sizeof(vars) / sizeof(vars[0])));
	suite_add_tcase(s, tc);

	tc = tcase_create("parameters");
	tcase_add_test(tc, test_overhead);
	tcase_add_test(tc, test_overrides);
	tcase_add_test(tc, test_paper_not2d);
	suite_add_tcase(s, tc);

	tc = tcase_create("trees");
	tcase_add_test(tc, test_tree_u_fig6);
	tcase_add_test(tc, test_tree_u_odd);
	tcase_add_test(tc, test_tree_s_chain);
	tcase_add_test(tc, test_tree_members);
	tcase_add_test(tc, test_tree_mu_partitions);
	tcase_add_test(tc, test_tree_md);
	tcase_add_test(tc, test_tree_sep);
	tcase_add_test(tc, test_tree_small_buffer);
	suite_add_tcase(s, tc);

	tc = tcase_create("structural_equals_paper");
	tcase_add_loop_test(tc, test_structural_equals_paper, 0,
			    (int)(sizeof(eq_k) / sizeof(eq_k[0])));
	tcase_add_test(tc, test_structural_any_root);
	suite_add_tcase(s, tc);

	tc = tcase_create("full");
	tcase_add_loop_test(tc, test_full_pairs, 0,
			    (int)(sizeof(hops) / sizeof(hops[0])));
	tcase_add_test(tc, test_full_paths);
	suite_add_tcase(s, tc);

	tc = tcase_create("random_and_large");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_random_group);
	tcase_add_test(tc, test_large);
	suite_add_tcase(s, tc);

	tc = tcase_create("invalid");
	tcase_add_loop_test(tc, test_invalid, 0, 24);
	tcase_add_test(tc, test_invalid_messages);
	suite_add_tcase(s, tc);
	return s;
}
