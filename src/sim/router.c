/*
 * router.c - the flit-level wormhole router and its links.
 *
 * Structure.  Every router port has V virtual channels; each VC has a
 * queue of B = --buffer flits at both ends of its physical channel: an
 * output VC queue (struct ovc) at the upstream router and an input VC
 * queue (struct ivc) at the downstream one.  Injection channels feed
 * input ports P .. P+L-1 (VC 0), delivery channels drain output ports
 * P .. P+L-1 (VC 0) into the node, which always accepts.
 *
 * One cycle, for each active router (in any order, see
 * ml_net_routers_cycle), then the injection channels:
 *  1. routing: each router's routing unit makes at most one successful
 *     decision (notes A8), round robin over its input VCs whose head flit
 *     is an unrouted address: it reserves a free permitted output VC
 *     (route.c gives the candidates; dor takes the first free VC, duato a
 *     random free adaptive VC, else the escape VC) and lets the header
 *     switch R cycles later;
 *  2. switch: every input VC whose head flit has a reserved output moves
 *     one flit into that output VC queue if the queue had a free slot at
 *     the start of the cycle (links have not run yet, so its count is the
 *     start-of-cycle count); the crossbar has a port per VC, so the only
 *     shared resource is the physical link;
 *  3. links: each output port moves at most one flit, chosen by demand-
 *     slotted round robin among its VCs that have a flit and whose
 *     downstream input queue had a free slot at the start of the cycle
 *     (count + a flit that left it this cycle < B, notes A9): so B = 2
 *     sustains one flit per cycle per hop, without BookSim's credit round
 *     trip;
 *  4. injection: each source queue's current message moves one flit into
 *     its injection input queue under the same rule.
 * A flit switched in cycle t may cross the link in the same cycle t
 * (switch and link form one pipeline stage), and a flit that arrives in
 * cycle t is switched at t + 1 at the earliest.  A header arriving in
 * cycle t is routed at t + 1 and switches at t + 1 + R: R + 1 cycles per
 * router and link.  The injection channel is crossed in the generation
 * cycle g (with Delta = 0), so a header crosses the delivery channel at
 * g + (R + 1)(D + 1) over D hops, and the last of M flits M - 1 cycles
 * later: the zero-load latency (R + 1)(D + 1) + M - 1 of SPEC 7.1.
 *
 * Bookkeeping: per router, bit masks of its nonempty input VCs (imask),
 * nonempty output VCs (omask) and input VCs whose head flit waits for
 * the routing unit (rmask); only routers with something queued are on
 * the active list, so idle routers cost nothing.
 *
 * Wormhole: a header reserves an output VC (ovc.owner) and its input VC
 * follows it (ivc.out) until the flit marked FF_TAIL has been switched;
 * the output VC is freed when that flit crosses the link.
 *
 * How multicast plugs in (tree.c, path.c, through the hooks of struct
 * ml_mc_ops in s->mc->ops; what they share is mcnet.c's: a destination
 * that has its whole message is reported by ml_mc_deliver's return, and
 * this file tells traffic.c).  A flit is typed (address/data),
 * carries its message and, for addresses, its destination, and any flit
 * can carry the end-of-worm mark FF_TAIL.  The per-input state keeps
 * "where the head flit goes this cycle" (ivc.out) apart from what the
 * input holds (ovc.owner): a tree worm keeps a set of reserved outputs
 * (all owned by the input), points ivc.out at the branch of the current
 * flit (the first branch for data, a reused or new branch for a later
 * address, the new branch during an aux-buffer replay), and releases
 * branches by clearing their owner and marking their last flit FF_TAIL
 * (or, if already gone, passing the mark on).  Every address is routed
 * by the routing unit (step 1, one per cycle), so ml_route_cands() is used
 * per address.  Path worms (absorb and forward) give an input two
 * outputs at once and move a flit only when both had room.
 */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "sim/mcast.h"
#include "sim/simint.h"

