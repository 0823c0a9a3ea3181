/*
 * collective_tune.c - measured where measured, the model between (SPEC
 * 10.7): the model corrected by its measured log residuals (the table
 * of collective_meas.c) interpolated over log P and log M, the
 * intervals of leave-one-P-out and leave-one-size-out cross-validation
 * of that corrected predictor, and best's pick where measured cells
 * decide (mcastlat/tune.h).
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_interp.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "mcastlat/collective.h"
#include "mcastlat/tune.h"
#include "models/tune_int.h"

#define LN2 0.69314718055994530942

/* Whether (ran, comp) indexes ml_coll_tune's dran. */
static bool ran_ok(enum ml_coll_alg ran, enum ml_coll_composition comp)
{
	return (int)ran >= 0 && (int)ran < NA && (int)comp >= 0 &&
	       comp <= ML_COLL_COMP_GAMMA;
}

void ml_coll_tune_free(struct ml_coll_tune *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nrow; i++) {
		if (t->row[i].interp)
			gsl_interp_free(t->row[i].interp);
		free(t->row[i].x);
	}
	free(t->row);
	free(t->pt);
	free(t->pd);
	free(t->pnoise);
	free(t->qgap);
	free(t);
}

void ml_coll_tune_get_info(const struct ml_coll_tune *t,
			   struct ml_coll_tune_info *info)
{
	*info = t->info;
}

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

/*
 * The correction of algorithm a at (ranks, lm), row skip (an index into
 * t->row, or (size_t)-1) left out: linear in log P between the rows
 * around ranks, held beyond.  *dist: doublings of P from ranks to the
 * nearest row used; *dm (may be NULL): doublings of M from lm to the
 * nearest measured size of the rows used (the farther row's).  NaN when
 * a has no row but skip.
 */
