/*
 * tree.c - tree-based multicast with pruning (Malumbres & Duato, paper
 * 004 sections 2 to 4; SPEC section 8; notes/multicast_mechanisms.md
 * section 3 and ambiguities A1-A15) in the router of router.c: the tree
 * worm's routing, switching, pruning and release, driven by router.c
 * through the hooks of ml_mc_tree.  What tree and path worms share
 * (their state, masks, end marks, delivery) is mcnet.c's.
 *
 * The worm is [d_1, data_1 .. data_D, d_2 .. d_n] (004 Figure 1).  At
 * every input VC (struct mcin):
 *  - every address is routed by the routing unit (one decision per
 *    router per cycle, A8), with the unicast routing function (DOR);
 *  - an address reuses a branch this worm already holds at this router
 *    when the routing function permits it (same port and VC: A14), and
 *    crosses like a data flit, with no data after it; otherwise it opens
 *    a branch on a free permitted output VC and, when the data have
 *    already passed (they are in the auxiliary buffer), the D data flits
 *    are replayed behind it, one per cycle, before the input moves on;
 *  - the routing unit is pipelined: it may route the address behind the
 *    head (see "Tree routing" below), so reusing addresses cross a
 *    router one per cycle;
 *  - total pruning (004 section 3, A4): an address with neither a
 *    reusable nor a free output releases every branch of the worm at
 *    this router (but the one the flit ahead of it is about to take)
 *    and waits; the pruning after flow-control blocking
 *    (A3): when the head flit (or a replayed one) finds its branch's
 *    queue full for prune_wait consecutive cycles, every other branch is
 *    released;
 *  - normal release (A1): the branches are held until the worm's last
 *    flit, and its replay, have crossed; then each is released.
 * Releasing a branch (ml_mc_mark_end, A2): the last flit still queued on it
 * gets the end mark FF_TAIL (the output VC is freed when it crosses the
 * link, as for a unicast tail); if that flit is already downstream, the
 * mark goes to the last flit queued in the downstream input VC, or, when
 * that is empty too, crosses the link at the start of the next cycle
 * (the output VC stays taken until then, so no new worm can overtake it)
 * and the downstream input releases its own branches: the mark travels
 * at most one hop per cycle and takes no buffer slot.  A released (pruned)
 * branch is thus an ordinary worm ending after its last flit; the addresses
 * behind open new branches with a replay, so every destination gets its address
 * and the D data exactly once (tests/check_mcast.c checks it under load).
 * Flits moved on a branch never carry the worm's own FF_TAIL: the end of
 * each branch is marked by its release.
 *
 * Delivery: a destination's delivery channel receives its address then
 * the D data flits (as a branch of the worm, held until the worm ends,
 * A5); when the D-th arrives the destination has the message.  Path
 * worms also pass the addresses of later destinations through it (A15):
 * those are not counted as received traffic (SPEC 8).
 */
#include <stdlib.h>
#include <string.h>

#include "sim/mcast.h"
#include "sim/simint.h"

size_t ml_tree_layout(const unsigned *dests, size_t n, unsigned data,
		      struct ml_mc_flit *out)
{
	size_t f = 0;

	if (n == 0)
		return 0;
	out[f].kind = ML_MC_ADDR, out[f++].dest = dests[0];
	for (unsigned j = 0; j < data; j++)
		out[f].kind = ML_MC_DATA, out[f++].dest = j;
	for (size_t i = 1; i < n; i++)
		out[f].kind = ML_MC_ADDR, out[f++].dest = dests[i];
	return f;
}

/* ------------------------------------------------------------------ */
/* Queues. */

/* Drop the head flit of input VC id of node. */
static void pop_in(struct sim *s, uint32_t id)
{
	struct ivc *iv = &s->iv[id];

	if (++iv->head == s->B)
		iv->head = 0;
	iv->cnt--;
	iv->pop_at = s->now;
	s->last_move = s->now;
}

static struct mop *op_of(struct sim *s, uint32_t m)
{
	return &s->ops[s->msgs[m].op];
}

/* The worm has left input VC id: release every branch (A1). */
static void tree_finish(struct sim *s, uint32_t id)
{
	struct mcin *t = &s->mc->in[id];
	const uint32_t *br = s->mc->br + (size_t)id * s->mc->maxbr;
	struct ivc *iv = &s->iv[id];
	unsigned i;

	for (i = 0; i < t->nbr; i++)
		ml_mc_mark_end(s, br[i]);
	memset(t, 0, sizeof(*t));
	iv->mc = IVM_NONE;
	iv->state = IV_IDLE;
	iv->out = SIM_NONE;
	ml_mc_mark(s, id, 0);
	ml_mc_settle(s, id / s->nvc_node, id);
}

