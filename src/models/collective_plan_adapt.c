/*
 * collective_plan_adapt.c - the adaptive measurement plan of SPEC 10.7
 * (ml_collective_plan_adaptive): given the broadcasts measured so far
 * and the machine fitted on them, the next ones to measure, where best's
 * pick is least certain.
 *
 * At each (P, M) of the universe where a candidate is not measured yet,
 * best's pick D (ml_coll_tune_best: measured cells decide, the model
 * corrected between) and every other candidate a's corrected prediction
 * with its interval (ml_coll_tune_predict) give the gain of a over D,
 * g = ln(D / a), taken as normal with mean mu (the predictions') and sd
 * s = sqrt(hD^2 + ha^2) / z (h: each interval's ln half-width less its
 * new run's deviation, ml_coll_tuned.run, in quadrature: the medians'
 * uncertainty, which measuring removes; z its level's normal
 * quantile).  The cell's score is the largest expected loss of keeping
 * D against one candidate, E[max(g, 0)] = s phi(mu / s)
 * + mu Phi(mu / s): large where the gain's interval straddles 0 (the
 * pick could be either) and where it is wide (far from measured P).
 * It is the value of measuring the cell in a decision's own units (ln
 * time lost), so no constant weighs one against the other.
 *
 * Cells are taken greedily by score, each with every candidate not yet
 * measured there (so that the measurements decide at the cell), while
 * the rows fit the budget.  A cell at a P with no measured row opens a
 * row there: the intervals at other P narrow with the square root of
 * the doublings of P to the nearest row (collective_tune.c), so each
 * other cell's s is scaled by sqrt(d' / d), d' the doublings to the
 * nearest measured or chosen row, and its score recomputed.  Cells at
 * the chosen P keep theirs: one size does not measure a row.
 *
 * Pure: params in, rows out (ml_collective_plan_free).
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcastlat/collective.h"
#include "mcastlat/tune.h"

#define NA (ML_COLL_NALG + 1)
#define INT_UNIVERSE 64 /* log-spaced P of a universe of every integer */

/* One (P, M) not fully measured. */
struct acell {
	long long ranks, msg;
	unsigned missing;   /* candidates not measured here (bit a) */
	int cost;	    /* their number */
	int n;		    /* candidates compared with the pick */
	double mu[NA], s[NA]; /* the gain over the pick: mean and sd, ln */
	double d0, d;	    /* doublings of P to the nearest row: measured,
			     * and measured or chosen */
	double score;
	bool done;
};

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* E[max(g, 0)] for g ~ N(mu, s^2). */
static double eloss(double mu, double s)
{
	double x;

	if (!(s > 0))
		return mu > 0 ? mu : 0;
	x = mu / s;
	return s * exp(-0.5 * x * x) * 0.3989422804014327 +
	       mu * 0.5 * erfc(-x / sqrt(2.0));
}

static void score_of(struct acell *c)
{
	double f = c->d0 > 0 ? sqrt(c->d / c->d0) : 1, best = 0;
	int k;

	for (k = 0; k < c->n; k++) {
		double e = eloss(c->mu[k], c->s[k] * f);

		best = e > best ? e : best;
	}
	c->score = best;
}

/* A sorted distinct copy of v (n) into *out; its length or -1. */
static long long uniq(const long long *v, size_t n, long long **out)
{
	long long *c = malloc((n ? n : 1) * sizeof *c);
	size_t i, k = 0;

	if (!c)
		return -1;
	if (n)
		memcpy(c, v, n * sizeof *c);
	qsort(c, n, sizeof *c, cmp_ll);
	for (i = 0; i < n; i++)
		if (k == 0 || c[i] != c[k - 1])
			c[k++] = c[i];
	*out = c;
	return (long long)k;
}

/* The universe of P (pp->ranks, else at most INT_UNIVERSE log-spaced
 * integers in [2, max]) and of M (pp->msgs, else the powers of two
 * between msg_min and msg_max and both ends). */
static enum ml_status universe(const struct ml_coll_plan_params *pp,
			       long long **pv, long long *np, long long **mv,
			       long long *nm)
{
	long long hi = pp->ranks_max ? pp->ranks_max : pp->ppn * pp->nodes,
		  t[INT_UNIVERSE + 64], n = 0, m;
	int i;

	if (pp->ranks) {
		*np = uniq(pp->ranks, pp->nranks, pv);
	} else {
		for (i = 0; i < INT_UNIVERSE; i++)
			t[n++] = llround(2 * pow((double)hi / 2,
						 (double)i / (INT_UNIVERSE - 1)));
		t[n - 1] = hi;
		*np = uniq(t, (size_t)n, pv);
	}
	if (pp->msgs) {
		*nm = uniq(pp->msgs, pp->nmsgs, mv);
	} else {
		n = 0;
		t[n++] = pp->msg_min;
		for (m = 1; m < pp->msg_max && n < INT_UNIVERSE + 63; m *= 2)
			if (m > pp->msg_min)
				t[n++] = m;
		t[n++] = pp->msg_max;
		*nm = uniq(t, (size_t)n, mv);
	}
	return *np < 0 || *nm < 0 ? ML_ENOMEM : ML_OK;
}

