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
 *
 * Memory (issue 36).  A rank's clock and where it stands are two flat
 * arrays; everything else of a rank (its program's state, ports, open
 * receives) is a record taken from a pool only while the rank is in
 * the middle of something, and given back when it leaves.  Most ranks
 * of a broadcast spend most of it either blocked in their first
 * receive or woken and waiting for the event that resumes them; such a
 * rank has no record.  What it would hold can be recomputed: programs
 * are pure functions of (algorithm, rank, their own state), so the
 * state after the first wait is had again by running the program from
 * its start and dropping the operations it already did (replay); the
 * bytes of the receive that woke it travel in the resume event.  So a
 * million-rank binomial tree holds records only for the ranks of the
 * one or two levels in flight.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collective/coll_int.h"
#include "collective/evq.h"

enum { W_NONE, W_SENDS, W_RECV, W_BOTH, W_PENDING, W_DONE };

/* The few steps every message takes, inlined into their callers: a
 * call each costs as much as the step (a ring runs P^2 of them). */
#define HOT EVQ_HOT

/*
 * Where rank r stands, st[r]: the index of its record (>= 0), or one
 * of these.  A cold rank has run its first operations, one receive
 * from peer and a wait for it (WAIT_RECV, or WAIT_BOTH with no send),
 * and nothing has reached it yet: its record would say only that, so
 * st[r] says it, as ST_COLD - (peer << 1 | both).
 */
#define ST_UNSTARTED (-1) /* the first pass has not run it yet */
#define ST_DONE	     (-2) /* left, record given back; t[r] its time */
#define ST_WOKEN     (-3) /* cold, then its receive arrived: a resume
			   * event carries the received bytes */
#define ST_COLD	     (-4)

static int32_t st_cold(long long peer, int both)
{
	return (int32_t)(ST_COLD - (peer << 1 | both));
}

/* One open receive of a rank (at most two: the generic engine's). */
struct rslot {
	int32_t msg;  /* matched message in flight, -1 none, R_KNOWN */
	int32_t peer;
	double time;  /* posted at; once known, the arrival */
	long long bytes; /* once known */
};

#define R_KNOWN (-2) /* its message's arrival and bytes are known */

/*
 * A rank in the middle of its program (its clock is t[r]), in three
 * cache lines: its program's state; what a sender to it reads and
 * writes (open receives, receive side, queue); its own sending side.
 * A message touches a line of each end, not the whole of both (the
 * cache misses were most of a ring's time).
 */
struct rank {
	_Alignas(64) struct coll_prog prog;
	struct rslot rs[2];
	double rside;	/* its receive side free at */
	int32_t uhead;	/* unexpected messages, oldest first */
	uint8_t nrecv, rhead;
	_Alignas(64) double port; /* its send port free at */
	double send_done; /* latest completion of its timed sends */
	double nic_out;	  /* its node's NIC, with one rank a node */
	int32_t sends_open; /* sends posted but not yet timed */
	int32_t next;	    /* the pool's free list */
	uint8_t waiting;
};

/* A message that must be remembered: a rendezvous not yet timed, or
 * one that reached its receiver before the receive was posted.  An
 * eager message whose receive is posted is timed as it is posted and
 * needs no record. */
struct msg {
	int32_t src, next;
	int32_t tail; /* of a queue's first message: its last */
	uint8_t slot, matched, timed, rndv;
	long long bytes;
	double arrival; /* once timed: for a receive posted later */
};

/* What only a rendezvous needs (same index as its struct msg). */
struct msg_rndv {
	int32_t dst;
	long long segment;
	double posted, rposted;
	uint64_t seq;
};

/*
 * The engine's memory, kept between evaluations by its owner
 * (ml_collective_best runs nine algorithms in one): capacities only
 * grow, and everything is set afresh by each run.
 */
