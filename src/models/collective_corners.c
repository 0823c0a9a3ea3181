/*
 * collective_corners.c - the measured cells around a point decide best's
 * pick where they agree (SPEC 10.7, ml_coll_tune_best): the cells of a
 * candidate and of the default at the measured P rows and sizes around
 * it, counted and pooled, and the leave-one-P-out check that following
 * them gains.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "models/tune_int.h"

double ml_tune_cmp_se(const struct ml_coll_tune *t, const struct tpt *x)
{
	return isnan(x->spread) ? t->run_ratio * x->se : x->se;
}

const struct tpt *ml_tune_measured(const struct ml_coll_tune *t, int a,
				   long long ranks, long long msg)
{
	size_t i, k;

	for (i = t->afirst[a]; i < t->afirst[a] + t->an[a]; i++) {
		const struct trow *w = &t->row[i];

		if (w->ranks != ranks)
			continue;
		for (k = w->first; k < w->first + w->n; k++)
			if (t->pt[k].msg == msg)
				return &t->pt[k];
	}
	return NULL;
}

void ml_tune_bracket(const struct ml_coll_tune *t, const struct trow *w,
		     long long msg, long long *lo, long long *hi)
{
	size_t k;

	*lo = *hi = 0;
	for (k = w->first; k < w->first + w->n; k++) {
		if (t->pt[k].msg <= msg)
			*lo = t->pt[k].msg;
		if (t->pt[k].msg >= msg && *hi == 0)
			*hi = t->pt[k].msg;
	}
	if (*lo == 0)
		*lo = *hi;
	if (*hi == 0)
		*hi = *lo;
}


/* cell_gain's and corner_cmp's outcomes beside ML_OK and -1, 0, 1 */
enum { NO_A = 2, NO_CORNER = 3, SELF = 4 };

/* Candidate a against the default (whose decision at the point runs
 * dp's algorithm) at the cell (ranks, msg): ML_OK with *g the ln gain
 * of a over the comparable default and *e the two medians' standard
 * error (ml_tune_cmp_se's); NO_A where a was not measured there,
 * NO_CORNER where no comparable default was, SELF where it is a itself
 * (the point's default runs a).  *xa: a's cell. */
static int cell_gain(const struct ml_coll_tune *t, int a, long long ranks,
		     long long msg, const struct tpt *dp,
		     const struct tpt **xa, double *g, double *e)
{
	const struct tpt *xd = ml_tune_measured(t, 0, ranks, msg);
	double sa, sd;

	*xa = ml_tune_measured(t, a, ranks, msg);
	if (*xa && xd && (xd->ran != dp->ran || xd->comp != dp->comp))
		xd = dp->ran > 0 && dp->ran < NA && xd->comp == dp->comp
			 ? ml_tune_measured(t, dp->ran, ranks, msg)
			 : NULL;
	if (!*xa)
		return NO_A;
	if (!xd)
		return NO_CORNER;
	if (xd == *xa)
		return SELF;
	sa = ml_tune_cmp_se(t, *xa);
	sd = ml_tune_cmp_se(t, xd);
	*g = log(xd->median / (*xa)->median);
	*e = sqrt(sa * sa + sd * sd);
	return ML_OK;
}

/* Distinct comparable cells' gains of a candidate over the default,
 * pooled. */
struct pool {
	const struct tpt *cell[4];
	int n, faster;
	bool self; /* a cell where the default runs a itself */
	double gsum, e2;
};

/* Note cell_gain's outcome st for cell xa (gain g, standard error e) in
 * the pool, each cell once. */
static void pool_note(struct pool *pl, int st, const struct tpt *xa, double g,
		      double e)
{
	int i;

	pl->self = pl->self || st == SELF;
	if (st != ML_OK || pl->n == 4)
		return;
	for (i = 0; i < pl->n; i++)
		if (pl->cell[i] == xa)
			return;
	pl->cell[pl->n++] = xa;
	pl->faster += g > 0;
	pl->gsum += g;
	pl->e2 += e * e;
}

/* Two cells or more, every one faster, and their mean ln gain above its
 * standard error (sqrt(sum e^2) / n). */
static bool pool_faster(const struct pool *pl)
{
	return !pl->self && pl->n > 1 && pl->faster == pl->n &&
	       pl->gsum / pl->n > sqrt(pl->e2) / pl->n;
}

/* The verdict at cell (ranks, msg) of a against the default: +1 a
 * faster by more than the standard error, -1 slower by more (or the
 * cell is a itself), 0 within; NO_A, NO_CORNER as cell_gain.  The cell
 * is noted in pl unless pl is NULL. */
