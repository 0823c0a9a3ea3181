/*
 * check_sim_stats.c - the batch-means interval of src/sim/stats.c,
 * against hand calculation and against processes whose mean and
 * asymptotic variance are known in closed form.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "sim/simint.h"

/* Willink's G(zeta) = ((1 + 6 beta (zeta - beta))^(1/3) - 1) / (2 beta).
 * By hand, beta = 0.05: zeta = 2: 1 + 0.3 * 1.95 = 1.585, cube root
 * 1.1659406, G = 1.659406; zeta = -2: 1 + 0.3 * (-2.05) = 0.385, cube
 * root 0.7274786, G = -2.725214.  G inverts zeta = x + beta + 2 beta x^2
 * + (4/3) beta^2 x^3 (cube 1 + 2 beta x), and is zeta at beta = 0. */
START_TEST(test_willink)
{
	double z, b = 0.05;

	ck_assert_double_eq_tol(ml_willink(2, b), 1.659405913044143, 1e-12);
	ck_assert_double_eq_tol(ml_willink(-2, b), -2.725213651208543, 1e-12);
	ck_assert_double_eq(ml_willink(1.96, 0), 1.96);
	for (z = -3; z <= 3; z += 0.25) {
		double x = ml_willink(z, b);

		ck_assert_double_eq_tol(x + b + 2 * b * x * x +
					    4.0 / 3 * b * b * x * x * x,
					z, 1e-12);
	}
}
END_TEST

/* Skart's interval of 8 batch means y = 10 12 11 15 9 13 30 12, by hand:
 * mean 14, variance 316 / 7 = 45.142857; lag-1 autocorrelation
 * -37 / 316 < 0, taken as 0 (A = 1); the spaced means 12 15 13 12 have
 * the skewness G1 = sqrt(2) (m2 = 1.5, m3 = 1.5: g1 = 1.5 / 1.5^1.5 =
 * 0.8165, times sqrt(12) / 2), so beta = sqrt(2) / (6 sqrt 4) =
 * 0.1178511; t_{0.975, 3} = 3.1824463; se = sqrt(45.142857 / 8) =
 * 2.3754699; G(t) = 1.9877999 and G(-t) = -8.9126555 (1 + 6 beta (-t -
 * beta) < 0: real cube root), so the half-width is 8.9126555 se =
 * 21.171745. */
START_TEST(test_skart_hand)
{
	static const double y[] = {10, 12, 11, 15, 9, 13, 30, 12};
	struct ml_bm_ci r;

	ck_assert_int_eq(ml_skart_interval(y, 8, &r), 0);
	ck_assert_double_eq_tol(r.mean, 14, 1e-12);
	ck_assert_double_eq_tol(r.var, 316.0 / 7, 1e-12);
	ck_assert_double_eq(r.phi, 0);
	ck_assert_double_eq_tol(r.skew, sqrt(2), 1e-12);
	ck_assert_double_eq_tol(r.beta, 0.1178511301977579, 1e-12);
	ck_assert_double_eq_tol(r.se, 2.3754698783308417, 1e-12);
	ck_assert_double_eq_tol(r.half, 21.171744566792924, 1e-9);
	ck_assert_int_eq(ml_skart_interval(y, 4, &r), -1);
	ck_assert(isnan(r.half));
}
END_TEST

/* AR(1) x_t = mu + phi (x_{t-1} - mu) + e_t: mean mu, asymptotic
 * variance of the mean sigma^2 / (1 - phi)^2 per observation (sigma^2
 * the innovations' variance).  skewed: exponential innovations minus
 * their mean (skewness 2), else normal. */
static void ar1(gsl_rng *g, struct batches *b, unsigned long n, double mu,
		double phi, int skewed)
{
	double x = mu + (skewed ? 0 : gsl_ran_gaussian_ziggurat(g, 1)) /
			    sqrt(1 - phi * phi);
	unsigned long i;

	for (i = 0; i < 2000; i++) /* start near stationarity */
		x = mu + phi * (x - mu) +
		    (skewed ? gsl_ran_exponential(g, 1) - 1
			    : gsl_ran_gaussian_ziggurat(g, 1));
	for (i = 0; i < n; i++) {
		x = mu + phi * (x - mu) +
		    (skewed ? gsl_ran_exponential(g, 1) - 1
			    : gsl_ran_gaussian_ziggurat(g, 1));
		ml_batches_add(b, x);
	}
}

