/*
 * engine.c - exact event-driven arithmetic for the collective model
 * (SPEC 10.2): runs every rank's program (programs.c) on the machine of
 * struct ml_collective_params and times every message.
 *
 * Resources: each rank's send port and receive side, each node's NIC
 * out and in.  A message takes all of its resources at its start:
 *
 *   start   = max(ready, port[src], recv[dst] - L_c,
 *                 nic_out[node(src)], nic_in[node(dst)])  (NICs: net only)
 *   arrival = start + L_c + b G_c
 *   port[src] = start + overhead + b G_c   recv[dst] = arrival
 *   nic_out, nic_in = start + nic_gap + b G_net
 *
 * where ready is the posting time (eager) or the later of the send's
 * and the matching receive's posting plus L_c (rendezvous).  Resources
 * serve messages in the order they became ready: events are processed
 * in the order (time, rank, ready-before-resume, posting sequence), and
 * an eager message is timed the moment its rank posts it, which is its
 * place in that order.  (With zero-length times, L_c = b G_c = 0, an
 * event created at the current time may be served after one of a
 * higher rank: the only inexactness, and only in a degenerate machine.)
 *
 * Receives match sends per (source, destination) pair in posting order,
 * as MPI's non-overtaking rule does for one tag; an eager message that
 * arrives before its receive waits in the receiver's unexpected queue.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collective/coll_int.h"

enum { W_NONE, W_SENDS, W_RECV, W_BOTH, W_PENDING, W_DONE };

/* One open receive of a rank (at most two: the generic engine's). */
struct rslot {
	int32_t msg; /* matched message still in flight, or -1 */
	int32_t peer;
	uint8_t known; /* arrival and bytes are known */
	double post, arrival;
	long long bytes;
};

struct rank {
	struct coll_prog prog;
	double t;	    /* the rank's clock */
	double send_done;   /* latest completion of its timed sends */
	double port, rside; /* its send port and receive side free at */
	int32_t sends_open; /* sends posted but not yet timed */
	uint8_t waiting, nrecv, rhead;
	struct rslot rs[2];
	int32_t uhead, utail; /* unexpected messages, oldest first */
};

struct msg {
	int32_t src, dst, next;
	uint8_t slot, matched, timed, rndv;
	long long bytes, segment;
	double posted, rposted;
	double arrival; /* once timed: for a receive posted later */
	uint64_t seq;
};

struct ev {
	double t;
	uint64_t tb;  /* the bits of t, which order as t does (t >= 0) */
	uint64_t key; /* rank << 33 | resume << 32 | low bits of seq */
	int32_t id;   /* message (ready) or rank (resume) */
};

#define NRUNS 8

struct run {
	struct ev *ev;
	size_t head, tail, cap;
};

struct eng {
	struct run runs[NRUNS];
	const struct ml_collective_params *p;
	const struct coll_alg *a;
	ml_coll_msg_fn fn;
	void *arg;
	long long P;
	struct rank *r;
	uint32_t *node, *sock;
	double *nic_out, *nic_in;
	struct msg *m;
	int32_t nm, cap_m, free_m;
	struct ev *h;
	size_t nh, cap_h;
	uint64_t seq;
	long long messages;
	int stopped, nomem;
};

/* ---- the event heap ------------------------------------------------ */

/*
 * A 4-ary min-heap on (time, key): half the levels of a binary heap,
 * and the four children of a node share a cache line or two.  Times
 * are >= 0, so their IEEE bits order as the times do and the compare
 * is on integers.
 */
static uint64_t time_bits(double t)
{
	uint64_t b;

	t += 0.0; /* -0 -> +0 */
	memcpy(&b, &t, sizeof b);
	return b;
}

static int ev_less(const struct ev *x, const struct ev *y)
{
	return x->tb < y->tb || (x->tb == y->tb && x->key < y->key);
}

