/*
 * check_barrier.c - the benchmark's own barrier (SPEC 10.7, barrier.c):
 * Open MPI 4.1's barrier decision as its code reads, each barrier's exit
 * times worked out by hand on a machine of one rank a node (L = 1 us,
 * zero-byte messages, overhead o), and a broadcast measured from the
 * tree barrier's exits, by hand.
 */
#include <check.h>
#include <math.h>

#include "mcastlat/collective.h"

/* ompi_coll_tuned_barrier_intra_dec_fixed (v4.1.4). */
START_TEST(test_decide)
{
	static const struct {
		long long P;
		enum ml_coll_barrier b;
	} t[] = {{2, ML_COLL_BARRIER_RECURSIVE_DOUBLING},
		 {3, ML_COLL_BARRIER_RECURSIVE_DOUBLING},
		 {4, ML_COLL_BARRIER_LINEAR},
		 {7, ML_COLL_BARRIER_LINEAR},
		 {8, ML_COLL_BARRIER_RECURSIVE_DOUBLING},
		 {63, ML_COLL_BARRIER_RECURSIVE_DOUBLING},
		 {64, ML_COLL_BARRIER_BRUCK},
		 {255, ML_COLL_BARRIER_BRUCK},
		 {256, ML_COLL_BARRIER_TREE},
		 {511, ML_COLL_BARRIER_TREE},
		 {512, ML_COLL_BARRIER_BRUCK},
		 {1023, ML_COLL_BARRIER_BRUCK},
		 {1024, ML_COLL_BARRIER_TREE},
		 {4095, ML_COLL_BARRIER_TREE},
		 {4096, ML_COLL_BARRIER_BRUCK}};
	size_t i;

	for (i = 0; i < sizeof t / sizeof *t; i++)
		ck_assert_int_eq(ml_collective_barrier_decide(t[i].P), t[i].b);
}
END_TEST

/* Uneven: Bruck (64-255, 512-1023, from 4096), more ranks than nodes,
 * not a multiple of them; by hand from the decision above. */
START_TEST(test_uneven)
{
	static const struct {
		long long P, nodes;
		bool uneven;
	} t[] = {{65, 2, true},	   {66, 2, false},  {63, 2, false},
		 {255, 2, true},   {257, 2, false}, {513, 2, true},
		 {1025, 2, false}, {4097, 2, true}, {70, 4, true},
		 {72, 4, false},   {65, 1, false},  {65, 128, false},
		 {129, 128, true}};
	size_t i;

	for (i = 0; i < sizeof t / sizeof *t; i++)
		ck_assert_msg(ml_collective_barrier_uneven(t[i].P, t[i].nodes) ==
				  t[i].uneven,
			      "P %lld nodes %lld", t[i].P, t[i].nodes);
}
END_TEST

/* P ranks, one a node: every message on the network, L = 1, no byte
 * time, no NIC gap, sender's overhead o. */
static void machine(struct ml_collective_params *p, long long P, double o)
{
	ml_collective_params_init(p);
	p->ranks = P;
	p->lat[ML_COLL_NET] = 1;
	p->byte[ML_COLL_NET] = 0;
	p->ebyte[ML_COLL_NET] = 0;
	p->overhead = o;
	p->nic_gap = 0;
}

static void check_exits(long long P, double o, enum ml_coll_barrier b,
			const double *want)
{
	struct ml_collective_params p;
	double x[8];
	long long i;

	machine(&p, P, o);
	ck_assert_int_eq(ml_collective_barrier_exits(&p, b, x), ML_OK);
	for (i = 0; i < P; i++)
		ck_assert_msg(fabs(x[i] - want[i]) < 1e-12,
			      "barrier %d, P = %lld: rank %lld leaves at %g, "
			      "not %g",
			      (int)b, P, i, x[i], want[i]);
}

/*
 * The tree (P = 4, o = 0.5).  Fan-in: 1 -> 0 and 3 -> 2 sent at 0,
 * arriving at 1; 2 -> 0 sent at 1, arriving at 2.  Fan-out from 0 at
 * 2: to 2 (port until 2.5, arrives 3), then to 1 (sent 2.5, port until
 * 3, arrives 3.5): 0 leaves at 3; 2 forwards to 3 at 3 (port until
 * 3.5, arrives 4) and leaves at 3.5; 1 leaves at 3.5, 3 at 4.  With o
 * = 0: 0 leaves at 2 (its sends at 2), 1 and 2 at 3, 3 at 4.
 */
