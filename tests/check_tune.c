/*
 * check_tune.c - measured where measured, the model between (SPEC 10.7,
 * mcastlat/tune.h): cells' medians and spreads by hand; a drawn machine
 * whose measurements are the model times a known smooth factor, which
 * the corrected predictor recovers between measured cells and holds
 * beyond them; measured cells decide best's pick by the runs' spread,
 * and the cells around decide (pooled too, each within its noise), not
 * where the default's decision runs another algorithm than at the
 * point, nor one run of one cell alone, and nothing measured does not
 * leave the default far from its measured P;
 * and the cross-validated interval's coverage of fresh draws of known
 * noise, of fresh runs beside an outlier and between measured sizes,
 * and its width by algorithm.
 */
#include <check.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

#include "mcastlat/collective.h"
#include "mcastlat/tune.h"
#include "models/tune_int.h" /* corners_ok, qdiff_a: one rule alone */

/* One rank a node, by node: the model's LogP case. */
static void machine(struct ml_collective_params *p)
{
	ml_collective_params_init(p);
	p->ppn = 1;
	p->sockets = 1;
	p->map_by = ML_COLL_MAP_NODE;
}

/* The model's latency_avg of a at (ranks, msg) on m; *ran (may be NULL):
 * the broadcast it runs (the default's decision's). */
static double model_ran(const struct ml_collective_params *m,
			enum ml_coll_alg a, long long ranks, long long msg,
			enum ml_coll_alg *ran)
{
	struct ml_collective_params q = *m;
	struct ml_collective_result r;

	q.algorithm = a;
	q.ranks = ranks;
	q.msg = msg;
	ck_assert_int_eq(ml_collective_eval(&q, &r), ML_OK);
	if (ran)
		*ran = a == ML_COLL_DEFAULT ? r.ran : a;
	return r.latency_avg;
}

static double model(const struct ml_collective_params *m, enum ml_coll_alg a,
		    long long ranks, long long msg)
{
	return model_ran(m, a, ranks, msg, NULL);
}

/* The known discrepancy: linear in log2 P and log2 M. */
static double factor(long long ranks, long long msg)
{
	return 0.3 * log2((double)ranks) / 8 - 0.2 * log2((double)msg) / 12;
}

static void run_at(struct ml_coll_run *r, const struct ml_collective_params *m,
		   enum ml_coll_alg a, long long ranks, long long msg,
		   double value)
{
	r->p = *m;
	r->p.algorithm = a;
	r->p.ranks = ranks;
	r->p.msg = msg;
	r->value = value;
}

/* best's pick among among at (ranks, msg) on m's placement. */
static enum ml_coll_alg pick_at(const struct ml_coll_tune *tu,
				const struct ml_collective_params *m,
				unsigned among, long long ranks, long long msg)
{
	struct ml_collective_params q = *m;
	struct ml_coll_pick pk;

	q.ranks = ranks;
	q.msg = msg;
	ck_assert_int_eq(ml_coll_tune_best(tu, &q, among, ML_COLL_BY_AVG, &pk),
			 ML_OK);
	return pk.alg;
}

/* Open MPI's decision on m at (ranks, msg) runs want: *res, its result. */
static void default_runs(const struct ml_collective_params *m, long long ranks,
			 long long msg, enum ml_coll_alg want,
			 struct ml_collective_result *res)
{
	struct ml_collective_params q = *m;

	q.ranks = ranks;
	q.msg = msg;
	q.algorithm = ML_COLL_DEFAULT;
	ck_assert_int_eq(ml_collective_eval(&q, res), ML_OK);
	ck_assert_int_eq(res->ran, want);
}

/* The table of runs r[0..n) on m at level 0.9 (into *t, *tu) and
 * what its cross-validation found. */
static void table_of(const struct ml_coll_run *r, size_t n,
		     const struct ml_collective_params *m,
		     struct ml_coll_meas *t, struct ml_coll_tune **tu,
		     struct ml_coll_tune_info *in)
{
	ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, t), ML_OK);
	ck_assert_int_eq(ml_coll_tune_new(t, m, NULL, 0.9, tu), ML_OK);
	ml_coll_tune_get_info(*tu, in);
}

/* Three runs of 1 % spread each (x 1, 1.01, 0.99) of the default at
 * 10 us and of binomial at bino us, at P[0..1] x M[0..1], into r[0..23];
 * returns 24. */
static size_t corner_runs(struct ml_coll_run *r,
			  const struct ml_collective_params *m,
			  const long long P[2], const long long M[2], double bino)
{
	const double f[3] = {1, 1.01, 0.99};
	size_t i, j, k, n = 0;

	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++)
			for (k = 0; k < 3; k++) {
				run_at(&r[n++], m, ML_COLL_DEFAULT, P[i], M[j],
				       10 * f[k]);
				run_at(&r[n++], m, ML_COLL_BINOMIAL, P[i], M[j],
				       bino * f[k]);
			}
	return n;
}

/* Three runs 1, 2, 4: median 2, spread 1.4826 x MAD of ln = 1.4826 ln 2,
 * the runs' deviations; one run: no spread; a time <= 0 is rejected. */
START_TEST(test_cells_by_hand)
{
	struct ml_collective_params m;
	struct ml_coll_run r[4];
	struct ml_coll_meas t;

	machine(&m);
	run_at(&r[0], &m, ML_COLL_BINOMIAL, 8, 64, 4);
	run_at(&r[1], &m, ML_COLL_BINOMIAL, 8, 64, 1);
	run_at(&r[2], &m, ML_COLL_BINOMIAL, 8, 64, 2);
	run_at(&r[3], &m, ML_COLL_DEFAULT, 8, 64, 3);
	ck_assert_int_eq(ml_coll_meas_build(r, 4, ML_COLL_BY_AVG, &t), ML_OK);
	ck_assert_uint_eq(t.ncell, 2);
	/* sorted by algorithm: the default (0) first */
	ck_assert_int_eq(t.cell[0].p.algorithm, ML_COLL_DEFAULT);
	ck_assert_int_eq(t.cell[0].runs, 1);
	ck_assert(isnan(t.cell[0].spread));
	ck_assert_double_eq_tol(t.cell[1].median, 2, 1e-12);
	/* 1.4826 x the median absolute deviation of ln: ln 2 */
	ck_assert_double_eq_tol(t.cell[1].spread, 1.482602218505602 * log(2.0),
				1e-9);
	ck_assert_int_eq(t.cell[1].runs, 3);
	/* each run's |ln(run / 2)| x sqrt(3 / 2), in the runs' order by
	 * value: ln 2, 0, ln 2 times it; one run alone: 0 */
	ck_assert_ptr_nonnull(t.dev);
	ck_assert_double_eq_tol(t.dev[t.cell[1].dev_first],
				log(2.0) * sqrt(1.5), 1e-12);
	ck_assert_double_eq_tol(t.dev[t.cell[1].dev_first + 1], 0, 1e-12);
	ck_assert_double_eq_tol(t.dev[t.cell[1].dev_first + 2],
				log(2.0) * sqrt(1.5), 1e-12);
	ck_assert_double_eq_tol(t.dev[t.cell[0].dev_first], 0, 1e-12);
	ml_coll_meas_free(&t);
	ck_assert_ptr_null(t.dev);
	r[1].value = 0;
	ck_assert_int_eq(ml_coll_meas_build(r, 4, ML_COLL_BY_AVG, &t),
			 ML_EINVAL);
}
END_TEST

static const long long Ps[] = {2, 8, 32, 128};
static const long long Ms[] = {1, 16, 256, 4096};

/* Measurements = model x exp(factor) at P {2, 8, 32, 128} x M {1, 16,
 * 256, 4096} for binomial and the default. */
static void drawn(const struct ml_collective_params *m, struct ml_coll_meas *t)
{
	struct ml_coll_run r[32];
	size_t n = 0, i, j, k;
	enum ml_coll_alg a[2] = {ML_COLL_DEFAULT, ML_COLL_BINOMIAL};

	for (k = 0; k < 2; k++)
		for (i = 0; i < 4; i++)
			for (j = 0; j < 4; j++)
				run_at(&r[n++], m, a[k], Ps[i], Ms[j],
				       model(m, a[k], Ps[i], Ms[j]) *
					   exp(factor(Ps[i], Ms[j])));
	ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, t), ML_OK);
}

/* Between measured cells the correction is the factor itself (linear
 * in log P and log M, which the interpolation is exact for); beyond the
 * largest P it is held at P = 128's; a measured cell gives its median. */
START_TEST(test_recovers_factor)
{
	struct ml_collective_params m;
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_tuned y;
	double x;

	machine(&m);
	drawn(&m, &t);
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu), ML_OK);
	ck_assert_ptr_nonnull(tu);
	x = model(&m, ML_COLL_BINOMIAL, 16, 64);
	ck_assert_int_eq(ml_coll_tune_predict(tu, ML_COLL_BINOMIAL, 16, 64, x,
					      &y), ML_OK);
	ck_assert(!y.measured && y.corrected);
	ck_assert_double_eq_tol(y.corr, factor(16, 64), 1e-9);
	ck_assert_double_eq_tol(y.value, x * exp(factor(16, 64)), 1e-9 * x);
	ck_assert(y.lo < y.value && y.value < y.hi);
	/* 20 is not a power of two: log-linear still exact */
	x = model(&m, ML_COLL_DEFAULT, 20, 100);
	ml_coll_tune_predict(tu, ML_COLL_DEFAULT, 20, 100, x, &y);
	ck_assert_double_eq_tol(y.corr, factor(20, 100), 1e-9);
	/* beyond: held at the edge */
	x = model(&m, ML_COLL_BINOMIAL, 512, 16);
	ml_coll_tune_predict(tu, ML_COLL_BINOMIAL, 512, 16, x, &y);
	ck_assert_double_eq_tol(y.corr, factor(128, 16), 1e-9);
	/* a measured cell: the measurement */
	x = model(&m, ML_COLL_BINOMIAL, 32, 256);
	ml_coll_tune_predict(tu, ML_COLL_BINOMIAL, 32, 256, 1e3, &y);
	ck_assert(y.measured);
	ck_assert_double_eq_tol(y.value, x * exp(factor(32, 256)), 1e-9 * x);
	/* an algorithm with nothing measured: the model's, uncorrected */
	ml_coll_tune_predict(tu, ML_COLL_CHAIN, 16, 64, 5, &y);
	ck_assert(!y.corrected);
	ck_assert_double_eq(y.value, 5);
	ck_assert_int_eq(ml_coll_tune_predict(tu, ML_COLL_CHAIN, 16, 64, 0, &y),
			 ML_EINVAL);
	ml_coll_tune_free(tu);
	/* another placement: no cell, no predictor */
	m.map_by = ML_COLL_MAP_CORE;
	m.ppn = 4;
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu), ML_OK);
	ck_assert_ptr_null(tu);
	ml_coll_meas_free(&t);
}
END_TEST

