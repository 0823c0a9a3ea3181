/* batch.h - batch mode, --input FILE (see batch.c); internal. */
#ifndef MCASTLAT_CLI_BATCH_H
#define MCASTLAT_CLI_BATCH_H

#include "cli/engine/csvline.h"
#include "cli/engine/sweep.h"

/* Run the rows of the CSV file fname ("-": ctx->in) over the command
 * line's value lists vl, first values base and sweep order; returns the
 * exit status. */
int ml_run_batch(struct run *r, const char *fname,
		 const struct ml_vlist *const *vl, const union ml_val *base,
		 const size_t *order, size_t norder, struct sink *sk);

#endif