START_TEST(test_tree)
{
	static const double o5[] = {3, 3.5, 3.5, 4}, o0[] = {2, 3, 3, 4};

	check_exits(4, 0.5, ML_COLL_BARRIER_TREE, o5);
	check_exits(4, 0, ML_COLL_BARRIER_TREE, o0);
}
END_TEST

/* Bruck, P = 4 and 3, o = 0: two rounds of a sendrecv each in step,
 * every rank leaves at 2.  Recursive doubling, P = 3 (2^1 = 2 < 3): 2
 * sends to 0 at 0 (arrives 1) and waits for 0's last message; 0 gets
 * it at 1, exchanges with 1 (its message to 1 sent at 1 arrives at 2;
 * 1's, sent at 0, is there at 1): 0 at 1, 1 at 2; then 0 sends to 2 at
 * 1, arriving at 2: 0 leaves at 1, 1 and 2 at 2.  Linear, P = 3, o =
 * 0.5: 1 and 2 send at 0 (arriving at 1); 0 sends to 1 at 1 (port until
 * 1.5, arrives 2), to 2 at 1.5 (port until 2, arrives 2.5): 0 leaves at
 * 2, 1 at 2, 2 at 2.5.  Double ring, P = 3, o = 0: the token goes 0 ->
 * 1 -> 2 -> 0 twice, a hop each: 0 sends at 0 and 3, leaves at 6 (the
 * second token back); 1 leaves after its second send at 4, 2 at 5. */
START_TEST(test_others)
{
	static const double all2[] = {2, 2, 2, 2}, rd3[] = {1, 2, 2},
			    lin3[] = {2, 2, 2.5}, ring3[] = {6, 4, 5};

	check_exits(4, 0, ML_COLL_BARRIER_BRUCK, all2);
	check_exits(3, 0, ML_COLL_BARRIER_BRUCK, all2);
	check_exits(3, 0, ML_COLL_BARRIER_RECURSIVE_DOUBLING, rd3);
	check_exits(3, 0.5, ML_COLL_BARRIER_LINEAR, lin3);
	check_exits(3, 0, ML_COLL_BARRIER_DOUBLE_RING, ring3);
	/* ompi at P = 3 is recursive doubling */
	check_exits(3, 0, ML_COLL_BARRIER_OMPI, rd3);
}
END_TEST

/*
 * A linear broadcast of 1 byte (no byte time) on P = 4, o = 0.5, timed
 * from the tree barrier's exits (forced: --osu-barrier tree).  Every
 * rank starting at 0, the root sends at 0, 0.5, 1 (arrivals 1, 1.5, 2)
 * and leaves at 1.5: c = (1.5, 1, 1.5, 2).  The tree's exits (test_tree)
 * less rank 0's: (0, 0.5, 0.5, 1).  Floors: the root's three sends' port
 * time 1.5, the others 0.  Measured: (1.5, 0.5, 1, 1): latency (max)
 * 1.5, latency_avg 1, latency_min 0.5.  Without the barrier: 2, 1.5, 1.
 */
START_TEST(test_measured)
{
	struct ml_collective_params p;
	struct ml_collective_result r;

	machine(&p, 4, 0.5);
	p.algorithm = ML_COLL_LINEAR;
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.latency, 2, 1e-12);
	ck_assert_double_eq_tol(r.latency_avg, 1.5, 1e-12);
	ck_assert_double_eq_tol(r.latency_min, 1, 1e-12);
	p.barrier = ML_COLL_BARRIER_TREE;
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.latency, 1.5, 1e-12);
	ck_assert_double_eq_tol(r.latency_avg, 1, 1e-12);
	ck_assert_double_eq_tol(r.latency_min, 0.5, 1e-12);
	ck_assert_int_eq(r.messages, 3);
	/* ompi-tree: Open MPI runs no tree at P = 4 (linear): none. */
	p.barrier = ML_COLL_BARRIER_OMPI_TREE;
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.latency_avg, 1.5, 1e-12);
}
END_TEST

