/*
 * collective_tune_cv.c - the corrected predictor's correction
 * (collective_tune.c: the residuals interpolated over log M and log P)
 * and how far it can be trusted: leave-one-P-out and
 * leave-one-size-out cross-validation of it, by gap of P, size class
 * and algorithm, best's threshold on the candidates' errors less the
 * default's, and how far two broadcasts' residuals lie apart at one
 * cell (the default's term where its decision runs what no cell read
 * ran).
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_interp.h>

#include "mcastlat/collective.h"
#include "mcastlat/tune.h"
#include "models/tune_int.h"

#define LN2 0.69314718055994530942

/* The residual of row w at log size lm: linear between its sizes, held
 * at its first and last. */
static double row_at(const struct trow *w, const struct tpt *pt, double lm)
{
	if (w->n == 1 || lm <= w->x[0])
		return pt[w->first].r;
	if (lm >= w->x[w->n - 1])
		return pt[w->first + w->n - 1].r;
	return gsl_interp_eval(w->interp, w->x, w->y, lm, NULL);
}

/* Doublings of M from lm to row w's nearest measured size. */
static double msg_dist(const struct trow *w, double lm)
{
	size_t k;
	double d = INFINITY;

	for (k = 0; k < w->n; k++)
		d = fmin(d, fabs(lm - w->x[k]));
	return d / LN2;
}

/* Algorithm a's rows around ranks, row skip (an index into t->row, or
 * (size_t)-1) left out: *lo the last at or below it, *hi the first at or
 * above ((size_t)-1: none). */
void ml_tune_rows_around(const struct ml_coll_tune *t, int a, long long ranks,
			size_t skip, size_t *lo, size_t *hi)
{
	size_t i;

	*lo = *hi = (size_t)-1;
	for (i = t->afirst[a]; i < t->afirst[a] + t->an[a]; i++) {
		if (i == skip)
			continue;
		if (t->row[i].ranks <= ranks)
			*lo = i;
		if (t->row[i].ranks >= ranks && *hi == (size_t)-1)
			*hi = i;
	}
}

/*
 * The correction of algorithm a at (ranks, lm), row skip (an index into
 * t->row, or (size_t)-1) left out: linear in log P between the rows
 * around ranks, held beyond.  *dist: doublings of P from ranks to the
 * nearest row used; *dm (may be NULL): doublings of M from lm to the
 * nearest measured size of the rows used (the farther row's).  NaN when
 * a has no row but skip.
 */
double ml_tune_corr_at(const struct ml_coll_tune *t, int a, long long ranks,
		      double lm, size_t skip, double *dist, double *dm)
{
	size_t lo, hi;
	double rl, rh, f;

	*dist = 0;
	ml_tune_rows_around(t, a, ranks, skip, &lo, &hi);
	if (lo == (size_t)-1 && hi == (size_t)-1)
		return NAN;
	if (dm)
		*dm = fmax(lo == (size_t)-1 ? 0 : msg_dist(&t->row[lo], lm),
			   hi == (size_t)-1 ? 0 : msg_dist(&t->row[hi], lm));
	if (lo == (size_t)-1) {
		*dist = log2((double)t->row[hi].ranks / (double)ranks);
		return row_at(&t->row[hi], t->pt, lm);
	}
	if (hi == (size_t)-1) {
		*dist = log2((double)ranks / (double)t->row[lo].ranks);
		return row_at(&t->row[lo], t->pt, lm);
	}
	rl = row_at(&t->row[lo], t->pt, lm);
	if (lo == hi)
		return rl;
	rh = row_at(&t->row[hi], t->pt, lm);
	*dist = fmin(log2((double)ranks / (double)t->row[lo].ranks),
		     log2((double)t->row[hi].ranks / (double)ranks));
	f = log((double)ranks / (double)t->row[lo].ranks) /
	    log((double)t->row[hi].ranks / (double)t->row[lo].ranks);
	return rl + f * (rh - rl);
}

/*
 * The term of each gap between measured P (t->pd, t->qgap): sqrt of
 * the level quantile of v (cross_validate) over the points of every
 * algorithm's rows at the gap's two ends (one end beyond the edges);
 * where they hold fewer than MIN_Q, the size classes' largest.  The
 * errors are not alike over P (a packed node's large P miss by more):
 * the interval at a P reads the rows around it.  uk: each point's v
 * (NaN: none); w: room for npt values.
 */
