/*
 * ring.c - Open MPI's scatter-allgather ring timed without the event
 * queue (issue 36): the same arithmetic as engine.c, in an order of our
 * own, where that order provably cannot change a result.
 *
 * Why it may.  A result depends on the order in which each resource of
 * engine.c serves its messages, and on nothing else.  A rank's send
 * port and send_done are taken by its own sends, one at a time in its
 * program's order (it waits for each).  Rank v's receive side hears
 * from two ranks only: its scatter parent v - lowbit(v), once, then
 * v - 1 at each of the P - 1 ring steps, each message after the last
 * (v - 1 posts step i + 1 once step i is done).  A node's NIC out and
 * NIC in are shared by its ranks (ppn > 1): the scatter's messages
 * between nodes, from or to any rank of the node, and the ring's, of
 * which, the ranks of a node being contiguous (--map-by core or
 * socket, or a rank a node), only one pair crosses each NIC
 * (ml_coll_ring_fits; elsewhere the checks below mostly decline).
 *
 * So we time every message in an order of our own (the scatter by
 * rank, parents first; then the ring step by step) and check, for
 * each receive side and each NIC, that our order is the engine's:
 * the engine serves a resource in the order of its messages' events
 * (the eager send's posting, the rendezvous's ready), by time.  Each
 * message taking a receive side or NIC from another sender must be
 * timed strictly later than the last one there (ties go by rank and
 * kind of event, and the first pass at 0 comes before everything);
 * one from the same sender follows it in program order, as in the
 * engine, where a rank waits for each send before it posts the next.
 * Where a check fails the caller runs the engine.  Induction over the
 * engine's events then gives the same operands for every message,
 * hence the same bits:
 * every sum and max is written as engine.c writes it (xfer_time,
 * try_wake, eng_result); tests/check_collring.c holds the two against
 * each other.  (The queue turns a time of -0 into +0; no time here is
 * -0, all being sums of +0 and times >= 0.)  P^2 messages at a few
 * nanoseconds each, not an event each.
 */
#include <math.h>
#include <stdint.h>

#include "collective/coll_int.h"
#include "collective/evq.h"

/* A rank's resources and clock (engine.c's struct rank, in brief), and
 * its ring message's channel and NICs, fixed for the run. */
struct rr {
	double t;	  /* its clock: the end of its last wait */
	double port;	  /* send port free at */
	double send_done; /* latest completion of its sends */
	double rside;	  /* receive side free at */
	double arr;	  /* arrival of the message it waits for */
	double ev;	  /* its scatter message: when the engine times it */
	long long got;	  /* that message's bytes, -1 none */
	int32_t out, in;  /* to rank + 1: NICs (nic_out, nic_in), or -1 */
	int chan;	  /* to rank + 1 */
	double nq; /* after step 1 that pair's NICs, theirs alone by then */
};

/* A NIC, out or in, and who took it last, when (the event's time). */
struct rnic {
	double t;    /* free at */
	double key;  /* event time of its last message */
	int32_t snd; /* that message's sender, -1 none */
};

static double max2(double a, double b)
{
	return a > b ? a : b;
}

/* The bytes of step i's message from rank u: block u - i + 1 (mod P),
 * the last block short, none past the message. */
static inline long long step_bytes(const struct coll_alg *a, long long u,
				   long long i)
{
	long long blk = u - i + 1 < 0 ? u - i + 1 + a->ranks : u - i + 1;
	long long n = a->msg - blk * a->sc;

	n = n < a->sc ? n : a->sc;
	return n < 0 ? 0 : n;
}

/* Rank s leaves its step's wait (try_wake): its clock, its sends'
 * completion, the arrival, in that order. */
static inline void step_wake(struct rr *s)
{
	double t = s->t;

	if (s->send_done > t)
		t = s->send_done;
	if (s->arr > t)
		t = s->arr;
	s->t = t;
}

/* May a message of sender snd, its event at key, take n after the
 * messages it has served (see the top)?  Then it is n's last. */
static int nic_order(struct rnic *n, double key, int32_t snd)
{
	if (!(key > n->key) && snd != n->snd)
		return 0;
	n->key = key;
	n->snd = snd;
	return 1;
}

/* xfer_time of engine.c: from ready on, s's port, d's receive side
 * and, between nodes (no NICs: out = in = NULL), the NICs.  Returns
 * the arrival; the sender's completion goes into its send_done
 * (sent()). */
EVQ_HOT double xfer(const struct ml_collective_params *p, int c, struct rr *s,
		    struct rr *d, struct rnic *out, struct rnic *in,
		    long long bytes, double ready, int rndv)
{
	double L = p->lat[c];
	double bg =
	    (double)bytes * ml_coll_gbyte(p, (enum ml_coll_channel)c, bytes);
	double start, arrival, nic, done;

	start = max2(ready, max2(s->port, d->rside - L));
	if (c == ML_COLL_NET) {
		start = max2(start, max2(out->t, in->t));
		nic = start + p->nic_gap + (double)bytes * p->byte[c];
		out->t = nic;
		in->t = nic;
	}
	arrival = start + L + bg;
	s->port = start + p->overhead + bg;
	d->rside = arrival;
	done = rndv ? arrival : s->port;
	if (done > s->send_done)
		s->send_done = done;
	return arrival;
}

