/* msg.h - the context every CLI function writes through, and messages. */
#ifndef MCASTLAT_CLI_MSG_H
#define MCASTLAT_CLI_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Nothing writes to stdout/stderr directly: tests capture these. */
struct ml_ctx {
	FILE *out;
	FILE *err;
	FILE *in;	/* what --input - reads */
	/* Most points a sweep (or batch row) may have; 0: 10^9 (SPEC 1.1).
	 * Fuzzing lowers it so that no input can run for long. */
	unsigned long long max_points;
	/* Most work one point may do (struct ml_point's max_work); 0: no
	 * limit.  Fuzzing lowers it so that no simulation runs for long. */
	unsigned long long max_work;
	/* --jobs, for a command's takeover that evaluates many points
	 * itself (collective --rules); 0 counts as 1. */
	unsigned jobs;
	/* Per option of the command running, whether the command line (or
	 * an --input column) gave it, while its takeover runs (collective
	 * --measured reads it); else NULL. */
	const bool *given;
};

/* "mcastlat: <message>\n" on ctx->err. */
void ml_err(struct ml_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "mcastlat: warning: <message>\n" on ctx->err. */
void ml_warn(struct ml_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The text of a message is escaped when printed (control characters as
 * \n, \t, \xHH; malformed UTF-8 bytes as \xHH), whatever its source.
 * ml_quote writes s into buf as 'TEXT', cut to fit with "..." before the
 * closing quote: a buffer of ML_QUOTE_LEN shows 40 bytes of a value.
 * Returns buf.
 */
#define ML_QUOTE_LEN 46
const char *ml_quote(char *buf, size_t len, const char *s);

/* "mcastlat: CMD: --OPT: MSG" (or without --OPT) on ctx->err, for a
 * usage error; returns ML_EXIT_USAGE. */
int ml_usage_err(struct ml_ctx *ctx, const char *cmd, const char *opt,
		 const char *msg);

/* Exit statuses (SPEC 1.3). */
enum {
	ML_EXIT_OK = 0,
	ML_EXIT_ROWS = 1,
	ML_EXIT_USAGE = 2,
	ML_EXIT_NOTOK = 3 /* --value: a row's status was not ok */
};

#endif
