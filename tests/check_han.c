/*
 * check_han.c - Open MPI's coll/han broadcast (src/collective/han.c,
 * issue 47) and the root of Open MPI's tuned algorithms (programs.c's
 * rotation, issue 47).
 *
 * Every expected value is worked out by hand below from Open MPI's code
 * (v4.1.4: coll_han_bcast.c, coll_han_subcomms.c, libnbc's
 * nbc_ibcast.c, coll_base_bcast.c, the fixed decision of
 * coll_tuned_decision_fixed.c) on a LogP machine of round numbers (G =
 * 0, an overhead of 0.5 us a send, no NIC gap), or from what the real
 * Open MPI 4.1.4 sent under pml monitoring (notes/ompi_han.md: 2x2 and
 * 4x2 nodes, roots 0 and 3); tests/mpi/check-ompi-han.sh checks more
 * layouts against the real library.
 */
#include <check.h>
#include <string.h>

#include "mcastlat/collective.h"

Suite *suite_han(void);

#define PMAX 16

/* Per-pair message counts and bytes, and the messages in order. */
struct seen {
	long long n[PMAX][PMAX], b[PMAX][PMAX];
	long long k;
	struct ml_coll_msg m[256];
};

static int collect(void *arg, const struct ml_coll_msg *m)
{
	struct seen *s = arg;

	if (m->src < 0 || m->src >= PMAX || m->dst < 0 || m->dst >= PMAX)
		return 1;
	s->n[m->src][m->dst]++;
	s->b[m->src][m->dst] += m->bytes;
	if (s->k < 256)
		s->m[s->k] = *m;
	s->k++;
	return 0;
}

/* The round machine: L 0.2 us on a socket, 1 us between nodes, G 0,
 * overhead 0.5 us, no NIC gap, everything eager. */
static struct ml_collective_params machine(long long P, long long ppn,
					   long long M)
{
	struct ml_collective_params p;
	int c;

	ml_collective_params_init(&p);
	p.ranks = P;
	p.ppn = ppn;
	p.msg = M;
	for (c = 0; c < ML_COLL_NCHANNEL; c++) {
		p.byte[c] = 0;
		p.ebyte[c] = 0;
	}
	p.lat[ML_COLL_SOCKET] = 0.2;
	p.lat[ML_COLL_NODE] = 0.2;
	p.lat[ML_COLL_NET] = 1;
	p.overhead = 0.5;
	p.nic_gap = 0;
	p.eager = 1LL << 40;
	return p;
}

static void run(const struct ml_collective_params *p, struct seen *s,
		struct ml_collective_result *r)
{
	memset(s, 0, sizeof *s);
	ck_assert_int_eq(ml_collective_schedule(p, collect, s, r), ML_OK);
	ck_assert_int_eq(r->messages, s->k);
}

/*
 * 2 nodes x 2 ranks, 100 bytes, root 0 (one segment).  t0: tuned at
 * P = 2, 100 B is binary: 0 -> 2 (net) starts at 0, arrives at 1, the
 * port free at 0.5, when rank 0's wait ends.  Low, binary at P = 2:
 * 0 -> 1 at 0.5, arrives 0.7, rank 0 leaves at 1.0; rank 2 sends 2 -> 3
 * at 1, arriving at 1.2, and leaves at 1.5.  Times 1.0, 0.7, 1.5, 1.2:
 * max 1.5, mean 1.1, min 0.7; three messages (the real 4.1.4: 0->2,
 * 0->1, 2->3).
 */
START_TEST(test_2x2_timing)
{
	struct ml_collective_params p = machine(4, 2, 100);
	struct ml_collective_result r;
	struct seen s;

	p.algorithm = ML_COLL_HAN;
	run(&p, &s, &r);
	ck_assert_int_eq(r.ran, ML_COLL_HAN);
	ck_assert_int_eq(r.messages, 3);
	ck_assert_int_eq(r.segments, 1);
	ck_assert_int_eq(s.n[0][2], 1);
	ck_assert_int_eq(s.n[0][1], 1);
	ck_assert_int_eq(s.n[2][3], 1);
	ck_assert_double_eq_tol(r.latency, 1.5, 1e-12);
	ck_assert_double_eq_tol(r.latency_avg, 1.1, 1e-12);
	ck_assert_double_eq_tol(r.latency_min, 0.7, 1e-12);
	ck_assert_int_eq(r.ran_roots, ML_COLL_BINARY);
	ck_assert_int_eq(r.ran_node_first, ML_COLL_BINARY);
}
END_TEST

