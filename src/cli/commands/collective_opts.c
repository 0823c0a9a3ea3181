/*
 * collective_opts.c - the tables of `mcastlat collective`: its options
 * (the broadcast, the placement, the machine, best and --rules, the
 * error model; defaults, bounds and help) and its result columns, in
 * the order of collective_opts.h's indices.  Data only, but for the
 * rules that say which result columns a run has: the intervals with an
 * error model, chosen for the library's decision and best, best's
 * columns for best, the broadcast's for --op bcast.
 */
#include <stddef.h>
#include <string.h>

#include "cli/commands/collective_opts.h"
#include "cli/commands/collective_parts.h"
#include "cli/engine/parse.h"

/* --algorithm: Open MPI's ids 1-9 in order, MPICH's other three (its
 * binomial is Open MPI's name), then the words. */
const char *const ml_collective_alg_names[] = {
    "linear",
    "chain",
    "pipeline",
    "split-binary",
    "binary",
    "binomial",
    "knomial",
    "scatter-allgather",
    "scatter-allgather-ring",
    "scatter_recursive_doubling_allgather",
    "scatter_ring_allgather",
    "smp",
    "ompi",
    "best",
    "mpich",
    "default",
    "han",
    NULL};
static const char *const version_names[] = {"4.1", "5.0", NULL};
static const char *const lib_names[] = {"openmpi", "mpich", NULL};
static const char *const op_names[] = {"bcast", "p2p", NULL};
static const char *const map_names[] = {"core", "socket", "node", NULL};
static const char *const bind_names[] = {"core", "socket", "numa", "default",
					 NULL};
static const char *const chan_names[] = {"socket", "node", "net", NULL};
/* --osu-barrier: in enum ml_coll_barrier's order. */
static const char *const barrier_names[] = {
    "none",  "linear", "double-ring", "recursive-doubling", "bruck",
    "two-proc", "tree", "ompi", "ompi-tree", NULL};
static const char *const objective_names[] = {"latency", "latency_avg", NULL};

#define TIMEOPT(n, d, h)                                                       \
	{                                                                      \
		.name = n, .kind = ML_OPT_TIME, .def = d,                      \
		.flags = ML_OPT_MACHINE, .help = h                             \
	}
#define ERROPT(n, d, h)                                                        \
	{                                                                      \
		.name = n, .kind = ML_OPT_REAL, .def = d, .min = 0,            \
		.max = 100, .flags = ML_OPT_NOCOL | ML_OPT_MACHINE, .help = h  \
	}
#define ERRINT(n, d, h)                                                        \
	{                                                                      \
		.name = n, .kind = ML_OPT_INT, .def = d, .imin = 0,            \
		.imax = ML_COLL_MAX_RANKS,                                     \
		.flags = ML_OPT_NOCOL | ML_OPT_MACHINE, .help = h              \
	}
#define BYTEOPT(n, d, h)                                                       \
	{                                                                      \
		.name = n, .kind = ML_OPT_REAL, .def = d, .unit = "us/byte",   \
		.flags = ML_OPT_MACHINE, .help = h                             \
	}

