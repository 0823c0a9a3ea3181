/*
 * table.h - the aligned table for people: rows arrive as tab-separated
 * cells (from output.c) and leave padded, each column as wide as its
 * content.  The first rows are held back (up to TABLE_HOLD rows or a
 * second) to measure the widths, so a short run is laid out exactly and
 * a long one still streams; a later, wider value widens its column from
 * there on.
 */
#ifndef MCASTLAT_CLI_TABLE_H
#define MCASTLAT_CLI_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/engine/output.h"

#define TABLE_HOLD 1000

struct ml_table {
	const struct ml_outcol *cols; /* alignment: left (text) or right */
	size_t ncols;
	size_t *width;
	struct ml_buf held; /* rows held back, raw */
	size_t nheld;
	bool streaming;	    /* the widths are fixed: rows pass through */
	double t0;	    /* when the first row was held */
	size_t hold;	    /* rows held at most: TABLE_HOLD, or 1 for a
			     * slow command (each row shows at once) */
	struct ml_buf line; /* a partial line between feeds */
};

int ml_table_init(struct ml_table *t, const struct ml_outcol *cols,
		  size_t ncols);
/* Take n bytes of raw rows; write what is ready to f.  Lines starting
 * with '#' pass unchanged.  -1 on a write error or out of memory. */
int ml_table_feed(struct ml_table *t, const char *p, size_t n, FILE *f);
/* Write whatever is held; -1 on a write error. */
int ml_table_finish(struct ml_table *t, FILE *f);
void ml_table_free(struct ml_table *t);

#endif