/* Root 3 (node 1, local 1): the up level is ranks 1 and 3, rooted at 3;
 * the real 4.1.4 sent 3->1, 3->2, 1->0.  The same times, relabelled:
 * 3 leaves at 1.0, 2 at 0.7, 1 at 1.5, 0 at 1.2. */
START_TEST(test_2x2_root3)
{
	struct ml_collective_params p = machine(4, 2, 100);
	struct ml_collective_result r;
	struct seen s;

	p.algorithm = ML_COLL_HAN;
	p.root = 3;
	run(&p, &s, &r);
	ck_assert_int_eq(r.messages, 3);
	ck_assert_int_eq(s.n[3][1], 1);
	ck_assert_int_eq(s.n[3][2], 1);
	ck_assert_int_eq(s.n[1][0], 1);
	ck_assert_double_eq_tol(s.m[0].arrival, 1.0, 1e-12); /* 3 -> 1 */
	ck_assert_double_eq_tol(r.latency, 1.5, 1e-12);
	ck_assert_double_eq_tol(r.latency_avg, 1.1, 1e-12);
}
END_TEST

/*
 * 4 nodes x 2 ranks, 200000 bytes, 64 KiB segments: S = 4 (3 x 65536 +
 * 3392).  t0: tuned at P = 4, 65536 B is linear: 0 -> 2, 4, 6.  The
 * ibcasts of segments 1-3: libnbc linear (4 nodes): 0 -> 2, 4, 6 again.
 * Low at P = 2: binary (65536 B) and linear (3392 B), one message a
 * segment: 2k -> 2k+1.  Four messages of 200000 bytes in all on each of
 * the seven pairs, 28 messages (the real 4.1.4: "0->2, 0->4, 0->6 four
 * times each").  Root 5 (node 2, local 1): the up level is 1, 3, 5, 7
 * from 5, each node's low root its local rank 1.
 */
START_TEST(test_4x2_segments)
{
	struct ml_collective_params p = machine(8, 2, 200000);
	struct ml_collective_result r;
	struct seen s;
	long long k;

	p.algorithm = ML_COLL_HAN;
	run(&p, &s, &r);
	ck_assert_int_eq(r.messages, 28);
	ck_assert_int_eq(r.segments, 4);
	for (k = 1; k < 4; k++) {
		ck_assert_int_eq(s.n[0][2 * k], 4);
		ck_assert_int_eq(s.b[0][2 * k], 200000);
	}
	for (k = 0; k < 4; k++) {
		ck_assert_int_eq(s.n[2 * k][2 * k + 1], 4);
		ck_assert_int_eq(s.b[2 * k][2 * k + 1], 200000);
	}
	ck_assert_int_eq(r.ran_node_last, ML_COLL_LINEAR);
	p.root = 5;
	run(&p, &s, &r);
	ck_assert_int_eq(r.messages, 28);
	ck_assert_int_eq(s.n[5][1], 4);
	ck_assert_int_eq(s.n[5][3], 4);
	ck_assert_int_eq(s.n[5][7], 4);
	for (k = 0; k < 4; k++)
		ck_assert_int_eq(s.b[2 * k + 1][2 * k], 200000);
}
END_TEST

/*
 * 8 nodes x 2 ranks, 200000 bytes: t0 is tuned's linear at P = 8
 * (65536 B >= 32768): the up root to each node once; segments 1-3 by
 * libnbc's binomial (8 nodes > 4), whose virtual ranks swap the root
 * and 0.  Root 6 (node 3): node 3 is virtual 0, node 0 virtual 3;
 * virtual children 0: 1, 2, 4; 1: 3, 5; 2: 6; 3: 7 -- nodes 3: 1, 2,
 * 4; 1: 0, 5; 2: 6; 0: 7, i.e. ranks 6 -> 2, 4, 8; 2 -> 0, 10;
 * 4 -> 12; 0 -> 14, three times each.
 */