static void heap_push(struct eng *e, const struct ev *x)
{
	size_t i, up;
	struct ev *n;

	if (e->nh == e->cap_h) {
		e->cap_h = e->cap_h ? 2 * e->cap_h : 1024;
		n = realloc(e->h, e->cap_h * sizeof *n);
		if (!n) {
			e->nomem = 1;
			return;
		}
		e->h = n;
	}
	for (i = e->nh++; i > 0; i = up) {
		up = (i - 1) / 4;
		if (!ev_less(x, &e->h[up]))
			break;
		e->h[i] = e->h[up];
	}
	e->h[i] = *x;
}

static struct ev heap_pop(struct eng *e)
{
	struct ev top = e->h[0], last = e->h[--e->nh];
	size_t i = 0, c, k, best, n = e->nh;

	for (;;) {
		c = 4 * i + 1;
		if (c >= n)
			break;
		best = c;
		for (k = c + 1; k < c + 4 && k < n; k++)
			if (ev_less(&e->h[k], &e->h[best]))
				best = k;
		if (!ev_less(&e->h[best], &last))
			break;
		e->h[i] = e->h[best];
		i = best;
	}
	if (n > 0)
		e->h[i] = last;
	return top;
}

/*
 * Runs: sorted FIFOs of events.  An event later than the last of a run
 * is appended to it in O(1) instead of sifting through the heap.  Ranks
 * that move in step (a ring, a pipeline, a level of a tree) wake in the
 * same order step after step, so their events arrive sorted and one run
 * carries them all.  The queue's minimum is the least of the heap's top
 * and the runs' fronts.
 */
static int run_append(struct eng *e, const struct ev *x)
{
	struct run *q, *spare = NULL;
	struct ev *n;
	int k;

	for (k = 0; k < NRUNS; k++) {
		q = &e->runs[k];
		if (q->head == q->tail) {
			if (!spare)
				spare = q;
			continue;
		}
		if (ev_less(&q->ev[q->tail - 1], x))
			break;
	}
	if (k == NRUNS) {
		if (!spare)
			return 0;
		q = spare;
		q->head = q->tail = 0;
	}
	if (q->cap > 0 && q->tail == q->cap && q->head >= q->cap / 2) {
		/* Slide the live events down rather than grow. */
		memmove(q->ev, q->ev + q->head,
			(q->tail - q->head) * sizeof *q->ev);
		q->tail -= q->head;
		q->head = 0;
	}
	if (q->tail == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 256;
		n = realloc(q->ev, q->cap * sizeof *n);
		if (!n)
			return 0;
		q->ev = n;
	}
	q->ev[q->tail++] = *x;
	return 1;
}

static void ev_push(struct eng *e, double t, uint64_t key, int32_t id)
{
	struct ev x;

	x.t = t;
	x.tb = time_bits(t);
	x.key = key;
	x.id = id;
	if (!run_append(e, &x))
		heap_push(e, &x);
}

static int ev_empty(const struct eng *e)
{
	int k;

	for (k = 0; k < NRUNS; k++)
		if (e->runs[k].head != e->runs[k].tail)
			return 0;
	return e->nh == 0;
}

static struct ev ev_pop(struct eng *e)
{
	const struct ev *best = e->nh ? &e->h[0] : NULL;
	struct run *q, *from = NULL;
	int k;

	for (k = 0; k < NRUNS; k++) {
		q = &e->runs[k];
		if (q->head != q->tail &&
		    (!best || ev_less(&q->ev[q->head], best))) {
			best = &q->ev[q->head];
			from = q;
		}
	}
	if (!from)
		return heap_pop(e);
	return from->ev[from->head++];
}

static void push_resume(struct eng *e, long long r, double t)
{
	e->r[r].waiting = W_PENDING;
	ev_push(e, t, (uint64_t)r << 33 | 1ULL << 32, (int32_t)r);
}

