/*
 * lsq.c - the fitting core: weighted least squares of a model's time
 * costs on measured latencies, with the global optimum over the model's
 * pieces, identifiability, covariance and diagnostics (mcastlat/fit.h).
 *
 * The method, for free costs theta >= 0 and fitted points i:
 *
 *   minimise  chi^2(theta) = sum_i u_i r_i^2,  r_i = (f_i(theta) - y_i)
 *   / y_i (relative, the default), ln(f_i / y_i) (logscale, --weight log)
 *   or f_i - y_i, u_i the user's weight.
 *
 * The linear solves below are of weighted residuals sw_i (f_i - y_i);
 * for ln(f / y) they solve its tangent at the current predictions f:
 * sw_i = sqrt(u_i) / f_i against the target yt_i = f_i (1 + ln(y_i /
 * f_i)) (log_target), so a solve is a Gauss-Newton step, and at the fit
 * the diagnostics of diag.c, written for sw and the target, are those
 * of ln(f / y).  The first solves, before any prediction, use 1 / y_i.
 *
 * Each prediction f_i is affine in theta within each of its pieces (an
 * adapter's fit_piece; one piece for kbinomial, torus and hypercube).
 * For each assignment of pieces to points that the adapter offers (the
 * cluster model: which gap is the larger, and which depths are in the
 * eq 2.9 regime: a prefix or a suffix of the sorted depths), the
 * problem is linear: solved by GSL's SVD least squares
 * (gsl_multifit_linear_tsvd), with theta >= 0 by trying the subsets of
 * costs held at 0 (the non-negative solution is the best feasible one of
 * those, each a linear solve on the normal equations, refined by SVD).
 * Every candidate is scored by chi^2 of the true model (the adapter's
 * eval), so an assignment that is not self-consistent cannot win by
 * its own arithmetic; the lowest is the fit.
 *
 * At the fit, the Jacobian is the rows of each point's active piece.
 * Its columns are scaled to unit norm and decomposed (SVD): a condition
 * number above cond_max means the data do not determine the free set,
 * and the singular vector of the smallest singular value names the
 * combination.  The covariance is s^2 (J^T W J)^-1 with s^2 = chi^2 /
 * (n - p) over the costs not at their bound; intervals use the t
 * quantile at n - p degrees of freedom; studentised residuals use the
 * leverages h_ii of the same decomposition.  With robust, GSL's
 * bisquare regression replaces the final linear solve and supplies the
 * covariance and studentised residuals.
 *
 * This file owns the state of a fit (lsq.h), the pieces and candidates,
 * the linear and non-negative solves, the polish, the robust fit and
 * ml_fit itself; lsq_par.c runs a local model's points on threads;
 * diag.c judges an estimate (identifiability,
 * covariance, statistics), fit_auto.c grows --free auto's free set by
 * calling ml_fit, fitapi.c holds the small functions of the interface.
 *
 * No printing, no globals; GSL errors are reported by status only when
 * the program has called gsl_set_error_handler_off() (the CLI does).
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

/* The pieces of every point at the starting parameters (free costs 0). */
static enum ml_status make_pieces(struct work *w, struct ml_diag *d)
{
	double zero[ML_FIT_MAXFREE] = {0}, f0, f1;
	size_t i, j;

	ml_lsq_set_theta(w, zero);
	for (i = 0; i < w->n; i++) {
		struct fit_piece *pc = &w->pc[i * FIT_NPIECE];

		if (w->rep[i] != i) {
			memcpy(pc, &w->pc[w->rep[i] * FIT_NPIECE],
			       FIT_NPIECE * sizeof(*pc));
			w->npc[i] = w->npc[w->rep[i]];
			continue;
		}
		if (w->m->pieces) {
			w->npc[i] = (unsigned char)w->m->pieces(lsq_point(w, i), pc);
			continue;
		}
		/* Affine in its costs: the value at 0 and the change for a
		 * unit step of each free cost; the change for a step of 2
		 * must be twice that, or the model is not affine. */
		if (w->m->eval(lsq_point(w, i), &f0) != ML_OK || !isfinite(f0))
			return ml_diag_set(d, NULL,
					   "point %zu: the model has no value "
					   "there at the fixed parameters",
					   i + 1);
		memset(pc, 0, sizeof(*pc));
		pc->value = f0;
		for (j = 0; j < w->p; j++) {
			double *x = fit_field(w->m, lsq_point(w, i), w->fidx[j]);
			double f2;

			*x = 1;
			if (w->m->eval(lsq_point(w, i), &f1) != ML_OK)
				f1 = NAN;
			*x = 2;
			if (w->m->eval(lsq_point(w, i), &f2) != ML_OK)
				f2 = NAN;
			*x = 0;
			if (!isfinite(f1) || !isfinite(f2) ||
			    fabs((f2 - f0) - 2 * (f1 - f0)) >
				1e-9 * (fabs(f2) + fabs(f0) + 1))
				return ml_diag_set(
				    d, w->m->params[w->fidx[j]].name,
				    "the model is not linear in it at point "
				    "%zu (not fittable here)",
				    i + 1);
			pc->row[w->fidx[j]] = f1 - f0;
		}
		w->npc[i] = 1;
	}
	return ML_OK;
}