START_TEST(test_8x2_binomial_swap)
{
	struct ml_collective_params p = machine(16, 2, 200000);
	struct ml_collective_result r;
	struct seen s;

	p.algorithm = ML_COLL_HAN;
	p.root = 6;
	run(&p, &s, &r);
	ck_assert_int_eq(s.n[6][2], 4);
	ck_assert_int_eq(s.n[6][4], 4);
	ck_assert_int_eq(s.n[6][8], 4);
	ck_assert_int_eq(s.n[6][0], 1);
	ck_assert_int_eq(s.n[6][10], 1);
	ck_assert_int_eq(s.n[6][12], 1);
	ck_assert_int_eq(s.n[6][14], 1);
	ck_assert_int_eq(s.n[2][0], 3);
	ck_assert_int_eq(s.n[2][10], 3);
	ck_assert_int_eq(s.n[4][12], 3);
	ck_assert_int_eq(s.n[0][14], 3);
	/* 7 + 7 x 3 across, 8 nodes x 4 within */
	ck_assert_int_eq(r.messages, 7 + 21 + 32);
}
END_TEST

/* The simple variant, and one segment (coll_han_bcast_segsize 0): the
 * up level once, then each node once.  4x2, 200000 B: t0 at P = 4 is
 * linear (3 messages); the low level at P = 2, 200000 B chain (1 each). */
START_TEST(test_simple_and_one_segment)
{
	struct ml_collective_params p = machine(8, 2, 200000);
	struct ml_collective_result r;
	struct seen s;

	p.algorithm = ML_COLL_HAN;
	p.han_simple = true;
	run(&p, &s, &r);
	ck_assert_int_eq(r.messages, 7);
	ck_assert_int_eq(r.segments, 1);
	ck_assert_int_eq(s.b[0][2], 200000);
	p.han_simple = false;
	p.han_segment = 0;
	run(&p, &s, &r);
	ck_assert_int_eq(r.messages, 7);
	ck_assert_int_eq(r.ran_node_first, ML_COLL_CHAIN);
}
END_TEST

/*
 * Two segments of 50 bytes (--han-segment 50, M = 100) on 2x2, root 0.
 * t0: binary at P = 2: 0 -> 2 at 0 (arrives 1), rank 0 free at 0.5.
 * t1(0): rank 0 posts the ibcast of segment 1 (libnbc linear) 0 -> 2 at
 * 0.5 (port until 1.0, arrives 1.5), then segment 0 inside its node,
 * 0 -> 1 waiting for the port: 1.0 to 1.2, port until 1.5; rank 2,
 * free at 1, sends 2 -> 3 at 1 (arrives 1.2, port until 1.5), then
 * waits for the ibcast's segment: 1.5.  t1(1): 0 -> 1 and 2 -> 3 at
 * 1.5, arriving 1.7, both senders free at 2.0.  Times 2, 1.7, 2, 1.7:
 * max 2, mean 1.85; six messages, two a pair.
 */
START_TEST(test_2x2_two_segments)
{
	struct ml_collective_params p = machine(4, 2, 100);
	struct ml_collective_result r;
	struct seen s;

	p.algorithm = ML_COLL_HAN;
	p.han_segment = 50;
	run(&p, &s, &r);
	ck_assert_int_eq(r.segments, 2);
	ck_assert_int_eq(r.messages, 6);
	ck_assert_int_eq(s.n[0][2], 2);
	ck_assert_int_eq(s.n[0][1], 2);
	ck_assert_int_eq(s.n[2][3], 2);
	ck_assert_double_eq_tol(r.latency, 2, 1e-12);
	ck_assert_double_eq_tol(r.latency_avg, 1.85, 1e-12);
}
END_TEST