/* At a cell where both were measured three times each, the measurement
 * decides: binomial 10 % faster than the default (runs' spread about
 * 1 %) is picked; 0.5 % faster is not (the default kept); whatever the
 * model says (its binomial is made 100 times slower by the run values
 * being far from it: the measurement is what counts). */
START_TEST(test_measured_decides)
{
	struct ml_collective_params m, q;
	struct ml_coll_run r[12];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_pick pk;
	unsigned among = ML_COLL_AMONG(ML_COLL_DEFAULT) |
			 ML_COLL_AMONG(ML_COLL_BINOMIAL);
	const double d[3] = {10, 10.1, 9.9};
	size_t i, n = 0;

	machine(&m);
	for (i = 0; i < 3; i++) {
		run_at(&r[n++], &m, ML_COLL_DEFAULT, 16, 64, d[i]);
		run_at(&r[n++], &m, ML_COLL_BINOMIAL, 16, 64, 0.9 * d[i]);
		run_at(&r[n++], &m, ML_COLL_DEFAULT, 16, 1024, d[i]);
		run_at(&r[n++], &m, ML_COLL_BINOMIAL, 16, 1024, 0.995 * d[i]);
	}
	ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t), ML_OK);
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu), ML_OK);
	q = m;
	q.ranks = 16;
	q.msg = 64;
	ck_assert_int_eq(ml_coll_tune_best(tu, &q, among, ML_COLL_BY_AVG, &pk),
			 ML_OK);
	ck_assert_int_eq(pk.alg, ML_COLL_BINOMIAL);
	ck_assert_double_eq_tol(pk.vs_default, 1 / 0.9, 1e-9);
	q.msg = 1024;
	ml_coll_tune_best(tu, &q, among, ML_COLL_BY_AVG, &pk);
	ck_assert_int_eq(pk.alg, ML_COLL_DEFAULT);
	ck_assert(pk.kept);
	ck_assert_int_eq(pk.fastest, ML_COLL_BINOMIAL);
	/* without the default a candidate, the fastest measured */
	ml_coll_tune_best(tu, &q, ML_COLL_AMONG(ML_COLL_BINOMIAL),
			  ML_COLL_BY_AVG, &pk);
	ck_assert_int_eq(pk.alg, ML_COLL_BINOMIAL);
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
}
END_TEST

/* Single runs at P = 4, 8, 16, 32 x M = 1, 4, ..., 4096 of the default
 * and binomial, measured binomial 0.9 x the default at every cell, on
 * a misfit the model misses that zigzags by +-0.15 from one size to the
 * next alike in every row, and noise N(0, 0.02): the neighbouring
 * sizes' noise reads the zigzag, about 0.3 / (0.6745 sqrt 2) = 0.31;
 * the double differences cancel it and read the runs' 0.02.  At a
 * measured cell binomial's 10 % (0.105 in ln) is beyond two single
 * runs' noise, sqrt(2) x 0.02, so it is picked; compared by the
 * neighbours' noise (sqrt(2) x 0.31 = 0.44) the default was kept. */
START_TEST(test_run_sd_decides)
{
	struct ml_collective_params m;
	struct ml_coll_run r[2 * 4 * 7];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_tune_info in;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	unsigned among = ML_COLL_AMONG(ML_COLL_DEFAULT) |
			 ML_COLL_AMONG(ML_COLL_BINOMIAL);
	size_t n = 0;
	long long P, M;
	int j;

	machine(&m);
	gsl_rng_set(g, 7);
	for (P = 4; P <= 32; P *= 2)
		for (M = 1, j = 0; M <= 4096; M *= 4, j++) {
			double d = model(&m, ML_COLL_DEFAULT, P, M) *
				   exp(0.15 * (j % 2 ? -1 : 1));

			run_at(&r[n++], &m, ML_COLL_DEFAULT, P, M,
			       d * exp(gsl_ran_gaussian(g, 0.02)));
			run_at(&r[n++], &m, ML_COLL_BINOMIAL, P, M,
			       0.9 * d * exp(gsl_ran_gaussian(g, 0.02)));
		}
	table_of(r, n, &m, &t, &tu, &in);
	ck_assert(!in.noise_runs);
	ck_assert_msg(in.noise > 0.15 && in.run_sd < 0.04,
		      "noise %g, run_sd %g", in.noise, in.run_sd);
	ck_assert_int_eq(pick_at(tu, &m, among, 8, 64), ML_COLL_BINOMIAL);
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
	gsl_rng_free(g);
}
END_TEST

/* The zigzag of test_run_sd_decides (+-0.15, alike in every row, noise
 * N(0, 0.02)) at seven sizes a factor 4 apart (1 B to 4 KiB) and a
 * factor 16 (the probe's; 1 B to 16 MiB):
 * a factor 4 apart, the neighbouring sizes' noise reads the zigzag
 * (about 0.31); a factor 16 apart (3 doublings or more), the steps are
 * taken for misfit and the noise is the double differences', about the
 * runs' 0.02, so a new run's interval at a measured cell is z x 0.02
 * wide each way, not z x 0.31. */
START_TEST(test_wide_sizes_noise)
{
	struct ml_collective_params m;
	struct ml_coll_run r[2 * 4 * 7];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_tune_info in;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	long long P, M, f;
	int j;

	machine(&m);
	for (f = 4; f <= 16; f *= 4) {
		size_t n = 0;

		gsl_rng_set(g, 11);
		for (P = 4; P <= 32; P *= 2)
			for (M = 1, j = 0; j < 7; M *= f, j++) {
				double d = model(&m, ML_COLL_DEFAULT, P, M) *
					   exp(0.15 * (j % 2 ? -1 : 1));

				run_at(&r[n++], &m, ML_COLL_DEFAULT, P, M,
				       d * exp(gsl_ran_gaussian(g, 0.02)));
				run_at(&r[n++], &m, ML_COLL_BINOMIAL, P, M,
				       d * exp(gsl_ran_gaussian(g, 0.02)));
			}
		table_of(r, n, &m, &t, &tu, &in);
		if (f == 4)
			ck_assert_msg(in.noise > 0.15 && in.run_sd < 0.04,
				      "noise %g, run_sd %g", in.noise,
				      in.run_sd);
		else
			ck_assert_msg(in.noise < 0.04 &&
					  in.noise == in.run_sd &&
					  in.noise_max < 0.04,
				      "noise %g (max %g), run_sd %g", in.noise,
				      in.noise_max, in.run_sd);
		ml_coll_tune_free(tu);
		ml_coll_meas_free(&t);
	}
	gsl_rng_free(g);
}
END_TEST

/* Between measured P rows, the measured cells around decide where they
 * agree, whatever the model says: binomial measured 20 % faster than
 * the default at P = 8 and 32 (sizes 64 and 1024, three runs of 1 %
 * spread) is picked at P = 16, M = 256; measured 20 % slower at both,
 * the default is kept there. */
START_TEST(test_corners_decide)
{
	struct ml_collective_params m, q;
	struct ml_coll_run r[48];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_pick pk;
	unsigned among = ML_COLL_AMONG(ML_COLL_DEFAULT) |
			 ML_COLL_AMONG(ML_COLL_BINOMIAL);
	const long long P[2] = {8, 32}, M[2] = {64, 1024};
	double b;
	size_t n;

	machine(&m);
	q = m;
	q.ranks = 16;
	q.msg = 256;
	for (b = 0.8; b < 1.3; b += 0.4) {
		n = corner_runs(r, &m, P, M, 10 * b);
		ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t),
				 ML_OK);
		ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu),
				 ML_OK);
		ck_assert_int_eq(ml_coll_tune_best(tu, &q, among,
						   ML_COLL_BY_AVG, &pk),
				 ML_OK);
		ck_assert_int_eq(pk.alg, b < 1 ? ML_COLL_BINOMIAL
					       : ML_COLL_DEFAULT);
		ml_coll_tune_free(tu);
		ml_coll_meas_free(&t);
	}
}
END_TEST

/* The corners say nothing of a default that runs another algorithm at
 * the point: one rank a node, Open MPI's decision runs knomial at P =
 * 64 and binary at 128 (M = 64 and 1024) but binomial itself at P = 48,
 * M = 256.  Binomial measured 20 % faster than the default at P = 64
 * and 128 (three runs of 1 % spread) beats knomial and binary there,
 * not the default at P = 48, which is binomial: it is kept there (the
 * corner at 64, within a doubling of 48, compares binomial with itself
 * measured forced).  At P = 96 the default runs knomial as at the
 * corner P = 64 (and binary at 128, where binomial measured faster
 * too): binomial is picked. */
START_TEST(test_corners_decision)
{
	struct ml_collective_params m, q;
	struct {
		long long ranks;
		enum ml_coll_alg ran;
	}
	    want[3] = {{48, ML_COLL_BINOMIAL},
		       {64, ML_COLL_KNOMIAL},
		       {96, ML_COLL_KNOMIAL}};
	struct ml_collective_result res;
	struct ml_coll_run r[24];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	unsigned among = ML_COLL_AMONG(ML_COLL_DEFAULT) |
			 ML_COLL_AMONG(ML_COLL_BINOMIAL);
	const long long P[2] = {64, 128}, M[2] = {64, 1024};
	size_t i, n;

	machine(&m);
	/* the decision the test rests on */
	for (i = 0; i < 3; i++) {
		q = m;
		q.algorithm = ML_COLL_DEFAULT;
		q.ranks = want[i].ranks;
		q.msg = i == 1 ? 64 : 256;
		ck_assert_int_eq(ml_collective_eval(&q, &res), ML_OK);
		ck_assert_int_eq(res.ran, want[i].ran);
	}
	n = corner_runs(r, &m, P, M, 8);
	ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t), ML_OK);
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu), ML_OK);
	ck_assert_int_eq(pick_at(tu, &m, among, 48, 256), ML_COLL_DEFAULT);
	ck_assert_int_eq(pick_at(tu, &m, among, 96, 256), ML_COLL_BINOMIAL);
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
}
END_TEST

/* The corners decide by majority when none goes against: binomial
 * measured 20 % faster than the default at three of the four corners of
 * P = 12, M = 256 (P = 8 and 16 x M = 64 and 1024, three runs of 1 %
 * spread; the decision runs knomial at all of them and at the point) and
 * as fast at the fourth (P = 8, M = 1024) is picked.  The
 * model's corrected gain there (about ln 1.15) is under its threshold:
 * a row at P = 128 where binomial is measured twice as slow at 1024
 * makes the left-out differences large.  With the fourth corner 20 %
 * slower instead (against), the default is kept. */