static double corr_at(const struct ml_coll_tune *t, int a, long long ranks,
		      double lm, size_t skip, double *dist, double *dm)
{
	size_t i, lo = (size_t)-1, hi = (size_t)-1;
	double rl, rh, f;

	*dist = 0;
	for (i = t->afirst[a]; i < t->afirst[a] + t->an[a]; i++) {
		if (i == skip)
			continue;
		if (t->row[i].ranks <= ranks)
			lo = i;
		if (t->row[i].ranks >= ranks && hi == (size_t)-1)
			hi = i;
	}
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

/* The model's value of the table's objective for cell c on machine m. */
static enum ml_status model_of(const struct ml_collective_params *m,
			       const struct ml_collective_params *c,
			       enum ml_coll_objective obj, double *y,
			       struct ml_collective_result *res)
{
	struct ml_collective_params q = *m;
	struct ml_collective_result r;
	enum ml_status st;

	q.ranks = c->ranks;
	q.msg = c->msg;
	q.algorithm = c->algorithm;
	q.segment = c->segment;
	q.fanout = c->fanout;
	q.radix = c->radix;
	q.root = c->root;
	st = ml_collective_eval(&q, &r);
	if (st != ML_OK)
		return st;
	*y = obj == ML_COLL_BY_AVG ? r.latency_avg : r.latency;
	*res = r;
	return *y > 0 && isfinite(*y) ? ML_OK : ML_EINVAL;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* t->pd, t->np: the measured P of any algorithm, ascending. */
static enum ml_status measured_ps(struct ml_coll_tune *t)
{
	size_t i, k, np = 0;

	t->pd = malloc((t->nrow + 1) * sizeof *t->pd);
	if (!t->pd)
		return ML_ENOMEM;
	for (i = 0; i < t->nrow; i++)
		t->pd[np++] = t->row[i].ranks;
	qsort(t->pd, np, sizeof *t->pd, cmp_ll);
	for (i = k = 0; i < np; i++)
		if (k == 0 || t->pd[i] != t->pd[k - 1])
			t->pd[k++] = t->pd[i];
	t->np = k;
	return ML_OK;
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
				       e = w->y[k] - w->y[k - 1] -
					   f * (w->y[k + 1] - w->y[k - 1]),
				       dm = fmin(w->x[k] - w->x[k - 1],
						 w->x[k + 1] - w->x[k]) / LN2;

				const struct tpt *p = t->pt + w->first + k;
				/* the three medians' noise in e */
				double nv = p[0].se * p[0].se +
					    (1 - f) * (1 - f) * p[-1].se *
						p[-1].se +
					    f * f * p[1].se * p[1].se;

				v[n++] = (e * e - t->z * t->z * nv) /
					 fmax(dm, 1e-9);
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
static void size_fallback(struct ml_coll_tune *t)
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
static enum ml_status cross_validate(struct ml_coll_tune *t, double level)
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

				e = t->pt[k].r -
				    corr_at(t, (int)a, w->ranks, t->pt[k].lm, i,
					    &d, NULL);
				ea[k] = e;
				dd[k] = d > 0 ? d : 1;
				c = ml_coll_msg_class(t->pt[k].msg);
				/* its median's noise and, about half as
				 * much, the interpolated rows' */
				uk[k] = (e * e - 1.5 * t->z * t->z *
						     t->pt[k].se * t->pt[k].se) /
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
						ud[nud++] = (ea[k] - ea[j]) /
							    sqrt(fmax(dd[k], dd[j]));
		}
		/* its own where it has enough: a noisy candidate's errors
		 * (scatter-allgather-ring's 700 us at P = 92 beside
		 * binomial's 9) say nothing of another's */
		t->qdiff_a[a] = nud - from >= MIN_Q
				    ? ml_tune_quantile(ud + from, nud - from,
						       level)
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

/* The deviations of the runs of m's cells of 3 runs or more of
 * machine's placement (malloc'd, *n of them; NULL with *n 0 when m has
 * none or on ENOMEM, *nomem then set). */
static double *placement_devs(const struct ml_coll_meas *m,
			      const struct ml_collective_params *machine,
			      size_t *n, bool *nomem)
{
	size_t i, k, cap = 0;
	double *d;

	*n = 0;
	*nomem = false;
	for (i = 0; m->dev && i < m->ncell; i++)
		cap += (size_t)m->cell[i].runs;
	if (cap == 0)
		return NULL;
	d = malloc(cap * sizeof *d);
	if (!d) {
		*nomem = true;
		return NULL;
	}
	for (i = 0; i < m->ncell; i++) {
		const struct ml_coll_cell *c = &m->cell[i];

		if (c->runs < 3 || !ml_coll_same_placement(&c->p, machine))
			continue;
		for (k = 0; k < (size_t)c->runs; k++)
			d[(*n)++] = m->dev[c->dev_first + k];
	}
	return d;
}

enum ml_status ml_coll_tune_new(const struct ml_coll_meas *m,
				const struct ml_collective_params *machine,
				const struct ml_coll_errmodel *em, double level,
				struct ml_coll_tune **out)
{
	struct ml_coll_tune *t;
	size_t i, k;
	enum ml_status st;

	*out = NULL;
	if (!(level >= 0.5 && level < 1))
		return ML_EINVAL;
	t = calloc(1, sizeof *t);
	if (!t)
		return ML_ENOMEM;
	t->machine = *machine;
	t->obj = m->obj;
	t->z = gsl_cdf_ugaussian_Pinv((1 + level) / 2);
	t->pt = malloc((m->ncell + 1) * sizeof *t->pt);
	t->row = calloc(m->ncell + 1, sizeof *t->row);
	if (!t->pt || !t->row) {
		st = ML_ENOMEM;
		goto fail;
	}
	t->info.pmin = 0;
	/* The cells are sorted by placement, algorithm, ranks, msg. */
	for (i = 0; i < m->ncell; i++) {
		const struct ml_coll_cell *c = &m->cell[i];
		struct tpt *p;
		struct ml_collective_result res;
		double y;
		int a = c->p.algorithm;

		if (!ml_coll_same_placement(&c->p, machine))
			continue;
		st = model_of(machine, &c->p, m->obj, &y, &res);
		if (st == ML_EINVAL)
			continue; /* the model cannot run it: no cell */
		if (st != ML_OK)
			goto fail;
		p = &t->pt[t->npt];
		p->msg = c->p.msg;
		p->lm = log((double)c->p.msg);
		p->r = log(c->median / y);
		p->median = c->median;
		p->spread = c->spread;
		p->runs = c->runs;
		p->ran = res.ran;
		p->comp = res.composition;
		if (a == 0 && ran_ok(res.ran, res.composition))
			t->dran[res.ran][res.composition] = true;
		if (t->an[a] == 0)
			t->afirst[a] = t->nrow;
		if (t->an[a] == 0 || t->row[t->nrow - 1].ranks != c->p.ranks) {
			t->row[t->nrow].ranks = c->p.ranks;
			t->row[t->nrow].first = t->npt;
			t->nrow++;
			t->an[a]++;
		}
		t->row[t->nrow - 1].n++;
		t->npt++;
		if (t->info.pmin == 0 || c->p.ranks < t->info.pmin)
			t->info.pmin = c->p.ranks;
		if (c->p.ranks > t->info.pmax)
			t->info.pmax = c->p.ranks;
	}
	t->info.cells = t->npt;
	if (t->npt == 0) {
		ml_coll_tune_free(t);
		return ML_OK;
	}
	for (i = 0; i < t->nrow; i++) {
		struct trow *w = &t->row[i];

		w->x = malloc(2 * w->n * sizeof *w->x);
		if (!w->x) {
			st = ML_ENOMEM;
			goto fail;
		}
		w->y = w->x + w->n;
		for (k = 0; k < w->n; k++) {
			w->x[k] = t->pt[w->first + k].lm;
			w->y[k] = t->pt[w->first + k].r;
		}
		if (w->n < 2)
			continue;
		w->interp = gsl_interp_alloc(gsl_interp_linear, w->n);
		if (!w->interp ||
		    gsl_interp_init(w->interp, w->x, w->y, w->n) != 0) {
			st = ML_ENOMEM;
			goto fail;
		}
	}
	{
		bool nomem;
		size_t ndev;
		double *dev = placement_devs(m, machine, &ndev, &nomem);

		st = nomem ? ML_ENOMEM : measured_ps(t);
		if (st == ML_OK)
			st = ml_tune_noise_of(t, dev, ndev, level);
		free(dev);
	}
	if (st == ML_OK)
		st = cross_validate(t, level);
	if (em && em->fit_ranks > 0) {
		int c;

		for (c = 0; c < ML_COLL_NCLASS; c++) {
			if (em->growth[c] > t->info.growth)
				t->info.growth = em->growth[c];
			t->emsd[c] = em->sd[c];
		}
		t->gdiff = em->diff_growth;
	}
	if (st != ML_OK)
		goto fail;
	size_fallback(t);
	ml_tune_corner_check(t);
	*out = t;
	return ML_OK;
fail:
	ml_coll_tune_free(t);
	return st;
}

/* Doublings of P beyond the largest measured P. */
static double outside(const struct ml_coll_tune *t, long long ranks)
{
	return ranks > t->info.pmax
		   ? log2((double)ranks / (double)t->info.pmax)
		   : 0;
}

/* Doublings of P beyond algorithm a's largest measured P (its
 * correction is held at its own edge: the default measured to P = 76
 * is beyond its edge at 150 though forced binary was measured at
 * 255); 0 where a has no row. */
static double outside_of(const struct ml_coll_tune *t, int a, long long ranks)
{
	long long top;

	if (t->an[a] == 0)
		return 0;
	top = t->row[t->afirst[a] + t->an[a] - 1].ranks;
	return ranks > top ? log2((double)ranks / (double)top) : 0;
}

/* A new run's deviation from its cell's median at the level at ranks:
 * the runs' (info.run_q), or z times the noise there. */
static double run_q_at(const struct ml_coll_tune *t, long long ranks)
{
	return t->pnoise ? t->z * ml_tune_noise_at(t, ranks) : t->info.run_q;
}

/* The ln half-width of the interval of a new run of msg bytes at dist
 * doublings from the nearest measured P of its algorithm, dm from the
 * nearest measured size of the rows around, b beyond the largest P:
 * the cross-validated terms of P (q, its gap's) and M, the growth
 * beyond, a run's deviation and the interpolated medians' noise, as
 * independent errors.  With too few points left out to read a quantile
 * from, never narrower than the model alone (the fit's error model).
 * *run: its part that is a new run's deviation. */
static double half_of(const struct ml_coll_tune *t, int a, long long ranks,
		      long long msg, double q, double dist, double dm,
		      double b, double *run)
{
	double nz = ml_tune_noise_at(t, ranks), g = t->z * t->info.growth,
	       rq = t->pnoise ? t->z * nz : t->info.run_q,
	       se = t->pnoise ? nz : t->se,
	       h = sqrt(q * q * fmax(dist, 0) + t->qm[a] * t->qm[a] * dm +
			g * g * b + rq * rq + 0.5 * t->z * t->z * se * se);

	if (t->info.cv < MIN_Q)
		h = fmax(h, t->z * t->emsd[ml_coll_msg_class(msg)]);
	*run = fmin(rq, h);
	return h;
}

/* The interval's quantile at ranks: its gap's. */
static double gap_q(const struct ml_coll_tune *t, int a, long long ranks)
{
	size_t g = 0;

	while (g < t->np && t->pd[g] < ranks)
		g++;
	return t->qgap[(size_t)a * (t->np + 1) + g];
}

enum ml_status ml_coll_tune_predict(const struct ml_coll_tune *t,
				    enum ml_coll_alg a, long long ranks,
				    long long msg, double model,
				    struct ml_coll_tuned *out)
{
	const struct tpt *x;
	double dist, dm, c, h, q;

	out->value = out->lo = out->hi = NAN;
	out->corr = 0;
	out->dist = 0;
	out->run = 0;
	out->measured = out->corrected = false;
	if (!(model > 0) || !isfinite(model) || a < 0 || a >= NA ||
	    ranks < 1 || msg < 1)
		return ML_EINVAL;
	x = ml_tune_measured(t, a, ranks, msg);
	if (x) {
		out->value = x->median;
		out->corr = x->r;
		out->measured = out->corrected = true;
		/* a new run: the runs' deviation, or this cell's spread
		 * where wider */
		h = isnan(x->spread) ? run_q_at(t, ranks)
				     : fmax(t->info.run_q, t->z * x->spread);
		out->run = h;
		out->lo = x->median * exp(-h);
		out->hi = x->median * exp(h);
		return ML_OK;
	}
	c = corr_at(t, a, ranks, log((double)msg), (size_t)-1, &dist, &dm);
	out->value = model;
	if (isnan(c))
		return ML_OK; /* nothing measured of a: the model's alone */
	out->corr = c;
	out->corrected = true;
	out->value = model * exp(c);
	q = gap_q(t, a, ranks);
	out->dist = dist;
	h = half_of(t, a, ranks, msg, q, dist, dm, outside(t, ranks),
		    &out->run);
	if (isfinite(h)) {
		out->lo = out->value * exp(-h);
		out->hi = out->value * exp(h);
	}
	return ML_OK;
}

/* Is a a candidate of library lib in among? */
static bool is_candidate(unsigned among, enum ml_coll_library lib, int a)
{
	bool ok = a == ML_COLL_DEFAULT ||
		  (lib == ML_COLL_MPICH
		       ? a >= ML_COLL_MPICH_FIRST && a <= ML_COLL_MPICH_LAST
		       : a >= 1 && a <= ML_COLL_NALG);

	return ok && (among & ML_COLL_AMONG(a));
}

/* What the measured corners say of a at p's point (ml_tune_corners),
 * where their leave-one-P-out check let them (corner_check): a lone
 * cell's say only where lone cells passed it too. */
static int corners_say(const struct ml_coll_tune *t, int a,
		       const struct ml_collective_params *p,
		       const struct tpt *dp, bool far)
{
	int v = t->corners_ok
		    ? ml_tune_corners(t, a, p->ranks, p->msg, 0, dp, far)
		    : 0;

	return v == ML_TUNE_LONE && !t->lone_ok ? 0 : v;
}

/*
 * Whether the point at ranks lies more than a doubling beyond the
 * default's measured P (below its smallest row or above its largest)
 * where its decision runs an algorithm (dp's) that nothing measured:
 * no measured cell of the default ran it and it was not measured
 * forced.  There the default's prediction is its residual, measured on
 * another broadcast, times the model's time of one never checked: on
 * EPYC by node, measured at P = 128 and 254 (the probe's plan), the
 * decision runs knomial below 128, which the model puts at 1.6 to 2.9
 * times its measured time, and binary picked at P = 16 to 31 lost 8 %.
 * (A candidate measured at the point itself still counts: its time is
 * a fact, test_default_edge.)
 */
static bool default_unseen(const struct ml_coll_tune *t, long long ranks,
			   const struct tpt *dp)
{
	long long lo, hi;

	if (t->an[0] == 0)
		return false;
	lo = t->row[t->afirst[0]].ranks;
	hi = t->row[t->afirst[0] + t->an[0] - 1].ranks;
	if (!(2 * ranks < lo || ranks > 2 * hi))
		return false;
	if (dp->ran > 0 && dp->ran < NA && t->an[dp->ran] > 0)
		return false;
	return !(ran_ok(dp->ran, dp->comp) && t->dran[dp->ran][dp->comp]);
}

enum ml_status ml_coll_tune_best(const struct ml_coll_tune *t,
				 const struct ml_collective_params *p,
				 unsigned among, enum ml_coll_objective obj,
				 struct ml_coll_pick *out)
{
	struct ml_collective_params q = *p;
	struct ml_collective_result r[NA];
	struct ml_coll_tuned y[NA];
	bool ok[NA] = {false};
	int a, fast = -1, pick = -1, second = -1;
	double thr;
	enum ml_status st;
	struct tpt dp = {0};
	bool unseen = false;

	for (a = 0; a < NA; a++) {
		if (!is_candidate(among, p->library, a) && a != ML_COLL_DEFAULT)
			continue;
		q.algorithm = (enum ml_coll_alg)a;
		st = ml_collective_eval(&q, &r[a]);
		if (st == ML_EINVAL)
			continue;
		if (st != ML_OK)
			return st;
		st = ml_coll_tune_predict(
		    t, (enum ml_coll_alg)a, p->ranks, p->msg,
		    obj == ML_COLL_BY_AVG ? r[a].latency_avg : r[a].latency,
		    &y[a]);
		if (st != ML_OK)
			return st;
		ok[a] = true;
	}
	for (a = 0; a < NA; a++) {
		if (!ok[a] || !is_candidate(among, p->library, a))
			continue;
		if (fast < 0 || y[a].value < y[fast].value * (1 - 1e-12)) {
			second = fast;
			fast = a;
		} else if (second < 0 || y[a].value < y[second].value) {
			second = a;
		}
	}
	if (fast < 0)
		return ML_EINVAL;
	out->fastest = (enum ml_coll_alg)fast;
	out->margin = second >= 0 ? y[second].value / y[fast].value : NAN;
	pick = fast;
	if (ok[0] && is_candidate(among, p->library, 0)) {
		/* Do no harm: the fastest candidate faster than the default
		 * by more than the two could be wrong by together. */
		pick = 0;
		dp.ran = r[0].ran;
		dp.comp = r[0].composition;
		unseen = default_unseen(t, p->ranks, &dp);
		for (a = 1; a < NA; a++) {
			double gain, b = fmax(outside_of(t, a, p->ranks),
					      outside_of(t, 0, p->ranks));

			if (!ok[a] || !is_candidate(among, p->library, a))
				continue;
			gain = log(y[0].value / y[a].value);
			if (y[a].measured && y[0].measured) {
				const struct tpt *xa =
				    ml_tune_measured(t, a, p->ranks, p->msg);
				const struct tpt *xd =
				    ml_tune_measured(t, 0, p->ranks, p->msg);
				double sa = ml_tune_cmp_se(t, xa),
				       sd = ml_tune_cmp_se(t, xd);
				thr = sqrt(sa * sa + sd * sd);
			} else {
				thr = t->qdiff_a[a] *
				      sqrt(fmax(y[a].dist, y[0].dist));
				thr = sqrt(thr * thr +
					   t->z * t->z * t->gdiff * t->gdiff * b);
			}
			if (unseen && !y[a].measured)
				continue; /* nothing measured says */
			if (!(y[a].measured && y[0].measured)) {
				/* the measured cells around decide where
				 * they agree */
				int v = corners_say(t, a, p, &dp, false);

				/* More than a doubling beyond the measured P
				 * the edge row's cells are not the point's
				 * corners; still, where they say the candidate
				 * is faster (the default's decision running
				 * there what it runs at the point) and the
				 * model, its residuals held at the edge, says
				 * so too, it is: the error model's growth of
				 * the difference alone kept EPYC by node's
				 * default at P >= 128, binomial measured
				 * faster at 62 and 2x faster at 128. */
				if (v == 0 && b > 1 && gain > 0 &&
				    corners_say(t, a, p, &dp, true) > 0)
					v = 1;
				if (v < 0 || (v == 0 && !(gain > thr)))
					continue;
			} else if (!(gain > thr)) {
				continue;
			}
			if (pick == 0 || y[a].value < y[pick].value)
				pick = a;
		}
	}
	out->alg = (enum ml_coll_alg)pick;
	out->r = r[pick];
	out->kept = pick != fast;
	out->vs_default =
	    ok[0] ? y[0].value / y[pick].value : NAN;
	return ML_OK;
}
