/* cmd_cluster.c - `mcastlat cluster`: options -> ml_cluster_eval -> row. */
#include <math.h>

#include "cli/cmd.h"
#include "mcastlat/cluster.h"

static const char *const op_names[] = {"p2p", "xchg", "bcast", NULL};
static const char *const formula_names[] = {"auto", "2.8", "2.9", "thesis",
					    NULL};

enum {
	O_OS_FIXED,
	O_OS_PER_BYTE,
	O_GS_FIXED,
	O_GS_PER_BYTE,
	O_GR_FIXED,
	O_GR_PER_BYTE,
	O_LAT_FIXED,
	O_LAT_PER_BYTE,
	O_OR_FIXED,
	O_OR_PER_BYTE,
	O_UR,
	O_CTM,
	O_MTU,
	O_MSG,
	O_NODES,
	O_OP,
	O_FORMULA,
	NOPTS
};

#define TIMEOPT(n, d, h) {n, ML_OPT_TIME, d, NULL, 0, 0, 0, 0, 0, NULL, h, 0}
#define PERBYTE(n, d, h) {n, ML_OPT_TIME, d, "us/byte", 0, 0, 0, 0, 0, NULL, h, 0}

static const struct ml_opt opts[NOPTS] = {
	[O_OS_FIXED] = TIMEOPT("os-fixed", "1", "send overhead, fixed part"),
	[O_OS_PER_BYTE] = PERBYTE("os-per-byte", "0", "send overhead per byte"),
	[O_GS_FIXED] = TIMEOPT("gs-fixed", "2", "send gap, fixed part"),
	[O_GS_PER_BYTE] = PERBYTE("gs-per-byte", "0", "send gap per byte"),
	[O_GR_FIXED] = TIMEOPT("gr-fixed", "2", "receive gap, fixed part"),
	[O_GR_PER_BYTE] = PERBYTE("gr-per-byte", "0", "receive gap per byte"),
	[O_LAT_FIXED] = TIMEOPT("latency-fixed", "4",
				"network latency, fixed part"),
	[O_LAT_PER_BYTE] = PERBYTE("latency-per-byte", "0",
				   "network latency per byte"),
	[O_OR_FIXED] = TIMEOPT("or-fixed", "1.5",
			       "async receive overhead, fixed part"),
	[O_OR_PER_BYTE] = PERBYTE("or-per-byte", "0",
				  "async receive overhead per byte"),
	[O_UR] = TIMEOPT("ur", "0.5", "user receive overhead"),
	[O_CTM] = PERBYTE("ctm-per-byte", "0",
			  "cache-to-memory copy per byte (bcast)"),
	[O_MTU] = {"mtu", ML_OPT_INT, "1500", "bytes", 0, 0, 1, 0, 0, NULL,
		   "packet size b (MTU)", 0},
	[O_MSG] = {"msg", ML_OPT_INT, "0", "bytes", 0, 0, 0, 0, 0, NULL,
		   "message size M", 0},
	/* >= 1 here; bcast's p >= 2 is the model's rule, so p2p and xchg
	 * rows accept any cluster size (ml_cluster_validate). */
	[O_NODES] = {"nodes", ML_OPT_INT, "16", NULL, 0, 0, 1, 0, 0, NULL,
		     "cluster size p (bcast only; >= 2 there)", 0},
	[O_OP] = {"op", ML_OPT_CHOICE, "p2p", NULL, 0, 0, 0, 0, ML_OPT_ALL,
		  op_names, "operation", 0},
	[O_FORMULA] = {"formula", ML_OPT_CHOICE, "auto", NULL, 0, 0, 0, 0,
		       ML_OPT_NOCOL, formula_names,
		       "bcast formula: larger of 2.8/2.9, forced, or the "
		       "thesis's rule", 0},
};

enum { C_PACKETS, C_H, C_LATENCY, C_FORMULA, C_FULL_DUPLEX, NCOLS };

static const struct ml_col cols[NCOLS] = {
    [C_PACKETS] = {.name = "packets",
		   .kind = ML_COL_INT,
		   .help = "k = ceil(M/b), 1 for M = 0"},
    [C_H] = {.name = "h",
	     .kind = ML_COL_INT,
	     .help = "ceil(log2 p) for bcast, else 0"},
    [C_LATENCY] = {.name = "latency",
		   .kind = ML_COL_TIME,
		   .help = "T (p2p, xchg) or B (bcast)"},
    [C_FORMULA] = {.name = "formula",
		   .kind = ML_COL_TEXT,
		   .help = "equation used: 2.6, 2.7, 2.8 or 2.9",
		   .always = true},
    [C_FULL_DUPLEX] = {.name = "full_duplex",
		       .kind = ML_COL_TEXT,
		       .help = "yes when O_s + O_r + U_r < g < L",
		       .always = true},
};

