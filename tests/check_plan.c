/*
 * check_plan.c - the measurement plan (SPEC 10.7, ml_collective_plan):
 * its grid worked out by hand from the rules in collective.h (budget
 * split, log-spaced process counts, sizes by priority), and its
 * properties on a real allocation (the budget kept, 2 and the largest P
 * in it, every candidate at every cell, 4096 bracketed).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "mcastlat/collective.h"

static unsigned among2(void)
{
	return ML_COLL_AMONG(ML_COLL_DEFAULT) | ML_COLL_AMONG(ML_COLL_LINEAR);
}

/* *pp: the defaults on nodes of ppn cores in sockets sockets. */
static void allocation(struct ml_coll_plan_params *pp, long long ppn,
		       long long sockets, long long nodes)
{
	ml_collective_plan_init(pp);
	pp->ppn = ppn;
	pp->sockets = sockets;
	pp->nodes = nodes;
}

/* *pp: 4 nodes of 4 cores, the default and linear, budget. */
static void init_4x4(struct ml_coll_plan_params *pp, long long budget)
{
	allocation(pp, 4, 1, 4);
	pp->among = among2();
	pp->budget = budget;
}

/* 4 nodes of 4 cores: P in [2, 16]; 2 candidates, budget 36: C = 18
 * cells, nP = floor(sqrt(18)) = 4, nM = floor(18 / 4) = 4.  P aims at
 * 2 * 8^(i/3) = 2, 4, 8, 16; sizes: 1 and 1 MiB (the ends), 4096 and
 * 8192 (around the eager limit).  32 rows, ompi before linear. */
START_TEST(test_by_hand)
{
	static const long long P[] = {2, 4, 8, 16},
			       M[] = {1, 4096, 8192, 1048576};
	struct ml_coll_plan_params pp;
	struct ml_coll_plan pl;
	struct ml_diag d = {NULL, ""};
	int i;

	init_4x4(&pp, 36);
	ck_assert_int_eq(ml_collective_plan(&pp, &pl, &d), ML_OK);
	ck_assert_int_eq(pl.nranks, 4);
	ck_assert_int_eq(pl.nmsgs, 4);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(pl.ranks[i], P[i]);
		ck_assert_int_eq(pl.msgs[i], M[i]);
	}
	ck_assert_uint_eq(pl.n, 32);
	ck_assert_int_eq(pl.rows[0].alg, ML_COLL_DEFAULT);
	ck_assert_int_eq(pl.rows[1].alg, ML_COLL_LINEAR);
	ck_assert_int_eq(pl.rows[1].ranks, 2);
	ck_assert_int_eq(pl.rows[1].msg, 1);
	ck_assert_int_eq(pl.rows[31].ranks, 16);
	ck_assert_int_eq(pl.rows[31].msg, 1048576);
	ml_collective_plan_free(&pl);
}
END_TEST

/* The plan of budget 0 (every default but the allocation) into *pl,
 * the budget it resolved to asserted. */
static void default_plan(long long ppn, long long sockets, long long nodes,
			 long long budget, struct ml_coll_plan *pl)
{
	struct ml_coll_plan_params pp;

	allocation(&pp, ppn, sockets, nodes);
	ck_assert_int_eq(ml_collective_plan(&pp, pl, NULL), ML_OK);
	ck_assert_int_eq(pl->budget, budget);
}

/* Budget 0: 5 % of the full grid, 15 P x 21 sizes x 10 candidates =
 * 3150 -> 158 rows at most; C = 15, nP = 3, nM = 5.  P: 2, 2 * 8^(1/2)
 * = 5.66 -> 6, 16.  Sizes: 1, 1 MiB, 4096, 8192, then, 1 and 4096
 * being a factor 4096 apart, the size farthest in log from those: 64
 * (6 doublings from 1 and from 4096; 8192 to 1 MiB leaves at most 3.5),
 * and the budget is full before Open MPI's decision bounds. */
START_TEST(test_default_budget)
{
	static const long long P[] = {2, 6, 16},
			       M[] = {1, 64, 4096, 8192, 1048576};
	struct ml_coll_plan pl;
	int i;

	default_plan(4, 1, 4, 158, &pl);
	ck_assert_int_eq(pl.nranks, 3);
	ck_assert_int_eq(pl.nmsgs, 5);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(pl.ranks[i], P[i]);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(pl.msgs[i], M[i]);
	ck_assert_uint_eq(pl.n, 150);
	ml_collective_plan_free(&pl);
}
END_TEST

/* Budget 0 on 1000 nodes of 128 cores: 5 % of the full grid (127,999 P
 * x 21 sizes x 10 candidates, 1,343,990 rows) is capped at 2 process
 * counts a doubling: 1 + ceil(2 log2(64000)) = 1 + ceil(31.93) = 33 P x
 * 21 x 10 = 6930 rows; C = 693, nP = 26 then, nM = 21 being every size,
 * 693 / 21 = 33.  On 2 nodes the cap (1 + 14 = 15 P x 21 x 10 = 3150)
 * is above 5 % (ceil(0.05 x 255 x 21 x 10) = 2678) and so unchanged. */
