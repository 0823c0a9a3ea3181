/*
 * check_mcast.c - tests of the pure parts of the hardware multicast
 * mechanisms (src/sim/path.c, src/sim/tree.c; SPEC section 8).
 *
 * Expected labels and paths are worked out by hand in the comments (node
 * id = x + w y); the brute-force tests check properties that hold by the
 * theory of notes/multicast_mechanisms.md (minimal R-paths with monotone
 * labels; PM legs minimal, never west after leg 0, no +y -> -y turn).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "mcastlat/sim.h"
#include "sim/mcast.h"
#include "sim/simint.h"
#include "simtrace.h"

/* Check's ck_assert marks a point through a pipe on every call, too slow
 * for millions of checks in the brute-force loops: fail only when false. */
#define CHEAP(c)                                                               \
	do {                                                                   \
		if (!(c))                                                      \
			ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #c);     \
	} while (0)

/* ------------------------------------------------------------------ */
/* Dual-Path labels.
 * 4x4:  y=3: 15 14 13 12     3x5:  y=4: 12 13 14
 *       y=2:  8  9 10 11           y=3: 11 10  9
 *       y=1:  7  6  5  4           y=2:  6  7  8
 *       y=0:  0  1  2  3           y=1:  5  4  3
 *                                  y=0:  0  1  2          */
START_TEST(test_dp_labels)
{
	static const unsigned l44[16] = {0, 1, 2,  3,  7,  6,  5,  4,
					 8, 9, 10, 11, 15, 14, 13, 12};
	static const unsigned l35[15] = {0, 1,	2,  5, 4,  3,  6, 7,
					 8, 11, 10, 9, 12, 13, 14};

	for (unsigned i = 0; i < 16; i++) {
		ck_assert_uint_eq(ml_dp_label(4, i), l44[i]);
		ck_assert_uint_eq(ml_dp_node(4, l44[i]), i);
	}
	for (unsigned i = 0; i < 15; i++) {
		ck_assert_uint_eq(ml_dp_label(3, i), l35[i]);
		ck_assert_uint_eq(ml_dp_node(3, l35[i]), i);
	}
}
END_TEST

/* The neighbour of u in direction d of a w-wide mesh (d is valid). */
static unsigned step(unsigned w, unsigned u, int d)
{
	return d == ML_MC_XP   ? u + 1
	       : d == ML_MC_XM ? u - 1
	       : d == ML_MC_YP ? u + w
			       : u - w;
}

/* Follow R from u to v; returns the hops, writes the directions. */
static unsigned dp_walk(unsigned w, unsigned h, unsigned u, unsigned v,
			int *dirs)
{
	unsigned hops = 0;

	while (u != v) {
		int d = ml_dp_route(w, h, u, v);

		ck_assert_int_ge(d, 0);
		ck_assert_uint_lt(hops, w * h);
		dirs[hops++] = d;
		u = step(w, u, d);
	}
	return hops;
}

/* Hand-worked R-paths (see the neighbour labels in the comments). */
enum { XP = ML_MC_XP, XM = ML_MC_XM, YP = ML_MC_YP, YM = ML_MC_YM };

static const struct {
	unsigned w, h, u, v, hops;
	int dirs[8];
} dp_paths[] = {
    /* 4x4, (0,0) L0 -> (1,2) L9: neighbours L1, L7 -> 7 (+y); at L7:
     * 6, 0, 8 -> 8 (+y); at L8: 9 (+x).  3 hops = 1 + 2. */
    {4, 4, 0, 9, 3, {YP, YP, XP}},
    /* 4x4, (3,0) L3 -> (0,3) L15: +y to L4, +y to L11, +y to L12, then
     * -x to L13, L14, L15.  6 hops = 3 + 3. */
    {4, 4, 3, 12, 6, {YP, YP, YP, XM, XM, XM}},
    /* Low network, 4x4, (0,3) L15 -> (2,0) L2: smallest label >= 2 among
     * the neighbours: 8 (-y), 7 (-y), 6 (+x), 5 (+x), 2 (-y).  5 hops. */
    {4, 4, 12, 2, 5, {YM, YM, XP, XP, YM}},
    /* 3x5, (2,0) L2 -> (0,4) L12: 3 (+y), 8 (+y), 9 (+y), 10 (-x),
     * 11 (-x), 12 (+y).  6 hops = 2 + 4. */
    {3, 5, 2, 12, 6, {YP, YP, YP, XM, XM, YP}},
    /* 3x5 low, (1,4) L13 -> (1,1) L4: 10, 7, 4, all -y. */
    {3, 5, 13, 4, 3, {YM, YM, YM}},
};

START_TEST(test_dp_paths)
{
	int d[64];
	unsigned i;

	for (unsigned c = 0; c < sizeof(dp_paths) / sizeof(dp_paths[0]); c++) {
		ck_assert_uint_eq(dp_walk(dp_paths[c].w, dp_paths[c].h,
					  dp_paths[c].u, dp_paths[c].v, d),
				  dp_paths[c].hops);
		for (i = 0; i < dp_paths[c].hops; i++)
			ck_assert_msg(d[i] == dp_paths[c].dirs[i],
				      "path %u hop %u: %d, want %d", c, i, d[i],
				      dp_paths[c].dirs[i]);
	}
	ck_assert_int_eq(ml_dp_route(4, 4, 5, 5), ML_MC_NONE);
}
END_TEST

/* Brute force over every ordered pair: R-paths are minimal (Manhattan),
 * labels strictly monotone, every channel in the pair's subnetwork. */
