/*
 * stats.c - the measurement's statistics: batch means of message latency
 * and their 95 % interval, adjusted for the skewness and the remaining
 * autocorrelation of the batch means as Skart does.
 *
 * The method.  Skart (A. Tafazzoli and J. R. Wilson, "Skart: a skewness-
 * and autoregression-adjusted batch-means procedure for simulation
 * analysis", IIE Transactions 43(2), 2011) and its nonsequential form
 * N-Skart (Winter Simulation Conference 2009), read with the batch-count
 * growth of Glynn and Whitt (Operations Research Letters 10, 1991: no
 * procedure with a fixed number of batches estimates the variance
 * consistently as the run grows).  In order:
 *
 * 1. Storage (Fishman and Yarberry's LBATCH bookkeeping, INFORMS J.
 *    Computing 9(3), 1997): the observations, in the order the messages
 *    complete, fill SIM_NB_MAX = 1024 fine batches of one message; when
 *    they are full, adjacent pairs merge at the next observation, so the
 *    fine batch size doubles and memory stays constant.
 *
 * 2. Randomness (Skart's test, von Neumann's): group the fine batches g
 *    at a time, g = 1, 2, 4, ... while at least SIM_NB_TEST = 128 groups
 *    remain, and take the first g whose group means Y_1 .. Y_k pass von
 *    Neumann's test: with C = 1 - sum (Y_i+1 - Y_i)^2 / (2 sum (Y_i -
 *    Ybar)^2), about normal with mean 0 and variance (k - 2) / (k^2 - 1)
 *    under independence, they pass when C <= z_0.8 sqrt((k - 2) / (k^2 -
 *    1)) (one-sided, Skart's 20 % level: the test errs towards longer
 *    batches).  Until some g passes there is no interval (NaN).
 *
 * 3. Growth (Skart's inflation f = sqrt(N / n_test), which grows both
 *    the batch size and the batch count as the square root of the run):
 *    the interval's batches are the tested ones merged 2^e at a time,
 *    e the largest with k_test / 4^e >= 128, so k_test = 128, 256, 512,
 *    1024 tested batches give 128, 256, 256, 512 batches of the
 *    interval, each at least as long as the tested ones.  The count is
 *    capped at 512 by the memory; the t quantile with 255 degrees of
 *    freedom is within 0.5 % of the normal's, and the variance estimate
 *    is then within about 6 % (one standard error, sqrt(2 / 511)), so
 *    growing further would change an interval little.
 *
 * 4. Autocorrelation (Skart's first-order autoregressive adjustment):
 *    with phi the lag-1 autocorrelation of the k batch means of the
 *    interval, their variance S^2 is multiplied by A = (1 + phi) /
 *    (1 - phi), the ratio of the variance of the mean of an AR(1)
 *    sequence to that of an independent one (large k).  phi is taken as
 *    0 when negative (sampling noise: batch means of a queue's latency
 *    are not negatively correlated) and at most 0.9.
 *
 * 5. Skewness (Skart's Cornish-Fisher adjustment, Willink's form of
 *    it, R. Willink, Communications in Statistics - Theory and Methods
 *    34, 2005): with B the sample skewness of the spaced batch means
 *    (every other one, k'' = k / 2 of them, so that their correlation
 *    does not bias it) and beta = B / (6 sqrt(k'')), the t ratio's
 *    quantile zeta becomes G(zeta) = ((1 + 6 beta (zeta - beta))^(1/3)
 *    - 1) / (2 beta), and Skart's interval is [Ybar - G(t) se, Ybar -
 *    G(-t) se], se = sqrt(A S^2 / k), t = t_{0.975, k'' - 1} (Skart's
 *    degrees of freedom).  Positive skewness (long excursions of the
 *    latency) moves it upwards; we report the symmetric interval that
 *    contains it, half-width se max(G(t), -G(-t)).
 *
 * 6. A run's report (fixed length, or cut) whose batches pass the test
 *    with no grouping of 128 tries on down to SIM_NB_REPORT = 16 groups
 *    (Schmeiser's 10 to 30 batches): the test has little power there,
 *    so such an interval is the best the run's length allows, not one
 *    the stopping rule would accept.  If none passes even then, the
 *    report still gives the interval of the longest batches that number
 *    at least 16, untested, as N-Skart delivers an interval for a data
 *    set of any size: the autoregressive adjustment (phi up to 0.9, A up
 *    to 19) and the skewness adjustment carry the remaining correlation
 *    and the excursions; coverage is measured (mcastlat-simulate(1),
 *    MEASUREMENT).  NaN is left for fewer than 16 observations.
 *
 * A trace's messages are not a stationary sequence: its interval is the
 * plain Student t interval of the fine batches (one message each until
 * 1024 are held).  The stopping rule's decision at a look is here
 * (ml_bm_calm(), ml_stop_rule()); sim.c (converged()) says why and
 * carries it out.
 */