/*
 * 5 nodes x 2, two segments of 50 bytes, root 0: libnbc's binomial.
 * t0 is binary at P = 5, 50 B (build_tree(2): 0: 1, 2; 1: 3; 2: 4 in up
 * ranks): 0 -> 2 (arrives 1), 0 -> 4 (at 0.5: 1.5), rank 0 free at 1;
 * 2 -> 6 (at 1: 2), free at 1.5.  Segment 1 by libnbc's binomial (nodes
 * 0: 1, 2, 4; 1: 3): rank 0 posts 0 -> 2, 4, 8 at 1 (starting 1, 1.5, 2:
 * arriving 2, 2.5, 3), then 0 -> 1 (start 2.5, arrives 2.7), free at 3;
 * segment 1 0 -> 1 at 3 (3.2): leaves at 3.5.  Rank 8's receive side
 * serves 0 -> 8 first (posted at 1, arriving at 3), so 4 -> 8, posted at
 * 1.5, starts at 3 - L = 2 and arrives at 3, rank 4 free at 2.5.  Rank 2
 * posts 2 -> 3 at 1.5 (1.7, port to 2), gets segment 1 at 2, forwards
 * 2 -> 6 at 2 (3), free at 2.5; 2 -> 3 at 2.5 (2.7): 3.  Rank 4: 4 -> 5
 * at 2.5 (2.7), free at 3, 4 -> 5 (3.2): 3.5.  Rank 6: 6 -> 7 at 2
 * (2.2), segment 1 at 3, 6 -> 7 (3.2): 3.5.  Rank 8: t0 and segment 1 at
 * 3, 8 -> 9 at 3 (3.2), at 3.5 (3.7): 4.  The odd ranks leave at their
 * second arrival: 3.2, 2.7, 3.2, 3.2, 3.7.  Max 4, mean 33.5 / 10, min
 * 2.7; 4 + 4 + 10 messages.
 */
START_TEST(test_5x2_binomial_timing)
{
	struct ml_collective_params p = machine(10, 2, 100);
	struct ml_collective_result r;
	struct seen s;

	p.algorithm = ML_COLL_HAN;
	p.han_segment = 50;
	run(&p, &s, &r);
	ck_assert_int_eq(r.messages, 18);
	ck_assert_int_eq(s.n[0][2], 2);
	ck_assert_int_eq(s.n[0][4], 2);
	ck_assert_int_eq(s.n[0][8], 1);
	ck_assert_int_eq(s.n[4][8], 1);
	ck_assert_int_eq(s.n[2][6], 2);
	ck_assert_double_eq_tol(r.latency, 4, 1e-12);
	ck_assert_double_eq_tol(r.latency_avg, 3.35, 1e-12);
	ck_assert_double_eq_tol(r.latency_min, 2.7, 1e-12);
}
END_TEST

/* han's conditions, else tuned's fixed decision on the whole
 * communicator: 3 + 2 ranks (P = 5, 100 B: binomial), one rank a node
 * (P = 4, 100 B: binomial, 64 <= M < 128), one node. */
START_TEST(test_fallback)
{
	struct ml_collective_params p = machine(5, 3, 100);
	struct ml_collective_result r;

	p.algorithm = ML_COLL_HAN;
	ck_assert(!ml_collective_han_takes(&p));
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.ran, ML_COLL_BINOMIAL);
	p = machine(4, 1, 100);
	p.algorithm = ML_COLL_HAN;
	ck_assert(!ml_collective_han_takes(&p));
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.ran, ML_COLL_BINOMIAL);
	p = machine(4, 4, 100);
	ck_assert(!ml_collective_han_takes(&p));
	p = machine(8, 4, 100);
	p.map_by = ML_COLL_MAP_NODE;
	p.nodes = 4; /* 2 a node, round robin */
	ck_assert(ml_collective_han_takes(&p));
	p.nodes = 3; /* 3 + 3 + 2 */
	ck_assert(!ml_collective_han_takes(&p));
}
END_TEST

/* --map-by node, 2 nodes of 4 cores, 8 ranks: node 0 holds 0, 2, 4, 6.
 * 100 B: t0 binary 0 -> 1; low at P = 4, 100 B: binomial (64 <= M <
 * 128) over local ranks, bmtree 0: 1, 2; 1: 3 -- world 0 -> 2, 0 -> 4,
 * 2 -> 6 and 1 -> 3, 1 -> 5, 3 -> 7. */