static enum ml_status gap_quantiles(struct ml_coll_tune *t, const double *uk,
				    double *w, double level)
{
	size_t i, k, g, n, np = 0;
	double qmax = 0;
	int a, c;

	for (c = 0; c < ML_COLL_NCLASS; c++)
		if (t->info.q[c] > qmax)
			qmax = t->info.q[c];
	t->qgap = malloc((NA + 1) * (t->nrow + 2) * sizeof *t->qgap);
	if (!t->qgap)
		return ML_ENOMEM;
	np = t->np;
	/* a = NA: every algorithm's rows, first (the fallback) */
	for (a = NA; a >= 0; a--)
		for (g = 0; g <= np; g++) {
			size_t i0 = a == NA ? 0 : t->afirst[a],
			       i1 = a == NA ? t->nrow : i0 + t->an[a];

			n = 0;
			for (i = i0; i < i1; i++) {
				long long r = t->row[i].ranks;

				if (!((g > 0 && r == t->pd[g - 1]) ||
				      (g < np && r == t->pd[g])))
					continue;
				for (k = t->row[i].first;
				     k < t->row[i].first + t->row[i].n; k++)
					if (!isnan(uk[k]))
						w[n++] = uk[k];
			}
			t->qgap[(size_t)a * (np + 1) + g] =
			    n >= MIN_Q
				? sqrt(fmax(ml_tune_quantile(w, n, level), 0))
			    : a == NA ? qmax
				      : t->qgap[(size_t)NA * (np + 1) + g];
		}
	return ML_OK;
}

/* Whether sizes k0 < k1 of row w lie on the two sides of the eager
 * limit (the protocol switch). */
static bool crosses(const struct ml_coll_tune *t, const struct trow *w,
		    size_t k0, size_t k1)
{
	return t->pt[w->first + k0].msg <= t->machine.eager &&
	       t->pt[w->first + k1].msg > t->machine.eager;
}

/* Whether row w measured the eager limit's two sides at most a doubling
 * apart: then no prediction interpolates across the switch, and
 * neither should leaving a size out. */
static bool tight_switch(const struct ml_coll_tune *t, const struct trow *w)
{
	size_t k;

	for (k = 1; k < w->n; k++)
		if (crosses(t, w, k - 1, k))
			return w->x[k] - w->x[k - 1] <= LN2 + 1e-9;
	return false;
}

/*
 * Leave-one-size-out: each measured size of a row between two others
 * predicted linearly in log M from them, its error e at dm doublings of
 * M from the nearer; qm^2 the level quantile of (e^2 - run_q^2) / dm,
 * as cross_validate's q (the sparse plan measures every other size:
 * the sizes between are a doubling from one); not a size whose two
 * neighbours lie across the eager limit where the row measured its two
 * sides a doubling apart (tight_switch).  0 without such a size.
 */
static enum ml_status size_validate(struct ml_coll_tune *t, double level)
{
	double *v = malloc((t->npt + 1) * sizeof *v);
	size_t i, k, n;
	int a;

	if (!v)
		return ML_ENOMEM;
	/* a = NA: every algorithm's rows, first (the fallback) */
	for (a = NA; a >= 0; a--) {
		size_t i0 = a == NA ? 0 : t->afirst[a],
		       i1 = a == NA ? t->nrow : i0 + t->an[a];

		for (i = i0, n = 0; i < i1; i++) {
			const struct trow *w = &t->row[i];
			bool tight = tight_switch(t, w);

			for (k = 1; k + 1 < w->n; k++) {
				if (tight && crosses(t, w, k - 1, k + 1))
					continue; /* no prediction does */
				double f = (w->x[k] - w->x[k - 1]) /
					   (w->x[k + 1] - w->x[k - 1]),
				       e = t->pt[w->first + k].r_meas -
					   w->y[k - 1] -
					   f * (w->y[k + 1] - w->y[k - 1]),
				       dm = fmin(w->x[k] - w->x[k - 1],
						 w->x[k + 1] - w->x[k]) /
					    LN2;

				const struct tpt *p = t->pt + w->first + k;
				/* the three medians' noise in e */
				double nv =
				    p[0].se * p[0].se +
				    (1 - f) * (1 - f) * p[-1].se * p[-1].se +
				    f * f * p[1].se * p[1].se;

				v[n++] =
				    (e * e - t->z * t->z * nv) / fmax(dm, 1e-9);
			}
		}
		t->qm[a] = n >= MIN_Q
			       ? sqrt(fmax(ml_tune_quantile(v, n, level), 0))
			   : a == NA ? NAN /* size_fallback */
				     : t->qm[NA];
	}
	free(v);
	return ML_OK;
}

/* Where no row held enough sizes to leave one out, a doubling of M is
 * taken as uncertain as one of P (the largest class's q), or, with no
 * P left out either, as one of P beyond the measured ones (z times the
 * growth): never as certain, a zero-width interval at a size nobody
 * measured. */
