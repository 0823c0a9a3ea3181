/*
 * lsq.h - the state of one fit, shared by the core (lsq.c: pieces,
 * candidates, linear solves, polish, ml_fit) and its diagnostics
 * (diag.c: the true model at an estimate, identifiability, covariance,
 * the result's statistics); internal to src/fit/.  lsq.c calls diag.c,
 * never the reverse.
 */
#ifndef MCASTLAT_FIT_LSQ_H
#define MCASTLAT_FIT_LSQ_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_vector.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fit/fitint.h"

/* The state of one fit. */

struct work {
	const struct ml_fit_model *m;
	const struct ml_fit_options *o;
	size_t n, p, nfit;
	size_t fidx[ML_FIT_MAXFREE]; /* free costs' indices in m->params */
	unsigned char *pts;	     /* working copy of the points */
	const double *y; /* the target of the linear solves: the
			  * measurements, or yt (logres) */
	const double *ym; /* the measurements */
	double *sw;	 /* square root of each point's weight (1/y_i:
			  * no underflow of 1/y_i^2 for huge times) */
	double *uw;	 /* square root of the user's weight */
	double *yt;	 /* logres: the working target f (1 + ln(y / f)) */
	int logres;	 /* residuals ln(f_i / y_i) (mcastlat-fit(1)) */
	size_t *fit_of;	 /* the fitted points' indices */
	size_t *rep;	 /* the first point with the same inputs */
	unsigned char *need; /* a fitted point is this one or its copy */
	int all;	 /* evaluate every point (the final predictions),
			  * not only those the fit needs */
	double theta0[ML_FIT_MAXFREE]; /* local models: the start */
	struct fit_piece *pc; /* FIT_NPIECE per point */
	unsigned char *npc;
	unsigned char *assign; /* ncand * n */
	size_t ncand;
	gsl_matrix *X, *Xs, *G, *L;
	gsl_vector *yy, *c, *b, *x;
	gsl_matrix *cov;
	gsl_multifit_linear_workspace *lw;
	double cs[ML_FIT_MAXFREE]; /* column scales of X */
	/* lsq_par.c, with threads: the distinct points (rep[i] == i) in
	 * the order the threads take them, the costliest first (each
	 * one's last time, s), re-sorted after loops 1, 2, 4, 8, ... */
	size_t *order, norder;
	double *cost;
	unsigned long nloops;
};


static inline void *lsq_point(const struct work *w, size_t i)
{
	return w->pts + i * w->m->size;
}

static inline double lsq_piece_at(const struct work *w,
				  const struct fit_piece *pc,
				  const double *theta)
{
	double v = pc->value;
	size_t j;

	for (j = 0; j < w->p; j++)
		v += pc->row[w->fidx[j]] * theta[j];
	return v;
}

/* Set the free costs of every point's working copy to theta. */
void ml_lsq_set_theta(struct work *w, const double *theta);

/* chi^2 of the true model at theta over the fitted points, and the
 * prediction of every point in pred[] (NaN where the model has none).
 * INFINITY when the model fails at a fitted point. */
double ml_lsq_chi2(struct work *w, const double *theta, double *pred);

/*
 * fn(w, i, arg) for every distinct point i (rep[i] == i: a repeated
 * run takes its group's values after the loop), on o->threads threads
 * for a local model (lsq_par.c); fn writes only point i's own slots
 * and returns nonzero when it fails.  Returns the lowest failing i, or
 * SIZE_MAX.  The serial loop stops at the first failure; the threads
 * finish theirs.
 */
size_t ml_lsq_each(struct work *w,
		   int (*fn)(struct work *w, size_t i, void *arg), void *arg);

/* Fill the statistics of res from theta (the final estimate), on the
 * candidate assignment a, the free costs named names[]. */
enum ml_status ml_lsq_finish(struct work *w, const double *theta,
			     const unsigned char *a, const char *const *names,
			     struct ml_fit_result *res);

/* Intervals, relative errors, holdout and outlier flags. */
void ml_lsq_summarise(struct work *w, const bool *use,
		      struct ml_fit_result *res);

/* The lack-of-fit F test of repeated runs into res (diag.c). */
void ml_lsq_lack_of_fit(struct work *w, struct ml_fit_result *res);

#endif
