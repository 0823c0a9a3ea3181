/*
 * path.c - the path-based rivals of tree multicast (SPEC section 8;
 * notes/multicast_mechanisms.md sections 1 and 2): their pure routing
 * functions and destination orders, and their worms in the router
 * (path_route, path_switch: absorb and forward, at the end of the file,
 * reached by router.c through the hooks of ml_mc_path).
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

#include <string.h>

#include "sim/simint.h"

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

unsigned ml_pm_route(unsigned w, unsigned u, unsigned v, int leg0, int arrived)
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

/* ------------------------------------------------------------------ */
/* Path worms in the router (absorb and forward, notes A15).
 *
 * A worm [a_1 .. a_k][data] travels as a unicast towards its leading
 * address (the routing function of Dual-Path or PM, one output).  At the
 * node a_i it is routed to a delivery channel and stripped there (a_i
 * goes to the node only); the next address is then routed onward, and
 * from it on every flit goes both to the node and onward, moving only
 * when both queues have room (the input drives two outputs).  The last
 * data flit ends both.  Dual-Path's high worms deliver on the even
 * delivery channels and low worms on the odd ones (two consumption
 * channel classes, notes A6; with one delivery channel they share it);
 * PM takes any free delivery channel. */

static int path_route(struct sim *s, unsigned node, uint32_t id)
{
	struct ivc *iv = &s->iv[id];
	struct mcin *t = &s->mc->in[id];
	const struct flit *f = &s->iq[(size_t)id * s->B + iv->head];
	const struct msg *m = &s->msgs[f->msg];
	uint32_t obase = node * s->nvc_node, best = SIM_NONE;
	unsigned P = s->t.P, V = s->V, l, port, v, mask;
	int bestfree = -1;

	if (iv->mc == IVM_NONE) {
		memset(t, 0, sizeof(*t));
		t->loc = t->onw = SIM_NONE;
		t->msg = f->msg;
		iv->mc = IVM_PATH;
		ml_mc_mark(s, id, 1);
	}
	if (f->dest == node) { /* absorb: a delivery channel of its class */
		for (l = 0; l < s->t.L && best == SIM_NONE; l++) {
			uint32_t o = obase + (P + l) * V;

			if (!s->mc->pm && s->t.L > 1 && l % 2 != m->pos)
				continue;
			if (s->ov[o].owner == SIM_NONE)
				best = o;
		}
		if (best == SIM_NONE)
			return 0;
		t->loc = best;
	} else {
		unsigned inport = id % s->nvc_node / V;

		if (s->mc->pm)
			mask = ml_pm_route(
			    s->t.k, node, f->dest, f->dest == m->dest,
			    inport < P ? (int)inport : ML_MC_NONE);
		else
			mask = ML_MC_BIT(
			    ml_dp_route(s->t.k, s->t.k, node, f->dest));
		/* a free VC; among ports, the emptiest queue, then +x */
		for (port = 0; port < ML_MC_NDIR; port++) {
			if (!(mask & ML_MC_BIT(port)))
				continue;
			for (v = 0; v < V; v++) {
				uint32_t o = obase + port * V + v;
				int fr = (int)s->B - (int)s->ov[o].cnt;

				if (s->ov[o].owner != SIM_NONE)
					continue;
				if (fr > bestfree)
					best = o, bestfree = fr;
				break;
			}
		}
		if (best == SIM_NONE)
			return 0;
		t->onw = best;
		s->ops[m->op].channels++;
	}
	s->ov[best].owner = id;
	t->rt = 1;
	iv->out = best;
	iv->state = IV_ROUTED;
	iv->sw_at = s->now + s->R;
	ml_mc_settle(s, node, id);
	return 1;
}

/* The routing unit's hook: -1 when the head is not a path worm (the
 * engine routes it), else 1 for a successful decision, 0 for none. */
static int path_route_hook(struct sim *s, unsigned node, uint32_t id)
{
	struct ivc *iv = &s->iv[id];
	const struct mcin *t = &s->mc->in[id];
	const struct flit *f;

	if (iv->cnt == 0) {
		if (!iv->mc)
			return -1;
		ml_mc_settle(s, node, id);
		return 0;
	}
	f = ml_mc_iq_at(s, id, 0);
	if (iv->mc == IVM_NONE) {
		if (iv->state != IV_IDLE || s->msgs[f->msg].kind != MK_PATH)
			return -1;
		return path_route(s, node, id);
	}
	if (f->kind != FK_ADDR || t->rt || !(t->hold || iv->state == IV_IDLE)) {
		ml_mc_settle(s, node, id); /* nothing to route: out of the mask */
		return 0;
	}
	return path_route(s, node, id);
}

static void path_switch(struct sim *s, unsigned node, uint32_t id)
{
	struct ivc *iv = &s->iv[id];
	struct mcin *t = &s->mc->in[id];
	const struct flit *f;
	uint32_t o1 = SIM_NONE, o2 = SIM_NONE;
	int strip = 0;

	if (iv->cnt == 0 || (iv->cnt == 1 && iv->arr_at == s->now))
		return;
	f = &s->iq[(size_t)id * s->B + iv->head];
	if (f->kind == FK_ADDR && (t->hold || iv->state == IV_IDLE) && !t->rt)
		return; /* waits for the routing unit */
	if (t->rt && iv->sw_at > s->now)
		return;
	if (t->rt && f->dest == node) {
		strip = 1;
		o1 = t->loc;
	} else if (t->hold && f->kind == FK_DATA) {
		t->hold = 0; /* a_i was the last address: the rest is ours */
		o1 = t->loc;
	} else {
		o1 = t->loc;
		o2 = t->onw;
		if (o1 == SIM_NONE)
			o1 = o2, o2 = SIM_NONE;
	}
	if (o1 == SIM_NONE || s->ov[o1].cnt >= s->B ||
	    (o2 != SIM_NONE && s->ov[o2].cnt >= s->B)) {
		t->blocked++;
		return;
	}
	oq_push(s, node, o1, f);
	if (o2 != SIM_NONE) {
		oq_push(s, node, o2, f);
		s->flits_in_net++;
	}
	t->blocked = 0;
	iv->state = IV_ACTIVE;
	if (t->rt) {
		t->rt = 0;
		t->hold = (uint8_t)strip;
	}
	if (++iv->head == s->B)
		iv->head = 0;
	iv->pop_at = s->now;
	s->last_move = s->now;
	iv->cnt--;
	if (f->flags & FF_TAIL) { /* copies keep the mark: both worms end */
		iv->mc = IVM_NONE;
		iv->state = IV_IDLE;
		iv->out = SIM_NONE;
		ml_mc_mark(s, id, 0);
	}
	ml_mc_settle(s, node, id);
}

const struct ml_mc_ops ml_mc_path = {
    .route = path_route_hook,
    .sw = path_switch,
};
