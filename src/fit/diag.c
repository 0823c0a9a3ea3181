/*
 * diag.c - the fitting core's verdict on an estimate: the true model's
 * chi^2 and predictions at it, which piece of each point is active
 * (and which points sit near a boundary between pieces), whether the
 * data determine the free costs (the scaled Jacobian's SVD, the
 * combination they do not determine), the covariance and intervals,
 * and the result's statistics (relative errors, holdout, outliers).
 * Called by lsq.c; the method is described there.
 */
#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit/lsq.h"

void ml_lsq_set_theta(struct work *w, const double *theta)
{
	size_t i, j;

	for (i = 0; i < w->n; i++)
		for (j = 0; j < w->p; j++)
			*fit_field(w->m, lsq_point(w, i), w->fidx[j]) = theta[j];
}

/* One point's prediction into pred[i] (ml_lsq_chi2), NaN where the
 * model has none or the fit does not need it yet. */
static int predict_point(struct work *w, size_t i, void *arg)
{
	double *pred = arg, f;

	if (!w->all && !w->need[i]) {
		pred[i] = NAN; /* held out: predicted at the end */
		return 0;
	}
	if (w->m->eval(lsq_point(w, i), &f) != ML_OK || !isfinite(f))
		f = NAN;
	pred[i] = f;
	return 0;
}

/* chi^2 of the true model at theta over the fitted points, and the
 * prediction of every point in pred[] (NaN where the model has none).
 * INFINITY when the model fails at a fitted point. */
double ml_lsq_chi2(struct work *w, const double *theta, double *pred)
{
	double chi2 = 0;
	size_t i, k;

	ml_lsq_set_theta(w, theta);
	ml_lsq_each(w, predict_point, pred);
	for (i = 0; i < w->n; i++)
		if (w->rep[i] != i)
			pred[i] = pred[w->rep[i]];
	for (k = 0; k < w->nfit; k++) {
		i = w->fit_of[k];
		if (isnan(pred[i]) || (w->logres && !(pred[i] > 0)))
			return INFINITY;
		double e = w->logres ? w->uw[i] * log(pred[i] / w->ym[i])
				     : w->sw[i] * (pred[i] - w->y[i]);

		chi2 += e * e;
	}
	return chi2;
}

/*
 * The lack-of-fit F test (Draper and Smith, Applied Regression
 * Analysis, 3rd ed., 1998, section 2.1): the weighted chi^2 splits into
 * pure error, the runs' spread about their point's weighted mean
 * (which no model of the inputs can remove), and lack of fit, the rest.
 * With relative weights, w_i = 1 / y_i^2 in both parts; with ln(f / y),
 * on the tangent's target yt_i (lsq.c), whose spread within a point's
 * runs is f (ln y_i - their mean), the spread of ln y.
 */
void ml_lsq_lack_of_fit(struct work *w, struct ml_fit_result *res)
{
	double *sw = NULL, *swy = NULL, pe = 0, syy = 0;
	size_t k, m = 0, pest = w->nfit - (size_t)res->dof;

	res->ngroups = 0;
	res->sspe = res->sslof = res->lof_f = res->lof_p = NAN;
	res->lof_df1 = res->lof_df2 = 0;
	sw = calloc(w->n, sizeof(*sw));
	swy = calloc(w->n, sizeof(*swy));
	if (!sw || !swy)
		goto out;
	for (k = 0; k < w->nfit; k++) {
		size_t i = w->fit_of[k], g = w->rep[i];
		double wi = w->sw[i] * w->sw[i];

		m += sw[g] == 0;
		sw[g] += wi;
		swy[g] += wi * w->y[i];
	}
	for (k = 0; k < w->nfit; k++) {
		size_t i = w->fit_of[k], g = w->rep[i];
		double e = w->sw[i] * (w->y[i] - swy[g] / sw[g]);

		pe += e * e;
		syy += (w->sw[i] * w->y[i]) * (w->sw[i] * w->y[i]);
	}
	/* runs that agree but for the rounding of their weighted mean */
	if (pe <= 1e-24 * syy)
		pe = 0;
	res->ngroups = m;
	res->sspe = pe;
	res->sslof = fmax(0, res->chi2 - pe);
	res->lof_df1 = (long)m - (long)pest;
	res->lof_df2 = (long)w->nfit - (long)m;
	if (res->lof_df1 >= 1 && res->lof_df2 >= 1 && pe > 0) {
		res->lof_f = (res->sslof / (double)res->lof_df1) /
			     (pe / (double)res->lof_df2);
		res->lof_p = gsl_cdf_fdist_Q(res->lof_f, (double)res->lof_df1,
					     (double)res->lof_df2);
	}
out:
	free(sw);
	free(swy);
}