/* The phases of a router's cycle take the number of 64-bit words of its
 * VC masks (W) as a parameter and are always inlined, so that
 * ml_net_routers_cycle can call them with the constant 1 whenever a router
 * has at most 64 VCs (every mesh and torus of up to 15 dimensions with 2
 * VCs): the word loops and the index arithmetic fold away.  Their fields
 * of struct sim are read into locals once, because a store through a
 * uint16_t, uint32_t or uint64_t pointer may alias them and GCC would
 * read them again after each.  With both, scripts/bench_sim.c's 8x8
 * torus ran 6 % fewer instructions. */
#define HOT static inline __attribute__((always_inline))

static inline void bit_set(uint64_t *m, unsigned b)
{
	m[b >> 6] |= (uint64_t)1 << (b & 63);
}

static inline void bit_clr(uint64_t *m, unsigned b)
{
	m[b >> 6] &= ~((uint64_t)1 << (b & 63));
}

/* bit_set, bit_clr when cond (0 or 1), without a branch: whether a queue
 * just became empty or nonempty is a coin toss for the branch predictor,
 * and a mispredicted branch costs more than the store. */
static inline void bit_set_if(uint64_t *m, unsigned b, unsigned cond)
{
	m[b >> 6] |= (uint64_t)cond << (b & 63);
}

static inline void bit_clr_if(uint64_t *m, unsigned b, unsigned cond)
{
	m[b >> 6] &= ~((uint64_t)cond << (b & 63));
}

static inline void activate(struct sim *s, unsigned node)
{
	if (!s->in_act[node]) {
		s->in_act[node] = 1;
		s->act[s->nact++] = node;
	}
}

int ml_net_init(struct sim *s)
{
	size_t nvc = (size_t)s->t.N * s->nvc_node;
	size_t nports = (size_t)s->t.N * s->t.nport;
	size_t i;

	s->W = (s->nvc_node + 63) / 64;
	/* + SIM_MAX_VCS: the queues a delivery channel's room is read
	 * from, always empty (link_port) */
	s->iv = calloc(nvc + SIM_MAX_VCS, sizeof(*s->iv));
	s->ov = calloc(nvc, sizeof(*s->ov));
	s->iq = malloc(nvc * s->B * sizeof(*s->iq));
	s->oq = malloc(nvc * s->B * sizeof(*s->oq));
	s->imask = calloc((size_t)s->t.N * s->W, sizeof(*s->imask));
	s->omask = calloc((size_t)s->t.N * s->W, sizeof(*s->omask));
	s->rmask = calloc((size_t)s->t.N * s->W, sizeof(*s->rmask));
	s->port_of = malloc(s->nvc_node * sizeof(*s->port_of));
	s->rr_route = calloc(s->t.N, sizeof(*s->rr_route));
	s->link = calloc(nports, sizeof(*s->link));
	s->act = malloc(s->t.N * sizeof(*s->act));
	s->in_act = calloc(s->t.N, 1);
	s->inj = calloc((size_t)s->t.N * s->t.L, sizeof(*s->inj));
	s->inj_act = malloc((size_t)s->t.N * s->t.L * sizeof(*s->inj_act));
	if (!s->iv || !s->ov || !s->iq || !s->oq || !s->imask || !s->omask ||
	    !s->rr_route || !s->link || !s->act || !s->in_act || !s->inj ||
	    !s->inj_act || !s->rmask || !s->port_of)
		return -1;
	for (i = 0; i < s->nvc_node; i++)
		s->port_of[i] = (uint16_t)(i / s->V);
	for (i = 0; i < nports; i++) {
		unsigned node = (unsigned)(i / s->t.nport);
		unsigned port = (unsigned)(i % s->t.nport);

		s->link[i].nb = s->link[i].dn = SIM_NONE;
		s->link[i].room = (uint32_t)nvc;
		if (port < s->t.P) { /* mesh edges: never used */
			uint32_t nb = s->t.nbr[(size_t)node * s->t.P + port];

			s->link[i].nb = nb;
			s->link[i].dn = nb * s->nvc_node + port * s->V;
			if (nb != SIM_NONE)
				s->link[i].room = s->link[i].dn;
		}
	}
	for (i = 0; i < nvc + SIM_MAX_VCS; i++) {
		s->iv[i].out = SIM_NONE;
		s->iv[i].pop_at = UINT64_MAX;
		s->iv[i].arr_at = UINT64_MAX;
	}
	for (i = 0; i < nvc; i++)
		s->ov[i].owner = SIM_NONE;
	for (i = 0; i < (size_t)s->t.N * s->t.L; i++) {
		s->inj[i].qhead = s->inj[i].qtail = SIM_NONE;
		s->inj[i].cur = SIM_NONE;
		s->inj[i].node = (uint32_t)(i / s->t.L);
		s->inj[i].in = (uint32_t)(s->inj[i].node * s->nvc_node +
					  (s->t.P + i % s->t.L) * s->V);
	}
	return 0;
}