START_TEST(test_map_by_node)
{
	struct ml_collective_params p = machine(8, 4, 100);
	struct ml_collective_result r;
	struct seen s;

	p.map_by = ML_COLL_MAP_NODE;
	p.nodes = 2;
	p.algorithm = ML_COLL_HAN;
	run(&p, &s, &r);
	ck_assert_int_eq(r.messages, 7);
	ck_assert_int_eq(s.n[0][1], 1);
	ck_assert_int_eq(s.n[0][2], 1);
	ck_assert_int_eq(s.n[0][4], 1);
	ck_assert_int_eq(s.n[2][6], 1);
	ck_assert_int_eq(s.n[1][3], 1);
	ck_assert_int_eq(s.n[1][5], 1);
	ck_assert_int_eq(s.n[3][7], 1);
}
END_TEST

/* The version: 5.0's default runs han where han takes the broadcast,
 * 4.1's tuned's fixed decision (P = 4, 100 B: binomial). */
START_TEST(test_version_default)
{
	struct ml_collective_params p = machine(4, 2, 100);
	struct ml_collective_result r;

	p.algorithm = ML_COLL_DEFAULT;
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.ran, ML_COLL_BINOMIAL);
	p.ompi_version = ML_COLL_OMPI_50;
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.ran, ML_COLL_HAN);
	ck_assert_double_eq_tol(r.latency, 1.5, 1e-12);
	p = machine(4, 1, 100);
	p.ompi_version = ML_COLL_OMPI_50;
	p.algorithm = ML_COLL_DEFAULT;
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.ran, ML_COLL_BINOMIAL);
	p.ompi_version = (enum ml_coll_ompi_version)7;
	ck_assert_int_eq(ml_collective_validate(&p, NULL), ML_EINVAL);
	p.ompi_version = ML_COLL_OMPI_41;
	p.han_segment = -1;
	ck_assert_int_eq(ml_collective_validate(&p, NULL), ML_EINVAL);
}
END_TEST

/* best --among han: a candidate only when named; all leaves it out. */
START_TEST(test_best_among)
{
	struct ml_collective_params p = machine(4, 2, 100);
	struct ml_coll_pick pick;

	ck_assert_int_eq(ml_collective_best_among(&p, ML_COLL_AMONG(ML_COLL_HAN),
						  ML_COLL_BY_LATENCY, NULL, 0.9,
						  &pick),
			 ML_OK);
	ck_assert_int_eq(pick.alg, ML_COLL_HAN);
	ck_assert_double_eq_tol(pick.r.latency, 1.5, 1e-12);
	ck_assert(!(ML_COLL_AMONG_ALL & ML_COLL_AMONG(ML_COLL_HAN)));
}
END_TEST

/* ---- the root of the tuned algorithms ------------------------------ */

/*
 * Binomial, P = 8 on 8 nodes, root 3.  Root 0 by the LogP recursion:
 * the root sends to 1, 2, 4 at 0, 0.5, 1 (arrivals 1, 1.5, 2); 1 to 3,
 * 5 at 1, 1.5 (2, 2.5); 2 to 6 at 1.5 (2.5); 3 to 7 at 2 (3).  Root 3
 * runs the same tree on ranks v + 3 mod 8: 3 -> 4, 5, 7; 4 -> 6, 0;
 * 5 -> 1; 6 -> 2, with those arrivals.
 */
START_TEST(test_root_binomial)
{
	struct ml_collective_params p = machine(8, 1, 100);
	struct ml_collective_result r;
	struct seen s;
	static const struct {
		long long src, dst;
		double arrival;
	} want[] = {{3, 4, 1},	 {3, 5, 1.5}, {3, 7, 2},   {4, 6, 2},
		    {4, 0, 2.5}, {5, 1, 2.5}, {6, 2, 3}};
	size_t i, k;

	p.algorithm = ML_COLL_BINOMIAL;
	p.root = 3;
	run(&p, &s, &r);
	ck_assert_int_eq(r.messages, 7);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		for (k = 0; k < 7; k++)
			if (s.m[k].src == want[i].src && s.m[k].dst == want[i].dst)
				break;
		ck_assert_msg(k < 7, "no %lld -> %lld", want[i].src,
			      want[i].dst);
		ck_assert_double_eq_tol(s.m[k].arrival, want[i].arrival, 1e-12);
	}
	ck_assert_double_eq_tol(r.latency, 3, 1e-12);
}
END_TEST