static void push_ready(struct eng *e, int32_t id, double t)
{
	const struct msg *m = &e->m[id];

	ev_push(e, t, (uint64_t)m->src << 33 | (m->seq & 0xffffffffULL), id);
}

/* ---- messages ------------------------------------------------------ */

static int32_t msg_new(struct eng *e)
{
	int32_t id;
	struct msg *n;

	if (e->free_m >= 0) {
		id = e->free_m;
		e->free_m = e->m[id].next;
		return id;
	}
	if (e->nm == e->cap_m) {
		if (e->cap_m >= INT32_MAX / 2) {
			e->nomem = 1;
			return -1;
		}
		e->cap_m = e->cap_m ? 2 * e->cap_m : 1024;
		n = realloc(e->m, (size_t)e->cap_m * sizeof *n);
		if (!n) {
			e->nomem = 1;
			return -1;
		}
		e->m = n;
	}
	return e->nm++;
}

static void msg_free(struct eng *e, int32_t id)
{
	e->m[id].next = e->free_m;
	e->free_m = id;
}

static enum ml_coll_channel channel_of(const struct eng *e, long long a,
				       long long b)
{
	if (e->node[a] != e->node[b])
		return ML_COLL_NET;
	return e->sock[a] != e->sock[b] ? ML_COLL_NODE : ML_COLL_SOCKET;
}

/* ---- waking a rank ------------------------------------------------- */

/* If the rank's wait is satisfied, consume its receive and schedule its
 * resumption; returns 1 when it was. */
static int try_wake(struct eng *e, long long ri)
{
	struct rank *r = &e->r[ri];
	struct rslot *s = &r->rs[r->rhead];
	double t = r->t;
	int w = r->waiting;

	if (w == W_SENDS || w == W_BOTH) {
		if (r->sends_open > 0)
			return 0;
		if (r->send_done > t)
			t = r->send_done;
	}
	if (w == W_RECV || w == W_BOTH) {
		if (r->nrecv == 0 || !s->known)
			return 0;
		if (s->arrival > t)
			t = s->arrival;
		r->prog.last_recv = s->bytes;
		r->rhead ^= 1;
		r->nrecv--;
	}
	push_resume(e, ri, t);
	return 1;
}

/* ---- timing a message ---------------------------------------------- */

static double max2(double a, double b)
{
	return a > b ? a : b;
}

static void time_msg(struct eng *e, int32_t id, double ready)
{
	const struct ml_collective_params *p = e->p;
	struct msg *m = &e->m[id];
	struct rank *src = &e->r[m->src], *dst = &e->r[m->dst];
	enum ml_coll_channel c = channel_of(e, m->src, m->dst);
	double L = p->lat[c], bg = (double)m->bytes * p->byte[c];
	double start, arrival, done, nic = 0;
	uint32_t ns = e->node[m->src], nd = e->node[m->dst];
	struct ml_coll_msg out;
	struct rslot *s;

	start = max2(ready, max2(src->port, dst->rside - L));
	if (c == ML_COLL_NET) {
		start = max2(start, max2(e->nic_out[ns], e->nic_in[nd]));
		nic = start + p->nic_gap + (double)m->bytes * p->byte[c];
		e->nic_out[ns] = nic;
		e->nic_in[nd] = nic;
	}
	arrival = start + L + bg;
	src->port = start + p->overhead + bg;
	dst->rside = arrival;
	done = m->rndv ? arrival : src->port;
	m->timed = 1;
	e->messages++;
	if (e->fn) {
		out.src = m->src;
		out.dst = m->dst;
		out.segment = m->segment;
		out.bytes = m->bytes;
		out.channel = c;
		out.posted = m->rndv ? max2(m->posted, m->rposted) : m->posted;
		out.start = start;
		out.arrival = arrival;
		if (e->fn(e->arg, &out))
			e->stopped = 1;
	}
	/* The sender. */
	src->sends_open--;
	if (done > src->send_done)
		src->send_done = done;
	if (src->waiting == W_SENDS || src->waiting == W_BOTH)
		try_wake(e, m->src);
	/* The receiver: a matched message hands its time to the receive. */
	if (m->matched) {
		s = &dst->rs[m->slot];
		s->known = 1;
		s->arrival = arrival;
		s->bytes = m->bytes;
		s->msg = -1;
		if ((dst->waiting == W_RECV || dst->waiting == W_BOTH) &&
		    m->slot == dst->rhead)
			try_wake(e, m->dst);
		msg_free(e, id);
	} else {
		m->arrival = arrival; /* for the receive, when posted */
	}
}