START_TEST(test_corners_majority)
{
	struct ml_collective_params m, q;
	struct ml_coll_run r[80];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_pick pk;
	unsigned among = ML_COLL_AMONG(ML_COLL_DEFAULT) |
			 ML_COLL_AMONG(ML_COLL_BINOMIAL);
	const double f[3] = {1, 1.01, 0.99};
	const long long P[3] = {8, 16, 128}, M[2] = {64, 1024};
	double fourth;
	size_t i, j, k, n;

	machine(&m);
	q = m;
	q.ranks = 12;
	q.msg = 256;
	for (fourth = 1.0; fourth < 1.3; fourth += 0.2) {
		n = 0;
		for (i = 0; i < 3; i++)
			for (j = 0; j < 2; j++)
				for (k = 0; k < 3; k++) {
					double b = 0.8;

					if (i == 0 && j == 1)
						b = fourth;
					if (i == 2)
						b = j == 1 ? 2.0 : 0.8;
					run_at(&r[n++], &m, ML_COLL_DEFAULT, P[i],
					       M[j], 10 * f[k]);
					run_at(&r[n++], &m, ML_COLL_BINOMIAL, P[i],
					       M[j], 10 * b * f[k]);
				}
		ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t),
				 ML_OK);
		ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu),
				 ML_OK);
		ck_assert_int_eq(ml_coll_tune_best(tu, &q, among,
						   ML_COLL_BY_AVG, &pk),
				 ML_OK);
		ck_assert_int_eq(pk.alg, fourth < 1.1 ? ML_COLL_BINOMIAL
						      : ML_COLL_DEFAULT);
		ml_coll_tune_free(tu);
		ml_coll_meas_free(&t);
	}
}
END_TEST

/* A corner where the default was not measured is left out, not a
 * veto on the others.  One rank a node: the decision runs knomial at
 * P = 64 and binary at 128 (M = 256).  The default measured at 16, 32,
 * 64 and binary there too, both as the model says; binary at 256 (the
 * default not) a quarter of the model's, so its correction at 128 is
 * half way there (a predicted gain of ln 2 over the default, held from
 * 64).  The corners left at 128 are P = 64's, where the default ran
 * knomial: binary is compared with binary measured there, and is not
 * faster than itself: the default kept.  Reading the corner at 256 as
 * "nothing known" instead let the predicted gain pick binary. */
START_TEST(test_corner_without_default)
{
	struct ml_collective_params m, q;
	struct ml_collective_result res;
	struct ml_coll_run r[64];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_pick pk;
	unsigned among = ML_COLL_AMONG(ML_COLL_DEFAULT) |
			 ML_COLL_AMONG(ML_COLL_BINARY);
	const double f[3] = {1, 1.01, 0.99};
	const long long P[4] = {16, 32, 64, 256}, M[2] = {64, 1024};
	size_t i, j, k, n = 0;

	machine(&m);
	q = m;
	q.algorithm = ML_COLL_DEFAULT;
	q.ranks = 128;
	q.msg = 256;
	ck_assert_int_eq(ml_collective_eval(&q, &res), ML_OK);
	ck_assert_int_eq(res.ran, ML_COLL_BINARY);
	q.ranks = 64;
	q.msg = 64;
	ck_assert_int_eq(ml_collective_eval(&q, &res), ML_OK);
	ck_assert_int_eq(res.ran, ML_COLL_KNOMIAL);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 2; j++)
			for (k = 0; k < 3; k++) {
				if (P[i] < 256)
					run_at(&r[n++], &m, ML_COLL_DEFAULT, P[i],
					       M[j],
					       model(&m, ML_COLL_DEFAULT, P[i],
						     M[j]) * f[k]);
				run_at(&r[n++], &m, ML_COLL_BINARY, P[i], M[j],
				       model(&m, ML_COLL_BINARY, P[i], M[j]) *
					   (P[i] < 256 ? 1 : 0.25) * f[k]);
			}
	ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t), ML_OK);
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu), ML_OK);
	q = m;
	q.ranks = 128;
	q.msg = 256;
	ck_assert_int_eq(ml_coll_tune_best(tu, &q, among, ML_COLL_BY_AVG, &pk),
			 ML_OK);
	ck_assert_int_eq(pk.alg, ML_COLL_DEFAULT);
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
}
END_TEST

/* Beyond the default's own largest measured P its correction is held
 * at its edge, however far another algorithm was measured: the
 * forward-validation growth of the difference then widens the
 * threshold as it does beyond every measured P.  The default measured
 * at P = 8, 16, 32, binomial there too and at 128, a quarter of the
 * default's time: at P = 128 (two doublings beyond the default's edge)
 * a growth of 1 per doubling of the difference (threshold at least
 * 1.645 sqrt 2 = 2.3 in ln, a gain under 10x) keeps the default; no
 * growth (no error model) picks binomial, so the gain is there. */
START_TEST(test_default_edge)
{
	struct ml_collective_params m, q;
	struct ml_coll_run r[64];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_errmodel em;
	struct ml_coll_pick pk;
	unsigned among = ML_COLL_AMONG(ML_COLL_DEFAULT) |
			 ML_COLL_AMONG(ML_COLL_BINOMIAL);
	const double f[3] = {1, 1.01, 0.99};
	const long long P[4] = {8, 16, 32, 128}, M[2] = {64, 1024};
	size_t i, j, k, n = 0;
	int c;

	machine(&m);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 2; j++)
			for (k = 0; k < 3; k++) {
				if (P[i] < 128)
					run_at(&r[n++], &m, ML_COLL_DEFAULT, P[i],
					       M[j], 10 * f[k]);
				run_at(&r[n++], &m, ML_COLL_BINOMIAL, P[i], M[j],
				       (P[i] < 128 ? 10 : 2.5) * f[k]);
			}
	ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t), ML_OK);
	q = m;
	q.ranks = 128;
	q.msg = 64;
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu), ML_OK);
	ck_assert_int_eq(ml_coll_tune_best(tu, &q, among, ML_COLL_BY_AVG, &pk),
			 ML_OK);
	ck_assert_int_eq(pk.alg, ML_COLL_BINOMIAL);
	ml_coll_tune_free(tu);
	ml_coll_errmodel_init(&em);
	em.fit_ranks = 128;
	em.diff_growth = 1;
	for (c = 0; c < ML_COLL_NCLASS; c++)
		em.sd[c] = 0.1;
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, &em, 0.9, &tu), ML_OK);
	ck_assert_int_eq(ml_coll_tune_best(tu, &q, among, ML_COLL_BY_AVG, &pk),
			 ML_OK);
	ck_assert_int_eq(pk.alg, ML_COLL_DEFAULT);
	ck_assert(pk.kept);
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
}
END_TEST

/* Far beyond the measured P the edge row's verdict still counts where
 * the model agrees.  The default and binomial measured at P = 8 and 16,
 * 64 B and 1 KiB (three runs of 1 % spread; Open MPI's decision runs
 * knomial at all four, and at P = 64, 256 B), binomial at 7 us against
 * the default's 10; the fit's error model grows the difference by 1 per
 * doubling (at two doublings the threshold is over 2.3 in ln, the gain
 * about ln(10/7) = 0.36).  At P = 64 (two doublings beyond) the edge
 * says binomial, and the model, its residuals held at the edge, too:
 * binomial is picked.  At P = 128 the decision runs binary instead, so
 * the edge's default was another broadcast: the default is kept. */
START_TEST(test_far_edge_decides)
{
	struct ml_collective_params m, q;
	struct ml_coll_run r[48];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_errmodel em;
	struct ml_coll_pick pk;
	struct ml_collective_result res;
	unsigned among = ML_COLL_AMONG(ML_COLL_DEFAULT) |
			 ML_COLL_AMONG(ML_COLL_BINOMIAL);
	const long long P[2] = {8, 16}, M[2] = {64, 1024};
	size_t n;
	int c;

	machine(&m);
	n = corner_runs(r, &m, P, M, 7);
	ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t), ML_OK);
	ml_coll_errmodel_init(&em);
	em.fit_ranks = 16;
	em.diff_growth = 1;
	for (c = 0; c < ML_COLL_NCLASS; c++)
		em.sd[c] = 0.1;
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, &em, 0.9, &tu), ML_OK);
	q = m;
	q.msg = 256;
	q.ranks = 64;
	q.algorithm = ML_COLL_DEFAULT;
	ck_assert_int_eq(ml_collective_eval(&q, &res), ML_OK);
	ck_assert_int_eq(res.ran, ML_COLL_KNOMIAL);
	ck_assert_int_eq(ml_coll_tune_best(tu, &q, among, ML_COLL_BY_AVG, &pk),
			 ML_OK);
	ck_assert_int_eq(pk.alg, ML_COLL_BINOMIAL);
	q.ranks = 128;
	ck_assert_int_eq(ml_collective_eval(&q, &res), ML_OK);
	ck_assert_int_eq(res.ran, ML_COLL_BINARY);
	ck_assert_int_eq(ml_coll_tune_best(tu, &q, among, ML_COLL_BY_AVG, &pk),
			 ML_OK);
	ck_assert_int_eq(pk.alg, ML_COLL_DEFAULT);
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
}
END_TEST

/* The interval's part that is a new run's deviation (out.run), by
 * hand: three runs a cell, the median x 1, 1.01, 0.99, at P {2, 8, 32,
 * 128} x M {1, 16, 256, 4096}, binomial and the default.  Each run's
 * deviation |ln(run / median)| sqrt(3 / 2): 0, ln(1.01) sqrt 1.5 and
 * |ln 0.99| sqrt 1.5, a third each; their 0.9 quantile is the largest,
 * -ln(0.99) sqrt(1.5) = 0.0123094.  At a point measured nowhere (P =
 * 16, M = 64) that is out.run, less than the half-width (the medians'
 * own uncertainty adds to it); at a measured cell the half-width is the
 * cell's z x robust sd, 1.645 x 1.4826 ln(1.01) = 0.024268 (above the
 * quantile), and all of it is a run's. */
