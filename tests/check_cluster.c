/* check_cluster.c - the cluster model against the thesis's examples. */
#include <check.h>
#include <math.h>

#include <gsl/gsl_rng.h>

#include "mcastlat/cluster.h"

/* Figure 2.3: p = 16, L = 4, g = 2, O_s = 1, O_r = 1.5, U_r = 0.5. */
static struct ml_cluster_params fig23(void)
{
	struct ml_cluster_params p = {
		.os = {1, 0},	.gs = {2, 0},  .gr = {2, 0},
		.lat = {4, 0},	.orcv = {1.5, 0}, .ur = 0.5,
		.ctm_per_byte = 0, .mtu = 1500, .msg = 0, .nodes = 16,
		.op = ML_CLUSTER_BCAST, .formula = ML_CLUSTER_AUTO};
	return p;
}

START_TEST(test_fig23_k1)
{
	struct ml_cluster_params p = fig23();
	struct ml_cluster_result r;

	/* T0 = 3 < 2 max(g, O_s) = 4: eq 2.8, B = 4 (0 + 4 + 3) = 28. */
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.used, ML_CLUSTER_EQ28);
	ck_assert_double_eq_tol(r.time, 28.0, 1e-12);
	ck_assert(r.h == 4);
	ck_assert_double_eq(r.packets, 1.0);
}
END_TEST

START_TEST(test_fig24_k1)
{
	struct ml_cluster_params p = fig23();
	struct ml_cluster_result r;

	/* g = 1, k = 1: eq 2.9 = (4 + 0) 3 + 4 * 4 + 0 = 28 and eq 2.8 =
	 * 4 (0 + 4 + 3) = 28: with one packet the two coincide, and auto
	 * (the larger, 2.8 on a tie) reports 2.8. */
	p.gs.fixed = p.gr.fixed = 1;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.used, ML_CLUSTER_EQ28);
	ck_assert_double_eq_tol(r.time, 28.0, 1e-12);
	ck_assert_double_eq_tol(r.b29, 28.0, 1e-12);
	/* The thesis's rule: T0 = 3 >= 2 max(g, O_s) = 2: eq 2.9, 28. */
	p.formula = ML_CLUSTER_THESIS;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.used, ML_CLUSTER_EQ29);
	ck_assert_double_eq_tol(r.time, 28.0, 1e-12);
}
END_TEST

/* The thesis's four reference values (SPEC section 2) under the
 * thesis's own rule: Figure 2.3 (T0 = 3 < 2 max(2, 1) = 4): 2.8, 28;
 * Figure 2.4 (g = 1, 3 >= 2): 2.9, 28; k = 4, g = 2: 2.8, 52; k = 4,
 * g = 1: 2.9, 43 (each formula's value worked out in the tests above). */
START_TEST(test_thesis_rule)
{
	static const struct {
		double g, msg, want;
		enum ml_cluster_formula used;
	} ref[] = {
	    {2, 0, 28, ML_CLUSTER_EQ28},
	    {1, 0, 28, ML_CLUSTER_EQ29},
	    {2, 6000, 52, ML_CLUSTER_EQ28},
	    {1, 6000, 43, ML_CLUSTER_EQ29},
	};
	struct ml_cluster_params p = fig23();
	struct ml_cluster_result r;

	p.formula = ML_CLUSTER_THESIS;
	p.gs.fixed = p.gr.fixed = ref[_i].g;
	p.msg = ref[_i].msg;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.used, ref[_i].used);
	ck_assert_double_eq_tol(r.time, ref[_i].want, 1e-12);
}
END_TEST

/*
 * Issue 11's example: p = 64 (h = 6), M = 15000 (k = 10), O_s = 0.5,
 * g_s = 2, g_r = 0 (g = 2), L = 1, U_r = 0, O_r = 3.45 then 3.5.
 *   O_r = 3.45: T0 = 3.95; eq 2.8 = 6 (9*2 + 1 + 3.95) = 137.7;
 *               eq 2.9 = 15*3.95 + 1*6 + 9*4*0.5 = 59.25 + 6 + 18 = 83.25
 *   O_r = 3.5:  T0 = 4;    eq 2.8 = 6 (18 + 1 + 4) = 138;
 *               eq 2.9 = 15*4 + 6 + 18 = 84
 * The thesis's rule (2.8 iff T0 < 2 max(g, O_s) = 4) picks 2.8 then 2.9:
 * 137.7 then 84, cheaper for a dearer receive.  Auto: 137.7 then 138.
 */
