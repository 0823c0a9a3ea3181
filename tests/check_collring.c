/*
 * check_collring.c - the recurrences that time some algorithms without
 * the event queue, the ring's (src/collective/ring.c) and the
 * unsegmented trees' and linear's (src/collective/once.c), against the
 * event engine (src/collective/engine.c), the independent method: on
 * random machines and points the two must give the same bits, and the
 * ring's recurrence must vouch for nearly every point it is offered
 * (else it is no fast path; the trees' always does).
 *
 * The engine is reached through ml_collective_schedule with a callback
 * that only counts: a schedule is printed in the engine's own order, so
 * it never takes the recurrence.  ml_collective_eval takes it.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collective/coll_int.h"
#include "mcastlat/collective.h"

Suite *suite_collring(void);

/* A fixed 64-bit LCG (Knuth's MMIX constants): the same cases on every
 * machine, without the C library's rand. */
static uint64_t lcg_next(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 11;
}

/* In [0, 1). */
static double unif(uint64_t *s)
{
	return (double)lcg_next(s) / 9007199254740992.0; /* 2^53 */
}

static long long pick_ll(uint64_t *s, long long lo, long long hi)
{
	return lo + (long long)(lcg_next(s) % (uint64_t)(hi - lo + 1));
}

/* A time: zero now and then (ties are where orders differ), else a
 * log-uniform value over [lo, hi]. */
static double pick_time(uint64_t *s, double lo, double hi, int zero_odds)
{
	if (zero_odds && lcg_next(s) % (uint64_t)zero_odds == 0)
		return 0;
	return lo * pow(hi / lo, unif(s));
}

static int count_msg(void *arg, const struct ml_coll_msg *m)
{
	(void)m;
	++*(long long *)arg;
	return 0;
}

static int same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* Case k: a random machine of one rank a node and a point on it. */
static void ring_case(int k, struct ml_collective_params *p)
{
	uint64_t s = 0x9e3779b97f4a7c15ULL ^ (uint64_t)k * 0x100000001b3ULL;
	static const long long eager[] = {0, 1, 64, 4096, 65536, 1LL << 40};
	int c;

	lcg_next(&s);
	ml_collective_params_init(p);
	p->algorithm = ML_COLL_SCATTER_ALLGATHER_RING;
	p->ranks = pick_ll(&s, 2, 160);
	/* M from just above P (ragged last blocks, empty ones) to 8 MB */
	p->msg = p->ranks + (long long)pick_time(&s, 1, 8388608, 5);
	for (c = 0; c < ML_COLL_NCHANNEL; c++) {
		p->lat[c] = pick_time(&s, 0.01, 10, 9);
		p->byte[c] = pick_time(&s, 1e-6, 1e-3, 9);
		/* the eager copy on half the machines */
		p->ebyte[c] = lcg_next(&s) % 2 ? pick_time(&s, 1e-6, 1e-3, 9)
					       : 0;
	}
	p->overhead = pick_time(&s, 1e-4, 2, 4);
	p->nic_gap = pick_time(&s, 1e-3, 3, 4);
	p->eager = eager[lcg_next(&s) % (sizeof eager / sizeof *eager)];
	if (lcg_next(&s) % 4 == 0)
		p->nodes = p->ranks + pick_ll(&s, 0, 50);
}

#define NRING 400

/* Case k of several ranks a node: case k's machine (channels, eager
 * copy, overhead, NIC gap, eager limit) with ppn cores in sockets,
 * each --map-by, a node count of its own now and then; --map-by node
 * on 2 .. P - 1 nodes is the engine's (ml_coll_ring_fits), and must
 * agree all the same. */