/* ------------------------------------------------------------------ */
/* Diagnostics at the fit. */

/* Within this relative distance of the prediction, a point is near a
 * boundary between two pieces (eq 2.8 = eq 2.9): the result counts it. */
#define BOUNDARY 1e-2

/*
 * The pieces of each fitted point for the Jacobian at theta: act[k],
 * the piece whose value is the prediction (the candidate's a[i] on an
 * exact tie); lo[k] and hi[k], the first and the last piece exactly on
 * the same boundary (act[k] if none), so that lo and hi are each one
 * side of the boundary for every point.
 *
 * A tie that only a cost at its bound makes (g_s = g_r = 0: both gap
 * pieces equal) is no boundary: the costs at 0 are nudged up (theta'),
 * and of the tied pieces the one that rises most with them is the
 * active one (the cost enters from above), the others do not count.
 * Returns the number of fitted points within BOUNDARY of a boundary;
 * *exact_tie: some point is on one (to 1e-7), where lo and hi differ.
 */
static size_t choose_pieces(const struct work *w, const double *theta,
			    const double *pred, const unsigned char *a,
			    unsigned char *act, unsigned char *lo,
			    unsigned char *hi, bool *exact_tie)
{
	double up[ML_FIT_MAXFREE];
	size_t k, j, nedge = 0;
	bool nedge_here = false;

	/* theta': each cost at 0 raised by what moves the weighted
	 * predictions by about 1e-3 */
	for (j = 0; j < w->p; j++) {
		double s = 0;

		up[j] = theta[j];
		for (k = 0; k < w->nfit; k++) {
			size_t i = w->fit_of[k];
			unsigned q;

			for (q = 0; q < w->npc[i]; q++)
				s = fmax(s, fabs(w->sw[i] *
						 w->pc[i * FIT_NPIECE + q]
						     .row[w->fidx[j]]));
		}
		/* at 0, or as near as rounding leaves it */
		if (s > 0 && theta[j] <= 1e-9 / s)
			up[j] = theta[j] + 1e-3 / s;
	}
	*exact_tie = false;
	for (k = 0; k < w->nfit; k++) {
		size_t i = w->fit_of[k];
		const struct fit_piece *pc = &w->pc[i * FIT_NPIECE];
		double tol = BOUNDARY * fabs(pred[i]), rise[FIT_NPIECE];
		double etol = 1e-7 * fabs(pred[i]);
		bool tied[FIT_NPIECE], exact[FIT_NPIECE];
		unsigned q, c = a[i], best;

		for (q = 0; q < w->npc[i]; q++) {
			double v = lsq_piece_at(w, &pc[q], theta);

			tied[q] = fabs(v - pred[i]) <= tol;
			exact[q] = fabs(v - pred[i]) <= etol;
			rise[q] = lsq_piece_at(w, &pc[q], up) - v;
		}
		if (c >= w->npc[i] || !exact[c]) {
			/* the candidate's piece is not the prediction */
			for (q = 0, c = 0; q < w->npc[i]; q++)
				if (fabs(lsq_piece_at(w, &pc[q], theta) - pred[i]) <
				    fabs(lsq_piece_at(w, &pc[c], theta) - pred[i]))
					c = q;
		}
		best = c;
		for (q = 0; q < w->npc[i]; q++)
			if (exact[q] && rise[q] > rise[best] + etol)
				best = q;
		act[k] = lo[k] = hi[k] = (unsigned char)best;
		for (q = 0; q < w->npc[i]; q++) {
			if (q != best && tied[q] &&
			    rise[q] >= rise[best] - etol)
				nedge_here = true;
			if (exact[q] && rise[q] >= rise[best] - etol) {
				lo[k] = q < lo[k] ? (unsigned char)q : lo[k];
				hi[k] = q > hi[k] ? (unsigned char)q : hi[k];
			}
		}
		nedge += nedge_here;
		nedge_here = false;
		*exact_tie |= lo[k] != hi[k];
	}
	return nedge;
}

/* Name the combination the data do not determine: the free costs with
 * weight in any right singular vector whose singular value is below
 * S_max / cond_max (the numerical null space). */