START_TEST(test_issue_example)
{
	struct ml_cluster_params p = fig23();
	struct ml_cluster_result r;

	p.nodes = 64;
	p.msg = 15000;
	p.os.fixed = 0.5;
	p.gs.fixed = 2;
	p.gr.fixed = 0;
	p.lat.fixed = 1;
	p.ur = 0;
	p.orcv.fixed = 3.45;
	p.formula = ML_CLUSTER_THESIS;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.time, 137.7, 1e-9);
	ck_assert_double_eq_tol(r.b29, 83.25, 1e-9);
	p.orcv.fixed = 3.5;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.used, ML_CLUSTER_EQ29);
	ck_assert_double_eq_tol(r.time, 84.0, 1e-9);
	p.formula = ML_CLUSTER_AUTO;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.used, ML_CLUSTER_EQ28);
	ck_assert_double_eq_tol(r.time, 138.0, 1e-9);
	p.orcv.fixed = 3.45;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.time, 137.7, 1e-9);
}
END_TEST

/*
 * Where 2.8 and 2.9 meet with k > 1: 2.9 - 2.8 = (k-1)(T0 + (h-2) O_s -
 * h g) = 0 for h = 4, g = 2, O_s = 1, T0 = 6 (O_r = 4.5, U_r = 0.5).
 * k = 4: 2.8 = 4 (3*2 + 4 + 6) = 64, 2.9 = 7*6 + 16 + 3*2*1 = 64.
 * Auto reports 2.8 on the tie; O_r = 5 (T0 = 6.5) makes 2.9 larger:
 * 2.8 = 4 (6 + 4 + 6.5) = 66, 2.9 = 7*6.5 + 16 + 6 = 67.5.
 */
START_TEST(test_auto_tie)
{
	struct ml_cluster_params p = fig23();
	struct ml_cluster_result r;

	p.msg = 6000;
	p.orcv.fixed = 4.5;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.used, ML_CLUSTER_EQ28);
	ck_assert_double_eq_tol(r.time, 64.0, 1e-12);
	ck_assert_double_eq_tol(r.b29, 64.0, 1e-12);
	p.orcv.fixed = 5;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.used, ML_CLUSTER_EQ29);
	ck_assert_double_eq_tol(r.time, 67.5, 1e-12);
	ck_assert_double_eq_tol(r.b28, 66.0, 1e-12);
}
END_TEST

START_TEST(test_k4)
{
	struct ml_cluster_params p = fig23();
	struct ml_cluster_result r;

	/* M = 4b: k = 4.  g = 2, eq 2.8: 4 (3*2 + 4 + 3) = 52. */
	p.msg = 4 * p.mtu;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_double_eq(r.packets, 4.0);
	ck_assert_int_eq(r.used, ML_CLUSTER_EQ28);
	ck_assert_double_eq_tol(r.time, 52.0, 1e-12);
	/* g = 1, eq 2.9: (4+3) 3 + 4*4 + 3*2*1 = 43; forced 2.8: 4 (3+7) = 40 */
	p.gs.fixed = p.gr.fixed = 1;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.used, ML_CLUSTER_EQ29);
	ck_assert_double_eq_tol(r.time, 43.0, 1e-12);
	p.formula = ML_CLUSTER_EQ28;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.time, 40.0, 1e-12);
}
END_TEST

