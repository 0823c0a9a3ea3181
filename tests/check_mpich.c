/*
 * check_mpich.c - MPICH 4.0.2's broadcasts (SPEC 11, collective.h with
 * library ML_COLL_MPICH; src/collective/mpich_*.c) and its JSON tuning
 * file (src/cli/commands/collective_mpich.c).
 *
 * Every expected value comes from outside the implementation:
 *   - the decision at each boundary from the two tables of
 *     notes/mpich_bcast.md section 2 (read from MPICH's ch4/generic.json
 *     and mpir/generic.json at tag v4.0.2), written below as data;
 *   - each algorithm's messages from constructions of this file: the
 *     binomial tree by its parent relation (rel - lowbit(rel)), the
 *     scatter by the byte ranges each subtree owns, the ring by the block
 *     each rank forwards at each step, recursive doubling for powers of
 *     two by the aligned groups each rank holds; compared as per-pair
 *     totals (messages and bytes), which is what the real MPICH is
 *     checked on (tests/mpi/check-mpich.sh);
 *   - the non-power-of-two recursive doubling at P = 3 by hand (written
 *     out below), and at P = 6 from the real MPICH's trace (Debian's
 *     4.0.2, bcast_trace, MPIR_CVAR_BCAST_INTRA_ALGORITHM forced);
 *   - the compositions on several nodes from SPEC 10.2's placement and
 *     MPICH's communicator construction (node roots in node order, each
 *     node's ranks in rank order), by hand;
 *   - any root: the algorithms' relative ranks, (rank - root) mod n,
 *     applied to the constructions above, and alpha's and beta's steps
 *     for a root that is not its node's rank 0 (ch4_coll_impl.h at
 *     v4.0.2), by hand.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands/collective_mpich.h"
#include "mcastlat/collective.h"

Suite *suite_mpich(void);

#define PMAX 64

/* Per-pair totals: n[s][d] messages and b[s][d] bytes. */
struct totals {
	long long n[PMAX][PMAX], b[PMAX][PMAX];
	long long messages;
};

static void add(struct totals *t, long long s, long long d, long long bytes)
{
	ck_assert(s >= 0 && s < PMAX && d >= 0 && d < PMAX && s != d);
	ck_assert(bytes >= 0);
	t->n[s][d]++;
	t->b[s][d] += bytes;
	t->messages++;
}

static int collect(void *arg, const struct ml_coll_msg *m)
{
	add(arg, m->src, m->dst, m->bytes);
	return 0;
}

static void params(struct ml_collective_params *p, enum ml_coll_alg a,
		   long long P, long long M, long long ppn)
{
	ml_collective_params_init(p);
	p->library = ML_COLL_MPICH;
	p->algorithm = a;
	p->ranks = P;
	p->msg = M;
	p->ppn = ppn;
}

/* The model's totals at *p, and its result. */
static void model(const struct ml_collective_params *p, struct totals *t,
		  struct ml_collective_result *r)
{
	memset(t, 0, sizeof *t);
	ck_assert_int_eq(ml_collective_schedule(p, collect, t, r), ML_OK);
	ck_assert_int_eq(r->messages, t->messages);
}

static void same(const struct totals *got, const struct totals *want,
		 long long P, const char *what)
{
	long long s, d;

	for (s = 0; s < P; s++)
		for (d = 0; d < P; d++)
			ck_assert_msg(got->n[s][d] == want->n[s][d] &&
					  got->b[s][d] == want->b[s][d],
				      "%s: %lld -> %lld: %lld messages %lld "
				      "bytes, expected %lld, %lld",
				      what, s, d, got->n[s][d], got->b[s][d],
				      want->n[s][d], want->b[s][d]);
	ck_assert_int_eq(got->messages, want->messages);
}

static long long lowbit(long long x)
{
	return x & -x;
}