struct coll_ws {
	long long cap_p, cap_n;
	double *t;	/* every rank's clock */
	int32_t *st;	/* where each rank stands */
	struct rank *rec; /* room for P records, touched as used */
	double *nic;	/* nic_out[node], then nic_in[node]; with a
			 * node per rank only nic_in (nic_out is in
			 * the sender's record) */
	struct msg *m;
	struct msg_rndv *mx;
	int32_t cap_m;
	struct evq q;
	void *ring;	/* ring.c's ranks */
	size_t cap_ring;
};

struct eng {
	struct evq *q;
	const struct ml_collective_params *p;
	const struct coll_alg *a;
	ml_coll_msg_fn fn;
	void *arg;
	long long P;
	struct coll_place pl;
	double *t;
	int32_t *st;
	struct rank *rec;
	int32_t nrec, free_rec;
	double *nic_out, *nic_in;
	struct msg *m;
	struct msg_rndv *mx;
	int32_t nm, cap_m, free_m;
	uint64_t seq;
	long long messages;
	int stopped, nomem;
};

/* ---- events ------------------------------------------------------- */

/* A resume of rank r at t; bytes >= 0: what a cold rank received. */
HOT void push_resume(struct eng *e, int32_t r, double t, int64_t bytes)
{
	if (!evq_push(e->q, t, (uint64_t)r << 33 | 1ULL << 32, bytes))
		e->nomem = 1;
}

static void push_ready(struct eng *e, int32_t id, double t)
{
	if (!evq_push(e->q, t,
		      (uint64_t)e->m[id].src << 33 |
			  (e->mx[id].seq & 0xffffffffULL),
		      id))
		e->nomem = 1;
}

/* ---- records and messages ------------------------------------------ */

/*
 * A record for rank ri, which has none, holding what its st[ri] stands
 * for.  A cold rank's program is replayed to its first wait (the same
 * two operations, dropped: the receive they posted is the record's
 * slot 0); a woken one's too, its receive then consumed.  Returns the
 * record, never NULL: the pool has room for every rank.
 */
static struct rank *rec_get(struct eng *e, int32_t ri)
{
	int32_t s = e->st[ri], id;
	struct rank *r;
	struct coll_op op;

	if (e->free_rec >= 0) {
		id = e->free_rec;
		e->free_rec = e->rec[id].next;
	} else {
		id = e->nrec++;
	}
	r = &e->rec[id];
	memset(r, 0, sizeof *r);
	r->uhead = -1;
	r->rs[0].msg = r->rs[1].msg = -1;
	/* time 0: a cold rank posted its receive at its start */
	if (s == ST_WOKEN || s <= ST_COLD) {
		ml_coll_prog_next(e->a, ri, &r->prog, &op); /* the receive */
		ml_coll_prog_next(e->a, ri, &r->prog, &op); /* the wait */
	}
	if (s == ST_WOKEN) {
		r->rhead = 1;
		r->rside = e->t[ri]; /* the arrival that woke it */
		r->waiting = W_PENDING;
	} else if (s <= ST_COLD) {
		r->nrecv = 1;
		r->rs[0].peer = (ST_COLD - s) >> 1;
		r->waiting = (ST_COLD - s) & 1 ? W_BOTH : W_RECV;
	} else if (s == ST_DONE) {
		/* Only a message nobody receives reaches a rank that has
		 * left; where its receive side stood is not kept. */
		r->rside = e->t[ri];
		r->waiting = W_DONE;
	}
	e->st[ri] = id;
	return r;
}

static inline struct rank *rec_of(struct eng *e, int32_t ri)
{
	return e->st[ri] >= 0 ? &e->rec[e->st[ri]] : rec_get(e, ri);
}

/* Give back the record of a rank that has left, once nothing in
 * flight refers to it. */
static void rec_release(struct eng *e, int32_t ri)
{
	int32_t id = e->st[ri];
	struct rank *r = &e->rec[id];

	if (r->waiting != W_DONE || r->sends_open > 0 || r->nrecv > 0 ||
	    r->uhead >= 0)
		return;
	r->next = e->free_rec;
	e->free_rec = id;
	e->st[ri] = ST_DONE;
}