START_TEST(test_p2p)
{
	struct ml_cluster_params p = fig23();
	struct ml_cluster_result r;

	/* eq 2.6, k = ceil(3001/1500) = 3, per-byte costs at m = 1500:
	 * O_s = 1 + 0.001*1500 = 2.5, g = max(2, 2 + 0.002*1500) = 5,
	 * L = 4, O_r = 1.5: T = 2.5 + 2*5 + 4 + 1.5 + 0.5 = 18.5 */
	p.op = ML_CLUSTER_P2P;
	p.msg = 3001;
	p.os.per_byte = 0.001;
	p.gr.per_byte = 0.002;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_double_eq(r.packets, 3.0);
	ck_assert_double_eq_tol(r.time, 18.5, 1e-12);
	p.op = ML_CLUSTER_XCHG; /* eq 2.7: same value */
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.time, 18.5, 1e-12);
	/* ctm is a broadcast term only; m = min(M, b) for a short message:
	 * M = 100: O_s = 1.1, g = max(2, 2.2) = 2.2, T = 1.1 + 4 + 2 = 7.1 */
	p.msg = 100;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.time, 7.1, 1e-12);
}
END_TEST

START_TEST(test_full_duplex_flag)
{
	struct ml_cluster_params p = fig23();
	struct ml_cluster_result r;

	/* O_s + O_r + U_r = 3 is not < g = 2: the thesis's assumption fails */
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.full_duplex, 0);
	p.gs.fixed = 3.5; /* 3 < 3.5 < 4 */
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.full_duplex, 1);
}
END_TEST

START_TEST(test_ctm_and_nodes)
{
	struct ml_cluster_params p = fig23();
	struct ml_cluster_result r;

	/* p = 17: h = ceil(log2 17) = 5; ctm = 0.01 * 1000 = 10;
	 * eq 2.8, k = 1: 10 + 5 (4 + 3) = 45 */
	p.nodes = 17;
	p.msg = 1000;
	p.ctm_per_byte = 0.01;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert(r.h == 5);
	ck_assert_double_eq_tol(r.time, 45.0, 1e-12);
}
END_TEST

/* p2p and xchg do not use p or ctm: any value is accepted and changes
 * nothing (eq 2.6 with the Figure 2.3 costs, k = 1: 1 + 4 + 1.5 + 0.5 =
 * 7); bcast still rejects p = 1. */
START_TEST(test_unused_options)
{
	struct ml_cluster_params p = fig23();
	struct ml_cluster_result r;
	struct ml_diag d = {NULL, ""};
	long long nodes[] = {1, 0, -5};
	size_t i;

	p.ctm_per_byte = -1;
	for (i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		p.nodes = nodes[i];
		p.op = ML_CLUSTER_P2P;
		ck_assert_int_eq(ml_cluster_validate(&p, &d), ML_OK);
		ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
		ck_assert_double_eq_tol(r.time, 7.0, 1e-12);
		p.op = ML_CLUSTER_XCHG;
		ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
		ck_assert_double_eq_tol(r.time, 7.0, 1e-12);
		p.op = ML_CLUSTER_BCAST;
		ck_assert_int_eq(ml_cluster_validate(&p, &d), ML_EINVAL);
		ck_assert_str_eq(d.param, "ctm-per-byte");
	}
	p.ctm_per_byte = 0;
	ck_assert_int_eq(ml_cluster_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, "nodes");
}
END_TEST

/* Random parameters spanning the domain (times in us, sizes in bytes). */
static struct ml_cluster_params random_params(gsl_rng *rng)
{
	struct ml_cluster_params p;

	p.os = (struct ml_cluster_linear){10 * gsl_rng_uniform(rng),
					  0.01 * gsl_rng_uniform(rng)};
	p.gs = (struct ml_cluster_linear){10 * gsl_rng_uniform(rng),
					  0.01 * gsl_rng_uniform(rng)};
	p.gr = (struct ml_cluster_linear){10 * gsl_rng_uniform(rng),
					  0.01 * gsl_rng_uniform(rng)};
	p.lat = (struct ml_cluster_linear){20 * gsl_rng_uniform(rng),
					   0.01 * gsl_rng_uniform(rng)};
	p.orcv = (struct ml_cluster_linear){10 * gsl_rng_uniform(rng),
					    0.01 * gsl_rng_uniform(rng)};
	p.ur = 5 * gsl_rng_uniform(rng);
	p.ctm_per_byte = 0.01 * gsl_rng_uniform(rng);
	p.mtu = 1 + (double)gsl_rng_uniform_int(rng, 9000);
	/* a quarter of the messages fit in one packet */
	p.msg = (double)gsl_rng_uniform_int(
	    rng, gsl_rng_uniform(rng) < 0.25 ? (unsigned long)p.mtu + 1
					     : 100000);
	p.nodes = 2 + (long long)gsl_rng_uniform_int(rng, 5000);
	p.op = ML_CLUSTER_BCAST;
	p.formula = ML_CLUSTER_AUTO;
	return p;
}