/* Coverage of mu = 10 over REPS replications of n = 131072 observations
 * (1024 batches of 128 at the end), phi = 0.9 (correlation time (1 +
 * phi) / (1 - phi) = 19; the lag-1 autocorrelation of batch means of m
 * is about phi / (m (1 - phi^2)) = 4.7 / m), normal and skewed
 * innovations.  In 3 to 5 % of runs no grouping passes the test (the
 * run would go on to the next look): at most 7 % may; over the others a
 * 95 % interval covers in 0.95 +- 0.011 (binomial, 400 runs), and at
 * least 0.92 is asked (2000 runs with normal innovations covered in
 * 0.961).  The mean
 * half-width must match 1.96 sqrt(sigma^2 / ((1 - phi)^2 n)) = 1.96 *
 * 10 / sqrt(131072) = 0.05414 within 12 %.  The power check: the plain
 * t interval of 1024 batches of 16 (runs of 16384, batches too short
 * for the correlation, lag-1 autocorrelation about 0.3: a rule that is
 * too narrow, as a fixed batch count with no test is) covers in less
 * than 0.88 of as many runs. */
#define REPS 400

START_TEST(test_ar1_coverage)
{
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	struct batches *b = malloc(sizeof(*b));
	unsigned rep, hit = 0, naive = 0, k;
	unsigned none = 0;
	double mean, half, sum_half = 0, expect = 1.96 * 10 / sqrt(131072);
	int skewed = _i;

	ck_assert_ptr_nonnull(b);
	gsl_rng_set(g, 42 + skewed);
	for (rep = 0; rep < REPS; rep++) {
		double m, s;

		ml_batches_init(b, 0);
		ar1(g, b, 131072, 10, 0.9, skewed);
		k = ml_batches_ci(b, &mean, &half);
		if (k == 0) {
			none++;
		} else {
			ck_assert_uint_ge(k, SIM_NB_TEST);
			hit += fabs(mean - 10) <= half;
			sum_half += half;
		}
		ml_batches_init(b, 0);
		ar1(g, b, 16384, 10, 0.9, skewed);
		m = 0;
		for (k = 0; k < b->nb; k++)
			m += b->mean[k];
		m /= b->nb;
		s = 0;
		for (k = 0; k < b->nb; k++)
			s += (b->mean[k] - m) * (b->mean[k] - m);
		s = sqrt(s / (b->nb - 1));
		naive += fabs(m - 10) <= ml_t_half(s, b->nb);
	}
	ck_assert_msg(hit >= 0.92 * (REPS - none), "covered in %u of %u", hit,
		      REPS - none);
	ck_assert_msg(none <= 0.07 * REPS, "%u runs without an interval", none);
	half = sum_half / (REPS - none);
	ck_assert_msg(fabs(half / expect - 1) < 0.12,
		      "mean half-width %g, expected %g", half, expect);
	ck_assert_msg(naive < 0.88 * REPS, "naive covered in %u", naive);
	free(b);
	gsl_rng_free(g);
}
END_TEST

/* von Neumann's test rejects independent normal sequences in about its
 * level, 20 % (binomial: 0.2 +- 0.018 over 500), and an AR(1) sequence
 * with phi = 0.3 nearly always (C is about phi, 3.4 of its standard
 * deviations 0.088 above 0 at k = 128). */
