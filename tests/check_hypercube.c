/*
 * check_hypercube.c - tests of the hypercube broadcast model (SPEC 4).
 *
 * Expected values come from SPEC 4, from hand calculations written out
 * below, or (the saturation rates) from an independent implementation of
 * the paper written separately for this purpose: the literal q-form of eqs
 * 29 and 30, explicit double sums for eqs 20, 21 and 25, existence decided
 * by scanning F(S) - S on 2000 points of [M, 1/lambda_c) and refining the
 * smallest value by golden-section search, and bisection on lambda_g to
 * 1e-12 relative.  It shares no code with src/models/hypercube.c.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "mcastlat/hypercube.h"

/* The paper's Figure 1 grid: n = 6..8, V = 2, 4, M = 32..128, beta. */
static const unsigned grid_dim[] = {6, 7, 8};
static const unsigned grid_vcs[] = {2, 4};
static const double grid_flits[] = {32, 64, 128};
static const double grid_beta[] = {0.005, 0.01, 0.02};
#define NGRID 54

static void grid_point(int k, struct ml_hypercube_params *p)
{
	ml_hypercube_params_init(p);
	p->dim = grid_dim[k / 18];
	p->vcs = grid_vcs[k / 9 % 2];
	p->flits = grid_flits[k / 3 % 3];
	p->beta = grid_beta[k % 3];
}

static double sat_of(const struct ml_hypercube_params *p)
{
	double ls = -1;

	ck_assert_int_eq(ml_hypercube_saturation(p, &ls), ML_OK);
	ck_assert(ls > 0);
	return ls;
}

/* ------------------------------------------------------------------ */

START_TEST(test_defaults)
{
	struct ml_hypercube_params p;

	ml_hypercube_params_init(&p);
	ck_assert_uint_eq(p.dim, 6);
	ck_assert_uint_eq(p.vcs, 2);
	ck_assert_double_eq(p.flits, 32);
	ck_assert_double_eq(p.beta, 0.01);
	ck_assert_double_eq(p.rate, 0.001);
	ck_assert_double_eq(p.delta, 1);
	ck_assert_int_eq(p.load, ML_HYPERCUBE_LOAD_PAPER);
	ck_assert_double_eq(p.epsrel, 1e-12);
	ck_assert_double_eq(p.sat_epsrel, 1e-9);
	ck_assert_uint_eq(p.max_iter, 100);
	ck_assert_int_eq(ml_hypercube_validate(&p, NULL), ML_OK);
}
END_TEST

/*
 * Zero load: every waiting and blocking term vanishes, S_b = M, W_s = 0,
 * Vbar -> 1, so eq 2 gives L_b = M and eq 1 Latency = n (M + Delta).
 * SPEC 4 / issue 4: n = 6, M = 32, Delta = 1 gives 6 x 33 = 198.
 */
static const struct {
	unsigned n, v;
	double m, beta, delta, latency;
} zero_cases[] = {
    {6, 2, 32, 0.01, 1, 198},	     /* 6 (32 + 1) */
    {1, 2, 1, 0, 0, 1},		     /* 1 (1 + 0) */
    {8, 4, 128, 0.02, 1, 1032},	     /* 8 (128 + 1) */
    {20, 7, 5, 1, 2.5, 150},	     /* 20 (5 + 2.5) */
    {3, 1024, 1000000, 0.5, 0, 3e6}, /* 3 (1e6 + 0) */
};

START_TEST(test_zero_load)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;

	ml_hypercube_params_init(&p);
	p.dim = zero_cases[_i].n;
	p.vcs = zero_cases[_i].v;
	p.flits = zero_cases[_i].m;
	p.beta = zero_cases[_i].beta;
	p.delta = zero_cases[_i].delta;
	p.rate = 0;
	/* No rate enters the zero-load latency, so the tree load gives
	 * the same n (M + Delta). */
	for (p.load = ML_HYPERCUBE_LOAD_PAPER; p.load < ML_HYPERCUBE_NLOAD;
	     p.load++) {
		ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
		ck_assert_double_eq(r.latency, zero_cases[_i].latency);
		ck_assert_double_eq(r.vbar, 1);
		ck_assert_double_eq(r.s_b, p.flits);
		ck_assert_double_eq(r.w_c, 0);
		ck_assert_double_eq(r.w_s, 0);
		ck_assert_double_eq(r.rho, 0);
		ck_assert_double_eq(r.lambda_c, 0);
	}
}
END_TEST

