/*
 * fit_coll_err.c - the error model of a fitted collective machine (SPEC
 * 10.5), measured in the direction predictions go: fit the smaller
 * process counts, judge the larger (forward validation).
 *
 * The machine is refitted, with the same free set, on the ping-pong
 * rows and the broadcasts at P <= c for a few cuts c below the largest
 * fitted P (about half, a quarter and an eighth of it), and judged on
 * the broadcasts above c: each judged point gives d = ln(measured /
 * predicted) at e = log2(P / c) doublings beyond its fit.  The full
 * fit's own broadcasts give d at e = 0.  Per message class the mean
 * square of d is fitted as a line in e (variances add per doubling: a
 * discrepancy that grows like a random walk in log P), sd^2 + growth^2
 * e, by least squares (gsl_fit_linear), clamped at sd^2 > 0 and
 * growth^2 >= 0.  The same for the difference of two algorithms'
 * discrepancies at one point (their means over the runs), which decides
 * whether one algorithm is faster than another.
 *
 * The sub-fits' errors hold the parameters' uncertainty too (fewer
 * points than the full fit: on the safe side), so the interval needs no
 * separate term for it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_fit.h>

#include "fit/fitint.h"
#include "mcastlat/collective.h"

/* One judged point: its class, e, and ln(measured / predicted). */
struct obs {
	int cls;
	double e, d;
};

/* One mean over the runs of a point, for the pairs. */
struct pmean {
	int cut;	  /* which fit judged it (-1: the full fit) */
	size_t key;	  /* first point with the same inputs but the
			   * algorithm */
	size_t grp;	  /* its group of runs */
	enum ml_coll_alg alg;
	double e, sum;
	size_t n;
};

struct obs_set {
	struct obs *o;
	size_t n, cap;
	struct pmean *m;
	size_t nm, capm;
};

static const struct ml_collective_point *pt_at(const struct ml_fit_data *data,
					       size_t i)
{
	return (const struct ml_collective_point *)data->points + i;
}

static bool used(const struct ml_fit_data *data, size_t i)
{
	return !data->use || data->use[i];
}

static bool is_bcast(const struct ml_fit_data *data, size_t i)
{
	return !pt_at(data, i)->p2p;
}

/* p with room for one more of n elements of size bytes (capacity *cap,
 * doubled when full); NULL when out of memory (p is then kept). */
static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? 2 * *cap : 1024;
	void *q;

	if (p && n < *cap)
		return p;
	q = realloc(p, c * size);
	if (q)
		*cap = c;
	return q;
}

static int push_obs(struct obs_set *s, int cls, double e, double d)
{
	struct obs *o = grow(s->o, &s->cap, s->n, sizeof *s->o);

	if (!o)
		return -1;
	s->o = o;
	s->o[s->n].cls = cls;
	s->o[s->n].e = e;
	s->o[s->n].d = d;
	s->n++;
	return 0;
}

/* Add d to the mean of (cut, group), a new entry when it is not the
 * last one (points of a group are adjacent in the scan only when the
 * file keeps runs together: a linear search of the cut's entries
 * otherwise). */
static int push_mean(struct obs_set *s, int cut, size_t key, size_t grp,
		     enum ml_coll_alg alg, double e, double d)
{
	struct pmean *m;
	size_t k;

	for (k = s->nm; k-- > 0 && s->m[k].cut == cut;)
		if (s->m[k].grp == grp) {
			s->m[k].sum += d;
			s->m[k].n++;
			return 0;
		}
	m = grow(s->m, &s->capm, s->nm, sizeof *s->m);
	if (!m)
		return -1;
	s->m = m;
	s->m[s->nm] = (struct pmean){cut, key, grp, alg, e, d, 1};
	s->nm++;
	return 0;
}

static size_t group_of(const struct ml_fit_data *data, size_t i)
{
	return data->group ? data->group[i] : i;
}

/* Record point i, judged by a fit of prediction pred at e doublings. */
static int record(struct obs_set *s, const struct ml_fit_data *data,
		  const size_t *keys, int cut, size_t i, double e, double pred)
{
	double d = log(data->y[i] / pred);
	int cls = ml_coll_msg_class(pt_at(data, i)->p.msg);

	if (!isfinite(d))
		return 0; /* a prediction of 0: nothing to learn */
	if (push_obs(s, cls, e, d))
		return -1;
	return push_mean(s, cut, keys[i], group_of(data, i),
			 pt_at(data, i)->p.algorithm, e, d);
}

