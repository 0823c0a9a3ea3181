/*
 * traffic.c - what the nodes send: Bernoulli generation (as geometric
 * gaps per node, in a heap, so idle cycles cost nothing), trace replay,
 * unicast destination patterns, the source queues, the two software
 * multicasts (no router support): `unicast` and `binomial`, the worms a
 * hardware multicast starts with (tree.c and path.c move them), and the
 * completion of messages and operations with their statistics.
 *
 * Unicast patterns (SPEC 7.2).  When N is a power of two (b = log2 N
 * bits, s_i the bits of the source id) they are the usual bit
 * permutations (Dally and Towles):
 *   transpose d_i = s_{(i + b/2) mod b}   bitrev  d_i = s_{b-1-i}
 *   shuffle   d_i = s_{(i - 1) mod b}     bitcomp d_i = not s_i
 * Otherwise the same permutations act on the n base-k digits of the id
 * (the coordinates): transpose rotates the digits by floor(n/2),
 * bitrev reverses them, shuffle rotates them by one, bitcomp maps every
 * coordinate c to k - 1 - c.  On a 2-D k x k mesh or torus transpose is
 * (x, y) -> (y, x) either way.
 *   tornado  every coordinate c -> (c + ceil(k/2) - 1) mod k (needs k >= 3)
 *   neighbor coordinate 0 -> (c + 1) mod k (the next node in dimension 0;
 *            on a mesh the last column sends to the first)
 *   hotspot  the hot node with probability hotspot_fraction (uniform when
 *            the source is the hot node), uniform otherwise
 *   uniform  uniform over the other N - 1 nodes.
 * A node that a permutation maps to itself generates no unicast (the
 * message is dropped before it is counted as offered).
 *
 * Software multicasts.  `unicast`: one copy per destination, all queued
 * at once in random order at the source (same generation time).
 * `binomial`: each node that has received the whole message queues its
 * sends in its source queue(s) and each send costs Delta start-up cycles
 * (struct inj.start_at).  A broadcast on a hypercube follows the
 * spanning binomial tree: dimensions in the order base, base + 1, ...
 * (mod n), with base rotating round robin over each source's broadcasts
 * (Abraham and Padmanabhan); the source sends along all n in that order,
 * a node reached along the i-th dimension sends along the later ones.
 * Every other multicast (mesh, torus, or a hypercube multicast to some
 * nodes) halves recursively the list of the source and destinations
 * sorted in dimension order (dimension 0 most significant, McKinley et
 * al.'s U-mesh): the holder of the message in a sublist sends to the
 * member of the other half nearest to the split (the first of the upper
 * half, or the last of the lower half), and both halves recurse, the
 * larger subtree first.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "sim/mcast.h"
#include "sim/simint.h"

/* ------------------------------------------------------------------ */
/* Pools. */

static int grow(void **arr, uint32_t *n, size_t elem, uint32_t want)
{
	uint32_t nn = *n ? *n : 64;
	void *p;

	while (nn < want)
		nn *= 2;
	p = realloc(*arr, (size_t)nn * elem);
	if (!p)
		return -1;
	*arr = p;
	*n = nn;
	return 0;
}

static uint32_t msg_alloc(struct sim *s)
{
	uint32_t m = s->msg_free, old = s->nmsgs, i;

	if (m == SIM_NONE) {
		if (grow((void **)&s->msgs, &s->nmsgs, sizeof(*s->msgs),
			 old + 1))
			return SIM_NONE;
		for (i = old; i < s->nmsgs; i++)
			s->msgs[i].next = i + 1 < s->nmsgs ? i + 1 : SIM_NONE;
		m = old;
	}
	s->msg_free = s->msgs[m].next;
	memset(&s->msgs[m], 0, sizeof(s->msgs[m]));
	s->msgs[m].next = SIM_NONE;
	s->msgs[m].op = SIM_NONE;
	return m;
}

static void msg_release(struct sim *s, uint32_t m)
{
	s->msgs[m].next = s->msg_free;
	s->msg_free = m;
}