static long long clamp(long long x, long long lo, long long hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

/* ---- constructions ------------------------------------------------- */

/* Binomial: every rank but the root gets the message once from
 * rel - lowbit(rel); ranks[] maps view index to rank. */
static void ref_binomial(struct totals *t, const long long *ranks, long long n,
			 long long M)
{
	long long r;

	for (r = 1; r < n; r++)
		add(t, ranks[r - lowbit(r)], ranks[r], M);
}

/* The scatter: rel r > 0 owns blocks [r, r + lowbit(r)) (the root all),
 * of ss = ceil(M / n) bytes, clipped to the message; it gets its whole
 * range from its parent when the range holds a byte. */
static void ref_scatter(struct totals *t, long long n, long long M)
{
	long long ss = (M + n - 1) / n, r, end, bytes;

	for (r = 1; r < n; r++) {
		end = clamp((r + lowbit(r)) * ss, 0, M);
		bytes = end - clamp(r * ss, 0, M);
		if (bytes > 0)
			add(t, r - lowbit(r), r, bytes);
	}
}

/* Block b's bytes. */
static long long block(long long b, long long n, long long M)
{
	long long ss = (M + n - 1) / n;

	return clamp(M - b * ss, 0, ss);
}

/* The ring: at step i = 1 .. n-1 rank r passes block r - i + 1 to r + 1,
 * empty blocks included. */
static void ref_ring(struct totals *t, long long n, long long M)
{
	long long r, i;

	ref_scatter(t, n, M);
	for (i = 1; i < n; i++)
		for (r = 0; r < n; r++)
			add(t, r, (r + 1) % n,
			    block((r - i + 1 + n) % n, n, M));
}

/* Recursive doubling, n a power of two: at the step of mask, r sends
 * r ^ mask the blocks of its aligned group of mask ranks. */
static void ref_srd_pow2(struct totals *t, long long n, long long M)
{
	long long r, mask, g, k, bytes;

	ref_scatter(t, n, M);
	for (mask = 1; mask < n; mask <<= 1)
		for (r = 0; r < n; r++) {
			g = r & ~(mask - 1);
			for (bytes = 0, k = g; k < g + mask; k++)
				bytes += block(k, n, M);
			add(t, r, r ^ mask, bytes);
		}
}

/* ---- the decision -------------------------------------------------- */

static const struct {
	long long P, n;
	int parent;
	enum ml_coll_composition comp;
} comp_cases[] = {
    {2, 1, 1, ML_COLL_COMP_ALPHA},	   {7, 1 << 20, 1, ML_COLL_COMP_ALPHA},
    {8, 12287, 1, ML_COLL_COMP_ALPHA},	   {8, 12288, 1, ML_COLL_COMP_BETA},
    {8, 524287, 1, ML_COLL_COMP_BETA},	   {8, 524288, 1, ML_COLL_COMP_GAMMA},
    {16, 12288, 1, ML_COLL_COMP_BETA},	   {12, 12287, 1, ML_COLL_COMP_ALPHA},
    {12, 12288, 1, ML_COLL_COMP_GAMMA},	   {12, 524287, 1, ML_COLL_COMP_GAMMA},
    {8, 1, 0, ML_COLL_COMP_GAMMA},	   {4, 1, 0, ML_COLL_COMP_GAMMA},
    {1024, 100000, 0, ML_COLL_COMP_GAMMA},
};

START_TEST(test_composition)
{
	ck_assert_int_eq(ml_collective_mpich_composition(comp_cases[_i].P,
							 comp_cases[_i].n,
							 comp_cases[_i].parent),
			 comp_cases[_i].comp);
}
END_TEST

#define BIN  ML_COLL_MPICH_BINOMIAL
#define SRD  ML_COLL_MPICH_SCATTER_RD_ALLGATHER
#define RING ML_COLL_MPICH_SCATTER_RING_ALLGATHER
#define SMP  ML_COLL_MPICH_SMP

static const struct {
	long long P, n;
	int parent;
	enum ml_coll_alg alg;
} mpir_cases[] = {
    {7, 1 << 22, 1, BIN}, {7, 0, 1, SMP},	 {7, 0, 0, BIN},
    {8, 12288, 0, BIN},	  {8, 12289, 0, SRD},	 {8, 524288, 0, SRD},
    {8, 524289, 0, RING}, {16, 524288, 1, SRD},	 {12, 12288, 1, BIN},
    {12, 12289, 1, RING}, {12, 524288, 0, RING}, {8, 0, 1, SMP},
    {9, 0, 0, BIN},	  {2, 12289, 0, BIN},
};

START_TEST(test_mpir)
{
	ck_assert_int_eq(ml_collective_mpich_mpir(mpir_cases[_i].P,
						  mpir_cases[_i].n,
						  mpir_cases[_i].parent),
			 mpir_cases[_i].alg);
}
END_TEST

/* On one node of P ranks MPICH's default is alpha/beta (MPIR auto on the
 * node) or gamma (MPIR auto on the whole), by the tables; the boundary
 * pairs of notes section 2: pow2 P >= 8 at 524288 is gamma but srd,
 * non-pow2 P >= 8 at 12288 is gamma but binomial. */
static const struct {
	long long P, n;
	enum ml_coll_composition comp;
	enum ml_coll_alg alg;
} default_cases[] = {
    {4, 1000, ML_COLL_COMP_ALPHA, BIN},
    {8, 12288, ML_COLL_COMP_BETA, BIN},
    {8, 12289, ML_COLL_COMP_BETA, SRD},
    {8, 524288, ML_COLL_COMP_GAMMA, SRD},
    {8, 524289, ML_COLL_COMP_GAMMA, RING},
    {12, 12287, ML_COLL_COMP_ALPHA, BIN},
    {12, 12288, ML_COLL_COMP_GAMMA, BIN},
    {12, 20000, ML_COLL_COMP_GAMMA, RING},
};

START_TEST(test_default_one_node)
{
	struct ml_collective_params p, q;
	struct ml_collective_result r, rq;
	struct totals t, tq;
	long long P = default_cases[_i].P;

	params(&p, ML_COLL_DEFAULT, P, default_cases[_i].n, P);
	model(&p, &t, &r);
	ck_assert_int_eq(r.composition, default_cases[_i].comp);
	if (r.composition == ML_COLL_COMP_GAMMA) {
		ck_assert_int_eq(r.ran, default_cases[_i].alg);
	} else {
		ck_assert_int_eq(r.ran, ML_COLL_DEFAULT);
		ck_assert_int_eq(r.ran_node_first, default_cases[_i].alg);
		ck_assert_int_eq(r.ran_roots, ML_COLL_DEFAULT); /* one node */
	}
	/* The same messages as the algorithm forced on the whole. */
	params(&q, default_cases[_i].alg, P, default_cases[_i].n, P);
	model(&q, &tq, &rq);
	same(&t, &tq, P, "default vs forced");
}
END_TEST

/* ---- each algorithm against its construction ------------------------ */

static const long long alg_P[] = {2, 3, 4, 5, 6, 7, 8, 12, 16, 31, 32};
static const long long alg_M[] = {1, 2, 3, 5, 7, 8, 100, 1000, 4099};
#define NP (sizeof alg_P / sizeof alg_P[0])
#define NM (sizeof alg_M / sizeof alg_M[0])

START_TEST(test_binomial)
{
	long long P = alg_P[_i / NM], M = alg_M[_i % NM], id[PMAX], r;
	struct ml_collective_params p;
	struct ml_collective_result res;
	struct totals got, want;

	for (r = 0; r < P; r++)
		id[r] = r;
	memset(&want, 0, sizeof want);
	ref_binomial(&want, id, P, M);
	params(&p, BIN, P, M, 1);
	model(&p, &got, &res);
	same(&got, &want, P, "binomial");
	ck_assert_int_eq(res.ran, BIN);
	ck_assert_int_eq(res.composition, ML_COLL_COMP_NONE);
}
END_TEST

START_TEST(test_ring)
{
	long long P = alg_P[_i / NM], M = alg_M[_i % NM];
	struct ml_collective_params p;
	struct ml_collective_result res;
	struct totals got, want;

	memset(&want, 0, sizeof want);
	ref_ring(&want, P, M);
	params(&p, RING, P, M, 4);
	model(&p, &got, &res);
	same(&got, &want, P, "ring");
	/* No fall-back: counts below P run the ring too, P(P-1) steps. */
	ck_assert(res.messages >= P * (P - 1));
}
END_TEST

START_TEST(test_srd_pow2)
{
	static const long long Ps[] = {2, 4, 8, 16, 32};
	long long P = Ps[_i / NM], M = alg_M[_i % NM];
	struct ml_collective_params p;
	struct ml_collective_result res;
	struct totals got, want;

	memset(&want, 0, sizeof want);
	ref_srd_pow2(&want, P, M);
	params(&p, SRD, P, M, 1);
	model(&p, &got, &res);
	same(&got, &want, P, "srd");
}
END_TEST

/*
 * P = 3, 3 bytes (ss = 1), by hand from the code.  Scatter: 0 -> 2 one
 * byte (mask 2), 0 -> 1 one byte.  Allgather, mask 1: 0 <-> 1 one byte
 * each way; rank 2 has no partner.  Mask 2: 0 -> 2 two bytes, 2 -> 0 one;
 * the partner subtree {2, 3} lacks 3, so in subtree {0, 1} (one rank
 * completed, nprocs_completed = 1) rank 0 sends rank 1 its last received
 * size, one byte.  Totals 0->1 3 msgs 3 B, 0->2 2 msgs 3 B, 1->0 1 msg
 * 1 B, 2->0 1 msg 1 B.
 */
START_TEST(test_srd_hand3)
{
	struct ml_collective_params p;
	struct ml_collective_result res;
	struct totals got, want;

	memset(&want, 0, sizeof want);
	add(&want, 0, 2, 1);
	add(&want, 0, 1, 1);
	add(&want, 0, 1, 1);
	add(&want, 1, 0, 1);
	add(&want, 0, 2, 2);
	add(&want, 2, 0, 1);
	add(&want, 0, 1, 1);
	params(&p, SRD, 3, 3, 1);
	model(&p, &got, &res);
	same(&got, &want, 3, "srd P=3");
}
END_TEST

/* P = 6, 6 bytes, forced scatter_recursive_doubling_allgather on the
 * real MPICH 4.0.2 (bcast_trace; "count src dst bytes" per message kind,
 * 21 messages). */
static const long long real6[][4] = {
    {2, 0, 1, 1}, {3, 0, 2, 2}, {1, 0, 4, 2}, {1, 0, 4, 4}, {1, 1, 0, 1},
    {2, 1, 3, 2}, {1, 1, 5, 4}, {1, 2, 0, 2}, {2, 2, 3, 1}, {1, 3, 1, 2},
    {1, 3, 2, 1}, {1, 4, 0, 2}, {2, 4, 5, 1}, {1, 5, 1, 2}, {1, 5, 4, 1},
};

START_TEST(test_srd_real6)
{
	struct ml_collective_params p;
	struct ml_collective_result res;
	struct totals got, want;
	size_t i;
	long long k;

	memset(&want, 0, sizeof want);
	for (i = 0; i < sizeof real6 / sizeof real6[0]; i++)
		for (k = 0; k < real6[i][0]; k++)
			add(&want, real6[i][1], real6[i][2], real6[i][3]);
	params(&p, SRD, 6, 6, 6);
	model(&p, &got, &res);
	same(&got, &want, 6, "srd P=6 (real MPICH)");
}
END_TEST

/* ---- compositions on several nodes, by hand ------------------------- */

/*
 * 32 ranks, 8 per node (--map-by core), 65536 bytes: a power of two
 * >= 8 between 12288 and 524288 is beta: binomial among the node roots
 * 0, 8, 16, 24 (4 < 8), then recursive doubling inside each node of 8.
 */
START_TEST(test_beta_four_nodes)
{
	struct ml_collective_params p;
	struct ml_collective_result res;
	struct totals got, want, node;
	long long roots[4] = {0, 8, 16, 24}, k, s, d;

	memset(&want, 0, sizeof want);
	ref_binomial(&want, roots, 4, 65536);
	memset(&node, 0, sizeof node);
	ref_srd_pow2(&node, 8, 65536);
	for (k = 0; k < 4; k++)
		for (s = 0; s < 8; s++)
			for (d = 0; d < 8; d++) {
				want.n[8 * k + s][8 * k + d] += node.n[s][d];
				want.b[8 * k + s][8 * k + d] += node.b[s][d];
				want.messages += node.n[s][d];
			}
	params(&p, ML_COLL_DEFAULT, 32, 65536, 8);
	model(&p, &got, &res);
	same(&got, &want, 32, "beta");
	ck_assert_int_eq(res.composition, ML_COLL_COMP_BETA);
	ck_assert_int_eq(res.ran_roots, BIN);
	ck_assert_int_eq(res.ran_node_first, SRD);
	ck_assert_int_eq(res.ran_node_last, SRD);
}
END_TEST

/*
 * 6 ranks dealt over 4 nodes (--map-by node, ppn 2): nodes {0, 4},
 * {1, 5}, {2}, {3}; a parent communicator below 8 ranks is alpha:
 * binomial among the roots 0, 1, 2, 3 (0 -> 2, 0 -> 1, 2 -> 3), then
 * 0 -> 4 and 1 -> 5 inside the two nodes of two.
 */
START_TEST(test_alpha_map_by_node)
{
	struct ml_collective_params p;
	struct ml_collective_result res;
	struct totals got, want;

	memset(&want, 0, sizeof want);
	add(&want, 0, 2, 100);
	add(&want, 0, 1, 100);
	add(&want, 2, 3, 100);
	add(&want, 0, 4, 100);
	add(&want, 1, 5, 100);
	params(&p, ML_COLL_DEFAULT, 6, 100, 2);
	p.nodes = 4;
	p.map_by = ML_COLL_MAP_NODE;
	model(&p, &got, &res);
	same(&got, &want, 6, "alpha, map-by node");
	ck_assert_int_eq(res.composition, ML_COLL_COMP_ALPHA);
	ck_assert_int_eq(res.ran_roots, BIN);
	ck_assert_int_eq(res.ran_node_first, BIN);
	ck_assert_int_eq(res.ran_node_last, ML_COLL_DEFAULT); /* alone */
}
END_TEST

/* One rank per node: no node communicators, gamma; smp is restricted to
 * parent communicators and falls back to the auto choice (srd at 8 ranks
 * and 20000 bytes); on one node at 8 ranks and 20000 bytes smp is the
 * node-roots broadcast (one node: nothing) and the node's srd. */
START_TEST(test_smp)
{
	struct ml_collective_params p;
	struct ml_collective_result res;
	struct totals got, want;

	memset(&want, 0, sizeof want);
	ref_srd_pow2(&want, 8, 20000);
	params(&p, SMP, 8, 20000, 1);
	model(&p, &got, &res);
	same(&got, &want, 8, "smp, not parent");
	ck_assert_int_eq(res.ran, SRD);
	params(&p, SMP, 8, 20000, 8);
	model(&p, &got, &res);
	same(&got, &want, 8, "smp, one node");
	ck_assert_int_eq(res.ran, SMP);
	/* Above 524288 bytes smp is the ring on the whole. */
	memset(&want, 0, sizeof want);
	ref_ring(&want, 8, 600000);
	params(&p, SMP, 8, 600000, 4);
	model(&p, &got, &res);
	same(&got, &want, 8, "smp, long");
}
END_TEST

/* ---- any root ------------------------------------------------------ */

/* Totals built in relative ranks (root 0) moved to real ranks: each of
 * MPICH's algorithms numbers its communicator's ranks rel = (rank -
 * root) mod n (bcast_intra_binomial.c, bcast_utils.c and the two
 * scatter algorithms), and does nothing else with the root.  Ranks
 * first .. first + n - 1 of *t; the rest untouched. */
static void rotate(struct totals *t, long long first, long long n,
		   long long root)
{
	static struct totals u;
	long long s, d, rs, rd;

	u = *t;
	for (s = 0; s < n; s++)
		for (d = 0; d < n; d++) {
			rs = first + (s + root) % n;
			rd = first + (d + root) % n;
			u.n[rs][rd] = t->n[first + s][first + d];
			u.b[rs][rd] = t->b[first + s][first + d];
		}
	*t = u;
}

/* Add the totals of *x, ranks 0 .. n - 1, to *t at ranks[]. */
static void put(struct totals *t, const struct totals *x,
		const long long *ranks, long long n)
{
	long long s, d;

	for (s = 0; s < n; s++)
		for (d = 0; d < n; d++) {
			t->n[ranks[s]][ranks[d]] += x->n[s][d];
			t->b[ranks[s]][ranks[d]] += x->b[s][d];
			t->messages += x->n[s][d];
		}
}

static const long long root_P[] = {2, 3, 5, 6, 7, 8, 12, 16};
static const long long root_M[] = {1, 7, 1000};
#define NRP (sizeof root_P / sizeof root_P[0])
#define NRM (sizeof root_M / sizeof root_M[0])

/* Each algorithm on the whole communicator from roots 1, P / 2 and
 * P - 1: its construction for root 0, rotated. */
START_TEST(test_root_whole)
{
	long long P = root_P[_i / NRM / 3], M = root_M[_i / 3 % NRM];
	long long roots[3] = {1, P / 2, P - 1}, R = roots[_i % 3], id[PMAX];
	struct ml_collective_params p;
	struct ml_collective_result res;
	struct totals got, want;
	long long r;

	for (r = 0; r < P; r++)
		id[r] = r;
	memset(&want, 0, sizeof want);
	ref_binomial(&want, id, P, M);
	rotate(&want, 0, P, R);
	params(&p, BIN, P, M, 1);
	p.root = R;
	model(&p, &got, &res);
	same(&got, &want, P, "binomial, root");
	/* ppn 1: no node has two ranks, the default is gamma: the same */
	params(&p, ML_COLL_DEFAULT, P, M, 1);
	p.root = R;
	model(&p, &got, &res);
	same(&got, &want, P, "gamma, root");
	ck_assert_int_eq(res.composition, ML_COLL_COMP_GAMMA);

	memset(&want, 0, sizeof want);
	ref_ring(&want, P, M);
	rotate(&want, 0, P, R);
	params(&p, RING, P, M, 4);
	p.root = R;
	model(&p, &got, &res);
	same(&got, &want, P, "ring, root");

	if (P & (P - 1))
		return;
	memset(&want, 0, sizeof want);
	ref_srd_pow2(&want, P, M);
	rotate(&want, 0, P, R);
	params(&p, SRD, P, M, 2);
	p.root = R;
	model(&p, &got, &res);
	same(&got, &want, P, "srd, root");
}
END_TEST

/* The non-power-of-two recursive doubling from root 4: the real
 * MPICH's root-0 trace (real6) rotated. */
START_TEST(test_root_srd_real6)
{
	struct ml_collective_params p;
	struct ml_collective_result res;
	struct totals got, want;
	size_t i;
	long long k;

	memset(&want, 0, sizeof want);
	for (i = 0; i < sizeof real6 / sizeof real6[0]; i++)
		for (k = 0; k < real6[i][0]; k++)
			add(&want, real6[i][1], real6[i][2], real6[i][3]);
	rotate(&want, 0, 6, 4);
	params(&p, SRD, 6, 6, 6);
	p.root = 4;
	model(&p, &got, &res);
	same(&got, &want, 6, "srd P=6 root 4");
}
END_TEST

/*
 * 8 ranks, 4 a node (nodes {0..3}, {4..7}), 100 bytes: alpha
 * (ch4_coll_impl.h).  Root 5 is local rank 1 of node 1: it sends the
 * message to 4 (node 1's rank 0) first; then the node roots' binomial
 * from node 1 (4 -> 0); then each node's binomial from its rank 0
 * (0 -> 2, 0 -> 1, 2 -> 3; 4 -> 6, 4 -> 5, 6 -> 7), which gives 5 its
 * own data back: 8 messages, one more than P - 1.  From root 4 (node
 * 1's rank 0) the same without 5 -> 4: 7.  smp below 12288 bytes is
 * the same (bcast_intra_smp.c).
 */
START_TEST(test_root_alpha)
{
	struct ml_collective_params p;
	struct ml_collective_result res;
	struct totals got, want;

	memset(&want, 0, sizeof want);
	add(&want, 4, 0, 100);
	add(&want, 0, 2, 100);
	add(&want, 0, 1, 100);
	add(&want, 2, 3, 100);
	add(&want, 4, 6, 100);
	add(&want, 4, 5, 100);
	add(&want, 6, 7, 100);
	params(&p, ML_COLL_DEFAULT, 8, 100, 4);
	p.root = 4;
	model(&p, &got, &res);
	same(&got, &want, 8, "alpha, root 4");
	ck_assert_int_eq(res.messages, 7);
	add(&want, 5, 4, 100);
	p.root = 5;
	model(&p, &got, &res);
	same(&got, &want, 8, "alpha, root 5");
	ck_assert_int_eq(res.composition, ML_COLL_COMP_ALPHA);
	ck_assert_int_eq(res.messages, 8);
	p.algorithm = SMP;
	model(&p, &got, &res);
	same(&got, &want, 8, "smp short, root 5");
}
END_TEST

/*
 * The same nodes, 20000 bytes: beta.  Root 5 broadcasts on its node
 * first, binomial from local rank 1 (relative ranks 5, 6, 7, 4:
 * 5 -> 7, 5 -> 6, 7 -> 4); then 4 -> 0 among the roots; then node 0
 * only, from 0 (node 1 has it): 7 messages, P - 1.  smp from 12288
 * bytes on 8 ranks (a power of two, below 524288) is the same.
 */
START_TEST(test_root_beta)
{
	struct ml_collective_params p;
	struct ml_collective_result res;
	struct totals got, want;

	memset(&want, 0, sizeof want);
	add(&want, 5, 7, 20000);
	add(&want, 5, 6, 20000);
	add(&want, 7, 4, 20000);
	add(&want, 4, 0, 20000);
	add(&want, 0, 2, 20000);
	add(&want, 0, 1, 20000);
	add(&want, 2, 3, 20000);
	params(&p, ML_COLL_DEFAULT, 8, 20000, 4);
	p.root = 5;
	model(&p, &got, &res);
	same(&got, &want, 8, "beta, root 5");
	ck_assert_int_eq(res.composition, ML_COLL_COMP_BETA);
	p.algorithm = SMP;
	model(&p, &got, &res);
	same(&got, &want, 8, "smp medium, root 5");
}
END_TEST

/*
 * 32 ranks, 8 a node, 65536 bytes (beta), root 13 (node 1, local 5):
 * recursive doubling on node 1 from its local rank 5, the roots'
 * binomial from node 1 (relative 8, 16, 24, 0: 8 -> 24, 8 -> 16,
 * 24 -> 0), then recursive doubling on nodes 0, 2, 3 from their rank 0.
 */
START_TEST(test_root_beta_four_nodes)
{
	struct ml_collective_params p;
	struct ml_collective_result res;
	struct totals got, want, node;
	long long ids[8], k, i;

	memset(&want, 0, sizeof want);
	add(&want, 8, 24, 65536);
	add(&want, 8, 16, 65536);
	add(&want, 24, 0, 65536);
	memset(&node, 0, sizeof node);
	ref_srd_pow2(&node, 8, 65536);
	for (k = 0; k < 4; k++) {
		for (i = 0; i < 8; i++)
			ids[i] = 8 * k + i;
		if (k != 1) {
			put(&want, &node, ids, 8);
			continue;
		}
		rotate(&node, 0, 8, 5);
		put(&want, &node, ids, 8);
		rotate(&node, 0, 8, 3); /* back to root 0 */
	}
	params(&p, ML_COLL_DEFAULT, 32, 65536, 8);
	p.root = 13;
	model(&p, &got, &res);
	same(&got, &want, 32, "beta, root 13");
}
END_TEST

/*
 * 6 ranks dealt over 4 nodes (--map-by node, ppn 2: {0, 4}, {1, 5},
 * {2}, {3}), 100 bytes, alpha, root 5 (node 1's second rank): 5 -> 1;
 * the roots 0, 1, 2, 3 from node 1 (relative 1, 2, 3, 0: 1 -> 3,
 * 1 -> 2, 3 -> 0); then 0 -> 4 and 1 -> 5.  From root 3 (a node of
 * its own): the roots from node 3 (relative 3, 0, 1, 2: 3 -> 1, 3 -> 0,
 * 1 -> 2), 0 -> 4, 1 -> 5: P - 1.
 */
START_TEST(test_root_map_by_node)
{
	struct ml_collective_params p;
	struct ml_collective_result res;
	struct totals got, want;

	memset(&want, 0, sizeof want);
	add(&want, 5, 1, 100);
	add(&want, 1, 3, 100);
	add(&want, 1, 2, 100);
	add(&want, 3, 0, 100);
	add(&want, 0, 4, 100);
	add(&want, 1, 5, 100);
	params(&p, ML_COLL_DEFAULT, 6, 100, 2);
	p.nodes = 4;
	p.map_by = ML_COLL_MAP_NODE;
	p.root = 5;
	model(&p, &got, &res);
	same(&got, &want, 6, "alpha, map-by node, root 5");
	memset(&want, 0, sizeof want);
	add(&want, 3, 1, 100);
	add(&want, 3, 0, 100);
	add(&want, 1, 2, 100);
	add(&want, 0, 4, 100);
	add(&want, 1, 5, 100);
	p.root = 3;
	model(&p, &got, &res);
	same(&got, &want, 6, "alpha, map-by node, root 3");
}
END_TEST

/*
 * Alpha's count on any layout: below 12288 bytes every piece is a
 * binomial tree, N - 1 messages among N node roots and Q - 1 inside a
 * node of Q, P - 1 in all, and one more, the handover, when the root is
 * not its node's first rank: under --map-by core rank r is first when
 * r mod ppn = 0, under --map-by node when r < nodes (rank r sits on
 * node r mod N as the (r div N)-th).  P 2..12, ppn 1..4, every root.
 */
START_TEST(test_root_alpha_count)
{
	long long P = 2 + _i / 8, ppn = 1 + _i % 4, N, R, first;
	int by_node = _i / 4 % 2;
	struct ml_collective_params p;
	struct ml_collective_result res;

	N = (P + ppn - 1) / ppn;
	for (R = 0; R < P; R++) {
		params(&p, ML_COLL_DEFAULT, P, 100, ppn);
		p.map_by = by_node ? ML_COLL_MAP_NODE : ML_COLL_MAP_CORE;
		p.root = R;
		ck_assert_int_eq(ml_collective_eval(&p, &res), ML_OK);
		first = by_node ? R < N : R % ppn == 0;
		ck_assert_int_eq(res.messages, P - 1 + !first);
		/* a node holds two ranks: a parent communicator */
		ck_assert_int_eq(res.composition, P > N ? ML_COLL_COMP_ALPHA
							: ML_COLL_COMP_GAMMA);
	}
}
END_TEST

/* The root's bounds (collective.h: 0 <= root < P). */
START_TEST(test_root_bounds)
{
	struct ml_collective_params p;
	struct ml_diag d = {NULL, ""};

	params(&p, BIN, 4, 10, 1);
	p.root = 3;
	ck_assert_int_eq(ml_collective_validate(&p, NULL), ML_OK);
	p.root = 4;
	ck_assert_int_eq(ml_collective_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, "root");
	p.root = -1;
	ck_assert_int_eq(ml_collective_validate(&p, NULL), ML_EINVAL);
}
END_TEST

/* ---- the interface -------------------------------------------------- */

START_TEST(test_library_rejects)
{
	struct ml_collective_params p;
	struct ml_diag d = {NULL, ""};

	params(&p, ML_COLL_LINEAR, 4, 10, 1);
	ck_assert_int_eq(ml_collective_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, "algorithm");
	ml_collective_params_init(&p);
	ck_assert_int_eq(p.library, ML_COLL_OPENMPI);
	p.algorithm = SRD;
	ck_assert_int_eq(ml_collective_validate(&p, NULL), ML_EINVAL);
	p.algorithm = ML_COLL_BINOMIAL;
	p.library = (enum ml_coll_library)7;
	d.param = NULL;
	ck_assert_int_eq(ml_collective_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, "library");
	ck_assert_str_eq(ml_collective_alg_name(SRD),
			 "scatter_recursive_doubling_allgather");
	ck_assert_str_eq(ml_collective_alg_name(ML_COLL_DEFAULT), "default");
	ck_assert_str_eq(ml_collective_composition_name(ML_COLL_COMP_BETA),
			 "beta");
}
END_TEST

/* best among MPICH's four: each candidate's latency evaluated alone, the
 * pick the least (ties to the lower id). */
START_TEST(test_best)
{
	static const long long Ms[] = {1, 20000, 1 << 20};
	struct ml_collective_params p, q;
	struct ml_collective_result r, x;
	enum ml_coll_alg best, a, want = BIN;
	double margin, least = 1e300;

	params(&p, BIN, 16, Ms[_i], 4);
	ck_assert_int_eq(ml_collective_best(&p, &best, &r, &margin), ML_OK);
	for (a = BIN; a <= SMP; a++) {
		q = p;
		q.algorithm = a;
		ck_assert_int_eq(ml_collective_eval(&q, &x), ML_OK);
		if (x.latency < least * (1 - 1e-12)) {
			least = x.latency;
			want = a;
		}
	}
	ck_assert_int_eq(best, want);
	ck_assert(margin >= 1.0);
}
END_TEST

/* The Open MPI default through the library: algorithm 0 is the fixed
 * decision, unsegmented. */
START_TEST(test_ompi_default)
{
	struct ml_collective_params p, q;
	struct ml_collective_result r, rq;

	ml_collective_params_init(&p);
	p.ranks = 16;
	p.msg = 100000;
	p.segment = 1024;
	p.algorithm = ML_COLL_DEFAULT;
	ck_assert_int_eq(ml_collective_eval(&p, &r), ML_OK);
	q = p;
	q.algorithm = ml_collective_ompi_decide(16, 100000);
	q.segment = 0;
	q.fanout = 0;
	ck_assert_int_eq(ml_collective_eval(&q, &rq), ML_OK);
	ck_assert(r.latency == rq.latency && r.messages == rq.messages);
	ck_assert_int_eq(r.ran, q.algorithm);
}
END_TEST

/* ---- the JSON tuning file ------------------------------------------- */

START_TEST(test_json)
{
	const long long ps[] = {4, 8}, ms[] = {1, 100, 20000};
	const enum ml_coll_alg alg[] = {BIN, BIN, RING, BIN, SMP, SMP};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ml_collective_mpich_json(f, ps, 2, ms, 3, alg), 0);
	fclose(f);
	/* P <= 7 takes the rules of 4, the rest those of 8. */
	ck_assert_ptr_nonnull(strstr(buf,
				     "\"comm_size<=7\": {\n"
				     "        \"avg_msg_size<=19999\": "
				     "{\"algorithm=MPIR_Bcast_intra_"
				     "binomial\": {}},\n"
				     "        \"avg_msg_size=any\": "
				     "{\"algorithm=MPIR_Bcast_intra_scatter_"
				     "ring_allgather\": {}}\n"));
	/* smp only on a parent communicator: at 8 ranks and 100 bytes
	 * MPICH's own choice elsewhere is binomial. */
	ck_assert_ptr_nonnull(strstr(buf, "\"comm_size=any\": {\n"
					  "        \"avg_msg_size<=99\": "));
	ck_assert_ptr_nonnull(
	    strstr(buf, "\"comm_hierarchy=parent\": {\"algorithm="
			"MPIR_Bcast_intra_smp\": {}},\n"
			"            \"comm_hierarchy=any\": {\"algorithm="
			"MPIR_Bcast_intra_binomial\": {}}"));
	/* Every other collective of MPICH's own file, once. */
	ck_assert_ptr_nonnull(strstr(buf, "\"collective=barrier\":"));
	ck_assert_ptr_nonnull(
	    strstr(buf, "\"collective=ineighbor_alltoallw\":"));
	ck_assert_ptr_null(
	    strstr(strstr(buf, "collective=bcast") + 1, "collective=bcast"));
	ck_assert(len > 10000 && buf[len - 2] == '}');
	free(buf);
}
END_TEST