/*
 * A broadcast to p = 2 (h = 1) is one message plus the broadcast's copy:
 * eq 2.8 with h = 1 is ctm(M) + (k-1) g + L + O_r + U_r + O_s, which is
 * eq 2.6 + ctm(M) term by term, and every formula reduces to it.
 */
START_TEST(test_bcast_two_nodes)
{
	static const enum ml_cluster_formula f[] = {
	    ML_CLUSTER_AUTO, ML_CLUSTER_EQ28, ML_CLUSTER_EQ29,
	    ML_CLUSTER_THESIS};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	int i;
	size_t j;

	ck_assert_ptr_nonnull(rng);
	gsl_rng_set(rng, 2);
	for (i = 0; i < 2000; i++) {
		struct ml_cluster_params p = random_params(rng);
		struct ml_cluster_result r;
		double t2p;

		p.op = ML_CLUSTER_P2P;
		if (ml_cluster_eval(&p, &r) != ML_OK)
			ck_abort_msg("invalid random parameters");
		t2p = r.time + p.ctm_per_byte * p.msg;
		p.op = ML_CLUSTER_BCAST;
		p.nodes = 2;
		for (j = 0; j < sizeof(f) / sizeof(f[0]); j++) {
			p.formula = f[j];
			if (ml_cluster_eval(&p, &r) != ML_OK || r.h != 1 ||
			    r.used != ML_CLUSTER_EQ28 ||
			    !(fabs(r.time - t2p) <= 1e-12 * (1 + t2p)))
				ck_abort_msg("set %d, formula %d: bcast %.17g, "
					     "p2p + ctm %.17g",
					     i, (int)f[j], r.time, t2p);
		}
	}
	gsl_rng_free(rng);
}
END_TEST

/* The cost parameters, by index, for raising one at a time. */
static double *cost(struct ml_cluster_params *p, int i)
{
	double *c[] = {&p->os.fixed,   &p->os.per_byte,  &p->gs.fixed,
		       &p->gs.per_byte, &p->gr.fixed,	 &p->gr.per_byte,
		       &p->lat.fixed,  &p->lat.per_byte, &p->orcv.fixed,
		       &p->orcv.per_byte, &p->ur,	 &p->ctm_per_byte};
	return c[i];
}
#define NCOST 12

/*
 * Property (issue 11): raising any one cost never lowers any operation's
 * latency, for auto and the forced formulas.  It holds exactly, even in
 * floating point: each value is a sum of products of non-negative terms
 * (for h >= 2; for h < 2 everything is eq 2.8) and fmax, all monotone
 * under IEEE rounding, so the comparison needs no tolerance.  Auto is
 * also non-decreasing in p and M.  The thesis's rule is not (see
 * test_issue_example), so it is left out.
 */
/* Raise each cost of *p in turn by a random amount: never faster. */
static void assert_costs_monotone(const struct ml_cluster_params *p,
				  gsl_rng *rng)
{
	struct ml_cluster_result a, b;
	int c;

	/* plain ifs: a passing ck_assert costs a message to the parent */
	if (ml_cluster_eval(p, &a) != ML_OK)
		ck_abort_msg("invalid random parameters");
	for (c = 0; c < NCOST; c++) {
		struct ml_cluster_params q = *p;
		/* per-byte costs (odd indices below 10) in us/byte */
		double scale = c % 2 && c < 10 ? 1e-3 : 1.0;

		*cost(&q, c) += scale * gsl_rng_uniform_pos(rng);
		if (ml_cluster_eval(&q, &b) != ML_OK)
			ck_abort_msg("invalid raised parameters");
		if (!(b.time >= a.time))
			ck_abort_msg("cost %d raised: %.17g < %.17g (op %d, "
				     "formula %d)",
				     c, b.time, a.time, (int)p->op,
				     (int)p->formula);
	}
}