/*
 * Channel rates under both loads, by hand, per lambda_sb (beta = 1/2,
 * lambda_g = 0.0002: lambda_sb = lambda_su = 0.0001).  N = 2^n, omega =
 * (N - 1 - n)/(N - 1) (eq 10: sum_i i 2^(n-i-1) = N - 1 - n).
 *   n = 3, N = 8: omega = 4/7, d = (3/2)(8/7) = 12/7.
 *     paper: lambda_sr = 3, lambda_cr = (4/7)/3 x 3 = 4/7,
 *            lambda_cb + lambda_cr = 11/7 = 1.5714
 *     tree:  lambda_sr = 8 - 1 - 3 = 4, lambda_cr = 4/3,
 *            lambda_cb + lambda_cr = 7/3 = (N - 1)/n
 *     lambda_cu = lambda_su d/n = 4/7 (both); lambda_s = lambda_su/3 +
 *     lambda_sb + lambda_cr: paper 1/3 + 1 + 4/7 = 40/21, tree 1/3 + 1 +
 *     4/3 = 8/3.
 *   n = 6, N = 64: omega = 57/63, d = 3 x 64/63 = 64/21.
 *     paper: lambda_sr = 31, lambda_cr = (57/63)/6 x 31 = 1767/378 =
 *            4.6746, lambda_cb + lambda_cr = 2145/378 = 5.6746
 *     tree:  lambda_sr = 57, lambda_cr = 9.5, lambda_cb + lambda_cr =
 *            10.5 = 63/6
 *     lambda_cu = (64/21)/6 = 32/63; lambda_s = 1/6 + 1 + lambda_cr.
 * With the tree load eq 27 weighs S_b by n lambda_sb + lambda_sr = N - 1
 * (per lambda_sb) against lambda_su = 1 for S_u: n = 3: S_s = (7 S_b +
 * S_u)/8; n = 6: (63 S_b + S_u)/64.  The paper's weights are lambda_sb +
 * lambda_sr: n = 3: (4 S_b + S_u)/5; n = 6: (32 S_b + S_u)/33.
 */
static const struct {
	unsigned n;
	enum ml_hypercube_load load;
	double sr, cr, cu, s, wb; /* per lambda_sb; wb: S_b weight of eq 27 */
} rate_cases[] = {
    {3, ML_HYPERCUBE_LOAD_PAPER, 3, 4.0 / 7, 4.0 / 7, 40.0 / 21, 4},
    {3, ML_HYPERCUBE_LOAD_TREE, 4, 4.0 / 3, 4.0 / 7, 8.0 / 3, 7},
    {6, ML_HYPERCUBE_LOAD_PAPER, 31, 1767.0 / 378, 32.0 / 63,
     1.0 / 6 + 1 + 1767.0 / 378, 32},
    {6, ML_HYPERCUBE_LOAD_TREE, 57, 9.5, 32.0 / 63, 1.0 / 6 + 1 + 9.5, 63},
};

START_TEST(test_load_rates)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;
	const double lsb = 0.0001, tol = 1e-17;

	ml_hypercube_params_init(&p);
	p.dim = rate_cases[_i].n;
	p.load = rate_cases[_i].load;
	p.beta = 0.5;
	p.rate = 0.0002;
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.lambda_sb, lsb, tol);
	ck_assert_double_eq_tol(r.lambda_su, lsb, tol);
	ck_assert_double_eq_tol(r.lambda_sr, rate_cases[_i].sr * lsb, tol);
	ck_assert_double_eq_tol(r.lambda_cb, lsb, tol);
	ck_assert_double_eq_tol(r.lambda_cr, rate_cases[_i].cr * lsb, tol);
	ck_assert_double_eq_tol(r.lambda_cu, rate_cases[_i].cu * lsb, tol);
	ck_assert_double_eq_tol(
	    r.lambda_c, (1 + rate_cases[_i].cr + rate_cases[_i].cu) * lsb, tol);
	ck_assert_double_eq_tol(r.lambda_s, rate_cases[_i].s * lsb, tol);
	ck_assert_double_eq_tol(r.s_s,
				(rate_cases[_i].wb * r.s_b + r.s_u) /
				    (rate_cases[_i].wb + 1),
				1e-12 * r.s_s);
}
END_TEST

/*
 * The n = 2 example of test_hand_iteration under the tree load
 * (lambda_g = 3/110, beta = 1/2: lambda_sb = lambda_su = 3/220, d = 4/3):
 * a broadcast is 3 one-hop messages, 2 by the source and 1 relay, so
 * lambda_cb + lambda_cr = (3/2) lambda_sb = 3/220 + 3/440;
 * lambda_cu = (3/220)(4/3)/2 = 1/110; lambda_c = 4/440 + 6/440 + 3/440 =
 * 13/440 (the paper's: 1/40 = 11/440); lambda_s = 3/440 + 6/440 + 3/440
 * = 3/110.  At the fixed point eqs 17 and 27 hold with these weights.
 */
