/* columns.h - which columns a run prints (see columns.c); internal. */
#ifndef MCASTLAT_CLI_COLUMNS_H
#define MCASTLAT_CLI_COLUMNS_H

#include "cli/engine.h"
#include "cli/parse.h"

/* Set r->spec.cols/ncols, r->ocols and r->refs from --columns list (NULL:
 * every column) given the options' first values and value lists; returns
 * 0 or an exit status, the error reported.  r->spec.precision must be
 * set.  r->ocols and r->refs are the caller's to free. */
int ml_setup_columns(struct run *r, const char *list,
		     const union ml_val *base, const struct ml_vlist *vl);

#endif