const struct ml_opt ml_collective_opts[NOPTS] = {
    [O_OP] = {.name = "op",
	      .kind = ML_OPT_CHOICE,
	      .def = "bcast",
	      .choices = op_names,
	      .help = "bcast, or p2p: half a ping-pong on --channel"},
    [O_LIBRARY] = {.name = "library",
		   .kind = ML_OPT_CHOICE,
		   .def = "openmpi",
		   .flags = ML_OPT_NOCOL,
		   .choices = lib_names,
		   .help = "whose algorithms: openmpi (4.1/5.0) or mpich "
			   "(4.0.2)"},
    [O_ALGORITHM] = {.name = "algorithm",
		     .kind = ML_OPT_CHOICE,
		     .def = "default",
		     .imin = 1,
		     .imax = 9,
		     .flags = ML_OPT_ALL | ML_OPT_INTOK,
		     .all_count = ALG_CONCRETE,
		     .choices = ml_collective_alg_names,
		     .help =
			 "Open MPI: linear, chain, pipeline, split-binary, "
			 "binary, binomial, knomial, scatter-allgather, "
			 "scatter-allgather-ring (or its id 1-9), ompi (its "
			 "fixed decision; 5.0: han where it takes the "
			 "broadcast), han (coll/han); MPICH: binomial, "
			 "scatter_recursive_doubling_allgather, "
			 "scatter_ring_allgather, smp, mpich (its decision); "
			 "default (the library's decision), best, or all "
			 "(the library's)"},
    [O_RANKS] = {.name = "ranks",
		 .kind = ML_OPT_INT,
		 .def = "2",
		 .imin = 2,
		 .imax = ML_COLL_MAX_RANKS,
		 .help = "processes P"},
    [O_MSG] = {.name = "msg",
	       .kind = ML_OPT_INT,
	       .def = "1",
	       .unit = "bytes",
	       .imin = 1,
	       .imax = ML_COLL_MAX_MSG,
	       .help = "message size M"},
    [O_SEGMENT] = {.name = "segment",
		   .kind = ML_OPT_INT,
		   .def = "0",
		   .unit = "bytes",
		   .imin = 0,
		   .imax = ML_COLL_MAX_MSG,
		   .flags = ML_OPT_TERSE,
		   .help = "segment size, 0 = unsegmented"},
    [O_FANOUT] = {.name = "fanout",
		  .kind = ML_OPT_INT,
		  .def = "4",
		  .imin = 0,
		  .imax = 32,
		  .flags = ML_OPT_TERSE,
		  .help = "chain: number of chains (0 = 1)"},
    [O_RADIX] = {.name = "radix",
		 .kind = ML_OPT_INT,
		 .def = "4",
		 .imin = 2,
		 .imax = ML_COLL_MAX_RANKS,
		 .flags = ML_OPT_TERSE,
		 .help = "knomial: radix k"},
    [O_ROOT] = {.name = "root",
		.kind = ML_OPT_INT,
		.def = "0",
		.imin = 0,
		.imax = ML_COLL_MAX_RANKS - 1,
		.flags = ML_OPT_NOCOL,
		.help = "the root rank (< ranks)"},
    [O_OMPI_VERSION] = {.name = "ompi-version",
			.kind = ML_OPT_CHOICE,
			.def = "4.1",
			.flags = ML_OPT_NOCOL,
			.choices = version_names,
			.help = "Open MPI 4.1 (default broadcast: tuned's fixed "
				"decision) or 5.0 (coll/han where it takes the "
				"broadcast)"},
    [O_HAN_SEGMENT] = {.name = "han-segment",
		       .kind = ML_OPT_INT,
		       .def = "65536",
		       .unit = "bytes",
		       .imin = 0,
		       .imax = ML_COLL_MAX_MSG,
		       .flags = ML_OPT_NOCOL,
		       .help = "han: coll_han_bcast_segsize, 0 = one segment"},
    [O_HAN_SIMPLE] = {.name = "han-simple",
		      .kind = ML_OPT_FLAG,
		      .flags = ML_OPT_NOCOL,
		      .help = "han: its simple broadcast "
			      "(coll_han_use_simple_bcast), not the pipeline"},
    [O_PPN] = {.name = "ppn",
	       .kind = ML_OPT_INT,
	       .def = "1",
	       .imin = 1,
	       .imax = ML_COLL_MAX_RANKS,
	       .help = "cores (slots) per node"},
    [O_SOCKETS] = {.name = "sockets",
		   .kind = ML_OPT_INT,
		   .def = "1",
		   .imin = 1,
		   .imax = ML_COLL_MAX_RANKS,
		   .help = "sockets per node (divides ppn)"},
    [O_NODES] = {.name = "nodes",
		 .kind = ML_OPT_INT,
		 .imin = 1,
		 .imax = ML_COLL_MAX_RANKS,
		 .flags = ML_OPT_TERSE,
		 .help = "nodes allocated, auto = ceil(P / ppn)"},
    [O_MAP_BY] = {.name = "map-by",
		  .kind = ML_OPT_CHOICE,
		  .def = "core",
		  .choices = map_names,
		  .help = "placement, as mpirun --map-by"},
    [O_BIND_TO] = {.name = "bind-to",
		   .kind = ML_OPT_CHOICE,
		   .def = "core",
		   .choices = bind_names,
		   .flags = ML_OPT_TERSE,
		   .help = "as mpirun --bind-to: with --map-by node a node's "
			   "ranks fill its cores (core) or go round-robin over "
			   "its sockets or NUMA domains; the word default is "
			   "mpirun's own (core if P <= 2, else numa)"},
    [O_NUMA] = {.name = "numa",
		.kind = ML_OPT_INT,
		.def = "1",
		.imin = 1,
		.imax = ML_COLL_MAX_RANKS,
		.flags = ML_OPT_TERSE,
		.help = "NUMA domains per socket (divides ppn / sockets)"},
    [O_CHANNEL] = {.name = "channel",
		   .kind = ML_OPT_CHOICE,
		   .def = "net",
		   .choices = chan_names,
		   .help = "--op p2p: same socket, other socket, other node"},
    [O_LAT_SOCKET] =
	TIMEOPT("lat-socket", "0.227281", "latency L, same socket"),
    [O_LAT_NODE] =
	TIMEOPT("lat-node", "0.522963", "latency L, other socket of the node"),
    [O_LAT_NET] = TIMEOPT("lat-net", "1.55067", "latency L, other node"),
    [O_BYTE_SOCKET] =
	BYTEOPT("byte-socket", "8.60893e-05", "time per byte G, same socket"),
    [O_BYTE_NODE] =
	BYTEOPT("byte-node", "8.30140e-05", "time per byte G, other socket"),
    [O_BYTE_NET] =
	BYTEOPT("byte-net", "9.81964e-05", "time per byte G, other node"),
    [O_OVERHEAD] =
	TIMEOPT("overhead", "0.000814965", "sender's time per message beyond b G"),
    [O_NIC_GAP] =
	TIMEOPT("nic-gap", "0.0694796", "NIC's time per message beyond b G"),
    [O_EBYTE_SOCKET] = BYTEOPT("eager-byte-socket", "0",
			       "more per byte if eager, same socket"),
    [O_EBYTE_NODE] = BYTEOPT("eager-byte-node", "0",
			     "more per byte if eager, other socket"),
    [O_EBYTE_NET] = BYTEOPT("eager-byte-net", "0",
			    "more per byte if eager, other node"),
    [O_EAGER] = {.name = "eager",
		 .kind = ML_OPT_INT,
		 .def = "4096",
		 .unit = "bytes",
		 .imin = 0,
		 .imax = ML_COLL_MAX_MSG,
		 .flags = ML_OPT_MACHINE,
		 .help = "largest eager message (rendezvous above)"},
    [O_SCHEDULE] = {.name = "schedule",
		    .kind = ML_OPT_FLAG,
		    .help = "print every message of the point instead"},
    [O_RULES] = {.name = "rules",
		 .kind = ML_OPT_TEXT,
		 .flags = ML_OPT_FILE,
		 .help = "with --algorithm best: write Open MPI rules (MPICH: "
			 "a JSON tuning file) to FILE"},
    [O_AMONG] = {.name = "among",
		 .kind = ML_OPT_TEXT,
		 .def = "all",
		 .help = "best: the candidates, a list of algorithms and ompi "
			 "(or mpich, default: the library's own decision), or "
			 "all of the library's and its decision (han only when "
			 "named)"},
    [O_OBJECTIVE] = {.name = "objective",
		     .kind = ML_OPT_CHOICE,
		     .def = "latency",
		     .flags = ML_OPT_NOCOL | ML_OPT_NOEMIT,
		     .choices = objective_names,
		     .help = "best ranks by latency (the last rank, OSU's Max) "
			     "or latency_avg (OSU's Avg)"},
    [O_LEVEL] = {.name = "level",
		 .kind = ML_OPT_REAL,
		 .def = "0.9",
		 .min = 0.5,
		 .max = 0.999,
		 .flags = ML_OPT_NOCOL | ML_OPT_NOEMIT,
		 .help = "level of the prediction intervals and of best's "
			 "rule"},
    [O_ERR_RANKS] = ERRINT("err-ranks", DEF_ERR_RANKS,
			   "error model: the largest P fitted (0: none)"),
    [O_ERR_SD_SMALL] = ERROPT("err-sd-small", DEF_ERR_SD_SMALL,
			      "error model: rms ln error, M <= 4 KiB"),
    [O_ERR_SD_MEDIUM] = ERROPT("err-sd-medium", DEF_ERR_SD_MEDIUM,
			       "error model: rms ln error, M <= 64 KiB"),
    [O_ERR_SD_LARGE] = ERROPT("err-sd-large", DEF_ERR_SD_LARGE,
			      "error model: rms ln error, M > 64 KiB"),
    [O_ERR_GROWTH_SMALL] =
	ERROPT("err-growth-small", DEF_ERR_GROWTH_SMALL,
	       "error model: its growth per doubling of P, M <= 4 KiB"),
    [O_ERR_GROWTH_MEDIUM] =
	ERROPT("err-growth-medium", DEF_ERR_GROWTH_MEDIUM,
	       "error model: its growth per doubling of P, M <= 64 KiB"),
    [O_ERR_GROWTH_LARGE] =
	ERROPT("err-growth-large", DEF_ERR_GROWTH_LARGE,
	       "error model: its growth per doubling of P, M > 64 KiB"),
    [O_ERR_DIFF] = ERROPT("err-diff", DEF_ERR_DIFF,
			  "error model: rms of two algorithms' difference"),
    [O_ERR_DIFF_GROWTH] =
	ERROPT("err-diff-growth", DEF_ERR_DIFF_GROWTH,
	       "error model: the difference's growth per doubling"),
    [O_ERR_DIFF_ALG + 0] = ERROPT("err-diff-linear", "0.519",
				  "error model: linear against the default"),
    [O_ERR_DIFF_ALG + 1] = ERROPT("err-diff-chain", "0.373",
				  "error model: chain against the default"),
    [O_ERR_DIFF_ALG + 2] = ERROPT("err-diff-pipeline", "0.659",
				  "error model: pipeline against the default"),
    [O_ERR_DIFF_ALG + 3] = ERROPT("err-diff-split-binary", "0",
				  "error model: split-binary against the default"),
    [O_ERR_DIFF_ALG + 4] = ERROPT("err-diff-binary", "0.251",
				  "error model: binary against the default"),
    [O_ERR_DIFF_ALG + 5] = ERROPT("err-diff-binomial", "0.476",
				  "error model: binomial against the default"),
    [O_ERR_DIFF_ALG + 6] = ERROPT("err-diff-knomial", "0",
				  "error model: knomial against the default"),
    [O_ERR_DIFF_ALG + 7] = ERROPT("err-diff-scatter-allgather", "0",
				  "error model: scatter-allgather against the default"),
    [O_ERR_DIFF_ALG + 8] = ERROPT("err-diff-scatter-allgather-ring", "0.789",
				  "error model: scatter-allgather-ring against the default"),
    [O_ERR_SOCKET_RANKS] =
	ERRINT("err-socket-ranks", DEF_ERR_SOCKET_RANKS,
	       "error model: the most ranks a socket held (0: not known)"),
    [O_PLAN] = {.name = "plan",
		.kind = ML_OPT_FLAG,
		.help = "print the broadcasts to measure on the allocation "
			"(--ppn, --sockets, --nodes, --map-by list, --among, "
			"--budget) as CSV instead"},
    [O_BUDGET] = {.name = "budget",
		  .kind = ML_OPT_INT,
		  .def = "0",
		  .imin = 0,
		  .imax = 1LL << 30,
		  .flags = ML_OPT_NOCOL | ML_OPT_NOEMIT,
		  .help = "--plan: rows at most (0: 5 % of the full grid, at "
			  "most 2 P a doubling)"},
    [O_OSU_BARRIER] = {.name = "osu-barrier",
		       .kind = ML_OPT_CHOICE,
		       .def = "none",
		       .flags = ML_OPT_NOCOL,
		       .choices = barrier_names,
		       .help = "the times as osu_bcast measures them, from the "
			       "exit of this barrier before each broadcast: "
			       "none (every rank starts at 0), ompi (Open MPI "
			       "4.1's choice at P), ompi-tree (its tree where "
			       "it runs the tree, else none), or linear, "
			       "double-ring, recursive-doubling, bruck, "
			       "two-proc, tree"},
    [O_DATA] = {.name = "data",
		.kind = ML_OPT_TEXT,
		.flags = ML_OPT_FILE,
		.help = "measured broadcasts (fit's CSV; FILE,FILE...), "
			"beside an --input machine's own: measured cells "
			"decide, the model corrected between "
			"(mcastlat-collective(1), MEASUREMENTS)"},
    [O_MEASURED] = {.name = "measured",
		    .kind = ML_OPT_FLAG,
		    .help = "print, for each --map-by, the measured cells and "
			    "what their cross-validation found (how far a "
			    "prediction can be trusted) instead"},
};