START_TEST(test_load_tree_small)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;

	ml_hypercube_params_init(&p);
	p.dim = 2;
	p.vcs = 2;
	p.flits = 4;
	p.beta = 0.5;
	p.rate = 3.0 / 110;
	p.load = ML_HYPERCUBE_LOAD_TREE;
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.lambda_cb, 3.0 / 220, 1e-17);
	ck_assert_double_eq_tol(r.lambda_cr, 3.0 / 440, 1e-17);
	ck_assert_double_eq_tol(r.lambda_cu, 1.0 / 110, 1e-17);
	ck_assert_double_eq_tol(r.lambda_c, 13.0 / 440, 1e-17);
	ck_assert_double_eq_tol(r.lambda_s, 3.0 / 110, 1e-17);
	ck_assert_double_eq_tol(r.lambda_sr, 3.0 / 220, 1e-17);
	/* Eq 17 at the fixed point: S = ((cb + cr) S_b + cu S_u)/lambda_c
	 * = (9 S_b + 4 S_u)/13. */
	ck_assert_double_eq_tol(r.s, (9 * r.s_b + 4 * r.s_u) / 13, 1e-12);
	/* Eq 27: (2 + 1) S_b against 1 S_u. */
	ck_assert_double_eq_tol(r.s_s, (3 * r.s_b + r.s_u) / 4, 1e-12);
	/* More load than the paper's 11/440: a longer latency. */
	p.load = ML_HYPERCUBE_LOAD_PAPER;
	{
		struct ml_hypercube_result q;

		ck_assert_int_eq(ml_hypercube_eval(&p, &q), ML_OK);
		ck_assert(r.latency > q.latency);
		ck_assert(r.rho > q.rho);
	}
}
END_TEST

/*
 * The tree load on the paper's 6-cube (V = 2, M = 32, beta = 0.01,
 * Delta = 1) against a second, independent implementation written from
 * the equations for this check (plain q-form of eqs 29, 30, explicit sums
 * for eqs 20, 21, 25, the lowest root by scanning F(S) - S on 20000
 * points and bisecting, saturation by bisection on lambda_g, the tree's
 * eqs 3, 11, 26, 27 as in hypercube.c's header): at lambda_g = 0.01 the
 * latency is 280.69573016647 (paper load: 273.49031136006) and
 * lambda_sat = 0.0194998388157 (paper: 0.0209307832303).  Its scan
 * can miss the last 5e-9 relative before saturation, hence 1e-10.
 */
START_TEST(test_load_tree_reference)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;

	ml_hypercube_params_init(&p);
	p.rate = 0.01;
	p.load = ML_HYPERCUBE_LOAD_TREE;
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.latency, 280.69573016647, 1e-8);
	ck_assert_double_eq_tol(sat_of(&p), 0.0194998388157, 1e-10);
	p.load = ML_HYPERCUBE_LOAD_PAPER;
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.latency, 273.49031136006, 1e-8);
	ck_assert_double_eq_tol(sat_of(&p), 0.0209307832303, 1e-10);
}
END_TEST

/* More load per broadcast: the tree load saturates at a lower rate than
 * the paper's on the whole Figure 1 grid, and the gap grows with beta. */
START_TEST(test_load_saturation)
{
	struct ml_hypercube_params p;
	double paper, tree;

	grid_point(_i, &p);
	paper = sat_of(&p);
	p.load = ML_HYPERCUBE_LOAD_TREE;
	tree = sat_of(&p);
	ck_assert_msg(tree < paper, "grid point %d: tree %g >= paper %g", _i,
		      tree, paper);
}
END_TEST

/* As lambda_g -> 0 the latency tends to the zero-load value and Vbar to 1
 * (no jump at 0). */
START_TEST(test_zero_load_limit)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;

	ml_hypercube_params_init(&p);
	p.rate = 1e-12;
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.latency, 198, 1e-6);
	ck_assert_double_eq_tol(r.vbar, 1, 1e-9);
	ck_assert(r.vbar >= 1);
}
END_TEST

/* Eq 6: sum_i i C(n,i) / (2^n - 1) = (n/2) N / (N - 1), N = 2^n. */
START_TEST(test_mean_distance)
{
	unsigned n = (unsigned)_i;
	double nn = ldexp(1, _i);
	double closed = n / 2.0 * nn / (nn - 1), d = NAN;

	ck_assert_int_eq(ml_hypercube_mean_distance(n, &d), ML_OK);
	ck_assert_double_eq_tol(d, closed, 1e-13 * closed);
}
END_TEST

