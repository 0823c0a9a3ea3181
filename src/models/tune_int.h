/*
 * tune_int.h - the corrected predictor's insides (collective_tune.c),
 * shared with the measured corners that decide best's pick
 * (collective_corners.c).
 */
#ifndef MCASTLAT_TUNE_INT_H
#define MCASTLAT_TUNE_INT_H

#include <gsl/gsl_interp.h>

#include "mcastlat/collective.h"
#include "mcastlat/tune.h"

#define NA (ML_COLL_MPICH_LAST + 1) /* algorithm ids 0 .. 14 */

struct tpt {
	long long msg;
	double lm, r, median, spread;
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
	double se;    /* rms of the medians' standard errors */
	/* the fit's error model's sd of ln error by size class (0: none):
	 * the floor where too few points were left out to read a quantile */
	double emsd[ML_COLL_NCLASS];
	bool corners_ok; /* the measured corners decide (corner_check) */
	/* The measured P of any algorithm, ascending (np), and the
	 * interval's quantile in each gap: gap g lies between pd[g - 1]
	 * and pd[g] (g = 0 below the first, np above the last), read
	 * from the left-out errors of the rows at its two ends. */
	long long *pd;
	/* without repeated runs, the neighbour noise at each pd (else
	 * NULL: the runs' info.noise everywhere) */
	double *pnoise;
	double *qgap;	/* [a * (np + 1) + g], a = NA: all algorithms' */
	double qm[NA + 1]; /* size_validate's, by algorithm; NA: all */
	size_t np;
	struct ml_coll_tune_info info;
};

/* The measured point of algorithm a at (ranks, msg), or NULL. */
const struct tpt *ml_tune_measured(const struct ml_coll_tune *t, int a,
				   long long ranks, long long msg);
/* What the measured cells around (ranks, msg) say of candidate a against
 * the default whose decision runs dp's algorithm: +1, -1 or 0; the rows
 * at P skip left out; far: the edge row beyond a doubling of it too
 * (collective_corners.c). */
int ml_tune_corners(const struct ml_coll_tune *t, int a, long long ranks,
		    long long msg, long long skip, const struct tpt *dp,
		    bool far);
/* t->corners_ok and the info's corner_cv, corner_gain. */
void ml_tune_corner_check(struct ml_coll_tune *t);

#endif