/* The candidates' assignments; without an adapter's list, one: each
 * point's largest piece at the starting parameters. */
static enum ml_status make_candidates(struct work *w)
{
	size_t i, j;

	if (w->m->candidates) {
		w->ncand = w->m->candidates(w->pts, w->n, NULL);
		if (w->ncand == 0)
			w->ncand = 1;
	} else {
		w->ncand = 1;
	}
	w->assign = calloc(w->ncand * w->n, 1);
	if (!w->assign)
		return ML_ENOMEM;
	if (w->m->candidates) {
		w->m->candidates(w->pts, w->n, w->assign);
		return ML_OK;
	}
	for (i = 0; i < w->n; i++) {
		const struct fit_piece *pc = &w->pc[i * FIT_NPIECE];
		unsigned best = 0;

		for (j = 1; j < w->npc[i]; j++)
			if (pc[j].value > pc[best].value)
				best = (unsigned)j;
		w->assign[i] = (unsigned char)best;
	}
	return ML_OK;
}

/*
 * A local model's pieces at theta: one per point, the tangent of the
 * prediction there by forward differences (the model is piecewise
 * linear, so a step small against the cost stays on the piece unless
 * the point sits on a boundary; a cost at 0 is probed upwards, into the
 * feasible side).  ML_EINVAL with *d when the model has no value.
 */
/* One point's piece (local_pieces): its value and tangent at the
 * costs its working copy holds; nonzero when the model has no value. */
static int local_piece(struct work *w, size_t i, void *arg)
{
	const double *theta = arg;
	struct fit_piece *pc = &w->pc[i * FIT_NPIECE];
	double f0, f1;
	size_t j;

	/* Held-out points are predicted once, at the end (w->all): a local
	 * model costs a run of the engine per point. */
	if (!w->all && !w->need[i])
		return 0;
	w->npc[i] = 1;
	if (w->m->eval(lsq_point(w, i), &f0) != ML_OK || !isfinite(f0))
		return 1;
	memset(pc, 0, sizeof(*pc));
	pc->value = f0;
	for (j = 0; j < w->p; j++) {
		double *x = fit_field(w->m, lsq_point(w, i), w->fidx[j]);
		double h = 1e-6 * (theta[j] > 0 ? theta[j] : 1);

		*x = theta[j] + h;
		if (w->m->eval(lsq_point(w, i), &f1) != ML_OK || !isfinite(f1))
			f1 = f0;
		*x = theta[j];
		pc->row[w->fidx[j]] = (f1 - f0) / h;
		pc->value -= pc->row[w->fidx[j]] * theta[j];
	}
	return 0;
}

static enum ml_status local_pieces(struct work *w, const double *theta,
				   struct ml_diag *d)
{
	size_t i, bad;

	ml_lsq_set_theta(w, theta);
	bad = ml_lsq_each(w, local_piece, (void *)theta);
	if (bad != SIZE_MAX)
		return ml_diag_set(d, NULL,
				   "point %zu: the model has no value "
				   "there at the starting parameters",
				   bad + 1);
	for (i = 0; i < w->n; i++)
		if (w->rep[i] != i && (w->all || w->need[w->rep[i]])) {
			w->npc[i] = 1;
			w->pc[i * FIT_NPIECE] = w->pc[w->rep[i] * FIT_NPIECE];
		}
	return ML_OK;
}

static double solve_nonneg(struct work *w, double *theta);
static void design(struct work *w, const unsigned char *a);

/*
 * The tangent of the log-scale residual ln(f / y) at the predictions
 * pred: (f' - yt) / f with yt = f (1 + ln(y / f)), so the linear solves
 * are its Gauss-Newton steps and, at the fit, sw (f - yt) = ln(f / y)
 * for every diagnostic (covariance, lack of fit, studentised
 * residuals).  A prediction that is not > 0 keeps the measurement.
 */
static void log_target(struct work *w, const double *pred)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		double f = pred[i] > 0 && isfinite(pred[i]) ? pred[i] : w->ym[i];

		w->sw[i] = w->uw[i] / f;
		w->yt[i] = f * (1 + log(w->ym[i] / f));
	}
}

/* Most linearisations of a local fit, and step halvings of each. */
#define LOCAL_ITER 60
#define LOCAL_HALVE 8