/*
 * ms(e) = a + b e by least squares over xs, ys (n of them), clamped at
 * a >= floor and b >= 0 (then a is the plain mean).  Returns -1 when
 * n is 0.
 */
static int ms_line(const double *xs, const double *ys, size_t n, double *a,
		   double *b)
{
	double c0, c1, v00, v01, v11, ss, mean = 0;
	size_t i;
	int distinct = 0;

	if (n == 0)
		return -1;
	for (i = 0; i < n; i++) {
		mean += ys[i] / (double)n;
		if (xs[i] != xs[0])
			distinct = 1;
	}
	if (!distinct ||
	    gsl_fit_linear(xs, 1, ys, 1, n, &c0, &c1, &v00, &v01, &v11, &ss) ||
	    c1 < 0 || c0 <= 0) {
		/* no slope to learn, or one the data do not support:
		 * the plain mean square, growing as the data show where
		 * the intercept alone is negative */
		if (distinct && c1 > 0 && c0 <= 0) {
			*a = 1e-6;
			*b = c1;
			return 0;
		}
		*a = mean;
		*b = 0;
		return 0;
	}
	*a = c0;
	*b = c1;
	return 0;
}

/* Fit the class's (or, cls < 0, every class's) mean square line. */
static int class_line(const struct obs_set *s, int cls, double *a, double *b)
{
	double *x = malloc((s->n + 1) * sizeof *x);
	double *y = malloc((s->n + 1) * sizeof *y);
	size_t i, n = 0;
	int rc;

	if (!x || !y) {
		free(x);
		free(y);
		return -2;
	}
	for (i = 0; i < s->n; i++)
		if (cls < 0 || s->o[i].cls == cls) {
			x[n] = s->o[i].e;
			y[n] = s->o[i].d * s->o[i].d;
			n++;
		}
	rc = ms_line(x, y, n, a, b);
	free(x);
	free(y);
	return rc;
}

/* Does the pair (x, y) count?  want < 0: any two algorithms; 0: one
 * of them the default; a > 0: algorithm a and the default. */
static bool pair_wanted(const struct pmean *x, const struct pmean *y, int want)
{
	if (want < 0)
		return true;
	if (want == 0)
		return x->alg == ML_COLL_DEFAULT || y->alg == ML_COLL_DEFAULT;
	return (x->alg == ML_COLL_DEFAULT && (int)y->alg == want) ||
	       (y->alg == ML_COLL_DEFAULT && (int)x->alg == want);
}

/* The pairs' e and squared difference: every two means of one cut and
 * key from different groups that want selects (pair_wanted).  Returns
 * -2 when out of memory, else 0 with *n pairs in *xs, *ys (freed by the
 * caller). */
static int pairs(const struct obs_set *s, int want, double **xs, double **ys,
		 size_t *npairs)
{
	size_t i, j, n = 0, cap = 0;
	double *x = NULL, *y = NULL;

	for (i = 0; i < s->nm; i++)
		for (j = i + 1; j < s->nm && s->m[j].cut == s->m[i].cut; j++) {
			double dd;

			if (s->m[j].key != s->m[i].key ||
			    s->m[j].grp == s->m[i].grp ||
			    !pair_wanted(&s->m[i], &s->m[j], want))
				continue;
			if (n == cap) {
				size_t c = cap;
				double *nx = grow(x, &c, n, sizeof *x);
				double *ny = nx ? grow(y, &cap, n, sizeof *y)
						: NULL;

				if (!ny) {
					free(nx ? nx : x);
					free(y);
					return -2;
				}
				x = nx;
				y = ny;
			}
			dd = s->m[i].sum / (double)s->m[i].n -
			     s->m[j].sum / (double)s->m[j].n;
			x[n] = s->m[i].e;
			y[n] = dd * dd;
			n++;
		}
	*xs = x;
	*ys = y;
	*npairs = n;
	return 0;
}

