/*
 * fitdata.h - the measurements of `mcastlat fit` as read from its --data
 * files (SPEC 9.1): one row per measured point, with the point's inputs
 * as text and its statistics, before the fit command maps them to a
 * model's options.
 *
 * A --data argument is FILE[:key=value]...  ("-" is standard input).  The
 * format is recognised by content, never by name: a CSV file with a
 * latency column (read_csv.c), OSU Micro-Benchmarks osu_latency and
 * osu_bcast output (read_osu.c), IMB-MPI1 PingPong and Bcast tables
 * (read_imb.c).
 */
#ifndef MCASTLAT_CLI_FITDATA_H
#define MCASTLAT_CLI_FITDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* An input of a point, as text: "op"="bcast", "msg"="1024", "nodes"="16". */
struct fd_kv {
	char *key;
	char *val;
};

/*
 * One measured point as read from a file, before it is mapped to a
 * model's options.
 *
 * kv holds the point's inputs: first those the file gives (CSV: every
 * column other than latency and weight, in header order, values as
 * written, empty cells as ""; OSU: op=p2p (osu_latency) or op=bcast
 * (osu_bcast) and msg=SIZE when the table has a Size column; IMB: op=p2p
 * for PingPong, op=bcast for Bcast, msg=#bytes, nodes=#processes), then
 * the FILE:key=value attributes the file does not give.  An attribute
 * fills an empty CSV cell of its key; one that disagrees with a value the
 * file gives is a fatal error of fd_read.
 */
struct fd_row {
	const char *file; /* the path as given, "stdin" for "-" (owned
			   * by the set) */
	long line;	  /* 1-based line of the row in that file */
	struct fd_kv *kv;
	size_t nkv;
	/* The row's statistics; a file with one value per row fills avg
	 * only; NaN when absent.  Those present are finite and > 0. */
	double avg, min, max;
	/* Unit of avg/min/max: "us" for OSU and IMB; for CSV the unit of
	 * the header's latency[UNIT], or NULL for plain `latency` (the
	 * caller applies --unit).  A static string. */
	const char *unit;
	double weight; /* CSV `weight` column (> 0), else NaN */
	/* avg is a mean over ranks (OSU's Avg, IMB's t_avg, a CSV
	 * latency_avg column), not a CSV's one value per row (`latency`):
	 * a model with both columns (collective) fits it against its
	 * latency_avg. */
	bool mean;
};

/* A rejected row: where "FILE:LINE", msg "latency: '-3' must be > 0". */
struct fd_problem {
	char *where;
	char *msg;
};

struct fd_set {
	struct fd_row *rows;
	size_t nrows;
	/* Rows rejected: malformed, a non-finite or non-positive time, a
	 * failed OSU validation. */
	struct fd_problem *bad;
	size_t nbad;
	/* One-line notes for stderr: "FILE: 3 benchmarks other than
	 * PingPong and Bcast skipped (Allreduce, Reduce)", "FILE:40:
	 * zero-byte Bcast dropped (sends nothing)", "FILE: 2 lines that are
	 * not rows skipped (first at line 7)" (launcher warnings among a
	 * table's rows). */
	char **notes;
	size_t nnotes;
	/* The names the rows point to, one per file read. */
	char **files;
	size_t nfiles;
};

/* The formats fd_read recognises, as its unknown-format error names them. */
#define FD_FORMATS                                                             \
	"CSV with a latency column, OSU Micro-Benchmarks "                     \
	"osu_latency/osu_bcast, "                                              \
	"IMB-MPI1 PingPong/Bcast"

/*
 * Read one --data argument, spec = FILE[:key=value]..., into s (zeroed
 * with `struct fd_set s = {0}` before the first call; each call adds to
 * it).  A FILE whose literal name (spec whole) exists is never split;
 * otherwise spec is split at a ':' after which every item is key=value
 * (a non-empty key of letters, digits, '-' and '_'; the value up to the
 * next ':'), the first such ':' before which a file of that name exists,
 * else the first such ':'.  "-" reads in (NULL: an error).
 *
 * Returns 0, or -1 with a one-line message in err (no "mcastlat: "
 * prefix; "FILE: ..." or "FILE:LINE: ...") for a fatal problem: the file
 * cannot be opened or read (strerror), is empty, is of an unknown format,
 * holds fewer than two data points (rows and rejected rows), has a table
 * header without data, a line longer than ML_LINE_MAX or a NUL byte, an
 * attribute twice or in conflict with the file, an OSU test other than
 * osu_latency and osu_bcast, a CSV header without a latency column.  On
 * -1, s is as it was before the call.
 */
int fd_read(struct fd_set *s, const char *spec, FILE *in, char *err,
	    size_t errlen);

/* Free everything s holds and zero it. */
void fd_free(struct fd_set *s);

#endif
