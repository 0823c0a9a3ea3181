/*
 * outfile.h - -o FILE: the output goes to a temporary file in the same
 * directory, renamed onto FILE only when the run succeeds, so that an
 * interrupted or failed run never leaves a truncated file that looks
 * complete (and never touches an older FILE).  A FILE that exists and is
 * not a regular file (/dev/null, /dev/stdout, a FIFO) is written to
 * directly, as sort -o does: renaming onto it would replace the device.
 */
#ifndef MCASTLAT_CLI_OUTFILE_H
#define MCASTLAT_CLI_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct ml_outfile {
	char *path; /* the destination */
	char *tmp;  /* DIR/.NAME.XXXXXX */
	FILE *f;
	bool direct; /* written in place: no temporary file */
};

/* Create the temporary file; -1 with a message in err. */
int ml_outfile_open(struct ml_outfile *o, const char *path, char *err,
		    size_t errlen);
/* Flush, sync and rename onto the destination; -1 with a message in
 * err (the temporary file is then removed). */
int ml_outfile_commit(struct ml_outfile *o, char *err, size_t errlen);
/* Remove the temporary file; the destination is left as it was. */
void ml_outfile_abort(struct ml_outfile *o);

#endif
