/* check_cluster.c - the cluster model against the thesis's examples. */
#include <check.h>
#include <math.h>

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

	/* g = 1: T0 = 3 >= 2: eq 2.9, B = (4 + 0) 3 + 4 * 4 + 0 = 28. */
	p.gs.fixed = p.gr.fixed = 1;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.used, ML_CLUSTER_EQ29);
	ck_assert_double_eq_tol(r.time, 28.0, 1e-12);
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
	tcase_add_test(tc, test_k4);
	tcase_add_test(tc, test_p2p);
	tcase_add_test(tc, test_full_duplex_flag);
	tcase_add_test(tc, test_ctm_and_nodes);
	tcase_add_loop_test(tc, test_invalid, 0, 12);
	suite_add_tcase(s, tc);
	return s;
}
