/*
 * fit.c - the fitting core: weighted least squares of a model's time
 * costs on measured latencies, with the global optimum over the model's
 * pieces, identifiability, covariance and diagnostics (mcastlat/fit.h).
 *
 * The method, for free costs theta >= 0 and fitted points i:
 *
 *   minimise  chi^2(theta) = sum_i w_i (f_i(theta) - y_i)^2,
 *   w_i = 1 / y_i^2 (relative errors) or 1, times the user's weight.
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

#include "fit/fitint.h"

void ml_fit_options_init(struct ml_fit_options *o)
{
	*o = (struct ml_fit_options){
	    .relative = true,
	    .robust = false,
	    .level = 0.95,
	    .cond_max = 1e10,
	    .outlier = 3,
	};
}

static const struct ml_fit_model *const models[] = {
    &ml_fit_cluster, &ml_fit_collective, &ml_fit_hypercube,
    &ml_fit_kbinomial, &ml_fit_torus};

const struct ml_fit_model *ml_fit_model_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(models) / sizeof(models[0]); i++)
		if (strcmp(models[i]->name, name) == 0)
			return models[i];
	return NULL;
}

size_t ml_fit_params_size(const struct ml_fit_model *m)
{
	return m->size;
}

size_t ml_fit_param_names(const struct ml_fit_model *m, const char **names,
			  size_t max)
{
	size_t i;

	for (i = 0; i < m->nparams && i < max; i++)
		names[i] = m->params[i].name;
	return m->nparams;
}

static long param_index(const struct ml_fit_model *m, const char *name)
{
	size_t i;

	for (i = 0; name && i < m->nparams; i++)
		if (strcmp(m->params[i].name, name) == 0)
			return (long)i;
	return -1;
}

static double *field(const struct ml_fit_model *m, void *p, size_t k)
{
	return (double *)((char *)p + m->params[k].offset);
}

enum ml_status ml_fit_get(const struct ml_fit_model *m, const void *params,
			  const char *name, double *value)
{
	long k = param_index(m, name);

	if (k < 0)
		return ML_EINVAL;
	*value = *field(m, (void *)params, (size_t)k);
	return ML_OK;
}

enum ml_status ml_fit_set(const struct ml_fit_model *m, void *params,
			  const char *name, double value)
{
	long k = param_index(m, name);

	if (k < 0)
		return ML_EINVAL;
	*field(m, params, (size_t)k) = value;
	return ML_OK;
}

/* ------------------------------------------------------------------ */
/* The state of one fit. */

struct work {
	const struct ml_fit_model *m;
	const struct ml_fit_options *o;
	size_t n, p, nfit;
	size_t fidx[ML_FIT_MAXFREE]; /* free costs' indices in m->params */
	unsigned char *pts;	     /* working copy of the points */
	const double *y;
	double *sw;	 /* square root of each point's weight (1/y_i:
			  * no underflow of 1/y_i^2 for huge times) */
	size_t *fit_of;	 /* the fitted points' indices */
	size_t *rep;	 /* the first point with the same inputs */
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
};

static void *point(struct work *w, size_t i)
{
	return w->pts + i * w->m->size;
}

static void set_theta(struct work *w, const double *theta)
{
	size_t i, j;

	for (i = 0; i < w->n; i++)
		for (j = 0; j < w->p; j++)
			*field(w->m, point(w, i), w->fidx[j]) = theta[j];
}

/* chi^2 of the true model at theta over the fitted points, and the
 * prediction of every point in pred[] (NaN where the model has none).
 * INFINITY when the model fails at a fitted point. */
static double true_chi2(struct work *w, const double *theta, double *pred)
{
	double chi2 = 0, f;
	size_t i, k;

	set_theta(w, theta);
	for (i = 0; i < w->n; i++) {
		if (w->rep[i] != i) {
			pred[i] = pred[w->rep[i]]; /* a repeated run */
			continue;
		}
		if (w->m->eval(point(w, i), &f) != ML_OK || !isfinite(f))
			f = NAN;
		pred[i] = f;
	}
	for (k = 0; k < w->nfit; k++) {
		i = w->fit_of[k];
		if (isnan(pred[i]))
			return INFINITY;
		double e = w->sw[i] * (pred[i] - w->y[i]);

		chi2 += e * e;
	}
	return chi2;
}

