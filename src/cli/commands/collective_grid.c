/*
 * collective_grid.c - best's picks over a rules file's grid (every swept
 * --ranks by every swept --msg) on --jobs threads, for both rules files
 * (collective_ompi.c, collective_mpich.c).  The rows printed after the
 * file are the engine's sweep, threaded too: without this the file's
 * picks, run one after another, took longer than the rows (issue 36).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands/collective_mpich.h"

/* What every thread shares; each writes only its own points' out[]
 * and its own first failure. */
struct grid {
	const struct ml_coll_grid *g;
	unsigned jobs;
};

/* Thread t's part: the points k = t, t + jobs, ... (rows of larger P
 * cost more, so an interleave keeps the threads even).  It stops at its
 * first failure: every point of its own before that one is done, so the
 * least failure over the threads is the first in order. */
struct part {
	const struct grid *grid;
	unsigned t;
	union ml_val *v;
	size_t fail; /* its first failing point, or (size_t)-1 */
	enum ml_status st;
	int started; /* on a thread of its own */
	struct ml_diag d;
};

static void *run_part(void *arg)
{
	struct part *pt = arg;
	const struct ml_coll_grid *g = pt->grid->g;
	size_t k, n = g->np * g->nm;

	for (k = pt->t; k < n; k += pt->grid->jobs) {
		pt->v[g->o_ranks].i = g->ps[k / g->nm];
		pt->v[g->o_msg].i = g->ms[k % g->nm];
		pt->st =
		    g->fn(g->arg, pt->v, (char *)g->out + k * g->size, &pt->d);
		if (pt->st != ML_OK) {
			pt->fail = k;
			break;
		}
	}
	return NULL;
}

enum ml_status ml_coll_grid_run(const struct ml_coll_grid *g, unsigned jobs,
				struct ml_diag *d)
{
	struct grid grid;
	struct part *parts;
	pthread_t *tid;
	size_t n = g->np * g->nm, i, best;
	enum ml_status st = ML_OK;

	if (jobs < 1)
		jobs = 1;
	if (jobs > n)
		jobs = n > 0 ? (unsigned)n : 1;
	grid.g = g;
	grid.jobs = jobs;
	parts = calloc(jobs, sizeof *parts);
	tid = calloc(jobs, sizeof *tid);
	if (!parts || !tid) {
		free(parts);
		free(tid);
		return ML_ENOMEM;
	}
	for (i = 0; i < jobs; i++) {
		parts[i].grid = &grid;
		parts[i].t = (unsigned)i;
		parts[i].fail = (size_t)-1;
		parts[i].d.param = NULL;
		parts[i].v = malloc(g->nopts * sizeof *parts[i].v);
		if (!parts[i].v) {
			st = ML_ENOMEM;
			break;
		}
		memcpy(parts[i].v, g->base, g->nopts * sizeof *parts[i].v);
	}
	/* Thread 0's part runs here; where a thread cannot start, its
	 * part too (the same points, one after another). */
	for (i = 1; st == ML_OK && i < jobs; i++)
		parts[i].started =
		    pthread_create(&tid[i], NULL, run_part, &parts[i]) == 0;
	for (i = 0; st == ML_OK && i < jobs; i++)
		if (!parts[i].started)
			run_part(&parts[i]);
	for (i = 1; st == ML_OK && i < jobs; i++)
		if (parts[i].started)
			pthread_join(tid[i], NULL);
	if (st == ML_OK) {
		best = 0;
		for (i = 1; i < jobs; i++)
			if (parts[i].fail < parts[best].fail)
				best = i;
		if (parts[best].fail != (size_t)-1) {
			st = parts[best].st;
			*d = parts[best].d;
		}
	}
	for (i = 0; i < jobs; i++)
		free(parts[i].v);
	free(parts);
	free(tid);
	return st;
}
