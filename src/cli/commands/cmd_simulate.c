/*
 * cmd_simulate.c - `mcastlat simulate`: options -> ml_sim_run -> row, and
 * --compare, which evaluates the hypercube model (ml_hypercube_eval) on
 * the same point where the model covers it (SPEC 7.4).
 *
 * The options whose default depends on the topology (--routing, --vcs,
 * --ports, --router-cycles) are "auto" unless given: the engine's
 * ml_sim_params_init fills them for the point's topology, and result
 * columns of the same names echo the values used.  --trace is read once
 * per run by prepare(); each point checks its node ids against its own
 * network, since the network may be swept.
 *
 * This file owns the command: --trace's preparation, options ->
 * params, the checks, one point's row and the command's table.  The
 * option and column tables are simulate_opts.c's, --compare's model
 * simulate_compare.c's, --saturation's search simulate_sat.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/commands/simulate.h"
#include "cli/commands/trace.h"
#include "mcastlat/hypercube.h"
#include "mcastlat/sim.h"

/* The row's text scratch (ML_TEXT_MAX bytes): the ports value, then the
 * note. */
#define PORTS_TEXT 24

/* ------------------------------------------------------------------ */
/* --trace: read once per run                                          */

static enum ml_status prepare(const union ml_val *base, void **prep,
			      struct ml_diag *d)
{
	struct ml_trace *t;
	char err[256];

	if (base[O_TRACE].s == NULL)
		return ML_OK;
	t = malloc(sizeof(*t));
	if (t == NULL)
		return ml_diag_set(d, "trace", "out of memory");
	if (ml_trace_load(base[O_TRACE].s, t, err, sizeof(err))) {
		free(t);
		return ml_diag_set(d, "trace", "%s", err);
	}
	*prep = t;
	return ML_OK;
}

static void release(void *prep)
{
	ml_trace_free(prep);
	free(prep);
}

/* ------------------------------------------------------------------ */
/* Options -> params                                                   */

/* Nodes of the point's network, saturated at 2^32 (an invalid size). */
static unsigned long long network_nodes(const struct ml_sim_params *p)
{
	unsigned long long n = 1;
	unsigned i;

	if (p->topology == ML_SIM_HYPERCUBE)
		return p->dims >= 32 ? 1ULL << 32 : 1ULL << p->dims;
	for (i = 0; i < p->dims && n < (1ULL << 32); i++)
		n *= p->k;
	return n < (1ULL << 32) ? n : 1ULL << 32;
}

