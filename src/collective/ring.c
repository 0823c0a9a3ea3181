/*
 * ring.c - Open MPI's scatter-allgather ring with a rank per node, timed
 * without the event queue (issue 36): the same arithmetic as engine.c,
 * in an order of our own, where that order provably cannot change a
 * result.
 *
 * Why it may.  With one rank a node every resource of engine.c belongs
 * to one rank: the send port, send_done and NIC out to the sender, the
 * receive side and NIC in to the receiver.  The sender's are taken in
 * its program's order.  Rank v hears from two ranks only: its scatter
 * parent v - lowbit(v), once, then v - 1 at each of the P - 1 ring
 * steps, each message after the last (v - 1 posts step i + 1 once step
 * i is done).  So the engine's event order matters at one place: if
 * v - 1 posted its first ring message before the scatter's reached v,
 * v's receive side and NIC would serve them the other way round.  Where
 * v - 1 is v's parent its program orders them; elsewhere the parent
 * sends to v before it feeds the subtree that holds v - 1, so the
 * swap needs a degenerate machine (zero times).  It is checked: where
 * the scatter's message is not timed strictly earlier (the time of its
 * event, the eager send's posting or the rendezvous's ready) than the
 * first ring message to v, the caller runs the engine.  A rendezvous
 * ring message waits for v's receive, posted after its scatter ended.
 *
 * The times are then a recurrence: the scatter by rank (a parent is a
 * lower rank), the ring step by step, rank v's step i from its own step
 * i - 1 and rank v - 1's.  Every sum and max is written as engine.c
 * writes it (xfer_time, try_wake, eng_result), so the results are the
 * same bits; tests/check_collring.c holds the two against each other.
 * (The queue turns a time of -0 into +0; no time here is -0, all being
 * sums of +0 and times >= 0.)  P^2 messages at a few nanoseconds each,
 * not an event each.
 */
#include <math.h>

#include "collective/coll_int.h"

/* A rank's resources and clock (engine.c's struct rank, in brief). */
struct rr {
	double t;	  /* its clock: the end of its last wait */
	double port;	  /* send port free at */
	double send_done; /* latest completion of its sends */
	double rside;	  /* receive side free at */
	double nic_out, nic_in;
	double arr;    /* arrival of the message it waits for */
	double ev;     /* its scatter message: when the engine times it */
	long long got; /* that message's bytes, -1 none */
};

static double max2(double a, double b)
{
	return a > b ? a : b;
}

/* xfer_time of engine.c for a message between two nodes: from ready
 * on, s's port and NIC out, d's receive side and NIC in.  Returns the
 * arrival; the sender's completion goes into its send_done (sent()). */
static double xfer(const struct ml_collective_params *p, struct rr *s,
		   struct rr *d, long long bytes, double ready, int rndv)
{
	double L = p->lat[ML_COLL_NET];
	double bg = (double)bytes * ml_coll_gbyte(p, ML_COLL_NET, bytes);
	double start, arrival, nic, done;

	start = max2(ready, max2(s->port, d->rside - L));
	start = max2(start, max2(s->nic_out, d->nic_in));
	nic = start + p->nic_gap + (double)bytes * p->byte[ML_COLL_NET];
	s->nic_out = nic;
	d->nic_in = nic;
	arrival = start + L + bg;
	s->port = start + p->overhead + bg;
	d->rside = arrival;
	done = rndv ? arrival : s->port;
	if (done > s->send_done)
		s->send_done = done;
	return arrival;
}

int ml_coll_ring_fits(const struct ml_collective_params *p,
		      const struct coll_alg *a)
{
	return a->library == ML_COLL_OPENMPI &&
	       a->alg == ML_COLL_SCATTER_ALLGATHER_RING && p->ppn == 1 &&
	       a->ranks >= 2;
}

size_t ml_coll_ring_size(long long ranks)
{
	return (size_t)ranks * sizeof(struct rr);
}

/*
 * The scatter (programs.c, scatter()), parents first.  A receiver's
 * receive was posted at 0 and nothing reached it before (its receive
 * side and NIC in are 0); a rendezvous is ready at max(posted, 0) + L.
 * Returns the messages, or -1 where a send and a receive do not pair
 * as the recurrence expects (the engine then decides).
 */
static long long ring_scatter(const struct ml_collective_params *p,
			      const struct coll_alg *a, struct rr *r)
{
	long long P = a->ranks, M = a->msg, sc = a->sc, v, mask, cnt, n;
	long long msgs = 0;
	double L = p->lat[ML_COLL_NET];
	struct rr *d;
	int rndv;

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
			d->ev = rndv ? max2(r[v].t, 0) + L : r[v].t;
			d->arr = xfer(p, &r[v], d, n, d->ev, rndv);
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
 * the order check: a receiver's scatter message timed strictly before
 * the first ring message to it, else 0.
 */
static int ring_step(const struct ml_collective_params *p,
		     const struct coll_alg *a, struct rr *r, long long i)
{
	long long P = a->ranks, M = a->msg, sc = a->sc, u, blk, n;
	double L = p->lat[ML_COLL_NET], ready, t;
	struct rr *s, *d;
	int rndv;

	for (u = 0; u < P; u++) {
		s = &r[u];
		d = &r[u + 1 == P ? 0 : u + 1];
		blk = u - i + 1 < 0 ? u - i + 1 + P : u - i + 1;
		n = M - blk * sc;
		n = n < sc ? n : sc;
		n = n < 0 ? 0 : n;
		rndv = n > p->eager;
		ready = rndv ? max2(s->t, d->t) + L : s->t;
		/* rank u + 1 heard from its parent u itself in program
		 * order; from another parent, strictly earlier or not here */
		if (i == 1 && d->got >= 0 &&
		    (u + 1) - ((u + 1) & -(u + 1)) != u && !(d->ev < ready))
			return 0;
		d->arr = xfer(p, s, d, n, ready, rndv);
		if (u > 0) {
			t = s->t;
			if (s->send_done > t)
				t = s->send_done;
			if (s->arr > t)
				t = s->arr;
			s->t = t;
		}
	}
	t = r[0].t;
	if (r[0].send_done > t)
		t = r[0].send_done;
	if (r[0].arr > t)
		t = r[0].arr;
	r[0].t = t;
	return 1;
}

int ml_coll_ring_run(const struct ml_collective_params *p,
		     const struct coll_alg *a, void *buf,
		     struct ml_collective_result *res)
{
	struct rr *r = buf;
	long long P = a->ranks, v, i, msgs;
	double max = -INFINITY, min = INFINITY, sum = 0, t;

	if (!ml_coll_ring_fits(p, a))
		return 0;
	for (v = 0; v < P; v++) {
		r[v].t = r[v].port = r[v].send_done = r[v].rside = 0;
		r[v].nic_out = r[v].nic_in = r[v].arr = r[v].ev = 0;
		r[v].got = -1;
	}
	msgs = ring_scatter(p, a, r);
	if (msgs < 0)
		return 0;
	for (i = 1; i < P; i++)
		if (!ring_step(p, a, r, i))
			return 0;
	/* eng_result */
	for (v = 0; v < P; v++) {
		t = r[v].t;
		sum += t;
		max = t > max ? t : max;
		min = t < min ? t : min;
	}
	/* Beyond the finite the engine decides (and says overflow). */
	if (!isfinite(max) || !isfinite(sum))
		return 0;
	res->latency = max;
	res->latency_avg = sum / (double)P;
	res->latency_min = min;
	res->messages = msgs + P * (P - 1);
	res->ran = a->alg;
	res->segments = a->nseg;
	return 1;
}