static void ring_case_ppn(int k, struct ml_collective_params *p)
{
	static const long long ppns[] = {2, 3, 4, 6, 8, 12, 16, 24, 32};
	static const enum ml_coll_map maps[] = {
	    ML_COLL_MAP_CORE, ML_COLL_MAP_SOCKET, ML_COLL_MAP_NODE};
	uint64_t s =
	    0x2545f4914f6cdd1dULL ^ (uint64_t)k * 0x9e3779b97f4a7c15ULL;
	long long need, socks[4], ns = 0, d;

	ring_case(k, p);
	lcg_next(&s);
	p->ranks = pick_ll(&s, 2, 200);
	p->msg = p->ranks + (long long)pick_time(&s, 1, 8388608, 5);
	p->ppn = ppns[lcg_next(&s) % (sizeof ppns / sizeof *ppns)];
	for (d = 1; d <= 4; d++)
		if (p->ppn % d == 0)
			socks[ns++] = d;
	p->sockets = socks[lcg_next(&s) % (uint64_t)ns];
	p->map_by = maps[lcg_next(&s) % 3];
	need = (p->ranks + p->ppn - 1) / p->ppn;
	switch (lcg_next(&s) % 6) {
	case 0:
		p->nodes = need + pick_ll(&s, 0, 20);
		break;
	case 1: /* a node per rank, or every rank on one */
		p->nodes = p->ranks <= p->ppn && lcg_next(&s) % 2
			       ? 1
			       : p->ranks + pick_ll(&s, 0, 5);
		break;
	default:
		p->nodes = 0;
	}
	/* A NIC slower than everything else now and then: its queue, and
	 * so its order, decide the times. */
	if (lcg_next(&s) % 3 == 0)
		p->nic_gap = pick_time(&s, 1, 100, 0);
}

/* Case k for the trees: an algorithm of prog_generic or linear, its
 * tree's argument, unsegmented mostly (segmented ones and split-binary
 * are the engine's, and must agree all the same). */
static void tree_case(int k, struct ml_collective_params *p)
{
	static const enum ml_coll_alg algs[] = {
	    ML_COLL_LINEAR,	 ML_COLL_CHAIN,	   ML_COLL_PIPELINE,
	    ML_COLL_BINARY,	 ML_COLL_BINOMIAL, ML_COLL_KNOMIAL,
	    ML_COLL_SPLIT_BINARY};
	uint64_t s = 0x51ed27a3ULL ^ (uint64_t)k * 0x9e3779b97f4a7c15ULL;

	ring_case(k + NRING, p);
	lcg_next(&s);
	p->algorithm = algs[lcg_next(&s) % (sizeof algs / sizeof *algs)];
	p->ranks = pick_ll(&s, 2, 700);
	p->msg = pick_ll(&s, 1, 4) == 1 ? pick_ll(&s, 1, 64)
					: (long long)pick_time(&s, 1, 1e7, 0);
	p->fanout = pick_ll(&s, 0, 32);
	p->radix = pick_ll(&s, 2, 9);
	/* a few thousand segments at most: the engine's side is slow */
	p->segment = lcg_next(&s) % 5 == 0
			 ? pick_ll(&s, p->msg / 2000 + 1, p->msg + 1)
			 : 0;
	if (p->nodes > 0)
		p->nodes = p->ranks + pick_ll(&s, 0, 50);
}

/*
 * Eval (which takes the recurrence where it applies) and schedule (the
 * engine, always) give the same bits for case i, described by what;
 * *slow gets the engine's result.
 */
static void fast_equals_engine(int i, const struct ml_collective_params *p,
			       const char *what,
			       struct ml_collective_result *slow)
{
	struct ml_collective_result fast;
	long long n = 0;

	ck_assert_int_eq(ml_collective_eval(p, &fast), ML_OK);
	ck_assert_int_eq(ml_collective_schedule(p, count_msg, &n, slow),
			 ML_OK);
	ck_assert_msg(same_bits(fast.latency, slow->latency) &&
			  same_bits(fast.latency_avg, slow->latency_avg) &&
			  same_bits(fast.latency_min, slow->latency_min),
		      "case %d (%s M %lld eager %lld): recurrence %.17g %.17g "
		      "%.17g, engine %.17g %.17g %.17g",
		      i, what, p->msg, p->eager, fast.latency,
		      fast.latency_avg, fast.latency_min, slow->latency,
		      slow->latency_avg, slow->latency_min);
	ck_assert_int_eq(fast.messages, slow->messages);
	ck_assert_int_eq(fast.messages, n);
	ck_assert_int_eq(fast.segments, slow->segments);
	ck_assert_int_eq(fast.ran, slow->ran);
}

