/* cmd_kbinomial.c - `mcastlat kbinomial`: options -> ml_kbinomial_eval -> row.
 */
#include "cli/cmd.h"
#include "mcastlat/kbinomial.h"

static const char *const tree_names[] = {"optimal", "binomial", "linear", NULL};
static const char *const tie_names[] = {"largest", "smallest", NULL};

enum {
	O_NODES,
	O_PACKETS,
	O_MSG,
	O_PACKET_SIZE,
	O_TREE,
	O_TIE,
	O_TS,
	O_TR,
	O_TNS,
	O_TNR,
	O_TPROP,
	O_SCHEDULE,
	NOPTS
};

/* Default packet size when --msg is given: the paper's 64 bytes. */
#define DEFAULT_PACKET_SIZE 64

#define TIMEOPT(n, d, h)                                                       \
	{                                                                      \
		.name = n, .kind = ML_OPT_TIME, .def = d, .help = h            \
	}

/* --packets, --msg and --packet-size are echoed by the packets result
 * column with the m used; see mcastlat-kbinomial(1). */
static const struct ml_opt opts[NOPTS] = {
    [O_NODES] = {.name = "nodes",
		 .kind = ML_OPT_INT,
		 .def = "64",
		 .imin = 1,
		 .imax = ML_KBINOMIAL_MAX_NODES,
		 .help = "multicast set size n, source included"},
    [O_PACKETS] = {.name = "packets",
		   .kind = ML_OPT_INT,
		   .imin = 1,
		   .imax = ML_KBINOMIAL_MAX_PACKETS,
		   .flags = ML_OPT_NOCOL,
		   .help = "packets m, auto = 1 or ceil(msg/packet-size)"},
    [O_MSG] = {.name = "msg",
	       .kind = ML_OPT_INT,
	       .unit = "bytes",
	       .imin = 0,
	       .flags = ML_OPT_NOCOL,
	       .help = "message size instead of --packets (0: one packet)"},
    [O_PACKET_SIZE] = {.name = "packet-size",
		       .kind = ML_OPT_INT,
		       .unit = "bytes",
		       .imin = 1,
		       .flags = ML_OPT_NOCOL,
		       .help = "packet size with --msg, auto = 64"},
    [O_TREE] = {.name = "tree",
		.kind = ML_OPT_CHOICE,
		.def = "optimal",
		.imin = 1,
		.flags = ML_OPT_INTOK,
		.choices = tree_names,
		.help = "optimal, binomial, linear, or an integer k >= 1"},
    [O_TIE] = {.name = "tie",
	       .kind = ML_OPT_CHOICE,
	       .def = "largest",
	       .choices = tie_names,
	       .help = "optimal k on a tie of step counts"},
    [O_TS] = TIMEOPT("ts", "12.5", "host send software overhead t_s"),
    [O_TR] = TIMEOPT("tr", "12.5", "host receive software overhead t_r"),
    [O_TNS] = TIMEOPT("tns", "3.0", "interface send overhead per packet"),
    [O_TNR] = TIMEOPT("tnr", "2.0", "interface receive overhead per packet"),
    [O_TPROP] = TIMEOPT("tprop", "0", "propagation time per packet"),
    [O_SCHEDULE] = {.name = "schedule",
		    .kind = ML_OPT_FLAG,
		    .help = "also simulate the FPFS pipeline (sim_steps)"},
};

enum {
	C_PACKETS,
	C_K,
	C_L1,
	C_STEPS,
	C_LATENCY,
	C_BINOMIAL_STEPS,
	C_BINOMIAL_LATENCY,
	C_SPEEDUP,
	C_SIM_STEPS,
	NCOLS
};

static const struct ml_col cols[NCOLS] = {
    [C_PACKETS] = {.name = "packets",
		   .kind = ML_COL_INT,
		   .help = "packets m used"},
    [C_K] = {.name = "k",
	     .kind = ML_COL_INT,
	     .help = "children of the source: the tree's k"},
    [C_L1] = {.name = "L1",
	      .kind = ML_COL_INT,
	      .help = "steps for one packet, least s with N(s,k) >= n"},
    [C_STEPS] = {.name = "steps", .kind = ML_COL_INT, .help = "L1 + (m-1) k"},
    [C_LATENCY] = {.name = "latency",
		   .kind = ML_COL_TIME,
		   .help = "t_s + steps (t_ns + t_prop + t_nr) + t_r"},
    [C_BINOMIAL_STEPS] = {.name = "binomial_steps",
			  .kind = ML_COL_INT,
			  .help = "steps of the binomial tree"},
    [C_BINOMIAL_LATENCY] = {.name = "binomial_latency",
			    .kind = ML_COL_TIME,
			    .help = "latency of the binomial tree"},
    [C_SPEEDUP] = {.name = "speedup",
		   .kind = ML_COL_REAL,
		   .help = "binomial_latency / latency"},
    [C_SIM_STEPS] = {.name = "sim_steps",
		     .kind = ML_COL_INT,
		     .help = "steps of the simulated FPFS pipeline",
		     .only_with = "schedule"},
};

