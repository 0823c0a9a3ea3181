/*
 * collective_noise.c - a run's noise in the measured cells of the
 * corrected predictor (collective_tune.c): the runs' pooled spread, or
 * without repeated runs the steps between neighbouring sizes, read at
 * each measured P (the intervals' floor), and a run's own sd from the
 * double differences (what best's comparisons of measured cells read);
 * and the level quantile that the cross-validation reads too.
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "models/tune_int.h"

#define LN2 0.69314718055994530942
/* Doublings of M between measured sizes from which on their steps read
 * the misfit, not the noise (ml_tune_noise_of). */
#define WIDE_GAP 3

/* The level quantile of n signed values (sorted in place); NaN for 0. */
double ml_tune_quantile(double *e, size_t n, double level)
{
	if (n == 0)
		return NAN;
	gsl_sort(e, 1, n);
	return gsl_stats_quantile_from_sorted_data(e, 1, n, level);
}

/* A run's sd of ln at ranks: the runs' pooled (info.noise), or without
 * repeated runs that of the measured P around, linear in log P (the
 * edge's beyond). */
double ml_tune_noise_at(const struct ml_coll_tune *t, long long ranks)
{
	size_t g = 0;
	double f;

	if (!t->pnoise || t->np == 0)
		return t->info.noise;
	while (g < t->np && t->pd[g] < ranks)
		g++;
	if (g == 0)
		return t->pnoise[0];
	if (g == t->np)
		return t->pnoise[t->np - 1];
	f = log((double)ranks / (double)t->pd[g - 1]) /
	    log((double)t->pd[g] / (double)t->pd[g - 1]);
	return (1 - f) * t->pnoise[g - 1] + f * t->pnoise[g];
}

/* Each measured point's median's standard error: sqrt(pi / 2) s /
 * sqrt(runs), s its runs' spread or the noise; and their rms. */
static void set_se(struct ml_coll_tune *t)
{
	size_t i, k;
	double s2 = 0;

	for (i = 0; i < t->nrow; i++)
		for (k = t->row[i].first; k < t->row[i].first + t->row[i].n;
		     k++) {
			struct tpt *x = &t->pt[k];
			double s = isnan(x->spread)
				       ? ml_tune_noise_at(t, t->row[i].ranks)
				       : x->spread;

			x->se = x->runs > 1
				    ? 1.2533141373155001 * s / sqrt(x->runs)
				    : s;
			s2 += x->se * x->se;
		}
	t->se = t->npt ? sqrt(s2 / (double)t->npt) : 0;
}

/* d[n0 .. n): each step less their median (the model's own trend along
 * the line of cells is not noise), as an absolute value; one step
 * alone, nothing to tell a trend by, as is. */
static void detrend(double *d, size_t n0, size_t n)
{
	size_t k;
	double mid = 0;

	if (n - n0 >= 2) {
		gsl_sort(d + n0, 1, n - n0);
		mid = gsl_stats_median_from_sorted_data(d + n0, 1, n - n0);
	}
	for (k = n0; k < n; k++)
		d[k] = fabs(d[k] - mid);
}

/* Into d (room for npt), the residuals' detrended steps between
 * adjacent sizes of each row at P (every P: ranks 0); their number. */
static size_t size_steps(const struct ml_coll_tune *t, long long ranks,
			 double *d)
{
	size_t i, k, n = 0;

	for (i = 0; i < t->nrow; i++) {
		size_t n0 = n;

		if (ranks && t->row[i].ranks != ranks)
			continue;
		for (k = t->row[i].first + 1;
		     k < t->row[i].first + t->row[i].n; k++)
			d[n++] = t->pt[k].r - t->pt[k - 1].r;
		detrend(d, n0, n);
	}
	return n;
}

/* info.noise_min, noise_max and noise_max_at from t->pnoise (noise,
 * noise and 0 without it: repeated runs). */
static void noise_range(struct ml_coll_tune *t)
{
	size_t k;

	t->info.noise_min = t->info.noise_max = t->info.noise;
	t->info.noise_max_at = 0;
	for (k = 0; t->pnoise && k < t->np; k++) {
		if (k == 0 || t->pnoise[k] < t->info.noise_min)
			t->info.noise_min = t->pnoise[k];
		if (k == 0 || t->pnoise[k] > t->info.noise_max) {
			t->info.noise_max = t->pnoise[k];
			t->info.noise_max_at = t->pd[k];
		}
	}
}

/*
 * Into d (room for npt), the double differences: for each pair of
 * adjacent measured P rows of an algorithm, the change from one row to
 * the other of the residual's step between adjacent sizes both hold,
 * less the pair's median, absolute; their number.  What the two rows
 * share along M (the model's misfit in M, the eager limit's jump, a
 * decision's switch) cancels, and so does a trend along P; a run's
 * noise does not: each is 2 x the sd of a difference of two runs.
 */
static size_t dd_steps(const struct ml_coll_tune *t, double *d)
{
	size_t a, i, k, j, n = 0;

	for (a = 0; a < NA; a++)
		for (i = t->afirst[a] + 1; i < t->afirst[a] + t->an[a]; i++) {
			const struct trow *lo = &t->row[i - 1], *hi = &t->row[i];
			size_t n0 = n;
			double prev = NAN;

			for (k = hi->first, j = lo->first;
			     k < hi->first + hi->n; k++) {
				double D;

				while (j < lo->first + lo->n &&
				       t->pt[j].msg < t->pt[k].msg)
					j++;
				if (j == lo->first + lo->n ||
				    t->pt[j].msg != t->pt[k].msg)
					continue;
				D = t->pt[k].r - t->pt[j].r;
				if (!isnan(prev))
					d[n++] = D - prev;
				prev = D;
			}
			detrend(d, n0, n);
		}
	return n;
}