/* ---- one rank's operations ----------------------------------------- */

static void do_isend(struct eng *e, long long ri, const struct coll_op *op)
{
	struct rank *r = &e->r[ri], *d;
	int32_t id = msg_new(e);
	struct msg *m;
	int k, slot;
	enum ml_coll_channel c;

	if (id < 0)
		return;
	m = &e->m[id];
	m->src = (int32_t)ri;
	m->dst = (int32_t)op->peer;
	m->next = -1;
	m->bytes = op->bytes;
	m->segment = op->segment;
	m->posted = r->t;
	m->rposted = 0;
	m->seq = e->seq++;
	m->matched = m->timed = 0;
	m->rndv = op->bytes > e->p->eager;
	r->sends_open++;
	d = &e->r[op->peer];
	for (k = 0; k < d->nrecv; k++) {
		slot = (d->rhead + k) & 1;
		if (d->rs[slot].peer == ri && d->rs[slot].msg == -1 &&
		    !d->rs[slot].known) {
			m->matched = 1;
			m->slot = (uint8_t)slot;
			m->rposted = d->rs[slot].post;
			d->rs[slot].msg = id;
			break;
		}
	}
	if (!m->matched) {
		if (d->utail >= 0)
			e->m[d->utail].next = id;
		else
			d->uhead = id;
		d->utail = id;
	}
	if (!m->rndv) {
		time_msg(e, id, r->t);
	} else if (m->matched) {
		c = channel_of(e, ri, op->peer);
		push_ready(e, id, max2(m->posted, m->rposted) + e->p->lat[c]);
	}
}

static void do_irecv(struct eng *e, long long ri, const struct coll_op *op)
{
	struct rank *r = &e->r[ri];
	int slot = (r->rhead + r->nrecv) & 1;
	struct rslot *s = &r->rs[slot];
	int32_t id, prev = -1;
	struct msg *m;
	enum ml_coll_channel c;

	r->nrecv++;
	s->peer = (int32_t)op->peer;
	s->post = r->t;
	s->known = 0;
	s->msg = -1;
	for (id = r->uhead; id >= 0; prev = id, id = e->m[id].next)
		if (e->m[id].src == op->peer)
			break;
	if (id < 0)
		return;
	m = &e->m[id];
	if (prev >= 0)
		e->m[prev].next = m->next;
	else
		r->uhead = m->next;
	if (r->utail == id)
		r->utail = prev;
	m->matched = 1;
	m->slot = (uint8_t)slot;
	m->rposted = r->t;
	if (m->timed) { /* an eager message already here or on its way */
		s->known = 1;
		s->arrival = m->arrival;
		s->bytes = m->bytes;
		msg_free(e, id);
		return;
	}
	s->msg = id;
	if (m->rndv) {
		c = channel_of(e, m->src, ri);
		push_ready(e, id, max2(m->posted, r->t) + e->p->lat[c]);
	}
}

