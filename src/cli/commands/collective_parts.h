/*
 * collective_parts.h - parts of `mcastlat collective` in files of their
 * own: Open MPI's rules file (collective_ompi.c), the fit's error
 * model hook (collective_errmodel.c) and --schedule's printing
 * (collective_schedule.c).  MPICH's tuning file is
 * collective_mpich.h's, the option and column tables
 * collective_opts.h's.
 */
#ifndef MCASTLAT_CLI_COLLECTIVE_PARTS_H
#define MCASTLAT_CLI_COLLECTIVE_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/cmd.h"
#include "mcastlat/collective.h"

/*
 * The default machine's error model: the larger, term by term, of its
 * own fit's forward validation and of how far it (a fit of the THIN
 * nodes) predicts another cluster (EPYC), by scripts/default-machine.sh;
 * mcastlat-collective(1), DEFAULTS.
 */
#define DEF_ERR_RANKS	      "48"
#define DEF_ERR_SD_SMALL      "1.37"
#define DEF_ERR_SD_MEDIUM     "0.628"
#define DEF_ERR_SD_LARGE      "0.487"
#define DEF_ERR_GROWTH_SMALL  "0.0716"
#define DEF_ERR_GROWTH_MEDIUM "0.156"
#define DEF_ERR_GROWTH_LARGE  "0.0719"
#define DEF_ERR_DIFF	      "0.704"
#define DEF_ERR_DIFF_GROWTH   "0.187"
/* The most ranks a socket of the THIN fit held: its sockets' 12 cores
 * (--map-by core, P >= 12).  A pick that differs from the default where
 * a socket holds more must hold on 12-core sockets too (issue 48). */
#define DEF_ERR_SOCKET_RANKS  "12"

/* best's pick at the point v (ranks and msg set): Open MPI's algorithm id
 * (0: its fixed decision), the chain's fanout and the segment size; or
 * ML_EINVAL with *d.  arg is the rules writer's pick_arg. */
typedef enum ml_status (*ml_coll_rule_fn)(const void *arg,
					  const union ml_val *v,
					  long long *alg, long long *fanout,
					  long long *segment,
					  struct ml_diag *d);

/*
 * Write base[o_rules] (atomically: FILE.tmp, then renamed): an Open MPI
 * dynamic rules file giving pick's choice at each swept --ranks
 * (vl[o_ranks]) and --msg (vl[o_msg]); fitted false adds a comment that
 * the machine was not fitted.  Returns 0, or a usage error's exit status
 * after printing it.
 */
int ml_collective_ompi_rules(const struct ml_command *cmd, struct ml_ctx *ctx,
			     const struct ml_vlist *const *vl,
			     const union ml_val *base, size_t o_ranks,
			     size_t o_msg, size_t o_rules, bool fitted,
			     bool v50, ml_coll_rule_fn pick, const void *pick_arg);

/* The command's fit_errmodel hook (cmd.h). */
int ml_collective_fit_errmodel(const struct ml_fit_data *data,
			       const char *const *freeset, size_t nfree,
			       const struct ml_fit_options *o,
			       const struct ml_fit_result *res,
			       struct ml_fit_errout *out);

/* --schedule: the point's # line, the column heads and every message
 * of p's broadcast to f, as CSV or a table (collective_schedule.c);
 * 0, or -1 when a write failed.  r receives the broadcast's result. */
int ml_collective_print_schedule(FILE *f, int csv, const char *chosen,
				 const struct ml_collective_params *p,
				 struct ml_collective_result *r);

/* --plan's and --measured's check that the options opts[0..n-1] have
 * one value each (collective_plan.c): 0, or a usage error's exit status
 * after printing it, naming --flag. */
int ml_collective_one_allocation(const struct ml_command *cmd,
				 struct ml_ctx *ctx,
				 const struct ml_vlist *const *vl,
				 const int *opts, size_t n, const char *flag);

/* --measured (collective_measured.c): for each --map-by of vl (the
 * other placement options one value each), m's cells of that placement
 * and what their cross-validation found (ml_coll_tune_info), as a table
 * or, by format, CSV, TSV or JSON Lines on ctx->out; conv turns option
 * values into params.  An exit status (usage errors printed). */
struct ml_coll_meas;
struct ml_coll_errmodel;
int ml_collective_print_measured(
    const struct ml_command *cmd, struct ml_ctx *ctx,
    const struct ml_vlist *const *vl, const union ml_val *base,
    const char *format,
    enum ml_status (*conv)(const union ml_val *, struct ml_collective_params *,
			   int *),
    const struct ml_coll_errmodel *em, const struct ml_coll_meas *m);

/* Predictions with measured cells m: a warning on ctx->err where none
 * has the placement asked (base's, each --map-by of vl; the other
 * placement options' first values), naming the options in which the
 * first cell's differs: the measurements would not apply (with --plan,
 * the plan is then the fixed design). */
void ml_collective_warn_unmeasured(
    struct ml_ctx *ctx, const struct ml_vlist *const *vl,
    const union ml_val *base,
    enum ml_status (*conv)(const union ml_val *, struct ml_collective_params *,
			   int *),
    const struct ml_coll_meas *m);

/* --plan (collective_plan.c): the broadcasts to measure for the
 * allocation of base (--ppn, --sockets, --nodes), every --map-by of
 * vl, the candidates among (ML_COLL_AMONG bits) and --budget, as CSV on
 * ctx->out; with ap (measured cells: --input's or --data's), the
 * next ones (ml_collective_plan_adaptive, its plan part filled here).
 * An exit status (usage errors printed). */
int ml_collective_print_plan(const struct ml_command *cmd, struct ml_ctx *ctx,
			     const struct ml_vlist *const *vl,
			     const union ml_val *base, unsigned among,
			     const struct ml_coll_adapt_params *ap);

#endif