#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "sim/simint.h"

void ml_batches_init(struct batches *b, int independent)
{
	memset(b, 0, sizeof(*b));
	b->size = 1;
	b->indep = independent;
}

void ml_batches_full(struct batches *b)
{
	b->fresh = 1;
}

void ml_batches_merge(struct batches *b)
{
	unsigned i;

	for (i = 0; i < SIM_NB_MAX / 2; i++)
		b->mean[i] = (b->mean[2 * i] + b->mean[2 * i + 1]) / 2;
	b->nb = SIM_NB_MAX / 2;
	b->size *= 2;
}

double ml_t_half(double s, unsigned long n)
{
	if (n < 2)
		return NAN;
	return gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * s / sqrt((double)n);
}

int ml_von_neumann_random(const double *y, unsigned k)
{
	double m, ss = 0, sd = 0, c;
	unsigned i;

	if (k < 3)
		return 0;
	m = gsl_stats_mean(y, 1, k);
	for (i = 0; i < k; i++)
		ss += (y[i] - m) * (y[i] - m);
	for (i = 1; i < k; i++)
		sd += (y[i] - y[i - 1]) * (y[i] - y[i - 1]);
	if (!(ss > 0))
		return 1; /* constant: nothing to correlate */
	c = 1 - sd / (2 * ss);
	return c <= gsl_cdf_ugaussian_Pinv(1 - SIM_VN_ALPHA) *
			sqrt((double)(k - 2) / ((double)k * k - 1));
}

double ml_willink(double zeta, double beta)
{
	if (fabs(beta) < 1e-9)
		return zeta;
	return (cbrt(1 + 6 * beta * (zeta - beta)) - 1) / (2 * beta);
}

int ml_skart_interval(const double *y, unsigned k, struct ml_bm_ci *r)
{
	double sp[SIM_NB_MAX / 2], t, se, g_hi, g_lo, b;
	unsigned i, k2 = k / 2;

	r->mean = r->half = NAN;
	r->phi = r->skew = NAN;
	r->k = k;
	if (k < 8)
		return -1;
	r->mean = gsl_stats_mean(y, 1, k);
	r->var = gsl_stats_variance_m(y, 1, k, r->mean);
	r->phi =
	    r->var > 0 ? gsl_stats_lag1_autocorrelation_m(y, 1, k, r->mean) : 0;
	r->phi = fmin(fmax(r->phi, 0), 0.9);
	/* the spaced batch means: the 2nd, 4th, ... (a batch between two) */
	for (i = 0; i < k2; i++)
		sp[i] = y[2 * i + 1];
	b = gsl_stats_sd(sp, 1, k2) > 0 ? gsl_stats_skew(sp, 1, k2) : 0;
	/* GSL's skewness divides by s^3, s the sample deviation (n - 1);
	 * Skart's estimator is the adjusted G1 = g1 sqrt(n (n - 1)) / (n -
	 * 2), g1 = m3 / m2^(3/2) with 1/n moments: G1 = b n^2 / ((n - 1)
	 * (n - 2)) */
	r->skew = b * k2 * k2 / ((double)(k2 - 1) * (k2 - 2));
	r->beta = r->skew / (6 * sqrt((double)k2));
	t = gsl_cdf_tdist_Pinv(0.975, (double)(k2 - 1));
	se = sqrt((1 + r->phi) / (1 - r->phi) * r->var / k);
	g_hi = ml_willink(t, r->beta);
	g_lo = ml_willink(-t, r->beta);
	r->se = se;
	r->half = se * fmax(g_hi, -g_lo);
	return 0;
}

/* Step 2: the fine batches grouped gs at a time into g[0 .. k_t - 1],
 * from the end (the oldest left over). */
static unsigned group(const struct batches *b, unsigned gs, double *g)
{
	unsigned i, j, k_t = b->nb / gs;
	const double *x = b->mean + (b->nb - k_t * gs);

	for (i = 0; i < k_t; i++) {
		g[i] = 0;
		for (j = 0; j < gs; j++)
			g[i] += x[i * gs + j];
		g[i] /= gs;
	}
	return k_t;
}

/* The shortest grouping whose means look independent (0: none; with
 * untested, the longest of at least min_groups then); with fixed_m, the
 * shortest whose batches hold fixed_m, untested.  Its group means in g,
 * their number in *k_t. */