void ml_tune_size_fallback(struct ml_coll_tune *t)
{
	double f = 0;
	int c, a;

	for (c = 0; c < ML_COLL_NCLASS; c++)
		f = fmax(f, t->info.q[c]);
	if (!(f > 0))
		f = t->z * t->info.growth;
	for (a = 0; a <= NA; a++)
		if (isnan(t->qm[a]))
			t->qm[a] = f;
	t->info.qm = t->qm[NA];
}

/*
 * Leave-one-P-out: each row of each algorithm predicted from the others.
 * An error e at a row dist doublings of P from the nearest row left in
 * is the noise of the medians in it (its own, se^2, and about half as
 * much from the rows interpolated) and the error of interpolating a
 * residual that wanders like a random walk in log P: e^2 = q^2 dist +
 * 1.5 z^2 se^2 at the level, q^2 the level quantile of v = (e^2 - 1.5
 * z^2 se^2) / dist by size class (then |e| <= sqrt(q^2 dist + 1.5 z^2
 * se^2) holds for that share of the left-out points, whatever their
 * dist; the points the judge of mcastlat-collective(1) predicts lie
 * nearer than a row left out).  Of a forced algorithm's e / sqrt(dist)
 * less the default's at the same cell, the level quantile (one-sided:
 * how much a predicted gain can be too large) gives best's threshold:
 * each candidate's own where it has MIN_Q (t->qdiff_a), else all
 * candidates' (info.qdiff, which the report shows).
 */
enum ml_status ml_tune_cross_validate(struct ml_coll_tune *t, double level)
{
	double *ue[ML_COLL_NCLASS], *ud, *ea, *dd, *uk;
	size_t nue[ML_COLL_NCLASS] = {0}, nud = 0, i, j, k, a, nall = 0;
	int c;
	enum ml_status st = ML_ENOMEM;

	ea = malloc((t->npt + 1) * sizeof *ea);
	dd = malloc((t->npt + 1) * sizeof *dd);
	ud = malloc(2 * (t->npt + 1) * sizeof *ud);
	uk = malloc((t->npt + 1) * sizeof *uk);
	for (c = 0; c < ML_COLL_NCLASS; c++)
		ue[c] = malloc((t->npt + 1) * sizeof(double));
	if (!ea || !dd || !ud || !uk)
		goto out;
	for (c = 0; c < ML_COLL_NCLASS; c++)
		if (!ue[c])
			goto out;
	for (i = 0; i < t->npt; i++)
		ea[i] = dd[i] = uk[i] = NAN;
	for (a = 0; a < NA; a++)
		for (i = t->afirst[a]; i < t->afirst[a] + t->an[a]; i++) {
			const struct trow *w = &t->row[i];

			if (t->an[a] < 2)
				break;
			for (k = w->first; k < w->first + w->n; k++) {
				double d, e;

				e = t->pt[k].r_meas -
				    ml_tune_corr_at(t, (int)a, w->ranks,
						    t->pt[k].lm, i, &d, NULL);
				ea[k] = e;
				dd[k] = d > 0 ? d : 1;
				c = ml_coll_msg_class(t->pt[k].msg);
				/* its median's noise and, about half as
				 * much, the interpolated rows' */
				uk[k] =
				    (e * e - 1.5 * t->z * t->z * t->pt[k].se *
						 t->pt[k].se) /
				    dd[k];
				ue[c][nue[c]++] = uk[k];
			}
		}
	/* A forced algorithm's error less the default's at a cell where
	 * both were left out. */
	for (a = 1; a < NA; a++) {
		size_t from = nud;

		for (i = t->afirst[a]; i < t->afirst[a] + t->an[a]; i++) {
			const struct trow *w = &t->row[i];
			size_t d;

			for (d = t->afirst[0]; d < t->afirst[0] + t->an[0]; d++)
				if (t->row[d].ranks == w->ranks)
					break;
			if (d == t->afirst[0] + t->an[0])
				continue;
			for (k = w->first; k < w->first + w->n; k++)
				for (j = t->row[d].first;
				     j < t->row[d].first + t->row[d].n; j++)
					if (t->pt[j].msg == t->pt[k].msg &&
					    !isnan(ea[j]) && !isnan(ea[k]))
						ud[nud++] =
						    (ea[k] - ea[j]) /
						    sqrt(fmax(dd[k], dd[j]));
		}
		/* its own where it has enough: a noisy candidate's errors
		 * (scatter-allgather-ring's 700 us at P = 92 beside
		 * binomial's 9) say nothing of another's */
		t->qdiff_a[a] =
		    nud - from >= MIN_Q
			? ml_tune_quantile(ud + from, nud - from, level)
			: NAN;
	}
	for (c = 0; c < ML_COLL_NCLASS; c++) {
		t->info.cv += nue[c];
		for (k = 0; k < nue[c]; k++)
			ud[nud + nall++] = ue[c][k];
		t->info.q[c] =
		    nue[c] >= MIN_Q
			? sqrt(fmax(ml_tune_quantile(ue[c], nue[c], level), 0))
			: NAN;
	}
	/* A class with too few errors takes the pooled quantile. */
	{
		double q =
		    sqrt(fmax(ml_tune_quantile(ud + nud, nall, level), 0));

		for (c = 0; c < ML_COLL_NCLASS; c++)
			if (isnan(t->info.q[c]))
				t->info.q[c] = q;
	}
	t->info.qdiff = ml_tune_quantile(ud, nud, level);
	for (a = 1; a < NA; a++)
		if (isnan(t->qdiff_a[a]))
			t->qdiff_a[a] = t->info.qdiff;
	st = gap_quantiles(t, uk, ud + nud, level);
	if (st == ML_OK)
		st = size_validate(t, level);
out:
	free(ea);
	free(dd);
	free(ud);
	free(uk);
	for (c = 0; c < ML_COLL_NCLASS; c++)
		free(ue[c]);
	return st;
}