/* The pieces of every point at the starting parameters (free costs 0). */
static enum ml_status make_pieces(struct work *w, struct ml_diag *d)
{
	double zero[ML_FIT_MAXFREE] = {0}, f0, f1;
	size_t i, j;

	set_theta(w, zero);
	for (i = 0; i < w->n; i++) {
		struct fit_piece *pc = &w->pc[i * FIT_NPIECE];

		if (w->rep[i] != i) {
			memcpy(pc, &w->pc[w->rep[i] * FIT_NPIECE],
			       FIT_NPIECE * sizeof(*pc));
			w->npc[i] = w->npc[w->rep[i]];
			continue;
		}
		if (w->m->pieces) {
			w->npc[i] = (unsigned char)w->m->pieces(point(w, i), pc);
			continue;
		}
		/* Affine in its costs: the value at 0 and the change for a
		 * unit step of each free cost; the change for a step of 2
		 * must be twice that, or the model is not affine. */
		if (w->m->eval(point(w, i), &f0) != ML_OK || !isfinite(f0))
			return ml_diag_set(d, NULL,
					   "point %zu: the model has no value "
					   "there at the fixed parameters",
					   i + 1);
		memset(pc, 0, sizeof(*pc));
		pc->value = f0;
		for (j = 0; j < w->p; j++) {
			double *x = field(w->m, point(w, i), w->fidx[j]);
			double f2;

			*x = 1;
			if (w->m->eval(point(w, i), &f1) != ML_OK)
				f1 = NAN;
			*x = 2;
			if (w->m->eval(point(w, i), &f2) != ML_OK)
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

static double piece_at(const struct work *w, const struct fit_piece *pc,
		       const double *theta)
{
	double v = pc->value;
	size_t j;

	for (j = 0; j < w->p; j++)
		v += pc->row[w->fidx[j]] * theta[j];
	return v;
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
static enum ml_status local_pieces(struct work *w, const double *theta,
				   struct ml_diag *d)
{
	double f0, f1;
	size_t i, j;

	set_theta(w, theta);
	for (i = 0; i < w->n; i++) {
		struct fit_piece *pc = &w->pc[i * FIT_NPIECE];

		w->npc[i] = 1;
		if (w->rep[i] != i) {
			*pc = w->pc[w->rep[i] * FIT_NPIECE];
			continue;
		}
		if (w->m->eval(point(w, i), &f0) != ML_OK || !isfinite(f0))
			return ml_diag_set(d, NULL,
					   "point %zu: the model has no value "
					   "there at the starting parameters",
					   i + 1);
		memset(pc, 0, sizeof(*pc));
		pc->value = f0;
		for (j = 0; j < w->p; j++) {
			double *x = field(w->m, point(w, i), w->fidx[j]);
			double h = 1e-6 * (theta[j] > 0 ? theta[j] : 1);

			*x = theta[j] + h;
			if (w->m->eval(point(w, i), &f1) != ML_OK ||
			    !isfinite(f1))
				f1 = f0;
			*x = theta[j];
			pc->row[w->fidx[j]] = (f1 - f0) / h;
			pc->value -= pc->row[w->fidx[j]] * theta[j];
		}
	}
	return ML_OK;
}

static double solve_nonneg(struct work *w, double *theta);
static void design(struct work *w, const unsigned char *a);

/* Most linearisations of a local fit, and step halvings of each. */
#define LOCAL_ITER 60
#define LOCAL_HALVE 8

/*
 * A local model's fit (Gauss-Newton with step halving, on theta >= 0):
 * from theta (the start), linearise, solve the non-negative linear
 * least-squares problem of the tangents, and move towards its solution,
 * halving the step until the true chi^2 falls; stop when it falls by
 * less than 1e-10 of itself, or no step lowers it.  Each iteration
 * evaluates the model (p + 1) times per distinct point.  Returns the
 * chi^2 at the final theta (INFINITY: no value at the start), with the
 * pieces left at that theta.
 */
static double local_fit(struct work *w, double *theta, double *pred,
			struct ml_diag *d)
{
	double chi = true_chi2(w, theta, pred), t[ML_FIT_MAXFREE];
	double tl[ML_FIT_MAXFREE];
	size_t it, h, j;

	if (!isfinite(chi))
		return INFINITY;
	for (it = 0; it < LOCAL_ITER; it++) {
		double step = 1, c = INFINITY;

		if (local_pieces(w, theta, d) != ML_OK)
			return INFINITY;
		design(w, w->assign);
		if (!isfinite(solve_nonneg(w, tl)))
			break;
		for (h = 0; h < LOCAL_HALVE; h++, step /= 2) {
			for (j = 0; j < w->p; j++)
				t[j] = fmax(0, theta[j] +
						   step * (tl[j] - theta[j]));
			c = true_chi2(w, t, pred);
			if (c < chi)
				break;
		}
		if (!(c < chi))
			break;
		memcpy(theta, t, w->p * sizeof(*t));
		if (chi - c <= 1e-10 * chi) {
			chi = c;
			break;
		}
		chi = c;
	}
	chi = true_chi2(w, theta, pred);
	if (local_pieces(w, theta, d) != ML_OK)
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
	double best = piece_at(w, &pc[0], theta);
	unsigned j;

	*which = 0;
	for (j = 1; j < w->npc[i]; j++) {
		double v = piece_at(w, &pc[j], theta);

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

		gsl_vector_set(f, k,
			       w->sw[i] *
				   (top_piece(w, i, x->data, &a) - w->y[i]));
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
		const struct fit_piece *pc;

		top_piece(w, i, x->data, &a);
		pc = &w->pc[i * FIT_NPIECE + a];
		for (j = 0; j < w->p; j++)
			gsl_matrix_set(J, k, j,
				       w->sw[i] * pc->row[w->fidx[j]]);
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
			c = true_chi2(w, t, pred);
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
			double v = piece_at(w, &pc[q], theta);

			tied[q] = fabs(v - pred[i]) <= tol;
			exact[q] = fabs(v - pred[i]) <= etol;
			rise[q] = piece_at(w, &pc[q], up) - v;
		}
		if (c >= w->npc[i] || !exact[c]) {
			/* the candidate's piece is not the prediction */
			for (q = 0, c = 0; q < w->npc[i]; q++)
				if (fabs(piece_at(w, &pc[q], theta) - pred[i]) <
				    fabs(piece_at(w, &pc[c], theta) - pred[i]))
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

/* Fill the statistics of res from theta (the final estimate). */
static enum ml_status finish(struct work *w, const double *theta,
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

	chi2 = true_chi2(w, theta, res->pred);
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
	} else {
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
static void summarise(struct work *w, const bool *use,
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

		res->resid[i] = res->pred[i] - w->y[i];
		r = res->rel[i] = res->resid[i] / w->y[i];
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

/*
 * The lack-of-fit F test (Draper and Smith, Applied Regression
 * Analysis, 3rd ed., 1998, section 2.1): the weighted chi^2 splits into
 * pure error, the runs' spread about their point's weighted mean
 * (which no model of the inputs can remove), and lack of fit, the rest.
 * With relative weights, w_i = 1 / y_i^2 in both parts.
 */
static void lack_of_fit(struct work *w, struct ml_fit_result *res)
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

static void work_free(struct work *w)
{
	free(w->pts);
	free(w->sw);
	free(w->fit_of);
	free(w->rep);
	free(w->pc);
	free(w->npc);
	free(w->assign);
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

void ml_fit_result_free(struct ml_fit_result *res)
{
	free(res->pred);
	free(res->resid);
	free(res->rel);
	free(res->stud);
	free(res->flag);
	res->pred = res->resid = res->rel = res->stud = NULL;
	res->flag = NULL;
}

double ml_fit_aic(const struct ml_fit_result *res)
{
	double n = (double)res->nfit;

	if (res->nfit == 0 || !(res->chi2 >= 0))
		return NAN;
	if (res->chi2 == 0)
		return -INFINITY;
	return n * log(res->chi2 / n) +
	       2.0 * ((double)res->nfit - res->dof + 1);
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
		long k = param_index(w->m, freeset[j]);

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
	w->y = data->y;
	w->pts = malloc(w->n * w->m->size);
	w->sw = malloc(w->n * sizeof(*w->sw));
	w->fit_of = malloc(w->n * sizeof(*w->fit_of));
	w->rep = malloc(w->n * sizeof(*w->rep));
	w->pc = calloc(w->n * FIT_NPIECE, sizeof(*w->pc));
	w->npc = calloc(w->n, 1);
	if (!w->pts || !w->sw || !w->fit_of || !w->rep || !w->pc || !w->npc)
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
		w->theta0[i] = fmax(0, *field(w->m, point(w, 0), w->fidx[i]));
	set_theta(w, zero);
	for (i = 0; i < w->n; i++) {
		struct ml_diag dd = {0};

		if (w->m->validate(point(w, i), &dd) != ML_OK)
			return ml_diag_set(d, dd.param, "point %zu: %s", i + 1,
					   dd.msg);
		w->sw[i] = (o->relative ? 1 / data->y[i] : 1) *
			   (data->w ? sqrt(data->w[i]) : 1);
		if (!data->use || data->use[i])
			w->fit_of[w->nfit++] = i;
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

enum ml_status ml_fit(const struct ml_fit_model *m,
		      const struct ml_fit_data *data, const char *const *freeset,
		      size_t nfree, const struct ml_fit_options *o,
		      struct ml_fit_result *res, struct ml_diag *d)
{
	struct ml_fit_options defaults;
	struct work w = {.m = m};
	double theta[ML_FIT_MAXFREE] = {0}, best[ML_FIT_MAXFREE] = {0};
	double bestchi = INFINITY;
	double top[NTOP][ML_FIT_MAXFREE], topchi[NTOP];
	size_t c, best_c = 0, j, topc[NTOP];
	enum ml_status st;

	for (c = 0; c < NTOP; c++)
		topchi[c] = INFINITY;
	if (!o) {
		ml_fit_options_init(&defaults);
		o = &defaults;
	}
	memset(res, 0, sizeof(*res));
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
	if (m->local) {
		memcpy(best, w.theta0, sizeof(best));
		bestchi = local_fit(&w, best, res->pred, NULL);
		w.ncand = 0; /* no candidates: the loops below do nothing */
	}
	/* Every candidate assignment, scored by the true model; the
	 * three lowest are polished, and the lowest after that wins. */
	for (c = 0; c < w.ncand; c++) {
		double chi;
		size_t r;

		design(&w, &w.assign[c * w.n]);
		if (!isfinite(solve_nonneg(&w, theta)))
			continue;
		chi = true_chi2(&w, theta, res->pred);
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
	for (c = 0; c < NTOP && w.ncand && isfinite(topchi[c]); c++) {
		double chi = w.m->pieces ? polish(&w, top[c], topchi[c],
						  res->pred)
					 : topchi[c];

		if (chi < bestchi) {
			bestchi = chi;
			best_c = topc[c];
			memcpy(best, top[c], sizeof(best));
		}
	}
	if (!isfinite(bestchi)) {
		snprintf(res->reason, sizeof(res->reason),
			 "no assignment of the model's regimes gives a finite "
			 "residual");
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
			st = finish(&w, best, &w.assign[best_c * w.n], freeset,
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
	summarise(&w, data->use, res);
	lack_of_fit(&w, res);
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

/* ------------------------------------------------------------------ */
/* --free auto */

static bool listed(const char *const *names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* Set the named costs to 0 in every point of a copy. */
static void zero_costs(const struct ml_fit_model *m, void *pts, size_t n,
		       const char *const *names, size_t nn)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < nn; j++)
			ml_fit_set(m, (char *)pts + i * m->size, names[j], 0);
}

/* The state of --free auto: the free set and the zeroed partners so
 * far, and what a trial needs. */
struct autofit {
	const struct ml_fit_model *m;
	const struct ml_fit_data *data;
	struct ml_fit_data trial;
	void *copy;
	const char *const *given;
	size_t ngiven;
	const struct ml_fit_options *o;
	const char **freeset, **zeroed;
	size_t nf, nz;
	char reason[160];
};

/* Try adding the carriers grp[0..ng) to the free set: kept when the fit
 * stays determined.  Returns ML_OK (kept), ML_EUNIDENT (not kept) or
 * ML_ENOMEM. */
static enum ml_status try_group(struct autofit *af,
				const struct fit_carrier *const *grp,
				size_t ng)
{
	const char *tf[ML_FIT_MAXFREE], *tz[2 * ML_FIT_MAXFREE];
	struct ml_fit_result res;
	size_t ntf = af->nf, ntz = 0, g, j;
	enum ml_status st;

	if (af->nf + ng > ML_FIT_MAXFREE)
		return ML_EUNIDENT;
	memcpy(tf, af->freeset, af->nf * sizeof(*tf));
	for (g = 0; g < ng; g++)
		tf[ntf++] = grp[g]->name;
	/* partners so far, less the new carriers, plus their own */
	for (j = 0; j < af->nz; j++)
		if (!listed(tf, ntf, af->zeroed[j]))
			tz[ntz++] = af->zeroed[j];
	for (g = 0; g < ng; g++)
		for (j = 0; grp[g]->partners[j]; j++) {
			const char *q = grp[g]->partners[j];

			if (!listed(af->given, af->ngiven, q) &&
			    !listed(tf, ntf, q) && !listed(tz, ntz, q))
				tz[ntz++] = q;
		}
	memcpy(af->copy, af->data->points, af->data->n * af->m->size);
	zero_costs(af->m, af->copy, af->data->n, tz, ntz);
	st = ml_fit(af->m, &af->trial, tf, ntf, af->o, &res, NULL);
	if (st == ML_ENOMEM)
		return st;
	if (st == ML_ENOCONV) {
		/* a solver failure is no answer about the data: say so */
		snprintf(af->reason, sizeof(af->reason), "%s", res.reason);
		return st;
	}
	if (st != ML_OK)
		return ML_EUNIDENT; /* EUNIDENT, EINVAL: not these */
	ml_fit_result_free(&res);
	memcpy(af->freeset, tf, ntf * sizeof(*tf));
	memcpy(af->zeroed, tz, ntz * sizeof(*tz));
	af->nf = ntf;
	af->nz = ntz;
	return ML_OK;
}

enum ml_status ml_fit_auto(const struct ml_fit_model *m,
			   const struct ml_fit_data *data,
			   const char *const *given, size_t ngiven,
			   const struct ml_fit_options *o, const char **freeset,
			   size_t *nfree, const char **zeroed,
			   size_t *nzeroed, struct ml_diag *d)
{
	struct autofit af = {m,	  data,	 *data, NULL, given, ngiven,
			     o,	  freeset, zeroed, 0,	  0, ""};
	const struct fit_carrier *failed[ML_FIT_MAXFREE], *grp[ML_FIT_MAXFREE];
	size_t c, g, nfailed = 0, nleft;
	enum ml_status st = ML_OK;

	*nfree = *nzeroed = 0;
	if (!m || !data || !data->points || data->n == 0)
		return ml_diag_set(d, NULL, "no data points");
	af.copy = malloc(data->n * m->size);
	if (!af.copy)
		return ML_ENOMEM;
	af.trial.points = af.copy;
	/*
	 * Each carrier in turn; one the data do not determine alone waits
	 * in failed[] and is tried again together with each later one (the
	 * cluster model's O_s and O_r + U_r are determined only together,
	 * by the eq 2.9 regime at two depths), and alone once more at the
	 * end, beside all that was kept after it.
	 */
	for (c = 0; c < m->ncarriers && st != ML_ENOMEM && st != ML_ENOCONV;
	     c++) {
		const struct fit_carrier *cr = &m->carriers[c];

		if (listed(given, ngiven, cr->name))
			continue;
		st = try_group(&af, &cr, 1);
		if (st == ML_EUNIDENT && nfailed > 0) {
			for (g = 0; g < nfailed; g++)
				grp[g] = failed[g];
			grp[nfailed] = cr;
			st = try_group(&af, grp, nfailed + 1);
			if (st == ML_OK) {
				nfailed = 0;
				continue;
			}
		}
		if (st == ML_EUNIDENT && nfailed < ML_FIT_MAXFREE)
			failed[nfailed++] = cr;
	}
	for (g = 0, nleft = nfailed;
	     g < nleft && st != ML_ENOMEM && st != ML_ENOCONV; g++)
		st = try_group(&af, &failed[g], 1);
	if (st == ML_EUNIDENT)
		st = ML_OK;
	free(af.copy);
	if (st == ML_ENOCONV && d)
		snprintf(d->msg, sizeof(d->msg), "%s", af.reason);
	if (st != ML_OK)
		return st;
	zero_costs(m, (void *)data->points, data->n, zeroed, af.nz);
	*nfree = af.nf;
	*nzeroed = af.nz;
	return ML_OK;
}