/* What the recurrence times at all: any placement, its checks
 * deciding. */
static int ring_applies(const struct coll_alg *a)
{
	return a->library == ML_COLL_OPENMPI &&
	       a->alg == ML_COLL_SCATTER_ALLGATHER_RING && a->ranks >= 2 &&
	       a->root == 0; /* the recurrence runs from rank 0 */
}

int ml_coll_ring_fits(const struct ml_collective_params *p,
		      const struct coll_alg *a)
{
	long long N = ml_coll_nodes(p);

	/* Not --map-by node on 2 .. P - 1 nodes: there every rank of a
	 * node sends to another node at each step, the NIC serving them
	 * in an order of times that is not the steps' (the checks
	 * decline nearly every point, after the work). */
	return ring_applies(a) &&
	       (p->ppn == 1 || p->map_by != ML_COLL_MAP_NODE || N == 1 ||
		N >= a->ranks);
}

/* The nodes that hold a rank: every node a rank is placed on is below
 * both (place.c: r / ppn, r mod N, or r itself), so a --nodes far
 * beyond P costs nothing. */
static long long ring_nodes(const struct ml_collective_params *p)
{
	long long N = ml_coll_nodes(p);

	return N < p->ranks ? N : p->ranks;
}

size_t ml_coll_ring_size(const struct ml_collective_params *p)
{
	return (size_t)p->ranks * sizeof(struct rr) +
	       (size_t)(2 * ring_nodes(p)) * sizeof(struct rnic);
}

/*
 * The scatter (programs.c, scatter()), parents first.  A receiver's
 * receive was posted at 0 and nothing reached it before (its receive
 * side is 0); a rendezvous is ready at max(posted, 0) + L.  Returns
 * the messages, or -1 where a send and a receive do not pair as the
 * recurrence expects or a NIC's order is not ours (the engine then
 * decides).
 */
static long long ring_scatter(const struct ml_collective_params *p,
			      const struct coll_alg *a,
			      const struct coll_place *pl, struct rr *r,
			      struct rnic *nic, long long N)
{
	long long P = a->ranks, M = a->msg, sc = a->sc, v, mask, cnt, n;
	long long msgs = 0;
	struct rnic *out = NULL, *in = NULL;
	struct rr *d;
	int rndv, c;

	for (v = 0; v < P; v++) {
		cnt = v == 0 ? M : 0;
		for (mask = 1; mask < P; mask <<= 1) {
			if (!(v & mask))
				continue;
			if (M - v * sc > 0) {
				if (r[v].got < 0)
					return -1;
				/* try_wake from a clock of 0 */
				r[v].t = r[v].arr > 0 ? r[v].arr : 0;
				cnt = r[v].got;
			} else if (r[v].got >= 0) {
				return -1;
			}
			break;
		}
		for (mask >>= 1; mask > 0; mask >>= 1) {
			if (v + mask >= P)
				continue;
			n = cnt - sc * mask;
			if (n <= 0)
				continue;
			cnt -= n;
			d = &r[v + mask];
			rndv = n > p->eager;
			c = ml_coll_channel_of(pl, (uint32_t)v,
					       (uint32_t)(v + mask));
			d->ev = rndv ? max2(r[v].t, 0) + p->lat[c] : r[v].t;
			if (c == ML_COLL_NET) {
				out = &nic[ml_coll_node_of(pl, (uint32_t)v)];
				in = &nic[N + ml_coll_node_of(
						  pl, (uint32_t)(v + mask))];
				if (!nic_order(out, d->ev, (int32_t)v) ||
				    !nic_order(in, d->ev, (int32_t)v))
					return -1;
			}
			d->arr = xfer(p, c, &r[v], d, out, in, n, d->ev, rndv);
			d->got = n;
			msgs++;
			/* its WAIT_SENDS */
			if (r[v].send_done > r[v].t)
				r[v].t = r[v].send_done;
		}
	}
	return msgs;
}

/*
 * Step i of the ring for every rank, in place: rank u sends block
 * u - i + 1 to u + 1 from its clock of step i - 1, then waits for its
 * send and for u - 1's message (try_wake: clock, send_done, arrival, in
 * that order).  Rank u's clock is overwritten once u + 1's message has
 * been timed from it; rank 0's, which P - 1's needs, last.  At step 1
 * the receive side's order: a receiver's scatter message timed
 * strictly before the first ring message to it, else 0; the NICs' at
 * every message between nodes while check is set (after step 1, where
 * each NIC carries one pair of the ring, its messages are one
 * sender's and pass).
 */