/*
 * Gauss-Newton with step halving, on theta >= 0: a local model's fit,
 * and the log-scale fit of the others on their assignment a (logres).
 * From theta (the start), linearise (a local model's pieces at theta;
 * logres: the weights and target of log_target), solve the
 * non-negative linear least-squares problem of the tangents, and move
 * towards its solution, halving the step until the true chi^2 falls;
 * stop when it falls by less than 1e-10 of itself (exact pieces: when
 * no cost moves by 1e-13 of itself), or no step lowers it.  Each
 * iteration evaluates the model (p + 1) times per distinct fitted point
 * (held-out points are predicted once, after the search: w->all).
 * Returns the chi^2 at the final theta (INFINITY: no value at the
 * start), with the pieces left at that theta.
 */
static double local_fit(struct work *w, double *theta, double *pred,
			const unsigned char *a, struct ml_diag *d)
{
	double chi = ml_lsq_chi2(w, theta, pred), t[ML_FIT_MAXFREE];
	double tl[ML_FIT_MAXFREE], moved;
	size_t it, h, j;

	if (!isfinite(chi))
		return INFINITY;
	for (it = 0; it < LOCAL_ITER; it++) {
		double step = 1, c = INFINITY;
		int ok = 0;

		if (w->m->local && local_pieces(w, theta, d) != ML_OK)
			return INFINITY;
		if (w->logres)
			log_target(w, pred);
		design(w, a);
		if (!isfinite(solve_nonneg(w, tl)))
			break;
		for (h = 0; h < LOCAL_HALVE; h++, step /= 2) {
			for (j = 0; j < w->p; j++)
				t[j] = fmax(0, theta[j] +
						   step * (tl[j] - theta[j]));
			c = ml_lsq_chi2(w, t, pred);
			/* exact pieces: a full step that chi^2 cannot tell
			 * from here (rounding) is taken, so the estimate
			 * converges in its last digits, not chi^2's */
			ok = c < chi || (!w->m->local && h == 0 &&
					 c <= chi * (1 + 1e-13));
			if (ok)
				break;
		}
		if (!ok)
			break;
		/* a local model's finite differences bound its precision;
		 * exact pieces converge to the last digits */
		moved = 0;
		for (j = 0; j < w->p; j++)
			moved = fmax(moved, fabs(t[j] - theta[j]) /
						fmax(fabs(t[j]), 1e-300));
		memcpy(theta, t, w->p * sizeof(*t));
		if (w->m->local ? chi - c <= 1e-10 * chi : moved <= 1e-13) {
			chi = c;
			break;
		}
		chi = c;
	}
	chi = ml_lsq_chi2(w, theta, pred);
	if (w->m->local && local_pieces(w, theta, d) != ML_OK)
		return INFINITY;
	return chi;
}

/* Row k of the weighted design for candidate a: X (unscaled) and yy. */
static void design(struct work *w, const unsigned char *a)
{
	size_t k, j;

	for (j = 0; j < w->p; j++)
		w->cs[j] = 0;
	for (k = 0; k < w->nfit; k++) {
		size_t i = w->fit_of[k];
		const struct fit_piece *pc = &w->pc[i * FIT_NPIECE + a[i]];
		double s = w->sw[i];

		for (j = 0; j < w->p; j++) {
			double x = s * pc->row[w->fidx[j]];

			gsl_matrix_set(w->X, k, j, x);
			w->cs[j] += x * x;
		}
		gsl_vector_set(w->yy, k, s * (w->y[i] - pc->value));
	}
	/* Unit-norm columns: costs per byte and per packet differ by
	 * orders of magnitude, and the SVD's truncation is relative. */
	for (j = 0; j < w->p; j++) {
		w->cs[j] = w->cs[j] > 0 ? sqrt(w->cs[j]) : 1;
		for (k = 0; k < w->nfit; k++)
			gsl_matrix_set(w->X, k, j,
				       gsl_matrix_get(w->X, k, j) / w->cs[j]);
	}
}

/* Least squares on the columns in `on` (a bit mask) of the scaled X by
 * SVD; theta (unscaled) gets 0 elsewhere.  Returns the residual norm^2
 * of the linear problem, or INFINITY when GSL fails. */
static double solve_subset(struct work *w, unsigned on, double *theta)
{
	size_t j, q = 0, k;
	double chisq;
	size_t rank;
	int st;

	for (j = 0; j < w->p; j++) {
		theta[j] = 0;
		if (!(on & (1u << j)))
			continue;
		for (k = 0; k < w->nfit; k++)
			gsl_matrix_set(w->Xs, k, q, gsl_matrix_get(w->X, k, j));
		q++;
	}
	if (q == 0) {
		double s = 0;

		for (k = 0; k < w->nfit; k++)
			s += gsl_vector_get(w->yy, k) * gsl_vector_get(w->yy, k);
		return s;
	}
	{
		gsl_matrix_view Xv =
		    gsl_matrix_submatrix(w->Xs, 0, 0, w->nfit, q);
		gsl_vector_view cv = gsl_vector_subvector(w->c, 0, q);
		gsl_matrix_view covv = gsl_matrix_submatrix(w->cov, 0, 0, q, q);

		st = gsl_multifit_linear_tsvd(&Xv.matrix, w->yy, 1e-13,
					      &cv.vector, &covv.matrix, &chisq,
					      &rank, w->lw);
	}
	if (st != GSL_SUCCESS)
		return INFINITY;
	q = 0;
	for (j = 0; j < w->p; j++)
		if (on & (1u << j))
			theta[j] = gsl_vector_get(w->c, q++) / w->cs[j];
	return chisq;
}

