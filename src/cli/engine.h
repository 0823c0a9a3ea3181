/*
 * engine.h - what the parts of the engine share (internal to src/cli/):
 * the fixed state of a run, column references and limits.  The engine is
 * run.c (the driver), args.c (command line), columns.c (which columns),
 * sweep.c (evaluating and printing points) and batch.c (--input).
 */
#ifndef MCASTLAT_CLI_ENGINE_H
#define MCASTLAT_CLI_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cmd.h"
#include "cli/msg.h"
#include "cli/output.h"

#define MAX_JOBS 256

enum colsrc { SRC_OPT, SRC_RES, SRC_STATUS };

/* Where a printed column comes from: an option, a result or the status. */
struct colref {
	enum colsrc src;
	size_t idx;
};

/* Everything fixed for a run. */
struct run {
	const struct ml_command *cmd;
	struct ml_ctx *ctx;
	double unit_scale; /* output time = model time / unit_scale */
	struct ml_outspec spec;
	struct ml_outcol *ocols;
	struct colref *refs;
	bool *finite;	/* per result column: must be finite in an ok row
			 * (it exists in this run and is not .na) */
	unsigned jobs;
	unsigned long long shard_i, shard_n;
	const void *prep; /* the command's prepare() for the command line */
};

/* "mcastlat: CMD: --OPT: MSG" (or without --OPT); returns ML_EXIT_USAGE. */
int ml_usage_err(struct ml_ctx *ctx, const char *cmd, const char *opt,
		 const char *msg);

#endif