static void name_combo(struct work *w, const gsl_matrix *V,
		       const gsl_vector *S, const gsl_matrix *Jraw,
		       const char *const *names, struct ml_fit_result *res)
{
	bool in[ML_FIT_MAXFREE] = {false};
	size_t j, k, l, first = w->p;

	for (l = 1; l < w->p; l++) {
		gsl_vector_const_view v = gsl_matrix_const_column(V, l);
		double vmax = 0;

		if (gsl_vector_get(S, l) * w->o->cond_max >=
		    gsl_vector_get(S, 0))
			continue;
		for (j = 0; j < w->p; j++)
			vmax = fmax(vmax, fabs(gsl_vector_get(&v.vector, j)));
		for (j = 0; j < w->p; j++)
			if (fabs(gsl_vector_get(&v.vector, j)) > 0.05 * vmax)
				in[j] = true;
	}
	res->ncombo = 0;
	for (j = 0; j < w->p; j++)
		if (in[j]) {
			res->combo[res->ncombo++] = names[j];
			if (first == w->p)
				first = j;
		}
	/* As their sum: the columns of those costs are equal. */
	res->combo_sum = res->ncombo > 1;
	for (j = first + 1; j < w->p && res->combo_sum; j++) {
		double norm = 0, diff = 0;

		if (!in[j])
			continue;
		for (k = 0; k < w->nfit; k++) {
			double a = gsl_matrix_get(Jraw, k, j);
			double b = gsl_matrix_get(Jraw, k, first);

			norm += b * b;
			diff += (a - b) * (a - b);
		}
		if (diff > 1e-18 * norm)
			res->combo_sum = false;
	}
}

/* The weighted Jacobian of the fitted points on the pieces pick[k]. */
static void jacobian(const struct work *w, const unsigned char *pick,
		     gsl_matrix *Jraw)
{
	size_t k, j;

	for (k = 0; k < w->nfit; k++) {
		size_t i = w->fit_of[k];
		const struct fit_piece *pc = &w->pc[i * FIT_NPIECE + pick[k]];

		for (j = 0; j < w->p; j++)
			gsl_matrix_set(Jraw, k, j, w->sw[i] * pc->row[w->fidx[j]]);
	}
}

/*
 * Whether Jraw determines the free set: no zero column, and the
 * condition number of its unit-norm columns (res->cond) at most
 * cond_max; else ML_EUNIDENT with the combination in res.  J, V, S and
 * tmp are scratch of Jraw's size.
 */
static enum ml_status identify(struct work *w, const gsl_matrix *Jraw,
			       gsl_matrix *J, gsl_matrix *V, gsl_vector *S,
			       gsl_vector *tmp, const char *const *names,
			       struct ml_fit_result *res)
{
	double cs[ML_FIT_MAXFREE];
	size_t j, k, nzero = 0;

	for (j = 0; j < w->p; j++) {
		gsl_vector_const_view col = gsl_matrix_const_column(Jraw, j);

		cs[j] = gsl_blas_dnrm2(&col.vector);
		nzero += cs[j] == 0;
	}
	if (nzero) {
		/* Costs that do not enter these data at all. */
		res->ncombo = 0;
		for (j = 0; j < w->p; j++)
			if (cs[j] == 0)
				res->combo[res->ncombo++] = names[j];
		res->combo_sum = false;
		res->combo_absent = true;
		return ML_EUNIDENT;
	}
	for (k = 0; k < w->nfit; k++)
		for (j = 0; j < w->p; j++)
			gsl_matrix_set(J, k, j, gsl_matrix_get(Jraw, k, j) / cs[j]);
	if (gsl_linalg_SV_decomp(J, V, S, tmp)) {
		snprintf(res->reason, sizeof(res->reason),
			 "the singular value decomposition failed");
		return ML_ENOCONV;
	}
	res->cond = gsl_vector_get(S, w->p - 1) > 0
			? gsl_vector_get(S, 0) / gsl_vector_get(S, w->p - 1)
			: INFINITY;
	if (!(res->cond <= w->o->cond_max)) {
		name_combo(w, V, S, Jraw, names, res);
		return ML_EUNIDENT;
	}
	return ML_OK;
}

/*
 * identify() for one side of a boundary: a cost whose column is zero on
 * this side (the smaller gap, when both are 0) is left out, since it
 * enters from the other; the rest must be determined.
 */