/* The non-negative least-squares solution of the current design: the
 * best feasible solution over the subsets of costs held at 0, found on
 * the normal equations (Cholesky) and refined by SVD. */
static double solve_nonneg(struct work *w, double *theta)
{
	unsigned all = (1u << w->p) - 1, on, best_on = 0;
	double best = INFINITY, yty = 0, chisq;
	size_t j, k, q;

	chisq = solve_subset(w, all, theta);
	for (j = 0; j < w->p; j++)
		if (theta[j] < 0)
			break;
	if (j == w->p)
		return chisq;
	/* Normal equations of the scaled design. */
	gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, w->X, w->X, 0.0, w->G);
	gsl_blas_dgemv(CblasTrans, 1.0, w->X, w->yy, 0.0, w->b);
	for (k = 0; k < w->nfit; k++)
		yty += gsl_vector_get(w->yy, k) * gsl_vector_get(w->yy, k);
	for (on = 0; on < all; on++) {
		double ssr = yty;
		size_t r, s;
		int ok = 1;

		q = 0;
		for (j = 0; j < w->p; j++)
			if (on & (1u << j))
				q++;
		if (q > 0) {
			gsl_matrix_view Lv =
			    gsl_matrix_submatrix(w->L, 0, 0, q, q);
			gsl_vector_view xv = gsl_vector_subvector(w->x, 0, q);
			gsl_vector_view bv = gsl_vector_subvector(w->c, 0, q);

			for (r = 0, j = 0; j < w->p; j++) {
				if (!(on & (1u << j)))
					continue;
				gsl_vector_set(&bv.vector, r,
					       gsl_vector_get(w->b, j));
				for (s = 0, k = 0; k < w->p; k++)
					if (on & (1u << k))
						gsl_matrix_set(
						    &Lv.matrix, r, s++,
						    gsl_matrix_get(w->G, j, k));
				r++;
			}
			if (gsl_linalg_cholesky_decomp1(&Lv.matrix) ||
			    gsl_linalg_cholesky_solve(&Lv.matrix, &bv.vector,
						      &xv.vector))
				continue;
			for (r = 0; r < q && ok; r++)
				ok = gsl_vector_get(&xv.vector, r) >= 0;
			if (!ok)
				continue;
			/* ssr = yty - x^T b for the normal equations' x */
			gsl_blas_ddot(&xv.vector, &bv.vector, &chisq);
			ssr = yty - chisq;
		}
		if (ssr < best) {
			best = ssr;
			best_on = on;
		}
	}
	chisq = solve_subset(w, best_on, theta);
	for (j = 0; j < w->p; j++)
		if (theta[j] < 0)
			theta[j] = 0; /* the SVD's rounding at the bound */
	return chisq;
}

/* ------------------------------------------------------------------ */
/* Polish: the trust-region solver on the largest piece of each point. */

/* The largest piece of point i at theta, and its index. */
static double top_piece(const struct work *w, size_t i, const double *theta,
			unsigned *which)
{
	const struct fit_piece *pc = &w->pc[i * FIT_NPIECE];
	double best = lsq_piece_at(w, &pc[0], theta);
	unsigned j;

	*which = 0;
	for (j = 1; j < w->npc[i]; j++) {
		double v = lsq_piece_at(w, &pc[j], theta);

		if (v > best) {
			best = v;
			*which = j;
		}
	}
	return best;
}

static int polish_f(const gsl_vector *x, void *arg, gsl_vector *f)
{
	struct work *w = arg;
	size_t k;
	unsigned a;

	for (k = 0; k < w->nfit; k++) {
		size_t i = w->fit_of[k];
		double v = top_piece(w, i, x->data, &a);

		/* log: a prediction <= 0 is far off (ln of 1e-300) */
		gsl_vector_set(f, k,
			       w->logres ? w->uw[i] * log(fmax(v, 1e-300) /
							  w->ym[i])
					 : w->sw[i] * (v - w->y[i]));
	}
	return GSL_SUCCESS;
}