static int32_t msg_new(struct eng *e)
{
	int32_t id;
	struct msg *n;
	struct msg_rndv *nx;

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
		if (n)
			e->m = n;
		nx = realloc(e->mx, (size_t)e->cap_m * sizeof *nx);
		if (nx)
			e->mx = nx;
		if (!n || !nx) {
			e->nomem = 1;
			return -1;
		}
	}
	return e->nm++;
}

/* Queue message id last among rank r's unexpected messages (the
 * first message keeps the queue's tail). */
static void queue_put(struct eng *e, struct rank *r, int32_t id)
{
	e->m[id].next = -1;
	if (r->uhead >= 0)
		e->m[e->m[r->uhead].tail].next = id;
	else
		r->uhead = id;
	e->m[r->uhead].tail = id;
}

static void msg_free(struct eng *e, int32_t id)
{
	e->m[id].next = e->free_m;
	e->free_m = id;
}

/* ---- waking a rank ------------------------------------------------- */

/* If the rank's wait is satisfied, consume its receive and schedule its
 * resumption; returns 1 when it was. */
HOT int try_wake(struct eng *e, int32_t ri, struct rank *r)
{
	struct rslot *s = &r->rs[r->rhead];
	double t = e->t[ri];
	int w = r->waiting;

	if (w == W_SENDS || w == W_BOTH) {
		if (r->sends_open > 0)
			return 0;
		if (r->send_done > t)
			t = r->send_done;
	}
	if (w == W_RECV || w == W_BOTH) {
		if (r->nrecv == 0 || s->msg != R_KNOWN)
			return 0;
		if (s->time > t)
			t = s->time;
		r->prog.last_recv = s->bytes;
		r->rhead ^= 1;
		r->nrecv--;
	}
	r->waiting = W_PENDING;
	push_resume(e, ri, t, -1);
	return 1;
}

/* ---- timing a message ---------------------------------------------- */

static double max2(double a, double b)
{
	return a > b ? a : b;
}

/* What the engine knows of a message when it is timed. */
struct xfer {
	int32_t src, dst;
	long long bytes, segment;
	double posted; /* as reported: rendezvous, the later of both */
	int rndv;
};

/*
 * Take the message's resources from ready on: the sender's port, the
 * receiver's side (*rside), the NICs between nodes.  Returns the
 * arrival; *done is when it completes for the sender's waits.
 */
HOT double xfer_time(struct eng *e, const struct xfer *x, struct rank *src,
		      double *rside, double ready, double *done)
{
	const struct ml_collective_params *p = e->p;
	enum ml_coll_channel c =
	    ml_coll_channel_of(&e->pl, (uint32_t)x->src, (uint32_t)x->dst);
	double L = p->lat[c],
	       bg = (double)x->bytes * ml_coll_gbyte(p, c, x->bytes);
	double start, arrival, nic, *nic_out, *nic_in;
	struct ml_coll_msg out;

	start = max2(ready, max2(src->port, *rside - L));
	if (c == ML_COLL_NET) {
		if (e->pl.single) {
			nic_out = &src->nic_out;
			nic_in = &e->nic_in[x->dst];
		} else {
			nic_out = &e->nic_out[ml_coll_node_of(
			    &e->pl, (uint32_t)x->src)];
			nic_in = &e->nic_in[ml_coll_node_of(
			    &e->pl, (uint32_t)x->dst)];
		}
		start = max2(start, max2(*nic_out, *nic_in));
		/* The wire's time only: an eager copy is the CPUs'. */
		nic = start + p->nic_gap + (double)x->bytes * p->byte[c];
		*nic_out = nic;
		*nic_in = nic;
	}
	arrival = start + L + bg;
	src->port = start + p->overhead + bg;
	*rside = arrival;
	*done = x->rndv ? arrival : src->port;
	e->messages++;
	if (e->fn) {
		out.src = x->src;
		out.dst = x->dst;
		out.segment = x->segment;
		out.bytes = x->bytes;
		out.channel = c;
		out.posted = x->posted;
		out.start = start;
		out.arrival = arrival;
		if (e->fn(e->arg, &out))
			e->stopped = 1;
	}
	return arrival;
}

