/*
 * plan.c - the measurement plan of SPEC 10.7 (ml_collective_plan): which
 * broadcasts to measure on an allocation for a budget of points, so that
 * `fit collective` and `best` see the whole allocation.
 *
 * The plan is a grid per placement: process counts x sizes x every
 * candidate (so that at each measured cell the candidates are compared
 * by measurement).  With C = budget / (candidates x placements) cells a
 * placement, it takes nP = floor(sqrt(C)) process counts (at least 2, at
 * most as many as there are) and nM = floor(C / nP) sizes (at most as
 * many as there are; what is left over goes back to the process counts).
 *
 *   - Process counts: log-spaced from the least (2) to the most (ppn x
 *     nodes), both included: the i-th of n aims at lo (hi/lo)^(i/(n-1))
 *     and takes the nearest count not taken yet; with --map-by node,
 *     both classes of P in the Bruck barrier's range (both_classes).
 *   - Sizes, in order of priority until nM are taken: the least and the
 *     largest; the two sizes around the eager limit (the largest <=
 *     eager, the smallest above: the protocol switch); while two
 *     sizes taken are a factor 16 or more apart, the size farthest (in
 *     log M) from every size taken; the two around
 *     each size bound of Open MPI's fixed decision (ml_collective_ompi_
 *     decide: M < bound) in the rows of the planned process counts,
 *     largest P's row first; then, one at a time, the size farthest (in
 *     log M) from every size taken (of equals, the one in the widest
 *     gap between sizes taken).  The sizes are the powers of two
 *     between msg_min and msg_max and both ends, or the caller's list.
 *
 * Pure: the rows are allocated here and freed by ml_collective_plan_free.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcastlat/collective.h"

/* The values the plan chooses from: an explicit sorted list, or every
 * integer in [lo, hi]. */
struct universe {
	const long long *v; /* sorted, distinct; NULL: the integers */
	long long n;
	long long lo, hi;
};

static long long uni_at(const struct universe *u, long long i)
{
	return u->v ? u->v[i] : u->lo + i;
}

static bool taken(const long long *t, size_t n, long long x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i] == x)
			return true;
	return false;
}