START_TEST(test_von_neumann)
{
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	double y[128];
	unsigned rep, i, rej = 0, rej_ar = 0;

	gsl_rng_set(g, 7);
	for (rep = 0; rep < 500; rep++) {
		for (i = 0; i < 128; i++)
			y[i] = gsl_ran_gaussian_ziggurat(g, 1);
		rej += !ml_von_neumann_random(y, 128);
		for (i = 1; i < 128; i++)
			y[i] = 0.3 * y[i - 1] + gsl_ran_gaussian_ziggurat(g, 1);
		rej_ar += !ml_von_neumann_random(y, 128);
	}
	ck_assert_msg(rej >= 0.15 * 500 && rej <= 0.25 * 500, "%u", rej);
	ck_assert_msg(rej_ar >= 0.95 * 500, "%u", rej_ar);
	gsl_rng_free(g);
}
END_TEST

/* A run too short for the rule's 128 tested batches (AR(1), phi = 0.95,
 * correlation time 39, 8192 observations: batches of 64 carry a lag-1
 * autocorrelation near 0.15) has no interval for the stopping rule, but
 * its report tries fewer, longer batches (at least 16) and gives one. */
START_TEST(test_report_fallback)
{
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	struct batches *b = malloc(sizeof(*b));
	double mean, half;
	unsigned k;

	ck_assert_ptr_nonnull(b);
	gsl_rng_set(g, 3);
	ml_batches_init(b, 0);
	ar1(g, b, 8192, 10, 0.95, 0);
	ck_assert_uint_eq(ml_batches_ci(b, &mean, &half), 0);
	ck_assert(isnan(half));
	k = ml_batches_ci_report(b, &mean, &half);
	ck_assert_uint_ge(k, SIM_NB_REPORT);
	ck_assert_uint_lt(k, SIM_NB_TEST);
	ck_assert(isfinite(half) && half > 0);
	free(b);
	gsl_rng_free(g);
}
END_TEST

/* A run whose batches never pass the test (a ramp, x_i = i for 4096
 * observations: every grouping's means rise, von Neumann's C near 1)
 * has no interval for the stopping rule, and its report takes the
 * longest batches that still number 16, untested: 16 groups of 256,
 * means 256 j + 127.5, j = 0 .. 15, built here by hand and passed to
 * Skart's interval (checked by hand above). */
START_TEST(test_report_untested)
{
	struct batches *b = malloc(sizeof(*b));
	struct ml_bm_ci r;
	double y[16], mean, half;
	unsigned i;

	ck_assert_ptr_nonnull(b);
	ml_batches_init(b, 0);
	for (i = 0; i < 4096; i++)
		ml_batches_add(b, (double)i);
	ck_assert_uint_eq(ml_batches_ci(b, &mean, &half), 0);
	for (i = 0; i < 16; i++)
		y[i] = 256.0 * i + 127.5;
	ck_assert_int_eq(ml_skart_interval(y, 16, &r), 0);
	ck_assert_uint_eq(ml_batches_ci_report(b, &mean, &half), 16);
	ck_assert_double_eq_tol(mean, 2047.5, 1e-9);
	ck_assert_double_eq_tol(half, r.half, 1e-9 * r.half);
	/* lag-1 autocorrelation of 16 evenly spaced values: successive
	 * deviations' products sum to 276.25, squares to 340 */
	ck_assert_double_eq_tol(r.phi, 276.25 / 340, 1e-12);
	/* fewer than 16 observations: no interval at all */
	ml_batches_init(b, 0);
	for (i = 0; i < 15; i++)
		ml_batches_add(b, (double)i);
	ml_batches_ci_report(b, &mean, &half);
	ck_assert(isnan(half));
	free(b);
}
END_TEST

/* The calm test of the stopping rule: (|skew| + sqrt(6 / (k / 2))) /
 * sqrt(k) <= 0.1.  By hand: k = 128, 0.1 sqrt(128) - sqrt(6 / 64) =
 * 1.1313708 - 0.3061862 = 0.8251846; k = 512, 2.2627417 - 0.1530931 =
 * 2.1096486. */
