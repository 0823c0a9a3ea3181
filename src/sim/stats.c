/*
 * stats.c - the measurement's statistics: batch means of message latency
 * with a Student t 95 % interval (GSL's t quantile).
 *
 * Batches have a fixed size that doubles whenever SIM_NB_MAX batches are
 * full (pairs are merged), so memory is constant however long the run and
 * the batches grow with it, which keeps their means nearly independent.
 */
#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "sim/simint.h"

void ml_batches_init(struct batches *b, unsigned long size)
{
	memset(b, 0, sizeof(*b));
	b->size = size ? size : 1;
}

void ml_batches_add(struct batches *b, double x)
{
	unsigned i;

	b->cur_sum += x;
	if (++b->cur_n < b->size)
		return;
	b->mean[b->nb++] = b->cur_sum / (double)b->cur_n;
	b->cur_sum = 0;
	b->cur_n = 0;
	b->fresh = 1;
	if (b->nb < SIM_NB_MAX)
		return;
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

void ml_batches_ci(const struct batches *b, double *mean, double *half)
{
	double m = 0, v = 0;
	unsigned i;

	if (b->nb < 2) {
		*mean = *half = NAN;
		return;
	}
	for (i = 0; i < b->nb; i++)
		m += b->mean[i];
	m /= b->nb;
	for (i = 0; i < b->nb; i++)
		v += (b->mean[i] - m) * (b->mean[i] - m);
	v /= b->nb - 1;
	*mean = m;
	*half = ml_t_half(sqrt(v), b->nb);
}