void ml_net_free(struct sim *s)
{
	free(s->iv);
	free(s->ov);
	free(s->iq);
	free(s->oq);
	free(s->imask);
	free(s->omask);
	free(s->rmask);
	free(s->port_of);
	free(s->rr_route);
	free(s->link);
	free(s->act);
	free(s->in_act);
	free(s->inj);
	free(s->inj_act);
}

/* ------------------------------------------------------------------ */
/* 1. Routing unit. */

/* The selection function: a free output VC of node among the
 * candidates, or SIM_NONE.  Duato: a random free adaptive VC, else the
 * escape VC if free; otherwise (dor, delivery) the first free VC in
 * candidate order.  Free = no owner; a released VC is already empty. */
uint32_t ml_net_select(struct sim *s, unsigned node, const struct cand *c,
		       unsigned nc)
{
	uint32_t obase = node * s->nvc_node, o = SIM_NONE, esc = SIM_NONE;
	unsigned i, v, nfree = 0, pick;

	for (i = 0; i < nc; i++) {
		uint32_t b = obase + c[i].port * s->V;

		for (v = c[i].vc0; v < (unsigned)c[i].vc0 + c[i].nvc; v++) {
			if (s->ov[b + v].owner != SIM_NONE)
				continue;
			if (s->rc.routing != ML_SIM_DUATO ||
			    c[i].port >= s->t.P)
				return b + v;
			if (c[i].escape)
				esc = b + v;
			else
				nfree++;
		}
	}
	if (!nfree)
		return esc;
	pick = nfree > 1 ? (unsigned)gsl_rng_uniform_int(s->rng, nfree) : 0;
	for (i = 0; i < nc && o == SIM_NONE; i++) {
		uint32_t b = obase + c[i].port * s->V;

		if (c[i].escape)
			continue;
		for (v = c[i].vc0; v < (unsigned)c[i].vc0 + c[i].nvc; v++)
			if (s->ov[b + v].owner == SIM_NONE && pick-- == 0) {
				o = b + v;
				break;
			}
	}
	return o;
}

/* Reserve an output VC for the address at the head of input VC id of
 * node; 1 on success. */
static int route_one(struct sim *s, unsigned node, uint32_t id)
{
	struct cand c[SIM_MAX_CAND];
	const struct flit *f = &s->iq[(size_t)id * s->B + s->iv[id].head];
	unsigned nc =
	    ml_route_cands(&s->t, &s->rc, node, f->dest, f->wrapped, c);
	uint32_t o = ml_net_select(s, node, c, nc);

	if (o == SIM_NONE)
		return 0;
	s->ov[o].owner = id;
	s->iv[id].out = o;
	s->iv[id].state = IV_ROUTED;
	s->iv[id].sw_at = s->now + s->R;
	bit_clr(s->rmask + (size_t)node * s->W, id - node * s->nvc_node);
	return 1;
}

static inline int arrived_now(const struct ivc *iv, uint64_t now)
{
	return (iv->cnt == 1) & (iv->arr_at == now); /* one branch, not two */
}

HOT void route_phase(struct sim *s, unsigned node, unsigned W)
{
	const uint64_t *m = s->rmask + (size_t)node * W;
	uint32_t base = node * s->nvc_node;
	unsigned start, pass, w;
	uint64_t any = 0;

	for (w = 0; w < W; w++)
		any |= m[w];
	if (!any)
		return;
	start = s->rr_route[node];
	/* two passes: bits >= start, then bits < start */
	for (pass = 0; pass < 2; pass++) {
		for (w = 0; w < W; w++) {
			uint64_t bits = m[w];

			while (bits) {
				unsigned b =
				    w * 64 + (unsigned)__builtin_ctzll(bits);

				bits &= bits - 1;
				if ((pass == 0) != (b >= start) ||
				    arrived_now(&s->iv[base + b], s->now))
					continue;
				if (s->mc) { /* tree and path worms: the
					      * mechanism's hook */
					int r = s->mc->ops->route(s, node,
								  base + b);

					if (r > 0) {
						s->rr_route[node] = b + 1;
						return;
					}
					if (r == 0)
						continue;
				}
				if (route_one(s, node, base + b)) {
					s->rr_route[node] = b + 1;
					return;
				}
			}
		}
	}
}