/*
 * The same from root 3.  Open MPI's linear sends in rank order, skipping
 * the root: to 0, 1, 2 at 0, 0.5, 1 (arrivals 1, 1.5, 2), the root
 * leaving at 1.5: c = (1, 1.5, 2, 1.5).  The broadcast starts when its
 * root leaves the barrier: the tree's exits (3, 3.5, 3.5, 4) less rank
 * 3's, (-1, -0.5, -0.5, 0); measured c - that = (2, 2, 2.5, 1.5), the
 * root's floor 1.5: latency 2.5, latency_avg 2, latency_min 1.5 (less
 * rank 0's exit instead would give 1.5, 1.25, 1).
 */
START_TEST(test_measured_root)
{
	struct ml_collective_params p;
	struct ml_collective_result r;

	machine(&p, 4, 0.5);
	p.algorithm = ML_COLL_LINEAR;
	p.root = 3;
	p.barrier = ML_COLL_BARRIER_TREE;
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.latency, 2.5, 1e-12);
	ck_assert_double_eq_tol(r.latency_avg, 2, 1e-12);
	ck_assert_double_eq_tol(r.latency_min, 1.5, 1e-12);
}
END_TEST

/* ompi-tree's exits: none below 256 (every exit 0), the tree's at 256
 * (rank 0 first, rank 255, the last leaf of the last subtree, last). */
START_TEST(test_ompi_tree)
{
	static double x[256], y[256];
	struct ml_collective_params p;
	int i;

	machine(&p, 255, 0.1);
	ck_assert_int_eq(
	    ml_collective_barrier_exits(&p, ML_COLL_BARRIER_OMPI_TREE, x),
	    ML_OK);
	for (i = 0; i < 255; i++)
		ck_assert(x[i] == 0);
	machine(&p, 256, 0.1);
	ck_assert_int_eq(
	    ml_collective_barrier_exits(&p, ML_COLL_BARRIER_OMPI_TREE, x),
	    ML_OK);
	ck_assert_int_eq(
	    ml_collective_barrier_exits(&p, ML_COLL_BARRIER_TREE, y), ML_OK);
	for (i = 0; i < 256; i++) {
		ck_assert(x[i] == y[i]);
		ck_assert(x[i] >= x[0]);
		ck_assert(x[i] <= x[255]);
	}
	/* From the fan-in's end T, rank 0 sends the release to 128, 64,
	 * ..., 1 (largest jump first) and leaves at T + 8 o = T + 0.8;
	 * each rank's first send goes to the subtree holding 255, so the
	 * release reaches 255 after 8 hops of L = 1, at T + 8: 7.2 us
	 * after 0. */
	ck_assert_double_eq_tol(x[255] - x[0], 7.2, 1e-9);
}
END_TEST

START_TEST(test_errors)
{
	struct ml_collective_params p;
	struct ml_collective_result r;
	struct ml_diag d = {NULL, ""};
	double x[4];

	machine(&p, 4, 0);
	ck_assert_int_eq(
	    ml_collective_barrier_exits(&p, ML_COLL_BARRIER_NONE, x),
	    ML_EINVAL);
	ck_assert_int_eq(
	    ml_collective_barrier_exits(&p, ML_COLL_BARRIER_TWO_PROC, x),
	    ML_EINVAL);
	p.barrier = (enum ml_coll_barrier)9;
	ck_assert_int_eq(ml_collective_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, "osu-barrier");
	p.barrier = ML_COLL_BARRIER_OMPI;
	p.library = ML_COLL_MPICH;
	p.algorithm = ML_COLL_MPICH_BINOMIAL;
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_EINVAL);
}
END_TEST

Suite *suite_barrier(void);

Suite *suite_barrier(void)
{
	Suite *s = suite_create("barrier");
	TCase *tc = tcase_create("barrier");

	tcase_add_test(tc, test_decide);
	tcase_add_test(tc, test_uneven);
	tcase_add_test(tc, test_tree);
	tcase_add_test(tc, test_others);
	tcase_add_test(tc, test_measured);
	tcase_add_test(tc, test_measured_root);
	tcase_add_test(tc, test_ompi_tree);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}
