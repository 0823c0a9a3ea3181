/* cmd_hypercube.c - `mcastlat hypercube`: options -> ml_hypercube_eval (or
 * ml_hypercube_saturation with --saturation) -> row. */
#include <math.h>

#include "cli/cmd.h"
#include "mcastlat/hypercube.h"

enum {
	O_DIM,
	O_VCS,
	O_FLITS,
	O_BETA,
	O_RATE,
	O_DELTA,
	O_LOAD,
	O_SATURATION,
	NOPTS
};

/* In the order of enum ml_hypercube_load. */
static const char *const load_names[] = {"paper", "tree", NULL};

static const struct ml_opt opts[NOPTS] = {
    [O_DIM] = {"dims", ML_OPT_INT, "6", NULL, 0, 0, 1, ML_HYPERCUBE_MAX_DIM, 0,
	       NULL, "n, hypercube dimension (N = 2^n nodes)", 0},
    [O_VCS] = {"vcs", ML_OPT_INT, "2", NULL, 0, 0, 2, ML_HYPERCUBE_MAX_VCS, 0,
	       NULL, "V, virtual channels per physical channel", 0},
    [O_FLITS] = {"flits", ML_OPT_INT, "32", "flits", 0, 0, 1, 0, 0, NULL,
		 "M, message length", 0},
    [O_BETA] = {"beta", ML_OPT_REAL, "0.01", NULL, 0, 1, 0, 0, 0, NULL,
		"fraction of generated messages that are broadcasts", 0},
    [O_RATE] = {"rate", ML_OPT_REAL, "0.001", "messages/node/cycle", 0, 0, 0, 0,
		0, NULL,
		"lambda_g, generation rate (unused with --saturation)", 0},
    [O_DELTA] = {"delta", ML_OPT_TIME, "1", NULL, 0, 0, 0, 0, 0, NULL,
		 "Delta, start-up latency per broadcast step", 0},
    [O_LOAD] = {"load", ML_OPT_CHOICE, "paper", NULL, 0, 0, 0, 0, 0, load_names,
		"broadcast channel load: the paper's eqs 3, 11, 26, 27 or "
		"the tree's (N-1)/n lambda_sb", 0},
    [O_SATURATION] = {"saturation", ML_OPT_FLAG, NULL, NULL, 0, 0, 0, 0, 0,
		      NULL, "print the saturation rate and latencies below it", 0},
};

enum {
	C_LATENCY,
	C_S_B,
	C_S_U,
	C_W_C,
	C_W_S,
	C_VBAR,
	C_RHO,
	C_LAMBDA_SAT,
	C_LATENCY_0,
	C_LATENCY_50,
	C_LATENCY_90,
	NCOLS
};

#define LAT(n, k, h)                                                           \
	{                                                                      \
		.name = n, .kind = k, .help = h,                               \
		.only_without = "saturation"                                   \
	}
#define SAT(n, k, h)                                                           \
	{                                                                      \
		.name = n, .kind = k, .help = h, .only_with = "saturation"     \
	}

static const struct ml_col cols[NCOLS] = {
    [C_LATENCY] =
	LAT("latency", ML_COL_TIME, "broadcast latency n (L_b + Delta), eq 1"),
    [C_S_B] =
	LAT("S_b", ML_COL_TIME, "one-step broadcast network latency, eq 12"),
    [C_S_U] = LAT("S_u", ML_COL_TIME, "mean unicast network latency, eq 20"),
    [C_W_C] = LAT("W_c", ML_COL_TIME, "waiting time at a channel, eq 19"),
    [C_W_S] = LAT("W_s", ML_COL_TIME, "waiting time at the source, eq 28"),
    [C_VBAR] =
	LAT("Vbar", ML_COL_REAL, "mean virtual-channel multiplexing, eq 31"),
    [C_RHO] = LAT("rho", ML_COL_REAL, "channel utilisation lambda_c S"),
    [C_LAMBDA_SAT] = SAT("lambda_sat", ML_COL_REAL,
			 "saturation generation rate, messages/node/cycle"),
    [C_LATENCY_0] =
	SAT("latency_0", ML_COL_TIME, "zero-load latency n (M + Delta)"),
    [C_LATENCY_50] =
	SAT("latency_50", ML_COL_TIME, "latency at 50% of lambda_sat"),
    [C_LATENCY_90] =
	SAT("latency_90", ML_COL_TIME, "latency at 90% of lambda_sat"),
};