/* Options -> params; the cross-option rules of --packets, --msg and
 * --packet-size (the only ones the model does not know) fail into *d. */
static enum ml_status to_params(const union ml_val *v,
				struct ml_kbinomial_params *p,
				struct ml_diag *d)
{
	long long tree = v[O_TREE].i, msg = v[O_MSG].i, size, m;

	ml_kbinomial_params_init(p);
	p->nodes = v[O_NODES].i;
	p->packets = v[O_PACKETS].i == ML_AUTO_INT ? 1 : v[O_PACKETS].i;
	size = v[O_PACKET_SIZE].i;
	if (msg != ML_AUTO_INT) {
		if (size == ML_AUTO_INT)
			size = DEFAULT_PACKET_SIZE;
		m = msg / size + (msg % size != 0);
		/* --packets with --msg only as the echo of a printed row
		 * read back by --input: the same m. */
		if (v[O_PACKETS].i != ML_AUTO_INT &&
		    v[O_PACKETS].i != (m > 0 ? m : 1))
			return ml_diag_set(d, "packets",
					   "cannot be combined with --msg");
		if (m > ML_KBINOMIAL_MAX_PACKETS)
			return ml_diag_set(
			    d, "msg", "%lld packets exceed the limit 2^40", m);
		p->packets = m > 0 ? m : 1; /* msg = 0: one empty packet */
	} else if (size != ML_AUTO_INT) {
		return ml_diag_set(d, "packet-size", "needs --msg");
	}
	if (ml_choice_of(tree) < 0) {
		p->tree = ML_KBINOMIAL_FIXED;
		p->k = tree;
	} else {
		p->tree = (enum ml_kbinomial_tree)ml_choice_of(tree);
		p->k = 0;
	}
	p->tie = (enum ml_kbinomial_tie)v[O_TIE].i;
	p->ts = v[O_TS].r;
	p->tr = v[O_TR].r;
	p->tns = v[O_TNS].r;
	p->tnr = v[O_TNR].r;
	p->tprop = v[O_TPROP].r;
	p->schedule = v[O_SCHEDULE].i != 0;
	return ML_OK;
}

static enum ml_status check(const struct ml_point *pt, struct ml_diag *d)
{
	struct ml_kbinomial_params p;
	enum ml_status st;

	st = to_params(pt->v, &p, d);
	if (st == ML_OK)
		st = ml_kbinomial_validate(&p, d);
	return st;
}

static enum ml_status eval(const struct ml_point *pt, union ml_val *out)
{
	struct ml_kbinomial_params p;
	struct ml_kbinomial_result r;
	enum ml_status st;

	st = to_params(pt->v, &p, NULL);
	if (st == ML_OK)
		st = ml_kbinomial_eval(&p, &r);
	if (st != ML_OK)
		return st;
	out[C_PACKETS].i = p.packets;
	out[C_K].i = r.k;
	out[C_L1].i = r.l1;
	out[C_STEPS].i = r.steps;
	out[C_LATENCY].r = r.latency;
	out[C_BINOMIAL_STEPS].i = r.binomial_steps;
	out[C_BINOMIAL_LATENCY].r = r.binomial_latency;
	out[C_SPEEDUP].r = r.speedup;
	out[C_SIM_STEPS].i = r.sim_steps;
	return ML_OK;
}

static enum ml_status fit_params(const union ml_val *v, void *params,
				 struct ml_diag *d)
{
	return to_params(v, params, d);
}

static const char *const fit_inputs[] = {"nodes", "packets", "msg", NULL};

static const char *fit_needs(const union ml_val *v, const bool *stated)
{
	(void)v;
	return stated[O_NODES] ? NULL : "nodes";
}
/* The statuses of a row (man page: STATUS). */
static const struct ml_status_doc statuses[] = {
    {ML_OK, "every result is valid"},
    {ML_EINVAL, "the point is outside the model's domain (a sweep goes on; a warning names the rule)"},
    {ML_OVERFLOW, "a result is not finite (huge inputs such as 1e308)"},
    {ML_ENOMEM, "--schedule: the tree of this point does not fit in memory"},
    {ML_OK, NULL}};

const struct ml_command ml_cmd_kbinomial = {
    .name = "kbinomial",
    .summary = "optimal k-binomial multicast trees under packetization "
	       "(FPFS interfaces)",
    .source = "Kesavan & Panda, optimal multicast with packetization",
    .time_unit = "us",
    .opts = opts,
    .nopts = NOPTS,
    .cols = cols,
    .ncols = NCOLS,
    .check = check,
    .eval = eval,
    .fit_model = &ml_fit_kbinomial,
    .fit_params = fit_params,
    .fit_inputs = fit_inputs,
    .fit_needs = fit_needs,
    .fit_pair = "nodes",
    .statuses = statuses,
};