Suite *suite_mpich(void)
{
	Suite *s = suite_create("mpich");
	TCase *tc = tcase_create("decide");

	tcase_add_loop_test(tc, test_composition, 0,
			    sizeof comp_cases / sizeof comp_cases[0]);
	tcase_add_loop_test(tc, test_mpir, 0,
			    sizeof mpir_cases / sizeof mpir_cases[0]);
	tcase_add_loop_test(tc, test_default_one_node, 0,
			    sizeof default_cases / sizeof default_cases[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("algorithms");
	tcase_add_loop_test(tc, test_binomial, 0, NP * NM);
	tcase_add_loop_test(tc, test_ring, 0, NP * NM);
	tcase_add_loop_test(tc, test_srd_pow2, 0, 5 * NM);
	tcase_add_test(tc, test_srd_hand3);
	tcase_add_test(tc, test_srd_real6);
	tcase_add_test(tc, test_beta_four_nodes);
	tcase_add_test(tc, test_alpha_map_by_node);
	tcase_add_test(tc, test_smp);
	suite_add_tcase(s, tc);
	tc = tcase_create("root");
	tcase_add_loop_test(tc, test_root_whole, 0, NRP * NRM * 3);
	tcase_add_test(tc, test_root_srd_real6);
	tcase_add_test(tc, test_root_alpha);
	tcase_add_test(tc, test_root_beta);
	tcase_add_test(tc, test_root_beta_four_nodes);
	tcase_add_test(tc, test_root_map_by_node);
	tcase_add_loop_test(tc, test_root_alpha_count, 0, 11 * 8);
	tcase_add_test(tc, test_root_bounds);
	suite_add_tcase(s, tc);
	tc = tcase_create("interface");
	tcase_add_test(tc, test_library_rejects);
	tcase_add_loop_test(tc, test_best, 0, 3);
	tcase_add_test(tc, test_ompi_default);
	tcase_add_test(tc, test_json);
	suite_add_tcase(s, tc);
	return s;
}
