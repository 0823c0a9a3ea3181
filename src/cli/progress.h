/*
 * progress.h - the progress line on stderr: one self-overwriting line
 * with points done / total, rate and time left, cleared at the end.
 */
#ifndef MCASTLAT_CLI_PROGRESS_H
#define MCASTLAT_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

struct ml_progress {
	FILE *f;
	bool on;	 /* may be shown at all */
	bool shown;	 /* a line is on the terminal now */
	double t0, last; /* start, last redraw (monotonic seconds) */
	unsigned long long total, done;
};

/* mode: 1 always, 0 never, -1 when f is a terminal.  Nothing is drawn
 * before a run has lasted a second, so short runs never flicker. */
void ml_progress_start(struct ml_progress *p, FILE *f, int mode,
		       unsigned long long total);
/* done points of total: redraws at most 5 times a second. */
void ml_progress_update(struct ml_progress *p, unsigned long long done);
/* Clear the line (if one was drawn). */
void ml_progress_end(struct ml_progress *p);

/* The text of the line for these numbers into buf (also for tests). */
void ml_progress_text(char *buf, size_t len, unsigned long long done,
		      unsigned long long total, double elapsed);

#endif