/* The pairs' mean square line (pairs, ms_line): -1 with none. */
static int pair_line(const struct obs_set *s, int want, double *a, double *b,
		     size_t *npairs)
{
	double *x, *y;
	int rc = pairs(s, want, &x, &y, npairs);

	if (rc)
		return rc;
	rc = ms_line(x, y, *npairs, a, b);
	free(x);
	free(y);
	return rc;
}

/* Algorithm a's own rms against the default, the growth b taken off
 * each pair (the pooled line's): 0 when a and the default were never
 * measured at one point. */
static int alg_sd(const struct obs_set *s, int a, double b, double *sd)
{
	double *x, *y, ms = 0;
	size_t n, i;
	int rc = pairs(s, a, &x, &y, &n);

	if (rc)
		return rc;
	for (i = 0; i < n; i++)
		ms += (y[i] - b * x[i]) / (double)n;
	*sd = n == 0 ? 0 : sqrt(ms > 1e-6 ? ms : 1e-6);
	free(x);
	free(y);
	return 0;
}

static int cmp_ll(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return (a > b) - (a < b);
}

/* The distinct P of the fitted broadcasts, sorted; their number. */
static size_t distinct_ranks(const struct ml_fit_data *data, long long *ps)
{
	size_t i, n = 0, k = 0;

	for (i = 0; i < data->n; i++)
		if (used(data, i) && is_bcast(data, i))
			ps[n++] = pt_at(data, i)->p.ranks;
	qsort(ps, n, sizeof *ps, cmp_ll);
	for (i = 0; i < n; i++)
		if (k == 0 || ps[i] != ps[k - 1])
			ps[k++] = ps[i];
	return k;
}

/* The cuts: the largest fitted P at or below Pmax / 2, / 4, / 8 with at
 * least two fitted P at or below it (a fit needs more than one), each
 * once. */
static size_t choose_cuts(const long long *ps, size_t np, long long *cuts)
{
	size_t nc = 0, i;
	int j;

	for (j = 1; j <= ML_COLL_ERR_MAXCUTS && np >= 3; j++) {
		long long lim = ps[np - 1] >> j;

		for (i = np; i-- > 1;)
			if (ps[i] <= lim)
				break;
		if (i < 1 || ps[i] > lim)
			continue;
		if (nc > 0 && cuts[nc - 1] == ps[i])
			continue;
		cuts[nc++] = ps[i];
	}
	return nc;
}

/* Drop from free[0..*n) the names of the combination an undetermined
 * fit reports; 0 when none could be dropped. */
static int drop_combo(const struct ml_fit_result *r, const char **free,
		      size_t *n)
{
	size_t i, j, k = 0;
	int dropped = 0;

	for (i = 0; i < *n; i++) {
		for (j = 0; j < r->ncombo; j++)
			if (strcmp(free[i], r->combo[j]) == 0)
				break;
		if (j < r->ncombo) {
			dropped = 1;
			continue;
		}
		free[k++] = free[i];
	}
	*n = k;
	return dropped;
}

/*
 * Fit sub (its use[] the cut's) with the free set, less what its data do
 * not determine: each such parameter is held at the full fit's value in
 * pts (a writable copy of the points).  On ML_OK *res holds the fit.
 */
static enum ml_status fit_what_is_determined(
    const struct ml_fit_model *m, struct ml_fit_data *sub, void *pts,
    const char *const *freeset, size_t nfree, const struct ml_fit_options *o,
    const struct ml_fit_result *full, struct ml_fit_result *res)
{
	const char *free[ML_FIT_MAXFREE];
	struct ml_diag d = {NULL, ""};
	size_t n = nfree, i, j;
	enum ml_status st;

	memcpy(free, freeset, nfree * sizeof *free);
	for (;;) {
		memset(res, 0, sizeof *res);
		st = ml_fit(m, sub, free, n, o, res, &d);
		if (st != ML_EUNIDENT || !drop_combo(res, free, &n) || n == 0)
			return st;
		/* The dropped ones: the full fit's values in every point. */
		for (j = 0; j < full->nfree; j++) {
			for (i = 0; i < n; i++)
				if (strcmp(free[i], full->names[j]) == 0)
					break;
			if (i < n)
				continue;
			for (i = 0; i < sub->n; i++)
				ml_fit_set(m, (char *)pts + i * ml_fit_params_size(m),
					   full->names[j], full->value[j]);
		}
		sub->points = pts;
	}
}