/* ------------------------------------------------------------------ */
/* 2. Switch. */

HOT void switch_phase(struct sim *s, unsigned node, unsigned W)
{
	uint64_t *m = s->imask + (size_t)node * W;
	uint64_t *om = s->omask + (size_t)node * W;
	uint64_t *rm = s->rmask + (size_t)node * W;
	/* multicast worms: the mechanism's switch hook decides */
	const uint64_t *mcm = s->mc ? s->mc->mask + (size_t)node * W : NULL;
	struct ivc *ivs = s->iv;
	struct ovc *ovs = s->ov;
	const struct flit *iq = s->iq;
	struct flit *oq = s->oq;
	const uint64_t now = s->now;
	uint32_t base = node * s->nvc_node;
	unsigned w, B = s->B;
	int moved = 0;

	for (w = 0; w < W; w++) {
		uint64_t bits = m[w] & ~rm[w];

		if (mcm)
			bits |= m[w] & mcm[w];

		while (bits) {
			unsigned b = w * 64 + (unsigned)__builtin_ctzll(bits);
			uint32_t id = base + b, out;
			struct ivc *iv = &ivs[id];
			struct ovc *ov;
			const struct flit *f;

			bits &= bits - 1;
			if (iv->mc) { /* a tree or path worm: its hook */
				s->mc->ops->sw(s, node, id);
				continue;
			}
			/* One branch for the three reasons not to move, each a
			 * coin toss for the predictor: the flit arrived this
			 * cycle, the header waits its R cycles (sw_at is in
			 * the past once the worm is active), the output VC is
			 * full (never, while the header waits: a free VC is
			 * empty). */
			out = iv->out;
			ov = &ovs[out];
			if (!((!arrived_now(iv, now)) & (iv->sw_at <= now) &
			      (ov->cnt < B)))
				continue;
			iv->state = IV_ACTIVE;
			f = &iq[(size_t)id * B + iv->head];
			{
				unsigned slot = ov->head + ov->cnt;

				if (slot >= B)
					slot -= B;
				oq[(size_t)out * B + slot] = *f;
			}
			bit_set_if(om, out - base, ov->cnt++ == 0);
			if (++iv->head == B)
				iv->head = 0;
			iv->pop_at = now;
			bit_clr_if(m, b, --iv->cnt == 0);
			if (f->flags & FF_TAIL) {
				iv->state = IV_IDLE;
				iv->out = SIM_NONE;
				if (iv->cnt)
					bit_set(rm, b); /* the next worm */
			}
			moved = 1;
		}
	}
	if (moved)
		s->last_move = now;
}

/* ------------------------------------------------------------------ */
/* 3. Links and delivery channels. */

/* The VCs of a port that may send: nonempty, and their downstream input
 * queue had room at the start of the cycle.  Computed for all V VCs
 * without a branch on either test, then the demand-slotted round robin
 * takes the first one after the last served: the room test alone was a
 * coin toss for the branch predictor on every VC it looked at. */
HOT uint64_t port_ready(const struct ovc *ovs, const struct ivc *d,
			unsigned V, unsigned B, uint64_t now)
{
	uint64_t ready = 0;
	unsigned v;

	for (v = 0; v < V; v++) {
		unsigned room = d[v].cnt + (unsigned)(d[v].pop_at == now) < B;

		ready |= (uint64_t)((ovs[v].cnt != 0) & room) << v;
	}
	return ready;
}

