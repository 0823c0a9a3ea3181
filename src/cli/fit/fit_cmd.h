/*
 * fit_cmd.h - `mcastlat fit MODEL`: a model's parameters from measurements
 * (fit_cmd.c: the command line, data to points, the fits; fit_out.c: what
 * is printed).  Internal to src/cli/.
 */
#ifndef MCASTLAT_CLI_FIT_H
#define MCASTLAT_CLI_FIT_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/cmd.h"
#include "cli/fit/fitdata.h"
#include "cli/engine/msg.h"
#include "cli/engine/output.h"
#include "cli/engine/parse.h"

/* Most --holdout options, conditions per option, discrete values tried. */
#define FIT_MAX_HOLDOUT 16
#define FIT_MAX_COND 8
#define FIT_MAX_COMBOS 1000

enum fit_stat { STAT_AUTO, STAT_AVG, STAT_MIN, STAT_MAX };

/* One COLUMN OP VALUE of --holdout. */
struct fit_cond {
	size_t opt;	/* option index */
	char op;	/* '<', 'l' (<=), '>', 'g' (>=), '=' */
	union ml_val v;
};

/* The command line of fit. */
struct fit_args {
	const struct ml_command *cmd;
	const char **data;
	size_t ndata;
	const char *free; /* "auto" or a list of option names */
	enum fit_stat stat;
	bool relative, logscale, robust, residuals, skip_bad, header;
	unsigned jobs; /* threads of a local model's evaluations */
	int progress;  /* 1 always, 0 never, -1 on a terminal */
	/* --holdout: each option a conjunction; a point is held out when
	 * any option's conditions all hold. */
	struct fit_cond cond[FIT_MAX_HOLDOUT][FIT_MAX_COND];
	size_t ncond[FIT_MAX_HOLDOUT];
	size_t nholdout;
	const char *emit, *output;
	enum ml_fmt fmt;
	int precision;
	const char *unit;  /* of printed times, or NULL: the model's */
	double unit_scale; /* printed time = model time / unit_scale */
	struct ml_vlist *vl; /* per option; count 0 when not given */
	bool *given;	     /* per option: on the command line */
	union ml_val *defaults;
};

/* The data of one fit, as points of the model. */
struct fit_points {
	size_t n;
	void *params;	     /* n params structs */
	union ml_val *v;     /* n * nopts option values */
	bool *stated;	     /* n * nopts: given by the file, an attribute
			      * or the command line, not by default */
	double *y, *w;	     /* measured (model unit), weight */
	bool *use;	     /* fitted (not held out) */
	size_t *group;	     /* the first point with the same inputs
			      * (repeated runs share it) */
	bool *mean;	     /* measured as a mean over ranks */
	size_t *mean_next;   /* the next point of the same inputs with
			      * the other statistic, or SIZE_MAX */
	const struct fd_row **row; /* where each point came from */
	bool has_w;
};

/* One fit's outcome. */
struct fit_outcome {
	enum ml_status st;
	struct ml_fit_result res;
	struct ml_diag d;
	const char *freeset[ML_FIT_MAXFREE];
	size_t nfree;
	const char *zeroed[2 * ML_FIT_MAXFREE];
	size_t nzeroed;
	bool automatic; /* --free auto */
	size_t combo;
	/* The command's error model (fit_errmodel), when it has one. */
	bool has_err;
	struct ml_fit_errout err;
};

/* fit's own options (for the shell completion). */
extern const struct option *const ml_fit_opts;
extern const size_t ml_nfit_opts;

/* `mcastlat fit ...` with argv[0] = "fit"; returns the exit status. */
int ml_fit_main(int argc, char **argv, struct ml_ctx *ctx);

/* Print `mcastlat fit --help`. */
void ml_fit_usage(FILE *f);

/* fit_out.c: the rows and the # lines, to f; --emit to a file.  Return
 * 0, or -1 on a write error (reported). */
int ml_fit_print(struct ml_ctx *ctx, FILE *f, const struct fit_args *a,
		 const struct fit_points *pts, const union ml_val *base,
		 const struct fit_outcome *out, const char *extra);
/* --emit; for a command with collective points (fit_collective), the
 * fitted ones of pts follow as "# measured: " lines, a CSV of the
 * points' inputs and the measured latency or latency_avg, which
 * `collective --data FILE` reads. */
int ml_fit_emit(struct ml_ctx *ctx, const struct fit_args *a,
		const union ml_val *base, const struct fit_points *pts);

/* "op=bcast msg=1024 nodes=16": a point's inputs that it states (all
 * when stated is NULL), into buf. */
const char *ml_fit_describe(const struct fit_args *a, const union ml_val *v,
			    const bool *stated, char *buf, size_t len);

/* The text of option i's value v (choice names, shortest exact number). */
const char *ml_fit_value_text(const struct ml_opt *o, union ml_val v,
			      char *buf, size_t len);

/* Internal to src/cli/fit/: fit_cmd.c calls fit_points.c and
 * fit_args.c, fit_points.c calls fit_args.c. */

/* fit_args.c: the names of --stat's values, by enum fit_stat. */
extern const char *const ml_fit_stat_names[];

/* fit_args.c: "mcastlat: fit: --OPT: MSG" (no OPT: "fit: MSG") on
 * stderr; returns ML_EXIT_USAGE. */
int ml_fit_usage_err(struct ml_ctx *ctx, const char *opt, const char *fmt,
		     ...) __attribute__((format(printf, 3, 4)));

/* fit_args.c: the index of the model's option called name (len bytes;
 * an alias names its option), or cmd->nopts. */
size_t ml_fit_find_opt(const struct ml_command *cmd, const char *name,
		       size_t len);

/* fit_args.c: the command line into a (zeroed); 0 or the exit status
 * (with the message written).  ml_fit_args_free releases it. */
int ml_fit_parse_args(struct ml_ctx *ctx, struct fit_args *a, int argc,
		      char **argv);
void ml_fit_args_free(struct fit_args *a);

/* fit_points.c: the points of the data set for the option values base
 * into p; *nskip rows skipped; report: say what is wrong (the first set
 * of values), later ones skip silently.  0 or the exit status.
 * ml_fit_points_free releases p. */
int ml_fit_build_points(struct ml_ctx *ctx, const struct fit_args *a,
			const struct fd_set *set, const union ml_val *base,
			struct fit_points *p, size_t *nskip, bool report);
void ml_fit_points_free(struct fit_points *p);

#endif