static enum ml_status identify_side(struct work *w, const gsl_matrix *Jraw,
				    const char *const *names,
				    struct ml_fit_result *res)
{
	const char *sub[ML_FIT_MAXFREE];
	size_t keep[ML_FIT_MAXFREE], q = 0, j, k, p = w->p;
	gsl_matrix *Js, *J, *V;
	gsl_vector *S, *tmp;
	enum ml_status st = ML_ENOMEM;

	for (j = 0; j < p; j++) {
		gsl_vector_const_view col = gsl_matrix_const_column(Jraw, j);

		if (gsl_blas_dnrm2(&col.vector) > 0) {
			sub[q] = names[j];
			keep[q++] = j;
		}
	}
	if (q == 0)
		return ML_OK;
	Js = gsl_matrix_alloc(w->nfit, q);
	J = gsl_matrix_alloc(w->nfit, q);
	V = gsl_matrix_alloc(q, q);
	S = gsl_vector_alloc(q);
	tmp = gsl_vector_alloc(q);
	if (Js && J && V && S && tmp) {
		double cond = res->cond;

		for (k = 0; k < w->nfit; k++)
			for (j = 0; j < q; j++)
				gsl_matrix_set(Js, k, j,
					       gsl_matrix_get(Jraw, k, keep[j]));
		w->p = q; /* identify() reads the width from w */
		st = identify(w, Js, J, V, S, tmp, sub, res);
		w->p = p;
		if (st == ML_OK)
			res->cond = cond;
	}
	gsl_matrix_free(Js);
	gsl_matrix_free(J);
	gsl_matrix_free(V);
	gsl_vector_free(S);
	gsl_vector_free(tmp);
	return st;
}

/*
 * res->bound_sd and res->bound_est of the parameters at their bound:
 * the standard errors of the whole free set at the fit, s2 (J^T W J)^-1
 * over every column of Jraw (identify() has checked that the whole set
 * is determined), and the estimates the set would have with no bound,
 * one Gauss-Newton step from the fit, delta = (J^T W J)^-1 J^T W (y -
 * pred) (the unconstrained least squares where the model is linear in
 * its costs).  J, V, S and tmp are scratch of the whole set's size.
 * Where a singular value is 0, the NaNs stay.
 */
static void bound_sd(const struct work *w, const gsl_matrix *Jraw,
		     const double *pred, gsl_matrix *J, gsl_matrix *V,
		     gsl_vector *S, gsl_vector *tmp, double s2,
		     struct ml_fit_result *res)
{
	double cs[ML_FIT_MAXFREE], ur[ML_FIT_MAXFREE], c, d, sl;
	size_t j, k, l;

	for (j = 0; j < w->p; j++)
		res->bound_sd[j] = res->bound_est[j] = NAN;
	for (j = 0; j < w->p && res->status[j] != ML_FIT_AT_BOUND; j++)
		;
	if (j == w->p || !(s2 > 0))
		return;
	for (j = 0; j < w->p; j++) {
		gsl_vector_const_view col = gsl_matrix_const_column(Jraw, j);

		cs[j] = gsl_blas_dnrm2(&col.vector);
		if (!(cs[j] > 0))
			return;
		for (k = 0; k < w->nfit; k++)
			gsl_matrix_set(J, k, j,
				       gsl_matrix_get(Jraw, k, j) / cs[j]);
	}
	if (gsl_linalg_SV_decomp(J, V, S, tmp))
		return;
	/* U^T r, r the weighted residuals y - pred (J now holds U) */
	for (l = 0; l < w->p; l++) {
		ur[l] = 0;
		for (k = 0; k < w->nfit; k++) {
			size_t ii = w->fit_of[k];

			ur[l] += gsl_matrix_get(J, k, l) * w->sw[ii] *
				 (w->y[ii] - pred[ii]);
		}
	}
	for (j = 0; j < w->p; j++) {
		if (res->status[j] != ML_FIT_AT_BOUND)
			continue;
		for (c = 0, d = 0, l = 0; l < w->p; l++) {
			sl = gsl_vector_get(S, l);
			if (!(sl > 0))
				break;
			c += gsl_matrix_get(V, j, l) * gsl_matrix_get(V, j, l) /
			     (sl * sl);
			d += gsl_matrix_get(V, j, l) * ur[l] / sl;
		}
		if (l == w->p) {
			res->bound_sd[j] = sqrt(s2 * c) / cs[j];
			res->bound_est[j] = d / cs[j];
		}
	}
}

