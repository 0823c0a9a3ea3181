/*
 * output.h - the one output module: table, CSV and JSON Lines rows
 * rendered from a spec, into a growable buffer the caller flushes.
 */
#ifndef MCASTLAT_CLI_OUTPUT_H
#define MCASTLAT_CLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/cmd.h"

/* In the order of the --format names. */
enum ml_fmt { ML_FMT_TABLE, ML_FMT_CSV, ML_FMT_JSON, ML_FMT_TSV };

enum ml_cell_kind {
	ML_CELL_INT,
	ML_CELL_REAL,
	ML_CELL_TEXT,
	ML_CELL_RAW /* a number already formatted (v.s, at most 32 bytes) */
};

struct ml_cell {
	enum ml_cell_kind kind;
	union ml_val v; /* REAL NaN prints nan (table, csv) or null (json) */
	size_t len;	/* RAW only: strlen(v.s) */
};

#define ML_BRIEF_MAX 64 /* room for a text's shorter form */

struct ml_outcol {
	const char *name;
	bool left;	/* table only: left-aligned (text); see table.c */
	/* table only: a text's shorter form (NULL: as is; struct ml_col) */
	const char *(*brief)(const char *text, char *buf, size_t len);
};

struct ml_outspec {
	enum ml_fmt fmt;
	int precision;	/* significant digits, 1..17; 0: the shortest
			 * text that reads back as the same double */
	bool header;
	const struct ml_outcol *cols;
	size_t ncols;
};

/* A growable byte buffer. */
struct ml_buf {
	char *p;
	size_t len, cap;
	bool oom;	/* an allocation failed: contents incomplete */
};

void ml_buf_free(struct ml_buf *b);
/* Append n bytes. */
void ml_buf_put(struct ml_buf *b, const char *s, size_t n);
/* Write the buffer to f and empty it; -1 on a write error. */
int ml_buf_flush(struct ml_buf *b, FILE *f);

/* Append the header line (nothing for json or when !header). */
void ml_out_header(const struct ml_outspec *s, struct ml_buf *b);
/* Append one row of s->ncols cells. */
void ml_out_row(const struct ml_outspec *s, const struct ml_cell *cells,
		struct ml_buf *b);

/*
 * Format x like printf("%.*g", prec, x) in the C locale, except that NaN
 * is "nan" whatever its sign.  Writes at most 32 bytes plus a NUL and
 * returns the length.  A fast exact path covers the common cases and
 * falls back to snprintf where the rounding is too close to call.
 */
size_t ml_fmt_g(char *out, double x, int prec);

/*
 * The text of a number cell (INT, REAL or RAW) into buf (40 bytes);
 * returns its length, or 0 for a JSON null (a non-finite REAL).
 */
size_t ml_out_number(const struct ml_outspec *s, const struct ml_cell *c,
		     char *buf);


#endif
