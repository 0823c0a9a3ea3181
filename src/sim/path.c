/*
 * path.c - the pure functions of the path-based rivals of tree multicast
 * (SPEC section 8; notes/multicast_mechanisms.md sections 1 and 2):
 *
 * Dual-Path (Lin & Ni 1991; Lin, McKinley & Ni 1994).  The boustrophedon
 * labelling L(x, y) = y w + x (y even), y w + (w - 1 - x) (y odd) is a
 * Hamiltonian path; a channel u->v is in the high network when L(v) > L(u),
 * in the low network otherwise.  R(u, v) goes to the neighbour with the
 * largest label not past L(v) (high) or the smallest not below it (low);
 * every R-path is minimal with monotone labels (brute force in
 * tests/check_mcast.c), so each subnetwork is acyclic and a mesh needs no
 * virtual channels.  The source splits the destinations into those with a
 * higher label (ascending) and a lower one (descending): two worms.
 *
 * PM, our reconstruction (notes section 2, A7): destinations sorted by
 * (x, y); leg 0 to the west-most one by deterministic XY; later legs
 * minimal with +x, +y, -y only and no +y -> -y U-turn.  Deadlock-free: -x
 * channels are entered only from -x channels or the injection channel
 * (leg 0 goes west first), x never decreases after leg 0, and a cycle
 * inside one column needs a +y -> -y turn.
 */
#include "sim/mcast.h"


unsigned ml_dp_label(unsigned w, unsigned node)
{
	unsigned x = node % w, y = node / w;

	return y * w + (y % 2 == 0 ? x : w - 1 - x);
}

unsigned ml_dp_node(unsigned w, unsigned l)
{
	unsigned y = l / w, r = l % w;

	return y * w + (y % 2 == 0 ? r : w - 1 - r);
}

/* The neighbour of u in direction dir, or -1 at the mesh's edge. */
static long neighbour(unsigned w, unsigned h, unsigned u, int dir)
{
	unsigned x = u % w, y = u / w;

	switch (dir) {
	case ML_MC_XP:
		return x + 1 < w ? (long)u + 1 : -1;
	case ML_MC_XM:
		return x > 0 ? (long)u - 1 : -1;
	case ML_MC_YP:
		return y + 1 < h ? (long)(u + w) : -1;
	case ML_MC_YM:
		return y > 0 ? (long)(u - w) : -1;
	default:
		return -1;
	}
}

int ml_dp_route(unsigned w, unsigned h, unsigned u, unsigned v)
{
	unsigned lu = ml_dp_label(w, u), lv = ml_dp_label(w, v);
	int best = ML_MC_NONE;
	unsigned bl = 0;

	if (u == v)
		return ML_MC_NONE;
	for (int d = 0; d < ML_MC_NDIR; d++) {
		long nb = neighbour(w, h, u, d);
		unsigned l;

		if (nb < 0)
			continue;
		l = ml_dp_label(w, (unsigned)nb);
		if (lu < lv) {
			if (l <= lv && (best == ML_MC_NONE || l > bl))
				best = d, bl = l;
		} else if (l >= lv && (best == ML_MC_NONE || l < bl)) {
			best = d, bl = l;
		}
	}
	return best;
}

int ml_dp_is_high(unsigned w, unsigned h, unsigned u, int dir)
{
	long nb = neighbour(w, h, u, dir);

	return nb >= 0 && ml_dp_label(w, (unsigned)nb) > ml_dp_label(w, u);
}

/* The sort key: the label (Dual-Path) or (x, y) lexicographically (PM). */
static unsigned long sort_key(unsigned w, unsigned node, int pm)
{
	return pm ? (unsigned long)(node % w) * 65536ul + node / w
		  : ml_dp_label(w, node);
}

/* Insertion sort: n is a destination count (tens), keys are distinct, and
 * nothing is allocated. */
static void sort_nodes(unsigned *nodes, size_t n, unsigned w, int pm,
		       int descending)
{
	for (size_t i = 1; i < n; i++) {
		unsigned a = nodes[i];
		unsigned long ka = sort_key(w, a, pm);
		size_t j = i;

		for (; j > 0; j--) {
			unsigned long kb = sort_key(w, nodes[j - 1], pm);

			if (descending ? kb > ka : kb < ka)
				break;
			nodes[j] = nodes[j - 1];
		}
		nodes[j] = a;
	}
}

void ml_dp_split(unsigned w, unsigned src, const unsigned *dests, size_t n,
		 unsigned *high, size_t *nh, unsigned *low, size_t *nl)
{
	unsigned ls = ml_dp_label(w, src);

	*nh = *nl = 0;
	for (size_t i = 0; i < n; i++) {
		if (ml_dp_label(w, dests[i]) > ls)
			high[(*nh)++] = dests[i];
		else
			low[(*nl)++] = dests[i];
	}
	sort_nodes(high, *nh, w, 0, 0);
	sort_nodes(low, *nl, w, 0, 1);
}

void ml_pm_sort(unsigned w, unsigned *dests, size_t n)
{
	sort_nodes(dests, n, w, 1, 0);
}

unsigned ml_pm_route(unsigned w, unsigned u, unsigned v, int leg0,
		     int arrived)
{
	unsigned ux = u % w, uy = u / w, vx = v % w, vy = v / w;
	unsigned m = 0;

	if (u == v)
		return 0;
	if (leg0) { /* deterministic XY to the west-most destination */
		if (vx != ux)
			return ML_MC_BIT(vx > ux ? ML_MC_XP : ML_MC_XM);
		return ML_MC_BIT(vy > uy ? ML_MC_YP : ML_MC_YM);
	}
	/* Later legs: v is never west of u (sorted by x), and when in the
	 * same column it lies north of the previous destination, so one of
	 * these is always permitted: -y is needed only when v is lower, and
	 * then either v is east (+x) or the worm moved -y or +x last. */
	if (vx > ux)
		m |= ML_MC_BIT(ML_MC_XP);
	if (vy > uy)
		m |= ML_MC_BIT(ML_MC_YP);
	if (vy < uy && arrived != ML_MC_YP)
		m |= ML_MC_BIT(ML_MC_YM);
	return m;
}

size_t ml_path_layout(const unsigned *dests, size_t n, unsigned data,
		      struct ml_mc_flit *out)
{
	size_t f = 0;

	for (size_t i = 0; i < n; i++)
		out[f].kind = ML_MC_ADDR, out[f++].dest = dests[i];
	for (unsigned j = 0; j < data; j++)
		out[f].kind = ML_MC_DATA, out[f++].dest = j;
	return f;
}