/* One forward fit at cut c: judge the broadcasts above it. */
static enum ml_status forward(const struct ml_fit_model *m,
			      const struct ml_fit_data *data,
			      const char *const *freeset, size_t nfree,
			      const struct ml_fit_options *o,
			      const struct ml_fit_result *full, long long c,
			      int cut, const size_t *keys, bool *use,
			      struct obs_set *s, size_t *judged)
{
	struct ml_fit_data sub = *data;
	struct ml_fit_result res;
	size_t size = ml_fit_params_size(m), i;
	void *pts = malloc(data->n * size + 1);
	enum ml_status st;

	if (!pts)
		return ML_ENOMEM;
	memcpy(pts, data->points, data->n * size);
	for (i = 0; i < data->n; i++)
		use[i] = used(data, i) &&
			 (!is_bcast(data, i) || pt_at(data, i)->p.ranks <= c);
	sub.use = use;
	st = fit_what_is_determined(m, &sub, pts, freeset, nfree, o, full,
				    &res);
	free(pts);
	if (st != ML_OK)
		return st;
	*judged = 0;
	for (i = 0; i < data->n; i++) {
		long long p = pt_at(data, i)->p.ranks;

		if (!used(data, i) || !is_bcast(data, i) || p <= c)
			continue;
		if (record(s, data, keys, cut, i, log2((double)p / (double)c),
			   res.pred[i])) {
			ml_fit_result_free(&res);
			return ML_ENOMEM;
		}
		(*judged)++;
	}
	ml_fit_result_free(&res);
	return ML_OK;
}

/* A broadcast's place, for sorting points into the pairs' keys: its
 * size, library and placement (every input but the algorithm's). */
struct place {
	const struct ml_collective_params *p;
	size_t i;
};

/* By the place: 0 when a and b are at the same place. */
static int cmp_keys(const struct place *a, const struct place *b)
{
	const struct ml_collective_params *x = a->p, *y = b->p;

	if (x->msg != y->msg)
		return x->msg < y->msg ? -1 : 1;
	if (x->library != y->library)
		return x->library < y->library ? -1 : 1;
	return ml_collective_place_cmp(x, y);
}

