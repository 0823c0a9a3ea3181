/*
 * coverage_sim.c - does the simulator's 95 % interval cover the long-run
 * mean latency in about 95 % of runs (SPEC 7.3)?  For each network and
 * load: the long-run mean from LONG_RUNS fixed-length runs of many
 * cycles (seeds apart from the others; COV_LONG_RUNS of them, 8 unless
 * set; its own 95 % interval is printed, and must be far narrower than
 * a run's), then SEEDS ordinary
 * runs to the --ci target, each judged by whether latency +- latency_ci
 * holds the long-run mean.  Run by scripts/coverage.sh; build with -O2
 * and link libmcastlat.a:
 *
 *   cc -O2 -Iinclude scripts/coverage_sim.c libmcastlat.a \
 *      $(pkg-config --libs gsl) -lpthread -lm -o coverage_sim
 *
 *   coverage_sim torus|mesh K DIMS FLITS RATE SEEDS CI LONG_CYCLES [MEAN]
 *
 * Environment: COV_BUFFER (flits per VC buffer, default 2), COV_THREADS
 * (1 or 2, default 2), COV_OUT (a file to which each run appends a line:
 * seed, latency, latency_ci, messages, status), COV_CYCLES (fixed-length runs
 * of that many cycles instead of runs to CI), COV_LONG_RUNS, COV_SEED0,
 * COV_WARMUP.
 *
 * prints one line: rate, coverage, its binomial standard error, mean
 * relative half-width and, to compare with it, 1.96 standard deviations
 * of the runs' estimates, mean measured messages, the long-run mean and
 * its half-width, and the mean of the runs' estimates with its 95 %
 * interval (a bias of the runs shows as a gap between the two means).
 * With MEAN given, the long runs are skipped (a library without
 * fixed-length runs: define OLD_LIB).  Two threads unless COV_THREADS.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "mcastlat/sim.h"

#define LONG_RUNS_MAX 64
#define THREADS_MAX   2

static struct ml_sim_params base;
static unsigned nseeds, next_job, long_runs = 8;
static double truth;
static unsigned seed0 = 1000, threads = THREADS_MAX;
static unsigned covered, done_ok;
static double sum_half, sum_msgs, sum_lat, sq_lat;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static FILE *runs_out; /* COV_OUT: one line per run */

static void *worker(void *arg)
{
	(void)arg;
	for (;;) {
		struct ml_sim_params p = base;
		struct ml_sim_result r;
		enum ml_status st;
		unsigned j;

		pthread_mutex_lock(&mu);
		j = next_job++;
		pthread_mutex_unlock(&mu);
		if (j >= nseeds)
			return NULL;
		p.seed = seed0 + j;
		st = ml_sim_run(&p, &r, NULL);
		pthread_mutex_lock(&mu);
		if (runs_out)
			fprintf(runs_out, "%lu %.17g %.17g %llu %s\n", p.seed,
				r.latency, r.latency_ci,
				(unsigned long long)r.messages,
				ml_status_word(st));
		if (st == ML_OK && isfinite(r.latency_ci)) {
			done_ok++;
			covered += fabs(r.latency - truth) <= r.latency_ci;
			sum_half += r.latency_ci / r.latency;
			sum_msgs += (double)r.messages;
			sum_lat += r.latency;
			sq_lat += r.latency * r.latency;
		}
		pthread_mutex_unlock(&mu);
	}
}

#ifndef OLD_LIB
struct long_job {
	struct ml_sim_params p;
	double lat;
	enum ml_status st;
};

static void *long_worker(void *arg)
{
	struct long_job *j = arg;
	struct ml_sim_result r;

	j->st = ml_sim_run(&j->p, &r, NULL);
	j->lat = r.latency;
	return NULL;
}

/* The long-run mean: long_runs runs of cycles each, two at a time. */
static int long_run(unsigned long long cycles, double *mean, double *half)
{
	struct long_job j[LONG_RUNS_MAX];
	pthread_t th[LONG_RUNS_MAX];
	double s = 0, q = 0;
	int i, n = (int)long_runs, T = (int)threads;

	for (i = 0; i < n; i++) {
		j[i].p = base;
		j[i].p.seed = 1u << 30 | (unsigned)i;
		j[i].p.cycles = cycles;
		j[i].p.max_cycles = cycles * 10;
		pthread_create(&th[i], NULL, long_worker, &j[i]);
		if (i % T == T - 1 || i == n - 1) {
			int k;

			for (k = i - i % T; k <= i; k++)
				pthread_join(th[k], NULL);
		}
	}
	for (i = 0; i < n; i++) {
		if (j[i].st != ML_OK) {
			fprintf(stderr, "coverage_sim: long run: %s\n",
				ml_status_word(j[i].st));
			return -1;
		}
		s += j[i].lat;
		q += j[i].lat * j[i].lat;
	}
	*mean = s / n;
	*half = gsl_cdf_tdist_Pinv(0.975, n - 1) *
		sqrt((q - s * s / n) / (n - 1)) / sqrt(n);
	return 0;
}
#endif