START_TEST(test_run_part)
{
	struct ml_collective_params m;
	struct ml_coll_run r[3 * 32];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_tuned y;
	const double f[3] = {1, 1.01, 0.99};
	enum ml_coll_alg a[2] = {ML_COLL_DEFAULT, ML_COLL_BINOMIAL};
	size_t n = 0, i, j, k, u;
	double h, zs = gsl_cdf_ugaussian_Pinv(0.95) * 1.482602218505602 *
		       log(1.01);

	machine(&m);
	for (k = 0; k < 2; k++)
		for (i = 0; i < 4; i++)
			for (j = 0; j < 4; j++)
				for (u = 0; u < 3; u++)
					run_at(&r[n++], &m, a[k], Ps[i], Ms[j],
					       model(&m, a[k], Ps[i], Ms[j]) *
						   exp(factor(Ps[i], Ms[j])) *
						   f[u]);
	ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t), ML_OK);
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu), ML_OK);
	ck_assert_int_eq(ml_coll_tune_predict(tu, ML_COLL_BINOMIAL, 16, 64,
					      model(&m, ML_COLL_BINOMIAL, 16,
						    64),
					      &y),
			 ML_OK);
	ck_assert(!y.measured);
	ck_assert_double_eq_tol(y.run, -log(0.99) * sqrt(1.5), 1e-9);
	h = 0.5 * log(y.hi / y.lo);
	ck_assert(y.run < h);
	ck_assert_int_eq(ml_coll_tune_predict(tu, ML_COLL_BINOMIAL, 8, 16,
					      model(&m, ML_COLL_BINOMIAL, 8,
						    16),
					      &y),
			 ML_OK);
	ck_assert(y.measured);
	h = 0.5 * log(y.hi / y.lo);
	ck_assert_double_eq_tol(h, zs, 1e-6);
	ck_assert_double_eq_tol(y.run, h, 1e-12);
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
}
END_TEST

/* One run of one cell does not decide alone: the default and binomial
 * measured at P = 32 and 64 B only, the default's 10 times binomial's.
 * At P = 48, 64 B (within a doubling of the row; Open MPI's decision
 * runs binomial at both P) every corner is that cell: with three runs
 * of 1 % spread each it decides (binomial); with one run each it does
 * not, and with no other measurement to cross-validate the default
 * stays. */
START_TEST(test_one_run_alone)
{
	struct ml_collective_params m, q;
	struct ml_coll_run r[6];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_pick pk;
	unsigned among = ML_COLL_AMONG(ML_COLL_DEFAULT) |
			 ML_COLL_AMONG(ML_COLL_BINOMIAL);
	const double f[3] = {1, 1.01, 0.99};
	size_t k, n, runs;

	machine(&m);
	q = m;
	q.ranks = 48;
	q.msg = 64;
	for (runs = 1; runs <= 3; runs += 2) {
		n = 0;
		for (k = 0; k < runs; k++) {
			run_at(&r[n++], &m, ML_COLL_DEFAULT, 32, 64, 100 * f[k]);
			run_at(&r[n++], &m, ML_COLL_BINOMIAL, 32, 64, 10 * f[k]);
		}
		ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t),
				 ML_OK);
		ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu),
				 ML_OK);
		ck_assert_int_eq(ml_coll_tune_best(tu, &q, among,
						   ML_COLL_BY_AVG, &pk),
				 ML_OK);
		ck_assert_int_eq(pk.alg, runs == 3 ? ML_COLL_BINOMIAL
						   : ML_COLL_DEFAULT);
		ml_coll_tune_free(tu);
		ml_coll_meas_free(&t);
	}
}
END_TEST

/* One run of one cell decides where its row's sizes next to it say the
 * same: the default and binomial measured once at P = 32, at 16, 64
 * and 256 B, the default 10 times binomial's at 64 B.  At P = 48, 64 B
 * every corner is that cell (test_one_run_alone: alone it does not
 * decide).  Binomial 10 times faster at 16 and 256 B too: binomial.
 * 10 times slower there: the default stays.  (With one P row, no row
 * is left to check lone cells on: they may decide.) */
START_TEST(test_lone_cell_row)
{
	struct ml_collective_params m;
	struct ml_coll_run r[6];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	unsigned among = ML_COLL_AMONG(ML_COLL_DEFAULT) |
			 ML_COLL_AMONG(ML_COLL_BINOMIAL);
	const long long M[3] = {16, 64, 256};
	int side;
	size_t k, n;

	machine(&m);
	for (side = 0; side < 2; side++) {
		n = 0;
		for (k = 0; k < 3; k++) {
			double bino = k == 1 || side == 0 ? 10 : 1000;

			run_at(&r[n++], &m, ML_COLL_DEFAULT, 32, M[k], 100);
			run_at(&r[n++], &m, ML_COLL_BINOMIAL, 32, M[k], bino);
		}
		ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t),
				 ML_OK);
		ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu),
				 ML_OK);
		ck_assert_int_eq(pick_at(tu, &m, among, 48, 64),
				 side == 0 ? ML_COLL_BINOMIAL
					   : ML_COLL_DEFAULT);
		ml_coll_tune_free(tu);
		ml_coll_meas_free(&t);
	}
}
END_TEST

/* Lone cells decide only where leave-one-P-out shows that they gain:
 * measured once at P = 16 and 24, at 16, 64 and 256 B, binomial 10
 * times slower than the default at 16 and 10 times faster at 24.  At
 * P = 28, 64 B the one corner is the cell at 24, confirmed by its
 * row: binomial, were lone cells not checked.  Row 16 left out, row
 * 24's lone cells pick binomial there, 10 times slower: they do not
 * decide, and the model, whose error between the rows is that jump,
 * keeps the default. */
START_TEST(test_lone_cells_checked)
{
	struct ml_collective_params m;
	struct ml_coll_run r[12];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	unsigned among = ML_COLL_AMONG(ML_COLL_DEFAULT) |
			 ML_COLL_AMONG(ML_COLL_BINOMIAL);
	const long long M[3] = {16, 64, 256};
	size_t k, n = 0;

	machine(&m);
	for (k = 0; k < 3; k++) {
		run_at(&r[n++], &m, ML_COLL_DEFAULT, 16, M[k], 10);
		run_at(&r[n++], &m, ML_COLL_BINOMIAL, 16, M[k], 100);
		run_at(&r[n++], &m, ML_COLL_DEFAULT, 24, M[k], 100);
		run_at(&r[n++], &m, ML_COLL_BINOMIAL, 24, M[k], 10);
	}
	ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t), ML_OK);
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu), ML_OK);
	ck_assert_int_eq(pick_at(tu, &m, among, 28, 64), ML_COLL_DEFAULT);
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
}
END_TEST

/* Drawn data: the model x exp(factor + N(0, 0.05)), one run a cell, at
 * P = 2, 4, ..., 256 x M = 1, 4, ..., 4096, two algorithms; fresh draws
 * at the P halfway (in log) between, at the same sizes: the 90 %
 * interval holds 80 to 98 % of them. */
START_TEST(test_cv_coverage)
{
	struct ml_collective_params m;
	struct ml_coll_run *r = malloc(2 * 8 * 7 * sizeof *r);
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_tuned y;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	enum ml_coll_alg a[2] = {ML_COLL_DEFAULT, ML_COLL_BINOMIAL};
	size_t n = 0, k, in = 0, tot = 0;
	long long P, M;

	ck_assert_ptr_nonnull(r);
	gsl_rng_set(g, 46);
	machine(&m);
	for (k = 0; k < 2; k++)
		for (P = 2; P <= 256; P *= 2)
			for (M = 1; M <= 4096; M *= 4)
				run_at(&r[n++], &m, a[k], P, M,
				       model(&m, a[k], P, M) *
					   exp(factor(P, M) +
					       gsl_ran_gaussian(g, 0.05)));
	ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t), ML_OK);
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu), ML_OK);
	for (k = 0; k < 2; k++)
		for (P = 3; P <= 192; P *= 2)
			for (M = 1; M <= 4096; M *= 4) {
				double x = model(&m, a[k], P, M);
				double v = x * exp(factor(P, M) +
						   gsl_ran_gaussian(g, 0.05));

				ml_coll_tune_predict(tu, a[k], P, M, x, &y);
				ck_assert(!y.measured);
				in += v >= y.lo && v <= y.hi;
				tot++;
			}
	ck_assert_uint_eq(tot, 2 * 7 * 7);
	ck_assert_msg(in >= 0.80 * (double)tot && in <= 0.98 * (double)tot,
		      "covered %zu of %zu", in, tot);
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
	gsl_rng_free(g);
	free(r);
}
END_TEST

/* Single runs whose noise is not alike over P (sd 0.02 at P <= 16, 0.3
 * beyond: an oversubscribed node), the model x exp(factor + noise) at P
 * = 2, 4, ..., 256 x M = 1, 4, ..., 4096, two algorithms, 8 draws;
 * fresh runs at the P halfway between, at the measured sizes: the 90 %
 * interval holds 80 to 98 % of them at the quiet P and at the noisy P
 * alike, and is under a third as wide (ln) at the quiet ones.  A noise
 * read over every P at once covers nearly all the quiet runs and about
 * 70 % of the noisy ones. */
START_TEST(test_noise_by_ranks)
{
	struct ml_collective_params m;
	struct ml_coll_run *r = malloc(2 * 8 * 7 * sizeof *r);
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_tuned y;
	struct ml_coll_tune_info in;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	enum ml_coll_alg a[2] = {ML_COLL_DEFAULT, ML_COLL_BINOMIAL};
	size_t n, k, seed, cov[2] = {0, 0}, tot[2] = {0, 0};
	double lw[2] = {0, 0};
	long long P, M;

	ck_assert_ptr_nonnull(r);
	machine(&m);
	for (seed = 1; seed <= 8; seed++) {
		gsl_rng_set(g, 100 + seed);
		n = 0;
		for (k = 0; k < 2; k++)
			for (P = 2; P <= 256; P *= 2)
				for (M = 1; M <= 4096; M *= 4)
					run_at(&r[n++], &m, a[k], P, M,
					       model(&m, a[k], P, M) *
						   exp(factor(P, M) +
						       gsl_ran_gaussian(
							   g, P <= 16 ? 0.02
								      : 0.3)));
		/* the noise read at each P: 12 steps of sd 0.02 x sqrt 2
		 * at a quiet P, of 0.3 x sqrt 2 at a noisy one */
		table_of(r, n, &m, &t, &tu, &in);
		ck_assert(!in.noise_runs);
		ck_assert_msg(in.noise_min < 0.05 && in.noise_max > 0.15 &&
				  in.noise_max_at > 16,
			      "noise %g to %g at P = %lld", in.noise_min,
			      in.noise_max, in.noise_max_at);
		for (k = 0; k < 2; k++)
			for (P = 3; P <= 192; P *= 2) {
				int noisy = P > 16;

				if (P == 24)
					continue; /* between the two */
				for (M = 1; M <= 4096; M *= 4) {
					double x = model(&m, a[k], P, M);
					double v = x * exp(factor(P, M) +
							   gsl_ran_gaussian(
							       g, noisy ? 0.3
									: 0.02));

					ml_coll_tune_predict(tu, a[k], P, M, x,
							     &y);
					cov[noisy] += v >= y.lo && v <= y.hi;
					lw[noisy] += log(y.hi / y.lo);
					tot[noisy]++;
				}
			}
		ml_coll_tune_free(tu);
		ml_coll_meas_free(&t);
	}
	for (k = 0; k < 2; k++) {
		ck_assert_uint_eq(tot[k], 8 * 2 * 3 * 7);
		ck_assert_msg(cov[k] >= 0.80 * (double)tot[k] &&
				  cov[k] <= 0.98 * (double)tot[k],
			      "%s: covered %zu of %zu", k ? "noisy" : "quiet",
			      cov[k], tot[k]);
	}
	ck_assert_msg(lw[0] < lw[1] / 3, "ln hi/lo %g quiet, %g noisy",
		      lw[0] / (double)tot[0], lw[1] / (double)tot[1]);
	gsl_rng_free(g);
	free(r);
}
END_TEST