START_TEST(test_calm)
{
	struct ml_bm_ci r = {0};

	r.k = 128;
	r.skew = 0.8251;
	ck_assert(ml_bm_calm(&r, 0.1));
	r.skew = 0.8253;
	ck_assert(!ml_bm_calm(&r, 0.1));
	r.skew = -0.8253;
	ck_assert(!ml_bm_calm(&r, 0.1));
	r.skew = -0.8251;
	ck_assert(ml_bm_calm(&r, 0.1));
	r.k = 512;
	r.skew = 2.1096;
	ck_assert(ml_bm_calm(&r, 0.1));
	r.skew = 2.1097;
	ck_assert(!ml_bm_calm(&r, 0.1));
	r.skew = NAN;
	ck_assert(!ml_bm_calm(&r, 0.1));
	r.k = 6;
	r.skew = 0;
	ck_assert(!ml_bm_calm(&r, 10));
}
END_TEST

/* The stopping rule's decision at a look (ml_stop_rule()), by hand:
 * calm batches (normal observations), skewed ones (lognormal, whose
 * batch means stay skewed), and correlated ones that pass the test only
 * with 64 groups; the first look never stops, a later calm one stops when
 * it meets the target, a skewed one is a pilot (Stein's n = max(n (half /
 * (ci mean))^2, n)), a first look with 64 groups only a pilot that meets
 * the target. */
static void check_look(const struct batches *b, unsigned long long n,
		       int first, double ci, int want, double want_need,
		       unsigned long want_m)
{
	double need = -1;
	unsigned long m = 0;

	ck_assert_int_eq(ml_stop_rule(b, n, first, ci, &need, &m), want);
	if (want == ML_LOOK_PILOT) {
		ck_assert_double_eq_tol(need, want_need, 1e-9 * want_need);
		ck_assert_uint_eq(m, want_m);
	}
}

START_TEST(test_stop_rule_table)
{
	struct batches *b = malloc(sizeof(*b));
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	struct ml_bm_ci r;
	double ratio, block = 0;
	unsigned i;

	ck_assert_ptr_nonnull(b);
	/* calm: 8192 observations N(100, 1), fine batches of 8; the
	 * half-width is near 1.96 / sqrt(8192) = 0.022, 0.02 % of 100 */
	gsl_rng_set(g, 1);
	ml_batches_init(b, 0);
	for (i = 0; i < 8192; i++)
		ml_batches_add(b, 100 + gsl_ran_gaussian(g, 1));
	ck_assert_uint_ge(ml_batches_interval(b, &r, SIM_NB_TEST), 128);
	ck_assert(ml_bm_calm(&r, SIM_CALM_BIAS));
	ck_assert(r.half < 0.0005 * r.mean && r.half > 0.00001 * r.mean);
	check_look(b, 8192, 1, 0.02, ML_LOOK_PILOT, 8192,
		   ml_batches_tested(b, SIM_NB_TEST));
	check_look(b, 8192, 0, 0.02, ML_LOOK_STOP, 0, 0);
	check_look(b, 8192, 1, 0.00001, ML_LOOK_GO_ON, 0, 0);
	check_look(b, 8192, 0, 0.00001, ML_LOOK_GO_ON, 0, 0);
	/* skewed: exp(3 Z), batch means of 8 with a skewness far above
	 * calm; the interval far wider than 2 % */
	ml_batches_init(b, 0);
	for (i = 0; i < 8192; i++)
		ml_batches_add(b, exp(3 * gsl_ran_gaussian(g, 1)));
	ck_assert_uint_ge(ml_batches_interval(b, &r, SIM_NB_TEST), 128);
	ck_assert(!ml_bm_calm(&r, SIM_CALM_BIAS));
	ratio = r.half / (0.02 * r.mean);
	ck_assert(ratio > 1);
	check_look(b, 8192, 1, 0.02, ML_LOOK_PILOT, 8192 * ratio * ratio,
		   ml_batches_tested(b, SIM_NB_TEST));
	check_look(b, 8192, 0, 0.02, ML_LOOK_PILOT, 8192 * ratio * ratio,
		   ml_batches_tested(b, SIM_NB_TEST));
	/* a first look that meets the target on skewed batches: a pilot of
	 * a second stage as long as itself */
	check_look(b, 8192, 1, 2 * ratio * 0.02, ML_LOOK_PILOT, 8192,
		   ml_batches_tested(b, SIM_NB_TEST));
	/* correlated within blocks of 16: 1024 observations, constant in a
	 * block (N(100, 1) block means) plus a little noise, fail the test
	 * grouped 1 to 8 at a time and pass it in 64 groups of 16 (seed
	 * 3; with another seed they may fail at 20 %) */
	gsl_rng_set(g, 3);
	ml_batches_init(b, 0);
	for (i = 0; i < 1024; i++) {
		if (i % 16 == 0)
			block = 100 + gsl_ran_gaussian(g, 1);
		ml_batches_add(b, block + gsl_ran_gaussian(g, 0.01));
	}
	ck_assert_uint_eq(ml_batches_interval(b, &r, SIM_NB_TEST), 0);
	ck_assert_uint_eq(ml_batches_interval(b, &r, SIM_NB_FIRST), 64);
	ck_assert_uint_eq(ml_batches_tested(b, SIM_NB_FIRST), 16);
	check_look(b, 1024, 1, 0.02, ML_LOOK_PILOT, 1024, 16);
	check_look(b, 1024, 0, 0.02, ML_LOOK_GO_ON, 0, 0);
	check_look(b, 1024, 1, 0.00001, ML_LOOK_GO_ON, 0, 0);
	gsl_rng_free(g);
	free(b);
}
END_TEST