/* The broadcast that point x of algorithm a ran (the default's: its
 * decision's) is b's own: a forced b, or the default running b. */
static bool ran_as(int a, const struct tpt *x, int b)
{
	return a == b || (a == ML_COLL_DEFAULT && (int)x->ran == b);
}

/* A merge's step over two ascending lists at keys x and y: where they
 * differ, the index of the smaller moves on (true). */
static bool behind(long long x, long long y, size_t *i, size_t *j)
{
	if (x == y)
		return false;
	if (x < y)
		++*i;
	else
		++*j;
	return true;
}

/* The pairs' term of algo_spread for algorithms a < b: every cell (P,
 * M) both measured that ran different broadcasts; their values to v. */
static size_t spread_pairs(const struct ml_coll_tune *t, int a, int b,
			   double *v)
{
	size_t i = t->afirst[a], j = t->afirst[b], k, l, n = 0;

	/* rows by P and points by size, ascending: merged */
	while (i < t->afirst[a] + t->an[a] && j < t->afirst[b] + t->an[b]) {
		const struct trow *u = &t->row[i], *w = &t->row[j];

		if (behind(u->ranks, w->ranks, &i, &j))
			continue;
		for (k = u->first, l = w->first;
		     k < u->first + u->n && l < w->first + w->n;) {
			const struct tpt *x = t->pt + k, *y = t->pt + l;
			double d = x->r - y->r;

			if (behind(x->msg, y->msg, &k, &l))
				continue;
			if (!ran_as(a, x, b) && !ran_as(b, y, a))
				v[n++] =
				    d * d - t->z * t->z *
						(x->se * x->se + y->se * y->se);
			k++;
			l++;
		}
		i++;
		j++;
	}
	return n;
}

/*
 * How differently the model misses two broadcasts at one point
 * (t->qalg): the level quantile of |r_a - r_b|, less the two medians'
 * noise, over the cells (P, M) where two algorithms were measured that
 * ran different broadcasts (the default's cell by its decision's).
 * Where the default's decision runs a broadcast that none of the cells
 * its correction is read from ran, the correction is another
 * broadcast's residual: this is how far that can be off (EPYC packed by
 * node, measured at P = 128 and 255, where the decision runs binomial
 * or binary: below 128 it runs knomial, measured at 0.37 of the
 * corrected prediction, all 768 cells outside an interval 1.6 wide).
 * With fewer than MIN_Q pairs, the largest class's q (size_fallback's
 * reading: as uncertain as a doubling of P), and info.qalg NaN: not
 * measured.
 */
/* The largest size class's q (size_fallback's reading), or z times the
 * growth where none: what a term not measured is taken to be, as
 * uncertain as a doubling of P. */
double ml_tune_largest_q(const struct ml_coll_tune *t)
{
	double q = 0;
	int c;

	for (c = 0; c < ML_COLL_NCLASS; c++)
		q = fmax(q, t->info.q[c]);
	return q > 0 ? q : t->z * t->info.growth;
}

enum ml_status ml_tune_algo_spread(struct ml_coll_tune *t, double level)
{
	double *v = malloc((t->npt * NA + 1) * sizeof *v);
	size_t n = 0;
	int a, b;

	if (!v)
		return ML_ENOMEM;
	for (a = 0; a < NA; a++)
		for (b = a + 1; b < NA && t->an[a] > 0; b++)
			if (t->an[b] > 0)
				n += spread_pairs(t, a, b, v + n);
	if (n >= MIN_Q) {
		t->qalg = t->info.qalg =
		    sqrt(fmax(ml_tune_quantile(v, n, level), 0));
	} else {
		t->info.qalg = NAN; /* not measured */
		t->qalg = ml_tune_largest_q(t);
	}
	free(v);
	return ML_OK;
}