/* A random walk in log2 M (steps N(0, 0.15) a doubling, M = 1 .. 4096),
 * the same for every P and algorithm: the residual the interpolation in
 * M misses between measured sizes. */
static void walk_in_m(gsl_rng *g, double w[13])
{
	int j;

	w[0] = 0;
	for (j = 1; j <= 12; j++)
		w[j] = w[j - 1] + gsl_ran_gaussian(g, 0.15);
}

/* Drawn data of 5 runs a cell (noise N(0, 0.1)), a run of three cells
 * 40 times the others, the model x exp(factor + the walk in M), at P =
 * 2, 4, ..., 256 x M = 1, 4, ..., 4096, two algorithms; fresh single
 * runs at the P halfway (in log) between, at the sizes between (M = 2,
 * 8, ..., 2048, a doubling from the measured ones): the 90 % interval
 * holds 80 to 98 % of them, and its median hi/lo is under 2 (a fresh
 * run's error, noise and walk, has an sd near 0.15: a 90 % hi/lo near
 * exp(2 x 1.645 x 0.15) = 1.6).  The outliers must not widen every
 * interval (a run's deviation is read as a quantile, not an sd; as an
 * rms sd they give hi/lo 2.6) and the sizes between are farther than
 * the measured ones (leave-one-size-out). */
START_TEST(test_run_coverage)
{
	struct ml_collective_params m;
	struct ml_coll_run *r = malloc(5 * 2 * 8 * 7 * sizeof *r);
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_tuned y;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	enum ml_coll_alg a[2] = {ML_COLL_DEFAULT, ML_COLL_BINOMIAL};
	size_t n = 0, k, i, in = 0, tot = 0, seed;
	long long P;
	int j;
	double w[13], wid[8 * 2 * 7 * 6];

	ck_assert_ptr_nonnull(r);
	machine(&m);
	for (seed = 1; seed <= 8; seed++) {
		gsl_rng_set(g, seed);
		walk_in_m(g, w);
		n = 0;
		for (k = 0; k < 2; k++)
			for (P = 2; P <= 256; P *= 2)
				for (j = 0; j <= 12; j += 2)
					for (i = 0; i < 5; i++)
						run_at(&r[n++], &m, a[k], P,
						       1LL << j,
						       model(&m, a[k], P, 1LL << j) *
							   exp(factor(P, 1LL << j) +
							       w[j] +
							       gsl_ran_gaussian(g, 0.1)));
		r[7].value *= 40;
		r[102].value *= 40;
		r[303].value *= 40;
		ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t),
				 ML_OK);
		ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu),
				 ML_OK);
		for (k = 0; k < 2; k++)
			for (P = 3; P <= 192; P *= 2)
				for (j = 1; j <= 11; j += 2) {
					long long M = 1LL << j;
					double x = model(&m, a[k], P, M);
					double v = x * exp(factor(P, M) + w[j] +
							   gsl_ran_gaussian(g, 0.1));

					ml_coll_tune_predict(tu, a[k], P, M, x,
							     &y);
					in += v >= y.lo && v <= y.hi;
					wid[tot++] = y.hi / y.lo;
				}
		ml_coll_tune_free(tu);
		ml_coll_meas_free(&t);
	}
	ck_assert_uint_eq(tot, 8 * 2 * 7 * 6);
	ck_assert_msg(in >= 0.80 * (double)tot && in <= 0.98 * (double)tot,
		      "covered %zu of %zu", in, tot);
	gsl_sort(wid, 1, tot);
	ck_assert_msg(gsl_stats_median_from_sorted_data(wid, 1, tot) < 2,
		      "median hi/lo %g",
		      gsl_stats_median_from_sorted_data(wid, 1, tot));
	gsl_rng_free(g);
	free(r);
}
END_TEST

/* The probe's design, drawn: single runs (noise N(0, 0.05)) of the
 * model x exp(factor + a walk in M of sd 0.15 a doubling) at P = 2, 4,
 * ..., 256 x M = 1, 16, ..., 64 KiB (a factor 16 apart: the noise is
 * then run_sd, test_wide_sizes_noise), two algorithms; fresh single
 * runs at the P halfway between and at 4, 64, ..., 16 KiB (two
 * doublings from the measured sizes): the 90 % interval holds 80 to
 * 98 % of them. */
START_TEST(test_wide_sizes_coverage)
{
	struct ml_collective_params m;
	struct ml_coll_run r[2 * 8 * 5];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_tuned y;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	enum ml_coll_alg a[2] = {ML_COLL_DEFAULT, ML_COLL_BINOMIAL};
	size_t n, k, in = 0, tot = 0, seed;
	long long P;
	int j;
	double w[17];

	machine(&m);
	for (seed = 1; seed <= 8; seed++) {
		gsl_rng_set(g, seed);
		w[0] = 0;
		for (j = 1; j <= 16; j++)
			w[j] = w[j - 1] + gsl_ran_gaussian(g, 0.15);
		n = 0;
		for (k = 0; k < 2; k++)
			for (P = 2; P <= 256; P *= 2)
				for (j = 0; j <= 16; j += 4)
					run_at(&r[n++], &m, a[k], P, 1LL << j,
					       model(&m, a[k], P, 1LL << j) *
						   exp(factor(P, 1LL << j) +
						       w[j] +
						       gsl_ran_gaussian(g, 0.05)));
		ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t),
				 ML_OK);
		ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu),
				 ML_OK);
		for (k = 0; k < 2; k++)
			for (P = 3; P <= 192; P *= 2)
				for (j = 2; j <= 14; j += 4) {
					long long M = 1LL << j;
					double x = model(&m, a[k], P, M),
					       v = x * exp(factor(P, M) + w[j] +
							   gsl_ran_gaussian(g, 0.05));

					ml_coll_tune_predict(tu, a[k], P, M, x,
							     &y);
					in += v >= y.lo && v <= y.hi;
					tot++;
				}
		ml_coll_tune_free(tu);
		ml_coll_meas_free(&t);
	}
	ck_assert_uint_eq(tot, 8 * 2 * 7 * 4);
	ck_assert_msg(in >= 0.80 * (double)tot && in <= 0.98 * (double)tot,
		      "covered %zu of %zu", in, tot);
	gsl_rng_free(g);
}
END_TEST

/* One exact run of each of algorithms a[0 .. na) at P = 2, 4, ..., 256
 * x M = 1, 4, ..., 4096 (r: room for na x 56): the model times
 * exp(factor + shift[k]), and zig[k] added at odd rows of P, subtracted
 * at even ones; built into *t. */
static void grid_runs(struct ml_coll_run *r,
		      const struct ml_collective_params *m, size_t na,
		      const enum ml_coll_alg *a, const double *shift,
		      const double *zig, struct ml_coll_meas *t)
{
	size_t n = 0, k;
	long long P, M;
	int row;

	for (P = 2, row = 0; P <= 256; P *= 2, row++)
		for (M = 1; M <= 4096; M *= 4)
			for (k = 0; k < na; k++)
				run_at(&r[n++], m, a[k], P, M,
				       model(m, a[k], P, M) *
					   exp(factor(P, M) + shift[k] +
					       (row % 2 ? zig[k] : -zig[k])));
	ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, t), ML_OK);
}

/* The default's residual jumps by +-0.3 from one measured P to the next,
 * binomial's is the smooth factor (one run a cell, no noise): each
 * algorithm's interval reads its own left-out errors, so binomial's at
 * a P halfway is under a third of the default's (in ln) and holds the
 * truth, and the default's holds its jump. */
START_TEST(test_width_by_algorithm)
{
	struct ml_collective_params m;
	struct ml_coll_run r[2 * 8 * 7];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_tuned yd, yb;
	long long P, M;

	machine(&m);
	grid_runs(r, &m, 2, (const enum ml_coll_alg[]){ML_COLL_DEFAULT,
						      ML_COLL_BINOMIAL},
		  (const double[]){0, 0}, (const double[]){0.3, 0}, &t);
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu), ML_OK);
	P = 24; /* between 16 (-0.3) and 32 (+0.3) */
	M = 64;
	ml_coll_tune_predict(tu, ML_COLL_DEFAULT, P, M,
			     model(&m, ML_COLL_DEFAULT, P, M), &yd);
	ml_coll_tune_predict(tu, ML_COLL_BINOMIAL, P, M,
			     model(&m, ML_COLL_BINOMIAL, P, M), &yb);
	ck_assert_msg(log(yb.hi / yb.lo) < log(yd.hi / yd.lo) / 3,
		      "binomial %g, default %g", yb.hi / yb.lo,
		      yd.hi / yd.lo);
	{
		double truth = model(&m, ML_COLL_BINOMIAL, P, M) *
			       exp(factor(P, M));

		/* exact data, no noise: the interval may be a point */
		ck_assert(truth >= yb.lo * (1 - 1e-12) &&
			  truth <= yb.hi * (1 + 1e-12));
		/* the default's P = 32 value, +0.3 */
		truth = model(&m, ML_COLL_DEFAULT, P, M) *
			exp(factor(P, M) + 0.3);
		ck_assert(truth >= yd.lo && truth <= yd.hi);
	}
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
}
END_TEST

/* best's threshold is each candidate's own: binomial's error less the
 * default's, cross-validated, is 0 (each the model times a smooth
 * factor, the default's 0.4 larger in ln: at P = 24, 64 B, where the
 * model's default is 0.18 faster, a gain of 0.22), chain's alternates
 * +-0.5 by P row (an error of 1 left out).  Pooled, the 0.9 quantile is
 * chain's 1 per sqrt doubling, over binomial's gain at P = 24 (0.58
 * doublings from 16): the default would be kept; binomial's own, 0,
 * picks binomial.  The measured corners are switched off so that
 * the threshold alone decides. */