START_TEST(test_ring_equals_engine)
{
	struct ml_collective_params p;
	struct ml_collective_result slow;
	char what[64];

	ring_case(_i, &p);
	snprintf(what, sizeof what, "P %lld", p.ranks);
	fast_equals_engine(_i, &p, what, &slow);
}
END_TEST

/* The same with several ranks a node: the NICs shared.  And the
 * recurrence run directly, even where ml_coll_ring_fits would not
 * offer it (--map-by node on a few nodes): where it vouches for a
 * point, its NIC checks passed, and it must be right. */
START_TEST(test_ring_ppn_equals_engine)
{
	struct ml_collective_params p;
	struct ml_collective_result fast, slow;
	struct coll_alg a;
	char what[128];
	void *buf;

	ring_case_ppn(_i, &p);
	snprintf(what, sizeof what,
		 "P %lld ppn %lld sockets %lld map %d nodes %lld", p.ranks,
		 p.ppn, p.sockets, (int)p.map_by, p.nodes);
	fast_equals_engine(_i, &p, what, &slow);
	ck_assert_int_eq(ml_coll_alg_setup(&p, &a), ML_OK);
	buf = malloc(ml_coll_ring_size(&p));
	ck_assert_ptr_nonnull(buf);
	if (ml_coll_ring_run(&p, &a, buf, &fast))
		ck_assert_msg(
		    same_bits(fast.latency, slow.latency) &&
			same_bits(fast.latency_avg, slow.latency_avg) &&
			same_bits(fast.latency_min, slow.latency_min),
		    "case %d run directly: recurrence %.17g, "
		    "engine %.17g",
		    _i, fast.latency, slow.latency);
	free(buf);
}
END_TEST

/* The same for the trees and linear (once.c). */
START_TEST(test_tree_equals_engine)
{
	struct ml_collective_params p;
	struct ml_collective_result fast, slow;
	struct coll_alg a;
	char what[96];

	tree_case(_i, &p);
	snprintf(what, sizeof what, "%s P %lld seg %lld",
		 ml_collective_alg_name(p.algorithm), p.ranks, p.segment);
	fast_equals_engine(_i, &p, what, &slow);
	/* Where it fits, the recurrence answers (no order to vouch for). */
	ck_assert_int_eq(ml_coll_alg_setup(&p, &a), ML_OK);
	if (ml_coll_once_fits(&p, &a)) {
		double *t = malloc((size_t)p.ranks * sizeof *t);

		ck_assert_ptr_nonnull(t);
		ck_assert_int_eq(ml_coll_once_run(&p, &a, t, &fast), 1);
		ck_assert(same_bits(fast.latency, slow.latency));
		free(t);
	}
}
END_TEST

/* Of the NRING cases of make_case, how many ml_coll_ring_fits offers
 * to the recurrence (M < P falls back to linear), and how many of those
 * the recurrence vouches for. */
static void ring_taken(void (*make_case)(int, struct ml_collective_params *),
		       int *offered, int *taken)
{
	struct ml_collective_params p;
	struct ml_collective_result r;
	struct coll_alg a;
	void *buf;
	int k;

	*offered = *taken = 0;
	for (k = 0; k < NRING; k++) {
		make_case(k, &p);
		ck_assert_int_eq(ml_coll_alg_setup(&p, &a), ML_OK);
		if (!ml_coll_ring_fits(&p, &a))
			continue;
		buf = malloc(ml_coll_ring_size(&p));
		ck_assert_ptr_nonnull(buf);
		(*offered)++;
		*taken += ml_coll_ring_run(&p, &a, buf, &r);
		free(buf);
	}
}

/* The recurrence vouches for the points of a machine with nonzero
 * times (all but a few of the cases above), and declines --map-by node
 * on a few nodes and the other algorithms. */
