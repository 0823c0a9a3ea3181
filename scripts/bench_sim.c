/*
 * bench_sim.c - speed of the flit-level simulator (SPEC 7.5): simulated
 * cycles per second on one core for an 8x8 torus (DOR, 2 VCs, R = 2,
 * 2-flit buffers, uniform unicasts of 16 flits) at half its saturation
 * rate, for an 8x8x8 torus likewise, and for an 8x8 mesh with tree
 * multicasts (bench_tree).  The 8x8 torus's target is the developers'
 * guide's 450,000 cycles/s (SPEC 7.5 asks for 150,000).  Build with -O2
 * and link libmcastlat.a:
 *
 *   cc -O2 -Iinclude scripts/bench_sim.c libmcastlat.a \
 *      $(pkg-config --libs gsl) -lm -o bench_sim
 *
 * Saturation, measured with this simulator (accepted traffic stops
 * following the offered): about 0.20 flits/node/cycle on the 8x8 torus
 * (rate 0.0125 messages), about 0.16 on the 8x8x8 torus (rate 0.010).
 * Half of it: rates 0.00625 and 0.005.  Each run simulates a fixed
 * number of cycles (the interval target is unreachable, so the run ends
 * at max_cycles); the figure is the median of RUNS runs, timed by the
 * process's CPU clock (one thread), so that a machine shared with other
 * jobs does not distort it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mcastlat/sim.h"

#define RUNS 3

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Cycles per second of the median of RUNS runs of p (which must end at
 * max_cycles), or -1; *acc: the accepted traffic. */
static double median_rate(const struct ml_sim_params *p, const char *what,
			  double *acc)
{
	struct ml_sim_result r;
	double v[RUNS];
	int i;

	for (i = 0; i < RUNS; i++) {
		double t0 = now();
		enum ml_status st = ml_sim_run(p, &r, NULL);

		if (st != ML_ENOCONV) {
			fprintf(stderr, "bench_sim: %s: unexpected status %s\n",
				what, ml_status_word(st));
			return -1;
		}
		v[i] = (double)r.cycles / (now() - t0);
	}
	*acc = r.accepted;
	qsort(v, RUNS, sizeof(v[0]), cmp);
	return v[RUNS / 2];
}

/* The k = 8 torus of dims dimensions at the given rate. */
static double bench(unsigned dims, double rate, unsigned long long cycles,
		    double *acc)
{
	struct ml_sim_params p;

	ml_sim_params_init(&p, ML_SIM_TORUS);
	p.k = 8;
	p.dims = dims;
	p.vcs = 2;
	p.flits = 16;
	p.rate = rate;
	p.warmup = 1000;
	p.ci = 1e-9;
	p.max_cycles = cycles;
	return median_rate(&p, "torus", acc);
}

/* Tree-based multicast with pruning (SPEC 8): an 8x8 mesh, multicasts
 * only, 11 destinations, 1 data flit, at half its saturation (about
 * 0.12 flits/node/cycle with this simulator: rate 0.0027 multicasts,
 * 0.06 flits received per node per cycle). */
static double bench_tree(unsigned long long cycles, double *acc)
{
	struct ml_sim_params p;

	ml_sim_params_init(&p, ML_SIM_MESH);
	p.k = 8;
	p.multicast = ML_SIM_TREE;
	p.beta = 1;
	p.flits = 2;
	p.dests = 11;
	p.rate = 0.0027;
	p.warmup = 1000;
	p.ci = 1e-9;
	p.max_cycles = cycles;
	return median_rate(&p, "tree", acc);
}

int main(void)
{
	double acc2, acc3;
	double c2 = bench(2, 0.00625, 300000, &acc2);
	double c3 = bench(3, 0.005, 30000, &acc3);

	if (c2 < 0 || c3 < 0)
		return 1;
	printf("simulate 8x8 torus, half saturation (%.3f flits/node/cycle): "
	       "%.0f cycles/s (target > 450000)\n",
	       acc2, c2);
	printf("simulate 8x8x8 torus, half saturation (%.3f flits/node/cycle): "
	       "%.0f cycles/s (target > 0)\n",
	       acc3, c3);
	{
		double acct, ct = bench_tree(100000, &acct);

		if (ct < 0)
			return 1;
		printf("simulate 8x8 mesh, tree multicasts of 11 destinations, "
		       "half saturation (%.3f flits/node/cycle): %.0f cycles/s "
		       "(target > 0)\n",
		       acct, ct);
	}
	return 0;
}