START_TEST(test_threshold_by_candidate)
{
	struct ml_collective_params m;
	struct ml_coll_run r[3 * 8 * 7];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	unsigned among = ML_COLL_AMONG(ML_COLL_DEFAULT) |
			 ML_COLL_AMONG(ML_COLL_BINOMIAL) |
			 ML_COLL_AMONG(ML_COLL_CHAIN);

	machine(&m);
	grid_runs(r, &m, 3,
		  (const enum ml_coll_alg[]){ML_COLL_DEFAULT, ML_COLL_BINOMIAL,
					     ML_COLL_CHAIN},
		  (const double[]){0.4, 0, 0}, (const double[]){0, 0, 0.5}, &t);
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu), ML_OK);
	ck_assert_msg(tu->info.qdiff > 0.9, "pooled %g", tu->info.qdiff);
	ck_assert_msg(tu->qdiff_a[ML_COLL_CHAIN] > 0.9, "chain %g",
		      tu->qdiff_a[ML_COLL_CHAIN]);
	ck_assert_msg(fabs(tu->qdiff_a[ML_COLL_BINOMIAL]) < 1e-6,
		      "binomial %g", tu->qdiff_a[ML_COLL_BINOMIAL]);
	tu->corners_ok = tu->lone_ok = false;
	ck_assert_int_eq(pick_at(tu, &m, among, 24, 64), ML_COLL_BINOMIAL);
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
}
END_TEST

/* best's threshold holds what it claims: binomial's residual wanders
 * like a random walk in log2 P (sd 0.1 per doubling, drawn at the
 * measured P = 2 .. 256 and at the P halfway, 3 .. 192), the default's
 * is the smooth factor, chain's alternates +-0.5 by row (the noisy
 * candidate that made the pooled quantile too wide).  Over 300 draws,
 * binomial's predicted gain over the default at the P halfway exceeds
 * the true gain by more than its own threshold at about 1 - level of
 * the points (one-sided, level 0.9: 5 to 15 %), while its threshold is
 * under half the pooled one. */
START_TEST(test_threshold_coverage)
{
	struct ml_collective_params m;
	struct ml_coll_run r[3 * 8 * 7];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	size_t over = 0, tot = 0, narrower = 0, n, k, draw;
	const int ndraw = 300;

	machine(&m);
	for (draw = 0; draw < (size_t)ndraw; draw++) {
		double w[15]; /* at log2 P = 1, 1.585, 2, ... 8 */
		long long P, M;
		int row;

		w[0] = 0;
		for (k = 1; k < 15; k++)
			w[k] = w[k - 1] +
			       gsl_ran_gaussian(g, 0.1 * sqrt(k % 2 ? 0.585
								    : 0.415));
		n = 0;
		for (P = 2, row = 0; P <= 256; P *= 2, row++)
			for (M = 1; M <= 4096; M *= 4) {
				run_at(&r[n++], &m, ML_COLL_DEFAULT, P, M,
				       model(&m, ML_COLL_DEFAULT, P, M) *
					   exp(factor(P, M)));
				run_at(&r[n++], &m, ML_COLL_BINOMIAL, P, M,
				       model(&m, ML_COLL_BINOMIAL, P, M) *
					   exp(factor(P, M) + w[2 * row]));
				run_at(&r[n++], &m, ML_COLL_CHAIN, P, M,
				       model(&m, ML_COLL_CHAIN, P, M) *
					   exp(factor(P, M) +
					       (row % 2 ? 0.5 : -0.5)));
			}
		ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t),
				 ML_OK);
		ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu),
				 ML_OK);
		narrower += tu->qdiff_a[ML_COLL_BINOMIAL] < tu->info.qdiff / 2;
		for (P = 3, row = 0; P <= 192; P *= 2, row++)
			for (M = 1; M <= 4096; M *= 4) {
				double md = model(&m, ML_COLL_DEFAULT, P, M),
				       mb = model(&m, ML_COLL_BINOMIAL, P, M),
				       truth = log(md / mb) - w[2 * row + 1];
				struct ml_coll_tuned yd, yb;

				ml_coll_tune_predict(tu, ML_COLL_DEFAULT, P, M,
						     md, &yd);
				ml_coll_tune_predict(tu, ML_COLL_BINOMIAL, P, M,
						     mb, &yb);
				over += log(yd.value / yb.value) - truth >
					tu->qdiff_a[ML_COLL_BINOMIAL] *
					    sqrt(fmax(yd.dist, yb.dist));
				tot++;
			}
		ml_coll_tune_free(tu);
		ml_coll_meas_free(&t);
	}
	ck_assert_msg(narrower >= 0.95 * ndraw, "narrower in %zu of %d",
		      narrower, ndraw);
	ck_assert_msg(over >= 0.05 * (double)tot && over <= 0.15 * (double)tot,
		      "over the threshold at %zu of %zu", over, tot);
	gsl_rng_free(g);
}
END_TEST

/* Two measured P at one size, three identical runs each: nothing left
 * out along M, no run's deviation; a size nobody measured is still not
 * certain (its interval has width), while the measured cell's is the
 * runs' (zero here). */
START_TEST(test_unmeasured_size_not_certain)
{
	struct ml_collective_params m;
	struct ml_coll_run r[6];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_tuned y;
	size_t n = 0, k;

	machine(&m);
	for (k = 0; k < 3; k++) {
		run_at(&r[n++], &m, ML_COLL_BINOMIAL, 4, 64, 10);
		run_at(&r[n++], &m, ML_COLL_BINOMIAL, 8, 64, 25);
	}
	ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t), ML_OK);
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu), ML_OK);
	ml_coll_tune_predict(tu, ML_COLL_BINOMIAL, 4, 64,
			     model(&m, ML_COLL_BINOMIAL, 4, 64), &y);
	ck_assert(y.measured);
	ck_assert_double_eq_tol(y.hi / y.lo, 1, 1e-12);
	ml_coll_tune_predict(tu, ML_COLL_BINOMIAL, 4, 256,
			     model(&m, ML_COLL_BINOMIAL, 4, 256), &y);
	ck_assert(!y.measured && y.corrected);
	ck_assert_msg(y.lo < y.value && y.value < y.hi, "[%g, %g] at %g",
		      y.lo, y.hi, y.value);
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
}
END_TEST

/* Binomial at P = 4, 8, 16, 32, measured exactly (3 identical runs)
 * as the model x 1 up to the eager limit (4096) and x e^0.8 above: a
 * jump at the protocol switch the model misses, the residual flat on
 * either side.  Sizes 1, 16, 256, 4096 and then 8192 (the switch's two
 * sides a doubling apart), 131072, 1 MiB: leaving out 4096 or 8192
 * interpolates across the switch, which no prediction does here, so
 * those are not left out, and the 12 others are exact: qm = 0.  With
 * 32768 for 8192 (the sides 3 doublings apart, predictions at 8192 and
 * 16384 interpolate across it), the crossing errors count: leaving out
 * 4096 (from 256 and 32768) misses by 0.8 x 4/7 at 3 doublings from
 * the nearest, 32768 (from 4096 and 131072) by 0.8 x 2/5 at 2: v =
 * e^2 / dm of 0.0697 and 0.0512 at each of the 4 P, 12 zeros; the 0.9
 * quantile of the 20 (between the 18th and 19th) is 0.0697, qm = 0.8 x
 * (4/7) / sqrt(3). */
static double switch_qm(long long above)
{
	const long long P[] = {4, 8, 16, 32};
	long long M[] = {1, 16, 256, 4096, 0, 131072, 1048576};
	struct ml_collective_params m;
	struct ml_coll_run r[4 * 7 * 3];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_tune_info in;
	size_t n = 0, i, j, k;

	machine(&m);
	M[4] = above;
	for (i = 0; i < 4; i++)
		for (j = 0; j < 7; j++)
			for (k = 0; k < 3; k++)
				run_at(&r[n++], &m, ML_COLL_BINOMIAL, P[i], M[j],
				       model(&m, ML_COLL_BINOMIAL, P[i], M[j]) *
					       (M[j] > m.eager ? exp(0.8) : 1));
	table_of(r, n, &m, &t, &tu, &in);
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
	return in.qm;
}

START_TEST(test_switch_not_left_out)
{
	double tight = switch_qm(8192), wide = switch_qm(32768);

	ck_assert_msg(tight < 1e-9, "qm %g with the switch's sides measured",
		      tight);
	ck_assert_double_eq_tol(wide, 0.8 * 4 / 7 / sqrt(3), 1e-9);
}
END_TEST

/* Measurements exactly the model x 1.1 at P = 4 and 8, one size: the
 * two left-out errors are 0, too few to read a quantile from; between
 * them the interval is no narrower than the model alone's, z x the
 * fit's error model's sd (0.2 here), not zero. */
START_TEST(test_few_left_out_model_floor)
{
	struct ml_collective_params m;
	struct ml_coll_run r[2];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_tuned y;
	struct ml_coll_errmodel em;
	int c;

	machine(&m);
	run_at(&r[0], &m, ML_COLL_BINOMIAL, 4, 64,
	       1.1 * model(&m, ML_COLL_BINOMIAL, 4, 64));
	run_at(&r[1], &m, ML_COLL_BINOMIAL, 8, 64,
	       1.1 * model(&m, ML_COLL_BINOMIAL, 8, 64));
	ml_coll_errmodel_init(&em);
	em.fit_ranks = 8;
	for (c = 0; c < ML_COLL_NCLASS; c++)
		em.sd[c] = 0.2;
	ck_assert_int_eq(ml_coll_meas_build(r, 2, ML_COLL_BY_AVG, &t), ML_OK);
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, &em, 0.9, &tu), ML_OK);
	ml_coll_tune_predict(tu, ML_COLL_BINOMIAL, 6, 64,
			     model(&m, ML_COLL_BINOMIAL, 6, 64), &y);
	ck_assert(!y.measured && y.corrected);
	/* the correction is exact: ln 1.1 */
	ck_assert_double_eq_tol(y.corr, log(1.1), 1e-9);
	ck_assert_msg(log(y.hi / y.value) >= 1.6448536269514722 * 0.2 - 1e-9,
		      "half-width %g", log(y.hi / y.value));
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
}
END_TEST

/* At a measured cell the interval is of a new run: 5 runs a cell of
 * noise N(0, 0.1), and two runs of one cell 40 times the others; fresh
 * runs at the measured cells fall inside the 90 % interval 80 to 98 %
 * of the time (a new run's deviation read as a quantile of the runs',
 * each cell's own robust spread where wider). */