START_TEST(test_dp_brute)
{
	static const unsigned sizes[][2] = {{4, 4}, {3, 5}, {5, 3},  {8, 8},
					    {2, 7}, {7, 2}, {16, 16}};

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		unsigned w = sizes[s][0], h = sizes[s][1], n = w * h;

		for (unsigned u = 0; u < n; u++)
			for (unsigned v = 0; v < n; v++) {
				unsigned x = u, hops = 0;
				unsigned man =
				    abs((int)(u % w) - (int)(v % w)) +
				    abs((int)(u / w) - (int)(v / w));
				int high =
				    ml_dp_label(w, u) < ml_dp_label(w, v);

				while (x != v) {
					int d = ml_dp_route(w, h, x, v);
					unsigned y;

					CHEAP(d >= 0);
					CHEAP(ml_dp_is_high(w, h, x, d) ==
					      high);
					y = step(w, x, d);
					if (high)
						CHEAP(ml_dp_label(w, y) >
						      ml_dp_label(w, x));
					else
						CHEAP(ml_dp_label(w, y) <
						      ml_dp_label(w, x));
					x = y;
					hops++;
					CHEAP(hops <= man);
				}
				CHEAP(hops == man);
			}
	}
}
END_TEST

/* Every physical link gives one channel to each subnetwork. */
START_TEST(test_dp_subnetworks)
{
	unsigned w = 3, h = 5;

	for (unsigned u = 0; u < w * h; u++) {
		if (u % w + 1 < w)
			ck_assert_int_ne(ml_dp_is_high(w, h, u, ML_MC_XP),
					 ml_dp_is_high(w, h, u + 1, ML_MC_XM));
		if (u / w + 1 < h) {
			ck_assert(ml_dp_is_high(w, h, u, ML_MC_YP));
			ck_assert(!ml_dp_is_high(w, h, u + w, ML_MC_YM));
		}
	}
	/* Row 0 is even: +x high; row 1 odd: -x high. */
	ck_assert(ml_dp_is_high(w, h, 0, ML_MC_XP));
	ck_assert(ml_dp_is_high(w, h, 4, ML_MC_XM));
	ck_assert(!ml_dp_is_high(w, h, 0, ML_MC_XM)); /* off the mesh */
}
END_TEST

/* 4x4, source (1,1) = node 5, L6; destinations 15 (L12), 0 (L0),
 * 10 (L10), 3 (L3), 4 (L7): high worm 4, 10, 15 (L7, L10, L12), low worm
 * 3, 0 (L3, L0). */
