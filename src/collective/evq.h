/*
 * evq.h - the collective engine's event queue (engine.c): events in
 * order of (time, key), the key breaking ties (rank, resume before
 * ready, posting sequence).  Inline, for the engine alone: a ring of P
 * ranks pushes and pops P^2 events, and a call each would cost as much
 * as the push.
 *
 * Events wait in sorted runs: an event later than the last of a run is
 * appended to it in O(1) instead of sifting through a heap.  Ranks that
 * move in step (a ring, a pipeline, a level of a tree) wake in the same
 * order step after step, so their events arrive sorted and a few runs
 * carry them all; the rest go to a 4-ary heap.  The queue's minimum is
 * the least of the heap's top and the runs' fronts.
 */
#ifndef MCASTLAT_COLL_EVQ_H
#define MCASTLAT_COLL_EVQ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define EVQ_HOT static inline __attribute__((always_inline))
#else
#define EVQ_HOT static inline
#endif

/* An event: its time as IEEE bits (which order as the times do, t >=
 * 0), the order among equal times, and the message of a ready event
 * or the bytes a cold rank received (-1: none) of a resume event. */
struct ev {
	uint64_t tb;
	uint64_t key; /* rank << 33 | resume << 32 | low bits of seq */
	int64_t aux;
};

#define EVQ_NRUNS 8

/* A run is a circular buffer (what it holds at once, not all it has
 * carried, is what it costs in memory): events head .. tail - 1 at
 * their index & mask; mask + 1 a power of two, or 0 with no buffer. */
struct run {
	struct ev *ev;
	size_t head, tail, mask;
};

/* The queue; its buffers are kept from one evaluation to the next
 * (evq_clear empties it, evq_free frees them). */
struct evq {
	struct run runs[EVQ_NRUNS];
	unsigned live; /* bit k: runs[k] is not empty */
	struct ev *h;  /* the heap */
	size_t nh, cap_h;
};

static inline uint64_t evq_time_bits(double t)
{
	uint64_t b;

	t += 0.0; /* -0 -> +0 */
	memcpy(&b, &t, sizeof b);
	return b;
}

static inline double evq_bits_time(uint64_t b)
{
	double t;

	memcpy(&t, &b, sizeof t);
	return t;
}

static inline int ev_less(const struct ev *x, const struct ev *y)
{
	return x->tb < y->tb || (x->tb == y->tb && x->key < y->key);
}

/* A 4-ary min-heap: half the levels of a binary heap, and the four
 * children of a node share a cache line or two.  0: out of memory. */
static inline int heap_push(struct evq *v, const struct ev *x)
{
	size_t i, up;
	struct ev *n;

	if (v->nh == v->cap_h) {
		n = realloc(v->h, (v->cap_h ? 2 * v->cap_h : 1024) * sizeof *n);
		if (!n)
			return 0;
		v->cap_h = v->cap_h ? 2 * v->cap_h : 1024;
		v->h = n;
	}
	for (i = v->nh++; i > 0; i = up) {
		up = (i - 1) / 4;
		if (!ev_less(x, &v->h[up]))
			break;
		v->h[i] = v->h[up];
	}
	v->h[i] = *x;
	return 1;
}

static inline struct ev heap_pop(struct evq *v)
{
	struct ev top = v->h[0], last = v->h[--v->nh];
	size_t i = 0, c, k, best, n = v->nh;

	for (;;) {
		c = 4 * i + 1;
		if (c >= n)
			break;
		best = c;
		for (k = c + 1; k < c + 4 && k < n; k++)
			if (ev_less(&v->h[k], &v->h[best]))
				best = k;
		if (!ev_less(&v->h[best], &last))
			break;
		v->h[i] = v->h[best];
		i = best;
	}
	if (n > 0)
		v->h[i] = last;
	return top;
}

static inline int run_grow(struct run *q)
{
	size_t cap = q->mask + 1, n = q->tail - q->head, i;
	size_t ncap = q->ev ? 2 * cap : 256;
	struct ev *b = malloc(ncap * sizeof *b);

	if (!b)
		return 0;
	for (i = 0; i < n; i++)
		b[i] = q->ev[(q->head + i) & q->mask];
	free(q->ev);
	q->ev = b;
	q->head = 0;
	q->tail = n;
	q->mask = ncap - 1;
	return 1;
}

/* Append x to the first run it does not go before; 0: none (or out of
 * memory), for the heap. */
EVQ_HOT int run_append(struct evq *v, const struct ev *x)
{
	struct run *q;
	unsigned b;
	int k;

	for (b = v->live; b; b &= b - 1) {
		q = &v->runs[__builtin_ctz(b)];
		if (ev_less(&q->ev[(q->tail - 1) & q->mask], x))
			goto put;
	}
	if (v->live == (1u << EVQ_NRUNS) - 1)
		return 0;
	k = __builtin_ctz(~v->live);
	q = &v->runs[k];
	q->head = q->tail = 0;
	if (!q->ev && !run_grow(q))
		return 0;
	v->live |= 1u << k;
put:
	if (q->tail - q->head == q->mask + 1 && !run_grow(q))
		return 0;
	q->ev[q->tail++ & q->mask] = *x;
	return 1;
}

/* Queue an event at t; 0: out of memory. */
EVQ_HOT int evq_push(struct evq *v, double t, uint64_t key, int64_t aux)
{
	struct ev x;

	x.tb = evq_time_bits(t);
	x.key = key;
	x.aux = aux;
	return run_append(v, &x) || heap_push(v, &x);
}

static inline int evq_empty(const struct evq *v)
{
	return v->live == 0 && v->nh == 0;
}

/* The least event, taken out (the queue is not empty). */
static inline struct ev evq_pop(struct evq *v)
{
	const struct ev *best = v->nh ? &v->h[0] : NULL;
	struct run *q, *from = NULL;
	unsigned b;
	int k, kf = 0;
	struct ev x;

	for (b = v->live; b; b &= b - 1) {
		k = __builtin_ctz(b);
		q = &v->runs[k];
		if (!best || ev_less(&q->ev[q->head & q->mask], best)) {
			best = &q->ev[q->head & q->mask];
			from = q;
			kf = k;
		}
	}
	if (!from)
		return heap_pop(v);
	x = from->ev[from->head++ & from->mask];
	if (from->head == from->tail)
		v->live &= ~(1u << kf);
	return x;
}

static inline void evq_clear(struct evq *v)
{
	v->live = 0;
	v->nh = 0;
}

static inline void evq_free(struct evq *v)
{
	int k;

	for (k = 0; k < EVQ_NRUNS; k++)
		free(v->runs[k].ev);
	free(v->h);
}

#endif