static int cmp_place(const void *x, const void *y)
{
	const struct place *a = x, *b = y;
	int c = cmp_keys(a, b);

	return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* The keys of the pairs, one per point: the first point at the same
 * place (every input but the algorithm's), by sorting. */
static size_t *pair_keys(const struct ml_fit_data *data)
{
	size_t *keys = malloc((data->n + 1) * sizeof *keys), i, k;
	struct place *pl = malloc((data->n + 1) * sizeof *pl);

	if (!keys || !pl) {
		free(keys);
		free(pl);
		return NULL;
	}
	for (i = 0; i < data->n; i++) {
		pl[i] = (struct place){&pt_at(data, i)->p, i};
		keys[i] = i;
	}
	qsort(pl, data->n, sizeof *pl, cmp_place);
	for (i = 0, k = 0; i < data->n; i++) {
		if (i > 0 && cmp_keys(&pl[i], &pl[k]) != 0)
			k = i;
		if (is_bcast(data, pl[i].i))
			keys[pl[i].i] = pl[k].i;
	}
	free(pl);
	return keys;
}

/* The model from the lines: per class, the pooled line where a class has
 * no point; the pairs' where none from twice the pooled variance
 * (independent errors: on the safe side). */
static int estimate(const struct obs_set *s, struct ml_coll_errmodel *em,
		    struct ml_coll_errfit *info)
{
	double pa, pb, a, b;
	int k, rc;

	rc = class_line(s, -1, &pa, &pb);
	if (rc)
		return rc;
	for (k = 0; k < ML_COLL_NCLASS; k++) {
		rc = class_line(s, k, &a, &b);
		if (rc == -2)
			return rc;
		if (rc == -1) {
			a = pa;
			b = pb;
		}
		em->sd[k] = sqrt(a);
		em->growth[k] = sqrt(b);
	}
	/* Decisions are against the default: its pairs where there are
	 * any, else any two algorithms'. */
	rc = pair_line(s, 0, &a, &b, &info->npairs);
	if (rc == -1)
		rc = pair_line(s, -1, &a, &b, &info->npairs);
	if (rc == -2)
		return rc;
	if (rc == -1) {
		a = 2 * pa;
		b = 2 * pb;
	}
	em->diff_sd = sqrt(a);
	em->diff_growth = sqrt(b);
	/* Each measured algorithm its own (used where it is larger than
	 * the pooled value). */
	for (k = 1; k <= ML_COLL_NALG; k++)
		if (alg_sd(s, k, b, &em->diff_alg[k]))
			return -2;
	return 0;
}

/* The most ranks one socket held in a fitted broadcast (each run of
 * points of one placement placed once). */
static long long socket_ranks(const struct ml_fit_data *data)
{
	const struct ml_collective_params *last = NULL;
	long long most = 0, n = 0;
	size_t i;

	for (i = 0; i < data->n; i++) {
		const struct ml_collective_params *p = &pt_at(data, i)->p;

		if (!used(data, i) || !is_bcast(data, i))
			continue;
		if (!last || ml_collective_place_cmp(last, p) != 0 ||
		    last->ranks != p->ranks)
			n = ml_coll_socket_ranks(p);
		last = p;
		if (n > most)
			most = n;
	}
	return most;
}

enum ml_status ml_fit_collective_errmodel(const struct ml_fit_data *data,
					  const char *const *freeset,
					  size_t nfree,
					  const struct ml_fit_options *o,
					  const struct ml_fit_result *full,
					  struct ml_coll_errmodel *em,
					  struct ml_coll_errfit *info,
					  struct ml_diag *d)
{
	struct obs_set s = {NULL, 0, 0, NULL, 0, 0};
	long long *ps = malloc((data->n + 1) * sizeof *ps);
	bool *use = malloc((data->n + 1) * sizeof *use);
	size_t *keys = pair_keys(data);
	size_t np, i, j;
	enum ml_status st = ML_OK;

	ml_coll_errmodel_init(em);
	memset(info, 0, sizeof *info);
	if (!ps || !use || !keys) {
		st = ML_ENOMEM;
		goto out;
	}
	np = distinct_ranks(data, ps);
	if (np == 0) {
		st = ml_diag_set(d, "ranks",
				 "no broadcast was fitted: no error model");
		goto out;
	}
	em->fit_ranks = ps[np - 1];
	em->fit_socket_ranks = socket_ranks(data);
	for (i = 0; i < data->n; i++)
		if (used(data, i) && is_bcast(data, i) &&
		    record(&s, data, keys, -1, i, 0, full->pred[i])) {
			st = ML_ENOMEM;
			goto out;
		}
	info->nfitted = s.n;
	info->ncuts = choose_cuts(ps, np, info->cut);
	for (j = 0; j < info->ncuts; j++) {
		size_t judged = 0;

		st = forward(&ml_fit_collective, data, freeset, nfree, o, full,
			     info->cut[j], (int)j, keys, use, &s, &judged);
		if (st == ML_ENOMEM)
			goto out;
		info->judged[j] = st == ML_OK ? judged : 0;
		info->status[j] = st;
		info->nforward += st == ML_OK && judged > 0;
		st = ML_OK;
	}
	for (i = info->nfitted; i < s.n; i++) {
		info->fwd_rms += s.o[i].d * s.o[i].d;
		info->nfwd++;
	}
	info->fwd_rms = info->nfwd ? sqrt(info->fwd_rms / (double)info->nfwd)
				   : NAN;
	if (estimate(&s, em, info))
		st = ML_ENOMEM;
	/* Without two forward judgements the growth is not measured, or
	 * rests on one extrapolation (EPYC fitted on P <= 20: one cut at 8,
	 * judged at 14 and 20, saw no growth at 1 byte, and the misses
	 * beyond were 4-fold): the variance is taken to double at least
	 * with each doubling of P. */
	if (st == ML_OK && info->nforward < 2) {
		for (j = 0; j < ML_COLL_NCLASS; j++)
			em->growth[j] = fmax(em->growth[j], em->sd[j]);
		em->diff_growth = fmax(em->diff_growth, em->diff_sd);
	}
out:
	if (st != ML_OK)
		ml_coll_errmodel_init(em);
	free(s.o);
	free(s.m);
	free(ps);
	free(use);
	free(keys);
	return st;
}