/*
 * Eq 10 by hand: omega = sum_{i=0..n-1} i 2^(n-i-1) / (2^n - 1).
 *   n = 1: 0 / 1 = 0
 *   n = 2: (0*2 + 1*1) / 3 = 1/3
 *   n = 3: (0*4 + 1*2 + 2*1) / 7 = 4/7
 *   n = 4: (0*8 + 1*4 + 2*2 + 3*1) / 15 = 11/15
 */
START_TEST(test_omega)
{
	static const double want[] = {0, 1.0 / 3, 4.0 / 7, 11.0 / 15};
	double w = NAN;

	ck_assert_int_eq(ml_hypercube_omega((unsigned)_i + 1, &w), ML_OK);
	ck_assert_double_eq_tol(w, want[_i], 1e-15);
}
END_TEST

START_TEST(test_helpers_domain)
{
	double v = -1;

	ck_assert_int_eq(ml_hypercube_mean_distance(0, &v), ML_EINVAL);
	ck_assert_int_eq(ml_hypercube_mean_distance(21, &v), ML_EINVAL);
	ck_assert_int_eq(ml_hypercube_omega(0, &v), ML_EINVAL);
	ck_assert_int_eq(ml_hypercube_omega(21, &v), ML_EINVAL);
	ck_assert_double_eq(v, -1); /* untouched */
}
END_TEST

/*
 * A hand-worked iteration: n = 2, V = 2, M = 4, beta = 1/2,
 * lambda_g = 3/110, Delta = 1.
 *
 * Rates.  N = 4, p_1 = C(2,1)/3 = 2/3, p_2 = 1/3, d = 2/3 + 2/3 = 4/3
 * (eq 6 closed form: (2/2) 4/3).  omega = 1/3 (above).
 *   lambda_sb = lambda_su = 3/220; lambda_sr = (2^1 - 1) 3/220 = 3/220
 *   lambda_cu = (3/220)(4/3)/2 = 1/110,  lambda_cb = 3/220,
 *   lambda_cr = (1/3)/2 (3/220) = 1/440,
 *   lambda_c = 4/440 + 6/440 + 1/440 = 11/440 = 1/40
 *   lambda_s = (3/220)/2 + 3/220 + (1/6)(3/220) = (9 + 18 + 3)/1320 = 1/44
 *
 * First iteration, S0 = M = 4: r = lambda_c S = 1/10.
 *   q = (1, 1/10, (1/10)(1/40)/(1/4 - 1/40) = 1/90), sum 10/9, so
 *   P_0 = 9/10, P_1 = 9/100, P_2 = 1/100.
 *   W_c = (1/40) 16 (1 + 0) / (2 (9/10)) = 2/9                  (19)
 *   B_b = P_2 W_c = 1/450, S_b = 4 + 1/450 = 1801/450            (12, 13)
 *   P_a = P_1/2 + P_2 = 0.045 + 0.01 = 0.055, P_d = 0.01         (23, 24)
 *   S_u1 = 4 + 1 + P_d W_c = 5 + 1/450 = 2251/450                (21, 22)
 *   S_u2 = 4 + 2 + (P_a P_d + P_d) W_c = 6 + 0.01055 (2/9)
 *        = 6.0023444...
 *   S_u = (2/3) S_u1 + (1/3) S_u2 = 5.3355962963                 (20)
 *   S1 = F(S0) = ((3/220 + 1/440) S_b + (1/110) S_u) / (1/40)
 *      = (7/11) S_b + (4/11) S_u = 3331661/742500 = 4.487085521885522 (17)
 *
 * Second iteration, S1 = 4.4870855219: r = S1/40 = 0.1121771380,
 *   P_0 = 1 - r = 0.8878228620, P_1 = (1 - r) r = 0.0995934277,
 *   P_2 = r^2 = 0.0125837103 (the q-chain sums to 1/(1 - r)),
 *   W_c = (S1^2 + (S1 - 4)^2) / (80 (1 - r)) = 0.2868138125,
 *   S_b = 4 + P_2 W_c = 4.0036091819, P_a = 0.0623804242,
 *   S_u1 = 5.0036091819, S_u2 = 6 + (P_a + 1) P_2 W_c = 6.0038343243,
 *   S_u = 5.3370175627, S2 = (7/11) S_b + (4/11) S_u = 4.4884849568.
 *
 * The iteration converges to the fixed point S = 4.48848988304442; at it
 * the independent implementation gives Latency = 12.230223239804644.
 */