int main(int argc, char **argv)
{
	pthread_t th[THREADS_MAX];
	double half = 0, cov, se, spread, est, est_half;
	int i;

	if (argc < 9) {
		fprintf(stderr, "usage: coverage_sim torus|mesh K DIMS FLITS "
				"RATE SEEDS CI LONG_CYCLES [MEAN]\n");
		return 2;
	}
	ml_sim_params_init(&base, strcmp(argv[1], "mesh") == 0 ? ML_SIM_MESH
							      : ML_SIM_TORUS);
	base.k = (unsigned)atoi(argv[2]);
	base.dims = (unsigned)atoi(argv[3]);
	base.flits = (unsigned)atoi(argv[4]);
	base.rate = atof(argv[5]);
	nseeds = (unsigned)atoi(argv[6]);
	base.ci = atof(argv[7]);
	base.max_cycles = 100000000ULL;
	if (getenv("COV_WARMUP"))
		base.warmup = strtoul(getenv("COV_WARMUP"), NULL, 10);
	if (getenv("COV_LONG_RUNS"))
		long_runs = (unsigned)atoi(getenv("COV_LONG_RUNS"));
	if (long_runs < 2 || long_runs > LONG_RUNS_MAX) {
		fprintf(stderr, "coverage_sim: COV_LONG_RUNS: 2..%d\n",
			LONG_RUNS_MAX);
		return 2;
	}
	if (getenv("COV_BUFFER"))
		base.buffer = (unsigned)atoi(getenv("COV_BUFFER"));
	if (getenv("COV_THREADS"))
		threads = (unsigned)atoi(getenv("COV_THREADS"));
	if (threads < 1 || threads > THREADS_MAX) {
		fprintf(stderr, "coverage_sim: COV_THREADS: 1..%d\n",
			THREADS_MAX);
		return 2;
	}
	if (getenv("COV_OUT") && !(runs_out = fopen(getenv("COV_OUT"), "a"))) {
		perror("coverage_sim: COV_OUT");
		return 2;
	}
	if (runs_out) /* line by line: a cut study keeps its runs */
		setvbuf(runs_out, NULL, _IOLBF, 0);
	if (getenv("COV_SEED0"))
		seed0 = (unsigned)atoi(getenv("COV_SEED0"));
#ifndef OLD_LIB
	if (getenv("COV_CYCLES")) /* fixed-length runs instead */
		base.cycles = strtoull(getenv("COV_CYCLES"), NULL, 10);
#endif
	if (argc > 9) {
		truth = atof(argv[9]);
	} else {
#ifdef OLD_LIB
		fprintf(stderr, "coverage_sim: give MEAN\n");
		return 2;
#else
		if (long_run(strtoull(argv[8], NULL, 10), &truth, &half))
			return 1;
#endif
	}
	for (i = 0; i < (int)threads; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	for (i = 0; i < (int)threads; i++)
		pthread_join(th[i], NULL);
	cov = done_ok ? (double)covered / done_ok : NAN;
	se = done_ok ? sqrt(cov * (1 - cov) / done_ok) : NAN;
	/* the spread of the runs' estimates, 1.96 sd of them in % of their
	 * mean: a check of the intervals' width that needs no long-run mean
	 * (about the mean half-width if they are right, a little less if
	 * they are conservative) */
	spread = est = est_half = NAN;
	if (done_ok > 1) {
		double m = sum_lat / done_ok,
		       sd = sqrt(fmax(0, (sq_lat - done_ok * m * m) /
						 (done_ok - 1)));

		spread = 196 * sd / m;
		/* the mean of the estimates, against the long-run mean:
		 * a bias would show here */
		est = m;
		est_half = gsl_cdf_tdist_Pinv(0.975, done_ok - 1) * sd /
			   sqrt(done_ok);
	}
	printf("rate %g coverage %.3f +- %.3f (%u/%u runs ok) half-width "
	       "%.2f%% (1.96 sd of estimates %.2f%%) messages %.0f long-run "
	       "mean %.3f +- %.3f (mean of the estimates %.3f +- %.3f)\n",
	       base.rate, cov, se, covered, done_ok,
	       done_ok ? 100 * sum_half / done_ok : NAN, spread,
	       done_ok ? sum_msgs / done_ok : NAN, truth, half, est, est_half);
	if (runs_out)
		fclose(runs_out);
	return 0;
}
