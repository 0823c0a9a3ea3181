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
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/trace.h"
#include "mcastlat/hypercube.h"
#include "mcastlat/sim.h"

static const char *const topology_names[] = {"mesh", "torus", "hypercube",
					     NULL};
static const char *const routing_names[] = {"dor", "duato", NULL};
static const char *const all_names[] = {"all", NULL};
static const char *const multicast_names[] = {
    "binomial", "unicast", "tree", "dual-path", "pm", NULL};
static const char *const pattern_names[] = {
    "uniform", "transpose", "bitcomp",	"bitrev",
    "shuffle", "tornado",   "neighbor", "hotspot", NULL};
static const char *const onoff_names[] = {"on", "off", NULL};
/* In the order of enum ml_sim_ci_on. */
static const char *const ci_on_names[] = {"all", "multicast", NULL};
/* In the order of enum ml_hypercube_load. */
static const char *const model_load_names[] = {"paper", "tree", NULL};

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

/* Bounds of the command line; the engine's ml_sim_validate judges the
 * combinations (network size, VCs for a routing, ...). */
#define MAX_DIMS 20
#define MAX_VCS 64
#define MAX_BUFFER 1024
#define MAX_FLITS 65535

static const struct ml_opt opts[NOPTS] = {
    [O_TOPOLOGY] = {.name = "topology",
		    .kind = ML_OPT_CHOICE,
		    .def = "torus",
		    .choices = topology_names,
		    .help = "k-ary n-mesh, k-ary n-cube (torus) or binary "
			    "n-cube"},
    [O_K] = {.name = "k",
	     .kind = ML_OPT_INT,
	     .def = "8",
	     .imin = 2,
	     .imax = 65536,
	     .help = "nodes per dimension (mesh, torus; not with "
		     "--topology hypercube, which has 2)"},
    [O_DIMS] = {.name = "dims",
		.kind = ML_OPT_INT,
		.def = "2",
		.imin = 1,
		.imax = MAX_DIMS,
		.help = "dimensions n (hypercube: 2^n nodes)"},
    [O_ROUTING] = {.name = "routing",
		   .kind = ML_OPT_CHOICE,
		   .flags = ML_OPT_NOCOL,
		   .choices = routing_names,
		   .help = "dimension order, or Duato's adaptive; auto = "
			   "duato on hypercubes, else dor"},
    [O_VCS] = {.name = "vcs",
	       .kind = ML_OPT_INT,
	       .imin = 1,
	       .imax = MAX_VCS,
	       .flags = ML_OPT_NOCOL,
	       .help = "virtual channels per physical channel; auto = 1 on "
		       "meshes, else 2"},
    [O_BUFFER] = {.name = "buffer",
		  .kind = ML_OPT_INT,
		  .def = "2",
		  .unit = "flits",
		  .imin = 1,
		  .imax = MAX_BUFFER,
		  .help = "virtual channel queue, at each end of a link"},
    [O_PORTS] = {.name = "ports",
		 .kind = ML_OPT_CHOICE,
		 .imin = 1,
		 .imax = 2 * MAX_DIMS,
		 .flags = ML_OPT_NOCOL | ML_OPT_INTOK,
		 .choices = all_names,
		 .help = "injection = delivery channels per node (all: one "
			 "per network output); auto = all on hypercubes, "
			 "else 1"},
    [O_ROUTER_CYCLES] = {.name = "router-cycles",
			 .kind = ML_OPT_INT,
			 .unit = "cycles",
			 .imin = 0,
			 .imax = 1000,
			 .flags = ML_OPT_NOCOL,
			 .help = "R, a header's routing and switching per "
				 "router; auto = 0 on hypercubes, else 2"},
    [O_RATE] = {.name = "rate",
		.kind = ML_OPT_REAL,
		.def = "0.001",
		.unit = "messages/node/cycle",
		.min = 0,
		.max = 1,
		.flags = ML_OPT_MINOPEN,
		.help = "generation rate (Bernoulli per node per cycle), "
			"in (0, 1]"},
    [O_FLITS] = {.name = "flits",
		 .kind = ML_OPT_INT,
		 .def = "32",
		 .unit = "flits",
		 .imin = 1,
		 .imax = MAX_FLITS,
		 .help = "M, message length, header included"},
    [O_UNICAST_FLITS] = {.name = "unicast-flits",
			 .kind = ML_OPT_INT,
			 .unit = "flits",
			 .imin = 1,
			 .imax = MAX_FLITS,
			 .help = "length of unicasts; auto = --flits"},
    [O_BETA] = {.name = "beta",
		.kind = ML_OPT_REAL,
		.def = "0",
		.min = 0,
		.max = 1,
		.help = "fraction of generated messages that are multicasts"},
    [O_DESTS] = {.name = "dests",
		 .kind = ML_OPT_CHOICE,
		 .def = "all",
		 .imin = 1,
		 .imax = 1 << 20,
		 .flags = ML_OPT_INTOK,
		 .choices = all_names,
		 .help = "destinations per multicast, or all (broadcast)"},
    [O_MULTICAST] = {.name = "multicast",
		     .kind = ML_OPT_CHOICE,
		     .def = "binomial",
		     .choices = multicast_names,
		     .help = "how a multicast travels"},
    [O_PATTERN] = {.name = "pattern",
		   .kind = ML_OPT_CHOICE,
		   .def = "uniform",
		   .choices = pattern_names,
		   .help = "destination of unicasts"},
    [O_HOTSPOT] = {.name = "hotspot",
		   .kind = ML_OPT_INT,
		   .def = "0",
		   .imin = 0,
		   .imax = (1 << 20) - 1,
		   .help = "--pattern hotspot: the hot node"},
    [O_HOTSPOT_FRACTION] = {.name = "hotspot-fraction",
			    .kind = ML_OPT_REAL,
			    .def = "0.1",
			    .min = 0,
			    .max = 1,
			    .help = "--pattern hotspot: share of unicasts "
				    "sent to it (the rest uniform)"},
    [O_DELTA] = {.name = "delta",
		 .kind = ML_OPT_INT,
		 .def = "0",
		 .unit = "cycles",
		 .imin = 0,
		 .imax = 1000000,
		 .help = "Delta, start-up cycles before each send"},
    [O_SEED] = {.name = "seed",
		.kind = ML_OPT_INT,
		.def = "1",
		.imin = 0,
		.imax = 4294967295LL,
		.help = "seed of the random generator"},
    [O_TRACE] = {.name = "trace",
		 .kind = ML_OPT_TEXT,
		 .flags = ML_OPT_FILE,
		 .help = "CSV file of messages cycle,source,dests,flits "
			 "to inject instead of generated traffic"},
    [O_AUX] = {.name = "aux",
	       .kind = ML_OPT_INT,
	       .unit = "flits",
	       .imin = 1,
	       .imax = MAX_FLITS,
	       .help = "tree: auxiliary buffer per input VC; auto = M - 1"},
    [O_PRUNE_WAIT] = {.name = "prune-wait",
		      .kind = ML_OPT_INT,
		      .def = "1",
		      .unit = "cycles",
		      .imin = 1,
		      .imax = 1000000,
		      .help = "tree: blocked cycles before a branch is "
			      "pruned"},
    [O_PRUNING] = {.name = "pruning",
		   .kind = ML_OPT_CHOICE,
		   .def = "on",
		   .choices = onoff_names,
		   .help = "tree: off shows the deadlock pruning prevents"},
    [O_PREP_CYCLES] = {.name = "prep-cycles",
		       .kind = ML_OPT_INT,
		       .def = "0",
		       .unit = "cycles",
		       .imin = 0,
		       .imax = 1000000,
		       .help = "dual-path, pm: message preparation time"},
    [O_WARMUP] = {.name = "warmup",
		  .kind = ML_OPT_INT,
		  .unit = "messages",
		  .imin = 0,
		  .help = "messages generated before measuring; auto = 20000, "
			  "0 with --trace"},
    [O_CI] = {.name = "ci",
	      .kind = ML_OPT_REAL,
	      .def = "0.02",
	      .min = 0,
	      .max = 1,
	      .flags = ML_OPT_MINOPEN,
	      .help = "target 95% half-width, a fraction of the mean; a "
		      "pilot turns it into the run's length"},
    [O_CI_ON] = {.name = "ci-on",
		 .kind = ML_OPT_CHOICE,
		 .flags = ML_OPT_NOCOL,
		 .choices = ci_on_names,
		 .help = "the latency whose interval --ci judges: all "
			 "messages, or multicasts; auto = multicast with "
			 "--compare and --beta > 0, else all"},
    [O_CYCLES] = {.name = "cycles",
		  .kind = ML_OPT_INT,
		  .unit = "cycles",
		  .imin = 1,
		  .help = "measure exactly N cycles after the warm-up, "
			  "whatever the interval; auto = until --ci"},
    [O_MAX_CYCLES] = {.name = "max-cycles",
		      .kind = ML_OPT_INT,
		      .def = "10000000",
		      .unit = "cycles",
		      .imin = 1,
		      .help = "stop here (no-convergence if the target is "
			      "not met)"},
    [O_MAX_QUEUE] = {.name = "max-queue",
		     .kind = ML_OPT_INT,
		     .def = "100000",
		     .unit = "messages",
		     .imin = 1,
		     .imax = 100000000,
		     .help = "messages in source queues beyond which the "
			     "point is saturated"},
    [O_REPLICATIONS] = {.name = "replications",
			.kind = ML_OPT_INT,
			.def = "1",
			.imin = 1,
			.imax = 10000,
			.help = "independent seeds per point (mean and interval "
				"across them)"},
    [O_COMPARE] = {.name = "compare",
		   .kind = ML_OPT_FLAG,
		   .help = "add the hypercube model's prediction of the same "
			   "point"},
    [O_MODEL_LOAD] = {.name = "model-load",
		      .kind = ML_OPT_CHOICE,
		      .def = "paper",
		      .flags = ML_OPT_NOCOL,
		      .choices = model_load_names,
		      .help = "--compare: the model's broadcast channel load, "
			      "as hypercube --load"},
    [O_SATURATION] = {.name = "saturation",
		      .kind = ML_OPT_FLAG,
		      .help = "search --rate for the saturation rate (--rate: "
			      "the first guess) instead of one run"},
    [O_SAT_RESOLUTION] = {.name = "sat-resolution",
			  .kind = ML_OPT_REAL,
			  .def = "0.01",
			  .min = 0.001,
			  .max = 0.5,
			  .flags = ML_OPT_NOCOL,
			  .help = "--saturation: stop when the bracket is this "
				  "fraction of its upper end"},
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

/* Columns marked always are printed whatever the status: the values used,
 * the traffic actually carried (at saturation, accepted is the saturation
 * throughput), the length of the run, the model.  Columns marked na may
 * be NaN in an ok row: no multicast when beta is 0, no interval from one
 * traced message, no model outside its domain. */
static const struct ml_col cols[NCOLS] = {
    [C_ROUTING] = {.name = "routing",
		   .kind = ML_COL_TEXT,
		   .help = "routing used",
		   .always = true},
    [C_VCS] = {.name = "vcs",
	       .kind = ML_COL_INT,
	       .help = "virtual channels used",
	       .always = true},
    [C_PORTS] = {.name = "ports",
		 .kind = ML_COL_TEXT,
		 .help = "injection and delivery channels used",
		 .always = true},
    [C_ROUTER_CYCLES] = {.name = "router_cycles",
			 .kind = ML_COL_INT,
			 .help = "R used",
			 .always = true},
    [C_CI_ON] = {.name = "ci_on",
		 .kind = ML_COL_TEXT,
		 .help = "the latency the stopping rule judged",
		 .always = true,
		 .only_without = "saturation"},
    [C_LATENCY] = {.name = "latency",
		   .kind = ML_COL_TIME,
		   .help = "mean latency of all measured messages",
		   .only_without = "saturation"},
    [C_LATENCY_CI] = {.name = "latency_ci",
		      .na = true,
		      .kind = ML_COL_TIME,
		      .help = "95% confidence half-width of latency (empty "
			      "before its batches pass the independence "
			      "test)",
		      .only_without = "saturation"},
    [C_UNICAST_LATENCY] = {.name = "unicast_latency",
			   .na = true,
			   .kind = ML_COL_TIME,
			   .help = "mean latency of unicasts",
			   .only_without = "saturation"},
    [C_UNICAST_LATENCY_CI] = {.name = "unicast_latency_ci",
			      .na = true,
			      .kind = ML_COL_TIME,
			      .help = "95% confidence half-width of "
				      "unicast_latency",
			      .only_without = "saturation"},
    [C_MULTICAST_LATENCY] = {.name = "multicast_latency",
			     .na = true,
			     .kind = ML_COL_TIME,
			     .help = "mean latency of multicasts, until the "
				     "last destination",
			     .only_without = "saturation"},
    [C_MULTICAST_LATENCY_CI] = {.name = "multicast_latency_ci",
				.na = true,
				.kind = ML_COL_TIME,
				.help = "95% confidence half-width of "
					"multicast_latency",
				.only_without = "saturation"},
    [C_MULTICAST_LATENCY_DEST] = {.name = "multicast_latency_dest",
				  .na = true,
				  .kind = ML_COL_TIME,
				  .help = "mean over destinations of a "
					  "multicast's latency",
				  .only_without = "saturation"},
    [C_MULTICAST_LATENCY_DEST_CI] = {.name = "multicast_latency_dest_ci",
				     .na = true,
				     .kind = ML_COL_TIME,
				     .help = "95% confidence half-width of "
					     "multicast_latency_dest",
				     .only_without = "saturation"},
    [C_OFFERED] = {.name = "offered",
		   .na = true,
		   .kind = ML_COL_REAL,
		   .help = "flits generated per node per cycle (per "
			   "destination)",
		   .always = true,
		   .only_without = "saturation"},
    [C_ACCEPTED] = {.name = "accepted",
		    .na = true,
		    .kind = ML_COL_REAL,
		    .help = "flits received per node per cycle",
		    .always = true,
		    .only_without = "saturation"},
    [C_ACCEPTED_MIN] = {.name = "accepted_min",
			.na = true,
			.kind = ML_COL_REAL,
			.help = "flits received per cycle by the node that "
				"received least",
			.always = true,
			.only_without = "saturation"},
    [C_ACCEPTED_MAX] = {.name = "accepted_max",
			.na = true,
			.kind = ML_COL_REAL,
			.help = "flits received per cycle by the node that "
				"received most",
			.always = true,
			.only_without = "saturation"},
    [C_HOPS] = {.name = "hops",
		.na = true,
		.kind = ML_COL_REAL,
		.help = "mean hops of a delivered copy",
		.only_without = "saturation"},
    [C_PRUNINGS] = {.name = "prunings",
		    .na = true,
		    .kind = ML_COL_REAL,
		    .help = "prunings per multicast (tree)",
		    .only_without = "saturation"},
    [C_BRANCHES] = {.name = "branches",
		    .na = true,
		    .kind = ML_COL_REAL,
		    .help = "branches per multicast (tree)",
		    .only_without = "saturation"},
    [C_CHANNELS] = {.name = "channels",
		    .na = true,
		    .kind = ML_COL_REAL,
		    .help = "physical channel crossings per multicast",
		    .only_without = "saturation"},
    [C_CYCLES] = {.name = "cycles",
		  .kind = ML_COL_INT,
		  .help = "cycles simulated, warm-up included",
		  .always = true,
		  .only_without = "saturation"},
    [C_MESSAGES] = {.name = "messages",
		    .kind = ML_COL_INT,
		    .help = "messages measured",
		    .always = true,
		    .only_without = "saturation"},
    [C_MODEL_LATENCY] = {.name = "model_latency",
			 .na = true,
			 .kind = ML_COL_TIME,
			 .help = "hypercube model: broadcast latency (eq 1)",
			 .only_with = "compare",
			 .always = true,
			 .only_without = "saturation"},
    [C_MODEL_UNICAST_LATENCY] = {.name = "model_unicast_latency",
				 .na = true,
				 .kind = ML_COL_TIME,
				 .help = "hypercube model: S_u + W_s + Delta",
				 .only_with = "compare",
				 .always = true,
				 .only_without = "saturation"},
    [C_MODEL_UNICAST_LATENCY_VBAR] = {.name = "model_unicast_latency_vbar",
				      .na = true,
				      .kind = ML_COL_TIME,
				      .help = "hypercube model: (S_u + W_s) "
					      "Vbar + Delta",
				      .only_with = "compare",
				      .always = true,
				      .only_without = "saturation"},
    [C_MODEL_STATUS] = {.name = "model_status",
			.kind = ML_COL_TEXT,
			.help = "the model's status (empty outside its "
				"domain)",
			.only_with = "compare",
			.always = true,
			.only_without = "saturation"},
    [C_ERROR_PCT] = {.name = "error_pct",
		     .na = true,
		     .kind = ML_COL_REAL,
		     .help = "100 (model - simulation) / simulation, "
			     "broadcast latency",
		     .only_with = "compare",
		     .always = true,
		     .only_without = "saturation"},
    [C_ERROR_PCT_CI] = {.name = "error_pct_ci",
			.na = true,
			.kind = ML_COL_REAL,
			.help = "95% half-width of error_pct, from "
				"multicast_latency_ci",
			.only_with = "compare",
			.always = true,
			.only_without = "saturation"},
    [C_SAT_RATE] = {.name = "sat_rate",
		    .na = true,
		    .kind = ML_COL_REAL,
		    .help = "--saturation: the saturation rate, middle of the "
			    "final bracket (messages/node/cycle)",
		    .only_with = "saturation",
		    .always = true},
    [C_SAT_RATE_LO] = {.name = "sat_rate_lo",
		       .na = true,
		       .kind = ML_COL_REAL,
		       .help = "--saturation: the highest rate the network "
			       "carried",
		       .only_with = "saturation",
		       .always = true},
    [C_SAT_RATE_HI] = {.name = "sat_rate_hi",
		       .na = true,
		       .kind = ML_COL_REAL,
		       .help = "--saturation: the lowest rate it did not",
		       .only_with = "saturation",
		       .always = true},
    [C_SAT_THROUGHPUT] = {.name = "sat_throughput",
			  .na = true,
			  .kind = ML_COL_REAL,
			  .help = "--saturation: flits received per node per "
				  "cycle at sat_rate_lo",
			  .only_with = "saturation",
			  .always = true},
    [C_LAMBDA_SAT] = {.name = "lambda_sat",
		      .na = true,
		      .kind = ML_COL_REAL,
		      .help = "--saturation --compare: the hypercube model's "
			      "saturation rate",
		      .only_with = "saturation",
		      .always = true},
    [C_NOTE] = {.name = "note",
		.kind = ML_COL_TEXT,
		.help = "why a row is invalid, or why --compare has no model",
		.always = true},
};

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
/* --compare (SPEC 7.4)                                                */

/*
 * NULL when the hypercube model covers the point, else a note naming
 * the first option that leaves its domain.  The model: binary n-cube,
 * Duato's routing, uniform unicasts and broadcasts by the unicast-based
 * binomial tree of one message length, multiport nodes, and a flit that
 * crosses a channel per cycle with no router delay (R = 0).
 */
static const char *model_domain(const struct ml_sim_params *p)
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
static const char *eval_model(const struct ml_sim_params *p,
			      enum ml_hypercube_load load,
			      enum ml_status sim_st,
			      const struct ml_sim_result *res,
			      union ml_val *out)
{
	struct ml_hypercube_params m;
	struct ml_hypercube_result r;
	const char *why = model_domain(p);
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

/* ------------------------------------------------------------------ */
/* One point                                                           */

/* The values used for the auto options, whatever the status. */
static void echo_params(const struct ml_point *pt,
			const struct ml_sim_params *p, union ml_val *out)
{
	out[C_ROUTING].s = routing_names[p->routing == ML_SIM_DUATO];
	out[C_VCS].i = p->vcs;
	out[C_ROUTER_CYCLES].i = p->router_cycles;
	out[C_CI_ON].s = ci_on_names[p->ci_on == ML_SIM_CI_MULTICAST];
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
/* --saturation (SPEC 7.3)                                             */

/* Cycles of each step of the search unless --cycles is given: long
 * enough that a rate 1 % past saturation shows a deficit. */
#define SAT_STEP_CYCLES 200000ULL

/* One step at rate r: 1 when the network carries it (no saturated
 * status, accepted >= 0.99 offered over the --replications seeds), 0
 * when not, -1 on another failure (status in *st). */
static int carries(struct ml_sim_params *p, double r, double *acc,
		   enum ml_status *st, struct ml_diag *d)
{
	struct ml_sim_result res;

	p->rate = r;
	*st = ml_sim_run(p, &res, d);
	*acc = res.accepted;
	if (*st == ML_SATURATED)
		return 0;
	if (*st != ML_OK && *st != ML_ENOCONV)
		return -1;
	return res.accepted >= 0.99 * res.offered;
}

/*
 * Bracket the saturation rate from the first guess p->rate (doubling or
 * halving), then bisect until the bracket is at most res times its upper
 * end.  Each step is a fixed-length run (--cycles, else
 * SAT_STEP_CYCLES after the warm-up).  *lo: the highest rate carried
 * (0 when none down to 1e-6), *hi: the lowest not carried (NaN when even
 * rate 1 is carried); *thr: the accepted traffic at *lo.
 */
static enum ml_status sat_search(struct ml_sim_params *p, double res,
				 double *lo, double *hi, double *thr,
				 struct ml_diag *d)
{
	enum ml_status st;
	double r = p->rate, acc = NAN;
	int c;

	if (!p->cycles)
		p->cycles = SAT_STEP_CYCLES;
	*lo = 0;
	*hi = NAN;
	*thr = NAN;
	c = carries(p, r, &acc, &st, d);
	if (c < 0)
		return st;
	if (c) {
		*lo = r;
		*thr = acc;
		while (r < 1) {
			r = fmin(2 * r, 1);
			c = carries(p, r, &acc, &st, d);
			if (c < 0)
				return st;
			if (!c) {
				*hi = r;
				break;
			}
			*lo = r;
			*thr = acc;
		}
		if (isnan(*hi))
			return ML_OK;
	} else {
		*hi = r;
		for (;;) {
			r /= 2;
			if (r < 1e-6)
				return ML_OK;
			c = carries(p, r, &acc, &st, d);
			if (c < 0)
				return st;
			if (c) {
				*lo = r;
				*thr = acc;
				break;
			}
			*hi = r;
		}
	}
	while (*hi - *lo > res * *hi) {
		r = (*lo + *hi) / 2;
		c = carries(p, r, &acc, &st, d);
		if (c < 0)
			return st;
		if (c) {
			*lo = r;
			*thr = acc;
		} else {
			*hi = r;
		}
	}
	return ML_OK;
}

/* The model's saturation rate for --saturation --compare, NaN outside
 * its domain. */
static double model_lambda_sat(const struct ml_sim_params *p,
			       enum ml_hypercube_load load)
{
	struct ml_hypercube_params m;
	double lam;

	if (model_domain(p) != NULL)
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
		st = sat_search(p, pt->v[O_SAT_RESOLUTION].r, &lo, &hi, &thr,
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
		out[C_LAMBDA_SAT].r = model_lambda_sat(
		    p, (enum ml_hypercube_load)pt->v[O_MODEL_LOAD].i);
		why = model_domain(p);
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
		why = eval_model(&p,
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
    .opts = opts,
    .nopts = NOPTS,
    .cols = cols,
    .ncols = NCOLS,
    .check = check,
    .eval = eval,
    .prepare = prepare,
    .release = release,
    .slow = true,
    .unused = unused,
    .statuses = statuses,
    .keeps = ML_ENOCONV,
};