START_TEST(test_hand_iteration)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;
	double s1, s2, s;
	int i;

	ml_hypercube_params_init(&p);
	p.dim = 2;
	p.vcs = 2;
	p.flits = 4;
	p.beta = 0.5;
	p.rate = 3.0 / 110;
	ck_assert_int_eq(ml_hypercube_map(&p, 4, &s1), ML_OK);
	ck_assert_double_eq_tol(s1, 3331661.0 / 742500, 1e-14);
	ck_assert_int_eq(ml_hypercube_map(&p, s1, &s2), ML_OK);
	ck_assert_double_eq_tol(s2, 4.4884849568, 1e-9);

	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.lambda_c, 1.0 / 40, 1e-17);
	ck_assert_double_eq_tol(r.lambda_cu, 1.0 / 110, 1e-17);
	ck_assert_double_eq_tol(r.lambda_cb, 3.0 / 220, 1e-17);
	ck_assert_double_eq_tol(r.lambda_cr, 1.0 / 440, 1e-17);
	ck_assert_double_eq_tol(r.lambda_s, 1.0 / 44, 1e-17);
	ck_assert_double_eq_tol(r.lambda_sr, 3.0 / 220, 1e-17);
	ck_assert_double_eq_tol(r.s, 4.48848988304442, 1e-12);
	ck_assert_double_eq_tol(r.latency, 12.230223239804644, 1e-11);

	/* Plain iteration from M reaches the solver's root. */
	s = 4;
	for (i = 0; i < 200; i++)
		ck_assert_int_eq(ml_hypercube_map(&p, s, &s), ML_OK);
	ck_assert_double_eq_tol(s, r.s, 1e-12 * r.s);

	/* Eqs 1 and 2 from the reported parts; rho = lambda_c S (eq 15). */
	ck_assert_double_eq_tol(r.latency, 2 * ((r.s_b + r.w_s) * r.vbar + 1),
				1e-12);
	ck_assert_double_eq_tol(r.rho, r.s / 40, 1e-15);
	/* Eq 27 with lambda_sb + lambda_sr = lambda_su: S_s = (2 S_b + S_u)/3
	 */
	ck_assert_double_eq_tol(r.s_s, (2 * r.s_b + r.s_u) / 3, 1e-12);
	/* P_V = r^2 and eq 23 for V = 2: P_a = (1 - r) r / 2 + r^2. */
	ck_assert_double_eq_tol(r.p_v, r.rho * r.rho, 1e-15);
	ck_assert_double_eq_tol(r.p_a, (1 - r.rho) * r.rho / 2 + r.rho * r.rho,
				1e-15);
}
END_TEST

/* The fixed point is a root of F(S) - S to 1e-12 and the lowest one:
 * F(S) > S on [M, S), F(S) < S just above. */
START_TEST(test_lowest_root)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;
	double f, ls;
	int k;

	grid_point(_i * 7 % NGRID, &p);
	ls = sat_of(&p);
	p.rate = 0.9 * ls;
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
	ck_assert_int_eq(ml_hypercube_map(&p, r.s, &f), ML_OK);
	ck_assert_double_eq_tol(f, r.s, 2e-12 * r.s);
	for (k = 0; k < 1000; k++) {
		double s = p.flits + (r.s - p.flits) * k / 1000.0;

		ck_assert_int_eq(ml_hypercube_map(&p, s, &f), ML_OK);
		ck_assert(f > s);
	}
	ck_assert_int_eq(ml_hypercube_map(&p, r.s * (1 + 1e-6), &f), ML_OK);
	ck_assert(f < r.s * (1 + 1e-6));
}
END_TEST

/*
 * What the solver relies on: F increasing and convex on [M, 1/lambda_c).
 * Second differences of F on a uniform grid must be >= 0 (up to
 * rounding), at rates below, at and above saturation.
 */
START_TEST(test_convexity)
{
	static const double frac[] = {0.3, 0.9, 1.0, 1.5};
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;
	double ls, smax, f[401];
	unsigned j;
	int k;

	grid_point(_i * 5 % NGRID, &p);
	ls = sat_of(&p);
	for (j = 0; j < sizeof(frac) / sizeof(frac[0]); j++) {
		p.rate = frac[j] * ls;
		ck_assert_int_ne(ml_hypercube_eval(&p, &r), ML_EINVAL);
		smax = 1 / r.lambda_c; /* reported even when saturated */
		ck_assert(smax > p.flits);
		for (k = 0; k <= 400; k++) {
			double s = p.flits + (smax - p.flits) * k / 401.0;

			ck_assert_int_eq(ml_hypercube_map(&p, s, &f[k]), ML_OK);
		}
		for (k = 1; k <= 400; k++)
			ck_assert(f[k] > f[k - 1]);
		for (k = 1; k < 400; k++)
			ck_assert(f[k + 1] - 2 * f[k] + f[k - 1] >=
				  -1e-12 * f[k + 1]);
	}
}
END_TEST