/* The sender's side of a timed message. */
HOT void sent(struct eng *e, int32_t si, struct rank *src, double done)
{
	src->sends_open--;
	if (done > src->send_done)
		src->send_done = done;
	if (src->waiting == W_SENDS || src->waiting == W_BOTH)
		try_wake(e, si, src);
	else if (src->waiting == W_DONE)
		rec_release(e, si);
}

/* A receive of slot k gets its message's arrival and bytes. */
HOT void received(struct eng *e, int32_t di, struct rank *dst, int k,
		   double arrival, long long bytes)
{
	struct rslot *s = &dst->rs[k];

	s->msg = R_KNOWN;
	s->time = arrival;
	s->bytes = bytes;
	if ((dst->waiting == W_RECV || dst->waiting == W_BOTH) &&
	    k == dst->rhead)
		try_wake(e, di, dst);
}

/* Time message id (a record) from ready on. */
static void time_msg(struct eng *e, int32_t id, double ready)
{
	struct msg *m = &e->m[id];
	const struct msg_rndv *mx = &e->mx[id];
	/* Both have records: the sender until its sends are timed, the
	 * receiver while a receive or a message of its queue is open. */
	struct rank *src = &e->rec[e->st[m->src]];
	struct rank *dst = &e->rec[e->st[mx->dst]];
	struct xfer x;
	double arrival, done;

	/* Only a rendezvous waits for its ready event, matched. */
	x.src = m->src;
	x.dst = mx->dst;
	x.bytes = m->bytes;
	x.segment = mx->segment;
	x.posted = max2(mx->posted, mx->rposted);
	x.rndv = 1;
	arrival = xfer_time(e, &x, src, &dst->rside, ready, &done);
	msg_free(e, id);
	sent(e, x.src, src, done);
	received(e, x.dst, dst, m->slot, arrival, x.bytes);
}

/* ---- one rank's operations ----------------------------------------- */

/*
 * An eager send to a cold rank blocked in a receive from this sender:
 * timed now, and the receiver woken, without a record (the commonest
 * message of a broadcast).  As try_wake would: the rank's clock is 0,
 * it has no sends, so it resumes at the arrival.
 */
static void isend_cold(struct eng *e, int32_t ri, struct rank *r,
		       const struct coll_op *op)
{
	struct xfer x;
	double rside = 0, arrival, done, t = 0;

	x.src = ri;
	x.dst = (int32_t)op->peer;
	x.bytes = op->bytes;
	x.segment = op->segment;
	x.posted = e->t[ri];
	x.rndv = 0;
	e->seq++;
	r->sends_open++;
	arrival = xfer_time(e, &x, r, &rside, e->t[ri], &done);
	sent(e, ri, r, done);
	if (arrival > t)
		t = arrival;
	e->t[x.dst] = t;
	e->st[x.dst] = ST_WOKEN;
	push_resume(e, x.dst, t, x.bytes);
}

