/*
 * tune_int.h - the corrected predictor's insides (collective_tune.c),
 * shared with the measured corners that decide best's pick
 * (collective_corners.c), the noise of its cells (collective_noise.c)
 * and the cross-validation of its intervals (collective_tune_cv.c).
 */
#ifndef MCASTLAT_TUNE_INT_H
#define MCASTLAT_TUNE_INT_H

#include <gsl/gsl_interp.h>

#include "mcastlat/collective.h"
#include "mcastlat/tune.h"

#define NA (ML_COLL_MPICH_LAST + 1) /* algorithm ids 0 .. 14 */
#define MIN_Q 10 /* fewest errors a quantile is read from */

struct tpt {
	long long msg;
	double lm, r, median, spread;
	/* r as measured, before collective_tune.c's cap_spikes: what the
	 * cross-validation predicts (a new run may be disturbed as much) */
	double r_meas;
	double se; /* the median's standard error, ln */
	int runs;
	/* what the model runs there (the default: its decision's
	 * algorithm and, MPICH, composition) */
	enum ml_coll_alg ran;
	enum ml_coll_composition comp;
};

struct trow {
	long long ranks;
	size_t first, n;   /* pts[first .. first + n), by msg */
	gsl_interp *interp; /* linear in log M; NULL with n < 2 */
	double *x, *y;	    /* lm and r of its points, for interp */
};

struct ml_coll_tune {
	struct ml_collective_params machine;
	size_t afirst[NA], an[NA]; /* rows[afirst .. afirst + an), by P */
	struct trow *row;
	size_t nrow;
	struct tpt *pt;
	size_t npt;
	double z;
	enum ml_coll_objective obj; /* the table's */
	double gdiff; /* the difference's growth per doubling */
	/* info.qdiff by candidate (its own where it has MIN_Q, else the
	 * pooled): best's threshold per sqrt doubling */
	double qdiff_a[NA];
	double se;    /* rms of the medians' standard errors */
	double run_ratio; /* info.run_sd / info.noise (ml_tune_cmp_se) */
	/* the fit's error model's sd of ln error by size class (0: none):
	 * the floor where too few points were left out to read a quantile */
	double emsd[ML_COLL_NCLASS];
	/* the (algorithm, MPICH composition) pairs the default's measured
	 * cells ran (ml_coll_tune_best's default_unseen) */
	bool dran[NA][ML_COLL_COMP_GAMMA + 1];
	bool corners_ok; /* the measured corners decide (corner_check) */
	bool lone_ok;	 /* ... and so does a lone cell (ML_TUNE_LONE) */
	/* The measured P of any algorithm, ascending (np), and the
	 * interval's quantile in each gap: gap g lies between pd[g - 1]
	 * and pd[g] (g = 0 below the first, np above the last), read
	 * from the left-out errors of the rows at its two ends. */
	long long *pd;
	/* without repeated runs, the neighbour noise at each pd (else
	 * NULL: the runs' info.noise everywhere) */
	double *pnoise;
	double *qgap;	/* [a * (np + 1) + g], a = NA: all algorithms' */
	double qm[NA + 1]; /* collective_tune_cv.c's, by algorithm; NA: all */
	double qalg; /* ml_tune_algo_spread's: info.qalg or a fallback */
	/* the interval's term where the point's class of P (collective_
	 * tune.c's ordinary) was not measured: the largest class's q */
	double qclass;
	size_t np;
	struct ml_coll_tune_info info;
};

/* The measured point of algorithm a at (ranks, msg), or NULL. */
/* The level quantile of n signed values (sorted in place); NaN for 0
 * (collective_noise.c). */
double ml_tune_quantile(double *e, size_t n, double level);
/* A run's sd of ln at ranks: the runs' pooled, or without repeated runs
 * that of the measured P around (collective_noise.c). */
double ml_tune_noise_at(const struct ml_coll_tune *t, long long ranks);
/* info.noise, noise_runs, noise_min/max/at, run_sd, run_q, t->pnoise,
 * t->run_ratio and each point's se, from the runs' deviations dev (ndev)
 * at level (collective_noise.c). */
enum ml_status ml_tune_noise_of(struct ml_coll_tune *t, double *dev,
				size_t ndev, double level);
/* The standard error of measured point x's median in a comparison of
 * two measured cells: from its runs' spread, or without one from a
 * run's own sd (info.run_sd, as the noise varies over P), not the
 * neighbouring sizes' noise (collective_corners.c). */
double ml_tune_cmp_se(const struct ml_coll_tune *t, const struct tpt *x);
const struct tpt *ml_tune_measured(const struct ml_coll_tune *t, int a,
				   long long ranks, long long msg);
/* What the measured cells around (ranks, msg) say of candidate a against
 * the default whose decision runs dp's algorithm: +1, -1 or 0, or
 * ML_TUNE_LONE (faster: one cell of one run, read with its row's sizes
 * next to it); the rows at P skip left out; far: the edge row beyond a
 * doubling of it too (collective_corners.c). */
enum { ML_TUNE_LONE = 2 };
int ml_tune_corners(const struct ml_coll_tune *t, int a, long long ranks,
		    long long msg, long long skip, const struct tpt *dp,
		    bool far);
/* The measured sizes of row w nearest msg below and above (the same
 * one where msg is measured; the edge one beyond). */
void ml_tune_bracket(const struct ml_coll_tune *t, const struct trow *w,
		     long long msg, long long *lo, long long *hi);
/* t->corners_ok, t->lone_ok and the info's corner_cv, corner_gain. */
void ml_tune_corner_check(struct ml_coll_tune *t);
/* Algorithm a's rows around ranks, row skip left out: *lo the last at
 * or below it, *hi the first at or above ((size_t)-1: none). */
void ml_tune_rows_around(const struct ml_coll_tune *t, int a, long long ranks,
			 size_t skip, size_t *lo, size_t *hi);
/*
 * The correction of algorithm a at (ranks, lm), row skip (an index into
 * t->row, or (size_t)-1) left out (collective_tune_cv.c): linear in log P
 * between the rows around ranks, held beyond; *dist, *dm (may be NULL)
 * the doublings of P and M to the rows used.  NaN when a has no row but
 * skip.
 */
double ml_tune_corr_at(const struct ml_coll_tune *t, int a, long long ranks,
		       double lm, size_t skip, double *dist, double *dm);
/* The cross-validation of the intervals: info.cv, q, qdiff, t->qdiff_a,
 * t->qgap and t->qm. */
enum ml_status ml_tune_cross_validate(struct ml_coll_tune *t, double level);
/* t->qm where no row held enough sizes to leave one out. */
void ml_tune_size_fallback(struct ml_coll_tune *t);
/* The largest size class's q, or z times the growth where none: a term
 * not measured (collective_tune_cv.c). */
double ml_tune_largest_q(const struct ml_coll_tune *t);
/* t->qalg and info.qalg: two broadcasts' residuals apart at one cell. */
enum ml_status ml_tune_algo_spread(struct ml_coll_tune *t, double level);

#endif
