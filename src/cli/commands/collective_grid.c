/*
 * collective_grid.c - what both rules files (collective_ompi.c,
 * collective_mpich.c) share: best's picks over the grid of every swept
 * --ranks by every swept --msg, on --jobs threads, and the file's
 * writing through a temporary that is renamed when complete.  collective
 * runs best once at each point of the grid, keeping the whole outcome
 * (cmd_collective.c, struct coll_prep): the file is written from it and
 * the rows printed after the file are read from it (issue 48), so the
 * grid is evaluated once, on --jobs threads (issue 36).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands/collective_mpich.h"
#include "cli/engine/msg.h"
#include "cli/engine/parse.h"

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

static int cmp_ll(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return (a > b) - (a < b);
}

/* The values of a --ranks or --msg list, sorted, without repeats, their
 * number into *n; NULL when out of memory. */
static long long *sorted_values(const struct ml_vlist *vl, size_t *n)
{
	long long *x = malloc(((size_t)vl->count + 1) * sizeof *x);
	size_t i, k = 0;

	if (!x)
		return NULL;
	for (i = 0; i < vl->count; i++)
		x[i] = ml_vlist_at(vl, i).i;
	qsort(x, (size_t)vl->count, sizeof *x, cmp_ll);
	for (i = 0; i < vl->count; i++)
		if (k == 0 || x[i] != x[k - 1])
			x[k++] = x[i];
	*n = k;
	return x;
}

int ml_coll_rules_picks(const struct ml_command *cmd, struct ml_ctx *ctx,
			const struct ml_vlist *const *vl,
			const union ml_val *base, size_t o_ranks, size_t o_msg,
			enum ml_status (*fn)(void *arg, const union ml_val *v,
					     void *out, struct ml_diag *d),
			void *arg, size_t size, struct ml_coll_picks *pk)
{
	struct ml_coll_grid g;
	struct ml_diag d = {NULL, ""};
	enum ml_status st;
	size_t i;

	memset(pk, 0, sizeof *pk);
	for (i = 0; i < cmd->nopts; i++)
		if (i != o_ranks && i != o_msg && vl[i]->count > 1)
			return ml_usage_err(ctx, cmd->name, cmd->opts[i].name,
					    "--rules sweeps only --ranks and "
					    "--msg");
	pk->ps = sorted_values(vl[o_ranks], &pk->np);
	pk->ms = sorted_values(vl[o_msg], &pk->nm);
	if (pk->ps && pk->ms && pk->np > 0 && pk->nm > 0 &&
	    pk->np <= ((size_t)-1) / size / pk->nm)
		pk->out = malloc(pk->np * pk->nm * size);
	if (!pk->out)
		return ml_usage_err(ctx, cmd->name, NULL, "out of memory");
	g = (struct ml_coll_grid){base,	  cmd->nopts, o_ranks, o_msg,
				 pk->ps, pk->ms,     pk->np,  pk->nm,
				 fn,	  arg,	      pk->out, size};
	st = ml_coll_grid_run(&g, ctx->jobs, &d);
	if (st == ML_OK)
		return ML_EXIT_OK;
	if (st == ML_ENOMEM)
		return ml_usage_err(ctx, cmd->name, NULL, "out of memory");
	return ml_usage_err(ctx, cmd->name, d.param ? d.param : "rules",
			    d.msg[0] ? d.msg : "cannot be evaluated");
}

void ml_coll_picks_free(struct ml_coll_picks *pk)
{
	free(pk->ps);
	free(pk->ms);
	free(pk->out);
	memset(pk, 0, sizeof *pk);
}

/* write(f, arg), then close f (either way): 0 when both succeeded. */
static int write_close(FILE *f, int (*write)(FILE *f, const void *arg),
		       const void *arg)
{
	int bad = write(f, arg) != 0;

	if (fclose(f) != 0)
		bad = 1;
	return bad ? -1 : 0;
}

/* Write to path itself where it exists and is not a regular file (a
 * device, a pipe, /dev/stdout): a rename would replace the node. */
static int write_direct(const struct ml_command *cmd, struct ml_ctx *ctx,
			const char *path, int (*write)(FILE *f, const void *arg),
			const void *arg)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return ml_usage_err(ctx, cmd->name, "rules", strerror(errno));
	if (write_close(f, write, arg) != 0)
		return ml_usage_err(ctx, cmd->name, "rules", "write failed");
	return ML_EXIT_OK;
}

int ml_coll_rules_write(const struct ml_command *cmd, struct ml_ctx *ctx,
			const char *path, int (*write)(FILE *f, const void *arg),
			const void *arg)
{
	char *tmp;
	FILE *f;
	int rc = ML_EXIT_OK;
	struct stat st;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_direct(cmd, ctx, path, write, arg);
	tmp = malloc(strlen(path) + 16);
	if (!tmp)
		return ml_usage_err(ctx, cmd->name, NULL, "out of memory");
	sprintf(tmp, "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		rc = ml_usage_err(ctx, cmd->name, "rules", strerror(errno));
	} else if (write_close(f, write, arg) != 0) {
		rc = ml_usage_err(ctx, cmd->name, "rules", "write failed");
		remove(tmp);
	} else if (rename(tmp, path) != 0) {
		rc = ml_usage_err(ctx, cmd->name, "rules", strerror(errno));
		remove(tmp);
	}
	free(tmp);
	return rc;
}