static void do_isend(struct eng *e, int32_t ri, const struct coll_op *op)
{
	int32_t di = (int32_t)op->peer, id, sd = e->st[di];
	struct rank *r = &e->rec[e->st[ri]], *d;
	struct msg *m;
	struct msg_rndv *mx;
	int k, slot = -1, rndv = op->bytes > e->p->eager;
	double ready, arrival, done;
	struct xfer x;

	if (!rndv && sd <= ST_COLD && (ST_COLD - sd) >> 1 == ri) {
		isend_cold(e, ri, r, op);
		return;
	}
	d = rec_of(e, di);
	r->sends_open++;
	for (k = 0; k < d->nrecv; k++) {
		slot = (d->rhead + k) & 1;
		if (d->rs[slot].peer == ri && d->rs[slot].msg == -1)
			break;
		slot = -1;
	}
	if (!rndv && slot >= 0) {
		/* Matched and eager: timed now, no record. */
		x.src = ri;
		x.dst = di;
		x.bytes = op->bytes;
		x.segment = op->segment;
		x.posted = e->t[ri];
		x.rndv = 0;
		e->seq++;
		arrival = xfer_time(e, &x, r, &d->rside, e->t[ri], &done);
		sent(e, ri, r, done);
		received(e, di, d, slot, arrival, op->bytes);
		return;
	}
	id = msg_new(e);
	if (id < 0)
		return;
	m = &e->m[id];
	m->src = ri;
	m->bytes = op->bytes;
	if (!rndv) {
		/* Eager, its receive not yet posted: timed now, kept in
		 * the receiver's queue for the receive. */
		x.src = ri;
		x.dst = di;
		x.bytes = op->bytes;
		x.segment = op->segment;
		x.posted = e->t[ri];
		x.rndv = 0;
		e->seq++;
		m->timed = 1;
		m->matched = 0;
		m->rndv = 0;
		queue_put(e, d, id);
		m->arrival = xfer_time(e, &x, r, &d->rside, e->t[ri], &done);
		sent(e, ri, r, done);
		return;
	}
	mx = &e->mx[id];
	mx->dst = di;
	mx->segment = op->segment;
	mx->posted = e->t[ri];
	mx->rposted = 0;
	mx->seq = e->seq++;
	m->timed = 0;
	m->rndv = 1;
	m->matched = slot >= 0;
	if (slot >= 0) {
		m->slot = (uint8_t)slot;
		mx->rposted = d->rs[slot].time;
		d->rs[slot].msg = id;
	} else {
		queue_put(e, d, id);
	}
	if (slot >= 0) {
		ready = max2(mx->posted, mx->rposted) +
			e->p->lat[ml_coll_channel_of(&e->pl, (uint32_t)ri,
						     (uint32_t)di)];
		push_ready(e, id, ready);
	}
}

static void do_irecv(struct eng *e, int32_t ri, struct rank *r,
		     const struct coll_op *op)
{
	int slot = (r->rhead + r->nrecv) & 1;
	struct rslot *s = &r->rs[slot];
	int32_t id, prev = -1;
	struct msg *m;
	double ready;

	r->nrecv++;
	s->peer = (int32_t)op->peer;
	s->time = e->t[ri];
	s->msg = -1;
	for (id = r->uhead; id >= 0; prev = id, id = e->m[id].next)
		if (e->m[id].src == op->peer)
			break;
	if (id < 0)
		return;
	m = &e->m[id];
	if (prev >= 0) {
		e->m[prev].next = m->next;
		if (e->m[r->uhead].tail == id)
			e->m[r->uhead].tail = prev;
	} else {
		r->uhead = m->next;
		if (m->next >= 0)
			e->m[m->next].tail = m->tail;
	}
	m->matched = 1;
	m->slot = (uint8_t)slot;
	if (m->timed) { /* an eager message already here or on its way */
		s->msg = R_KNOWN;
		s->time = m->arrival;
		s->bytes = m->bytes;
		msg_free(e, id);
		return;
	}
	s->msg = id;
	e->mx[id].rposted = e->t[ri];
	if (m->rndv) {
		ready = max2(e->mx[id].posted, e->t[ri]) +
			e->p->lat[ml_coll_channel_of(&e->pl, (uint32_t)m->src,
						     (uint32_t)ri)];
		push_ready(e, id, ready);
	}
}

/* Run rank ri from its clock until it blocks or leaves. */
static void run_rank(struct eng *e, int32_t ri, struct rank *r)
{
	struct coll_op op;

	r->waiting = W_NONE;
	while (!e->nomem && !e->stopped) {
		ml_coll_prog_next(e->a, ri, &r->prog, &op);
		switch (op.code) {
		case OP_ISEND:
			do_isend(e, ri, &op);
			break;
		case OP_IRECV:
			do_irecv(e, ri, r, &op);
			break;
		case OP_WAIT_SENDS:
		case OP_WAIT_RECV:
		case OP_WAIT_BOTH:
			r->waiting = op.code == OP_WAIT_SENDS  ? W_SENDS
				     : op.code == OP_WAIT_RECV ? W_RECV
							       : W_BOTH;
			try_wake(e, ri, r);
			return;
		case OP_END:
			r->waiting = W_DONE;
			rec_release(e, ri);
			return;
		}
	}
}