/* Latency (and S, W_c, Vbar) grows with lambda_g up to saturation. */
START_TEST(test_monotonic_rate)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r, prev;
	double ls;
	int j;

	grid_point(_i, &p);
	ls = sat_of(&p);
	p.rate = 0;
	ck_assert_int_eq(ml_hypercube_eval(&p, &prev), ML_OK);
	for (j = 1; j <= 40; j++) {
		p.rate = ls * j / 40.0;
		ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
		ck_assert(r.latency > prev.latency);
		ck_assert(r.s_b > prev.s_b);
		ck_assert(r.w_c > prev.w_c);
		ck_assert(r.vbar > prev.vbar);
		ck_assert(r.rho > prev.rho);
		prev = r;
	}
}
END_TEST

/* SPEC 4: the paper's Figure 1 grid solves at low rates. */
START_TEST(test_paper_grid_low_rate)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;

	grid_point(_i, &p);
	p.rate = 0.002;
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
	ck_assert(r.latency > p.dim * (p.flits + p.delta));
	ck_assert(r.rho < 0.5);
}
END_TEST

/* Saturation rate falls as beta, M and n grow, over the Figure 1 grid. */
START_TEST(test_saturation_order)
{
	struct ml_hypercube_params p;
	double base, more;

	grid_point(_i, &p);
	base = sat_of(&p);
	if (_i % 3 < 2) { /* beta -> next larger */
		grid_point(_i + 1, &p);
		more = sat_of(&p);
		ck_assert(more < base);
	}
	if (_i / 3 % 3 < 2) { /* M -> next larger */
		grid_point(_i + 3, &p);
		more = sat_of(&p);
		ck_assert(more < base);
	}
	if (_i / 18 < 2) { /* n -> next larger */
		grid_point(_i + 18, &p);
		more = sat_of(&p);
		ck_assert(more < base);
	}
}
END_TEST

/*
 * Saturation rates against the independent implementation (header
 * comment), which bisects to 1e-12 relative; ours is the lower end of a
 * bracket narrower than 1e-9 relative.
 */
static const struct {
	unsigned n, v;
	double m, beta, lsat;
} sat_cases[] = {
    {6, 2, 32, 0.01, 0.020930783280881306},
    {8, 4, 128, 0.02, 0.005009830617291634},
    {2, 2, 4, 0.5, 0.10597345318092266},
    {1, 2, 1, 0.0, 0.2084191683222798},
    {5, 3, 16, 1.0, 0.008902337130739804},
    {10, 8, 256, 0.001, 0.0045227518904711874},
};

START_TEST(test_saturation_reference)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;
	double ls, want = sat_cases[_i].lsat;

	ml_hypercube_params_init(&p);
	p.dim = sat_cases[_i].n;
	p.vcs = sat_cases[_i].v;
	p.flits = sat_cases[_i].m;
	p.beta = sat_cases[_i].beta;
	ls = sat_of(&p);
	ck_assert_double_eq_tol(ls, want, 2e-9 * want);
	/* The bracket: a solution at lambda_sat, none just above. */
	p.rate = ls;
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
	p.rate = ls * (1 + 2 * p.sat_epsrel);
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_SATURATED);
	/* Saturation comes long before lambda_c S = 1. */
	p.rate = ls;
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
	ck_assert(r.rho < 0.8);
}
END_TEST

/* A tighter bracket refines the same rate. */
START_TEST(test_saturation_tolerance)
{
	struct ml_hypercube_params p;
	double coarse, fine;

	ml_hypercube_params_init(&p);
	p.sat_epsrel = 1e-3;
	coarse = sat_of(&p);
	p.sat_epsrel = 1e-13;
	fine = sat_of(&p);
	ck_assert(coarse <= fine);
	ck_assert(fine - coarse <= 1e-3 * fine);
	ck_assert_double_eq_tol(fine, 0.020930783280881306, 1e-9 * fine);
}
END_TEST

/* beta = 0 (pure unicast: S = S_u) and beta = 1 (pure broadcast:
 * S = S_b) are both valid. */
START_TEST(test_beta_edges)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;
	double ls;

	ml_hypercube_params_init(&p);
	p.beta = _i;
	ls = sat_of(&p);
	ck_assert(isfinite(ls));
	p.rate = 0.5 * ls;
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
	ck_assert(isfinite(r.latency));
	ck_assert(r.latency > 6 * 33);
	if (_i == 0) {
		ck_assert_double_eq_tol(r.s, r.s_u, 1e-12 * r.s);
		ck_assert_double_eq(r.lambda_cb + r.lambda_cr, 0);
	} else {
		ck_assert_double_eq_tol(r.s, r.s_b, 1e-12 * r.s);
		ck_assert_double_eq(r.lambda_cu, 0);
	}
}
END_TEST