START_TEST(test_dp_split)
{
	static const unsigned dests[5] = {15, 0, 10, 3, 4};
	unsigned hi[5], lo[5];
	size_t nh, nl;

	ml_dp_split(4, 5, dests, 5, hi, &nh, lo, &nl);
	ck_assert_uint_eq(nh, 3);
	ck_assert_uint_eq(nl, 2);
	ck_assert_uint_eq(hi[0], 4);
	ck_assert_uint_eq(hi[1], 10);
	ck_assert_uint_eq(hi[2], 15);
	ck_assert_uint_eq(lo[0], 3);
	ck_assert_uint_eq(lo[1], 0);
	ml_dp_split(4, 0, dests + 4, 1, hi, &nh, lo, &nl);
	ck_assert_uint_eq(nh, 1);
	ck_assert_uint_eq(nl, 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* PM.  4x4, source (2,1) = 6, destinations 15, 8, 1, 13, 3 sorted by
 * (x, y): (0,2)=8, (1,0)=1, (1,3)=13, (3,0)=3, (3,3)=15.
 * Leg 0, 6 -> 8 by XY: -x, -x, +y.  Leg 1, 8 -> 1, arrived +y: only +x
 * (-y would be a +y -> -y turn), then at 9 only -y, -y.  Leg 2, 1 -> 13:
 * +y.  Leg 3, 13 -> 3, arrived +y: only +x; at 14 (arrived +x): +x or -y. */
START_TEST(test_pm_hand)
{
	unsigned d[5] = {15, 8, 1, 13, 3};

	ml_pm_sort(4, d, 5);
	ck_assert_uint_eq(d[0], 8);
	ck_assert_uint_eq(d[1], 1);
	ck_assert_uint_eq(d[2], 13);
	ck_assert_uint_eq(d[3], 3);
	ck_assert_uint_eq(d[4], 15);
	ck_assert_uint_eq(ml_pm_route(4, 6, 8, 1, ML_MC_NONE),
			  ML_MC_BIT(ML_MC_XM));
	ck_assert_uint_eq(ml_pm_route(4, 5, 8, 1, ML_MC_XM),
			  ML_MC_BIT(ML_MC_XM));
	ck_assert_uint_eq(ml_pm_route(4, 4, 8, 1, ML_MC_XM),
			  ML_MC_BIT(ML_MC_YP));
	ck_assert_uint_eq(ml_pm_route(4, 8, 1, 0, ML_MC_YP),
			  ML_MC_BIT(ML_MC_XP));
	ck_assert_uint_eq(ml_pm_route(4, 9, 1, 0, ML_MC_XP),
			  ML_MC_BIT(ML_MC_YM));
	ck_assert_uint_eq(ml_pm_route(4, 5, 1, 0, ML_MC_YM),
			  ML_MC_BIT(ML_MC_YM));
	ck_assert_uint_eq(ml_pm_route(4, 1, 13, 0, ML_MC_YM),
			  ML_MC_BIT(ML_MC_YP));
	ck_assert_uint_eq(ml_pm_route(4, 13, 3, 0, ML_MC_YP),
			  ML_MC_BIT(ML_MC_XP));
	ck_assert_uint_eq(ml_pm_route(4, 14, 3, 0, ML_MC_XP),
			  ML_MC_BIT(ML_MC_XP) | ML_MC_BIT(ML_MC_YM));
	/* Source (not leg 0: arrived NONE) may go -y. */
	ck_assert_uint_eq(ml_pm_route(4, 14, 2, 0, ML_MC_NONE),
			  ML_MC_BIT(ML_MC_YM));
	ck_assert_uint_eq(ml_pm_route(4, 14, 14, 0, ML_MC_NONE), 0);
}
END_TEST

/* A 64-bit LCG (Knuth's MMIX constants): cheap, reproducible picks for
 * the brute-force loops; the high bits. */
static unsigned lcg(unsigned long *x)
{
	*x = *x * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)(*x >> 33);
}

/* Random destination sets; at each hop a random permitted output.  Every
 * leg is minimal, leg 0 is XY, later legs never go west and never turn
 * from +y to -y (also across a destination), and the mask is never empty. */
START_TEST(test_pm_brute)
{
	static const unsigned sizes[][2] = {{4, 4}, {3, 5}, {8, 8}, {5, 2}};
	unsigned long rng = 12345;

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		unsigned w = sizes[s][0], h = sizes[s][1], n = w * h;

		for (int trial = 0; trial < 2000; trial++) {
			unsigned d[256], nd = 0, src, u;
			int arrived = ML_MC_NONE;
			char used[256] = {0};

			src = lcg(&rng) % n;
			used[src] = 1;
			nd = 1 + lcg(&rng) % (n - 1);
			for (unsigned i = 0; i < nd; i++) {
				unsigned c;

				do {
					c = lcg(&rng) % n;
				} while (used[c]);
				used[c] = 1;
				d[i] = c;
			}
			ml_pm_sort(w, d, nd);
			u = src;
			for (unsigned i = 0; i < nd; i++) {
				unsigned v = d[i];
				unsigned man =
				    abs((int)(u % w) - (int)(v % w)) +
				    abs((int)(u / w) - (int)(v / w));
				unsigned hops = 0;
				int seen_y = 0;

				if (i > 0)
					CHEAP(v % w >= u % w);
				while (u != v) {
					unsigned m = ml_pm_route(
					    w, u, v, i == 0, arrived);
					int c[4], nc = 0, dir;

					CHEAP(m != 0);
					for (int k = 0; k < 4; k++)
						if (m & ML_MC_BIT(k))
							c[nc++] = k;
					dir = c[lcg(&rng) % (unsigned)nc];
					if (i == 0) {
						CHEAP(nc == 1);
						if (dir == ML_MC_XP ||
						    dir == ML_MC_XM)
							CHEAP(!seen_y);
						else
							seen_y = 1;
					} else {
						CHEAP(dir != ML_MC_XM);
					}
					CHEAP(!(arrived == ML_MC_YP &&
						dir == ML_MC_YM));
					u = step(w, u, dir);
					CHEAP(u < n);
					arrived = dir;
					hops++;
				}
				CHEAP(hops == man);
			}
		}
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* Worm layouts: tree [d_1, data, d_2 .. d_n] (004 Figure 1); path
 * [a_1 .. a_n][data]. */
START_TEST(test_layouts)
{
	static const unsigned dests[3] = {7, 2, 9};
	struct ml_mc_flit f[8];

	ck_assert_uint_eq(ml_tree_layout(dests, 3, 2, f), 5);
	ck_assert(f[0].kind == ML_MC_ADDR && f[0].dest == 7);
	ck_assert(f[1].kind == ML_MC_DATA && f[1].dest == 0);
	ck_assert(f[2].kind == ML_MC_DATA && f[2].dest == 1);
	ck_assert(f[3].kind == ML_MC_ADDR && f[3].dest == 2);
	ck_assert(f[4].kind == ML_MC_ADDR && f[4].dest == 9);
	ck_assert_uint_eq(ml_path_layout(dests, 3, 1, f), 4);
	ck_assert(f[0].kind == ML_MC_ADDR && f[0].dest == 7);
	ck_assert(f[2].kind == ML_MC_ADDR && f[2].dest == 9);
	ck_assert(f[3].kind == ML_MC_DATA && f[3].dest == 0);
	ck_assert_uint_eq(ml_tree_layout(dests, 0, 1, f), 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The mechanisms in the simulator.  A recorder of every link and
 * delivery crossing (struct sim_hooks.flit) and of every destination
 * that has the whole message (hooks.deliver). */

#define MAXEV 4096

struct ev {
	unsigned long long c;
	unsigned node, port, kind, dest, tail, msg;
};

struct rec {
	struct ev ev[MAXEV];
	unsigned nev;
	unsigned long long done_at[64]; /* per node, last completion */
	unsigned done[64];		/* per node, completions */
};

static void rec_flit(void *arg, unsigned node, unsigned port, unsigned vc,
		     const struct flit *f, unsigned long long c)
{
	struct rec *r = arg;
	struct ev *e;

	(void)vc;
	if (r->nev == MAXEV)
		return;
	e = &r->ev[r->nev++];
	e->c = c;
	e->node = node;
	e->port = port;
	e->kind = f->kind;
	e->dest = f->kind == FK_ADDR ? f->dest : 0;
	e->tail = !!(f->flags & FF_TAIL);
	e->msg = f->msg;
}

static void rec_done(void *arg, unsigned node, unsigned src, unsigned dest,
		     unsigned op, unsigned flits, unsigned long long c)
{
	struct rec *r = arg;

	(void)src, (void)op, (void)flits;
	ck_assert_uint_eq(node, dest);
	if (node < 64) {
		r->done[node]++;
		r->done_at[node] = c;
	}
}

static enum ml_status run_rec(struct ml_sim_params *p,
			      const struct ml_sim_trace_msg *m, size_t n,
			      struct ml_sim_result *r, struct rec *rc)
{
	struct sim_hooks h = {rec_done, NULL, 0, rec_flit};
	struct ml_diag d = {0};

	memset(rc, 0, sizeof(*rc));
	h.arg = rc;
	p->trace = m;
	p->ntrace = n;
	return ml_sim_run_hooked(p, r, &d, &h, NULL);
}

static void mesh4(struct ml_sim_params *p, enum ml_sim_multicast mc)
{
	ml_sim_params_init(p, ML_SIM_MESH);
	p->k = 4;
	p->warmup = 0;
	p->flits = 2;
	p->multicast = mc;
}

/*
 * A tree multicast worked by hand: 4x4 mesh, XY, R = 2, buffers of 2,
 * one data flit (M = 2), generated at cycle 0 at node 0 = (0,0) with the
 * destinations in the order 6 = (2,1), 1 = (1,0), 14 = (2,3), 3 = (3,0):
 * the worm [6, D, 1, 14, 3].
 *
 * Timing (router.c, tree.c): a flit that arrives at a router in cycle t
 * moves at t + 1 at the earliest and crosses the switch and the link (or
 * delivery channel) in one cycle; an address is routed at t + 1 and
 * switched at t + 1 + R; the routing unit also routes the address behind
 * the head (behind a routed address or a data flit), so reusing addresses
 * follow each other cycle by cycle; not while the aux buffer is replayed.
 * The 2-flit injection queue takes a flit when it had room at the start
 * of the cycle.
 *
 * Source 0: 6 injected at 0, routed at 1 (+x), crosses at 3; D at 4.  The
 * queue takes 1 at 4 and 14 at 5: 1 routed 5 (reuse), 14 routed 6 behind
 * it; they cross at 7 and 8.  3 enters at 8, routed 9, crosses 11: the
 * worm's last flit, so the branch ends with it (end mark on 3).
 * Node 1 = (1,0): 6 arrives 3, crosses +x at 6; D at 7; 1 arrives 7,
 * routed 8 to the delivery channel: a new branch, crosses 10, and the
 * data are replayed from the aux buffer at 11 (node 1 done at 11); 14,
 * routed at 9 behind 1 (reuse +x), crosses after the replay, at 12; 3
 * arrives 11, routed 12, crosses 14 with the end mark.
 * Node 2 = (2,0): 6 +y at 9, D 10; 14 arrives 12, routed 13, +y at 15;
 * 3 arrives 14, routed 15 behind it: a new branch +x, crosses 17, replay
 * 18 (the worm's end: marked).
 * Node 6 = (2,1): 6 delivered 12, D 13 (done at 13); 14 arrives 15, new
 * branch +y at 18, replay 19, which carries the end mark that node 2's
 * release (at 18) passed to node 6's input.
 * Node 10 = (2,2): 14 at 21, D at 22 (end).  Node 14: 14 at 24, D at 25.
 * Node 3 = (3,0): 3 at 20, D at 21.
 * Multicast latency 25; per destination (11 + 13 + 21 + 25) / 4 = 17.5;
 * 3 branches with replay (nodes 1, 2, 6); 6 network channels.
 */
static const struct hev {
	unsigned c, node, port, addr, dest, tail;
} tree_hand[] = {
    {3, 0, 0, 1, 6, 0},	   {4, 0, 0, 0, 0, 0},	  {6, 1, 0, 1, 6, 0},
    {7, 0, 0, 1, 1, 0},	   {7, 1, 0, 0, 0, 0},	  {8, 0, 0, 1, 14, 0},
    {9, 2, 2, 1, 6, 0},	   {10, 1, 4, 1, 1, 0},	  {10, 2, 2, 0, 0, 0},
    {11, 0, 0, 1, 3, 1},   {11, 1, 4, 0, 0, 0},	  {12, 1, 0, 1, 14, 0},
    {12, 6, 4, 1, 6, 0},   {13, 6, 4, 0, 0, 0},	  {14, 1, 0, 1, 3, 1},
    {15, 2, 2, 1, 14, 0},  {17, 2, 0, 1, 3, 0},	  {18, 2, 0, 0, 0, 1},
    {18, 6, 2, 1, 14, 0},  {19, 6, 2, 0, 0, 1},	  {20, 3, 4, 1, 3, 0},
    {21, 3, 4, 0, 0, 1},   {21, 10, 2, 1, 14, 0}, {22, 10, 2, 0, 0, 1},
    {24, 14, 4, 1, 14, 0}, {25, 14, 4, 0, 0, 1},
};

START_TEST(test_tree_hand)
{
	static const unsigned dests[4] = {6, 1, 14, 3};
	const struct ml_sim_trace_msg m = {0, 0, 2, 4, dests};
	const size_t n = sizeof(tree_hand) / sizeof(tree_hand[0]);
	struct ml_sim_params p;
	struct ml_sim_result r;
	static struct rec rc;
	size_t i;

	mesh4(&p, ML_SIM_TREE);
	ck_assert_int_eq(run_rec(&p, &m, 1, &r, &rc), ML_OK);
	ck_assert_uint_eq(rc.nev, n);
	for (i = 0; i < n; i++) {
		const struct hev *h = &tree_hand[i];
		int found = 0;

		/* crossings of one cycle may come in any router order */
		for (unsigned j = 0; j < rc.nev && !found; j++) {
			const struct ev *e = &rc.ev[j];

			found = e->c == h->c && e->node == h->node &&
				e->port == h->port &&
				(e->kind == FK_ADDR) == (int)h->addr &&
				e->dest == h->dest && e->tail == h->tail;
		}
		ck_assert_msg(found, "event %zu: cycle %u node %u port %u", i,
			      h->c, h->node, h->port);
	}
	ck_assert_uint_eq(rc.done[1], 1);
	ck_assert_uint_eq(rc.done_at[1], 11);
	ck_assert_uint_eq(rc.done_at[6], 13);
	ck_assert_uint_eq(rc.done_at[3], 21);
	ck_assert_uint_eq(rc.done_at[14], 25);
	ck_assert_double_eq(r.multicast_latency, 25);
	ck_assert_double_eq(r.multicast_latency_dest, 17.5);
	ck_assert_double_eq(r.branches, 3);
	ck_assert_double_eq(r.channels, 6);
	ck_assert_double_eq(r.prunings, 0);
	/* every address follows its dor path: 3, 1, 2 + 3 and 3 hops */
	ck_assert_double_eq(r.hops, (3 + 1 + 5 + 3) / 4.0);
	/* the same multicast without pruning: nothing blocks, same times */
	p.pruning = 0;
	ck_assert_int_eq(run_rec(&p, &m, 1, &r, &rc), ML_OK);
	ck_assert_double_eq(r.multicast_latency, 25);
}
END_TEST

/*
 * The deadlock of 004 Figure 3 on a 4x4 mesh with XY routing.  Q = node
 * 5 = (1,1), P = node 6 = (2,1).  Multicast A from node 4 = (0,1) at cycle
 * 0 to a_1 = 7 = (3,1), a_2 = 13 = (1,3), a_3 = 14; its first branch goes
 * 4 -> Q -> P -> a_1 (east).  Multicast B from P at cycle 3 to b_1 = 9 =
 * (1,2), then b_2 = 11 = (3,2), 13, 5, 4, 15; its first branch goes P -> Q
 * -> b_1 (west, then north): the paper's T, where B waits with its branch
 * to b_1 open, is here B's source P itself (under XY a worm that needs
 * P's east output at P and crossed Q must start at P).
 * Times (as in test_tree_hand): a_1 takes Q's east output at 4 and P's
 * at 7; b_1 takes P's west output at 4 and Q's north output at 7.  At 8
 * both second addresses are routed: a_2 at Q needs north (held by B's
 * branch, open because B's input at P still has addresses), b_2 at P
 * needs east (held by A's branch, open because Q waits for A's later
 * addresses).
 * Without pruning: a deadlock, detected (status deadlock), not a hang.
 * With pruning, at cycle 8: A prunes at Q (its branch to a_1 becomes a
 * worm ending after its data flit, whose end mark crosses P -> a_1 at
 * 10, freeing P's east output), and B prunes at P (its branch to b_1
 * ends after its data: the mark crosses Q -> b_1 at 10, freeing Q's
 * north output): the paper's pruning1 at Q and pruning2 at T.  Both
 * multicasts complete, each pruned once, every destination reached once.
 */
START_TEST(test_figure3)
{
	static const unsigned da[3] = {7, 13, 14},
			      db[6] = {9, 11, 13, 5, 4, 15};
	const struct ml_sim_trace_msg m[2] = {{0, 4, 2, 3, da},
					      {3, 6, 2, 6, db}};
	struct ml_sim_params p;
	struct ml_sim_result r;
	static struct rec rc;
	unsigned i, cut_a = 0, cut_b = 0;

	mesh4(&p, ML_SIM_TREE);
	p.pruning = 0;
	ck_assert_int_eq(run_rec(&p, m, 2, &r, &rc), ML_DEADLOCK);
	ck_assert(r.cycles < 2000); /* 10 (M + diameter + 100) idle cycles */
	ck_assert_uint_eq(rc.done[7] + rc.done[9], 2); /* a_1, b_1 only */
	ck_assert_uint_eq(rc.done[13] + rc.done[11], 0);

	p.pruning = 1;
	ck_assert_int_eq(run_rec(&p, m, 2, &r, &rc), ML_OK);
	ck_assert_double_eq(r.prunings, 1);
	for (i = 0; i < rc.nev; i++) {
		const struct ev *e = &rc.ev[i];

		/* the pruned branches' last flits (the data) carry the end */
		if (e->c == 10 && e->node == 6 && e->port == ML_MC_XP &&
		    e->kind == FK_DATA && e->tail)
			cut_a++;
		if (e->c == 10 && e->node == 5 && e->port == ML_MC_YP &&
		    e->kind == FK_DATA && e->tail)
			cut_b++;
	}
	ck_assert_uint_eq(cut_a, 1);
	ck_assert_uint_eq(cut_b, 1);
	for (i = 0; i < 3; i++)
		ck_assert_uint_eq(rc.done[da[i]], da[i] == 13 ? 2 : 1);
	for (i = 0; i < 6; i++)
		ck_assert_uint_eq(rc.done[db[i]], db[i] == 13 ? 2 : 1);
}
END_TEST

/* The network channels (node, port) a worm's flits first crossed, in
 * order, for message id msg. */
static unsigned worm_path(const struct rec *rc, unsigned msg, unsigned *np,
			  unsigned *pp)
{
	unsigned i, j, n = 0;

	for (i = 0; i < rc->nev; i++) {
		const struct ev *e = &rc->ev[i];
		int seen = 0;

		if (e->msg != msg || e->port >= 4)
			continue;
		for (j = 0; j < n; j++)
			seen |= np[j] == e->node && pp[j] == e->port;
		if (!seen)
			np[n] = e->node, pp[n++] = e->port;
	}
	return n;
}

/*
 * Dual-Path in the simulator, the multicast of test_dp_split: source 5 =
 * (1,1), L6, ports 2.  High worm [4, 10, 15]: R from L6 to L7 is -x to
 * node 4; from L7 to L10 +y (L8), +x (L9), +x (L10 = node 10); from L10
 * to L12: +x (L11), +y (L12 = node 15).  Low worm [3, 0]: from L6 to L3
 * +x (L5), +x (L4), -y (L3 = node 3); then -x three times to node 0.  The
 * high worm delivers on delivery channel 0 (port 4), the low one on 1.
 */
START_TEST(test_dp_sim)
{
	static const unsigned dests[5] = {15, 0, 10, 3, 4};
	static const unsigned hn[6] = {5, 4, 8, 9, 10, 11},
			      hp[6] = {1, 2, 0, 0, 0, 2};
	static const unsigned ln[6] = {5, 6, 7, 3, 2, 1},
			      lp[6] = {0, 0, 3, 1, 1, 1};
	const struct ml_sim_trace_msg m = {0, 5, 2, 5, dests};
	struct ml_sim_params p;
	struct ml_sim_result r;
	static struct rec rc;
	unsigned np[32], pp[32], i, hi = SIM_NONE;

	mesh4(&p, ML_SIM_DUAL_PATH);
	p.ports = 2;
	ck_assert_int_eq(run_rec(&p, &m, 1, &r, &rc), ML_OK);
	for (i = 0; i < rc.nev; i++)
		if (rc.ev[i].kind == FK_ADDR && rc.ev[i].dest == 4)
			hi = rc.ev[i].msg;
	ck_assert_uint_eq(worm_path(&rc, hi, np, pp), 6);
	for (i = 0; i < 6; i++) {
		ck_assert_uint_eq(np[i], hn[i]);
		ck_assert_uint_eq(pp[i], hp[i]);
	}
	ck_assert_uint_eq(worm_path(&rc, hi ^ 1, np, pp), 6);
	for (i = 0; i < 6; i++) {
		ck_assert_uint_eq(np[i], ln[i]);
		ck_assert_uint_eq(pp[i], lp[i]);
	}
	for (i = 0; i < rc.nev; i++) /* delivery classes */
		if (rc.ev[i].port >= 4)
			ck_assert_uint_eq(rc.ev[i].port,
					  rc.ev[i].msg == hi ? 4 : 5);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(rc.done[dests[i]], 1);
	ck_assert_double_eq(r.channels, 12);
	/* hops along the worms: 4 at 1, 10 at 1 + 3, 15 at 4 + 2; 3 at 3,
	 * 0 at 3 + 3 */
	ck_assert_double_eq(r.hops, (1 + 4 + 6 + 3 + 6) / 5.0);
}
END_TEST

/*
 * PM in the simulator, the multicast of test_pm_hand (source 6, order 8,
 * 1, 13, 3, 15) at zero load: leg 0 -x, -x, +y; then +x, -y, -y; +y, +y,
 * +y; +x and, at 14 where +x and -y are both free with equal room, +x
 * (the tie goes east), then -y three times; +y three times to 15.
 * --prep-cycles 10 delays the worm, and the latency, by 10.
 */
START_TEST(test_pm_sim)
{
	static const unsigned dests[5] = {15, 8, 1, 13, 3};
	static const unsigned wn[17] = {6,  5,	4,  8,	9, 5, 1, 5, 9,
					13, 14, 15, 11, 7, 3, 7, 11};
	static const unsigned wp[17] = {1, 1, 2, 0, 3, 3, 2, 2, 2,
					0, 0, 3, 3, 3, 2, 2, 2};
	const struct ml_sim_trace_msg m = {0, 6, 2, 5, dests};
	struct ml_sim_params p;
	struct ml_sim_result r;
	static struct rec rc;
	unsigned np[64], pp[64], i, n;
	double lat;

	mesh4(&p, ML_SIM_PM);
	ck_assert_int_eq(run_rec(&p, &m, 1, &r, &rc), ML_OK);
	/* the 17 channels are distinct: first crossings give the path */
	n = worm_path(&rc, rc.ev[0].msg, np, pp);
	for (i = 0; i < n && i < 17; i++) {
		ck_assert_uint_eq(np[i], wn[i]);
		ck_assert_uint_eq(pp[i], wp[i]);
	}
	ck_assert_uint_eq(n, 17);
	ck_assert_double_eq(r.channels, 17);
	/* hops along the worm: 8 at 3, 1 at 6, 13 at 9, 3 at 14, 15 at 17 */
	ck_assert_double_eq(r.hops, (3 + 6 + 9 + 14 + 17) / 5.0);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(rc.done[dests[i]], 1);
	lat = r.multicast_latency;
	p.prep_cycles = 10;
	ck_assert_int_eq(run_rec(&p, &m, 1, &r, &rc), ML_OK);
	ck_assert_double_eq(r.multicast_latency, lat + 10);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Conservation and deadlock freedom far beyond saturation: every node
 * sends every 2 cycles for 100 cycles, multicasts (2 to 9 destinations,
 * 2 to 4 flits) mixed with unicasts; the trace ends, the network must
 * drain (status ok, no deadlock), and every destination get exactly its
 * address and the D data of each multicast it is in, once: counted per
 * node by the deliver hook, and checked flit by flit by the engine
 * (bad_flits: data without its address or an address twice on a
 * delivery channel; misdelivered: a node not in the list, or twice). */

struct ccase {
	enum ml_sim_topology t;
	unsigned k, dims;
	enum ml_sim_multicast mc;
	unsigned ports, prune_wait, R;
};

/* R = 0 and 1: a freed branch can carry a new worm's header into the next
 * router one cycle later, racing the old worm's end mark */
static const struct ccase ccases[] = {
    {ML_SIM_MESH, 4, 2, ML_SIM_TREE, 1, 1, 0},
    {ML_SIM_TORUS, 4, 2, ML_SIM_TREE, 1, 1, 1},
    {ML_SIM_MESH, 4, 2, ML_SIM_PM, 4, 1, 0},
    {ML_SIM_MESH, 4, 2, ML_SIM_TREE, 1, 1, 2},
    {ML_SIM_MESH, 4, 2, ML_SIM_TREE, 1, 50, 2},
    /* a wait beyond the deadlock detector's 10 (M + D + 100) + R: the
     * blocked worms prune, not a deadlock */
    {ML_SIM_MESH, 4, 2, ML_SIM_TREE, 1, 5000, 2},
    {ML_SIM_MESH, 4, 2, ML_SIM_TREE, 2, 3, 2},
    {ML_SIM_TORUS, 4, 2, ML_SIM_TREE, 1, 1, 2},
    {ML_SIM_TORUS, 4, 2, ML_SIM_TREE, 1, 50, 2},
    {ML_SIM_TORUS, 3, 3, ML_SIM_TREE, 1, 1, 2},
    {ML_SIM_MESH, 4, 2, ML_SIM_DUAL_PATH, 2, 1, 2},
    {ML_SIM_MESH, 5, 2, ML_SIM_DUAL_PATH, 4, 1, 2},
    {ML_SIM_MESH, 4, 2, ML_SIM_PM, 4, 1, 2},
    {ML_SIM_MESH, 5, 2, ML_SIM_PM, 4, 1, 2},
};

START_TEST(test_conservation)
{
	const struct ccase *c = &ccases[_i];
	struct ml_sim_params p;
	struct ml_sim_result r;
	unsigned got[64] = {0}, i, u;
	struct tally t = {got, 0};
	struct sim_hooks h = {tally_done, &t, 0, NULL};
	struct sim_counters cnt;
	struct ml_diag d = {0};
	struct trace tr;
	struct trace_cfg tc = {1, 100, 2, 0.7, 8, 2, 3, 1, 8};
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);

	for (i = 0; i < c->dims; i++)
		tc.N *= c->k;
	ck_assert_uint_le(tc.N, 64);
	gsl_rng_set(g, 5 + _i);
	trace_make(&tr, &tc, g);
	ml_sim_params_init(&p, c->t);
	p.k = c->k;
	p.dims = c->dims;
	p.warmup = 0;
	p.multicast = c->mc;
	p.ports = c->ports;
	p.prune_wait = c->prune_wait;
	p.router_cycles = c->R;
	p.trace = tr.m;
	p.ntrace = tr.n;
	p.max_cycles = 1000000;
	ck_assert_int_eq(ml_sim_run_hooked(&p, &r, &d, &h, &cnt), ML_OK);
	for (u = 0; u < tc.N; u++)
		ck_assert_uint_eq(got[u], tr.want[u]);
	ck_assert_uint_eq(t.flits, tr.flits);
	ck_assert_uint_eq(cnt.misdelivered, 0);
	ck_assert_uint_eq(cnt.bad_flits, 0);
	ck_assert_uint_eq(r.messages, tr.n);
	/* a tree delivers exactly an address and the data per destination;
	 * path worms also pass later addresses to the nodes on the way */
	if (c->mc == ML_SIM_TREE)
		ck_assert_uint_eq(cnt.flits_delivered, tr.flits);
	else
		ck_assert_uint_gt(cnt.flits_delivered, tr.flits);
	/* it was loaded: the last messages waited long, trees were pruned */
	ck_assert(r.latency > 100);
	if (c->mc == ML_SIM_TREE)
		ck_assert(r.prunings > 0);
	trace_free(&tr);
	gsl_rng_free(g);
}
END_TEST

/* Generated traffic, the same seed twice: the same result, bit for bit;
 * another seed: another result. */
START_TEST(test_determinism)
{
	struct ml_sim_params p;
	struct ml_sim_result a, b;

	ml_sim_params_init(&p, ML_SIM_TORUS);
	p.k = 4;
	p.multicast = _i == 0 ? ML_SIM_TREE : ML_SIM_DUAL_PATH;
	if (_i)
		p.topology = ML_SIM_MESH, p.vcs = 1, p.ports = 2;
	p.beta = 0.6;
	p.flits = 2;
	p.unicast_flits = 9;
	p.dests = 5;
	p.rate = 0.01;
	p.warmup = 500;
	p.max_cycles = 30000;
	p.seed = 7;
	ml_sim_run(&p, &a, NULL);
	ml_sim_run(&p, &b, NULL);
	ck_assert(memcmp(&a, &b, sizeof(a)) == 0);
	ck_assert(a.messages > 500);
	ck_assert(a.multicast_latency > 0 && a.unicast_latency > 0);
	p.seed = 8;
	ml_sim_run(&p, &b, NULL);
	ck_assert(a.latency != b.latency);
}
END_TEST

/* Sustained saturation with generated traffic, every mechanism on small
 * networks: 1.2 flits per node per cycle offered, several times what the
 * 4x4 networks accept; the run must end saturated after its throughput
 * test (thousands of cycles), never in a deadlock. */
START_TEST(test_saturation_no_deadlock)
{
	static const struct {
		enum ml_sim_topology t;
		enum ml_sim_multicast mc;
		unsigned ports;
	} cs[] = {
	    {ML_SIM_MESH, ML_SIM_TREE, 1},
	    {ML_SIM_TORUS, ML_SIM_TREE, 1},
	    {ML_SIM_MESH, ML_SIM_DUAL_PATH, 2},
	    {ML_SIM_MESH, ML_SIM_PM, 4},
	    {ML_SIM_MESH, ML_SIM_UNICAST, 1},
	    {ML_SIM_TORUS, ML_SIM_BINOMIAL, 1},
	};
	struct ml_sim_params p;
	struct ml_sim_result r;
	enum ml_status st;

	ml_sim_params_init(&p, cs[_i].t);
	p.k = 4;
	p.multicast = cs[_i].mc;
	p.ports = cs[_i].ports;
	p.beta = 0.8;
	p.flits = 2;
	p.unicast_flits = 6;
	p.dests = 6;
	p.rate = 0.1;
	p.warmup = 200;
	p.max_cycles = 200000;
	st = ml_sim_run(&p, &r, NULL);
	ck_assert_msg(st == ML_SATURATED, "status %s", ml_status_word(st));
	ck_assert(r.accepted < 0.95 * r.offered);
}
END_TEST

/* Pruning after flow-control blocking (A3) with a --prune-wait beyond
 * 65535 cycles (the CLI takes up to 10^6): a tree worm at node 5 of a
 * 4x4 mesh holds two branches, +x (full: its head, a data flit, cannot
 * move) and the delivery channel; it must prune the delivery branch
 * after exactly prune_wait blocked cycles, not before.  Built by hand in
 * the router state, since a real block of 70000 cycles needs a network
 * that moves elsewhere all that time. */
START_TEST(test_prune_wait_long)
{
	struct ml_sim_params p;
	struct sim s;
	uint32_t id, o, o2;
	struct mcin *t;
	unsigned long long c;

	mesh4(&p, ML_SIM_TREE);
	p.prune_wait = 70000;
	memset(&s, 0, sizeof(s));
	s.p = &p;
	s.V = p.vcs;
	s.B = p.buffer;
	s.R = p.router_cycles;
	ck_assert_int_eq(ml_topo_init(&s.t, &p), 0);
	ml_route_config(&s.rc, &s.t, p.routing, p.vcs);
	s.nvc_node = s.t.nport * s.V;
	ck_assert_int_eq(ml_net_init(&s), 0);
	ck_assert_int_eq(ml_mc_init(&s, &ml_mc_tree), 0);
	s.msgs = calloc(1, sizeof(*s.msgs));
	s.ops = calloc(1, sizeof(*s.ops));
	ck_assert(s.msgs && s.ops);
	id = 5 * s.nvc_node + ML_MC_XP * s.V; /* arrived moving +x */
	o = 5 * s.nvc_node + ML_MC_XP * s.V;
	o2 = 5 * s.nvc_node + s.t.P * s.V;
	s.iq[(size_t)id * s.B].kind = FK_DATA;
	s.iv[id].cnt = 1;
	s.iv[id].arr_at = 0;
	s.iv[id].mc = IVM_TREE;
	t = &s.mc->in[id];
	t->cur = o;
	t->opened = 1;
	t->nbr = 2;
	s.mc->br[(size_t)id * s.mc->maxbr] = o;
	s.mc->br[(size_t)id * s.mc->maxbr + 1] = o2;
	s.ov[o].owner = s.ov[o2].owner = id;
	s.ov[o].cnt = (uint16_t)s.B;
	for (c = 1; c < 70000; c++) {
		s.now = c;
		s.mc->ops->sw(&s, 5, id);
	}
	ck_assert_uint_eq(s.ops[0].prunings, 0);
	ck_assert_uint_eq(s.ov[o2].owner, id);
	s.now = c;
	s.mc->ops->sw(&s, 5, id);
	ck_assert_uint_eq(s.ops[0].prunings, 1);
	ck_assert_uint_eq(s.ov[o2].owner, SIM_NONE); /* released */
	ck_assert_uint_eq(s.ov[o].owner, id);	     /* kept */
	free(s.msgs);
	free(s.ops);
	ml_mc_free(&s);
	ml_net_free(&s);
	ml_topo_free(&s.t);
}
END_TEST

START_TEST(test_mc_validate)
{
	struct ml_sim_params p;
	struct ml_diag d = {0};

	ml_sim_params_init(&p, ML_SIM_HYPERCUBE);
	p.multicast = ML_SIM_TREE;
	ck_assert_int_eq(ml_sim_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, "multicast");
	ml_sim_params_init(&p, ML_SIM_TORUS);
	p.multicast = ML_SIM_DUAL_PATH;
	ck_assert_int_eq(ml_sim_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, "multicast");
	ml_sim_params_init(&p, ML_SIM_MESH);
	p.multicast = ML_SIM_DUAL_PATH; /* one delivery class: deadlocks */
	ck_assert_int_eq(ml_sim_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, "ports");
	p.ports = 2;
	ck_assert_int_eq(ml_sim_validate(&p, &d), ML_OK);
	p.dims = 3;
	p.multicast = ML_SIM_PM;
	ck_assert_int_eq(ml_sim_validate(&p, &d), ML_EINVAL);
	p.dims = 2;
	ck_assert_int_eq(ml_sim_validate(&p, &d), ML_OK);
	p.multicast = ML_SIM_TREE;
	p.flits = 4;
	p.aux = 2; /* cannot hold D = 3 */
	ck_assert_int_eq(ml_sim_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, "aux");
	p.aux = 3;
	ck_assert_int_eq(ml_sim_validate(&p, &d), ML_OK);
	p.beta = 0.5;
	p.flits = 1;
	ck_assert_int_eq(ml_sim_validate(&p, &d), ML_EINVAL);
	ck_assert_str_eq(d.param, "flits");
}
END_TEST

Suite *suite_mcast(void)
{
	Suite *s = suite_create("mcast");
	TCase *tc = tcase_create("pure");

	tcase_add_test(tc, test_dp_labels);
	tcase_add_test(tc, test_dp_paths);
	tcase_add_test(tc, test_dp_brute);
	tcase_add_test(tc, test_dp_subnetworks);
	tcase_add_test(tc, test_dp_split);
	tcase_add_test(tc, test_pm_hand);
	tcase_add_test(tc, test_pm_brute);
	tcase_add_test(tc, test_layouts);
	suite_add_tcase(s, tc);
	tc = tcase_create("sim");
	tcase_add_test(tc, test_tree_hand);
	tcase_add_test(tc, test_figure3);
	tcase_add_test(tc, test_dp_sim);
	tcase_add_test(tc, test_pm_sim);
	tcase_add_loop_test(tc, test_conservation, 0,
			    sizeof(ccases) / sizeof(ccases[0]));
	tcase_add_loop_test(tc, test_determinism, 0, 2);
	tcase_add_loop_test(tc, test_saturation_no_deadlock, 0, 6);
	tcase_add_test(tc, test_prune_wait_long);
	tcase_add_test(tc, test_mc_validate);
	suite_add_tcase(s, tc);
	return s;
}
