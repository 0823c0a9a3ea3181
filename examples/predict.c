/*
 * predict.c - one prediction from each model of libmcastlat, through its
 * public API: start from the model's defaults (params_init, the paper's
 * values), change a few fields, evaluate, check the status.
 *
 * Build against an installed libmcastlat:
 *
 *   cc -o predict predict.c $(pkg-config --cflags --libs mcastlat)
 *
 * Each line prints the model, the latency and its unit, and the point;
 * `mcastlat COMMAND ... --value latency` prints the same numbers (make
 * check compares them).
 */
#include <stdio.h>
#include <stdlib.h>

#include <mcastlat.h>

/* Print one result, or why there is none; returns 0 on success. */
static int report(const char *model, enum ml_status st, double latency,
		  const char *unit, const char *point)
{
	if (st != ML_OK) {
		fprintf(stderr, "predict: %s: %s\n", model, ml_status_word(st));
		return 1;
	}
	printf("%-10s %14.10g %-7s %s\n", model, latency, unit, point);
	return 0;
}

/* A broadcast of 6000 bytes (4 packets of at most 1500) to 64 nodes. */
static int cluster(void)
{
	struct ml_cluster_params p;
	struct ml_cluster_result r;
	struct ml_diag d;
	enum ml_status st;

	ml_cluster_params_init(&p);
	p.op = ML_CLUSTER_BCAST;
	p.msg = 6000;
	p.nodes = 64;
	/* validate says which parameter is wrong; eval only that one is. */
	st = ml_cluster_validate(&p, &d);
	if (st != ML_OK) {
		fprintf(stderr, "predict: cluster: %s: %s\n", d.param, d.msg);
		return 1;
	}
	st = ml_cluster_eval(&p, &r);
	return report("cluster", st, r.time, "us", "bcast, 6000 bytes, p = 64");
}

/* An 8-packet multicast to 256 nodes on the optimal k-binomial tree. */
static int kbinomial(void)
{
	struct ml_kbinomial_params p;
	struct ml_kbinomial_result r;
	enum ml_status st;

	ml_kbinomial_params_init(&p);
	p.nodes = 256;
	p.packets = 8;
	st = ml_kbinomial_eval(&p, &r);
	return report("kbinomial", st, r.latency, "us", "n = 256, m = 8");
}

/* Broadcasts in a 7-cube at 0.002 messages per node per cycle. */
static int hypercube(void)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;
	enum ml_status st;

	ml_hypercube_params_init(&p);
	p.dim = 7;
	p.rate = 0.002;
	st = ml_hypercube_eval(&p, &r); /* may be ML_SATURATED at high rates */
	return report("hypercube", st, r.latency, "cycles",
		      "n = 7, rate 0.002");
}

/* Mu-torus multicast to 64 nodes of an 8 x 8 SCI torus. */
static int torus(void)
{
	struct ml_torus_params p;
	struct ml_torus_result r;
	enum ml_status st;

	ml_torus_params_init(&p);
	p.alg = ML_TORUS_MU;
	p.k = 8;
	p.group = 64;
	st = ml_torus_eval(&p, &r);
	return report("torus", st, r.latency, "us", "mu, 8 x 8, G = 64");
}

/* Simulated unicasts on a 4 x 4 mesh at light load (a fraction of a
 * second): deterministic, the seed is a parameter. */
static int simulate(void)
{
	struct ml_sim_params p;
	struct ml_sim_result r;
	struct ml_diag d;
	enum ml_status st;

	ml_sim_params_init(&p, ML_SIM_MESH);
	p.k = 4;
	p.rate = 0.01;
	p.warmup = 1000;
	p.ci = 0.05;
	st = ml_sim_run(&p, &r, &d);
	if (st == ML_EINVAL) {
		fprintf(stderr, "predict: simulate: %s: %s\n", d.param, d.msg);
		return 1;
	}
	return report("simulate", st, r.latency, "cycles",
		      "4 x 4 mesh, rate 0.01");
}

int main(void)
{
	int failed = 0;

	printf("libmcastlat %s\n", ml_version());
	failed += cluster();
	failed += kbinomial();
	failed += hypercube();
	failed += torus();
	failed += simulate();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