START_TEST(test_measured_cell_coverage)
{
	struct ml_collective_params m;
	struct ml_coll_run r[5 * 2 * 8 * 4];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_tuned y;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	enum ml_coll_alg a[2] = {ML_COLL_DEFAULT, ML_COLL_BINOMIAL};
	size_t n = 0, k, i, in = 0, tot = 0;
	long long P, M;

	gsl_rng_set(g, 7);
	machine(&m);
	for (k = 0; k < 2; k++)
		for (P = 2; P <= 256; P *= 2)
			for (M = 1; M <= 4096; M *= 16)
				for (i = 0; i < 5; i++)
					run_at(&r[n++], &m, a[k], P, M,
					       model(&m, a[k], P, M) *
						   exp(gsl_ran_gaussian(g, 0.1)));
	r[3].value *= 40;
	r[4].value *= 40;
	ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t), ML_OK);
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu), ML_OK);
	for (i = 0; i < 10; i++)
		for (k = 0; k < 2; k++)
			for (P = 2; P <= 256; P *= 2)
				for (M = 1; M <= 4096; M *= 16) {
					double x = model(&m, a[k], P, M);

					ml_coll_tune_predict(tu, a[k], P, M, x,
							     &y);
					ck_assert(y.measured);
					x *= exp(gsl_ran_gaussian(g, 0.1));
					in += x >= y.lo && x <= y.hi;
					tot++;
				}
	ck_assert_msg(in >= 0.80 * (double)tot && in <= 0.98 * (double)tot,
		      "covered %zu of %zu", in, tot);
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
	gsl_rng_free(g);
}
END_TEST

/* Far from the measured P, an algorithm the default runs that nothing
 * measured is no ground to leave it.  One rank a node, the default and
 * binomial measured at P = 128 and 200, 256 B (three runs of 1 %
 * spread): the default at twice its model time (its decision runs
 * binary there), binomial at its model time.  At P = 64 and 16 the
 * decision runs knomial, which no cell ran: the default's prediction is
 * twice the model's knomial (0.8 of its binomial on this machine: 2.63
 * and 3.31 us at P = 16), binomial predicted faster by more than ln
 * 1.5, and the threshold (no left-out error: the residuals are flat in P)
 * about 0.  Within a doubling of 128 (P = 64) binomial is picked; at
 * P = 16, three doublings below, the default is kept (binomial measured
 * at the point would still count: test_default_edge). */
START_TEST(test_unseen_default_kept)
{
	struct ml_collective_params m, q;
	struct ml_coll_run r[12];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_collective_result res;
	struct ml_coll_pick pk;
	struct ml_coll_tuned yd, yb;
	unsigned among = ML_COLL_AMONG(ML_COLL_DEFAULT) |
			 ML_COLL_AMONG(ML_COLL_BINOMIAL);
	const double f[3] = {1, 1.01, 0.99};
	const long long P[2] = {128, 200}, at[2] = {64, 16};
	size_t i, k, n = 0;

	machine(&m);
	for (i = 0; i < 2; i++)
		for (k = 0; k < 3; k++) {
			run_at(&r[n++], &m, ML_COLL_DEFAULT, P[i], 256,
			       2 * model(&m, ML_COLL_DEFAULT, P[i], 256) *
				   f[k]);
			run_at(&r[n++], &m, ML_COLL_BINOMIAL, P[i], 256,
			       model(&m, ML_COLL_BINOMIAL, P[i], 256) * f[k]);
		}
	ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t), ML_OK);
	ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu), ML_OK);
	q = m;
	q.msg = 256;
	q.algorithm = ML_COLL_DEFAULT;
	for (i = 0; i < 2; i++) {
		default_runs(&m, P[i], 256, ML_COLL_BINARY, &res);
		default_runs(&m, at[i], 256, ML_COLL_KNOMIAL, &res);
		q.ranks = at[i];
		ck_assert_int_eq(
		    ml_coll_tune_best(tu, &q, among, ML_COLL_BY_AVG, &pk), ML_OK);
		ck_assert_int_eq(pk.alg, i == 0 ? ML_COLL_BINOMIAL
						: ML_COLL_DEFAULT);
		ml_coll_tune_predict(tu, ML_COLL_DEFAULT, at[i], 256,
				     model(&m, ML_COLL_DEFAULT, at[i], 256),
				     &yd);
		ml_coll_tune_predict(tu, ML_COLL_BINOMIAL, at[i], 256,
				     model(&m, ML_COLL_BINOMIAL, at[i], 256),
				     &yb);
		ck_assert(yd.value > 1.5 * yb.value);
	}
	ml_coll_tune_free(tu);
	ml_coll_meas_free(&t);
}
END_TEST

/* info.qalg by hand: one rank a node, P = 128, 16 B to 2 KiB (where
 * Open MPI's decision runs binary), three equal runs a cell (no spread:
 * the medians' noise is 0), each algorithm's model off by its own
 * factor exp(d): the default (binary) 0, binomial 0.2, linear 0.5.  The
 * pairs' |r_a - r_b| are 0.2, 0.5 and 0.3 at each of the four sizes;
 * their 0.9 quantile lies among the four 0.5s.  With the default and
 * binomial alone, four pairs: fewer than 10, not measured (NaN). */
START_TEST(test_qalg_by_hand)
{
	const enum ml_coll_alg fa[3] = {ML_COLL_DEFAULT, ML_COLL_BINOMIAL,
					ML_COLL_LINEAR};
	const double d[3] = {0, 0.2, 0.5};
	const long long M[4] = {16, 64, 256, 2048};
	struct ml_collective_params m;
	struct ml_collective_result res;
	struct ml_coll_run r[36];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct ml_coll_tune_info in;
	size_t j, k, l, n = 0, na;

	machine(&m);
	for (na = 3; na >= 2; na--) {
		for (j = n = 0; j < 4; j++) {
			default_runs(&m, 128, M[j], ML_COLL_BINARY, &res);
			for (k = 0; k < na; k++)
				for (l = 0; l < 3; l++)
					run_at(&r[n++], &m, fa[k], 128, M[j],
					       model(&m, fa[k], 128, M[j]) *
						   exp(d[k]));
		}
		table_of(r, n, &m, &t, &tu, &in);
		if (na == 3)
			ck_assert_double_eq_tol(in.qalg, 0.5, 1e-9);
		else
			ck_assert(isnan(in.qalg));
		ml_coll_tune_free(tu);
		ml_coll_meas_free(&t);
	}
}
END_TEST

/* The default's run of algorithm a's model at (P, M) on m, times
 * exp(d[what it runs]): each broadcast's model misses by its own
 * factor, the default's by that of the broadcast its decision runs. */
static double missed_by(const struct ml_collective_params *m,
			enum ml_coll_alg a, long long P, long long M,
			const double *d, enum ml_coll_alg *ran)
{
	double x = model_ran(m, a, P, M, ran);

	return x * exp(d[*ran]);
}

/*
 * The default's interval where its decision runs a broadcast that none
 * of the cells its correction is read from ran: each broadcast's model
 * misses by its own factor exp(d), d drawn N(0, 0.3^2) per broadcast
 * and draw; one rank a node, five algorithms and the default measured
 * at P = 128 and 200 x 16 B to 16 KiB (three runs of 1 % spread), where
 * the decision runs binary, and linear at 16 KiB.  At P = 8 to 48 it
 * runs knomial or binomial at 14 of the 16 points: the residual read
 * there is another broadcast's, off by d_ran - d_read ~ N(0, 2 x 0.09),
 * and 90 % intervals must hold 80 to 98 % of them over 200 draws (87 %;
 * without the algorithms' spread, info.qalg, 3.7 %: the residuals are
 * flat in P, the runs' noise 1 %).
 */
START_TEST(test_unseen_decision_coverage)
{
	const enum ml_coll_alg fa[6] = {ML_COLL_DEFAULT,  ML_COLL_BINOMIAL,
					ML_COLL_LINEAR,	  ML_COLL_CHAIN,
					ML_COLL_PIPELINE, ML_COLL_SPLIT_BINARY};
	const long long P[2] = {128, 200}, M[4] = {16, 256, 2048, 16384},
			at[4] = {8, 12, 24, 48};
	const double f[3] = {1, 1.01, 0.99};
	struct ml_collective_params m;
	struct ml_coll_run r[144];
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	size_t in = 0, tot = 0, draw, i, j, k, l, n;

	machine(&m);
	gsl_rng_set(g, 46);
	for (draw = 0; draw < 200; draw++) {
		struct ml_coll_meas t;
		struct ml_coll_tune *tu;
		struct ml_coll_tuned y;
		enum ml_coll_alg ran;
		double d[ML_COLL_NALG + 1];

		for (k = 0; k <= ML_COLL_NALG; k++)
			d[k] = gsl_ran_gaussian(g, 0.3);
		for (i = n = 0; i < 2; i++)
			for (j = 0; j < 4; j++)
				for (k = 0; k < 6; k++)
					for (l = 0; l < 3; l++)
						run_at(&r[n++], &m, fa[k], P[i],
						       M[j],
						       missed_by(&m, fa[k], P[i],
								 M[j], d, &ran) *
							   f[l]);
		ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t),
				 ML_OK);
		ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu),
				 ML_OK);
		for (i = 0; i < 4; i++)
			for (j = 0; j < 4; j++) {
				double x = missed_by(&m, ML_COLL_DEFAULT, at[i],
						     M[j], d, &ran);

				if (ran == ML_COLL_BINARY ||
				    ran == ML_COLL_LINEAR)
					continue; /* a cell read ran it */
				ml_coll_tune_predict(
				    tu, ML_COLL_DEFAULT, at[i], M[j],
				    model(&m, ML_COLL_DEFAULT, at[i], M[j]),
				    &y);
				in += x >= y.lo && x <= y.hi;
				tot++;
			}
		ml_coll_tune_free(tu);
		ml_coll_meas_free(&t);
	}
	ck_assert_uint_ge(tot, 1000);
	ck_assert_msg(in >= 0.80 * (double)tot && in <= 0.98 * (double)tot,
		      "covered %zu of %zu", in, tot);
	gsl_rng_free(g);
}
END_TEST

/* The squares of the ln widths of a's corrected interval at (ranks,
 * 64 B) above and below its value, hi^2 - lo^2. */
static double sides_apart(const struct ml_coll_tune *tu,
			  const struct ml_collective_params *m,
			  enum ml_coll_alg a, long long ranks)
{
	struct ml_coll_tuned y;
	double up, down;

	ck_assert_int_eq(ml_coll_tune_predict(tu, a, ranks, 64,
					      model(m, a, ranks, 64), &y),
			 ML_OK);
	ck_assert(!y.measured && y.corrected);
	up = log(y.hi / y.value);
	down = log(y.value / y.lo);
	return up * up - down * down;
}

