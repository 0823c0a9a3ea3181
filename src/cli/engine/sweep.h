/* sweep.h - evaluating a sweep and printing its rows (see sweep.c);
 * internal. */
#ifndef MCASTLAT_CLI_SWEEP_H
#define MCASTLAT_CLI_SWEEP_H

#include "cli/engine/engine.h"
#include "cli/engine/parse.h"
#include "cli/engine/progress.h"
#include "cli/engine/table.h"

/* One sweep: the value list of every option and the order of dims. */
struct sweep {
	const struct ml_vlist *const *vl; /* per option */
	size_t ndims;
	const size_t *dim; /* option index per dim, outermost first */
	unsigned long long total;
	const union ml_val *base; /* values of options not swept */
	size_t nopts;
	const void *prep; /* the command's prepare() for this sweep */
	const char *const *keep; /* --keep: this --input row's kept cells */
};

/* Where rows go: stdout of ctx, the first invalid-row warning once. */
struct sink {
	struct ml_ctx *ctx;
	const char *cmdname;
	bool warned, failed;
	bool owarned; /* the overflow warning was given */
	unsigned long long notok; /* --value: rows not ok, left out */
	struct ml_progress prog;  /* the progress line */
	unsigned long long pdone; /* points done before this range */
	struct ml_table *table;	  /* table format: aligns what is written */
	struct ml_table tbl;	  /* its storage */
};

/* Choose the run's columns (columns.c) and, for the table, set up the
 * aligning of what the sink writes; 0 or an exit status, reported. */
int ml_sink_columns(struct sink *s, struct run *r);

/* Write and empty b; -1 (reported, s->failed set) on error. */
int ml_sink_write(struct sink *s, struct ml_buf *b);

/* Evaluate points [lo, hi) of the sweep in order (threads per r->jobs);
 * -1 when output failed (reported). */
int ml_sweep_range(const struct run *r, const struct sweep *sw,
		   unsigned long long lo, unsigned long long hi,
		   struct sink *s);

/* Product of the dims' counts in *total; -1 above ML_MAX_POINTS. */
/* --dry-run: "points: N", then the swept options' values at the first
 * and last point of [lo, hi), nothing evaluated. */
void ml_dry_run(const struct run *r, const struct sweep *sw,
		unsigned long long lo, unsigned long long hi, struct ml_buf *b);

int ml_sweep_total(const struct ml_vlist *const *vl, const size_t *dim,
		   size_t ndims, unsigned long long *total);

/* The most points a sweep may have for ctx. */
unsigned long long ml_max_points(const struct ml_ctx *ctx);

/* Copy into out the dims of in whose option has several values; count. */
size_t ml_swept_dims(const struct ml_vlist *const *vl, const size_t *in,
		     size_t n, size_t *out);

/* -1 with *d filled when no point of the sweep can pass check(). */
int ml_precheck(const struct run *r, const struct sweep *sw,
		struct ml_diag *d);

#endif