/* Linear sends in real rank order whatever the root (coll_base_bcast.c:
 * for i = 0 .. size-1, skipping the root): root 2 of 4 sends to 0, 1, 3,
 * arriving at 1, 1.5, 2. */
START_TEST(test_root_linear_order)
{
	struct ml_collective_params p = machine(4, 1, 100);
	struct ml_collective_result r;
	struct seen s;

	p.algorithm = ML_COLL_LINEAR;
	p.root = 2;
	run(&p, &s, &r);
	ck_assert_int_eq(s.m[0].dst, 0);
	ck_assert_int_eq(s.m[1].dst, 1);
	ck_assert_int_eq(s.m[2].dst, 3);
	ck_assert_double_eq_tol(s.m[2].arrival, 2, 1e-12);
}
END_TEST

/*
 * Where the root sits matters on nodes: P = 4, 2 a node, binomial.
 * Root 0: 0 -> 1 (socket, 0.2), 0 -> 2 (net, at 0.5: 1.5), 1 -> 3 (net,
 * at 0.2: 1.2): latency 1.5.  Root 1: v = r - 1: 1 -> 2 (net, 1),
 * 1 -> 3 (net, at 0.5: 1.5), 2 -> 0 (net, at 1: 2): latency 2, times
 * 2, 1, 1.5, 1.5, mean 1.5.
 */
START_TEST(test_root_on_nodes)
{
	struct ml_collective_params p = machine(4, 2, 100);
	struct ml_collective_result r;

	p.algorithm = ML_COLL_BINOMIAL;
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.latency, 1.5, 1e-12);
	p.root = 1;
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.latency, 2, 1e-12);
	ck_assert_double_eq_tol(r.latency_avg, 1.5, 1e-12);
}
END_TEST

/* Every tuned algorithm but linear runs in virtual ranks: root R's
 * messages are root 0's with both ends moved by R (mod P), bytes and
 * all (7 ranks, 1000 B, 100-byte segments, root 3). */
START_TEST(test_root_rotation)
{
	struct ml_collective_params p = machine(7, 1, 1000);
	struct ml_collective_result r;
	struct seen s0, s3;
	long long a, b;

	p.algorithm = (enum ml_coll_alg)(_i + 2);
	p.segment = 100;
	p.fanout = 2;
	run(&p, &s0, &r);
	p.root = 3;
	run(&p, &s3, &r);
	for (a = 0; a < 7; a++)
		for (b = 0; b < 7; b++) {
			ck_assert_int_eq(s3.n[(a + 3) % 7][(b + 3) % 7],
					 s0.n[a][b]);
			ck_assert_int_eq(s3.b[(a + 3) % 7][(b + 3) % 7],
					 s0.b[a][b]);
		}
}
END_TEST

Suite *suite_han(void)
{
	Suite *s = suite_create("han");
	TCase *tc = tcase_create("han");
	TCase *tr = tcase_create("root");

	tcase_add_test(tc, test_2x2_timing);
	tcase_add_test(tc, test_2x2_root3);
	tcase_add_test(tc, test_4x2_segments);
	tcase_add_test(tc, test_2x2_two_segments);
	tcase_add_test(tc, test_5x2_binomial_timing);
	tcase_add_test(tc, test_8x2_binomial_swap);
	tcase_add_test(tc, test_simple_and_one_segment);
	tcase_add_test(tc, test_fallback);
	tcase_add_test(tc, test_map_by_node);
	tcase_add_test(tc, test_version_default);
	tcase_add_test(tc, test_best_among);
	suite_add_tcase(s, tc);
	tcase_add_test(tr, test_root_binomial);
	tcase_add_test(tr, test_root_linear_order);
	tcase_add_test(tr, test_root_on_nodes);
	tcase_add_loop_test(tr, test_root_rotation, 0, 8); /* ids 2-9 */
	suite_add_tcase(s, tr);
	return s;
}