START_TEST(test_monotone)
{
	static const enum ml_cluster_formula f[] = {
	    ML_CLUSTER_AUTO, ML_CLUSTER_EQ28, ML_CLUSTER_EQ29};
	static const enum ml_cluster_op ops[] = {
	    ML_CLUSTER_P2P, ML_CLUSTER_XCHG, ML_CLUSTER_BCAST};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	int i;
	size_t j, o;

	ck_assert_ptr_nonnull(rng);
	gsl_rng_set(rng, 11);
	for (i = 0; i < 3000; i++) {
		struct ml_cluster_params p = random_params(rng);
		struct ml_cluster_result a, b;

		/* h = 1 and h = 2 are where the formulas change */
		if (i % 8 == 0)
			p.nodes = 2 + i % 3;
		for (o = 0; o < 3; o++)
			for (j = 0; j < 3; j++) {
				p.op = ops[o];
				p.formula = f[j];
				assert_costs_monotone(&p, rng);
			}
		p.op = ML_CLUSTER_BCAST;
		p.formula = ML_CLUSTER_AUTO;
		if (ml_cluster_eval(&p, &a) != ML_OK)
			ck_abort_msg("invalid random parameters");
		p.nodes += 1 + (long long)gsl_rng_uniform_int(rng, 100);
		if (ml_cluster_eval(&p, &b) != ML_OK || !(b.time >= a.time))
			ck_abort_msg("more nodes, faster: set %d", i);
		p.msg += 1 + (double)gsl_rng_uniform_int(rng, 3000);
		if (ml_cluster_eval(&p, &a) != ML_OK || !(a.time >= b.time))
			ck_abort_msg("longer message, faster: set %d", i);
	}
	gsl_rng_free(rng);
}
END_TEST

/* Each invalid parameter, provoked on purpose: the option it names. */
static const char *spoil(struct ml_cluster_params *p, int i)
{
	switch (i) {
	case 0: p->os.fixed = -1; return "os-fixed";
	case 1: p->os.per_byte = -1e-3; return "os-per-byte";
	case 2: p->gs.fixed = NAN; return "gs-fixed";
	case 3: p->gr.per_byte = -1; return "gr-per-byte";
	case 4: p->lat.fixed = INFINITY; return "latency-fixed";
	case 5: p->orcv.fixed = -0.5; return "or-fixed";
	case 6: p->ur = -1; return "ur";
	case 7: p->ctm_per_byte = -1; return "ctm-per-byte";
	case 8: p->mtu = 0; return "mtu";
	case 9: p->msg = -1; return "msg";
	case 10: p->nodes = 1; return "nodes";
	default: p->nodes = -5; return "nodes";
	}
}

START_TEST(test_invalid)
{
	struct ml_cluster_params p = fig23();
	struct ml_cluster_result r = {.time = 123};
	struct ml_diag d = {NULL, ""};
	const char *param = spoil(&p, _i);

	ck_assert_int_eq(ml_cluster_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, param);
	ck_assert(d.msg[0] != '\0');
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_EINVAL);
	ck_assert_double_eq(r.time, 123); /* result untouched */
}
END_TEST

Suite *suite_cluster(void)
{
	Suite *s = suite_create("cluster");
	TCase *tc = tcase_create("cluster");

	tcase_add_test(tc, test_fig23_k1);
	tcase_add_test(tc, test_fig24_k1);
	tcase_add_loop_test(tc, test_thesis_rule, 0, 4);
	tcase_add_test(tc, test_issue_example);
	tcase_add_test(tc, test_auto_tie);
	tcase_add_test(tc, test_unused_options);
	tcase_add_test(tc, test_bcast_two_nodes);
	tcase_add_test(tc, test_monotone);
	tcase_add_test(tc, test_k4);
	tcase_add_test(tc, test_p2p);
	tcase_add_test(tc, test_full_duplex_flag);
	tcase_add_test(tc, test_ctm_and_nodes);
	tcase_add_loop_test(tc, test_invalid, 0, 12);
	suite_add_tcase(s, tc);
	return s;
}