static void to_params(const union ml_val *v, struct ml_cluster_params *p)
{
	ml_cluster_params_init(p);
	p->os = (struct ml_cluster_linear){v[O_OS_FIXED].r,
					   v[O_OS_PER_BYTE].r};
	p->gs = (struct ml_cluster_linear){v[O_GS_FIXED].r,
					   v[O_GS_PER_BYTE].r};
	p->gr = (struct ml_cluster_linear){v[O_GR_FIXED].r,
					   v[O_GR_PER_BYTE].r};
	p->lat = (struct ml_cluster_linear){v[O_LAT_FIXED].r,
					    v[O_LAT_PER_BYTE].r};
	p->orcv = (struct ml_cluster_linear){v[O_OR_FIXED].r,
					     v[O_OR_PER_BYTE].r};
	p->ur = v[O_UR].r;
	p->ctm_per_byte = v[O_CTM].r;
	p->mtu = (double)v[O_MTU].i;
	p->msg = (double)v[O_MSG].i;
	p->nodes = v[O_NODES].i;
	p->op = (enum ml_cluster_op)v[O_OP].i;
	p->formula = (enum ml_cluster_formula)v[O_FORMULA].i;
}

static enum ml_status check(const struct ml_point *pt, struct ml_diag *d)
{
	struct ml_cluster_params p;

	to_params(pt->v, &p);
	return ml_cluster_validate(&p, d);
}

static enum ml_status eval(const struct ml_point *pt, union ml_val *out)
{
	static const char *const used[] = {"", "2.8", "2.9"};
	struct ml_cluster_params p;
	struct ml_cluster_result r;
	enum ml_status st;

	to_params(pt->v, &p);
	st = ml_cluster_eval(&p, &r);
	if (st != ML_OK)
		return st;
	out[C_PACKETS].i = (long long)r.packets;
	out[C_H].i = r.h;
	out[C_LATENCY].r = r.time;
	out[C_FORMULA].s = p.op == ML_CLUSTER_P2P    ? "2.6"
			   : p.op == ML_CLUSTER_XCHG ? "2.7"
						     : used[r.used];
	out[C_FULL_DUPLEX].s = r.full_duplex ? "yes" : "no";
	return ML_OK;
}

static enum ml_status fit_params(const union ml_val *v, void *params,
				 struct ml_diag *d)
{
	(void)d;
	to_params(v, params);
	return ML_OK;
}

static const char *const fit_inputs[] = {"op", "msg", "nodes", NULL};

/* A broadcast's cluster size is never the default: OSU does not print
 * it, and 16 would be a silent guess. */
static const char *fit_needs(const union ml_val *v, const bool *stated)
{
	return v[O_OP].i == ML_CLUSTER_BCAST && !stated[O_NODES] ? "nodes"
								  : NULL;
}
/* A broadcast is a collective; p2p and xchg are one process's time. */
static bool fit_collective(const union ml_val *v)
{
	return v[O_OP].i == ML_CLUSTER_BCAST;
}

/* The statuses of a row (man page: STATUS). */
static const struct ml_status_doc statuses[] = {
    {ML_OK, "every result is valid"},
    {ML_EINVAL, "the point is outside the model's domain (a sweep goes on; a warning names the rule)"},
    {ML_OVERFLOW, "a result is not finite (huge inputs such as 1e308)"},
    {ML_OK, NULL}};

const struct ml_command ml_cmd_cluster = {
	.name = "cluster",
	.summary = "point-to-point, exchange and broadcast cost on a switched "
		   "cluster",
	.source = "cluster communication model, thesis ch. 2.2",
	.time_unit = "us",
	.opts = opts,
	.nopts = NOPTS,
	.cols = cols,
	.ncols = NCOLS,
	.check = check,
	.eval = eval,
	.fit_model = &ml_fit_cluster,
	.fit_params = fit_params,
	.fit_inputs = fit_inputs,
	.fit_needs = fit_needs,
	.fit_collective = fit_collective,
    .statuses = statuses,
};