START_TEST(test_default_budget_large)
{
	struct ml_coll_plan pl;
	long long i;

	default_plan(128, 2, 1000, 6930, &pl);
	ck_assert_int_eq(pl.nranks, 33);
	ck_assert_int_eq(pl.nmsgs, 21);
	ck_assert_uint_eq(pl.n, 6930);
	ck_assert_int_eq(pl.ranks[0], 2);
	ck_assert_int_eq(pl.ranks[32], 128000);
	/* log-spaced: 2^(15.97/32) = 1.41 apart, rounding aside */
	for (i = 1; i < pl.nranks; i++)
		ck_assert(pl.ranks[i] >= 1.2 * (double)pl.ranks[i - 1] &&
			  pl.ranks[i] <= 1.6 * (double)pl.ranks[i - 1]);
	ml_collective_plan_free(&pl);
	default_plan(128, 2, 2, 2678, &pl);
	ml_collective_plan_free(&pl);
}
END_TEST

/* The EPYC allocation (2 nodes of 2 x 64 cores), two placements, five
 * candidates: for every budget the rows fit it, P = 2 and 256 are in,
 * every cell has every candidate once, a size <= 4096 and one
 * above are in as soon as there are three sizes, and no two sizes are
 * over 16x apart as soon as there are eight. */
START_TEST(test_properties)
{
	static const long long budgets[] = {40, 41, 100, 335, 1000, 5000};
	struct ml_coll_plan_params pp;
	struct ml_coll_plan pl;
	size_t b, k;

	allocation(&pp, 128, 2, 2);
	pp.maps = 1u << ML_COLL_MAP_CORE | 1u << ML_COLL_MAP_NODE;
	pp.among = among2() | ML_COLL_AMONG(ML_COLL_CHAIN) |
		   ML_COLL_AMONG(ML_COLL_BINARY) |
		   ML_COLL_AMONG(ML_COLL_BINOMIAL);
	for (b = 0; b < sizeof budgets / sizeof *budgets; b++) {
		bool under = false, over = false, p2 = false, p256 = false;

		pp.budget = budgets[b];
		ck_assert_int_eq(ml_collective_plan(&pp, &pl, NULL), ML_OK);
		ck_assert_uint_le(pl.n, (size_t)budgets[b]);
		ck_assert_uint_eq(pl.n % 10, 0);
		for (k = 0; k < pl.n; k += 5) {
			/* A cell: five rows of one P, M and placement, the
			 * candidates in id order 0, 1, 2, 5, 6. */
			static const int ids[] = {0, 1, 2, 5, 6};
			int c;

			for (c = 0; c < 5; c++) {
				ck_assert_int_eq(pl.rows[k + c].alg, ids[c]);
				ck_assert_int_eq(pl.rows[k + c].ranks,
						 pl.rows[k].ranks);
				ck_assert_int_eq(pl.rows[k + c].msg,
						 pl.rows[k].msg);
				ck_assert_int_eq(pl.rows[k + c].map_by,
						 pl.rows[k].map_by);
			}
			p2 = p2 || pl.rows[k].ranks == 2;
			p256 = p256 || pl.rows[k].ranks == 256;
			under = under || pl.rows[k].msg <= 4096;
			over = over || pl.rows[k].msg > 4096;
		}
		ck_assert(p2 && p256 && under && over);
		if (pl.nmsgs >= 3)
			ck_assert(pl.msgs[0] == 1 &&
				  pl.msgs[pl.nmsgs - 1] == 1048576);
		/* 8 sizes can cover 1 B to 1 MiB with the eager limit's
		 * pair and no gap over 16x (1, 8, 64, 512, 4096, 8192,
		 * 65536, 1 MiB): from 8 the plan leaves none */
		for (k = 1; pl.nmsgs >= 8 && k < (size_t)pl.nmsgs; k++)
			ck_assert_int_le(pl.msgs[k], 16 * pl.msgs[k - 1]);
		ml_collective_plan_free(&pl);
	}
}
END_TEST

/* 4 nodes of 64, three candidates, the default budget: 16 process
 * counts, the i-th aiming at 2 128^(i/15): ... 51, 70, 97, 134, 185,
 * 256 (185.2 rounds to 185).  In Bruck's range (64 <= P < 256) all four
 * are not multiples of 4: by node the one nearest (in log) a free
 * multiple moves to it, 185 to 184 (ln 185/184 = 0.0054, against 97
 * to 96, 0.0104, 134 to 132 or 136, 0.015, 70 to 72, 0.028).  By core
 * the spacing stays. */
