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
#include <stdlib.h>

#include "sim/mcast.h"

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
	static const unsigned l44[16] = {0, 1,	2,  3,	7,  6,	5,  4,
					 8, 9, 10, 11, 15, 14, 13, 12};
	static const unsigned l35[15] = {0,  1, 2, 5,  4,  3,  6, 7,
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
		u = d == ML_MC_XP   ? u + 1
		    : d == ML_MC_XM ? u - 1
		    : d == ML_MC_YP ? u + w
				    : u - w;
	}
	return hops;
}

/* Hand-worked R-paths (see the neighbour labels in the comments). */
START_TEST(test_dp_paths)
{
	int d[64];

	/* 4x4, (0,0) L0 -> (1,2) L9: neighbours L1, L7 -> 7 (+y); at L7:
	 * 6, 0, 8 -> 8 (+y); at L8: 9 (+x).  3 hops = 1 + 2. */
	ck_assert_uint_eq(dp_walk(4, 4, 0, 9, d), 3);
	ck_assert_int_eq(d[0], ML_MC_YP);
	ck_assert_int_eq(d[1], ML_MC_YP);
	ck_assert_int_eq(d[2], ML_MC_XP);
	/* 4x4, (3,0) L3 -> (0,3) L15: +y to L4, +y to L11, +y to L12, then
	 * -x to L13, L14, L15.  6 hops = 3 + 3. */
	ck_assert_uint_eq(dp_walk(4, 4, 3, 12, d), 6);
	ck_assert_int_eq(d[0], ML_MC_YP);
	ck_assert_int_eq(d[1], ML_MC_YP);
	ck_assert_int_eq(d[2], ML_MC_YP);
	ck_assert_int_eq(d[3], ML_MC_XM);
	ck_assert_int_eq(d[4], ML_MC_XM);
	ck_assert_int_eq(d[5], ML_MC_XM);
	/* Low network, 4x4, (0,3) L15 -> (2,0) L2: smallest label >= 2 among
	 * the neighbours: 8 (-y), 7 (-y), 6 (+x), 5 (+x), 2 (-y).  5 hops. */
	ck_assert_uint_eq(dp_walk(4, 4, 12, 2, d), 5);
	ck_assert_int_eq(d[0], ML_MC_YM);
	ck_assert_int_eq(d[1], ML_MC_YM);
	ck_assert_int_eq(d[2], ML_MC_XP);
	ck_assert_int_eq(d[3], ML_MC_XP);
	ck_assert_int_eq(d[4], ML_MC_YM);
	/* 3x5, (2,0) L2 -> (0,4) L12: 3 (+y), 8 (+y), 9 (+y), 10 (-x),
	 * 11 (-x), 12 (+y).  6 hops = 2 + 4. */
	ck_assert_uint_eq(dp_walk(3, 5, 2, 12, d), 6);
	ck_assert_int_eq(d[0], ML_MC_YP);
	ck_assert_int_eq(d[1], ML_MC_YP);
	ck_assert_int_eq(d[2], ML_MC_YP);
	ck_assert_int_eq(d[3], ML_MC_XM);
	ck_assert_int_eq(d[4], ML_MC_XM);
	ck_assert_int_eq(d[5], ML_MC_YP);
	/* 3x5 low, (1,4) L13 -> (1,1) L4: 10, 7, 4, all -y. */
	ck_assert_uint_eq(dp_walk(3, 5, 13, 4, d), 3);
	ck_assert_int_eq(d[0], ML_MC_YM);
	ck_assert_int_eq(d[2], ML_MC_YM);
	ck_assert_int_eq(ml_dp_route(4, 4, 5, 5), ML_MC_NONE);
}
END_TEST

/* Brute force over every ordered pair: R-paths are minimal (Manhattan),
 * labels strictly monotone, every channel in the pair's subnetwork. */
START_TEST(test_dp_brute)
{
	static const unsigned sizes[][2] = {{4, 4}, {3, 5}, {5, 3}, {8, 8},
					    {2, 7}, {7, 2}, {16, 16}};

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		unsigned w = sizes[s][0], h = sizes[s][1], n = w * h;

		for (unsigned u = 0; u < n; u++)
			for (unsigned v = 0; v < n; v++) {
				unsigned x = u, hops = 0;
				unsigned man = abs((int)(u % w) - (int)(v % w)) +
					       abs((int)(u / w) - (int)(v / w));
				int high = ml_dp_label(w, u) < ml_dp_label(w, v);

				while (x != v) {
					int d = ml_dp_route(w, h, x, v);
					unsigned y;

					CHEAP(d >= 0);
					CHEAP(ml_dp_is_high(w, h, x, d) == high);
					y = d == ML_MC_XP   ? x + 1
					    : d == ML_MC_XM ? x - 1
					    : d == ML_MC_YP ? x + w
							    : x - w;
					if (high)
						CHEAP(ml_dp_label(w, y) > ml_dp_label(w, x));
					else
						CHEAP(ml_dp_label(w, y) < ml_dp_label(w, x));
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

			rng = rng * 6364136223846793005ul + 1442695040888963407ul;
			src = (unsigned)(rng >> 33) % n;
			used[src] = 1;
			rng = rng * 6364136223846793005ul + 1442695040888963407ul;
			nd = 1 + (unsigned)(rng >> 33) % (n - 1);
			for (unsigned i = 0; i < nd; i++) {
				unsigned c;

				do {
					rng = rng * 6364136223846793005ul +
					      1442695040888963407ul;
					c = (unsigned)(rng >> 33) % n;
				} while (used[c]);
				used[c] = 1;
				d[i] = c;
			}
			ml_pm_sort(w, d, nd);
			u = src;
			for (unsigned i = 0; i < nd; i++) {
				unsigned v = d[i];
				unsigned man = abs((int)(u % w) - (int)(v % w)) +
					       abs((int)(u / w) - (int)(v / w));
				unsigned hops = 0;
				int seen_y = 0;

				if (i > 0)
					CHEAP(v % w >= u % w);
				while (u != v) {
					unsigned m = ml_pm_route(w, u, v, i == 0,
								 arrived);
					int c[4], nc = 0, dir;

					CHEAP(m != 0);
					for (int k = 0; k < 4; k++)
						if (m & ML_MC_BIT(k))
							c[nc++] = k;
					rng = rng * 6364136223846793005ul +
					      1442695040888963407ul;
					dir = c[(rng >> 33) % (unsigned)nc];
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
					CHEAP(!(arrived == ML_MC_YP && dir == ML_MC_YM));
					u = dir == ML_MC_XP   ? u + 1
					    : dir == ML_MC_XM ? u - 1
					    : dir == ML_MC_YP ? u + w
							      : u - w;
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
	return s;
}