/* Release every branch of input VC id but keep (SIM_NONE: all). */
static void prune(struct sim *s, uint32_t id, uint32_t keep)
{
	struct mcin *t = &s->mc->in[id];
	uint32_t *br = s->mc->br + (size_t)id * s->mc->maxbr;
	unsigned i, j = 0;

	for (i = 0; i < t->nbr; i++) {
		if (br[i] == keep)
			br[j++] = br[i];
		else
			ml_mc_mark_end(s, br[i]);
	}
	t->nbr = (uint16_t)j;
	/* decisions whose branch is gone are taken again */
	if (t->rt && s->iv[id].out != keep)
		t->rt = 0;
	if (t->rt1 && t->out1 != keep)
		t->rt1 = 0;
	if (!t->rt)
		s->iv[id].out = SIM_NONE;
	op_of(s, t->msg)->prunings++;
	ml_mc_settle(s, id / s->nvc_node, id);
}

/* Start of every cycle: end marks that reached an empty input VC in the
 * previous cycle release that input's branches (notes A2). */
static void tree_cycle(struct sim *s)
{
	struct mcnet *mc = s->mc;
	uint32_t *x = mc->pend;
	unsigned i, n;

	/* this cycle handles the marks of the last one; new ones wait */
	mc->pend = mc->pnext;
	mc->pnext = x;
	n = mc->npnext;
	mc->npend = n;
	mc->npnext = 0;
	for (i = 0; i < n; i++) {
		uint32_t o = mc->pend[i], d = ml_mc_downstream(s, o);
		struct mcin *t = &mc->in[d];

		s->ov[o].owner = SIM_NONE;
		if (s->iv[d].mc != IVM_TREE)
			continue;
		if (t->replay)
			t->tail = 1;
		else
			tree_finish(s, d);
	}
}

/* ------------------------------------------------------------------ */
/* Tree routing (step 1 of the cycle).
 *
 * Pipelined (004 section 5.1: the routing circuit and the switch each
 * take one cycle per flit): while the head address waits its R cycles
 * (or a data flit at the head moves on), the routing unit may already
 * route the address behind it, so addresses that reuse branches cross a
 * router one per cycle, like data flits (004 section 4); each address
 * still takes R + 1 cycles per hop.  Only the head and the flit behind it
 * are looked at; nothing is routed while the aux buffer is replayed. */

static int tree_route(struct sim *s, unsigned node, uint32_t id)
{
	struct cand c[SIM_MAX_CAND];
	struct ivc *iv = &s->iv[id];
	struct mcin *t = &s->mc->in[id];
	uint32_t *br = s->mc->br + (size_t)id * s->mc->maxbr;
	uint32_t obase = node * s->nvc_node, o = SIM_NONE;
	unsigned nc, i, j, v;
	int pos, nb = 0;
	const struct flit *f;

	if (iv->mc == IVM_NONE) { /* the opening address of a worm */
		memset(t, 0, sizeof(*t));
		iv->mc = IVM_TREE;
		ml_mc_mark(s, id, 1);
		t->msg = ml_mc_iq_at(s, id, 0)->msg;
	}
	pos = ml_mc_tree_pending(s, id);
	if (pos < 0) {
		ml_mc_settle(s, node, id);
		return 0;
	}
	if (pos == 1 && iv->cnt == 2 && iv->arr_at == s->now)
		return 0; /* arrived this cycle: next cycle */
	f = ml_mc_iq_at(s, id, (unsigned)pos);
	nc = ml_route_cands(&s->t, &s->rc, node, f->dest, f->wrapped, c);
	/* reuse a branch the routing function permits (004 2.1(b), A14) */
	for (i = 0; i < t->nbr && o == SIM_NONE; i++) {
		unsigned port = br[i] % s->nvc_node / s->V;

		v = br[i] % s->V;
		for (j = 0; j < nc; j++)
			if (c[j].port == port && v >= c[j].vc0 &&
			    v < (unsigned)c[j].vc0 + c[j].nvc)
				o = br[i];
	}
	/* a new branch on a free permitted output VC (004 2.1(a)) */
	for (j = 0; j < nc && o == SIM_NONE && t->nbr < s->mc->maxbr; j++)
		for (v = c[j].vc0; v < (unsigned)c[j].vc0 + c[j].nvc; v++) {
			struct mop *op;

			o = obase + c[j].port * s->V + v;
			if (s->ov[o].owner != SIM_NONE) {
				o = SIM_NONE;
				continue;
			}
			s->ov[o].owner = id;
			br[t->nbr++] = o;
			/* the data passed (are passing): replay them */
			nb = t->opened;
			op = op_of(s, t->msg);
			op->branches += (uint32_t)nb;
			op->channels += c[j].port < s->t.P;
			break;
		}
	if (o == SIM_NONE) {
		/* no output: total pruning (004 section 3, A4), keeping only
		 * the branch the head flit is about to take */
		if (s->mc->pruning && t->nbr) {
			uint32_t keep = SIM_NONE;

			if (pos == 1)
				keep = ml_mc_iq_at(s, id, 0)->kind == FK_ADDR
					   ? iv->out
					   : t->cur;
			if (t->nbr > (keep != SIM_NONE))
				prune(s, id, keep);
		}
		return 0;
	}
	if (!t->opened) { /* the data follow this branch */
		t->opened = 1;
		t->cur = o;
	}
	if (pos == 0) {
		t->rt = 1;
		t->newbr = (uint8_t)nb;
		iv->out = o;
		iv->state = IV_ROUTED;
		iv->sw_at = s->now + s->R;
	} else {
		t->rt1 = 1;
		t->nb1 = (uint8_t)nb;
		t->out1 = o;
		t->sw1 = s->now + s->R;
	}
	ml_mc_settle(s, node, id);
	return 1;
}