static unsigned grouping(const struct batches *b, double *g, unsigned *k_t,
			 unsigned min_groups, int untested)
{
	unsigned gs = 1;

	if (b->fixed_m) {
		while ((unsigned long)gs * b->size < b->fixed_m)
			gs *= 2;
		if (b->nb / gs < min_groups)
			return 0;
		*k_t = group(b, gs, g);
		return gs;
	}
	for (; b->nb / gs >= min_groups; gs *= 2) {
		*k_t = group(b, gs, g);
		if (ml_von_neumann_random(g, *k_t))
			return gs;
	}
	if (!untested || b->nb < min_groups)
		return 0;
	/* none passed: the longest batches that still number min_groups */
	for (gs = 1; b->nb / (2 * gs) >= min_groups; gs *= 2)
		;
	*k_t = group(b, gs, g);
	return gs;
}

unsigned long ml_batches_tested(const struct batches *b, unsigned min_groups)
{
	double g[SIM_NB_MAX];
	unsigned k_t;
	unsigned gs = b->indep ? 1 : grouping(b, g, &k_t, min_groups, 0);

	return gs * b->size;
}

static unsigned batches_ci(const struct batches *b, struct ml_bm_ci *r,
			   unsigned min_groups, int untested)
{
	double g[SIM_NB_MAX];
	unsigned i, j, e, k, k_t = 0, nb = b->nb;

	memset(r, 0, sizeof(*r));
	r->mean = r->half = r->skew = NAN;
	if (b->indep) {
		if (nb < 2)
			return nb;
		r->mean = gsl_stats_mean(b->mean, 1, nb);
		r->half = ml_t_half(gsl_stats_sd_m(b->mean, 1, nb, r->mean), nb);
		r->skew = 0;
		r->k = nb;
		return nb;
	}
	if (grouping(b, g, &k_t, min_groups, untested) == 0)
		return 0;
	/* 3: merge 2^e of them, the count growing as the root of k_t */
	for (e = 0; (k_t >> (2 * (e + 1))) >= SIM_NB_TEST; e++)
		;
	k = k_t >> e;
	for (i = 0; i < k; i++) {
		double sum = 0;

		for (j = 0; j < 1u << e; j++)
			sum += g[(i << e) + j];
		g[i] = sum / (1u << e);
	}
	ml_skart_interval(g, k, r);
	return k;
}

unsigned ml_batches_interval(const struct batches *b, struct ml_bm_ci *r,
			     unsigned min_groups)
{
	return batches_ci(b, r, min_groups, 0);
}

unsigned ml_batches_ci(const struct batches *b, double *mean, double *half)
{
	struct ml_bm_ci r;
	unsigned k = batches_ci(b, &r, SIM_NB_TEST, 0);

	*mean = r.mean;
	*half = r.half;
	return k;
}

unsigned ml_batches_ci_report(const struct batches *b, double *mean,
			      double *half)
{
	struct ml_bm_ci r;
	unsigned k = batches_ci(b, &r, SIM_NB_TEST, 0);

	if (!k)
		k = batches_ci(b, &r, SIM_NB_REPORT, 1);
	*mean = r.mean;
	*half = r.half;
	return k;
}

int ml_bm_calm(const struct ml_bm_ci *r, double bias)
{
	double k2 = (double)(r->k / 2);

	if (!isfinite(r->skew) || k2 < 4)
		return 0;
	return (fabs(r->skew) + sqrt(6 / k2)) / sqrt((double)r->k) <= bias;
}

int ml_stop_rule(const struct batches *b, unsigned long long n, int first,
		 double ci, double *need, unsigned long *m)
{
	struct ml_bm_ci r;
	unsigned groups = SIM_NB_TEST;
	double ratio;
	int meets, calm;

	if (!ml_batches_interval(b, &r, groups)) {
		/* only the first look may judge fewer groups */
		groups = SIM_NB_FIRST;
		if (!first || !ml_batches_interval(b, &r, groups))
			return ML_LOOK_GO_ON;
	}
	if (!(r.mean > 0) || !(r.half >= 0))
		return ML_LOOK_GO_ON;
	meets = r.half <= ci * r.mean;
	calm = ml_bm_calm(&r, SIM_CALM_BIAS);
	/* a calm later look decides */
	if (!first && calm)
		return meets ? ML_LOOK_STOP : ML_LOOK_GO_ON;
	/* a first look that misses the target goes on where it is calm or
	 * has fewer groups than the rule's */
	if (first && !meets && (calm || groups == SIM_NB_FIRST))
		return ML_LOOK_GO_ON;
	/* a pilot: a first look that meets the target, or a skewed look */
	ratio = r.half / (ci * r.mean);
	*need = fmax((double)n * ratio * ratio, (double)n);
	*m = ml_batches_tested(b, groups);
	return ML_LOOK_PILOT;
}
