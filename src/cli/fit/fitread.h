/*
 * fitread.h - what the --data readers (read_csv.c, read_osu.c,
 * read_imb.c) share with their dispatcher (fitdata.c, which loads a
 * file's lines and walks the readers' table): struct fd_reader, the
 * file being read, and fitread.c's row set and helpers, which stand
 * below both.  Internal to src/cli/fit/.
 */
#ifndef MCASTLAT_CLI_FITREAD_H
#define MCASTLAT_CLI_FITREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/fit/fitdata.h"
#include "cli/engine/msg.h"

/* One file being read: its lines, its attributes, what it added. */
struct fd_src {
	struct fd_set *set;
	const char *name; /* as messages show it (owned by the set) */
	char **line;	  /* line[i] is line i + 1, without its end */
	size_t nline;
	const struct fd_kv *attr; /* FILE:key=value attributes */
	size_t nattr;
	size_t nrows, nbad; /* rows and rejected rows of this file */
	char *err;
	size_t errlen;
};

/* The statistics of a row; NaN where absent. */
struct fd_stat {
	double avg, min, max, weight;
	const char *unit;
	bool mean; /* avg is a mean over ranks (struct fd_row) */
};

/*
 * A reader of one format, in the table fitdata.c's detection walks (in
 * the order OSU, IMB, CSV).  Detection passes over blank lines and
 * launcher warnings; at each other line it asks every reader's marker,
 * then (for a line that is no '#' comment) every reader's header, then
 * looks for a marker further down (a job script's preamble before the
 * table), then every header with loose set.  The reader that answers
 * reads the lines from that line's index.
 */
struct fd_reader {
	const char *name;
	/* A title or banner that starts this format's table wherever it
	 * stands (OSU's "# OSU ...", IMB's rules); NULL: none. */
	bool (*marker)(const char *line);
	/* A table header of this format as the first significant line;
	 * loose: the weaker test when no table follows; NULL: none. */
	bool (*header)(const char *line, bool loose);
	/* Lines from index start (the line detection looked at) to the end:
	 * 0, or -1 with src->err written (through fd_fail). */
	int (*read)(struct fd_src *src, size_t start);
};

extern const struct fd_reader fd_reader_csv, fd_reader_osu, fd_reader_imb;

/*
 * Add a row of line lineno with n inputs keys[i] = vals[i] (copied) and
 * the attributes; -1 (err written) when an attribute contradicts the
 * file or memory runs out.
 */
int fd_add(struct fd_src *src, size_t lineno, const char *const *keys,
	   const char *const *vals, size_t n, const struct fd_stat *st);

/* Reject the row of line lineno, msg printf-style; -1 out of memory. */
int fd_bad(struct fd_src *src, size_t lineno, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A note "NAME: ..." (lineno 0) or "NAME:LINE: ..."; -1 out of memory. */
int fd_note(struct fd_src *src, size_t lineno, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The note for n lines of text among a table's rows, the first at
 * line first (none when n is 0); -1 out of memory. */
int fd_note_skipped(struct fd_src *src, size_t n, size_t first);

/* The note for n zero-byte collectives dropped (they send nothing), the
 * first at line first, named one / many ("Bcast", "Bcast rows"); -1
 * out of memory. */
int fd_note_zero(struct fd_src *src, size_t n, size_t first,
		 const char *one, const char *many);

/* Write the fatal error "NAME: ..." / "NAME:LINE: ..." and return -1. */
int fd_fail(struct fd_src *src, size_t lineno, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A time or weight cell: NULL and *out set when a finite number > 0,
 * else the phrase of the message ("is not a number", "must be > 0"). */
const char *fd_positive(const char *s, double *out);

/* A byte count or process count: a decimal integer >= 0 (not above
 * 2^53); NULL or the phrase. */
const char *fd_count(const char *s, long long *out);

/* Split s in place at runs of blanks; at most max words (the rest of
 * the line is then in the last one).  Returns the number of words. */
size_t fd_words(char *s, char **w, size_t max);

/* s with leading and trailing blanks cut (in place). */
char *fd_trim(char *s);

/* true for a line an MPI launcher or library writes among a benchmark's
 * output ("[node01:1234] ...", "WARNING: ...", "srun: ...", Open MPI's
 * dashed help frames): such lines are skipped. */
bool fd_is_warning(const char *s);

/* true when a word starts like a number (a digit, or a sign or '.'
 * followed by one): a row of a table rather than text among it. */
bool fd_is_numeric(const char *w);

/* Quote a value for a message into buf (ML_QUOTE_LEN bytes). */
const char *fd_q(char *buf, const char *s);

/* The fatal error "NAME: out of memory"; returns -1. */
int fd_oom(struct fd_src *src);

/*
 * Room for element n of the array *vp of elements of size sz, zeroed;
 * NULL when out of memory.  The array holds a power of two of elements,
 * doubled when n reaches it, so that adding n rows costs O(n).
 */
void *fd_grow(void *vp, size_t n, size_t sz);

/* Free n key=value pairs and the array. */
void fd_free_kv(struct fd_kv *kv, size_t n);

/* Free what the set holds beyond the counts of mark (a fatal error). */
void fd_truncate(struct fd_set *s, const struct fd_set *mark);

#endif
