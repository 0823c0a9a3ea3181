/*
 * bench_hypercube.c - throughput of the hypercube model (SPEC 6): solves
 * per second on the paper's Figure 1 grid below saturation, and
 * saturation searches per second.  Build with -O2 and link libmcastlat.a:
 *
 *   cc -O2 -Iinclude scripts/bench_hypercube.c libmcastlat.a \
 *      $(pkg-config --libs gsl) -lm -o bench_hypercube
 *
 * Prints the median of five runs of each figure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mcastlat/hypercube.h"

#define RUNS 5

static const unsigned dims[] = {6, 7, 8};
static const unsigned vcs[] = {2, 4};
static const double flits[] = {32, 64, 128};
static const double betas[] = {0.005, 0.01, 0.02};
#define NSAT (3 * 2 * 3 * 3)
/* Rates per grid point, as fractions of that point's lambda_sat. */
#define NFRAC 20

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void grid_point(unsigned k, struct ml_hypercube_params *p)
{
	ml_hypercube_params_init(p);
	p->dim = dims[k / 18];
	p->vcs = vcs[k / 9 % 2];
	p->flits = flits[k / 3 % 3];
	p->beta = betas[k % 3];
}

int main(void)
{
	double sat[NSAT], rs[RUNS], rv[RUNS], sink = 0;
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;
	unsigned k, j, run;
	long n;

	for (run = 0; run < RUNS; run++) {
		double t0 = now();

		for (n = 0; now() - t0 < 0.2;) {
			for (k = 0; k < NSAT; k++, n++) {
				grid_point(k, &p);
				if (ml_hypercube_saturation(&p, &sat[k]) !=
				    ML_OK) {
					fprintf(stderr, "saturation failed\n");
					return 1;
				}
			}
		}
		rs[run] = n / (now() - t0);
	}
	for (run = 0; run < RUNS; run++) {
		double t0 = now();

		for (n = 0; now() - t0 < 0.2;) {
			for (k = 0; k < NSAT; k++) {
				grid_point(k, &p);
				for (j = 1; j <= NFRAC; j++, n++) {
					/* 0.0475 .. 0.95 of lambda_sat */
					p.rate = sat[k] * 0.95 * j / NFRAC;
					if (ml_hypercube_eval(&p, &r) !=
					    ML_OK) {
						fprintf(stderr,
							"solve failed\n");
						return 1;
					}
					sink += r.latency;
				}
			}
		}
		rv[run] = n / (now() - t0);
	}
	qsort(rs, RUNS, sizeof(rs[0]), cmp);
	qsort(rv, RUNS, sizeof(rv[0]), cmp);
	printf("hypercube solves/s: %.0f (target > 200000)\n", rv[RUNS / 2]);
	printf("hypercube saturation searches/s: %.0f (target > 5000)\n",
	       rs[RUNS / 2]);
	return sink > 0 ? 0 : 1;
}