static void to_params(const struct ml_point *pt, struct ml_sim_params *p)
{
	const union ml_val *v = pt->v;
	const struct ml_trace *t = pt->prep;

	ml_sim_params_init(p, (enum ml_sim_topology)v[O_TOPOLOGY].i);
	p->k = p->topology == ML_SIM_HYPERCUBE ? 2 : (unsigned)v[O_K].i;
	p->dims = (unsigned)v[O_DIMS].i;
	if (v[O_ROUTING].i != ML_AUTO_INT)
		p->routing = (enum ml_sim_routing)v[O_ROUTING].i;
	if (v[O_VCS].i != ML_AUTO_INT)
		p->vcs = (unsigned)v[O_VCS].i;
	p->buffer = (unsigned)v[O_BUFFER].i;
	if (v[O_PORTS].i != ML_AUTO_INT)
		p->ports = v[O_PORTS].i < 0 ? ML_SIM_ALL
					    : (unsigned)v[O_PORTS].i;
	if (v[O_ROUTER_CYCLES].i != ML_AUTO_INT)
		p->router_cycles = (unsigned)v[O_ROUTER_CYCLES].i;
	p->rate = v[O_RATE].r;
	p->flits = (unsigned)v[O_FLITS].i;
	p->unicast_flits = v[O_UNICAST_FLITS].i == ML_AUTO_INT
				   ? 0
				   : (unsigned)v[O_UNICAST_FLITS].i;
	p->beta = v[O_BETA].r;
	p->dests = v[O_DESTS].i < 0 ? ML_SIM_ALL : (unsigned)v[O_DESTS].i;
	p->multicast = (enum ml_sim_multicast)v[O_MULTICAST].i;
	p->pattern = (enum ml_sim_pattern)v[O_PATTERN].i;
	p->hotspot = (unsigned)v[O_HOTSPOT].i;
	p->hotspot_fraction = v[O_HOTSPOT_FRACTION].r;
	p->delta = (unsigned)v[O_DELTA].i;
	p->seed = (unsigned long)v[O_SEED].i;
	if (t != NULL) {
		p->trace = t->msgs;
		p->ntrace = t->n;
	}
	p->aux = v[O_AUX].i == ML_AUTO_INT ? 0 : (unsigned)v[O_AUX].i;
	p->prune_wait = (unsigned)v[O_PRUNE_WAIT].i;
	p->pruning = v[O_PRUNING].i == 0;
	p->prep_cycles = (unsigned)v[O_PREP_CYCLES].i;
	/* A trace is usually a handful of hand-worked messages: measure
	 * them all unless told otherwise. */
	if (v[O_WARMUP].i != ML_AUTO_INT)
		p->warmup = (unsigned long)v[O_WARMUP].i;
	else if (t != NULL)
		p->warmup = 0;
	p->ci = v[O_CI].r;
	if (v[O_CI_ON].i != ML_AUTO_INT)
		p->ci_on = (enum ml_sim_ci_on)v[O_CI_ON].i;
	else if (v[O_COMPARE].i && p->beta > 0 && t == NULL)
		p->ci_on = ML_SIM_CI_MULTICAST;
	p->cycles = v[O_CYCLES].i == ML_AUTO_INT
			    ? 0
			    : (unsigned long long)v[O_CYCLES].i;
	p->max_cycles = (unsigned long long)v[O_MAX_CYCLES].i;
	p->max_queue = (unsigned long)v[O_MAX_QUEUE].i;
	p->replications = (unsigned)v[O_REPLICATIONS].i;
	/* Under a work limit (fuzzing) a point runs shortened. */
	if (pt->max_work) {
		unsigned long long cap =
		    pt->max_work / network_nodes(p) / p->replications;

		if (cap < p->max_cycles)
			p->max_cycles = cap ? cap : 1;
		if (p->cycles && cap < p->cycles)
			p->cycles = cap ? cap : 1;
	}
}

/* The checks of one point: the engine's, and the trace's node ids
 * against this point's network (with the line that names them). */
static enum ml_status validate(const struct ml_point *pt,
			       const struct ml_sim_params *p,
			       struct ml_diag *d)
{
	const struct ml_trace *t = pt->prep;
	unsigned long long n = network_nodes(p);

	if (pt->max_work && n > pt->max_work / 16)
		return ml_diag_set(d, "k", "network larger than the work "
				   "limit allows");
	if (!pt->v[O_COMPARE].i &&
	    pt->v[O_MODEL_LOAD].i != ML_HYPERCUBE_LOAD_PAPER)
		return ml_diag_set(d, "model-load", "only with --compare");
	if (t != NULL && t->max_node >= n)
		return ml_diag_set(d, "trace",
				   "%s:%lu: node %u is not in the %llu-node "
				   "network",
				   t->name, t->max_node_line, t->max_node, n);
	return ml_sim_validate(p, d);
}

static enum ml_status check(const struct ml_point *pt, struct ml_diag *d)
{
	struct ml_sim_params p;

	to_params(pt, &p);
	return validate(pt, &p, d);
}

/* ------------------------------------------------------------------ */
/* One point                                                           */

/* The values used for the auto options, whatever the status. */
static void echo_params(const struct ml_point *pt,
			const struct ml_sim_params *p, union ml_val *out)
{
	out[C_ROUTING].s = ml_simulate_routing_names[p->routing == ML_SIM_DUATO];
	out[C_VCS].i = p->vcs;
	out[C_ROUTER_CYCLES].i = p->router_cycles;
	out[C_CI_ON].s = ml_simulate_ci_on_names[p->ci_on == ML_SIM_CI_MULTICAST];
	if (p->ports == ML_SIM_ALL) {
		out[C_PORTS].s = "all";
	} else {
		snprintf(pt->text, PORTS_TEXT, "%u", p->ports);
		out[C_PORTS].s = pt->text;
	}
}