/* The interval columns exist when the machine has an error model. */
bool ml_collective_has_errmodel(const union ml_val *base)
{
	return base[O_ERR_RANKS].i > 0;
}

/* Some value of the --algorithm list (NULL: an --input column, any)
 * is one of the words from..to of ml_collective_alg_names. */
static bool some_alg(const struct ml_vlist *const *vl, long long from,
		     long long to)
{
	unsigned long long k;

	if (vl[O_ALGORITHM] == NULL)
		return true;
	for (k = 0; k < vl[O_ALGORITHM]->count; k++) {
		long long c = ml_choice_of(ml_vlist_at(vl[O_ALGORITHM], k).i);

		if (c >= from && c <= to)
			return true;
	}
	return false;
}

/* Some point is a broadcast (--op bcast). */
static bool some_bcast(const struct ml_vlist *const *vl)
{
	unsigned long long k;

	if (vl[O_OP] == NULL)
		return true;
	for (k = 0; k < vl[O_OP]->count; k++)
		if (ml_vlist_at(vl[O_OP], k).i == 0)
			return true;
	return false;
}

/* best, margin and vs_ompi: --algorithm best. */
static bool for_best(const struct ml_vlist *const *vl)
{
	return some_bcast(vl) && some_alg(vl, ALG_BEST, ALG_BEST);
}