/* Run rank ri from its clock until it blocks or leaves. */
static void run_rank(struct eng *e, long long ri)
{
	struct rank *r = &e->r[ri];
	struct coll_op op;

	r->waiting = W_NONE;
	while (!e->nomem && !e->stopped) {
		ml_coll_prog_next(e->a, ri, &r->prog, &op);
		switch (op.code) {
		case OP_ISEND:
			do_isend(e, ri, &op);
			break;
		case OP_IRECV:
			do_irecv(e, ri, &op);
			break;
		case OP_WAIT_SENDS:
		case OP_WAIT_RECV:
		case OP_WAIT_BOTH:
			r->waiting = op.code == OP_WAIT_SENDS  ? W_SENDS
				     : op.code == OP_WAIT_RECV ? W_RECV
							       : W_BOTH;
			try_wake(e, ri);
			return;
		case OP_END:
			r->waiting = W_DONE;
			return;
		}
	}
}

/* ---- setup and the main loop --------------------------------------- */

static enum ml_status eng_alloc(struct eng *e)
{
	long long i, P = e->P, N = ml_coll_nodes(e->p);

	e->r = calloc((size_t)P, sizeof *e->r);
	e->node = malloc((size_t)P * sizeof *e->node);
	e->sock = malloc((size_t)P * sizeof *e->sock);
	e->nic_out = calloc((size_t)N, sizeof *e->nic_out);
	e->nic_in = calloc((size_t)N, sizeof *e->nic_in);
	if (!e->r || !e->node || !e->sock || !e->nic_out || !e->nic_in)
		return ML_ENOMEM;
	ml_coll_place_all(e->p, N, e->node, e->sock);
	for (i = 0; i < P; i++) {
		e->r[i].uhead = e->r[i].utail = -1;
		e->r[i].rs[0].msg = e->r[i].rs[1].msg = -1;
	}
	return ML_OK;
}

static void eng_free(struct eng *e)
{
	free(e->r);
	free(e->node);
	free(e->sock);
	free(e->nic_out);
	free(e->nic_in);
	free(e->m);
	free(e->h);
	for (int k = 0; k < NRUNS; k++)
		free(e->runs[k].ev);
}

static enum ml_status eng_result(const struct eng *e,
				 struct ml_collective_result *res)
{
	long long i;
	double max = -INFINITY, min = INFINITY, sum = 0, t;

	for (i = 0; i < e->P; i++) {
		if (e->r[i].waiting != W_DONE)
			return ML_DEADLOCK;
		t = e->r[i].t;
		sum += t;
		max = t > max ? t : max;
		min = t < min ? t : min;
	}
	res->latency = max;
	res->latency_avg = sum / (double)e->P;
	res->latency_min = min;
	res->messages = e->messages;
	res->ran = e->a->alg;
	res->segments =
	    e->a->alg == ML_COLL_SPLIT_BINARY ? e->a->hnseg[0] : e->a->nseg;
	if (!isfinite(max) || !isfinite(sum))
		return ML_OVERFLOW;
	return ML_OK;
}

enum ml_status ml_coll_engine_run(const struct ml_collective_params *p,
				  const struct coll_alg *a, ml_coll_msg_fn fn,
				  void *arg, struct ml_collective_result *res)
{
	struct eng e;
	struct ev ev;
	long long i;
	enum ml_status st;

	memset(&e, 0, sizeof e);
	e.p = p;
	e.a = a;
	e.fn = fn;
	e.arg = arg;
	e.P = p->ranks;
	e.free_m = -1;
	st = eng_alloc(&e);
	/* Every rank starts at 0, in rank order. */
	for (i = 0; st == ML_OK && i < e.P; i++)
		run_rank(&e, i);
	while (st == ML_OK && !ev_empty(&e) && !e.nomem && !e.stopped) {
		ev = ev_pop(&e);
		if (ev.key >> 32 & 1) {
			e.r[ev.id].t = ev.t;
			run_rank(&e, ev.id);
		} else {
			time_msg(&e, ev.id, ev.t);
		}
	}
	if (st == ML_OK)
		st = e.nomem ? ML_ENOMEM : e.stopped ? ML_EINVAL : ML_OK;
	if (st == ML_OK)
		st = eng_result(&e, res);
	eng_free(&e);
	return st;
}
