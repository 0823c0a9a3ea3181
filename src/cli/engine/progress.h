/*
 * progress.h - the progress line on stderr: one self-overwriting line
 * with points done / total, rate and time left, cleared at the end.
 */
#ifndef MCASTLAT_CLI_PROGRESS_H
#define MCASTLAT_CLI_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

struct ml_progress {
	FILE *f;
	bool on;	 /* may be shown at all */
	bool shown;	 /* a line is on the terminal now */
	double t0, last; /* start, last redraw (monotonic seconds) */
	unsigned long long total, done;
	/* Inside a long point (ml_progress_point), from any thread: */
	pthread_mutex_t mu;
	bool mu_init;
	char point[128]; /* where the latest point stands, or "" */
	/* Set after ml_progress_start, else NULL: what is counted (plural,
	 * "points") and what a detail tells of ("point"). */
	const char *unit, *label;
};

/* mode: 1 always, 0 never, -1 when f is a terminal.  Nothing is drawn
 * before a run has lasted a second, so short runs never flicker. */
void ml_progress_start(struct ml_progress *p, FILE *f, int mode,
		       unsigned long long total);
/* done points of total: redraws at most 5 times a second. */
void ml_progress_update(struct ml_progress *p, unsigned long long done);
/*
 * Inside a long point, from the thread evaluating it: done in [0, 1] of
 * the point, detail where it stands ("1.2M cycles, interval 3.1% of the
 * mean (target 2%)").  The line then shows it after the points, until
 * the next point is done.
 */
void ml_progress_point(struct ml_progress *p, double done,
		       const char *detail);
/* done points, and the detail of the next one (from the thread that
 * counts): one redraw that shows both. */
void ml_progress_update_point(struct ml_progress *p, unsigned long long done,
			      const char *detail);
/* Clear the line (if one was drawn). */
void ml_progress_end(struct ml_progress *p);

/* The text of the line for these numbers into buf (also for tests); a
 * point's detail (or NULL) is appended as "; point: DETAIL". */
void ml_progress_text(char *buf, size_t len, unsigned long long done,
		      unsigned long long total, double elapsed);
void ml_progress_line(char *buf, size_t len, unsigned long long done,
		      unsigned long long total, double elapsed,
		      const char *point);
/* The same for other things counted: unit (plural, NULL "points") and
 * label (NULL "point"): "3/10 fits (30%), ...; now: DETAIL". */
void ml_progress_line_of(char *buf, size_t len, const char *unit,
			 const char *label, unsigned long long done,
			 unsigned long long total, double elapsed,
			 const char *point);

#endif
