/*
 * collective_data.h - `collective --data`: measured broadcasts into the
 * library's table, and each machine's corrected predictor built once a
 * sweep (collective_data.c; SPEC 10.7).
 */
#ifndef MCASTLAT_CLI_COLLECTIVE_DATA_H
#define MCASTLAT_CLI_COLLECTIVE_DATA_H

#include <stdbool.h>

#include "cli/cmd.h"
#include "mcastlat/collective.h"
#include "mcastlat/tune.h"

/* The command's options -> params, and the algorithm word (ompi, best). */
typedef enum ml_status (*ml_coll_params_fn)(const union ml_val *v,
					    struct ml_collective_params *p,
					    int *word);

/*
 * The broadcast rows (op bcast or no op column) of the comma-separated
 * files of list (may be NULL) into *m, after the "# measured: " lines of
 * the machine file machine (NULL, or a file without them: none), whose
 * cells list's files measure too are list's alone: each row's columns
 * that name an option over base's values; the measured time latency_avg
 * when avg and the files have it, else latency (or the one they have).
 * 0 with m->ncell 0 when there is nothing to read; -1 with *d set.
 */
int ml_collective_data_read(const char *list, const char *machine,
			    const union ml_val *base, ml_coll_params_fn conv,
			    bool avg, struct ml_coll_meas *m,
			    struct ml_diag *d);

/* Corrected predictors by machine, shared by threads. */
struct ml_coll_tune_cache;
struct ml_coll_tune_cache *ml_coll_tune_cache_new(void);
void ml_coll_tune_cache_free(struct ml_coll_tune_cache *c);

/* The predictor of *machine's placement (*t NULL: m has no cell of it),
 * built on first use. */
enum ml_status ml_coll_tune_cached(struct ml_coll_tune_cache *c,
				   const struct ml_coll_meas *m,
				   const struct ml_collective_params *machine,
				   const struct ml_coll_errmodel *em,
				   double level,
				   const struct ml_coll_tune **t);

#endif