/* Fill the statistics of res from theta (the final estimate). */
enum ml_status ml_lsq_finish(struct work *w, const double *theta,
			     const unsigned char *a, const char *const *names,
			     struct ml_fit_result *res)
{
	gsl_matrix *J = NULL, *Jraw = NULL, *V = NULL;
	gsl_vector *S = NULL, *tmp = NULL;
	double chi2, s2, sw = 0, swy = 0, sst = 0;
	size_t i, j, k, q, on[ML_FIT_MAXFREE];
	enum ml_status st = ML_OK;
	unsigned char *act = NULL;
	bool exact_tie = false;

	chi2 = ml_lsq_chi2(w, theta, res->pred);
	if (!isfinite(chi2)) {
		snprintf(res->reason, sizeof(res->reason),
			 "the model has no value at the fitted parameters at "
			 "some points");
		return ML_ENOCONV;
	}
	J = gsl_matrix_alloc(w->nfit, w->p);
	Jraw = gsl_matrix_alloc(w->nfit, w->p);
	V = gsl_matrix_alloc(w->p, w->p);
	S = gsl_vector_alloc(w->p);
	tmp = gsl_vector_alloc(w->p);
	if (!J || !Jraw || !V || !S || !tmp) {
		st = ML_ENOMEM;
		goto out;
	}
	act = malloc(3 * w->nfit);
	if (!act) {
		st = ML_ENOMEM;
		goto out;
	}
	res->nboundary = choose_pieces(w, theta, res->pred, a, act,
				       act + w->nfit, act + 2 * w->nfit,
				       &exact_tie);
	/*
	 * Identifiability over the whole free set, at-bound costs too.
	 * Points exactly on a boundary between pieces (the cluster model
	 * with O_s = g and T0 = 2 g, where eq 2.9 equals eq 2.8 at every
	 * depth) move with either piece as the costs move: each side must
	 * determine the set, or a direction exists along which the fit
	 * does not change (every point of a region fits as well).
	 */
	for (k = 1; exact_tie && k <= 2; k++) {
		jacobian(w, act + k * w->nfit, Jraw);
		st = identify_side(w, Jraw, names, res);
		if (st != ML_OK)
			goto out;
	}
	jacobian(w, act, Jraw);
	st = identify(w, Jraw, J, V, S, tmp, names, res);

	if (st != ML_OK)
		goto out;
	/* The costs not at their bound carry the covariance. */
	q = 0;
	for (j = 0; j < w->p; j++) {
		res->value[j] = theta[j];
		res->status[j] = theta[j] > 0 ? ML_FIT_FITTED : ML_FIT_AT_BOUND;
		if (theta[j] > 0)
			on[q++] = j;
	}
	res->dof = (int)(w->nfit - q);
	res->chi2 = chi2;
	s2 = chi2 / res->dof;
	memset(res->cov, 0, sizeof(res->cov));
	for (i = 0; i < w->n; i++)
		res->stud[i] = NAN;
	if (q > 0) {
		gsl_matrix_view Jq = gsl_matrix_submatrix(J, 0, 0, w->nfit, q);
		gsl_matrix_view Vq = gsl_matrix_submatrix(V, 0, 0, q, q);
		gsl_vector_view Sq = gsl_vector_subvector(S, 0, q);
		gsl_vector_view tq = gsl_vector_subvector(tmp, 0, q);
		double cs[ML_FIT_MAXFREE];

		for (j = 0; j < q; j++) {
			gsl_vector_view col = gsl_matrix_column(Jraw, on[j]);

			cs[j] = gsl_blas_dnrm2(&col.vector);
			for (k = 0; k < w->nfit; k++)
				gsl_matrix_set(&Jq.matrix, k, j,
					       gsl_matrix_get(Jraw, k, on[j]) /
						   cs[j]);
		}
		if (gsl_linalg_SV_decomp(&Jq.matrix, &Vq.matrix, &Sq.vector,
					 &tq.vector)) {
			snprintf(res->reason, sizeof(res->reason),
				 "the singular value decomposition failed");
			st = ML_ENOCONV;
			goto out;
		}
		/* cov = s^2 V S^-2 V^T, unscaled by the column norms */
		for (j = 0; j < q; j++)
			for (k = 0; k < q; k++) {
				double c = 0;
				size_t l;

				for (l = 0; l < q; l++) {
					double sl = gsl_vector_get(&Sq.vector, l);

					c += gsl_matrix_get(&Vq.matrix, j, l) *
					     gsl_matrix_get(&Vq.matrix, k, l) /
					     (sl * sl);
				}
				res->cov[on[j] * w->p + on[k]] =
				    s2 * c / cs[j] / cs[k];
			}
		/* Leverages h_kk = sum_l U_kl^2 (U is in Jq now). */
		for (k = 0; k < w->nfit; k++) {
			size_t ii = w->fit_of[k];
			double h = 0, e;

			for (j = 0; j < q; j++)
				h += gsl_matrix_get(&Jq.matrix, k, j) *
				     gsl_matrix_get(&Jq.matrix, k, j);
			e = w->sw[ii] * (res->pred[ii] - w->y[ii]);
			res->stud[ii] = h < 1 - 1e-12 && s2 > 0
					    ? e / sqrt(s2 * (1 - h))
					    : NAN;
		}
	}
	bound_sd(w, Jraw, res->pred, J, V, S, tmp, s2, res);
	if (q == 0) {
		for (k = 0; k < w->nfit; k++) {
			size_t ii = w->fit_of[k];

			res->stud[ii] = s2 > 0 ? w->sw[ii] *
						     (res->pred[ii] - w->y[ii]) /
						     sqrt(s2)
					       : NAN;
		}
	}
out:
	free(act);
	gsl_matrix_free(J);
	gsl_matrix_free(Jraw);
	gsl_matrix_free(V);
	gsl_vector_free(S);
	gsl_vector_free(tmp);
	if (st != ML_OK)
		return st;
	/* Weighted R^2 and the relative errors. */
	for (k = 0; k < w->nfit; k++) {
		i = w->fit_of[k];
		sw += w->sw[i] * w->sw[i];
		swy += w->sw[i] * w->sw[i] * w->y[i];
	}
	for (k = 0; k < w->nfit; k++) {
		double dy;

		i = w->fit_of[k];
		dy = w->y[i] - swy / sw;
		sst += (w->sw[i] * dy) * (w->sw[i] * dy);
	}
	res->r2 = sst > 0 ? 1 - chi2 / sst : NAN;
	return ML_OK;
}