static int corner_cmp(const struct ml_coll_tune *t, int a, long long ranks,
		      long long msg, const struct tpt *dp,
		      const struct tpt **xa, struct pool *pl)
{
	double g = 0, e = 0;
	int st = cell_gain(t, a, ranks, msg, dp, xa, &g, &e);

	if (pl)
		pool_note(pl, st, *xa, g, e);
	if (st != ML_OK)
		return st == SELF ? -1 : st;
	if (g < -e)
		return -1;
	return g > e;
}

/*
 * Whether the measured sizes of row i on either side of its cell x
 * confirm x's verdict that a is faster: each where comparable
 * (cell_gain), one at least, says a is faster by more than its standard
 * error.  With one run of each cell (the judge's SINGLE=7), EPYC by
 * node's binomial at P = 254 took 0.84 of the default's time at 4 KiB
 * and at 1 KiB: alone, the 4 KiB cell kept the default from P = 128 to
 * 200 (the default's decision at P = 92 runs knomial, at the point
 * binary: that corner is left out).  A median of the three would not
 * do: EPYC packed by socket's default at P = 126, measured once, is 3
 * times its 32 B time at 2 and 8 B.  Unless pl is NULL, x and those
 * sizes are noted in pl too (ml_tune_corners pools them).
 */
static bool row_confirms(const struct ml_coll_tune *t, int a, size_t i,
			 const struct tpt *x, const struct tpt *dp,
			 struct pool *pl)
{
	const struct trow *w = &t->row[i];
	size_t k = (size_t)(x - t->pt);
	int s, n = 0;
	bool ok = true;

	for (s = -1; s <= 1; s++) {
		const struct tpt *y;
		int c;

		if ((s < 0 && k == w->first) ||
		    (s > 0 && k + 1 >= w->first + w->n) || (s == 0 && !pl))
			continue;
		c = corner_cmp(t, a, w->ranks,
			       t->pt[(size_t)((long long)k + s)].msg, dp, &y,
			       pl);
		if (s == 0 || c == NO_A || c == NO_CORNER)
			continue;
		ok = ok && c == 1;
		n++;
	}
	return ok && n > 0;
}

/*
 * What the measured cells around *p say of candidate a against the
 * default: the cells of a's measured P rows nearest p's P below and
 * above (the one beyond the edge), at each row's measured sizes nearest
 * p's size below and above, where the default was measured too.  +1
 * when a is faster by more than the two medians' standard errors
 * (sqrt(se_a^2 + se_d^2), ml_tune_cmp_se's) at most of them (a strict
 * majority) and slower by more at none; -1 when faster at none and slower at most (a
 * corner where a is compared with itself counts as slower: the point's
 * default runs a); 0 otherwise (a tie within the noise at one corner of
 * four no longer leaves the pick to the model alone).  A corner where the default was not measured is left out
 * (the tool's plan on EPYC by socket measured forced binary at P = 255,
 * not the default: reading that as "nothing known" let the model's
 * gain decide at P = 150, from a default corrected by knomial's
 * residual).  Where the default's decision
 * runs another algorithm (or MPICH composition) at a corner than at the
 * point (*dp: Open MPI's knomial below P = 128 and binomial at 128 on
 * EPYC), the default measured there is another broadcast than the
 * point's: the corner compares a with the point's algorithm measured
 * forced there instead, and is left out when it was not (0 when every
 * corner is left out).  Where the corners are one cell of one run (the
 * point's size measured, its P within a doubling of one row; or the
 * other corners left out) that cell alone may be an outlier (EPYC by
 * socket: a default of 424 us among 4 to 20 us ones): ML_TUNE_LONE
 * where it says a is faster and its row's sizes next to it confirm it
 * (row_confirms), else 0 (the model decides).  Beyond the measured P the edge row speaks
 * within a doubling of it, or at any distance with far (best then asks
 * the model to agree).  Unless a is the algorithm the point's default
 * runs, the corners (or the lone cell and its row's sizes beside it)
 * are pooled too: +1 (ML_TUNE_LONE) where every one is faster and their
 * mean gain is above its standard error (pool_faster), though each
 * alone is within its noise (EPYC by node measured once: binomial 10
 * to 25 % faster than the default from P = 128, no single run telling
 * it).  Not where a is the decision's own: there a faster forced run is
 * the same broadcast's noise (EPYC by socket's single runs, 0.001 to 36
 * times the default's, took binary at P = 128 to 144).
 */