static int polish_df(const gsl_vector *x, void *arg, gsl_matrix *J)
{
	struct work *w = arg;
	size_t k, j;
	unsigned a;

	for (k = 0; k < w->nfit; k++) {
		size_t i = w->fit_of[k];
		double v = top_piece(w, i, x->data, &a),
		       s = w->logres ? w->uw[i] / fmax(v, 1e-300) : w->sw[i];
		const struct fit_piece *pc = &w->pc[i * FIT_NPIECE + a];

		for (j = 0; j < w->p; j++)
			gsl_matrix_set(J, k, j, s * pc->row[w->fidx[j]]);
	}
	return GSL_SUCCESS;
}

/*
 * From a candidate's solution, let GSL's Levenberg-Marquardt solver move
 * across the pieces' boundaries (a candidate's linear solution may lie
 * outside its own assignment's region, and the optimum on a boundary).
 * theta is replaced when the result is feasible (>= 0) and lowers the
 * true chi^2.  Returns the (possibly new) chi^2.
 */
static double polish(struct work *w, double *theta, double chi, double *pred)
{
	gsl_multifit_nlinear_parameters fp =
	    gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_workspace *nw;
	gsl_multifit_nlinear_fdf fdf;
	gsl_vector_view x0 = gsl_vector_view_array(theta, w->p);
	double t[ML_FIT_MAXFREE], c;
	size_t j;
	int info;

	fp.trs = gsl_multifit_nlinear_trs_lm;
	fp.solver = gsl_multifit_nlinear_solver_qr;
	nw = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp,
					w->nfit, w->p);
	if (!nw)
		return chi;
	fdf.f = polish_f;
	fdf.df = polish_df;
	fdf.fvv = NULL;
	fdf.n = w->nfit;
	fdf.p = w->p;
	fdf.params = w;
	/* GSL_EMAXITER and GSL_ENOPROG leave the best point so far: it is
	 * judged below like any other. */
	if (gsl_multifit_nlinear_init(&x0.vector, &fdf, nw) == GSL_SUCCESS) {
		gsl_multifit_nlinear_driver(200, 1e-14, 1e-14, 1e-14, NULL,
					    NULL, &info, nw);
		for (j = 0; j < w->p; j++) {
			t[j] = gsl_vector_get(
			    gsl_multifit_nlinear_position(nw), j);
			if (!(t[j] >= 0))
				break;
		}
		if (j == w->p) {
			c = ml_lsq_chi2(w, t, pred);
			if (c < chi) {
				memcpy(theta, t, w->p * sizeof(*t));
				chi = c;
			}
		}
	}
	gsl_multifit_nlinear_free(nw);
	return chi;
}

/* ------------------------------------------------------------------ */

static void work_free(struct work *w)
{
	free(w->pts);
	free(w->sw);
	free(w->uw);
	free(w->yt);
	free(w->fit_of);
	free(w->rep);
	free(w->need);
	free(w->pc);
	free(w->npc);
	free(w->assign);
	free(w->order);
	free(w->cost);
	gsl_matrix_free(w->X);
	gsl_matrix_free(w->Xs);
	gsl_matrix_free(w->G);
	gsl_matrix_free(w->L);
	gsl_vector_free(w->yy);
	gsl_vector_free(w->c);
	gsl_vector_free(w->b);
	gsl_vector_free(w->x);
	gsl_matrix_free(w->cov);
	if (w->lw)
		gsl_multifit_linear_free(w->lw);
}

/* Arguments and data: names known and distinct, y finite and > 0,
 * weights finite and > 0, every point in the model's domain. */
static enum ml_status check_args(struct work *w,
				 const struct ml_fit_data *data,
				 const char *const *freeset, size_t nfree,
				 struct ml_diag *d)
{
	size_t i, j;

	if (nfree > ML_FIT_MAXFREE)
		return ml_diag_set(d, "free", "more than %d free parameters",
				   ML_FIT_MAXFREE);
	for (j = 0; j < nfree; j++) {
		long k = ml_fit_param_index(w->m, freeset[j]);

		if (k < 0)
			return ml_diag_set(d, "free",
					   "'%s' is not a parameter %s can fit",
					   freeset[j] ? freeset[j] : "",
					   w->m->name);
		for (i = 0; i < j; i++)
			if (w->fidx[i] == (size_t)k)
				return ml_diag_set(d, "free",
						   "'%s' is named twice",
						   freeset[j]);
		w->fidx[j] = (size_t)k;
	}
	if (data->n == 0 || !data->points || !data->y)
		return ml_diag_set(d, NULL, "no data points");
	for (i = 0; i < data->n; i++) {
		if (!isfinite(data->y[i]) || !(data->y[i] > 0))
			return ml_diag_set(d, "latency",
					   "point %zu: %g is not a latency > 0",
					   i + 1, data->y[i]);
		if (data->w && (!isfinite(data->w[i]) || !(data->w[i] > 0)))
			return ml_diag_set(d, "weight",
					   "point %zu: %g is not a weight > 0",
					   i + 1, data->w[i]);
	}
	return ML_OK;
}