/* chosen: a decision (ompi, mpich, default) or best picks what runs. */
static bool for_decision(const struct ml_vlist *const *vl)
{
	return some_bcast(vl) && some_alg(vl, ALG_OMPI, ALG_DEFAULT);
}

/*
 * chosen in the table: MPICH's two scatter algorithms as scatter_rd and
 * scatter_ring (both end in an allgather), so that a composition of two
 * (beta/binomial+scatter_recursive_doubling_allgather, 50 characters)
 * keeps the table within 120 columns; CSV, TSV and JSON keep MPICH's
 * names.  text itself where there is nothing to shorten or no room.
 */
static const char *chosen_brief(const char *text, char *buf, size_t len)
{
	static const struct {
		const char *name, *brief;
	} ab[] = {{"scatter_recursive_doubling_allgather", "scatter_rd"},
		  {"scatter_ring_allgather", "scatter_ring"}};
	size_t n = 0, i;
	const char *t = text;

	if (!strstr(text, "_allgather"))
		return text;
	while (*t) {
		size_t k = 1;
		const char *piece = t;

		for (i = 0; i < sizeof ab / sizeof *ab; i++)
			if (strncmp(t, ab[i].name, strlen(ab[i].name)) == 0) {
				piece = ab[i].brief;
				k = strlen(ab[i].brief);
				t += strlen(ab[i].name);
				break;
			}
		if (i == sizeof ab / sizeof *ab)
			t++;
		if (n + k >= len)
			return text;
		memcpy(buf + n, piece, k);
		n += k;
	}
	buf[n] = '\0';
	return buf;
}