/* The routing unit's hook: -1 when the head is not a tree worm (the
 * engine routes it), else 1 for a successful decision, 0 for none. */
static int tree_route_hook(struct sim *s, unsigned node, uint32_t id)
{
	struct ivc *iv = &s->iv[id];
	const struct flit *f;

	if (iv->cnt == 0) {
		if (!iv->mc)
			return -1;
		ml_mc_settle(s, node, id);
		return 0;
	}
	f = ml_mc_iq_at(s, id, 0);
	if (iv->mc == IVM_NONE &&
	    (iv->state != IV_IDLE || s->msgs[f->msg].kind != MK_TREE))
		return -1;
	return tree_route(s, node, id);
}

/* ------------------------------------------------------------------ */
/* Tree switch (step 2). */

/* The head of input VC id cannot move: its branch o is full (A3). */
static void tree_blocked(struct sim *s, uint32_t id, uint32_t o)
{
	struct mcin *t = &s->mc->in[id];

	if (++t->blocked >= s->mc->prune_wait && s->mc->pruning && t->nbr > 1) {
		prune(s, id, o);
		t->blocked = 0;
	}
}

static void tree_switch(struct sim *s, unsigned node, uint32_t id)
{
	struct ivc *iv = &s->iv[id];
	struct mcin *t = &s->mc->in[id];
	uint32_t o;
	struct flit *f, x;

	if (t->replay) { /* the aux buffer's data, behind a new branch */
		o = t->rout;
		if (s->ov[o].cnt >= s->B) {
			tree_blocked(s, id, o);
			return;
		}
		memset(&x, 0, sizeof(x));
		x.msg = t->msg;
		x.kind = FK_DATA;
		oq_push(s, node, o, &x);
		s->last_move = s->now;
		s->flits_in_net++;
		t->blocked = 0;
		if (--t->replay == 0 && t->tail)
			tree_finish(s, id);
		else
			ml_mc_settle(s, node, id);
		return;
	}
	if (iv->cnt == 0 || (iv->cnt == 1 && iv->arr_at == s->now))
		return; /* nothing, or a flit that arrived this cycle */
	f = ml_mc_iq_at(s, id, 0);
	if (f->kind == FK_ADDR) {
		if (!t->rt || iv->sw_at > s->now)
			return; /* not routed yet, or in its R cycles */
		o = iv->out;
	} else {
		o = t->cur; /* data follow the opening address */
	}
	if (o == SIM_NONE)
		return;
	if (s->ov[o].cnt >= s->B) {
		tree_blocked(s, id, o);
		return;
	}
	x = *f;
	x.flags &= (uint8_t)~FF_TAIL;
	oq_push(s, node, o, &x);
	pop_in(s, id); /* sets last_move */
	t->blocked = 0;
	if (x.kind == FK_DATA) {
		t->seen++; /* copied into the aux buffer (004 section 4) */
	} else {
		iv->state = IV_ACTIVE;
		if (t->newbr) {
			t->replay = t->seen;
			t->rout = o;
		}
	}
	/* the flit behind, if routed, is the new head's decision */
	t->rt = t->rt1;
	t->newbr = t->nb1;
	t->rt1 = t->nb1 = 0;
	if (t->rt) {
		iv->out = t->out1;
		iv->sw_at = t->sw1;
	}
	if (f->flags & FF_TAIL) {
		if (t->replay) {
			t->tail = 1;
		} else {
			tree_finish(s, id);
			return;
		}
	}
	ml_mc_settle(s, node, id);
}

const struct ml_mc_ops ml_mc_tree = {
    .route = tree_route_hook,
    .sw = tree_switch,
    .cycle = tree_cycle,
};