static enum ml_status work_init(struct work *w, const struct ml_fit_data *data,
				size_t nfree, const struct ml_fit_options *o,
				struct ml_diag *d)
{
	double zero[ML_FIT_MAXFREE] = {0};
	size_t i, p = nfree ? nfree : 1;

	w->o = o;
	w->n = data->n;
	w->p = nfree;
	w->y = w->ym = data->y;
	w->logres = o->relative && o->logscale;
	w->pts = malloc(w->n * w->m->size);
	w->sw = malloc(w->n * sizeof(*w->sw));
	w->uw = malloc(w->n * sizeof(*w->uw));
	if (!w->uw)
		return ML_ENOMEM;
	if (w->logres) {
		w->yt = malloc(w->n * sizeof(*w->yt));
		if (!w->yt)
			return ML_ENOMEM;
		/* the first linear solves: (f - y) / y, its tangent at f = y */
		memcpy(w->yt, data->y, w->n * sizeof(*w->yt));
		w->y = w->yt;
	}
	w->fit_of = malloc(w->n * sizeof(*w->fit_of));
	w->rep = malloc(w->n * sizeof(*w->rep));
	w->need = calloc(w->n, 1);
	w->pc = calloc(w->n * FIT_NPIECE, sizeof(*w->pc));
	w->npc = calloc(w->n, 1);
	if (!w->pts || !w->sw || !w->fit_of || !w->rep || !w->need || !w->pc ||
	    !w->npc)
		return ML_ENOMEM;
	memcpy(w->pts, data->points, w->n * w->m->size);
	for (i = 0; i < w->n; i++) {
		size_t g = data->group ? data->group[i] : i;

		if (g > i || (data->group && data->group[g] != g))
			return ml_diag_set(d, NULL,
					   "point %zu: its group is not the "
					   "first point of the group",
					   i + 1);
		w->rep[i] = g;
	}
	/* A local model starts where the points' costs are. */
	for (i = 0; i < nfree && w->m->local; i++)
		w->theta0[i] = fmax(0, *fit_field(w->m, lsq_point(w, 0), w->fidx[i]));
	ml_lsq_set_theta(w, zero);
	for (i = 0; i < w->n; i++) {
		struct ml_diag dd = {0};

		if (w->m->validate(lsq_point(w, i), &dd) != ML_OK)
			return ml_diag_set(d, dd.param, "point %zu: %s", i + 1,
					   dd.msg);
		w->uw[i] = data->w ? sqrt(data->w[i]) : 1;
		w->sw[i] = (o->relative ? 1 / data->y[i] : 1) * w->uw[i];
		if (!data->use || data->use[i]) {
			w->fit_of[w->nfit++] = i;
			w->need[w->rep[i]] = 1;
		}
	}
	if (w->m->check_data && w->m->check_data(w->pts, w->n, d) != ML_OK)
		return ML_EINVAL;
	if (w->nfit < nfree + 1)
		return ml_diag_set(d, "free",
				   "%zu points fitted for %zu free "
				   "parameters: a fit needs at least %zu",
				   w->nfit, nfree, nfree + 1);
	w->X = gsl_matrix_alloc(w->nfit, p);
	w->Xs = gsl_matrix_alloc(w->nfit, p);
	w->G = gsl_matrix_alloc(p, p);
	w->L = gsl_matrix_alloc(p, p);
	w->cov = gsl_matrix_alloc(p, p);
	w->yy = gsl_vector_alloc(w->nfit);
	w->c = gsl_vector_alloc(p);
	w->b = gsl_vector_alloc(p);
	w->x = gsl_vector_alloc(p);
	w->lw = gsl_multifit_linear_alloc(w->nfit, p);
	if (!w->X || !w->Xs || !w->G || !w->L || !w->cov || !w->yy || !w->c ||
	    !w->b || !w->x || !w->lw)
		return ML_ENOMEM;
	return ML_OK;
}

/* Robust (bisquare) regression on the candidate's costs not at bound;
 * replaces theta, the covariance and the studentised residuals. */
static enum ml_status robust_fit(struct work *w, double *theta,
				 struct ml_fit_result *res)
{
	gsl_multifit_robust_workspace *rw = NULL;
	gsl_matrix *Xq = NULL, *cq = NULL;
	gsl_vector *c = NULL, *r = NULL;
	size_t on[ML_FIT_MAXFREE], q, j, k, iter;
	enum ml_status st = ML_OK;

