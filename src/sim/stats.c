/*
 * stats.c - the measurement's statistics: batch means of message latency
 * with a Student t 95 % interval (GSL's t quantile), the batch size grown
 * until the batch means pass a lag-1 autocorrelation test.
 *
 * The method is the batch-means method of Law and Kelton (Simulation
 * Modeling and Analysis, section 9.5.3, after Law and Carson 1979) with
 * the batch-doubling bookkeeping of Fishman and Yarberry's LBATCH rule
 * (INFORMS J. Computing 9(3), 1997): the observations, in the order the
 * messages complete, fill SIM_NB_MAX fine batches of one message each;
 * whenever the SIM_NB_MAX fine batches are full, their lag-1
 * autocorrelation is tested (until one test passes), the stopping rule
 * looks at them, and at the next observation adjacent pairs are merged,
 * so the batch size doubles and memory stays constant however long the
 * run.  The test is the usual large-sample one: under independence the
 * lag-1 autocorrelation r1 of k batch means is about normal with
 * variance 1 / k, so the batches pass when r1 <= z_0.9 / sqrt(k)
 * (one-sided, 10 % level; 128 batches, as Adam and Klein 1989 advise at
 * least 100 to test).  Once they pass, the interval comes from batches
 * SIM_NB_GROUP times longer (16 of them at a look: Schmeiser's 10 to 30),
 * as Law and Carson use batches ten times those they tested, whose
 * residual correlation is a fraction of the fine batches'.  Before the
 * test has passed there is no interval (NaN): batches that may be
 * correlated would give one too narrow.
 *
 * The stopping rule looks only when the batches fill, at run lengths
 * that double; its first look fixes the run's length (sim.c,
 * converged(), says how, and why a rule that stops when the interval
 * first looks small enough does not cover).  sim.c also asks for a
 * minimum number of measured messages, since near saturation the
 * latency's long excursions make short runs' intervals too narrow
 * however the batches are formed.  scripts/coverage.sh measures the
 * coverage.
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
	b->group = independent ? 1 : SIM_NB_GROUP;
	b->indep = independent;
}

void ml_batches_full(struct batches *b)
{
	if (!b->indep) {
		double r1 = gsl_stats_lag1_autocorrelation(b->mean, 1, b->nb);

		b->indep =
		    r1 <= gsl_cdf_ugaussian_Pinv(0.9) / sqrt((double)b->nb);
	}
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

unsigned ml_batches_ci(const struct batches *b, double *mean, double *half)
{
	double g[SIM_NB_MAX];
	unsigned i, j, n = b->group ? b->nb / b->group : 0;

	*mean = *half = NAN;
	if (!b->indep || n < 2)
		return n;
	for (i = 0; i < n; i++) {
		g[i] = 0;
		for (j = 0; j < b->group; j++)
			g[i] += b->mean[i * b->group + j];
		g[i] /= b->group;
	}
	*mean = gsl_stats_mean(g, 1, n);
	*half = ml_t_half(gsl_stats_sd_m(g, 1, n, *mean), n);
	return n;
}
