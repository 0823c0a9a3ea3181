/*
 * mcnet.c - what the hardware multicast mechanisms share in the router
 * of router.c (mcast.h's router side): their state (struct mcnet, one
 * struct mcin per input VC), the router masks a worm's input VC sits in
 * (ml_mc_settle, ml_mc_mark), the release of a branch by its end mark
 * (ml_mc_mark_end, notes A2), the worm layouts at the source and the
 * delivery of a worm's flits to a destination.  The mechanisms
 * themselves, tree.c and path.c, are reached through their tables of
 * hooks (struct ml_mc_ops), which sim.c picks; both call this file,
 * which calls neither, and report nothing upward: ml_mc_deliver returns
 * when a destination has its message, and router.c tells traffic.c.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/mcast.h"
#include "sim/simint.h"

/* ------------------------------------------------------------------ */
/* State. */

int ml_mc_init(struct sim *s, const struct ml_mc_ops *ops)
{
	const struct ml_sim_params *p = s->p;
	size_t nvc = (size_t)s->t.N * s->nvc_node;
	size_t ndl = (size_t)s->t.N * s->t.L;
	struct mcnet *mc;

	if (ops == NULL)
		return 0;
	mc = calloc(1, sizeof(*mc));
	if (!mc)
		return -1;
	s->mc = mc;
	mc->ops = ops;
	/* DOR: at most one VC per port and dateline class, one delivery
	 * channel (the destinations are distinct) */
	mc->maxbr = 2 * s->t.P + s->t.L;
	mc->in = calloc(nvc, sizeof(*mc->in));
	mc->br = malloc(nvc * mc->maxbr * sizeof(*mc->br));
	mc->dcnt = calloc(ndl, sizeof(*mc->dcnt));
	mc->darm = calloc(ndl, 1);
	mc->pend = malloc(nvc * sizeof(*mc->pend));
	mc->mask = calloc((size_t)s->t.N * s->W, sizeof(*mc->mask));
	mc->pnext = malloc(nvc * sizeof(*mc->pnext));
	if (!mc->in || !mc->br || !mc->dcnt || !mc->darm || !mc->pend ||
	    !mc->pnext || !mc->mask)
		return -1;
	mc->pruning = p->pruning;
	mc->prune_wait = p->prune_wait ? p->prune_wait : 1;
	mc->pm = p->multicast == ML_SIM_PM;
	return 0;
}

void ml_mc_free(struct sim *s)
{
	struct mcnet *mc = s->mc;

	if (!mc)
		return;
	free(mc->in);
	free(mc->br);
	free(mc->dcnt);
	free(mc->darm);
	free(mc->pend);
	free(mc->pnext);
	free(mc->mask);
	free(mc);
	s->mc = NULL;
}

/* ------------------------------------------------------------------ */
/* Masks and end marks. */

void ml_mc_settle(struct sim *s, unsigned node, uint32_t id)
{
	const struct ivc *iv = &s->iv[id];
	const struct mcin *t = &s->mc->in[id];
	unsigned b = id - node * s->nvc_node;
	uint64_t bit = (uint64_t)1 << (b & 63);
	uint64_t *im = s->imask + (size_t)node * s->W + (b >> 6);
	uint64_t *rm = s->rmask + (size_t)node * s->W + (b >> 6);
	int need = 0;

	if (iv->cnt || (iv->mc == IVM_TREE && t->replay))
		*im |= bit;
	else
		*im &= ~bit;
	if (iv->mc == IVM_TREE) {
		need = ml_mc_tree_pending(s, id) >= 0;
	} else if (iv->cnt) {
		const struct flit *f = ml_mc_iq_at(s, id, 0);

		if (iv->mc == IVM_NONE)
			need = iv->state == IV_IDLE;
		else if (f->kind == FK_ADDR && !t->rt)
			need = t->hold || iv->state == IV_IDLE;
	}
	if (need)
		*rm |= bit;
	else
		*rm &= ~bit;
}

void ml_mc_mark(struct sim *s, uint32_t id, int on)
{
	unsigned node = id / s->nvc_node, b = id - node * s->nvc_node;
	uint64_t *w = s->mc->mask + (size_t)node * s->W + (b >> 6);

	if (on)
		*w |= (uint64_t)1 << (b & 63);
	else
		*w &= ~((uint64_t)1 << (b & 63));
}

void ml_mc_mark_end(struct sim *s, uint32_t o)
{
	struct ovc *ov = &s->ov[o];
	uint32_t d;

	if (ov->cnt) { /* the branch's last flit is still here */
		unsigned slot = ov->head + ov->cnt - 1;

		if (slot >= s->B)
			slot -= s->B;
		s->oq[(size_t)o * s->B + slot].flags |= FF_TAIL;
		return;
	}
	if (o % s->nvc_node / s->V >= s->t.P) { /* delivery: all there */
		ov->owner = SIM_NONE;
		return;
	}
	d = ml_mc_downstream(s, o);
	if (s->iv[d].cnt) { /* no other worm can be behind it */
		ml_mc_iq_at(s, d, s->iv[d].cnt - 1u)->flags |= FF_TAIL;
		ov->owner = SIM_NONE;
		return;
	}
	/* the mark crosses the link next cycle; o stays taken until then,
	 * so no new worm can reach d before d has ended this one */
	s->mc->pnext[s->mc->npnext++] = o;
}

/* ------------------------------------------------------------------ */
/* Source and delivery. */

void ml_mc_flit(const struct sim *s, const struct msg *m, unsigned sent,
		struct flit *f)
{
	const struct mop *op = &s->ops[m->op];
	const uint32_t *l = s->lists + (size_t)op->list * s->list_slot + m->lo;
	unsigned n = m->hi - m->lo, D = m->flits - n;

	if (m->kind == MK_TREE) { /* [d_1, data, d_2 .. d_n] */
		if (sent == 0 || sent > D) {
			f->kind = FK_ADDR;
			f->dest = l[sent ? sent - D : 0];
		} else {
			f->kind = FK_DATA;
		}
		return;
	}
	if (sent < n) { /* [a_1 .. a_n][data] */
		f->kind = FK_ADDR;
		f->dest = l[sent];
	} else {
		f->kind = FK_DATA;
	}
}

int ml_mc_deliver(struct sim *s, unsigned node, unsigned l,
		   const struct flit *f)
{
	struct mcnet *mc = s->mc;
	size_t ch = (size_t)node * s->t.L + l;
	const struct msg *m = &s->msgs[f->msg];

	s->flits_in_net--;
	s->cnt.flits_delivered++;
	if (f->kind == FK_ADDR) {
		if (f->dest != node)
			return 0; /* a path worm's later address: not counted */
		if (mc->darm[ch])
			s->cnt.bad_flits++;
		mc->darm[ch] = 1;
		mc->dcnt[ch] = 0;
		if (s->measuring) {
			s->accepted_flits += 1;
			s->node_flits[node]++;
		}
		if (m->flits ==
		    m->hi - m->lo) { /* no data (a 1-flit unicast) */
			mc->darm[ch] = 0;
			return 1;
		}
		return 0;
	}
	if (!mc->darm[ch]) { /* data without its address */
		s->cnt.bad_flits++;
		return 0;
	}
	if (s->measuring) {
		s->accepted_flits += 1;
		s->node_flits[node]++;
	}
	if (++mc->dcnt[ch] == m->flits - (m->hi - m->lo)) {
		mc->darm[ch] = 0;
		return 1;
	}
	return 0;
}
