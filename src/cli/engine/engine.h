/*
 * engine.h - what the parts of the engine share (internal to src/cli/):
 * the fixed state of a run, column references and limits.  The engine is
 * run.c (the driver), args.c (command line), columns.c (which columns),
 * sweep.c (evaluating and printing points) and batch.c (--input), with
 * table.c, progress.c, outfile.c, output.c, parse.c, shortest.c,
 * csvline.c and msg.c (messages, usage errors included) below them.
 *
 * Its files stand above what they call, from main.c down (run.c; batch.c;
 * args.c; sweep.c; columns.c; the commands; table.c, progress.c,
 * outfile.c; output.c; parse.c; msg.c): tests/cli/layers.sh fails on a
 * circle of calls between files.  The commands (src/cli/commands/) are
 * reached through the command table, never called by name.
 */
#ifndef MCASTLAT_CLI_ENGINE_H
#define MCASTLAT_CLI_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cmd.h"
#include "cli/engine/msg.h"
#include "cli/engine/output.h"

struct ml_progress;

#define MAX_JOBS 256

enum colsrc { SRC_OPT, SRC_RES, SRC_STATUS, SRC_KEEP };

/* Where a printed column comes from: an option, a result or the status. */
struct colref {
	enum colsrc src;
	size_t idx;
	bool noapply;	/* a result column whose applies() fails: only
			 * --columns prints it */
	bool detail;	/* a result column left out of the default table */
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
	const char *value;	/* --value COL, or NULL */
	const char *colopt;	/* the option that chose the columns */
	int progress;		/* -1 auto, 0 off, 1 on */
	bool dryrun;
	const char *unit_name;	/* of time columns: --unit or the command's */
	const char *format;	/* --format as given, or NULL (takeover) */
	bool own_output;	/* the command's takeover prints every row's
				 * output itself (cmd->takeover_flag set):
				 * no table header for --input */
	/* What columns.c chooses from (see there). */
	const char *collist;	/* --columns or --value, or NULL */
	bool allcols, keep;	/* --all-columns, --keep */
	bool *given;		/* per option: on the command line or an
				 * --input column */
	bool *varies;		/* per option: more than one value in the
				 * run (a swept list or an --input column) */
	const union ml_val *base;
	/* The command line's value lists (vl[i] of option i), for the
	 * columns' applies(); with --input, infile[i] marks the options the
	 * file gives and input_name is the file's name (else NULL). */
	const struct ml_vlist *const *vl;
	bool *infile;
	const char *input_name;
	/* The values of the table's "# name=value" line where they differ
	 * from base (an --input column the same on every row: batch.c),
	 * or NULL: base. */
	const union ml_val *constval;
	const char **keepnames;	/* --keep: unknown --input columns */
	size_t nkeep;
	char *names;		/* storage of the printed column names */
	size_t names_len;
	char *constline;	/* table: "# name=value ...\n", or NULL */
	unsigned long long ignored_noted; /* bit i: cmd->ignored[i] said */
	struct ml_progress *prog; /* the progress line, for the progress
				   * inside a slow point; or NULL */
};


#endif