/* The stopping rule (ml_stop_rule(), driven as sim.c's run loop drives
 * it) on the waiting times of an M/M/1 queue at load rho = 0.8 (Lindley's
 * recursion, service rate 1): mean rho / (1 - rho) = 4 exactly, batch
 * means skewed and correlated for thousands of customers, as a network's
 * latency near saturation.  Looks when the batches fill, once 5000
 * customers are measured (after 20000 of warm-up); a pilot restarts the
 * measurement with its batch size fixed; the report is the run's row
 * (ml_batches_ci_report()).  rule 1 is the former rule's essence, for
 * the power check: stop at the first look whose plain t interval of 16
 * batch means meets the target. */
struct mm1_out {
	double est, half;
	unsigned long long n;
};

static double old_half(const struct batches *b, double *mean)
{
	double y[16], m = 0, v = 0;
	unsigned i, j, gs = b->nb / 16;

	for (i = 0; i < 16; i++) {
		y[i] = 0;
		for (j = 0; j < gs; j++)
			y[i] += b->mean[b->nb - 16 * gs + i * gs + j];
		y[i] /= gs;
		m += y[i] / 16;
	}
	for (i = 0; i < 16; i++)
		v += (y[i] - m) * (y[i] - m) / 15;
	*mean = m;
	return gsl_cdf_tdist_Pinv(0.975, 15) * sqrt(v / 16);
}

static void mm1_run(gsl_rng *g, struct batches *b, double rho, double ci,
		    int rule, struct mm1_out *o)
{
	double w = 0, need = 0, mean, half;
	unsigned long long n = 0;
	unsigned long m;
	int first = 1, look;

	for (n = 0; n < 20000; n++)
		w = fmax(0, w + gsl_ran_exponential(g, 1) -
				gsl_ran_exponential(g, 1 / rho));
	ml_batches_init(b, 0);
	for (n = 0;;) {
		w = fmax(0, w + gsl_ran_exponential(g, 1) -
				gsl_ran_exponential(g, 1 / rho));
		ml_batches_add(b, w);
		n++;
		if (need > 0) {
			if ((double)n >= need)
				break;
			continue;
		}
		if (!b->fresh || n < 5000)
			continue;
		b->fresh = 0;
		if (rule == 1) {
			if (b->nb >= 16 && old_half(b, &mean) <= ci * mean)
				break;
			continue;
		}
		look = ml_stop_rule(b, n, first, ci, &need, &m);
		first = 0;
		if (look == ML_LOOK_STOP)
			break;
		if (look == ML_LOOK_PILOT) {
			ml_batches_init(b, 0);
			b->fixed_m = m;
			n = 0;
		}
	}
	if (rule == 1) {
		half = old_half(b, &mean);
	} else {
		ml_batches_ci_report(b, &mean, &half);
	}
	o->est = mean;
	o->half = half;
	o->n = n;
}