/* Two nodes by node, Open MPI: the default and binomial measured three
 * times (x 1, 1.01, 0.99) at the even P = 66, 100, 150 and 200 x 1 B to
 * 4 KiB (binomial at 151 too), the model off by factor() and a cell's
 * own N(0, 0.1^2) (the cross-validation's q then not 0).  Where Open
 * MPI's barrier before the broadcast is Bruck (64 <= P < 256) an odd P
 * loads one node with a rank more, and is measured slower: the
 * interval's side the offset pushes (up at an odd P, down at an even
 * one) adds in quadrature the largest q times the share of the
 * correction read from rows of the other class, and the other side
 * does not, so hi^2 - lo^2 (ln) is that (share q)^2, within 1e-9:
 * the default at P = 101 (rows 100 and 150, both even: share 1);
 * binomial at 175 (rows 151 and 200: share ln(175/151) / ln(200/151),
 * the even row's weight) and at 152 (rows 151 and 200: down by the odd
 * row's weight, 1 - ln(152/151) / ln(200/151)).  At P = 57 (recursive
 * doubling) and by core, both sides alike. */
START_TEST(test_unmeasured_class)
{
	const long long P[5] = {66, 100, 150, 200, 151};
	const enum ml_coll_alg fa[2] = {ML_COLL_DEFAULT, ML_COLL_BINOMIAL};
	const double f[3] = {1, 1.01, 0.99};
	const enum ml_coll_map map[2] = {ML_COLL_MAP_NODE, ML_COLL_MAP_CORE};
	const double w175 = log(175.0 / 151) / log(200.0 / 151),
		     w152 = 1 - log(152.0 / 151) / log(200.0 / 151);
	struct ml_collective_params m;
	struct ml_coll_run r[2 * 5 * 7 * 3];
	size_t i, j, k, l, n, mi;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);

	machine(&m);
	m.nodes = 2;
	m.ppn = 128;
	for (mi = 0; mi < 2; mi++) {
		struct ml_coll_meas t;
		struct ml_coll_tune *tu;
		struct ml_coll_tune_info in;
		double q = 0, q2;
		long long M;

		m.map_by = map[mi];
		gsl_rng_set(g, 46);
		for (i = n = 0; i < 5; i++)
			for (k = 0; k < 2; k++)
				for (M = 1, j = 0; j < 7; j++, M *= 4) {
					double e = factor(P[i], M) +
						   gsl_ran_gaussian(g, 0.1);

					for (l = 0; l < 3 &&
						    (i < 4 || fa[k] == ML_COLL_BINOMIAL);
					     l++)
						run_at(&r[n++], &m, fa[k], P[i], M,
						       model(&m, fa[k], P[i], M) *
							   exp(e) * f[l]);
				}
		table_of(r, n, &m, &t, &tu, &in);
		for (k = 0; k < ML_COLL_NCLASS; k++)
			q = fmax(q, in.q[k]);
		ck_assert(q > 0.05);
		q2 = mi == 0 ? q * q : 0; /* by core: one class */
		if (mi == 0)
			ck_assert_double_eq(in.qclass, q);
		else
			ck_assert(isnan(in.qclass));
		ck_assert_double_eq_tol(sides_apart(tu, &m, ML_COLL_DEFAULT, 101),
					q2, 1e-9);
		ck_assert_double_eq_tol(
		    sides_apart(tu, &m, ML_COLL_BINOMIAL, 175),
		    w175 * w175 * q2, 1e-9);
		ck_assert_double_eq_tol(
		    sides_apart(tu, &m, ML_COLL_BINOMIAL, 152),
		    -w152 * w152 * q2, 1e-9);
		ck_assert_double_eq_tol(sides_apart(tu, &m, ML_COLL_DEFAULT, 57),
					0, 1e-9);
		ml_coll_tune_free(tu);
		ml_coll_meas_free(&t);
	}
	gsl_rng_free(g);
}
END_TEST

/* The default and binary measured once at P = 64 and 126 x 1 B to 4
 * KiB (x 4), binary 1.3 times the default everywhere, the default as
 * the model.  One run of the default at P = 126, 4 B was disturbed, 20
 * times its time: more than twice the least time of the larger sizes
 * of its row (16 B's), so the cell reads as that, the model's at 16 B
 * (hand: the least of a row the model's time grows along), and the
 * default is kept at P = 100, 4 B (its residual read between 64 and
 * 126), where the spike read as measured would have picked binary.  The same
 * spike in one run of three: the median holds it out, nothing capped. */
START_TEST(test_spike_capped)
{
	const long long P[2] = {64, 126};
	struct ml_collective_params m;
	struct ml_coll_run r[3 * 2 * 2 * 7];
	size_t n, i, j, l, runs;

	machine(&m);
	for (runs = 1; runs <= 3; runs += 2) {
		struct ml_coll_meas t;
		struct ml_coll_tune *tu;
		struct ml_coll_tune_info in;
		struct ml_coll_tuned y;
		long long M;

		for (i = n = 0; i < 2; i++)
			for (M = 1, j = 0; j < 7; j++, M *= 4)
				for (l = 0; l < runs; l++) {
					double d = model(&m, ML_COLL_DEFAULT,
							 P[i], M);

					run_at(&r[n++], &m, ML_COLL_DEFAULT,
					       P[i], M,
					       d * (i == 1 && M == 4 && l == 0
							? 20
							: 1));
					run_at(&r[n++], &m, ML_COLL_BINARY,
					       P[i], M, 1.3 * d);
				}
		table_of(r, n, &m, &t, &tu, &in);
		ck_assert_uint_eq(in.capped, runs == 1 ? 1 : 0);
		ml_coll_tune_predict(tu, ML_COLL_DEFAULT, 126, 4,
				     model(&m, ML_COLL_DEFAULT, 126, 4), &y);
		ck_assert(y.measured);
		ck_assert_double_eq_tol(
		    y.value, model(&m, ML_COLL_DEFAULT, 126, runs == 1 ? 16 : 4),
		    1e-9 * y.value);
		ck_assert_int_eq(pick_at(tu, &m, ML_COLL_AMONG(ML_COLL_BINARY) |
						     ML_COLL_AMONG(ML_COLL_DEFAULT),
					 100, 4),
				 ML_COLL_DEFAULT);
		ml_coll_tune_free(tu);
		ml_coll_meas_free(&t);
	}
}
END_TEST

/* The corners pooled: the default and binomial measured three times
 * each (x 1, 1.05, 0.95: robust sd 1.4826 ln 1.05 = 0.0723, a median's
 * standard error sqrt(pi / 2) 0.0723 / sqrt 3 = 0.0523, a corner's
 * sqrt 2 times that, 0.0740) at P = 16 and 24 x 64 B and 1 KiB, where
 * Open MPI's decision runs knomial, as at P = 20, 256 B.  Binomial
 * ln 1.06 = 0.0583 faster at all four corners: each within its noise,
 * together their mean above its standard error, 0.0740 / 2: binomial
 * (+1).  ln 1.02 faster at all four (0.0198): 0.  Faster by ln 1.06 at
 * three and slower by ln 1.01 at one: 0. */
START_TEST(test_corners_pooled)
{
	struct ml_collective_params m;
	struct ml_collective_result res;
	struct ml_coll_run r[48];
	struct ml_coll_meas t;
	struct ml_coll_tune *tu;
	struct tpt dp = {0};
	const double f[3] = {1, 1.05, 0.95}, gain[3] = {1.06, 1.02, 1.06};
	const long long P[2] = {16, 24}, M[2] = {64, 1024};
	const int want[3] = {1, 0, 0};
	size_t i, j, k, n;
	int c;

	machine(&m);
	default_runs(&m, 20, 256, ML_COLL_KNOMIAL, &res);
	dp.ran = res.ran;
	dp.comp = res.composition;
	for (c = 0; c < 3; c++) {
		n = 0;
		for (i = 0; i < 2; i++)
			for (j = 0; j < 2; j++)
				for (k = 0; k < 3; k++) {
					double g = c == 2 && i == 1 && j == 1
						       ? 1 / 1.01
						       : gain[c];

					run_at(&r[n++], &m, ML_COLL_DEFAULT,
					       P[i], M[j], 10 * f[k]);
					run_at(&r[n++], &m, ML_COLL_BINOMIAL,
					       P[i], M[j], 10 / g * f[k]);
				}
		ck_assert_int_eq(ml_coll_meas_build(r, n, ML_COLL_BY_AVG, &t),
				 ML_OK);
		ck_assert_int_eq(ml_coll_tune_new(&t, &m, NULL, 0.9, &tu),
				 ML_OK);
		ck_assert_int_eq(ml_tune_corners(tu, ML_COLL_BINOMIAL, 20, 256,
						 0, &dp, false),
				 want[c]);
		ml_coll_tune_free(tu);
		ml_coll_meas_free(&t);
	}
}
END_TEST

Suite *suite_tune(void);

Suite *suite_tune(void)
{
	Suite *s = suite_create("tune");
	TCase *tc = tcase_create("tune");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_cells_by_hand);
	tcase_add_test(tc, test_recovers_factor);
	tcase_add_test(tc, test_measured_decides);
	tcase_add_test(tc, test_run_sd_decides);
	tcase_add_test(tc, test_wide_sizes_noise);
	tcase_add_test(tc, test_corners_decide);
	tcase_add_test(tc, test_corners_decision);
	tcase_add_test(tc, test_one_run_alone);
	tcase_add_test(tc, test_lone_cell_row);
	tcase_add_test(tc, test_lone_cells_checked);
	tcase_add_test(tc, test_default_edge);
	tcase_add_test(tc, test_corner_without_default);
	tcase_add_test(tc, test_corners_majority);
	tcase_add_test(tc, test_corners_pooled);
	tcase_add_test(tc, test_cv_coverage);
	tcase_add_test(tc, test_run_coverage);
	tcase_add_test(tc, test_wide_sizes_coverage);
	tcase_add_test(tc, test_width_by_algorithm);
	tcase_add_test(tc, test_unmeasured_size_not_certain);
	tcase_add_test(tc, test_switch_not_left_out);
	tcase_add_test(tc, test_few_left_out_model_floor);
	tcase_add_test(tc, test_measured_cell_coverage);
	tcase_add_test(tc, test_noise_by_ranks);
	tcase_add_test(tc, test_far_edge_decides);
	tcase_add_test(tc, test_unseen_default_kept);
	tcase_add_test(tc, test_unseen_decision_coverage);
	tcase_add_test(tc, test_qalg_by_hand);
	tcase_add_test(tc, test_unmeasured_class);
	tcase_add_test(tc, test_spike_capped);
	tcase_add_test(tc, test_threshold_by_candidate);
	tcase_add_test(tc, test_threshold_coverage);
	tcase_add_test(tc, test_run_part);
	suite_add_tcase(s, tc);
	return s;
}
