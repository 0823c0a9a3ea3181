/*
 * progress.c - the progress line (see progress.h).  It goes to stderr
 * only, so stdout stays the data; "\r" and the erase-line sequence
 * rewrite it in place, as curl and pv do.
 */
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/engine/progress.h"

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* 93 s -> "1m33s", 7300 s -> "2h01m", under a minute "12s". */
static void fmt_dur(char *b, size_t len, double s)
{
	unsigned long t = s > 0 && s < 1e9 ? (unsigned long)(s + 0.5) : 0;

	if (t >= 3600)
		snprintf(b, len, "%luh%02lum", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(b, len, "%lum%02lus", t / 60, t % 60);
	else
		snprintf(b, len, "%lus", t);
}

void ml_progress_line_of(char *buf, size_t len, const char *unit,
			 const char *label, unsigned long long done,
			 unsigned long long total, double elapsed,
			 const char *point)
{
	double rate = elapsed > 0 ? (double)done / elapsed : 0;
	const char *sfx = ""; /* 1.2M points/s rather than 1.2e+06 */
	char eta[24];
	size_t n;

	if (!unit)
		unit = "points";
	if (rate > 0 && total >= done)
		fmt_dur(eta, sizeof(eta), (double)(total - done) / rate);
	else
		strcpy(eta, "?");
	if (rate >= 1e9) {
		rate /= 1e9;
		sfx = "G";
	} else if (rate >= 1e6) {
		rate /= 1e6;
		sfx = "M";
	} else if (rate >= 1e4) {
		rate /= 1e3;
		sfx = "k";
	}
	snprintf(buf, len, "%llu/%llu %s (%.0f%%), %.3g%s %s/s, %s left", done,
		 total, unit,
		 total ? 100.0 * (double)done / (double)total : 0, rate, sfx,
		 unit, eta);
	n = strlen(buf);
	if (point && *point && n < len)
		snprintf(buf + n, len - n, "; %s: %s", label ? label : "point",
			 point);
}

void ml_progress_text(char *buf, size_t len, unsigned long long done,
		      unsigned long long total, double elapsed)
{
	ml_progress_line_of(buf, len, NULL, NULL, done, total, elapsed, NULL);
}

void ml_progress_line(char *buf, size_t len, unsigned long long done,
		      unsigned long long total, double elapsed,
		      const char *point)
{
	ml_progress_line_of(buf, len, NULL, NULL, done, total, elapsed,
			    point);
}

void ml_progress_start(struct ml_progress *p, FILE *f, int mode,
		       unsigned long long total)
{
	if (p->mu_init)
		pthread_mutex_destroy(&p->mu);
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->total = total;
	p->on = mode == 1 || (mode < 0 && f && isatty(fileno(f)));
	p->t0 = p->last = mono_s();
	p->mu_init = pthread_mutex_init(&p->mu, NULL) == 0;
	if (!p->mu_init)
		p->on = false;
}

/* Redraw, rate limited; the caller holds p->mu. */
static void redraw(struct ml_progress *p)
{
	char line[320];
	double t = mono_s();

	if (t - p->t0 < 1.0 || (p->shown && t - p->last < 0.2))
		return;
	ml_progress_line_of(line, sizeof(line), p->unit, p->label, p->done,
			    p->total, t - p->t0, p->point);
	fprintf(p->f, "\r\033[K%s", line);
	fflush(p->f);
	p->shown = true;
	p->last = t;
}

void ml_progress_update(struct ml_progress *p, unsigned long long done)
{
	if (!p->on)
		return;
	pthread_mutex_lock(&p->mu);
	if (done != p->done)
		p->point[0] = '\0'; /* that point is done */
	p->done = done;
	redraw(p);
	pthread_mutex_unlock(&p->mu);
}

void ml_progress_point(struct ml_progress *p, double done,
		       const char *detail)
{
	(void)done;
	if (!p->on)
		return;
	pthread_mutex_lock(&p->mu);
	snprintf(p->point, sizeof(p->point), "%s", detail ? detail : "");
	redraw(p);
	pthread_mutex_unlock(&p->mu);
}

void ml_progress_update_point(struct ml_progress *p, unsigned long long done,
			      const char *detail)
{
	if (!p->on)
		return;
	pthread_mutex_lock(&p->mu);
	p->done = done;
	snprintf(p->point, sizeof(p->point), "%s", detail ? detail : "");
	redraw(p);
	pthread_mutex_unlock(&p->mu);
}

void ml_progress_end(struct ml_progress *p)
{
	if (p->shown) {
		fputs("\r\033[K", p->f);
		fflush(p->f);
	}
	p->shown = false;
	if (p->mu_init)
		pthread_mutex_destroy(&p->mu);
	p->mu_init = false;
	p->on = false;
}
