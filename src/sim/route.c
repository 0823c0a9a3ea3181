/*
 * route.c - the routing functions, as pure functions of (node,
 * destination, dimensions already wrapped): the permitted output ports
 * and VC ranges.  The router selects among them.
 *
 * dor: the lowest dimension whose coordinate differs, the minimal
 *   direction (torus: the shorter way round, ties positive).  Torus
 *   dateline (Dally and Seitz): a message uses VC class 0 in a dimension
 *   until it crosses that dimension's wraparound link; the wraparound
 *   hop itself and every later hop in that dimension use class 1.  Class
 *   0 has the first ceil(V/2) VCs, class 1 the rest.  The classes break
 *   every ring's cycle: class-0 channels of a ring form a chain ending at
 *   the wraparound, class-1 channels a chain starting there, and minimal
 *   routes never go round a ring.
 * duato: VCs adapt0 .. V-1 are adaptive, usable on every minimal
 *   direction of every unfinished dimension (a torus dimension at exactly
 *   k/2 has two); the escape layer is dor on the remaining VCs (VC 0; on
 *   tori VCs 0 and 1 as dateline classes 0 and 1).  Which dimensions were
 *   wrapped is carried by the header (struct flit.wrapped), so a message
 *   that goes back to the escape layer after adaptive hops still uses the
 *   right class, and the escape layer's extended dependency graph stays
 *   acyclic (Duato's condition).
 */
#include "sim/simint.h"

void ml_route_config(struct rcfg *rc, const struct topo *t,
		     enum ml_sim_routing routing, unsigned vcs)
{
	rc->routing = routing;
	rc->V = vcs;
	rc->c0n = t->kind == ML_SIM_TORUS ? (vcs + 1) / 2 : vcs;
	rc->adapt0 = t->kind == ML_SIM_TORUS ? 2 : 1;
}

/* The dor step from node towards dest in dimension d (offset nonzero):
 * the port, and whether that hop is the dimension's wraparound. */
static unsigned dor_dir(const struct topo *t, unsigned node, unsigned d,
			unsigned x, unsigned y)
{
	(void)node;
	if (t->kind == ML_SIM_HYPERCUBE)
		return d;
	if (t->kind == ML_SIM_MESH)
		return y > x ? 2 * d : 2 * d + 1;
	/* torus: + when (y - x) mod k <= k / 2 (ties positive) */
	return 2 * ((y + t->k - x) % t->k) <= t->k ? 2 * d : 2 * d + 1;
}

unsigned ml_route_dor_port(const struct topo *t, unsigned node, unsigned dest)
{
	const unsigned *cx = t->coord + (size_t)node * t->n;
	const unsigned *cy = t->coord + (size_t)dest * t->n;
	unsigned d;

	for (d = 0; d < t->n; d++)
		if (cx[d] != cy[d])
			return dor_dir(t, node, d, cx[d], cy[d]);
	return SIM_NONE;
}

static void escape_vcs(const struct topo *t, const struct rcfg *rc,
		       unsigned node, unsigned port, unsigned wrapped,
		       struct cand *c)
{
	unsigned cls = 0;

	if (t->kind == ML_SIM_TORUS) {
		cls = (wrapped >> ml_topo_port_dim(t, port) & 1) ||
		      t->wrap[(size_t)node * t->P + port];
	}
	c->port = (uint16_t)port;
	if (rc->routing == ML_SIM_DUATO) {
		c->vc0 = (uint8_t)(t->kind == ML_SIM_TORUS ? cls : 0);
		c->nvc = 1;
		c->escape = 1;
		return;
	}
	c->escape = 0;
	if (cls == 0 || rc->c0n >= rc->V) { /* (V = 1: tests only) */
		c->vc0 = 0;
		c->nvc = (uint8_t)rc->c0n;
	} else {
		c->vc0 = (uint8_t)rc->c0n;
		c->nvc = (uint8_t)(rc->V - rc->c0n);
	}
}

unsigned ml_route_cands(const struct topo *t, const struct rcfg *rc,
			unsigned node, unsigned dest, unsigned wrapped,
			struct cand *c)
{
	const unsigned *cx = t->coord + (size_t)node * t->n;
	const unsigned *cy = t->coord + (size_t)dest * t->n;
	unsigned d, nc = 0, esc = SIM_NONE;

	if (node == dest) {
		for (d = 0; d < t->L; d++) {
			c[nc].port = (uint16_t)(t->P + d);
			c[nc].vc0 = 0;
			c[nc].nvc = 1;
			c[nc].escape = 0;
			nc++;
		}
		return nc;
	}
	for (d = 0; d < t->n; d++) {
		unsigned x = cx[d], y = cy[d];

		if (x == y)
			continue;
		if (esc == SIM_NONE)
			esc = dor_dir(t, node, d, x, y);
		if (rc->routing != ML_SIM_DUATO)
			break;
		if (rc->V <= rc->adapt0)
			continue; /* no adaptive VC (tests only) */
		if (t->kind == ML_SIM_TORUS) {
			unsigned fwd = (y + t->k - x) % t->k;

			if (2 * fwd <= t->k) {
				c[nc].port = (uint16_t)(2 * d);
				c[nc].vc0 = (uint8_t)rc->adapt0;
				c[nc].nvc = (uint8_t)(rc->V - rc->adapt0);
				c[nc++].escape = 0;
			}
			if (2 * fwd >= t->k) {
				c[nc].port = (uint16_t)(2 * d + 1);
				c[nc].vc0 = (uint8_t)rc->adapt0;
				c[nc].nvc = (uint8_t)(rc->V - rc->adapt0);
				c[nc++].escape = 0;
			}
			continue;
		}
		c[nc].port = (uint16_t)dor_dir(t, node, d, x, y);
		c[nc].vc0 = (uint8_t)rc->adapt0;
		c[nc].nvc = (uint8_t)(rc->V - rc->adapt0);
		c[nc++].escape = 0;
	}
	escape_vcs(t, rc, node, esc, wrapped, &c[nc++]);
	return nc;
}