#define MM1_REPS 400

/* Returns how many of the runs' intervals hold 4; sets the mean
 * half-width, the estimates' mean and standard deviation. */
static unsigned mm1_study(int rule, double *half, double *mean, double *sd,
			  double *len)
{
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	struct batches *b = malloc(sizeof(*b));
	struct mm1_out o;
	unsigned i, hit = 0;
	double s = 0, q = 0, h = 0, l = 0;

	ck_assert_ptr_nonnull(b);
	gsl_rng_set(g, 28);
	for (i = 0; i < MM1_REPS; i++) {
		mm1_run(g, b, 0.8, 0.1, rule, &o);
		ck_assert(isfinite(o.half));
		hit += fabs(o.est - 4) <= o.half;
		s += o.est;
		q += o.est * o.est;
		h += o.half;
		l += (double)o.n;
	}
	*mean = s / MM1_REPS;
	*sd = sqrt((q - MM1_REPS * *mean * *mean) / (MM1_REPS - 1));
	*half = h / MM1_REPS;
	*len = l / MM1_REPS;
	free(b);
	gsl_rng_free(g);
	return hit;
}

/* The checks of the short form (check_sim.c, coverage) on the queue:
 * coverage at least 0.92 of the runs (0.95 +- 0.011 for 400); intervals
 * not narrower than the runs' spread, mean half-width at least 0.92 of
 * 1.96 standard deviations of the estimates (the sampling error of that
 * deviation over 400 runs is 3.5 %); no bias, the estimates' mean within
 * 2.6 of its standard errors of 4 (99 %).  Returns the checks failed. */
static unsigned mm1_failed(int rule, char *why, size_t size)
{
	double half, mean, sd, len;
	unsigned hit = mm1_study(rule, &half, &mean, &sd, &len);
	unsigned bad = (hit < 0.92 * MM1_REPS) + (half < 0.92 * 1.96 * sd) +
		       (fabs(mean - 4) > 2.6 * sd / sqrt(MM1_REPS));

	snprintf(why, size,
		 "rule %d: covered %u of %u, half-width %g, 1.96 sd %g, "
		 "mean %g +- %g, %g customers a run",
		 rule, hit, MM1_REPS, half, 1.96 * sd, mean,
		 2.6 * sd / sqrt(MM1_REPS), len);
	return bad;
}

/* This rule passes the checks: 387 of 400 covered, intervals 1.21
 * times the spread, mean 3.992 +- 0.022, 145000 customers a run.  The
 * former rule's essence fails two (its power, which the network's short
 * form in check_sim.c lacks): 355 covered, intervals 0.86 times the
 * spread, mean 3.977 +- 0.025, 76000 customers a run. */
START_TEST(test_mm1_rule)
{
	char why[256];
	unsigned bad = mm1_failed(_i, why, sizeof(why));

	if (_i == 0)
		ck_assert_msg(bad == 0, "%s", why);
	else
		ck_assert_msg(bad > 0, "no power: %s", why);
}
END_TEST

Suite *suite_sim_stats(void);

Suite *suite_sim_stats(void)
{
	Suite *s = suite_create("sim_stats");
	TCase *tc = tcase_create("stats");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_willink);
	tcase_add_test(tc, test_skart_hand);
	tcase_add_loop_test(tc, test_ar1_coverage, 0, 2);
	tcase_add_test(tc, test_von_neumann);
	tcase_add_test(tc, test_report_untested);
	tcase_add_test(tc, test_calm);
	tcase_add_test(tc, test_stop_rule_table);
	tcase_add_loop_test(tc, test_mm1_rule, 0, 2);
	tcase_add_test(tc, test_report_fallback);
	suite_add_tcase(s, tc);
	return s;
}