static int ring_step(const struct ml_collective_params *p,
		     const struct coll_alg *a, struct rr *r, struct rnic *nic,
		     long long N, long long i, int check)
{
	long long P = a->ranks, u, n;
	double ready;
	struct rr *s, *d;
	struct rnic *out = NULL, *in = NULL;
	int rndv;

	for (u = 0; u < P; u++) {
		s = &r[u];
		d = &r[u + 1 == P ? 0 : u + 1];
		n = step_bytes(a, u, i);
		rndv = n > p->eager;
		ready = rndv ? max2(s->t, d->t) + p->lat[s->chan] : s->t;
		/* rank u + 1 heard from its parent u itself in program
		 * order; from another parent, strictly earlier or not here */
		if (i == 1 && d->got >= 0 &&
		    (u + 1) - ((u + 1) & -(u + 1)) != u && !(d->ev < ready))
			return 0;
		if (s->out >= 0) {
			out = &nic[s->out];
			in = &nic[N + s->in];
			if (check && (!nic_order(out, ready, (int32_t)u) ||
				      !nic_order(in, ready, (int32_t)u)))
				return 0;
		}
		d->arr = xfer(p, s->chan, s, d, out, in, n, ready, rndv);
		if (u > 0)
			step_wake(s);
	}
	step_wake(&r[0]);
	return 1;
}

/*
 * Step i > 1 where each NIC carries one pair of the ring: ring_step
 * without its checks, each pair's two NICs one time (xfer leaves both
 * at the same nic; max2(x, x) is x, so max2(start, x) is xfer_time's
 * max2(start, max2(out, in)) to the bit).  The loop of a P^2 messages.
 */
static void ring_step_alone(const struct ml_collective_params *p,
			    const struct coll_alg *a, struct rr *r, long long i)
{
	long long P = a->ranks, u, n;
	double ready, L, bg, start, done;
	struct rr *s, *d;
	int rndv, c;

	for (u = 0; u < P; u++) {
		s = &r[u];
		d = &r[u + 1 == P ? 0 : u + 1];
		n = step_bytes(a, u, i);
		rndv = n > p->eager;
		c = s->chan;
		L = p->lat[c];
		ready = rndv ? max2(s->t, d->t) + L : s->t;
		bg = (double)n * ml_coll_gbyte(p, (enum ml_coll_channel)c, n);
		start = max2(ready, max2(s->port, d->rside - L));
		if (c == ML_COLL_NET) {
			start = max2(start, s->nq);
			s->nq = start + p->nic_gap + (double)n * p->byte[c];
		}
		d->arr = start + L + bg;
		s->port = start + p->overhead + bg;
		d->rside = d->arr;
		done = rndv ? d->arr : s->port;
		if (done > s->send_done)
			s->send_done = done;
		if (u > 0)
			step_wake(s);
	}
	step_wake(&r[0]);
}

int ml_coll_ring_run(const struct ml_collective_params *p,
		     const struct coll_alg *a, void *buf,
		     struct ml_collective_result *res)
{
	struct rr *r = buf;
	long long P = a->ranks, N = ring_nodes(p), v, i, msgs;
	struct rnic *nic = (struct rnic *)(r + P);
	struct coll_place pl;
	struct coll_times sum;
	uint32_t w;
	int shared = 0;

	if (!ring_applies(a))
		return 0;
	ml_coll_place_init(p, &pl);
	for (v = 0; v < P; v++) {
		r[v].t = r[v].port = r[v].send_done = r[v].rside = 0;
		r[v].arr = r[v].ev = 0;
		r[v].got = -1;
		w = v + 1 == P ? 0 : (uint32_t)(v + 1);
		r[v].chan = ml_coll_channel_of(&pl, (uint32_t)v, w);
		r[v].out = r[v].in = -1;
		if (r[v].chan == ML_COLL_NET) {
			r[v].out = (int32_t)ml_coll_node_of(&pl, (uint32_t)v);
			r[v].in = (int32_t)ml_coll_node_of(&pl, w);
		}
	}
	for (v = 0; v < 2 * N; v++)
		nic[v].snd = -1;
	/* Does a NIC carry two pairs of the ring (--map-by node)? */
	for (v = 0; v < P; v++) {
		if (r[v].out < 0)
			continue;
		if ((nic[r[v].out].snd >= 0 && nic[r[v].out].snd != v) ||
		    (nic[N + r[v].in].snd >= 0 && nic[N + r[v].in].snd != v))
			shared = 1;
		nic[r[v].out].snd = nic[N + r[v].in].snd = (int32_t)v;
	}
	for (v = 0; v < 2 * N; v++) {
		nic[v].t = 0;
		nic[v].key = -INFINITY;
		nic[v].snd = -1;
	}
	msgs = ring_scatter(p, a, &pl, r, nic, N);
	if (msgs < 0)
		return 0;
	if (!ring_step(p, a, r, nic, N, 1, 1))
		return 0;
	for (i = 2; i < P && shared; i++)
		if (!ring_step(p, a, r, nic, N, i, 1))
			return 0;
	if (!shared) {
		for (v = 0; v < P; v++)
			if (r[v].out >= 0)
				r[v].nq = nic[r[v].out].t;
		for (i = 2; i < P; i++)
			ring_step_alone(p, a, r, i);
	}
	ml_coll_times_init(&sum);
	for (v = 0; v < P; v++)
		ml_coll_times_add(&sum, r[v].t);
	/* Beyond the finite the engine decides (and says overflow). */
	return ml_coll_times_result(&sum, a, msgs + P * (P - 1), res) == ML_OK;
}
