/*
 * collective_tune.c - measured where measured, the model between (SPEC
 * 10.7): the model corrected by its measured log residuals (the table
 * of collective_meas.c) interpolated over log P and log M, with the
 * intervals of leave-one-P-out and leave-one-size-out cross-validation
 * of that corrected predictor (both in collective_tune_cv.c), and
 * best's pick where measured cells decide (mcastlat/tune.h).
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_interp.h>

#include "mcastlat/collective.h"
#include "mcastlat/tune.h"
#include "models/tune_int.h"

#define SPIKE 2.0 /* cap_spikes' factor */

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

/* Whether the table's placement has P of both classes (ordinary). */
static bool two_classes(const struct ml_coll_tune *t)
{
	const struct ml_collective_params *m = &t->machine;

	return m->library == ML_COLL_OPENMPI && m->map_by == ML_COLL_MAP_NODE &&
	       m->nodes > 1;
}

/*
 * A broadcast of fewer bytes on the same ranks does not take longer
 * than one of more; a single run that took more than twice the least
 * time measured for more bytes in its row was disturbed (on EPYC
 * packed by socket one run in three at 1 to 8 B from P = 122 is 3 to
 * 700 times its neighbours).  Its median is read as that least time,
 * what an undisturbed run would not exceed.  Cells of repeated runs
 * keep their median, which already holds a disturbed run out.
 */