/* Doublings of P from r to the nearest of rows (n). */
static double doublings(long long r, const long long *rows, size_t n)
{
	double d = INFINITY;
	size_t i;

	for (i = 0; i < n; i++) {
		double e = fabs(log2((double)r / (double)rows[i]));

		d = e < d ? e : d;
	}
	return d;
}

/* Is (a, P, M) measured in m's cells of placement *mach? */
static bool is_measured(const struct ml_coll_meas *m,
			const struct ml_collective_params *mach, int a,
			long long ranks, long long msg)
{
	size_t i;

	for (i = 0; i < m->ncell; i++) {
		const struct ml_collective_params *p = &m->cell[i].p;

		if ((int)p->algorithm == a && p->ranks == ranks &&
		    p->msg == msg && ml_coll_same_placement(p, mach))
			return true;
	}
	return false;
}

/* The cell (P, M) scored on t; false when it cannot be (no candidate
 * runs, or nothing is missing). */
static enum ml_status score_cell(const struct ml_coll_adapt_params *ap,
				 const struct ml_collective_params *mach,
				 const struct ml_coll_tune *t, unsigned among,
				 double z, struct acell *c)
{
	struct ml_collective_params q = *mach;
	struct ml_collective_result r;
	struct ml_coll_tuned y[NA];
	struct ml_coll_pick pk;
	bool ok[NA] = {false};
	enum ml_coll_objective obj = ap->meas->obj;
	double hmax = 0, h[NA];
	int a, D;
	enum ml_status st;

	q.ranks = c->ranks;
	q.msg = c->msg;
	c->n = 0;
	c->cost = 0;
	for (a = 0; a < NA; a++) {
		if (!(among & ML_COLL_AMONG(a)))
			continue;
		q.algorithm = (enum ml_coll_alg)a;
		st = ml_collective_eval(&q, &r);
		if (st == ML_EINVAL)
			continue;
		if (st != ML_OK)
			return st;
		st = ml_coll_tune_predict_result(t, (enum ml_coll_alg)a,
						 c->ranks, c->msg, &r, &y[a]);
		if (st != ML_OK)
			continue;
		ok[a] = true;
		/* the medians' uncertainty, which measuring the cell
		 * removes: not a new run's deviation, which it does not */
		h[a] = isfinite(y[a].lo) && isfinite(y[a].hi)
			   ? sqrt(fmax(pow(0.5 * log(y[a].hi / y[a].lo), 2) -
				       y[a].run * y[a].run,
				       0))
			   : NAN;
		if (h[a] > hmax)
			hmax = h[a];
		if (!is_measured(ap->meas, mach, a, c->ranks, c->msg)) {
			c->missing |= 1u << a;
			c->cost++;
		}
	}
	if (c->cost == 0)
		return ML_OK;
	q.algorithm = ML_COLL_DEFAULT;
	st = ml_coll_tune_best(t, &q, among, obj, &pk);
	if (st == ML_ENOMEM)
		return st;
	D = st == ML_OK ? (int)pk.alg : -1;
	if (D < 0 || !ok[D])
		return ML_OK; /* scored 0: nothing to compare */
	for (a = 0; a < NA; a++) {
		double ha, hd;

		if (!ok[a] || a == D)
			continue;
		/* a prediction of the model alone (nothing of a measured
		 * here): as uncertain as the cell's widest */
		ha = isnan(h[a]) ? hmax : h[a];
		hd = isnan(h[D]) ? hmax : h[D];
		c->mu[c->n] = log(y[D].value / y[a].value);
		c->s[c->n] = sqrt(ha * ha + hd * hd) / z;
		c->n++;
	}
	return ML_OK;
}