HOT void link_port(struct sim *s, unsigned node, unsigned port, unsigned W)
{
	unsigned V = s->V, B = s->B, v;
	uint32_t nvc_node = s->nvc_node;
	uint32_t base = node * nvc_node, ob = base + port * V;
	struct olink *lk = &s->link[(size_t)node * s->t.nport + port];
	uint8_t *rr = &lk->rr;
	uint32_t dn = lk->dn, nb = lk->nb;
	const uint64_t now = s->now;
	const struct ovc *ovs = s->ov + ob;
	struct ivc *ivs = s->iv;
	struct ovc *ov;
	struct flit f;
	uint64_t ready = port_ready(ovs, ivs + lk->room, V, B, now), after;

	if (!ready)
		return;
	/* the first ready VC after *rr, cyclically (two shifts: *rr may
	 * be 63, and a ternary on *rr + 1 == V compiled to a branch) */
	after = ready & ((~(uint64_t)0 << *rr) << 1);
	v = (unsigned)__builtin_ctzll(after ? after : ready);
	*rr = (uint8_t)v;
	ov = &s->ov[ob + v];
	f = s->oq[(size_t)(ob + v) * B + ov->head];
	if (++ov->head == B)
		ov->head = 0;
	bit_clr_if(s->omask + (size_t)node * W, port * V + v, --ov->cnt == 0);
	if (f.flags & FF_TAIL)
		ov->owner = SIM_NONE;
	s->last_move = now;
	if (s->hooks && s->hooks->flit)
		s->hooks->flit(s->hooks->arg, node, port, v, &f, s->now);
	if (dn == SIM_NONE && s->mc && s->msgs[f.msg].kind >= MK_TREE) {
		if (ml_mc_deliver(s, node, port - s->t.P, &f))
			ml_traffic_mc_done(s, node, f.msg);
		return;
	}
	if (dn == SIM_NONE) {
		/* delivery channel: the node takes the flit */
		struct msg *m = &s->msgs[f.msg];

		s->flits_in_net--;
		s->cnt.flits_delivered++;
		m->got++;
		if (s->measuring) {
			s->accepted_flits += 1;
			s->node_flits[node]++;
		}
		if (f.flags & FF_TAIL)
			ml_traffic_delivered(s, node, f.msg);
		return;
	}
	if (f.kind == FK_ADDR) {
		if (s->t.wrap[(size_t)node * s->t.P + port])
			f.wrapped |=
			    (uint16_t)(1u << ml_topo_port_dim(&s->t, port));
		s->msgs[f.msg].hops++;
	}
	{
		uint32_t did = dn + v;
		struct ivc *d = &ivs[did];
		unsigned slot = d->head + d->cnt;

		if (slot >= B)
			slot -= B;
		s->iq[(size_t)did * B + slot] = f;
		d->arr_at = now;
		{
			unsigned b = did - nb * nvc_node, first = d->cnt++ == 0;

			bit_set_if(s->imask + (size_t)nb * W, b, first);
			bit_set_if(s->rmask + (size_t)nb * W, b,
				   first & (d->state == IV_IDLE));
		}
		if (d->mc) /* an address the multicast worm routes */
			ml_mc_settle(s, nb, did);
		activate(s, nb);
	}
}

HOT void link_phase(struct sim *s, unsigned node, unsigned W)
{
	const uint64_t *m = s->omask + (size_t)node * W;
	const uint16_t *port_of = s->port_of;
	unsigned w, last = SIM_NONE;

	for (w = 0; w < W; w++) {
		uint64_t bits = m[w];

		while (bits) {
			unsigned b = w * 64 + (unsigned)__builtin_ctzll(bits);
			unsigned port = port_of[b];

			bits &= bits - 1;
			if (port == last)
				continue;
			last = port;
			link_port(s, node, port, W);
		}
	}
}

/* One router's cycle: routing unit, switch, links.  Routers are taken in
 * any order: a link into a router already done this cycle sees the
 * flit it switched out (pop_at), one not yet done has its start-of-cycle
 * count, and a flit that arrives this cycle (arr_at) is neither routed
 * nor switched before the next. */
HOT void router_cycle(struct sim *s, unsigned node, unsigned W)
{
	route_phase(s, node, W);
	switch_phase(s, node, W);
	link_phase(s, node, W);
}

