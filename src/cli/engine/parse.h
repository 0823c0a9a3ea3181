/*
 * parse.h - strict number parsing, time units and value lists.
 *
 * Value list grammar (SPEC 1.1): items separated by commas, each
 *   VALUE | FIRST:LAST | FIRST:LAST:STEP | FIRST:LAST:*FACTOR
 * Range points are FIRST + i*STEP (never accumulated), the end included
 * when hit within 1e-9 relative; geometric points are FIRST * FACTOR^i.
 */
#ifndef MCASTLAT_CLI_PARSE_H
#define MCASTLAT_CLI_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cmd.h"

/* Most points a sweep may have (SPEC 1.1). */
#define ML_MAX_POINTS 1000000000ULL

/* The largest value of an integer option: 2^53, every integer up to which
 * a double (what the models compute in) holds exactly. */
#define ML_INT_MAX 9007199254740992LL

/* Relative tolerance with which a floating range hits its end. */
#define ML_RANGE_EPS 1e-9

enum ml_item_kind { ML_ITEM_ONE, ML_ITEM_LIN, ML_ITEM_GEO };

struct ml_item {
	enum ml_item_kind kind;
	union ml_val first, last, step; /* GEO: step.r is the factor */
	unsigned long long count;
	unsigned long long start; /* index of its first point in the list */
	/* Real LIN whose first and step are decimals of at most 15
	 * places (0:0.02:0.001): point i is (a + i s) / 10^dec, a and s
	 * integers, one rounding, so 9 * 0.001 prints as 0.009, not
	 * 0.009000000000000001.  dec < 0: first + i step. */
	int dec;
	double a, s;
};

/* A parsed value list; points are numbered 0 .. count-1 across items. */
struct ml_vlist {
	struct ml_item *items;
	size_t nitems;
	unsigned long long count;
	const struct ml_opt *opt;
};

/*
 * Parse a whole string as a finite double / a decimal integer.  Return
 * NULL on success, else a phrase for the error message ("is not a
 * number", "is out of range", ...).
 */
const char *ml_parse_real(const char *s, double *out);
const char *ml_parse_int(const char *s, long long *out);

/* Scale of a time unit name in microseconds ("ns" -> 1e-3); 0 if unknown. */
double ml_time_scale(const char *unit);

/*
 * Parse text as a value list for opt.  time_unit is the command's
 * ("us" or "cycles").  On error return -1 and write a message (without
 * the "mcastlat: cmd: --opt: " prefix) to err.  The list must be freed
 * with ml_vlist_free.
 */
int ml_vlist_parse(struct ml_vlist *vl, const struct ml_opt *opt,
		   const char *text, const char *time_unit, char *err,
		   size_t errlen);
void ml_vlist_free(struct ml_vlist *vl);

/* The value of point idx (0 <= idx < count), by binary search over items. */
union ml_val ml_vlist_at(const struct ml_vlist *vl, unsigned long long idx);

/* The value of point i of one item. */
union ml_val ml_item_at(const struct ml_item *it, bool is_int,
			unsigned long long i);

/* true when the option's values are integers (INT, CHOICE, FLAG). */
bool ml_opt_is_int(const struct ml_opt *opt);

#endif