/* Intervals, relative errors, holdout and outlier flags. */
void ml_lsq_summarise(struct work *w, const bool *use,
		      struct ml_fit_result *res)
{
	double t, ss = 0, sh = 0, sm = 0;
	size_t i, j, nh = 0;

	t = res->dof > 0 ? gsl_cdf_tdist_Pinv(0.5 + w->o->level / 2,
					      (double)res->dof)
			 : NAN;
	res->tquant = t;
	for (j = 0; j < w->p; j++) {
		if (res->status[j] == ML_FIT_FITTED) {
			res->se[j] = sqrt(res->cov[j * w->p + j]);
			res->lo[j] = res->value[j] - t * res->se[j];
			res->hi[j] = res->value[j] + t * res->se[j];
		} else if (res->status[j] == ML_FIT_AT_BOUND) {
			/* the unconstrained interval, cut at 0 */
			res->se[j] = NAN;
			res->lo[j] = 0;
			res->hi[j] = fmax(0, res->bound_est[j] +
						 t * res->bound_sd[j]);
		} else {
			res->se[j] = res->lo[j] = res->hi[j] = NAN;
		}
	}
	res->max_rel = -1;
	res->worst = 0;
	res->hold_max_rel = NAN;
	res->worst_hold = w->n;
	res->noutliers = 0;
	for (i = 0; i < w->n; i++) {
		bool fitted = !use || use[i];
		double r;

		res->resid[i] = res->pred[i] - w->ym[i];
		r = res->rel[i] = res->resid[i] / w->ym[i];
		res->flag[i] = fitted && fabs(res->stud[i]) > w->o->outlier;
		res->noutliers += res->flag[i];
		if (fitted) {
			ss += r * r;
			if (fabs(r) > res->max_rel) {
				res->max_rel = fabs(r);
				res->worst = i;
			}
		} else {
			sh += r * r;
			sm += r;
			nh++;
			if (!(fabs(r) <= res->hold_max_rel)) {
				res->hold_max_rel = fabs(r);
				res->worst_hold = i;
			}
		}
	}
	res->rms_rel = sqrt(ss / (double)w->nfit);
	/* Residuals of rounding (data the model reproduces exactly) have
	 * no outliers, whatever their studentised size. */
	if (res->max_rel < 1e-9) {
		for (i = 0; i < w->n; i++)
			res->flag[i] = 0;
		res->noutliers = 0;
	}
	res->hold_rms_rel = nh ? sqrt(sh / (double)nh) : NAN;
	res->hold_mean_rel = nh ? sm / (double)nh : NAN;
	res->nhold = nh;
}