	for (iter = 0; iter <= w->p; iter++) {
		q = 0;
		for (j = 0; j < w->p; j++)
			if (theta[j] > 0)
				on[q++] = j;
		if (q == 0 || w->nfit <= q)
			return ML_OK;
		rw = gsl_multifit_robust_alloc(gsl_multifit_robust_bisquare,
					       w->nfit, q);
		Xq = gsl_matrix_alloc(w->nfit, q);
		cq = gsl_matrix_alloc(q, q);
		c = gsl_vector_alloc(q);
		r = gsl_vector_alloc(w->nfit);
		if (!rw || !Xq || !cq || !c || !r) {
			st = ML_ENOMEM;
			break;
		}
		for (k = 0; k < w->nfit; k++)
			for (j = 0; j < q; j++)
				gsl_matrix_set(Xq, k, j,
					       gsl_matrix_get(w->X, k, on[j]));
		if (gsl_multifit_robust(Xq, w->yy, c, cq, rw) !=
			GSL_SUCCESS &&
		    gsl_multifit_robust_statistics(rw).numit == 0) {
			snprintf(res->reason, sizeof(res->reason),
				 "the robust regression failed");
			st = ML_ENOCONV;
			break;
		}
		for (j = 0; j < q; j++)
			theta[on[j]] = gsl_vector_get(c, j) / w->cs[on[j]];
		for (j = 0; j < q && gsl_vector_get(c, j) >= 0; j++)
			;
		if (j < q) {
			/* a cost below its bound: hold it at 0, again */
			theta[on[j]] = 0;
		} else {
			gsl_multifit_robust_residuals(Xq, w->yy, c, r, rw);
			memset(res->cov, 0, sizeof(res->cov));
			for (j = 0; j < q; j++)
				for (k = 0; k < q; k++)
					res->cov[on[j] * w->p + on[k]] =
					    gsl_matrix_get(cq, j, k) /
					    w->cs[on[j]] / w->cs[on[k]];
			for (k = 0; k < w->nfit; k++)
				res->stud[w->fit_of[k]] = -gsl_vector_get(r, k);
		}
		for (j = 0; j < w->p; j++)
			if (theta[j] < 0)
				theta[j] = 0;
		gsl_multifit_robust_free(rw);
		gsl_matrix_free(Xq);
		gsl_matrix_free(cq);
		gsl_vector_free(c);
		gsl_vector_free(r);
		rw = NULL;
		Xq = cq = NULL;
		c = r = NULL;
		if (j == q)
			break;
	}
	if (rw)
		gsl_multifit_robust_free(rw);
	gsl_matrix_free(Xq);
	gsl_matrix_free(cq);
	gsl_vector_free(c);
	gsl_vector_free(r);
	return st;
}

/* How many of the best candidates are polished. */
#define NTOP 3

/*
 * The fit: a local model moves from best (its start); otherwise every
 * candidate assignment, scored by the true model, the three lowest
 * polished, and the lowest after that wins, then (logres) moved to the
 * log-scale optimum by Gauss-Newton on its assignment.  Returns its
 * chi^2 (INFINITY: none finite), best and *best_c the fit; pred is
 * scratch of w->n.
 */
static double search(struct work *w, double *best, size_t *best_c,
		     double *pred)
{
	double theta[ML_FIT_MAXFREE] = {0}, bestchi = INFINITY;
	double top[NTOP][ML_FIT_MAXFREE], topchi[NTOP];
	size_t c, r, topc[NTOP];

	if (w->m->local)
		return local_fit(w, best, pred, w->assign, NULL);
	for (c = 0; c < NTOP; c++)
		topchi[c] = INFINITY;
	for (c = 0; c < w->ncand; c++) {
		double chi;

		design(w, &w->assign[c * w->n]);
		if (!isfinite(solve_nonneg(w, theta)))
			continue;
		chi = ml_lsq_chi2(w, theta, pred);
		for (r = 0; r < NTOP && chi >= topchi[r]; r++)
			;
		if (r == NTOP)
			continue;
		memmove(&topchi[r + 1], &topchi[r],
			(NTOP - 1 - r) * sizeof(topchi[0]));
		memmove(&topc[r + 1], &topc[r], (NTOP - 1 - r) * sizeof(topc[0]));
		memmove(top[r + 1], top[r], (NTOP - 1 - r) * sizeof(top[0]));
		topchi[r] = chi;
		topc[r] = c;
		memcpy(top[r], theta, sizeof(top[r]));
	}
	for (c = 0; c < NTOP && isfinite(topchi[c]); c++) {
		double chi = w->m->pieces ? polish(w, top[c], topchi[c], pred)
					  : topchi[c];

		if (chi < bestchi) {
			bestchi = chi;
			*best_c = topc[c];
			memcpy(best, top[c], sizeof(top[c]));
		}
	}
	if (w->logres && isfinite(bestchi))
		bestchi = local_fit(w, best, pred, &w->assign[*best_c * w->n],
				    NULL);
	return bestchi;
}