/*
 * The first pass, at time 0 in rank order.  A rank whose program opens
 * with a receive and a wait for it, and to which nothing has been sent,
 * stays cold: its st says so and it takes no record (the replay in
 * rec_get will redo those two operations).  Any other runs as usual.
 */
static void start_rank(struct eng *e, int32_t ri)
{
	struct coll_prog s;
	struct coll_op op, w;

	if (e->st[ri] == ST_UNSTARTED) {
		memset(&s, 0, sizeof s);
		ml_coll_prog_next(e->a, ri, &s, &op);
		if (op.code == OP_IRECV) {
			ml_coll_prog_next(e->a, ri, &s, &w);
			if (w.code == OP_WAIT_RECV || w.code == OP_WAIT_BOTH) {
				e->st[ri] =
				    st_cold(op.peer, w.code == OP_WAIT_BOTH);
				return;
			}
		}
	}
	run_rank(e, ri, rec_of(e, ri));
}

/* A resume event of rank ri at t. */
static void resume(struct eng *e, int32_t ri, double t, int64_t bytes)
{
	struct coll_prog s;
	struct coll_op op;
	struct rank *r;

	if (e->st[ri] == ST_WOKEN) {
		/* A leaf of a tree leaves as it resumes: its next operation
		 * told on a copy, it never takes a record. */
		memset(&s, 0, sizeof s);
		ml_coll_prog_next(e->a, ri, &s, &op); /* the receive */
		ml_coll_prog_next(e->a, ri, &s, &op); /* the wait */
		s.last_recv = bytes;
		ml_coll_prog_next(e->a, ri, &s, &op);
		if (op.code == OP_END) {
			e->t[ri] = t;
			e->st[ri] = ST_DONE;
			return;
		}
	}
	r = rec_of(e, ri);

	if (bytes >= 0)
		r->prog.last_recv = bytes;
	e->t[ri] = t;
	run_rank(e, ri, r);
}

/* ---- setup and the main loop --------------------------------------- */

struct coll_ws *ml_coll_ws_new(void)
{
	return calloc(1, sizeof(struct coll_ws));
}

void ml_coll_ws_free(struct coll_ws *ws)
{
	if (!ws)
		return;
	free(ws->t);
	free(ws->st);
	free(ws->rec);
	free(ws->nic);
	free(ws->m);
	free(ws->mx);
	free(ws->ring);
	evq_free(&ws->q);
	free(ws);
}

/* Room for P ranks and N NIC times.  The records are malloc'ed, not
 * cleared: only those taken are touched, so a large pool costs address
 * space, not memory. */
static enum ml_status ws_fit(struct coll_ws *ws, long long P, long long N)
{
	void *t, *st, *rec, *nic;

	if (P > ws->cap_p) {
		t = malloc((size_t)P * sizeof *ws->t);
		st = malloc((size_t)P * sizeof *ws->st);
		rec = aligned_alloc(64, (size_t)P * sizeof *ws->rec);
		if (!t || !st || !rec) {
			free(t);
			free(st);
			free(rec);
			return ML_ENOMEM;
		}
		free(ws->t);
		free(ws->st);
		free(ws->rec);
		ws->t = t;
		ws->st = st;
		ws->rec = rec;
		ws->cap_p = P;
	}
	if (N > ws->cap_n) {
		nic = malloc((size_t)N * sizeof *ws->nic);
		if (!nic)
			return ML_ENOMEM;
		free(ws->nic);
		ws->nic = nic;
		ws->cap_n = N;
	}
	return ML_OK;
}

static enum ml_status eng_result(const struct eng *e,
				 struct ml_collective_result *res)
{
	struct coll_times s;
	long long i;

