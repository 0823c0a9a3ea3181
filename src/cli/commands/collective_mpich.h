/*
 * collective_mpich.h - `mcastlat collective --library mpich --rules FILE`:
 * MPICH's JSON tuning file (collective_mpich.c), and the entries of
 * MPICH's own file for the other collectives (collective_mpich_generic.c).
 */
#ifndef MCASTLAT_CLI_COLLECTIVE_MPICH_H
#define MCASTLAT_CLI_COLLECTIVE_MPICH_H

#include <stddef.h>

#include "cli/cmd.h"
#include "mcastlat/collective.h"

/* The members of mpir/generic.json other than MPI_Bcast's, each a
 * "collective=NAME":{...} member, NULL-terminated. */
extern const char *const ml_mpich_generic_other[];

/* best's pick at the point v (ranks and msg set), or ML_EINVAL with *d;
 * arg is the rules writer's pick_arg. */
typedef enum ml_status (*ml_coll_pick_fn)(const void *arg,
					  const union ml_val *v,
					  enum ml_coll_alg *alg,
					  struct ml_diag *d);

/*
 * Write base[o_rules] (atomically: FILE.tmp, then renamed): an MPIR-level
 * tuning file whose MPI_Bcast entry gives pick's algorithm at each swept
 * --ranks (vl[o_ranks]) and --msg (vl[o_msg]), followed by MPICH's own
 * entries for every other collective.  Returns 0, or a usage error's
 * exit status after printing it.
 */
int ml_collective_mpich_rules(const struct ml_command *cmd, struct ml_ctx *ctx,
			      const struct ml_vlist *const *vl,
			      const union ml_val *base, size_t o_ranks,
			      size_t o_msg, size_t o_rules,
			      ml_coll_pick_fn pick, const void *pick_arg);

/* The pure part, for the tests: write the JSON for ranks ps[0..np-1] and
 * sizes ms[0..nm-1] (both sorted ascending, no repeats), alg[i * nm + j]
 * being the pick at ps[i], ms[j], to f.  Returns 0, or -1 when a write
 * failed. */
int ml_collective_mpich_json(FILE *f, const long long *ps, size_t np,
			     const long long *ms, size_t nm,
			     const enum ml_coll_alg *alg);

/*
 * A rules file's grid: fn(arg, v, out + k size, d) at every point k =
 * i nm + j, v being base with ranks ps[i] and msg ms[j]; fn must be
 * thread safe.
 */
struct ml_coll_grid {
	const union ml_val *base;
	size_t nopts, o_ranks, o_msg;
	const long long *ps, *ms;
	size_t np, nm;
	enum ml_status (*fn)(void *arg, const union ml_val *v, void *out,
			     struct ml_diag *d);
	void *arg;
	void *out;
	size_t size;
};

/* Evaluate the grid *g on up to jobs threads (collective_grid.c).
 * Returns ML_OK, ML_ENOMEM, or the status of the first point in order
 * that failed, with its *d. */
enum ml_status ml_coll_grid_run(const struct ml_coll_grid *g, unsigned jobs,
				struct ml_diag *d);

/* A rules file's picks: the swept P and M, sorted without repeats, and
 * out[i nm + j] (size bytes each), the pick at ps[i], ms[j]. */
struct ml_coll_picks {
	long long *ps, *ms;
	size_t np, nm;
	void *out;
};

/*
 * Both rules files' picks (collective_grid.c): only --ranks and --msg
 * may be swept; fn(arg, ...) at every point of their grid on --jobs
 * threads.  ML_EXIT_OK, or the exit status after a one-line error (the
 * first point in order that failed).  Free *pk with ml_coll_picks_free
 * either way.
 */
int ml_coll_rules_picks(const struct ml_command *cmd, struct ml_ctx *ctx,
			const struct ml_vlist *const *vl,
			const union ml_val *base, size_t o_ranks, size_t o_msg,
			enum ml_status (*fn)(void *arg, const union ml_val *v,
					     void *out, struct ml_diag *d),
			void *arg, size_t size, struct ml_coll_picks *pk);
void ml_coll_picks_free(struct ml_coll_picks *pk);

/* Write a rules file: write(f, arg) into PATH.tmp, renamed to path when
 * complete, so a failure leaves no file.  ML_EXIT_OK, or the exit
 * status after a one-line error. */
int ml_coll_rules_write(const struct ml_command *cmd, struct ml_ctx *ctx,
			const char *path, int (*write)(FILE *f, const void *arg),
			const void *arg);

#endif
