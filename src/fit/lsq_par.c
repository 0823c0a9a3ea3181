/*
 * lsq_par.c - the fitting core's one parallel loop: a local model's
 * points (the collective model: a run of the engine each, nearly all
 * of a fit's time) evaluated on ml_fit_options.threads threads.
 *
 * Each point is computed alone, by the same arithmetic on any thread,
 * and written only to its own slots, so a fit's result is the same
 * bits for any thread count.  The threads take the points one at a
 * time from a shared counter, the costliest first (by each point's
 * time in a loop before: a point's cost differs a thousandfold with
 * its ranks, segments and algorithm, and a costly point taken last
 * would leave the other threads idle); a failure is reported at the
 * lowest failing point, as the serial loop would.  Models with exact
 * pieces are cheap and stay serial.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "fit/lsq.h"

/* The most threads one loop starts. */
#define MAX_THREADS 256

struct each {
	struct work *w;
	int (*fn)(struct work *w, size_t i, void *arg);
	void *arg;
	atomic_size_t next;
	size_t first_bad; /* lowest failing point, under mu */
	pthread_mutex_t mu;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *each_worker(void *pv)
{
	struct each *e = pv;
	struct work *w = e->w;
	size_t bad = SIZE_MAX, k;

	while ((k = atomic_fetch_add(&e->next, 1)) < w->norder) {
		size_t i = w->order[k];
		double t0 = now_s();

		if (e->fn(w, i, e->arg) != 0 && i < bad)
			bad = i;
		w->cost[i] = now_s() - t0;
	}
	pthread_mutex_lock(&e->mu);
	if (bad < e->first_bad)
		e->first_bad = bad;
	pthread_mutex_unlock(&e->mu);
	return NULL;
}

/* A point and its last cost, for the order of the next loop. */
struct costed {
	double cost;
	size_t i;
};

/* qsort: the costlier first, ties by index (the order is only a
 * schedule: any order gives the same result). */
static int by_cost(const void *a, const void *b)
{
	const struct costed *x = a, *y = b;

	return x->cost > y->cost   ? -1
	       : x->cost < y->cost ? 1
				   : (x->i > y->i) - (x->i < y->i);
}

/* w->order by w->cost, the costliest first; kept as it is when there
 * is no memory (only the speed depends on it). */
static void sort_by_cost(struct work *w)
{
	struct costed *c = malloc(w->norder * sizeof(*c));
	size_t k;

	if (!c)
		return;
	for (k = 0; k < w->norder; k++)
		c[k] = (struct costed){w->cost[w->order[k]], w->order[k]};
	qsort(c, w->norder, sizeof(*c), by_cost);
	for (k = 0; k < w->norder; k++)
		w->order[k] = c[k].i;
	free(c);
}

static size_t each_serial(struct work *w,
			  int (*fn)(struct work *w, size_t i, void *arg),
			  void *arg)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (w->rep[i] == i && fn(w, i, arg) != 0)
			return i;
	return SIZE_MAX;
}

size_t ml_lsq_each(struct work *w,
		   int (*fn)(struct work *w, size_t i, void *arg), void *arg)
{
	unsigned nt = w->o && w->o->threads > 1 && w->m->local ? w->o->threads
							       : 1;
	pthread_t th[MAX_THREADS];
	unsigned started = 0, t;
	struct each e = {.w = w, .fn = fn, .arg = arg, .first_bad = SIZE_MAX};
	size_t i;

	if (nt > MAX_THREADS)
		nt = MAX_THREADS;
	if (nt <= 1 || w->n < 2)
		return each_serial(w, fn, arg);
	if (!w->order) {
		w->order = malloc(w->n * sizeof(*w->order));
		w->cost = calloc(w->n, sizeof(*w->cost));
		if (!w->order || !w->cost) {
			free(w->order);
			free(w->cost);
			w->order = NULL;
			w->cost = NULL;
			return each_serial(w, fn, arg);
		}
		for (i = 0; i < w->n; i++)
			if (w->rep[i] == i)
				w->order[w->norder++] = i;
	}
	/* no more threads than points to evaluate */
	if ((size_t)nt > w->norder)
		nt = w->norder > 1 ? (unsigned)w->norder : 1;
	if (nt <= 1 || pthread_mutex_init(&e.mu, NULL) != 0)
		return each_serial(w, fn, arg);
	atomic_init(&e.next, 0);
	/* This thread is one of them; a thread that cannot start leaves
	 * its share to the others. */
	for (t = 1; t < nt; t++)
		if (pthread_create(&th[started], NULL, each_worker, &e) == 0)
			started++;
	each_worker(&e);
	for (t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	pthread_mutex_destroy(&e.mu);
	w->nloops++;
	if ((w->nloops & (w->nloops - 1)) == 0)
		sort_by_cost(w);
	return e.first_bad;
}
