/*
 * trace.h - `simulate --trace FILE`: a CSV file of messages to inject
 * instead of generated traffic (SPEC 7.2), read once per run into the
 * array that struct ml_sim_params replays.
 *
 * Format: a header line "cycle,source,dests,flits", then one message per
 * line: the cycle it is generated, its source node, its destinations
 * (node ids separated by spaces; one destination is a unicast; the field
 * may be in double quotes) and its length in flits, header included.
 * Cycles must not decrease from line to line.  Blank lines and lines
 * starting with '#' are skipped; a UTF-8 byte order mark and CRLF line
 * ends are accepted.  Node ids are checked against each point's network
 * by the caller (ml_trace.max_node), since the network may be swept.
 */
#ifndef MCASTLAT_CLI_TRACE_H
#define MCASTLAT_CLI_TRACE_H

#include <stddef.h>
#include <stdio.h>

#include "mcastlat/sim.h"

/* Longest line accepted, in bytes (a broadcast's destination list on a
 * network of 65536 nodes fits). */
#define ML_TRACE_LINE_MAX (1024 * 1024)

struct ml_trace {
	struct ml_sim_trace_msg *msgs; /* n messages, in file order */
	size_t n;
	unsigned *dests;	   /* every destination list, back to back */
	unsigned long *line;	   /* line of the file of each message */
	unsigned max_node;	   /* largest node id named (source or dest) */
	unsigned long max_node_line; /* and the first line that names it */
	char name[48];		   /* the file name as messages quote it */
};

/*
 * Read a trace from f; name is the file name for messages.  Returns 0, or
 * -1 with a one-line message "NAME:LINE: what is wrong" in err (no
 * "mcastlat:" prefix, no newline) and *t empty.  ml_trace_free frees *t
 * in either case.
 */
int ml_trace_read(FILE *f, const char *name, struct ml_trace *t, char *err,
		  size_t errlen);

/* ml_trace_read on the file at path ("NAME: No such file ..." on error). */
int ml_trace_load(const char *path, struct ml_trace *t, char *err,
		  size_t errlen);

void ml_trace_free(struct ml_trace *t);

#endif