const struct ml_col ml_collective_cols[NCOLS] = {
    [C_LATENCY] = {.name = "latency",
		   .kind = ML_COL_TIME,
		   .help = "the last rank leaves (OSU's Max)"},
    [C_LATENCY_LO] = {.name = "latency_lo",
		      .kind = ML_COL_TIME,
		      .na = true,
		      .visible = ml_collective_has_errmodel,
		      .applies = some_bcast,
		      .help = "prediction interval of latency at --level: low"},
    [C_LATENCY_HI] = {.name = "latency_hi",
		      .kind = ML_COL_TIME,
		      .na = true,
		      .visible = ml_collective_has_errmodel,
		      .applies = some_bcast,
		      .help = "prediction interval of latency: high"},
    [C_LATENCY_AVG] = {.name = "latency_avg",
		       .kind = ML_COL_TIME,
		       .na = true,
		       .applies = some_bcast,
		       .help = "mean over ranks (OSU's Avg)"},
    [C_LATENCY_AVG_LO] = {.name = "latency_avg_lo",
			  .kind = ML_COL_TIME,
			  .na = true,
			  .visible = ml_collective_has_errmodel,
			  .applies = some_bcast,
			  .detail = true,
			  .help = "prediction interval of latency_avg: low"},
    [C_LATENCY_AVG_HI] = {.name = "latency_avg_hi",
			  .kind = ML_COL_TIME,
			  .na = true,
			  .visible = ml_collective_has_errmodel,
			  .applies = some_bcast,
			  .detail = true,
			  .help = "prediction interval of latency_avg: high"},
    [C_LATENCY_MIN] = {.name = "latency_min",
		       .kind = ML_COL_TIME,
		       .na = true,
		       .applies = some_bcast,
		       .detail = true,
		       .help = "the first rank leaves"},
    [C_MESSAGES] = {.name = "messages",
		    .kind = ML_COL_INT,
		    .help = "messages sent"},
    [C_SEGMENTS] = {.name = "segments",
		    .kind = ML_COL_INT,
		    .applies = some_bcast,
		    .detail = true,
		    .help = "segments the message was cut into"},
    [C_CHOSEN] = {.name = "chosen",
		  .kind = ML_COL_TEXT,
		  .applies = for_decision,
		  .brief = chosen_brief,
		  .help = "the algorithm run (after the library's decision and "
			  "fall-backs; MPICH: composition/algorithm)"},
    [C_BEST] = {.name = "best",
		.kind = ML_COL_TEXT,
		.applies = for_best,
		.brief = chosen_brief,
		.help = "best: the fastest algorithm (else -)"},
    [C_MARGIN] = {.name = "margin",
		  .kind = ML_COL_REAL,
		  .na = true,
		  .applies = for_best,
		  .detail = true,
		  .help = "best: runner-up's latency / best's"},
    [C_VS_OMPI] = {.name = "vs_ompi",
		   .kind = ML_COL_REAL,
		   .na = true,
		   .applies = for_best,
		   .detail = true,
		   .help = "best: the library's own decision's latency / the "
			   "pick's"},
};