START_TEST(test_both_classes)
{
	static const long long want[2][4] = {{70, 97, 134, 184},
					     {70, 97, 134, 185}};
	struct ml_coll_plan_params pp;
	struct ml_coll_plan pl;
	size_t k, i;

	allocation(&pp, 64, 2, 4);
	pp.among = ML_COLL_AMONG(ML_COLL_DEFAULT) |
		   ML_COLL_AMONG(ML_COLL_BINARY) |
		   ML_COLL_AMONG(ML_COLL_BINOMIAL);
	for (k = 0; k < 2; k++) {
		pp.maps = 1u << (k == 0 ? ML_COLL_MAP_NODE : ML_COLL_MAP_CORE);
		ck_assert_int_eq(ml_collective_plan(&pp, &pl, NULL), ML_OK);
		ck_assert_int_eq(pl.nranks, 16);
		ck_assert_int_eq(pl.ranks[10], 51);
		for (i = 0; i < 4; i++)
			ck_assert_int_eq(pl.ranks[11 + i], want[k][i]);
		ck_assert_int_eq(pl.ranks[15], 256);
		ml_collective_plan_free(&pl);
	}
}
END_TEST

/* A budget under 2 P x 2 sizes x candidates x placements, and bad
 * allocations, name their parameter. */
START_TEST(test_errors)
{
	static const long long ranks[] = {2, 17};
	struct ml_coll_plan_params pp;
	struct ml_coll_plan pl;
	struct ml_diag d = {NULL, ""};

	init_4x4(&pp, 7);
	ck_assert_int_eq(ml_collective_plan(&pp, &pl, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, "budget");
	ck_assert_ptr_null(pl.rows);
	pp.budget = 8;
	ck_assert_int_eq(ml_collective_plan(&pp, &pl, &d), ML_OK);
	ck_assert_uint_eq(pl.n, 8);
	ml_collective_plan_free(&pl);
	pp.ranks = ranks;
	pp.nranks = 2;
	ck_assert_int_eq(ml_collective_plan(&pp, &pl, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, "ranks");
	pp.ranks = NULL;
	pp.sockets = 3;
	ck_assert_int_eq(ml_collective_plan(&pp, &pl, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, "sockets");
	pp.sockets = 1;
	pp.among = ML_COLL_AMONG(ML_COLL_MPICH_SMP);
	ck_assert_int_eq(ml_collective_plan(&pp, &pl, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, "among");
}
END_TEST

/* Lists: the plan chooses among the caller's P and sizes (here all of
 * them: 3 P x 3 sizes x 2 candidates = 18 <= 50). */
START_TEST(test_lists)
{
	static const long long ranks[] = {10, 3, 16}, msgs[] = {64, 8, 100000};
	struct ml_coll_plan_params pp;
	struct ml_coll_plan pl;

	init_4x4(&pp, 50);
	pp.ranks = ranks;
	pp.nranks = 3;
	pp.msgs = msgs;
	pp.nmsgs = 3;
	ck_assert_int_eq(ml_collective_plan(&pp, &pl, NULL), ML_OK);
	ck_assert_uint_eq(pl.n, 18);
	ck_assert_int_eq(pl.ranks[0], 3);
	ck_assert_int_eq(pl.ranks[2], 16);
	ck_assert_int_eq(pl.msgs[1], 64);
	ml_collective_plan_free(&pl);
}
END_TEST

/* Two P given, budget 24, 2 candidates: C = 12, nP = 2, nM = 6.  Sizes:
 * 1, 1 MiB, 4096, 8192, 64 (6 doublings from 1 and 4096), then the
 * sixth: 8, 512, 64 KiB and 128 KiB are each 3 doublings from the
 * nearest taken, and the gap 8192 to 1 MiB (7 doublings) is wider than
 * 1 to 64 or 64 to 4096 (6): 64 KiB, the lower of its two. */
START_TEST(test_ties_widest_gap)
{
	static const long long ranks[] = {2, 16},
			       M[] = {1, 64, 4096, 8192, 65536, 1048576};
	struct ml_coll_plan_params pp;
	struct ml_coll_plan pl;
	int i;

	init_4x4(&pp, 24);
	pp.ranks = ranks;
	pp.nranks = 2;
	ck_assert_int_eq(ml_collective_plan(&pp, &pl, NULL), ML_OK);
	ck_assert_int_eq(pl.nranks, 2);
	ck_assert_int_eq(pl.nmsgs, 6);
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(pl.msgs[i], M[i]);
	ml_collective_plan_free(&pl);
}
END_TEST

Suite *suite_plan(void);

Suite *suite_plan(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("plan");

	tcase_add_test(tc, test_by_hand);
	tcase_add_test(tc, test_default_budget);
	tcase_add_test(tc, test_default_budget_large);
	tcase_add_test(tc, test_properties);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_both_classes);
	tcase_add_test(tc, test_lists);
	tcase_add_test(tc, test_ties_widest_gap);
	suite_add_tcase(s, tc);
	return s;
}