int ml_tune_corners(const struct ml_coll_tune *t, int a, long long ranks,
		    long long msg, long long skip, const struct tpt *dp,
		    bool far)
{
	size_t i, lo = (size_t)-1, hi = (size_t)-1, r[2];
	int k, j, n = 0, wins = 0, losses = 0;
	const struct tpt *first = NULL;
	bool many = false;
	int fk = 0;
	struct pool pl = {0};
	/* not where the candidate is the decision's own algorithm: there
	 * a faster forced run is the same broadcast's noise (EPYC by
	 * socket's single runs, 0.001 to 36 times the default's) */
	bool pooled = dp->ran != (enum ml_coll_alg)a;

	for (i = t->afirst[a]; i < t->afirst[a] + t->an[a]; i++) {
		if (t->row[i].ranks == skip)
			continue;
		if (t->row[i].ranks <= ranks)
			lo = i;
		if (t->row[i].ranks >= ranks && hi == (size_t)-1)
			hi = i;
	}
	/* beyond the measured P, the edge row decides only within a
	 * doubling of it (at any distance with far) */
	if (lo == (size_t)-1 && hi != (size_t)-1 &&
	    (far || t->row[hi].ranks <= 2 * ranks))
		lo = hi;
	if (hi == (size_t)-1 && lo != (size_t)-1 &&
	    (far || t->row[lo].ranks * 2 >= ranks))
		hi = lo;
	if (lo == (size_t)-1 || hi == (size_t)-1)
		return 0;
	r[0] = lo;
	r[1] = hi;
	for (k = 0; k < 2; k++) {
		long long m[2];

		ml_tune_bracket(t, &t->row[r[k]], msg, &m[0], &m[1]);
		for (j = 0; j < 2; j++) {
			const struct tpt *xa;
			int c = corner_cmp(t, a, t->row[r[k]].ranks, m[j], dp,
					   &xa, pooled ? &pl : NULL);

			if (c == NO_A)
				return 0;
			if (c == NO_CORNER)
				continue;
			if (!first) {
				first = xa;
				fk = k;
			}
			many = many || xa != first || xa->runs >= 3;
			n++;
			wins += c == 1;
			losses += c == -1;
		}
	}
	/* one run of one cell: not alone, an outlier could decide */
	if (!many && n > 0) {
		struct pool row = {0};
		bool confirms = row_confirms(t, a, r[fk], first, dp,
					     pooled ? &row : NULL);

		return (wins == n && confirms) || (pooled && pool_faster(&row))
			   ? ML_TUNE_LONE
			   : 0;
	}
	if (n == 0)
		return 0;
	if (losses == 0 && 2 * wins > n)
		return 1;
	if (pooled && losses == 0 && pool_faster(&pl))
		return 1;
	if (wins == 0 && 2 * losses > n)
		return -1;
	return 0;
}

/*
 * Do the measured cells that agree predict a P left out?  Each measured
 * P row of the default in turn left out, at each of its cells where a
 * candidate was measured too and the cells around (the row left out
 * not among them) agree the candidate is faster: the candidate's
 * measured gain there.  The corners decide only where those gains are
 * positive on average (or none was seen): with a probe's two P, say,
 * the ranking at one P may not hold at the other.
 */
void ml_tune_corner_check(struct ml_coll_tune *t)
{
	size_t d, k;
	int a;
	double sum[2] = {0, 0};
	size_t n[2] = {0, 0};

	for (d = t->afirst[0]; d < t->afirst[0] + t->an[0]; d++)
		for (k = t->row[d].first; k < t->row[d].first + t->row[d].n;
		     k++)
			for (a = 1; a < NA; a++) {
				const struct tpt *x = ml_tune_measured(
				    t, a, t->row[d].ranks, t->pt[k].msg);
				int v;

				if (!x)
					continue;
				v = ml_tune_corners(t, a, t->row[d].ranks,
						    t->pt[k].msg, t->row[d].ranks,
						    &t->pt[k], false);
				if (v <= 0)
					continue;
				sum[v == ML_TUNE_LONE] +=
				    log(t->pt[k].median / x->median);
				n[v == ML_TUNE_LONE]++;
			}
	t->info.corner_cv = n[0];
	t->info.corner_gain = n[0] ? sum[0] / (double)n[0] : NAN;
	t->corners_ok = n[0] == 0 || sum[0] > 0;
	t->lone_ok = t->corners_ok && (n[1] == 0 || sum[1] > 0);
}