/*
 * Continuity as lambda_g -> lambda_sat from below: the lowest root merges
 * with the second at a finite S, so the latency converges (like a square
 * root) to a finite value and does not jump.
 */
START_TEST(test_continuity_at_saturation)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r, at;
	double ls, last = INFINITY;
	int k;

	grid_point(_i * 11 % NGRID, &p);
	ls = sat_of(&p);
	p.rate = ls;
	ck_assert_int_eq(ml_hypercube_eval(&p, &at), ML_OK);
	ck_assert(isfinite(at.latency));
	for (k = 2; k <= 8; k++) {
		double gap;

		p.rate = ls * (1 - pow(10, -k));
		ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
		ck_assert(r.latency < at.latency);
		gap = at.latency - r.latency;
		ck_assert(gap < last);
		last = gap;
	}
	ck_assert(last < 1e-3 * at.latency);
	p.rate = ls * (1 + 1e-6);
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_SATURATED);
}
END_TEST

/* Saturated points: status, NaN results, rates still reported. */
START_TEST(test_saturated)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;

	ml_hypercube_params_init(&p);
	p.rate = 0.0225; /* lambda_sat = 0.02093... */
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_SATURATED);
	ck_assert(isnan(r.latency));
	ck_assert(isnan(r.s_b) && isnan(r.w_s) && isnan(r.vbar));
	ck_assert(isnan(r.rho));
	ck_assert(r.lambda_c > 0);
	/* lambda_c M >= 1: the domain [M, 1/lambda_c) is empty. */
	p.rate = 1e6;
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_SATURATED);
	ck_assert(isnan(r.latency));
}
END_TEST

/* ML_ENOCONV: an iteration cap ends the search without deciding. */
START_TEST(test_enoconv)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;
	double ls;

	ml_hypercube_params_init(&p);
	ls = sat_of(&p);
	p.max_iter = 10;
	p.epsrel = 1e-15;
	p.rate = ls * (1 - 1e-6);
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_ENOCONV);
	ck_assert(isnan(r.latency));
	/* The same point with the default cap is fine. */
	p.max_iter = ML_HYPERCUBE_MAX_ITER;
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
}
END_TEST

/* Every invalid parameter is rejected by name, and results untouched. */
static const struct {
	const char *param;
	int field;
	double value;
} bad_cases[] = {
    {"dim", 0, 0},
    {"dim", 0, 21},
    {"vcs", 1, 1},
    {"vcs", 1, 0},
    {"vcs", 1, 1025},
    {"flits", 2, 0.5},
    {"flits", 2, 0},
    {"flits", 2, -1},
    {"flits", 2, NAN},
    {"flits", 2, INFINITY},
    {"beta", 3, -0.01},
    {"beta", 3, 1.01},
    {"beta", 3, NAN},
    {"rate", 4, -1e-9},
    {"rate", 4, NAN},
    {"rate", 4, INFINITY},
    {"delta", 5, -1},
    {"delta", 5, NAN},
    {"delta", 5, INFINITY},
    {"epsrel", 6, 0},
    {"epsrel", 6, 0.1},
    {"epsrel", 6, NAN},
    {"sat_epsrel", 7, 0},
    {"sat_epsrel", 7, 0.5},
    {"max_iter", 8, 9},
    {"max_iter", 8, 0},
    {"load", 9, ML_HYPERCUBE_NLOAD},
};

START_TEST(test_invalid)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r, before;
	struct ml_diag d;
	double v = bad_cases[_i].value, ls = -7, f = -7;

	ml_hypercube_params_init(&p);
	switch (bad_cases[_i].field) {
	case 0:
		p.dim = (unsigned)v;
		break;
	case 1:
		p.vcs = (unsigned)v;
		break;
	case 2:
		p.flits = v;
		break;
	case 3:
		p.beta = v;
		break;
	case 4:
		p.rate = v;
		break;
	case 5:
		p.delta = v;
		break;
	case 6:
		p.epsrel = v;
		break;
	case 7:
		p.sat_epsrel = v;
		break;
	case 8:
		p.max_iter = (unsigned)v;
		break;
	default:
		p.load = (enum ml_hypercube_load)v;
		break;
	}
	memset(&d, 0, sizeof(d));
	ck_assert_int_eq(ml_hypercube_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, bad_cases[_i].param);
	ck_assert(d.msg[0] != '\0');
	ck_assert_int_eq(ml_hypercube_validate(&p, NULL), ML_EINVAL);
	memset(&r, 0x5a, sizeof(r));
	before = r;
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_EINVAL);
	ck_assert(memcmp(&r, &before, sizeof(r)) == 0);
	ck_assert_int_eq(ml_hypercube_saturation(&p, &ls), ML_EINVAL);
	ck_assert_double_eq(ls, -7);
	ck_assert_int_eq(ml_hypercube_map(&p, 40, &f), ML_EINVAL);
	ck_assert_double_eq(f, -7);
}
END_TEST