static uint32_t op_alloc(struct sim *s)
{
	uint32_t o = s->op_free, old = s->nops, i;

	if (o == SIM_NONE) {
		if (grow((void **)&s->ops, &s->nops, sizeof(*s->ops), old + 1))
			return SIM_NONE;
		if (s->list_slot) {
			uint32_t *l =
			    realloc(s->lists, (size_t)s->nops * s->list_slot *
						  sizeof(*l));
			if (!l)
				return SIM_NONE;
			s->lists = l;
		}
		for (i = old; i < s->nops; i++)
			s->ops[i].next = i + 1 < s->nops ? i + 1 : SIM_NONE;
		o = old;
	}
	s->op_free = s->ops[o].next;
	memset(&s->ops[o], 0, sizeof(s->ops[o]));
	s->ops[o].next = SIM_NONE;
	s->ops[o].list = SIM_NONE;
	s->ops_live++;
	return o;
}

static void op_release(struct sim *s, uint32_t o)
{
	s->ops[o].next = s->op_free;
	s->op_free = o;
	s->ops_live--;
}

int ml_traffic_failed(const struct sim *s)
{
	return s->failed;
}

static void fail(struct sim *s)
{
	s->failed = 1;
}

/* ------------------------------------------------------------------ */
/* Generation heap: (cycle, node), smallest first. */

static int gev_less(const struct gev *a, const struct gev *b)
{
	return a->t < b->t || (a->t == b->t && a->node < b->node);
}

static void heap_push(struct sim *s, uint64_t t, uint32_t node)
{
	unsigned i = s->nheap++;

	while (i > 0) {
		unsigned up = (i - 1) / 2;
		struct gev e = {t, node};

		if (!gev_less(&e, &s->heap[up]))
			break;
		s->heap[i] = s->heap[up];
		i = up;
	}
	s->heap[i].t = t;
	s->heap[i].node = node;
}