static void set_note(const struct ml_point *pt, union ml_val *out,
		     const char *param, const char *msg)
{
	char *note = pt->text + PORTS_TEXT;

	if (param)
		snprintf(note, ML_TEXT_MAX - PORTS_TEXT, "--%s: %s", param,
			 msg);
	else
		snprintf(note, ML_TEXT_MAX - PORTS_TEXT, "%s", msg);
	out[C_NOTE].s = note;
}

/* The simulator's progress, passed on to the engine's with where the
 * run stands: its cycles and its interval against the target. */
struct point_progress {
	const struct ml_point *pt;
	struct ml_sim_progress info;
	double ci;
	unsigned reps;
};

static void on_progress(void *arg, double done)
{
	const struct point_progress *pp = arg;
	char detail[128], cyc[24], rep[32] = "";
	double c = (double)pp->info.cycles;

	if (c >= 1e6)
		snprintf(cyc, sizeof(cyc), "%.3gM", c / 1e6);
	else if (c >= 1e4)
		snprintf(cyc, sizeof(cyc), "%.3gk", c / 1e3);
	else
		snprintf(cyc, sizeof(cyc), "%.0f", c);
	if (pp->reps > 1)
		snprintf(rep, sizeof(rep), " (seed %u of %u)", pp->info.rep + 1,
			 pp->reps);
	if (isnan(pp->info.half_rel))
		snprintf(detail, sizeof(detail),
			 "%s cycles%s, no interval yet (target %.3g%%)", cyc,
			 rep, 100 * pp->ci);
	else
		snprintf(detail, sizeof(detail),
			 "%s cycles%s, interval %.3g%% of the mean (target "
			 "%.3g%%)",
			 cyc, rep, 100 * pp->info.half_rel, 100 * pp->ci);
	pp->pt->progress(pp->pt->progress_arg, done, detail);
}

/* ------------------------------------------------------------------ */
/* --saturation (SPEC 7.3): the search is simulate_sat.c's              */

static enum ml_status eval_saturation(const struct ml_point *pt,
				      struct ml_sim_params *p,
				      union ml_val *out)
{
	struct ml_diag d = {NULL, ""};
	double lo, hi, thr;
	enum ml_status st;
	const char *why;

	out[C_SAT_RATE].r = out[C_SAT_RATE_LO].r = NAN;
	out[C_SAT_RATE_HI].r = out[C_SAT_THROUGHPUT].r = NAN;
	out[C_LAMBDA_SAT].r = NAN;
	st = validate(pt, p, &d);
	if (st == ML_OK && p->trace != NULL)
		st = ml_diag_set(&d, "saturation", "needs generated traffic, "
				 "not --trace");
	if (st == ML_OK)
		st = ml_simulate_sat_search(p, pt->v[O_SAT_RESOLUTION].r, &lo, &hi, &thr,
				&d);
	if (st == ML_EINVAL)
		set_note(pt, out, d.param, d.msg);
	if (st != ML_OK)
		return st;
	out[C_SAT_RATE_LO].r = lo;
	out[C_SAT_RATE_HI].r = hi;
	out[C_SAT_RATE].r = (lo + hi) / 2;
	out[C_SAT_THROUGHPUT].r = thr;
	if (pt->v[O_COMPARE].i) {
		out[C_LAMBDA_SAT].r = ml_simulate_model_lambda_sat(
		    p, (enum ml_hypercube_load)pt->v[O_MODEL_LOAD].i);
		why = ml_simulate_model_domain(p);
		if (why != NULL)
			set_note(pt, out, NULL, why);
	}
	return ML_OK;
}

static enum ml_status eval(const struct ml_point *pt, union ml_val *out)
{
	struct ml_sim_params p;
	struct ml_sim_result res;
	struct ml_diag d = {NULL, ""};
	struct point_progress pp;
	enum ml_status st;
	const char *why;