/* One loop over the routers rather than a call per router: the call's
 * register saves and the test of W were 4 % of the instructions on
 * scripts/bench_sim.c's 8x8 torus. */
void ml_net_routers_cycle(struct sim *s, unsigned n)
{
	const uint32_t *act = s->act;
	unsigned i;

	if (s->W == 1)
		for (i = 0; i < n; i++)
			router_cycle(s, act[i], 1);
	else
		for (i = 0; i < n; i++)
			router_cycle(s, act[i], s->W);
}

/* ------------------------------------------------------------------ */
/* 4. Injection channels. */

/* The fields of struct sim are read into locals once: the stores through
 * uint32_t and uint64_t pointers below may alias them (router.c's HOT
 * phases do the same). */
void ml_net_inject_phase(struct sim *s)
{
	unsigned i, j = 0, B = s->B, W = s->W, n = s->ninj_act;
	uint32_t nvc_node = s->nvc_node, *act = s->inj_act;
	const uint64_t now = s->now;
	struct inj *injs = s->inj;
	struct ivc *ivs = s->iv;
	struct flit *iq = s->iq;
	uint64_t *imask = s->imask, *rmask = s->rmask;
	int moved = 0;

	for (i = 0; i < n; i++) {
		uint32_t ch = act[i];
		struct inj *in = &injs[ch];
		unsigned node = in->node;
		uint32_t id = in->in;
		struct ivc *iv = &ivs[id];
		struct msg *m;
		struct flit *f;
		unsigned slot;

		if (in->cur == SIM_NONE) {
			in->active = 0;
			continue;
		}
		act[j++] = ch;
		if ((in->start_at > now) |
		    (iv->cnt + (unsigned)(iv->pop_at == now) >= B))
			continue;
		m = &s->msgs[in->cur];
		/* path worms: the source sorts and splits the destinations
		 * first (--prep-cycles, SPEC 8) */
		if (m->kind == MK_PATH && in->sent == 0 &&
		    m->gen + s->p->prep_cycles > now)
			continue;
		slot = iv->head + iv->cnt;
		if (slot >= B)
			slot -= B;
		f = &iq[(size_t)id * B + slot];
		f->msg = in->cur;
		f->dest = m->dest;
		f->wrapped = 0;
		f->kind = in->sent == 0 ? FK_ADDR : FK_DATA;
		f->flags = in->sent + 1 == m->flits ? FF_TAIL : 0;
		if (m->kind >= MK_TREE) /* worm layouts: tree.c */
			ml_mc_flit(s, m, in->sent, f);
		iv->arr_at = now;
		{
			unsigned b = id - node * nvc_node,
				 first = iv->cnt++ == 0;

			bit_set_if(imask + (size_t)node * W, b, first);
			bit_set_if(rmask + (size_t)node * W, b,
				   first & (iv->state == IV_IDLE));
		}
		if (iv->mc) /* an address the multicast worm routes */
			ml_mc_settle(s, node, id);
		activate(s, node);
		s->flits_in_net++;
		s->cnt.flits_injected++;
		moved = 1;
		if (++in->sent == m->flits) {
			in->qlen--;
			s->queued--;
			ml_inj_next(s, in);
			in->start_at = now + 1 + s->p->delta;
		}
	}
	if (moved)
		s->last_move = now;
	s->ninj_act = j;
}

/* Drop routers with nothing queued from the active list, keeping the
 * order (Duato's random selection draws in router order). */
HOT void compact(struct sim *s, unsigned W)
{
	const uint64_t *imask = s->imask, *omask = s->omask;
	uint32_t *act = s->act;
	uint8_t *in_act = s->in_act;
	unsigned i, j = 0, w, n = s->nact;

	for (i = 0; i < n; i++) {
		unsigned node = act[i];
		const uint64_t *im = imask + (size_t)node * W;
		const uint64_t *om = omask + (size_t)node * W;
		uint64_t any = 0;

		for (w = 0; w < W; w++)
			any |= im[w] | om[w];
		act[j] = node;
		j += any != 0;
		in_act[node] = any != 0;
	}
	s->nact = j;
}

void ml_net_compact(struct sim *s)
{
	if (s->W == 1)
		compact(s, 1);
	else
		compact(s, s->W);
}