/* The least step in ln M between adjacent measured sizes of a row. */
static double min_gap(const struct ml_coll_tune *t)
{
	size_t i, k;
	double g = INFINITY;

	for (i = 0; i < t->nrow; i++)
		for (k = 1; k < t->row[i].n; k++)
			g = fmin(g, t->row[i].x[k] - t->row[i].x[k - 1]);
	return g;
}

/* The robust sd of a run from n absolute steps (sorted in place):
 * their median / (0.6745 sqrt 2), the sd of the difference of two
 * runs. */
static double step_sd(double *d, size_t n)
{
	gsl_sort(d, 1, n);
	return gsl_stats_median_from_sorted_data(d, 1, n) /
	       (0.6744897501960817 * sqrt(2.0));
}

/* The robust sd of a run from the steps between adjacent sizes of the
 * rows at P (every P: ranks 0); NaN at a P with fewer than MIN_Q. */
static double step_noise(const struct ml_coll_tune *t, long long ranks,
			 double *d)
{
	size_t n = size_steps(t, ranks, d);

	if (n < (ranks ? MIN_Q : 1))
		return ranks ? NAN : 0;
	return step_sd(d, n);
}

/*
 * Without repeated runs, a run's own sd (info.run_sd) from the double
 * differences (dd_steps): their median absolute value / (0.6745 x 2);
 * the noise where fewer than MIN_Q.  The neighbouring sizes' noise
 * holds how the model's error changes from one size to the next, which
 * an interval between measured cells must hold, but a comparison of two
 * measured cells must not: on EPYC and THIN by node, each cell measured
 * 20 times, the runs' sd is 0.038 and 0.025 (rms over the sparse plan's
 * cells); one run of each judged alone (the judge's SINGLE), the
 * neighbouring sizes' noise reads 0.09 to 0.21 by plan and the double
 * differences 0.02 to 0.06.
 * t->run_ratio: run_sd / noise, for each P's (ml_tune_cmp_se).
 */
static void run_noise(struct ml_coll_tune *t, double *d)
{
	size_t n = dd_steps(t, d);

	t->info.run_sd = t->info.noise;
	t->run_ratio = 1;
	if (n < MIN_Q || !(t->info.noise > 0))
		return;
	t->info.run_sd = step_sd(d, n) / sqrt(2.0);
	t->run_ratio = t->info.run_sd / t->info.noise;
}

/*
 * A run's sd of ln (info.noise): pooled over cells of 3 runs or more;
 * else from neighbouring cells (step_noise), over every P and, in
 * t->pnoise, at each measured P (ml_tune_noise_at reads it); a run's
 * own sd, info.run_sd (run_noise).  A new run's deviation from its
 * cell's median at the level (info.run_q): the level quantile of
 * the runs' deviations, dev (ndev of them, from cells of 3 runs or
 * more: the quantile, not the sd, as one run of 424 us among 4 to 20
 * us ones must not widen every interval), where MIN_Q or more; else z
 * times the noise.
 */
enum ml_status ml_tune_noise_of(struct ml_coll_tune *t, double *dev,
				size_t ndev, double level)
{
	double s2 = 0, *d;
	size_t n = 0, i, k;

	for (i = 0; i < t->npt; i++)
		if (!isnan(t->pt[i].spread)) {
			s2 += t->pt[i].spread * t->pt[i].spread;
			n++;
		}
	if (n) {
		t->info.noise = sqrt(s2 / (double)n);
		t->info.noise_runs = true;
		t->info.run_sd = t->info.noise;
		t->run_ratio = 1;
		noise_range(t);
		set_se(t);
		t->info.run_q = ndev >= MIN_Q
				    ? ml_tune_quantile(dev, ndev, level)
				    : t->z * t->info.noise;
		return ML_OK;
	}
	d = malloc((t->npt + 1) * sizeof *d);
	t->pnoise = malloc((t->np + 1) * sizeof *t->pnoise);
	if (!d || !t->pnoise) {
		free(d);
		return ML_ENOMEM;
	}
	t->info.noise = step_noise(t, 0, d);
	run_noise(t, d);
	/* The noise is not alike over P (EPYC by socket's single runs
	 * above P = 128 jump 2 to 100 times from one size to the next, a
	 * few per cent below): each measured P's own where its rows hold
	 * enough steps. */
	for (k = 0; k < t->np; k++) {
		t->pnoise[k] = step_noise(t, t->pd[k], d);
		if (isnan(t->pnoise[k]))
			t->pnoise[k] = t->info.noise;
	}
	/* Sizes WIDE_GAP doublings or more apart (the probe's factor
	 * 16): their steps are the model's misfit over the gap more than a
	 * run's noise, which the intervals count again in qm; the double
	 * differences then give the noise, scaled over P as before. */
	if (min_gap(t) >= WIDE_GAP * LN2 - 1e-9 && t->run_ratio < 1) {
		for (k = 0; k < t->np; k++)
			t->pnoise[k] *= t->run_ratio;
		t->info.noise = t->info.run_sd;
		t->run_ratio = 1;
	}
	noise_range(t);
	t->info.noise_runs = false;
	t->info.run_q = t->z * t->info.noise;
	free(d);
	set_se(t);
	return ML_OK;
}
