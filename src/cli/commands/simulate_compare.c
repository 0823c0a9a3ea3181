/*
 * simulate_compare.c - `mcastlat simulate --compare` (SPEC 7.4): the
 * hypercube model (ml_hypercube_eval, ml_hypercube_saturation) on the
 * simulated point, where its domain covers it, and the model's columns
 * (latencies, the error against the simulation and its interval).
 */
#include <math.h>
#include <stdio.h>

#include "cli/commands/simulate.h"

/*
 * NULL when the hypercube model covers the point, else a note naming
 * the first option that leaves its domain.  The model: binary n-cube,
 * Duato's routing, uniform unicasts and broadcasts by the unicast-based
 * binomial tree of one message length, multiport nodes, and a flit that
 * crosses a channel per cycle with no router delay (R = 0).
 */
const char *ml_simulate_model_domain(const struct ml_sim_params *p)
{
	if (p->topology != ML_SIM_HYPERCUBE)
		return "compare: the model covers --topology hypercube only";
	if (p->routing != ML_SIM_DUATO)
		return "compare: the model covers --routing duato only";
	if (p->trace != NULL)
		return "compare: the model covers generated traffic, not "
		       "--trace";
	if (p->beta > 0 && p->multicast != ML_SIM_BINOMIAL)
		return "compare: the model covers --multicast binomial only";
	if (p->beta > 0 && p->dests != ML_SIM_ALL)
		return "compare: the model covers --dests all only";
	if (p->ports != ML_SIM_ALL)
		return "compare: the model covers --ports all only";
	if (p->router_cycles != 0)
		return "compare: the model assumes --router-cycles 0";
	if (p->pattern != ML_SIM_UNIFORM)
		return "compare: the model covers --pattern uniform only";
	if (p->unicast_flits != 0 && p->unicast_flits != p->flits)
		return "compare: the model has one message length "
		       "(--unicast-flits)";
	if (p->dims > ML_HYPERCUBE_MAX_DIM || p->vcs > ML_HYPERCUBE_MAX_VCS)
		return "compare: outside the model's --dims or --vcs range";
	return NULL;
}

/* The model's columns for a simulated point; NaN where there is none. */
const char *ml_simulate_eval_model(const struct ml_sim_params *p,
			      enum ml_hypercube_load load,
			      enum ml_status sim_st,
			      const struct ml_sim_result *res,
			      union ml_val *out)
{
	struct ml_hypercube_params m;
	struct ml_hypercube_result r;
	const char *why = ml_simulate_model_domain(p);
	enum ml_status st;

	out[C_MODEL_LATENCY].r = NAN;
	out[C_MODEL_UNICAST_LATENCY].r = NAN;
	out[C_MODEL_UNICAST_LATENCY_VBAR].r = NAN;
	out[C_ERROR_PCT].r = NAN;
	out[C_ERROR_PCT_CI].r = NAN;
	out[C_MODEL_STATUS].s = "";
	if (why != NULL)
		return why;
	ml_hypercube_params_init(&m);
	m.dim = p->dims;
	m.vcs = p->vcs;
	m.flits = p->flits;
	m.beta = p->beta;
	m.rate = p->rate;
	m.delta = p->delta;
	m.load = load;
	st = ml_hypercube_eval(&m, &r);
	out[C_MODEL_STATUS].s = ml_status_word(st);
	if (st != ML_OK)
		return NULL;
	out[C_MODEL_LATENCY].r = r.latency;
	/* The simulator charges Delta before every send, unicasts too.
	 * The paper gives no unicast latency: SPEC 7.4's column is S_u plus
	 * the source waiting; the _vbar column stretches it by the virtual
	 * channel multiplexing Vbar (eq 31) as eq 2 stretches the broadcast
	 * step, which the simulation follows far better (man page,
	 * COMPARE). */
	out[C_MODEL_UNICAST_LATENCY].r = r.s_u + r.w_s + m.delta;
	out[C_MODEL_UNICAST_LATENCY_VBAR].r = (r.s_u + r.w_s) * r.vbar +
					      m.delta;
	/* a cut run (no-convergence) keeps what it measured, the error
	 * too, with its wider interval */
	if ((sim_st == ML_OK || sim_st == ML_ENOCONV) &&
	    isfinite(res->multicast_latency) &&
	    res->multicast_latency > 0) {
		double sim = res->multicast_latency;

		out[C_ERROR_PCT].r = 100 * (r.latency - sim) / sim;
		/* first order in the simulation's error: d(error_pct) /
		 * d(sim) = -100 model / sim^2 */
		out[C_ERROR_PCT_CI].r =
		    100 * r.latency * res->multicast_latency_ci / (sim * sim);
	}
	return NULL;
}

/* The model's saturation rate for --saturation --compare, NaN outside
 * its domain. */
double ml_simulate_model_lambda_sat(const struct ml_sim_params *p,
			       enum ml_hypercube_load load)
{
	struct ml_hypercube_params m;
	double lam;

	if (ml_simulate_model_domain(p) != NULL)
		return NAN;
	ml_hypercube_params_init(&m);
	m.dim = p->dims;
	m.vcs = p->vcs;
	m.flits = p->flits;
	m.beta = p->beta;
	m.delta = p->delta;
	m.load = load;
	if (ml_hypercube_saturation(&m, &lam) != ML_OK)
		return NAN;
	return lam;
}