static void to_params(const union ml_val *v, struct ml_hypercube_params *p)
{
	ml_hypercube_params_init(p);
	p->dim = (unsigned)v[O_DIM].i;
	p->vcs = (unsigned)v[O_VCS].i;
	p->flits = (double)v[O_FLITS].i;
	p->beta = v[O_BETA].r;
	p->rate = v[O_RATE].r;
	p->delta = v[O_DELTA].r;
	p->load = (enum ml_hypercube_load)v[O_LOAD].i;
}

static enum ml_status check(const struct ml_point *pt, struct ml_diag *d)
{
	struct ml_hypercube_params p;

	to_params(pt->v, &p);
	return ml_hypercube_validate(&p, d);
}

static enum ml_status latency_at(struct ml_hypercube_params *p, double rate,
				 double *latency)
{
	struct ml_hypercube_result r;
	enum ml_status st;

	p->rate = rate;
	st = ml_hypercube_eval(p, &r);
	*latency = r.latency;
	return st;
}

static enum ml_status eval_saturation(struct ml_hypercube_params *p,
				      union ml_val *out)
{
	enum ml_status st;
	double ls;

	st = ml_hypercube_saturation(p, &ls);
	if (st != ML_OK)
		return st;
	out[C_LAMBDA_SAT].r = ls;
	st = latency_at(p, 0, &out[C_LATENCY_0].r);
	if (st == ML_OK)
		st = latency_at(p, 0.5 * ls, &out[C_LATENCY_50].r);
	if (st == ML_OK)
		st = latency_at(p, 0.9 * ls, &out[C_LATENCY_90].r);
	return st;
}

static enum ml_status eval(const struct ml_point *pt, union ml_val *out)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;
	enum ml_status st;

	to_params(pt->v, &p);
	if (pt->v[O_SATURATION].i)
		return eval_saturation(&p, out);
	st = ml_hypercube_eval(&p, &r);
	if (st != ML_OK)
		return st;
	out[C_LATENCY].r = r.latency;
	out[C_S_B].r = r.s_b;
	out[C_S_U].r = r.s_u;
	out[C_W_C].r = r.w_c;
	out[C_W_S].r = r.w_s;
	out[C_VBAR].r = r.vbar;
	out[C_RHO].r = r.rho;
	return ML_OK;
}

static enum ml_status fit_params(const union ml_val *v, void *params,
				 struct ml_diag *d)
{
	if (v[O_SATURATION].i)
		return ml_diag_set(d, "saturation", "is not fitted");
	to_params(v, params);
	return ML_OK;
}

static const char *const fit_inputs[] = {"dims",  "vcs",  "flits",
					 "beta", "rate", NULL};

static const char *fit_needs(const union ml_val *v, const bool *stated)
{
	(void)v;
	return stated[O_RATE] ? NULL : "rate";
}

/* --dims, as in torus (one concept, one name); --dim, this command's
 * first name for it, stays an alias. */
static const struct ml_alias aliases[] = {{"dims", "dim"}, {NULL, NULL}};
static const struct ml_unused unused[] = {{"rate", "saturation", NULL},
					  {NULL, NULL, NULL}};

/* The statuses of a row (man page: STATUS). */
static const struct ml_status_doc statuses[] = {
    {ML_OK, "every result is valid"},
    {ML_EINVAL, "the point is outside the model's domain (a sweep goes on; a warning names the rule)"},
    {ML_SATURATED, "the network does not reach a steady state at this rate"},
    {ML_ENOCONV, "a root finder reached its iteration cap (not with the "
		  "command's settings)"},
    {ML_OVERFLOW, "a result is not finite (huge inputs such as 1e308)"},
    {ML_ENOMEM, "the solver's tables do not fit in memory"},
    {ML_OK, NULL}};

const struct ml_command ml_cmd_hypercube = {
    .name = "hypercube",
    .summary = "broadcast latency in wormhole-routed hypercubes with "
	       "adaptive routing",
    .source = "Shahrabi, Ould-Khaoua & Mackenzie, SAC 2001",
    .time_unit = "cycles",
    .opts = opts,
    .nopts = NOPTS,
    .cols = cols,
    .ncols = NCOLS,
    .check = check,
    .eval = eval,
    .aliases = aliases,
    .unused = unused,
    .fit_model = &ml_fit_hypercube,
    .fit_params = fit_params,
    .fit_inputs = fit_inputs,
    .fit_needs = fit_needs,
    .statuses = statuses,
};