static void heap_pop(struct sim *s)
{
	struct gev last = s->heap[--s->nheap];
	unsigned i = 0, n = s->nheap;

	for (;;) {
		unsigned c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && gev_less(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!gev_less(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (n)
		s->heap[i] = last;
}

/* Cycles to a node's next message: geometric with parameter rate, >= 1.
 * gsl_ran_geometric's formula and uniform draw (so the stream is the
 * same), but not its unsigned int result: below a rate of about 1e-9 a
 * gap passes 2^32 and GSL's conversion wraps (undefined behaviour, nodes
 * sending far too often), and below 1.1e-16 log(1 - rate) is 0.  Capped
 * at 2^62: never reached, and t + gap cannot wrap. */
static uint64_t gap(struct sim *s)
{
	double p = s->p->rate, u, l, x;

	if (p >= 1)
		return 1;
	u = gsl_rng_uniform_pos(s->rng);
	l = log(1 - p);
	if (l == 0)
		l = log1p(-p);
	x = log(u) / l + 1;
	return x < 0x1p62 ? (uint64_t)x : (uint64_t)1 << 62;
}

int ml_traffic_init(struct sim *s)
{
	const struct ml_sim_params *p = s->p;
	unsigned u, slot = 0;
	size_t i;

	s->msg_free = s->op_free = SIM_NONE;
	s->uflits = p->unicast_flits ? p->unicast_flits : p->flits;
	s->mflits = p->flits;
	s->scratch = malloc(sizeof(*s->scratch) * 2 * s->t.N);
	s->bcast_count = calloc(s->t.N, sizeof(*s->bcast_count));
	s->node_flits = calloc(s->t.N, sizeof(*s->node_flits));
	if (!s->scratch || !s->bcast_count || !s->node_flits)
		return -1;
	if (p->multicast == ML_SIM_BINOMIAL) {
		if (p->trace) {
			for (i = 0; i < p->ntrace; i++)
				if (p->trace[i].ndests > slot &&
				    p->trace[i].ndests < s->t.N - 1)
					slot = p->trace[i].ndests;
		} else if (p->beta > 0 && p->dests != ML_SIM_ALL &&
			   p->dests < s->t.N - 1) {
			slot = p->dests;
		}
	}
	if (p->multicast >= ML_SIM_TREE) { /* worm address lists: tree.c */
		if (p->trace) {
			for (i = 0; i < p->ntrace; i++)
				if (p->trace[i].ndests > slot)
					slot = p->trace[i].ndests;
		} else if (p->beta > 0) {
			slot = p->dests == ML_SIM_ALL ? s->t.N - 1 : p->dests;
		}
		if (slot == 0) /* Dual-Path unicasts are path worms */
			slot = 1;
	}
	s->list_slot = slot ? slot + 1 : 0;
	if (p->trace)
		return 0;
	s->heap = malloc(sizeof(*s->heap) * s->t.N);
	if (!s->heap)
		return -1;
	for (u = 0; u < s->t.N; u++)
		heap_push(s, gap(s) - 1, u);
	return 0;
}

void ml_traffic_free(struct sim *s)
{
	free(s->msgs);
	free(s->ops);
	free(s->lists);
	free(s->heap);
	free(s->scratch);
	free(s->bcast_count);
	free(s->node_flits);
}

uint64_t ml_traffic_next_event(const struct sim *s)
{
	if (s->p->trace)
		return s->trace_next < s->p->ntrace
			   ? s->p->trace[s->trace_next].cycle
			   : UINT64_MAX;
	return s->nheap ? s->heap[0].t : UINT64_MAX;
}

/* ------------------------------------------------------------------ */
/* Patterns. */

static unsigned uniform_other(struct sim *s, unsigned src)
{
	unsigned r = (unsigned)gsl_rng_uniform_int(s->rng, s->t.N - 1);

	return r >= src ? r + 1 : r;
}

static unsigned log2_exact(unsigned N)
{
	unsigned b = 0;

	while ((1u << b) < N)
		b++;
	return (1u << b) == N ? b : SIM_NONE;
}

static unsigned digits_map(const struct sim *s, unsigned src,
			   enum ml_sim_pattern pat)
{
	const unsigned *c = s->t.coord + (size_t)src * s->t.n;
	unsigned d[SIM_MAX_DIMS], n = s->t.n, k = s->t.k, i;

	for (i = 0; i < n; i++) {
		switch (pat) {
		case ML_SIM_TRANSPOSE:
			d[i] = c[(i + n / 2) % n];
			break;
		case ML_SIM_BITREV:
			d[i] = c[n - 1 - i];
			break;
		case ML_SIM_SHUFFLE:
			d[i] = c[(i + n - 1) % n];
			break;
		case ML_SIM_BITCOMP:
			d[i] = k - 1 - c[i];
			break;
		case ML_SIM_TORNADO:
			d[i] = (c[i] + (k + 1) / 2 - 1) % k;
			break;
		case ML_SIM_NEIGHBOR:
			d[i] = i == 0 ? (c[i] + 1) % k : c[i];
			break;
		default:
			d[i] = c[i];
			break;
		}
	}
	return ml_topo_node(&s->t, d);
}

static unsigned bits_map(unsigned src, unsigned b, enum ml_sim_pattern pat)
{
	unsigned mask = (b >= 32 ? 0u : 1u << b) - 1, h = b / 2, r = 0, i;

	switch (pat) {
	case ML_SIM_TRANSPOSE:
		return h ? ((src >> h) | (src << (b - h))) & mask : src;
	case ML_SIM_SHUFFLE:
		return ((src << 1) | (src >> (b - 1))) & mask;
	case ML_SIM_BITCOMP:
		return ~src & mask;
	case ML_SIM_BITREV:
		for (i = 0; i < b; i++)
			r |= (src >> i & 1) << (b - 1 - i);
		return r;
	default:
		return src;
	}
}

unsigned ml_traffic_pattern_dest(struct sim *s, unsigned src)
{
	const struct ml_sim_params *p = s->p;
	unsigned d, b;

	switch (p->pattern) {
	case ML_SIM_UNIFORM:
		return uniform_other(s, src);
	case ML_SIM_HOTSPOT:
		if (src != p->hotspot &&
		    gsl_rng_uniform(s->rng) < p->hotspot_fraction)
			return p->hotspot;
		return uniform_other(s, src);
	case ML_SIM_TRANSPOSE:
	case ML_SIM_BITREV:
	case ML_SIM_SHUFFLE:
	case ML_SIM_BITCOMP:
		b = log2_exact(s->t.N);
		d = b != SIM_NONE && b > 0 ? bits_map(src, b, p->pattern)
					   : digits_map(s, src, p->pattern);
		break;
	default:
		d = digits_map(s, src, p->pattern);
		break;
	}
	return d == src ? SIM_NONE : d;
}

/* ------------------------------------------------------------------ */
/* Source queues. */

/* Injection channel ch has a message in its source queue: make it the
 * channel's current one if it has none, and put the channel on the
 * injection phase's active list. */
static void inj_activate(struct sim *s, uint32_t ch)
{
	struct inj *in = &s->inj[ch];

	if (in->cur == SIM_NONE) {
		ml_inj_next(s, in);
		in->start_at = s->now + s->p->delta;
	}
	if (!in->active) {
		in->active = 1;
		s->inj_act[s->ninj_act++] = ch;
	}
}

static void enqueue(struct sim *s, unsigned node, uint32_t m)
{
	unsigned L = s->t.L, lp = 0;
	uint32_t ch;
	struct inj *in;

	/* a multiport node: the injection channel of the first dor hop */
	if (L > 1)
		lp = ml_route_dor_port(&s->t, node, s->msgs[m].dest) % L;
	ch = node * L + lp;
	in = &s->inj[ch];
	s->msgs[m].next = SIM_NONE;
	if (in->qtail == SIM_NONE)
		in->qhead = m;
	else
		s->msgs[in->qtail].next = m;
	in->qtail = m;
	in->qlen++;
	s->queued++;
	inj_activate(s, ch);
}

static uint32_t new_copy(struct sim *s, uint32_t o, unsigned src, unsigned dest,
			 uint8_t kind)
{
	uint32_t m = msg_alloc(s);
	struct msg *x;

	if (m == SIM_NONE) {
		fail(s);
		return SIM_NONE;
	}
	x = &s->msgs[m];
	x->gen = s->ops[o].gen;
	x->op = o;
	x->src = src;
	x->dest = dest;
	x->flits = (uint16_t)s->ops[o].flits;
	x->kind = kind;
	x->measured = s->ops[o].measured;
	return m;
}

/* The sends of node (position pos of the op's list) for sublist
 * [lo, hi), larger half first. */
static void halving_sends(struct sim *s, uint32_t o, unsigned node,
			  unsigned pos, unsigned lo, unsigned hi)
{
	const uint32_t *list = s->ops[o].list == SIM_NONE
				   ? s->t.sorted
				   : s->lists + (size_t)o * s->list_slot;

	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo + 1) / 2, tgt, nlo, nhi;
		uint32_t m;

		if (pos < mid) {
			tgt = mid;
			nlo = mid;
			nhi = hi;
			hi = mid;
		} else {
			tgt = mid - 1;
			nlo = lo;
			nhi = mid;
			lo = mid;
		}
		m = new_copy(s, o, node, list[tgt], MK_BCOPY);
		if (m == SIM_NONE)
			return;
		s->msgs[m].lo = nlo;
		s->msgs[m].hi = nhi;
		s->msgs[m].pos = tgt;
		enqueue(s, node, m);
	}
}

/* Hypercube spanning binomial tree: node sends along the dimensions
 * order[i], i = first .. n - 1, order[i] = (base + i) mod n. */
static void cube_sends(struct sim *s, uint32_t o, unsigned node, unsigned first)
{
	unsigned n = s->t.n, i;

	for (i = first; i < n; i++) {
		unsigned d = (s->ops[o].base + i) % n;
		uint32_t m = new_copy(s, o, node, node ^ (1u << d), MK_BCOPY);

		if (m == SIM_NONE)
			return;
		s->msgs[m].lo = i + 1;
		enqueue(s, node, m);
	}
}

/* A hardware multicast (SPEC 8): the address list in the op's slot and
 * its worms.  tree: one worm, destinations in random order (004 needs no
 * ordering); dual-path: the high worm (ascending labels) and the low one
 * (descending), as two messages; pm: one worm in (x, y) order. */
static void hw_multicast(struct sim *s, uint32_t o, unsigned src,
			 const unsigned *dests, unsigned nd)
{
	uint32_t *l = s->lists + (size_t)o * s->list_slot;
	unsigned D = s->ops[o].flits - 1, lo[2] = {0, 0}, hi[2] = {nd, nd};
	unsigned i, nw = 1;
	uint8_t kind = MK_PATH;

	s->ops[o].list = o;
	for (i = 0; i < nd; i++)
		l[i] = dests[i];
	switch (s->p->multicast) {
	case ML_SIM_TREE: /* a trace keeps its order: hand-worked tests */
		if (!s->p->trace)
			gsl_ran_shuffle(s->rng, l, nd, sizeof(*l));
		kind = MK_TREE;
		break;
	case ML_SIM_PM:
		ml_pm_sort(s->t.k, l, nd);
		break;
	default: {
		size_t nh, nl;

		ml_dp_split(s->t.k, src, dests, nd, l, &nh, s->scratch, &nl);
		for (i = 0; i < nl; i++)
			l[nh + i] = s->scratch[i];
		hi[0] = lo[1] = (unsigned)nh;
		nw = 2;
		break;
	}
	}
	for (i = 0; i < nw; i++) {
		uint32_t m;

		if (lo[i] == hi[i])
			continue;
		m = new_copy(s, o, src, l[lo[i]], kind);
		if (m == SIM_NONE)
			return;
		s->msgs[m].lo = lo[i];
		s->msgs[m].hi = hi[i];
		s->msgs[m].pos = i; /* Dual-Path delivery class */
		s->msgs[m].flits = (uint16_t)(hi[i] - lo[i] + D);
		enqueue(s, src, m);
	}
}

/* Start a multicast from src to dests[0..nd-1] (distinct, not src). */
static void start_multicast(struct sim *s, unsigned src, const unsigned *dests,
			    unsigned nd, unsigned flits, int measured)
{
	uint32_t o = op_alloc(s);
	struct mop *op;
	unsigned i;

	if (o == SIM_NONE) {
		fail(s);
		return;
	}
	s->last_op = o;
	op = &s->ops[o];
	op->gen = s->now;
	op->src = src;
	op->ndest = op->left = nd;
	op->flits = flits;
	op->measured = (uint8_t)measured;
	if (s->p->multicast >= ML_SIM_TREE) {
		hw_multicast(s, o, src, dests, nd);
		return;
	}
	if (s->p->multicast == ML_SIM_UNICAST) {
		for (i = 0; i < nd; i++)
			s->scratch[i] = dests[i];
		gsl_ran_shuffle(s->rng, s->scratch, nd, sizeof(*s->scratch));
		for (i = 0; i < nd; i++) {
			uint32_t m =
			    new_copy(s, o, src, s->scratch[i], MK_COPY);

			if (m == SIM_NONE)
				return;
			enqueue(s, src, m);
		}
		return;
	}
	/* binomial */
	if (nd == s->t.N - 1) {
		op->base = (uint16_t)(s->bcast_count[src]++ % s->t.n);
		if (s->t.kind == ML_SIM_HYPERCUBE) {
			op->cube = 1;
			cube_sends(s, o, src, 0);
			return;
		}
		halving_sends(s, o, src, s->t.rank[src], 0, s->t.N);
		return;
	}
	{
		/* sort source and destinations by rank: counting over the
		 * N ranks would be O(N); nd is small, so insertion sort */
		uint32_t *l = s->lists + (size_t)o * s->list_slot;
		unsigned j, pos = 0;

		op->list = o;
		l[0] = src;
		for (i = 0; i < nd; i++) {
			uint32_t x = dests[i];

			for (j = i + 1;
			     j > 0 && s->t.rank[l[j - 1]] > s->t.rank[x]; j--)
				l[j] = l[j - 1];
			l[j] = x;
		}
		for (i = 0; i <= nd; i++)
			if (l[i] == src)
				pos = i;
		halving_sends(s, o, src, pos, 0, nd + 1);
	}
}

/* A message or operation is born at node src now; mcast: a multicast
 * (measured as one, even with a single destination). */
static void new_message(struct sim *s, unsigned src, const unsigned *dests,
			unsigned nd, unsigned flits, int mcast)
{
	/* the epoch of the measurement (sim.c), 0 in the warm-up */
	int measured = ++s->generated > s->p->warmup ? (int)s->epoch : 0;
	uint32_t m;

	if (measured) {
		if (!s->measuring) {
			s->measuring = 1;
			s->meas_start = s->now;
		}
		s->offered_flits += (double)flits * nd;
		s->meas_generated++;
	}
	s->outstanding++;
	if (mcast) {
		start_multicast(s, src, dests, nd, flits, measured);
		return;
	}
	if (s->p->multicast == ML_SIM_DUAL_PATH) {
		/* Dual-Path's unicasts follow its Hamiltonian routing too:
		 * mixed with dimension-order worms on one VC the high and
		 * low networks would deadlock (Lin & Ni; 004 section 1) */
		start_multicast(s, src, dests, nd, flits, measured);
		if (s->nops && !s->failed)
			s->ops[s->last_op].unicast = 1;
		return;
	}
	m = msg_alloc(s);
	if (m == SIM_NONE) {
		fail(s);
		return;
	}
	s->msgs[m].gen = s->now;
	s->msgs[m].src = src;
	s->msgs[m].dest = dests[0];
	s->msgs[m].flits = (uint16_t)flits;
	s->msgs[m].kind = MK_UNICAST;
	s->msgs[m].measured = (uint8_t)measured;
	enqueue(s, src, m);
}

static void generate_at(struct sim *s, unsigned src)
{
	const struct ml_sim_params *p = s->p;
	unsigned N = s->t.N, nd, d;

	if (p->beta > 0 &&
	    (p->beta >= 1 || gsl_rng_uniform(s->rng) < p->beta)) {
		nd = p->dests == ML_SIM_ALL ? N - 1 : p->dests;
		if (nd == N - 1) {
			unsigned i, j = 0;

			for (i = 0; i < N; i++)
				if (i != src)
					s->scratch[j++] = i;
		} else {
			unsigned i, j = 0;
			uint32_t *others = s->scratch + nd;

			/* gsl_ran_choose keeps the order of the N - 1 */
			for (i = 0; i < N && j < N - 1; i++)
				if (i != src)
					others[j++] = i;
			gsl_ran_choose(s->rng, s->scratch, nd, others, N - 1,
				       sizeof(*others));
		}
		new_message(s, src, s->scratch, nd, s->mflits, 1);
		return;
	}
	d = ml_traffic_pattern_dest(s, src);
	if (d == SIM_NONE)
		return;
	new_message(s, src, &d, 1, s->uflits, 0);
}

int ml_traffic_generate(struct sim *s)
{
	const struct ml_sim_params *p = s->p;

	if (p->trace) {
		while (s->trace_next < p->ntrace &&
		       p->trace[s->trace_next].cycle <= s->now) {
			const struct ml_sim_trace_msg *t =
			    &p->trace[s->trace_next++];

			new_message(s, t->source, t->dests, t->ndests, t->flits,
				    t->ndests > 1);
		}
		return ml_traffic_failed(s) ? -1 : 0;
	}
	while (s->nheap && s->heap[0].t <= s->now) {
		unsigned node = s->heap[0].node;
		uint64_t t = s->heap[0].t, next;

		heap_pop(s);
		generate_at(s, node);
		next = t + gap(s);
		heap_push(s, next > t ? next : UINT64_MAX, node);
	}
	return ml_traffic_failed(s) ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Completion. */

static void record(struct sim *s, double lat, int mcast)
{
	acc_add(&s->lat, lat);
	acc_add(mcast ? &s->mlat : &s->ulat, lat);
	ml_batches_add(&s->bat, lat);
	ml_batches_add(mcast ? &s->bat_m : &s->bat_u, lat);
}

static void record_dest(struct sim *s, double lat)
{
	acc_add(&s->mdest, lat);
	ml_batches_add(&s->bat_md, lat);
}

void ml_traffic_delivered(struct sim *s, unsigned node, uint32_t mi)
{
	struct msg *m = &s->msgs[mi];
	double lat = (double)(s->now - m->gen);

	s->cnt.msgs_delivered++;
	if (m->dest != node)
		s->cnt.misdelivered++;
	if (m->got != m->flits)
		s->cnt.bad_flits++;
	if (s->hooks && s->hooks->deliver)
		s->hooks->deliver(s->hooks->arg, node, m->src, m->dest, m->op,
				  m->flits, s->now);
	if (m->measured == s->epoch)
		acc_add(&s->hops, m->hops);
	if (m->op == SIM_NONE) {
		if (m->measured == s->epoch)
			record(s, lat, 0);
		s->outstanding--;
		msg_release(s, mi);
		return;
	}
	{
		uint32_t o = m->op;
		struct mop *op = &s->ops[o];

		op->dest_sum += lat;
		op->channels += m->hops;
		if (m->kind == MK_BCOPY) {
			unsigned lo = m->lo, hi = m->hi, pos = m->pos;

			msg_release(s, mi);
			if (op->cube)
				cube_sends(s, o, node, lo);
			else
				halving_sends(s, o, node, pos, lo, hi);
			op = &s->ops[o];
		} else {
			msg_release(s, mi);
		}
		if (--op->left)
			return;
		if (op->measured == s->epoch) {
			record(s, lat, 1);
			record_dest(s, op->dest_sum / op->ndest);
			acc_add(&s->chan, (double)op->channels);
		}
		s->cnt.ops_done++;
		s->outstanding--;
		op_release(s, o);
	}
}

/* Destination node of hardware multicast message mi has its address and
 * every data flit (tree.c): the per-destination latency; the operation
 * ends with its last destination.  A node outside the worm's list, or
 * reached twice, counts as misdelivered. */
void ml_traffic_mc_done(struct sim *s, unsigned node, uint32_t mi)
{
	struct msg *m = &s->msgs[mi];
	uint32_t o = m->op;
	struct mop *op = &s->ops[o];
	uint32_t *l = s->lists + (size_t)op->list * s->list_slot;
	double lat = (double)(s->now - op->gen);
	unsigned i;

	s->cnt.msgs_delivered++;
	for (i = m->lo; i < m->hi && l[i] != node; i++)
		;
	if (i == m->hi)
		s->cnt.misdelivered++;
	else
		l[i] = SIM_NONE; /* reached: not again */
	if (s->hooks && s->hooks->deliver)
		s->hooks->deliver(s->hooks->arg, node, m->src, node, o,
				  op->flits, s->now);
	op->dest_sum += lat;
	if (++m->got == m->hi - m->lo) {
		/* every address of the worm has reached its destination, so
		 * m->hops (link crossings of address flits, router.c) is the
		 * sum over its destinations of the hops that destination's
		 * copy travelled: along its dor path in a tree, along the
		 * worm's path for Dual-Path and PM */
		if (m->measured == s->epoch)
			acc_add_n(&s->hops, m->hops, m->hi - m->lo);
		msg_release(s, mi);
	}
	if (--op->left)
		return;
	if (op->measured == s->epoch && op->unicast) {
		record(s, lat, 0);
	} else if (op->measured == s->epoch) {
		record(s, lat, 1);
		record_dest(s, op->dest_sum / op->ndest);
		acc_add(&s->chan, (double)op->channels);
		if (s->p->multicast == ML_SIM_TREE) {
			acc_add(&s->prune, op->prunings);
			acc_add(&s->branch, op->branches);
		}
	}
	s->cnt.ops_done++;
	s->outstanding--;
	op_release(s, o);
}