static void cap_spikes(struct ml_coll_tune *t, struct trow *w)
{
	double least = INFINITY;
	bool capped = false;
	size_t k;

	for (k = w->n; k-- > 0;) {
		struct tpt *x = &t->pt[w->first + k];

		if (x->runs == 1 && x->median > SPIKE * least) {
			x->r += log(least / x->median);
			x->median = least;
			w->y[k] = x->r;
			t->info.capped++;
			capped = true;
		}
		least = fmin(least, x->median);
	}
	if (capped && w->interp)
		gsl_interp_init(w->interp, w->x, w->y, w->n);
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
		p->r = p->r_meas = log(c->median / y);
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
	/* after the noise: a new run may be disturbed as much */
	for (i = 0; i < t->nrow && st == ML_OK; i++)
		cap_spikes(t, &t->row[i]);
	if (st == ML_OK)
		st = ml_tune_cross_validate(t, level);
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
	ml_tune_size_fallback(t);
	t->qclass = ml_tune_largest_q(t);
	t->info.qclass = two_classes(t) ? t->qclass : NAN;
	st = ml_tune_algo_spread(t, level);
	if (st != ML_OK)
		goto fail;
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

/* Whether row i's cells around msg (the sizes its residual there is
 * read from: ml_tune_bracket's) ran dp's broadcast. */
static bool row_ran(const struct ml_coll_tune *t, size_t i, long long msg,
		    const struct tpt *dp)
{
	const struct trow *w;
	long long m[2];
	size_t k;

	if (i == (size_t)-1)
		return false;
	w = &t->row[i];
	ml_tune_bracket(t, w, msg, &m[0], &m[1]);
	for (k = w->first; k < w->first + w->n; k++)
		if ((t->pt[k].msg == m[0] || t->pt[k].msg == m[1]) &&
		    t->pt[k].ran == dp->ran && t->pt[k].comp == dp->comp)
			return true;
	return false;
}

/* Whether the default's correction at (ranks, msg) is read from a cell
 * that ran what its decision runs there (dp's): else it is another
 * broadcast's residual (ml_tune_algo_spread). */
static bool read_as_run(const struct ml_coll_tune *t, long long ranks,
			long long msg, const struct tpt *dp)
{
	size_t lo, hi;

	ml_tune_rows_around(t, ML_COLL_DEFAULT, ranks, (size_t)-1, &lo, &hi);
	return row_ran(t, lo, msg, dp) || row_ran(t, hi, msg, dp);
}

/* The default's decision at (ranks, msg) on the table's machine, into
 * d's ran and comp: the model run once more, for a caller that gave
 * only its value (ml_coll_tune_predict). */
static enum ml_status decision_at(const struct ml_coll_tune *t,
				  long long ranks, long long msg, struct tpt *d)
{
	struct ml_collective_params p = t->machine;
	struct ml_collective_result r;
	enum ml_status st;

	p.algorithm = ML_COLL_DEFAULT;
	p.ranks = ranks;
	p.msg = msg;
	st = ml_collective_eval(&p, &r);
	if (st == ML_OK) {
		d->ran = r.ran;
		d->comp = r.composition;
	}
	return st;
}

/*
 * Whether a broadcast of P ranks is measured after a barrier that
 * crosses the nodes as in the ordinary case.  osu_bcast times each
 * broadcast from the barrier before it; where that barrier crosses
 * unevenly loaded nodes in every round (ml_collective_barrier_uneven:
 * Bruck, by node, P not a multiple of the nodes) it takes about twice
 * as long (orfeo_epyc_barrier on two nodes: 23-25 us at odd P, 10-12
 * at even) and the broadcast's measured time follows it (1.2-1.3 times
 * at 1 byte), which the model does not predict.  false for such a P;
 * every other P is of the one ordinary class.
 */
static bool ordinary(const struct ml_coll_tune *t, long long ranks)
{
	return !two_classes(t) ||
	       !ml_collective_barrier_uneven(ranks, t->machine.nodes);
}

/* The share of algorithm a's correction at ranks read from rows of the
 * other class (ordinary): the interpolation's weight in log P of each
 * of the rows around ranks whose class is not that of ranks (1 where
 * every row read is, 0 where none is). */
static double other_share(const struct ml_coll_tune *t, int a, long long ranks)
{
	bool cls = ordinary(t, ranks), olo, ohi;
	size_t lo, hi;
	double f;

	if (!two_classes(t))
		return 0; /* every P ordinary: no rows to find again */
	ml_tune_rows_around(t, a, ranks, (size_t)-1, &lo, &hi);
	if (lo == (size_t)-1 && hi == (size_t)-1)
		return 0;
	if (lo == (size_t)-1 || hi == (size_t)-1 || lo == hi) {
		size_t i = lo == (size_t)-1 ? hi : lo;

		return ordinary(t, t->row[i].ranks) != cls;
	}
	olo = ordinary(t, t->row[lo].ranks) != cls;
	ohi = ordinary(t, t->row[hi].ranks) != cls;
	f = log((double)ranks / (double)t->row[lo].ranks) /
	    log((double)t->row[hi].ranks / (double)t->row[lo].ranks);
	return (1 - f) * olo + f * ohi;
}

/* ml_coll_tune_predict with the default's decision at the point (dp:
 * its ran and comp; NULL: found here, for the default, where needed). */
static enum ml_status predict(const struct ml_coll_tune *t,
			      enum ml_coll_alg a, long long ranks,
			      long long msg, double model, const struct tpt *dp,
			      struct ml_coll_tuned *out)
{
	const struct tpt *x;
	double dist, dm, c, h, q;
	struct tpt d = {0};

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
	c = ml_tune_corr_at(t, a, ranks, log((double)msg), (size_t)-1, &dist,
			    &dm);
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
	if (a == ML_COLL_DEFAULT && !dp) {
		enum ml_status st = decision_at(t, ranks, msg, &d);

		if (st == ML_ENOMEM)
			return st;
		dp = st == ML_OK ? &d : NULL;
	}
	if (a == ML_COLL_DEFAULT && dp &&
	    !read_as_run(t, ranks, msg, dp))
		h = sqrt(h * h + t->qalg * t->qalg);
	if (isfinite(h)) {
		/* the other class's offset in its rows' share: on the side
		 * the barrier's crossings push, up where the point is of
		 * the slow class (ordinary), down where the rows are */
		double w = other_share(t, a, ranks) * t->qclass,
		       hw = sqrt(h * h + w * w);

		out->lo = out->value * exp(ordinary(t, ranks) ? -hw : -h);
		out->hi = out->value * exp(ordinary(t, ranks) ? h : hw);
	}
	return ML_OK;
}

enum ml_status ml_coll_tune_predict(const struct ml_coll_tune *t,
				    enum ml_coll_alg a, long long ranks,
				    long long msg, double model,
				    struct ml_coll_tuned *out)
{
	return predict(t, a, ranks, msg, model, NULL, out);
}

enum ml_status ml_coll_tune_predict_result(
    const struct ml_coll_tune *t, enum ml_coll_alg a, long long ranks,
    long long msg, const struct ml_collective_result *model,
    struct ml_coll_tuned *out)
{
	struct tpt d = {0};

	d.ran = model->ran;
	d.comp = model->composition;
	return predict(t, a, ranks, msg,
		       t->obj == ML_COLL_BY_AVG ? model->latency_avg
						: model->latency,
		       &d, out);
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
	struct tpt dp = {0}, da = {0};
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
		da.ran = r[a].ran;
		da.comp = r[a].composition;
		st = predict(t, (enum ml_coll_alg)a, p->ranks, p->msg,
			     obj == ML_COLL_BY_AVG ? r[a].latency_avg
						   : r[a].latency,
			     &da, &y[a]);
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