/* The index of the first member of u >= x (u->n - 1 when none is). */
static long long first_at_least(const struct universe *u, double x)
{
	long long lo = 0, hi = u->n - 1, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((double)uni_at(u, mid) < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The index of the member of u nearest to x in log (ties: the lower),
 * among those not in t; -1 when every member is taken. */
static long long nearest_free(const struct universe *u, double x,
			      const long long *t, size_t nt)
{
	long long lo = first_at_least(u, x), a, b;

	for (a = lo - 1, b = lo; a >= 0 || b < u->n;) {
		bool fa = a >= 0 && !taken(t, nt, uni_at(u, a));
		bool fb = b < u->n && !taken(t, nt, uni_at(u, b));

		if (fa && fb)
			return log(x / (double)uni_at(u, a)) <=
				       log((double)uni_at(u, b) / x)
				   ? a
				   : b;
		if (fa)
			return a;
		if (fb)
			return b;
		a--;
		b++;
	}
	return -1;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* n log-spaced members of u into out (sorted). */
static void log_spaced(const struct universe *u, long long n, long long *out)
{
	double lo = (double)uni_at(u, 0), hi = (double)uni_at(u, u->n - 1);
	long long i, k;

	for (i = 0; i < n; i++) {
		double x = n == 1
			       ? lo
			       : lo * pow(hi / lo, (double)i / (double)(n - 1));

		/* Exact ends, whatever the rounding of pow. */
		if (i == n - 1)
			x = hi;
		k = nearest_free(u, x, out, (size_t)i);
		out[i] = uni_at(u, k);
	}
	qsort(out, (size_t)n, sizeof *out, cmp_ll);
}

/*
 * With --map-by node on several nodes, osu_bcast's measured times at
 * the P after the crossing barrier (ml_collective_barrier_uneven) are
 * of another class than the rest, whose offset the corrected predictor
 * can only widen its intervals for where no row of the class was
 * measured; where two or more planned P lie where the barrier is Bruck
 * and all are of one class, the one whose nearest free count of the
 * other class is nearest (in log) moves there.
 */
static void both_classes(const struct universe *u, long long nodes,
			 long long *t, size_t nt)
{
	size_t i, in = 0, slow = 0, best = nt;
	long long to = 0;
	double gap = INFINITY;

	for (i = 0; i < nt; i++)
		if (ml_collective_barrier_decide(t[i]) ==
			ML_COLL_BARRIER_BRUCK) {
			in++;
			slow += ml_collective_barrier_uneven(t[i], nodes);
		}
	if (in < 2 || (slow > 0 && slow < in))
		return;
	for (i = 0; i < nt; i++) {
		long long at, k, side;

		if (ml_collective_barrier_decide(t[i]) != ML_COLL_BARRIER_BRUCK)
			continue;
		at = first_at_least(u, (double)t[i]);
		/* outward on each side, while nearer than the best so far */
		for (side = -1; side <= 1; side += 2)
			for (k = at + side; k >= 0 && k < u->n; k += side) {
				long long m = uni_at(u, k);
				double g = fabs(log((double)m / (double)t[i]));

				if (g >= gap)
					break;
				if (ml_collective_barrier_uneven(m, nodes) ==
					(slow == 0) &&
				    ml_collective_barrier_decide(m) ==
					ML_COLL_BARRIER_BRUCK &&
				    !taken(t, nt, m)) {
					gap = g;
					best = i;
					to = m;
					break;
				}
			}
	}
	if (best < nt) {
		t[best] = to;
		qsort(t, nt, sizeof *t, cmp_ll);
	}
}

/* Adds to t (nt of cap) the member of u nearest below or at x (under:
 * the largest <= x), or above x (the smallest > x), if any and new. */
static void add_side(const struct universe *u, long long x, bool under,
		     long long *t, size_t *nt, size_t cap)
{
	long long i, pick = -1;

	for (i = 0; i < u->n; i++) {
		long long m = uni_at(u, i);

		if (under && m <= x)
			pick = i;
		if (!under && m > x) {
			pick = i;
			break;
		}
	}
	if (pick >= 0 && *nt < cap && !taken(t, *nt, uni_at(u, pick)))
		t[(*nt)++] = uni_at(u, pick);
}

/* Open MPI 4.1's fixed decision's size bounds in the row of P: the M at
 * which its choice changes (the M where ml_collective_ompi_decide's
 * answer differs from M - 1), scanned over powers of two and their
 * neighbours, into b (at most cap); their number. */
static size_t decision_bounds(long long P, long long mmax, long long *b,
			      size_t cap)
{
	size_t n = 0;
	long long m;

	for (m = 2; m <= mmax && n < cap; m *= 2)
		if (ml_collective_ompi_decide(P, m) !=
		    ml_collective_ompi_decide(P, m - 1))
			b[n++] = m;
	return n;
}

/* The width in log of the gap between members of t (n) that x lies
 * in: from the largest below x to the smallest above (an open end
 * counts as x itself). */
static double gap_around(double x, const long long *t, size_t n)
{
	double lo = x, hi = x;
	size_t k;

	for (k = 0; k < n; k++) {
		double v = (double)t[k];

		if (v < x && (lo == x || v > lo))
			lo = v;
		if (v > x && (hi == x || v < hi))
			hi = v;
	}
	return log(hi / lo);
}

/* Adds to t (*nt) the member of u farthest in log from every member of
 * t, of those as far the one in the widest gap (8 B, 512 B and 64 KiB
 * are each 3 doublings from 1, 64, 4 KiB, 8 KiB and 1 MiB taken, but
 * the gap 64 KiB lies in is the widest); false when every member is
 * taken. */
static bool add_farthest(const struct universe *u, long long *t, size_t *nt)
{
	long long j, best = -1;
	double far = -1, wide = -1;
	size_t k;

	for (j = 0; j < u->n; j++) {
		double x = (double)uni_at(u, j), d = INFINITY, g;

		if (taken(t, *nt, uni_at(u, j)))
			continue;
		for (k = 0; k < *nt; k++) {
			double e = fabs(log(x / (double)t[k]));

			d = e < d ? e : d;
		}
		if (d < far - 1e-9)
			continue;
		g = gap_around(x, t, *nt);
		if (d > far + 1e-9 || g > wide + 1e-9) {
			far = d;
			wide = g;
			best = j;
		}
	}
	if (best < 0)
		return false;
	t[(*nt)++] = uni_at(u, best);
	return true;
}

/* The widest gap in log between sizes of t (n) next to each other:
 * for each, the ratio to the next larger one. */
static double widest_gap(const long long *t, size_t n)
{
	size_t i, j;
	double w = 0;

	for (i = 0; i < n; i++) {
		long long next = 0;

		for (j = 0; j < n; j++)
			if (t[j] > t[i] && (next == 0 || t[j] < next))
				next = t[j];
		if (next)
			w = fmax(w, log((double)next / (double)t[i]));
	}
	return w;
}

/* nm sizes of u into out (sorted), by the priorities of the comment at
 * the top; P, np: the planned process counts. */
static void choose_sizes(const struct universe *u, long long nm,
			 long long eager, const long long *P, long long np,
			 long long *out)
{
	size_t n = 0, cap = (size_t)nm, nb, k;
	long long i, b[64];

	out[n++] = uni_at(u, 0);
	if (n < cap && !taken(out, n, uni_at(u, u->n - 1)))
		out[n++] = uni_at(u, u->n - 1);
	add_side(u, eager, true, out, &n, cap);
	add_side(u, eager, false, out, &n, cap);
	/* No two sizes a factor 16 or more apart while the budget lasts:
	 * the decision's bounds cluster between 4 KiB and 64 KiB, and
	 * taking them first left 4 B to 2 KiB unmeasured on EPYC. */
	while (n < cap && widest_gap(out, n) > log(16.0) + 1e-9 &&
	       add_farthest(u, out, &n))
		;
	for (i = np - 1; i >= 0 && n < cap; i--) {
		nb = decision_bounds(P[i], uni_at(u, u->n - 1), b, 64);
		for (k = 0; k < nb; k++) {
			/* M < bound: the last size below, the first at. */
			add_side(u, b[k] - 1, true, out, &n, cap);
			add_side(u, b[k] - 1, false, out, &n, cap);
		}
	}
	/* The rest: the member farthest in log from those taken. */
	while (n < cap && add_farthest(u, out, &n))
		;
	qsort(out, n, sizeof *out, cmp_ll);
}

/* A sorted distinct copy of list (n) into *out and its length, or -1
 * when out of memory. */
static long long sorted_copy(const long long *list, size_t n, long long **out)
{
	long long *c = malloc((n ? n : 1) * sizeof *c);
	size_t i, k = 0;

	if (!c)
		return -1;
	memcpy(c, list, n * sizeof *c);
	qsort(c, n, sizeof *c, cmp_ll);
	for (i = 0; i < n; i++)
		if (k == 0 || c[i] != c[k - 1])
			c[k++] = c[i];
	*out = c;
	return (long long)k;
}

void ml_collective_plan_init(struct ml_coll_plan_params *pp)
{
	memset(pp, 0, sizeof *pp);
	pp->ppn = 1;
	pp->sockets = 1;
	pp->nodes = 2;
	pp->maps = 1u << ML_COLL_MAP_CORE;
	pp->among = ML_COLL_AMONG(ML_COLL_DEFAULT);
	for (int a = 1; a <= ML_COLL_NALG; a++)
		pp->among |= ML_COLL_AMONG(a);
	pp->msg_min = 1;
	pp->msg_max = 1LL << 20;
	pp->eager = 4096;
}

void ml_collective_plan_free(struct ml_coll_plan *pl)
{
	if (!pl)
		return;
	free(pl->rows);
	free(pl->ranks);
	free(pl->msgs);
	memset(pl, 0, sizeof *pl);
}

static enum ml_status check(const struct ml_coll_plan_params *pp,
			    struct ml_diag *d)
{
	size_t i;

	if (pp->ppn < 1 || pp->ppn > ML_COLL_MAX_RANKS)
		return ml_diag_set(d, "ppn", "must be in [1, 2^24]");
	if (pp->sockets < 1 || pp->ppn % pp->sockets != 0)
		return ml_diag_set(d, "sockets",
				   "%lld does not divide ppn = %lld",
				   pp->sockets, pp->ppn);
	if (pp->nodes < 1 || pp->nodes > ML_COLL_MAX_RANKS / pp->ppn)
		return ml_diag_set(d, "nodes",
				   "must be >= 1, and nodes x ppn <= 2^24");
	if (pp->ppn * pp->nodes < 2)
		return ml_diag_set(d, "nodes",
				   "the allocation holds one rank: "
				   "a broadcast needs two");
	if (pp->maps == 0 || pp->maps >> (ML_COLL_MAP_NODE + 1))
		return ml_diag_set(d, "map-by", "no placement to plan");
	if ((pp->among & ((1u << (ML_COLL_NALG + 1)) - 1)) == 0)
		return ml_diag_set(d, "among", "no candidate of Open MPI's");
	if (pp->budget < 0)
		return ml_diag_set(d, "budget", "must be >= 0");
	if (pp->ranks_max != 0 &&
	    (pp->ranks_max < 2 || pp->ranks_max > pp->ppn * pp->nodes))
		return ml_diag_set(d, "ranks",
				   "%lld is not in [2, %lld] (ppn x nodes)",
				   pp->ranks_max, pp->ppn * pp->nodes);
	if (pp->eager < 0)
		return ml_diag_set(d, "eager", "must be >= 0");
	if (!pp->msgs && (pp->msg_min < 1 || pp->msg_max < pp->msg_min ||
			  pp->msg_max > ML_COLL_MAX_MSG))
		return ml_diag_set(d, "msg",
				   "the sizes' range must be 1 <= "
				   "least <= largest <= 2^40");
	for (i = 0; pp->msgs && i < pp->nmsgs; i++)
		if (pp->msgs[i] < 1 || pp->msgs[i] > ML_COLL_MAX_MSG)
			return ml_diag_set(d, "msg",
					   "%lld is not a size in "
					   "[1, 2^40]",
					   pp->msgs[i]);
	for (i = 0; pp->ranks && i < pp->nranks; i++)
		if (pp->ranks[i] < 2 || pp->ranks[i] > pp->ppn * pp->nodes)
			return ml_diag_set(d, "ranks",
					   "%lld is not in [2, %lld] "
					   "(ppn x nodes)",
					   pp->ranks[i], pp->ppn * pp->nodes);
	if ((pp->ranks && pp->nranks == 0) || (pp->msgs && pp->nmsgs == 0))
		return ml_diag_set(d,
				   pp->ranks && !pp->nranks ? "ranks" : "msg",
				   "an empty list");
	return ML_OK;
}

/* The powers of two in (lo, hi) and both ends, into a new array. */
static long long size_range(long long lo, long long hi, long long **out)
{
	long long n = 0, m, *v = malloc(64 * sizeof *v);

	if (!v)
		return -1;
	v[n++] = lo;
	for (m = 1; m < hi; m *= 2)
		if (m > lo)
			v[n++] = m;
	if (hi > lo)
		v[n++] = hi;
	*out = v;
	return n;
}

enum ml_status ml_collective_plan(const struct ml_coll_plan_params *pp,
				  struct ml_coll_plan *pl, struct ml_diag *d)
{
	struct universe pu = {0}, mu = {0};
	long long *pv = NULL, *mv = NULL, ncand = 0, nmap = 0, c, np, nm,
		  minimum, budget, y, i, j, a;
	enum ml_status st;

	memset(pl, 0, sizeof *pl);
	st = check(pp, d);
	if (st != ML_OK)
		return st;
	for (a = 0; a <= ML_COLL_NALG; a++)
		ncand += pp->among >> a & 1;
	for (y = 0; y <= ML_COLL_MAP_NODE; y++)
		nmap += pp->maps >> y & 1;
	if (pp->ranks) {
		pu.n = sorted_copy(pp->ranks, pp->nranks, &pv);
		pu.v = pv;
	} else {
		pu.lo = 2;
		pu.hi = pp->ranks_max ? pp->ranks_max : pp->ppn * pp->nodes;
		pu.n = pu.hi - pu.lo + 1;
	}
	mu.n = pp->msgs ? sorted_copy(pp->msgs, pp->nmsgs, &mv)
			: size_range(pp->msg_min, pp->msg_max, &mv);
	mu.v = mv;
	if (pu.n < 0 || mu.n < 0) {
		st = ML_ENOMEM;
		goto out;
	}
	minimum = (pu.n < 2 ? pu.n : 2) * (mu.n < 2 ? mu.n : 2) * ncand * nmap;
	budget = pp->budget;
	if (budget == 0) {
		/* 5 % of the full grid (of its P rows), rounded up, but no
		 * more than the grid of 2 process counts a doubling of P: the density 5 %
		 * gives on 256 ranks (16 counts), where the tuner was
		 * judged; on 1000 nodes of 128 cores 5 % is 403,000
		 * broadcasts, which no allocation runs, and the corrected
		 * predictor interpolates over log P anyway. */
		double pmax = pu.n > 0 ? (double)uni_at(&pu, pu.n - 1) : 2,
		       rows = fmin(0.05 * (double)pu.n,
				   1 + ceil(2 * log2(fmax(pmax, 2) / 2)));

		budget = (long long)ceil(rows * (double)mu.n *
					 (double)(ncand * nmap));
		if (budget < minimum)
			budget = minimum;
	}
	if (budget < minimum) {
		st = ml_diag_set(d, "budget",
				 "%lld points cannot hold 2 process counts x 2 "
				 "sizes x %lld candidates x %lld placements "
				 "(at least %lld)",
				 budget, ncand, nmap, minimum);
		goto out;
	}
	c = budget / (ncand * nmap);
	np = (long long)floor(sqrt((double)c));
	np = np < 2 ? 2 : np;
	np = np > pu.n ? pu.n : np;
	nm = c / np > mu.n ? mu.n : c / np;
	if (nm == mu.n && c / nm > np)
		np = c / nm > pu.n ? pu.n : c / nm;
	pl->ranks = malloc((size_t)np * sizeof *pl->ranks);
	pl->msgs = malloc((size_t)nm * sizeof *pl->msgs);
	pl->rows = malloc((size_t)(np * nm * ncand * nmap) * sizeof *pl->rows);
	if (!pl->ranks || !pl->msgs || !pl->rows) {
		st = ML_ENOMEM;
		goto out;
	}
	log_spaced(&pu, np, pl->ranks);
	if (pp->maps >> ML_COLL_MAP_NODE & 1)
		both_classes(&pu, pp->nodes, pl->ranks, (size_t)np);
	choose_sizes(&mu, nm, pp->eager, pl->ranks, np, pl->msgs);
	pl->nranks = np;
	pl->nmsgs = nm;
	pl->budget = budget;
	for (y = 0; y <= ML_COLL_MAP_NODE; y++)
		for (i = 0; (pp->maps >> y & 1) && i < np; i++)
			for (j = 0; j < nm; j++)
				for (a = 0; a <= ML_COLL_NALG; a++) {
					struct ml_coll_plan_row *r =
					    &pl->rows[pl->n];

					if (!(pp->among >> a & 1))
						continue;
					r->alg = (enum ml_coll_alg)a;
					r->ranks = pl->ranks[i];
					r->msg = pl->msgs[j];
					r->map_by = (enum ml_coll_map)y;
					pl->n++;
				}
out:
	free(pv);
	free(mv);
	if (st != ML_OK)
		ml_collective_plan_free(pl);
	return st;
}