	ml_coll_times_init(&s);
	for (i = 0; i < e->P; i++) {
		if (e->st[i] != ST_DONE &&
		    (e->st[i] < 0 || e->rec[e->st[i]].waiting != W_DONE))
			return ML_DEADLOCK;
		ml_coll_times_add(&s, e->t[i]);
	}
	return ml_coll_times_result(&s, e->a, e->messages, res);
}

enum ml_status ml_coll_engine_run_ws(struct coll_ws *ws,
				     const struct ml_collective_params *p,
				     const struct coll_alg *a,
				     ml_coll_msg_fn fn, void *arg,
				     struct ml_collective_result *res)
{
	struct eng e;
	struct ev ev;
	long long i, N = ml_coll_nodes(p), nn;
	enum ml_status st;

	/* The ring needs no queue where its orders are decided (ring.c);
	 * a schedule is printed in the engine's order. */
	if (!fn && ml_coll_ring_fits(p, a)) {
		if (ws->cap_ring < ml_coll_ring_size(p)) {
			free(ws->ring);
			ws->cap_ring = 0;
			ws->ring = malloc(ml_coll_ring_size(p));
			if (!ws->ring)
				return ML_ENOMEM;
			ws->cap_ring = ml_coll_ring_size(p);
		}
		if (ml_coll_ring_run(p, a, ws->ring, res))
			return ML_OK;
	}
	/* With a node per rank a NIC serves one rank: nic_out goes in
	 * its record, and only nic_in, which a rank without a record may
	 * have been sent through, is a table. */
	nn = p->ppn == 1 ? N : 2 * N;
	st = ws_fit(ws, p->ranks, nn);
	if (st != ML_OK)
		return st;
	/* Unsegmented trees with a node per rank neither (once.c). */
	if (!fn && ml_coll_once_fits(p, a) &&
	    ml_coll_once_run(p, a, ws->t, res))
		return ML_OK;
	memset(&e, 0, sizeof e);
	e.p = p;
	e.a = a;
	e.fn = fn;
	e.arg = arg;
	e.P = p->ranks;
	ml_coll_place_init(p, &e.pl);
	e.t = ws->t;
	e.st = ws->st;
	e.rec = ws->rec;
	e.free_rec = -1;
	e.nic_out = ws->nic;
	e.nic_in = ws->nic + nn - N;
	e.m = ws->m;
	e.mx = ws->mx;
	e.cap_m = ws->cap_m;
	e.free_m = -1;
	e.q = &ws->q;
	evq_clear(e.q);
	for (i = 0; i < e.P; i++) {
		e.t[i] = 0;
		e.st[i] = ST_UNSTARTED;
	}
	for (i = 0; i < nn; i++)
		ws->nic[i] = 0;
	/* Every rank starts at 0, in rank order. */
	for (i = 0; i < e.P && !e.nomem && !e.stopped; i++)
		start_rank(&e, (int32_t)i);
	while (!evq_empty(e.q) && !e.nomem && !e.stopped) {
		ev = evq_pop(e.q);
		if (ev.key >> 32 & 1)
			resume(&e, (int32_t)(ev.key >> 33), evq_bits_time(ev.tb),
			       ev.aux);
		else
			time_msg(&e, (int32_t)ev.aux, evq_bits_time(ev.tb));
	}
	/* The growing buffers go back to the workspace. */
	ws->m = e.m;
	ws->mx = e.mx;
	ws->cap_m = e.cap_m;
	st = e.nomem ? ML_ENOMEM : e.stopped ? ML_EINVAL : ML_OK;
	if (st == ML_OK)
		st = eng_result(&e, res);
	return st;
}

enum ml_status ml_coll_engine_run(const struct ml_collective_params *p,
				  const struct coll_alg *a, ml_coll_msg_fn fn,
				  void *arg, struct ml_collective_result *res)
{
	struct coll_ws *ws = ml_coll_ws_new();
	enum ml_status st;

	if (!ws)
		return ML_ENOMEM;
	st = ml_coll_engine_run_ws(ws, p, a, fn, arg, res);
	ml_coll_ws_free(ws);
	return st;
}

const double *ml_coll_ws_times(const struct coll_ws *ws)
{
	return ws->t;
}