enum ml_status ml_fit(const struct ml_fit_model *m,
		      const struct ml_fit_data *data, const char *const *freeset,
		      size_t nfree, const struct ml_fit_options *o,
		      struct ml_fit_result *res, struct ml_diag *d)
{
	struct ml_fit_options defaults;
	struct work w = {.m = m};
	double best[ML_FIT_MAXFREE] = {0};
	double bestchi = INFINITY;
	size_t best_c = 0, j;
	enum ml_status st;

	if (!o) {
		ml_fit_options_init(&defaults);
		o = &defaults;
	}
	memset(res, 0, sizeof(*res));
	if (o->on_fit)
		o->on_fit(o->on_fit_arg);
	if (!m || !data)
		return ml_diag_set(d, NULL, "no model or no data");
	if (nfree == 0)
		return ml_diag_set(d, "free", "no free parameter");
	st = check_args(&w, data, freeset, nfree, d);
	if (st == ML_OK)
		st = work_init(&w, data, nfree, o, d);
	if (st == ML_OK && !m->local)
		st = make_pieces(&w, d);
	if (st == ML_OK)
		st = make_candidates(&w);
	if (st != ML_OK)
		goto fail;
	res->nfree = nfree;
	for (j = 0; j < nfree; j++)
		res->names[j] = freeset[j];
	res->nfit = w.nfit;
	res->pred = calloc(w.n, sizeof(double));
	res->resid = calloc(w.n, sizeof(double));
	res->rel = calloc(w.n, sizeof(double));
	res->stud = calloc(w.n, sizeof(double));
	res->flag = calloc(w.n, 1);
	if (!res->pred || !res->resid || !res->rel || !res->stud ||
	    !res->flag) {
		st = ML_ENOMEM;
		goto fail;
	}
	if (m->local)
		memcpy(best, w.theta0, sizeof(best));
	bestchi = search(&w, best, &best_c, res->pred);
	w.all = 1; /* from here on, the held-out points' predictions too */
	if (w.logres && isfinite(bestchi)) {
		/* the diagnostics' linearisation at the fit */
		ml_lsq_chi2(&w, best, res->pred);
		log_target(&w, res->pred);
	}
	if (!isfinite(bestchi)) {
		snprintf(res->reason, sizeof(res->reason),
			 w.logres ? "no assignment of the model's regimes "
				    "predicts every point above 0, which "
				    "ln(f/y) needs"
				  : "no assignment of the model's regimes gives "
				    "a finite residual");
		st = ML_ENOCONV;
		goto fail;
	}
	if (o->robust) {
		design(&w, &w.assign[best_c * w.n]);
		st = robust_fit(&w, best, res);
		if (st != ML_OK)
			goto fail;
	}
	{
		double *keep = NULL;

		if (o->robust) {
			keep = malloc(w.n * sizeof(double));
			if (!keep) {
				st = ML_ENOMEM;
				goto fail;
			}
			memcpy(keep, res->stud, w.n * sizeof(double));
		}
		{
			double cov[ML_FIT_MAXFREE * ML_FIT_MAXFREE];

			memcpy(cov, res->cov, sizeof(cov));
			st = ml_lsq_finish(&w, best, &w.assign[best_c * w.n], freeset,
				    res);
			if (st == ML_OK && o->robust) {
				/* GSL's robust covariance and residuals */
				memcpy(res->cov, cov, sizeof(cov));
				memcpy(res->stud, keep, w.n * sizeof(double));
			}
		}
		free(keep);
	}
	if (st != ML_OK)
		goto fail;
	ml_lsq_summarise(&w, data->use, res);
	ml_lsq_lack_of_fit(&w, res);
	/* Times near the largest double: the covariance overflows, and an
	 * interval of inf is no result. */
	for (j = 0; j < nfree; j++)
		if (res->status[j] == ML_FIT_FITTED && !isfinite(res->se[j])) {
			snprintf(res->reason, sizeof(res->reason),
				 "the covariance of %s is not finite (the times "
				 "are too large for double precision)",
				 freeset[j]);
			st = ML_ENOCONV;
			goto fail;
		}
	work_free(&w);
	return ML_OK;
fail:
	work_free(&w);
	{
		/* keep the diagnosis, drop the allocations */
		size_t nc = res->ncombo;
		const char *combo[ML_FIT_MAXFREE];
		bool sum = res->combo_sum, absent = res->combo_absent;
		char reason[sizeof(res->reason)];

		memcpy(combo, res->combo, sizeof(combo));
		memcpy(reason, res->reason, sizeof(reason));
		ml_fit_result_free(res);
		memset(res, 0, sizeof(*res));
		res->ncombo = nc;
		memcpy(res->combo, combo, sizeof(combo));
		res->combo_sum = sum;
		res->combo_absent = absent;
		memcpy(res->reason, reason, sizeof(reason));
	}
	return st;
}