START_TEST(test_ring_taken)
{
	struct ml_collective_params p;
	struct coll_alg a;
	int taken, offered;

	ring_taken(ring_case, &offered, &taken);
	ck_assert_int_ge(offered, NRING * 9 / 10);
	ck_assert_msg(taken >= offered * 9 / 10, "taken %d of %d", taken,
		      offered);

	/* Several ranks a node: each NIC one ring pair's, bar --map-by
	 * node on 2 .. P - 1 nodes. */
	ring_taken(ring_case_ppn, &offered, &taken);
	ck_assert_int_ge(offered, NRING * 6 / 10);
	ck_assert_msg(taken >= offered * 9 / 10, "ppn: taken %d of %d", taken,
		      offered);

	ml_collective_params_init(&p);
	p.algorithm = ML_COLL_SCATTER_ALLGATHER_RING;
	p.ranks = 64;
	p.msg = 1 << 20;
	p.ppn = 8;
	ck_assert_int_eq(ml_coll_alg_setup(&p, &a), ML_OK);
	ck_assert(ml_coll_ring_fits(&p, &a));
	p.map_by = ML_COLL_MAP_NODE;
	ck_assert_int_eq(ml_coll_alg_setup(&p, &a), ML_OK);
	ck_assert(!ml_coll_ring_fits(&p, &a));
	p.map_by = ML_COLL_MAP_CORE;
	p.ppn = 1;
	p.algorithm = ML_COLL_SCATTER_ALLGATHER;
	ck_assert_int_eq(ml_coll_alg_setup(&p, &a), ML_OK);
	ck_assert(!ml_coll_ring_fits(&p, &a));
	p.algorithm = ML_COLL_SCATTER_ALLGATHER_RING;
	p.msg = 63; /* Open MPI falls back to linear */
	ck_assert_int_eq(ml_coll_alg_setup(&p, &a), ML_OK);
	ck_assert(!ml_coll_ring_fits(&p, &a));
}
END_TEST

/* Every time zero but the NIC's gap (case bit 0) and the bytes
 * (bit 1), eager or not (bit 2), a rank a node or four in two sockets
 * (bit 3): everything at once, where the engine's order of ties is
 * all there is.  The recurrence may decline; eval must still agree. */
START_TEST(test_ring_zero_machine)
{
	struct ml_collective_params p;
	struct ml_collective_result fast, slow;
	long long n = 0;
	int c;

	ml_collective_params_init(&p);
	p.algorithm = ML_COLL_SCATTER_ALLGATHER_RING;
	p.ranks = 12;
	p.msg = 1000;
	for (c = 0; c < ML_COLL_NCHANNEL; c++)
		p.lat[c] = p.byte[c] = 0;
	p.overhead = 0;
	p.nic_gap = _i & 1 ? 1 : 0;
	p.byte[ML_COLL_NET] = _i & 2 ? 1e-3 : 0;
	p.eager = _i & 4 ? 0 : 4096;
	if (_i & 8) {
		p.ppn = 4;
		p.sockets = 2;
	}
	ck_assert_int_eq(ml_collective_eval(&p, &fast), ML_OK);
	ck_assert_int_eq(ml_collective_schedule(&p, count_msg, &n, &slow),
			 ML_OK);
	ck_assert(same_bits(fast.latency, slow.latency));
	ck_assert(same_bits(fast.latency_avg, slow.latency_avg));
	ck_assert(same_bits(fast.latency_min, slow.latency_min));
	ck_assert_int_eq(fast.messages, slow.messages);
}
END_TEST

Suite *suite_collring(void)
{
	Suite *s = suite_create("collring");
	TCase *tc = tcase_create("ring");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_ring_equals_engine, 0, NRING);
	tcase_add_loop_test(tc, test_ring_ppn_equals_engine, 0, NRING);
	tcase_add_loop_test(tc, test_tree_equals_engine, 0, NRING);
	tcase_add_test(tc, test_ring_taken);
	tcase_add_loop_test(tc, test_ring_zero_machine, 0, 16);
	suite_add_tcase(s, tc);
	return s;
}