/* The edges of the domain are valid. */
START_TEST(test_valid_edges)
{
	struct ml_hypercube_params p;
	struct ml_diag d;

	ml_hypercube_params_init(&p);
	p.dim = 1;
	p.vcs = 2;
	p.flits = 1;
	p.beta = 0;
	p.rate = 0;
	p.delta = 0;
	p.epsrel = 1e-15;
	p.sat_epsrel = 1e-15;
	p.max_iter = 10;
	ck_assert_int_eq(ml_hypercube_validate(&p, &d), ML_OK);
	p.dim = 20;
	p.vcs = 1024;
	p.beta = 1;
	p.epsrel = 1e-3;
	p.sat_epsrel = 1e-2;
	ck_assert_int_eq(ml_hypercube_validate(&p, &d), ML_OK);
}
END_TEST

/* ml_hypercube_map outside [M, 1/lambda_c). */
START_TEST(test_map_domain)
{
	struct ml_hypercube_params p;
	double f = -7;

	ml_hypercube_params_init(&p);
	p.rate = 0.01;
	/* lambda_c here is below 0.01, so 1/lambda_c > 100. */
	ck_assert_int_eq(ml_hypercube_map(&p, 31.5, &f), ML_EINVAL);
	ck_assert_int_eq(ml_hypercube_map(&p, 1e6, &f), ML_EINVAL);
	ck_assert_double_eq(f, -7);
	ck_assert_int_eq(ml_hypercube_map(&p, 32, &f), ML_OK);
	ck_assert(f > 32);
}
END_TEST

Suite *suite_hypercube(void);

Suite *suite_hypercube(void)
{
	Suite *s = suite_create("hypercube");
	TCase *tc;

#define ADD(name, fn)                                                          \
	tc = tcase_create(name);                                               \
	tcase_add_test(tc, fn);                                                \
	suite_add_tcase(s, tc)
#define ADD_LOOP(name, fn, n)                                                  \
	tc = tcase_create(name);                                               \
	tcase_add_loop_test(tc, fn, 0, (n));                                   \
	suite_add_tcase(s, tc)

	ADD("defaults", test_defaults);
	ADD_LOOP("zero_load", test_zero_load,
		 (int)(sizeof(zero_cases) / sizeof(zero_cases[0])));
	ADD("zero_load_limit", test_zero_load_limit);
	ADD_LOOP("load_rates", test_load_rates,
		 (int)(sizeof(rate_cases) / sizeof(rate_cases[0])));
	ADD("load_tree_small", test_load_tree_small);
	ADD("load_tree_reference", test_load_tree_reference);
	ADD_LOOP("load_saturation", test_load_saturation, NGRID);
	tc = tcase_create("mean_distance");
	tcase_add_loop_test(tc, test_mean_distance, 1,
			    ML_HYPERCUBE_MAX_DIM + 1);
	suite_add_tcase(s, tc);
	ADD_LOOP("omega", test_omega, 4);
	ADD("helpers_domain", test_helpers_domain);
	ADD("hand_iteration", test_hand_iteration);
	ADD_LOOP("lowest_root", test_lowest_root, 8);
	ADD_LOOP("convexity", test_convexity, 6);
	ADD_LOOP("monotonic_rate", test_monotonic_rate, NGRID);
	ADD_LOOP("paper_grid_low_rate", test_paper_grid_low_rate, NGRID);
	ADD_LOOP("saturation_order", test_saturation_order, NGRID);
	ADD_LOOP("saturation_reference", test_saturation_reference,
		 (int)(sizeof(sat_cases) / sizeof(sat_cases[0])));
	ADD("saturation_tolerance", test_saturation_tolerance);
	ADD_LOOP("beta_edges", test_beta_edges, 2);
	ADD_LOOP("continuity_at_saturation", test_continuity_at_saturation, 5);
	ADD("saturated", test_saturated);
	ADD("enoconv", test_enoconv);
	ADD_LOOP("invalid", test_invalid,
		 (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	ADD("valid_edges", test_valid_edges);
	ADD("map_domain", test_map_domain);
#undef ADD
#undef ADD_LOOP
	return s;
}