/* Is x in v (n)? */
static bool in_ll(const long long *v, size_t n, long long x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* Cell b's missing candidates into pl's rows; b done. */
static void take(struct acell *b, const struct ml_collective_params *mach,
		 struct ml_coll_plan *pl)
{
	int a;

	b->done = true;
	for (a = 0; a < NA; a++) {
		struct ml_coll_plan_row *r;

		if (!(b->missing >> a & 1))
			continue;
		r = &pl->rows[pl->n++];
		r->alg = (enum ml_coll_alg)a;
		r->ranks = b->ranks;
		r->msg = b->msg;
		r->map_by = mach->map_by;
	}
}

/* A row at P = p: into rows (*nrows), and every other P's cells nearer
 * a row now rescored. */
static void open_row(long long p, long long *rows, size_t *nrows,
		     struct acell *c, size_t nc)
{
	size_t k;

	rows[(*nrows)++] = p;
	for (k = 0; k < nc; k++) {
		double e;

		if (c[k].done || c[k].ranks == p)
			continue;
		e = fabs(log2((double)c[k].ranks / (double)p));
		if (e < c[k].d) {
			c[k].d = e;
			score_of(&c[k]);
		}
	}
}

/* The rows of one placement with a predictor t, at most budget, into
 * pl (room for them). */
static enum ml_status adapt_one(const struct ml_coll_adapt_params *ap,
				const struct ml_collective_params *mach,
				const struct ml_coll_tune *t, unsigned among,
				const long long *pv, long long np,
				const long long *mv, long long nm,
				long long budget, struct ml_coll_plan *pl)
{
	struct acell *c = NULL;
	long long *rows = NULL, *sizes = NULL, used = 0;
	size_t nc = 0, nrows = 0, nsizes = 0, i, k;
	double z = gsl_cdf_ugaussian_Pinv(0.5 + ap->level / 2);
	enum ml_status st = ML_OK;
	long long i1, j1;

	c = calloc((size_t)(np * nm), sizeof *c);
	rows = malloc((size_t)(np + ap->meas->ncell + 1) * sizeof *rows);
	sizes = malloc((ap->meas->ncell + 1) * sizeof *sizes);
	if (!c || !rows || !sizes) {
		st = ML_ENOMEM;
		goto out;
	}
	/* The measured rows and sizes of the placement. */
	for (i = 0; i < ap->meas->ncell; i++) {
		const struct ml_collective_params *p = &ap->meas->cell[i].p;

		if (!ml_coll_same_placement(p, mach))
			continue;
		if (doublings(p->ranks, rows, nrows) > 0)
			rows[nrows++] = p->ranks;
		if (!in_ll(sizes, nsizes, p->msg))
			sizes[nsizes++] = p->msg;
	}
	for (i1 = 0; i1 < np; i1++)
		for (j1 = 0; j1 < nm; j1++) {
			struct acell *x = &c[nc];

			x->ranks = pv[i1];
			x->msg = mv[j1];
			st = score_cell(ap, mach, t, among, z, x);
			if (st != ML_OK)
				goto out;
			if (x->cost == 0)
				continue;
			x->d0 = x->d = doublings(x->ranks, rows, nrows);
			if (!isfinite(x->d0))
				x->d0 = x->d = 0;
			score_of(x);
			nc++;
		}
	/* Phase 1: whole rows, at the measured sizes, while one fits. */
	for (;;) {
		long long bp = -1, cost, bcost = 0;
		double sc, bsc = 0;

		for (i = 0; i < nc; i = k) {
			for (k = i, sc = 0, cost = 0;
			     k < nc && c[k].ranks == c[i].ranks; k++) {
				sc += c[k].score;
				if (in_ll(sizes, nsizes, c[k].msg))
					cost += c[k].cost;
			}
			if (c[i].d0 > 0 && cost > 0 && used + cost <= budget &&
			    doublings(c[i].ranks, rows, nrows) > 0 &&
			    sc > bsc) {
				bsc = sc;
				bp = c[i].ranks;
				bcost = cost;
			}
		}
		if (bp < 0)
			break;
		for (k = 0; k < nc; k++)
			if (c[k].ranks == bp && in_ll(sizes, nsizes, c[k].msg))
				take(&c[k], mach, pl);
		used += bcost;
		open_row(bp, rows, &nrows, c, nc);
	}
	/* Phase 2: single cells with what is left. */
	for (;;) {
		struct acell *b = NULL;

		for (i = 0; i < nc; i++)
			if (!c[i].done && used + c[i].cost <= budget &&
			    (!b || c[i].score > b->score))
				b = &c[i];
		if (!b)
			break;
		take(b, mach, pl);
		used += b->cost;
		if (doublings(b->ranks, rows, nrows) > 0)
			open_row(b->ranks, rows, &nrows, c, nc);
	}
out:
	free(c);
	free(rows);
	free(sizes);
	return st;
}

static int cmp_row(const void *a, const void *b)
{
	const struct ml_coll_plan_row *x = a, *y = b;

	if (x->map_by != y->map_by)
		return (x->map_by > y->map_by) - (x->map_by < y->map_by);
	if (x->ranks != y->ranks)
		return (x->ranks > y->ranks) - (x->ranks < y->ranks);
	if (x->msg != y->msg)
		return (x->msg > y->msg) - (x->msg < y->msg);
	return (x->alg > y->alg) - (x->alg < y->alg);
}

/* pl's distinct P and M from its rows. */
static enum ml_status distinct(struct ml_coll_plan *pl)
{
	long long *v = malloc((pl->n ? pl->n : 1) * sizeof *v);
	size_t i;

	if (!v)
		return ML_ENOMEM;
	for (i = 0; i < pl->n; i++)
		v[i] = pl->rows[i].ranks;
	free(pl->ranks);
	pl->nranks = uniq(v, pl->n, &pl->ranks);
	for (i = 0; i < pl->n; i++)
		v[i] = pl->rows[i].msg;
	free(pl->msgs);
	pl->nmsgs = uniq(v, pl->n, &pl->msgs);
	free(v);
	return pl->nranks < 0 || pl->nmsgs < 0 ? ML_ENOMEM : ML_OK;
}

enum ml_status ml_collective_plan_adaptive(
    const struct ml_coll_adapt_params *ap, struct ml_coll_plan *pl,
    struct ml_diag *d)
{
	const struct ml_coll_plan_params *pp = &ap->plan;
	struct ml_coll_plan fx;
	long long *pv = NULL, *mv = NULL, np = 0, nm = 0, ncand = 0, nmap = 0,
		  budget, share, cap;
	unsigned among = pp->among & ((1u << NA) - 1);
	enum ml_status st;
	int y, a, k = 0;
	size_t i;

	memset(pl, 0, sizeof *pl);
	if (!ap->meas || ap->meas->ncell == 0)
		return ml_collective_plan(pp, pl, d);
	if (!(ap->level >= 0.5 && ap->level < 1))
		return ml_diag_set(d, "level", "must be in [0.5, 1)");
	/* the fixed design's checks of the allocation and lists */
	st = ml_collective_plan(pp, &fx, d);
	if (st != ML_OK && !(st == ML_EINVAL && d->param &&
			     strcmp(d->param, "budget") == 0))
		return st;
	/* budget 0: the fixed design's (5 %, at most 2 P a doubling) */
	budget = pp->budget ? pp->budget : fx.budget;
	if (st == ML_OK)
		ml_collective_plan_free(&fx);
	d->param = NULL;
	d->msg[0] = '\0';
	for (a = 0; a < NA; a++)
		ncand += among >> a & 1;
	for (y = 0; y <= ML_COLL_MAP_NODE; y++)
		nmap += pp->maps >> y & 1;
	st = universe(pp, &pv, &np, &mv, &nm);
	if (st != ML_OK)
		goto out;
	cap = budget + np * nm * ncand * nmap;
	pl->rows = malloc((size_t)cap * sizeof *pl->rows);
	if (!pl->rows) {
		st = ML_ENOMEM;
		goto out;
	}
	pl->budget = budget;
	for (y = 0; y <= ML_COLL_MAP_NODE; y++) {
		struct ml_collective_params mach = ap->machine;
		struct ml_coll_tune *t = NULL;

		if (!(pp->maps >> y & 1))
			continue;
		/* the budget evenly over the placements, the rest first */
		share = budget / nmap + (k++ < budget % nmap);
		mach.map_by = (enum ml_coll_map)y;
		mach.ppn = pp->ppn;
		mach.sockets = pp->sockets;
		mach.nodes = pp->nodes;
		st = ml_coll_tune_new(ap->meas, &mach, ap->em, ap->level, &t);
		if (st != ML_OK) {
			if (st == ML_EINVAL)
				ml_diag_set(d, "input",
					    "the machine cannot be evaluated "
					    "at the measured cells");
			goto out;
		}
		if (t) {
			st = adapt_one(ap, &mach, t, among, pv, np, mv, nm,
				       share, pl);
			ml_coll_tune_free(t);
			if (st != ML_OK)
				goto out;
			continue;
		}
		/* nothing measured of this placement: the fixed design */
		{
			struct ml_coll_plan_params one = *pp;

			one.maps = 1u << y;
			one.budget = share;
			st = ml_collective_plan(&one, &fx, d);
			if (st != ML_OK)
				goto out;
			for (i = 0; i < fx.n && pl->n < (size_t)cap; i++)
				pl->rows[pl->n++] = fx.rows[i];
			ml_collective_plan_free(&fx);
		}
	}
	qsort(pl->rows, pl->n, sizeof *pl->rows, cmp_row);
	st = distinct(pl);
out:
	free(pv);
	free(mv);
	if (st != ML_OK)
		ml_collective_plan_free(pl);
	return st;
}
