/*
 * simulate.h - what the files of `mcastlat simulate` share: the indices
 * of its options and columns, its choice names, and the functions of
 * its parts.  cmd_simulate.c (the command: options -> ml_sim_run -> row)
 * uses simulate_opts.c (the option and column tables),
 * simulate_compare.c (--compare: the hypercube model on the same point)
 * and simulate_sat.c (--saturation: the bisection on the rate); none of
 * those calls back.  Internal to src/cli/commands/.
 */
#ifndef MCASTLAT_CLI_SIMULATE_H
#define MCASTLAT_CLI_SIMULATE_H

#include "cli/cmd.h"
#include "mcastlat/hypercube.h"
#include "mcastlat/sim.h"

enum {
	/* Network (SPEC 7.1). */
	O_TOPOLOGY,
	O_K,
	O_DIMS,
	O_ROUTING,
	O_VCS,
	O_BUFFER,
	O_PORTS,
	O_ROUTER_CYCLES,
	/* Traffic (SPEC 7.2, 8). */
	O_RATE,
	O_FLITS,
	O_UNICAST_FLITS,
	O_BETA,
	O_DESTS,
	O_MULTICAST,
	O_PATTERN,
	O_HOTSPOT,
	O_HOTSPOT_FRACTION,
	O_DELTA,
	O_SEED,
	O_TRACE,
	/* Tree and path multicast (SPEC 8). */
	O_AUX,
	O_PRUNE_WAIT,
	O_PRUNING,
	O_PREP_CYCLES,
	/* Measurement (SPEC 7.3). */
	O_WARMUP,
	O_CI,
	O_CI_ON,
	O_CYCLES,
	O_MAX_CYCLES,
	O_MAX_QUEUE,
	O_REPLICATIONS,
	O_COMPARE,
	O_MODEL_LOAD,
	O_SATURATION,
	O_SAT_RESOLUTION,
	NOPTS
};

enum {
	C_ROUTING,
	C_VCS,
	C_PORTS,
	C_ROUTER_CYCLES,
	C_CI_ON,
	C_LATENCY,
	C_LATENCY_CI,
	C_UNICAST_LATENCY,
	C_UNICAST_LATENCY_CI,
	C_MULTICAST_LATENCY,
	C_MULTICAST_LATENCY_CI,
	C_MULTICAST_LATENCY_DEST,
	C_MULTICAST_LATENCY_DEST_CI,
	C_OFFERED,
	C_ACCEPTED,
	C_ACCEPTED_MIN,
	C_ACCEPTED_MAX,
	C_HOPS,
	C_PRUNINGS,
	C_BRANCHES,
	C_CHANNELS,
	C_CYCLES,
	C_MESSAGES,
	C_MODEL_LATENCY,
	C_MODEL_UNICAST_LATENCY,
	C_MODEL_UNICAST_LATENCY_VBAR,
	C_MODEL_STATUS,
	C_ERROR_PCT,
	C_ERROR_PCT_CI,
	C_SAT_RATE,
	C_SAT_RATE_LO,
	C_SAT_RATE_HI,
	C_SAT_THROUGHPUT,
	C_LAMBDA_SAT,
	C_NOTE,
	NCOLS
};

/* simulate_opts.c: the tables and the choices' names. */
extern const struct ml_opt ml_simulate_opts[NOPTS];
extern const struct ml_col ml_simulate_cols[NCOLS];
extern const char *const ml_simulate_topology_names[];
extern const char *const ml_simulate_routing_names[];
extern const char *const ml_simulate_all_names[];
extern const char *const ml_simulate_multicast_names[];
extern const char *const ml_simulate_pattern_names[];
extern const char *const ml_simulate_onoff_names[];
extern const char *const ml_simulate_ci_on_names[];
extern const char *const ml_simulate_model_load_names[];

/* simulate_compare.c: NULL when the hypercube model covers the point
 * p, else a note naming the first option that leaves its domain. */
const char *ml_simulate_model_domain(const struct ml_sim_params *p);

/* simulate_compare.c: the model's columns of out[] for the simulated
 * point p (status st, result res); NaN where there is none.  Returns
 * NULL or a note on why there is no model. */
const char *ml_simulate_eval_model(const struct ml_sim_params *p,
				   enum ml_hypercube_load load,
				   enum ml_status st,
				   const struct ml_sim_result *res,
				   union ml_val *out);

/* simulate_compare.c: the model's saturation rate for --saturation
 * --compare, NaN outside its domain. */
double ml_simulate_model_lambda_sat(const struct ml_sim_params *p,
				    enum ml_hypercube_load load);

/* simulate_sat.c: the saturation rate of p, bracketed [*lo, *hi] to the
 * relative resolution res, and the throughput *thr at *lo. */
enum ml_status ml_simulate_sat_search(struct ml_sim_params *p, double res,
				      double *lo, double *hi, double *thr,
				      struct ml_diag *d);

#endif