	to_params(pt, &p);
	if (pt->progress) {
		pp.pt = pt;
		pp.ci = p.ci;
		pp.reps = p.replications;
		pp.info.half_rel = NAN;
		p.progress = on_progress;
		p.progress_arg = &pp;
		p.progress_info = &pp.info;
	}
	echo_params(pt, &p, out);
	if (pt->v[O_SATURATION].i)
		return eval_saturation(pt, &p, out);
	st = validate(pt, &p, &d);
	if (st == ML_OK)
		st = ml_sim_run(&p, &res, &d);
	if (st == ML_EINVAL || st == ML_ENOMEM) {
		if (st == ML_EINVAL)
			set_note(pt, out, d.param, d.msg);
		if (pt->v[O_COMPARE].i) {
			out[C_MODEL_STATUS].s = "";
			out[C_MODEL_LATENCY].r = NAN;
			out[C_MODEL_UNICAST_LATENCY].r = NAN;
			out[C_MODEL_UNICAST_LATENCY_VBAR].r = NAN;
			out[C_ERROR_PCT].r = NAN;
			out[C_ERROR_PCT_CI].r = NAN;
		}
		return st;
	}
	out[C_LATENCY].r = res.latency;
	out[C_LATENCY_CI].r = res.latency_ci;
	out[C_UNICAST_LATENCY].r = res.unicast_latency;
	out[C_UNICAST_LATENCY_CI].r = res.unicast_latency_ci;
	out[C_MULTICAST_LATENCY].r = res.multicast_latency;
	out[C_MULTICAST_LATENCY_CI].r = res.multicast_latency_ci;
	out[C_MULTICAST_LATENCY_DEST].r = res.multicast_latency_dest;
	out[C_MULTICAST_LATENCY_DEST_CI].r = res.multicast_latency_dest_ci;
	out[C_OFFERED].r = res.offered;
	out[C_ACCEPTED].r = res.accepted;
	out[C_ACCEPTED_MIN].r = res.accepted_min;
	out[C_ACCEPTED_MAX].r = res.accepted_max;
	out[C_HOPS].r = res.hops;
	out[C_PRUNINGS].r = res.prunings;
	out[C_BRANCHES].r = res.branches;
	out[C_CHANNELS].r = res.channels;
	out[C_CYCLES].i = (long long)res.cycles;
	out[C_MESSAGES].i = (long long)res.messages;
	if (pt->v[O_COMPARE].i) {
		why = ml_simulate_eval_model(&p,
				 (enum ml_hypercube_load)pt->v[O_MODEL_LOAD].i,
				 st, &res, out);
		if (why != NULL)
			set_note(pt, out, NULL, why);
	}
	return st;
}

/* A hypercube has 2 nodes per dimension: --k is for meshes and tori. */
static const struct ml_unused unused[] = {{"k", "topology", "hypercube"},
					  {NULL, NULL, NULL}};

/* Options only some mechanisms or patterns use: a note when given and
 * some points have another (the simulator ignores them there). */
static const char *const tree_only[] = {"tree", NULL};
static const char *const path_only[] = {"dual-path", "pm", NULL};
static const char *const hotspot_only[] = {"hotspot", NULL};
static const struct ml_ignored ignored[] = {
    {"aux", "multicast", tree_only},
    {"prune-wait", "multicast", tree_only},
    {"pruning", "multicast", tree_only},
    {"prep-cycles", "multicast", path_only},
    {"hotspot", "pattern", hotspot_only},
    {"hotspot-fraction", "pattern", hotspot_only},
    {NULL, NULL, NULL}};

/* The statuses of a row (man page: STATUS). */
static const struct ml_status_doc statuses[] = {
    {ML_OK, "the interval target was met"},
    {ML_EINVAL, "the point breaks a rule that involves several options; the note says which"},
    {ML_SATURATED, "the network does not carry the offered traffic"},
    {ML_ENOCONV, "--max-cycles came first: what was measured, intervals wider than asked"},
    {ML_DEADLOCK, "flits stopped moving"},
    {ML_OVERFLOW, "a result is not finite"},
    {ML_ENOMEM, "the network of this point does not fit in memory"},
    {ML_OK, NULL}};

const struct ml_command ml_cmd_simulate = {
    .name = "simulate",
    .summary = "flit-level simulation of wormhole meshes, tori and "
	       "hypercubes: unicast and multicast latency and throughput",
    .source = "own simulator; Malumbres & Duato (tree multicast), "
	      "Shahrabi et al. SAC 2001 (--compare)",
    .time_unit = "cycles",
    .opts = ml_simulate_opts,
    .nopts = NOPTS,
    .cols = ml_simulate_cols,
    .ncols = NCOLS,
    .check = check,
    .eval = eval,
    .prepare = prepare,
    .release = release,
    .slow = true,
    .unused = unused,
    .ignored = ignored,
    .statuses = statuses,
    .keeps = ML_ENOCONV,
};
