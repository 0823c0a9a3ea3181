/* cmd_collective.c - `mcastlat collective`: options -> ml_collective_* ->
 * rows; --schedule prints one row per message of one point, --rules
 * writes an Open MPI dynamic rules file (or, with --library mpich, an
 * MPICH JSON tuning file: cmd_collective_mpich.c) for the swept ranks
 * and sizes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/columns.h"
#include "cli/engine/parse.h"
#include "cli/cmd.h"
#include "cli/engine/msg.h"
#include "mcastlat/collective.h"
#include "cli/commands/collective_mpich.h"
#include "cli/commands/collective_parts.h"

/* --algorithm: Open MPI's ids 1-9 in order, MPICH's other three (its
 * binomial is Open MPI's name), then the words. */
static const char *const alg_names[] = {"linear",
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
					NULL};
#define ALG_BINOMIAL 5
#define ALG_MPICH_SRD 9 /* then ring, smp */
#define ALG_OMPI 12
#define ALG_BEST 13
#define ALG_MPICH 14
#define ALG_DEFAULT 15
#define ALG_CONCRETE 12 /* what "all" lists: both libraries' */
static const char *const lib_names[] = {"openmpi", "mpich", NULL};
static const char *const op_names[] = {"bcast", "p2p", NULL};
static const char *const map_names[] = {"core", "socket", "node", NULL};
static const char *const bind_names[] = {"core", "socket", "numa", "default",
					 NULL};
static const char *const chan_names[] = {"socket", "node", "net", NULL};
static const char *const objective_names[] = {"latency", "latency_avg", NULL};


enum {
	O_OP,
	O_LIBRARY,
	O_ALGORITHM,
	O_RANKS,
	O_MSG,
	O_SEGMENT,
	O_FANOUT,
	O_RADIX,
	O_PPN,
	O_SOCKETS,
	O_NODES,
	O_MAP_BY,
	O_BIND_TO,
	O_NUMA,
	O_CHANNEL,
	O_LAT_SOCKET,
	O_LAT_NODE,
	O_LAT_NET,
	O_BYTE_SOCKET,
	O_BYTE_NODE,
	O_BYTE_NET,
	O_OVERHEAD,
	O_NIC_GAP,
	O_EBYTE_SOCKET,
	O_EBYTE_NODE,
	O_EBYTE_NET,
	O_EAGER,
	O_SCHEDULE,
	O_RULES,
	O_AMONG,
	O_OBJECTIVE,
	O_LEVEL,
	O_ERR_RANKS,
	O_ERR_SD_SMALL,
	O_ERR_SD_MEDIUM,
	O_ERR_SD_LARGE,
	O_ERR_GROWTH_SMALL,
	O_ERR_GROWTH_MEDIUM,
	O_ERR_GROWTH_LARGE,
	O_ERR_DIFF,
	O_ERR_DIFF_GROWTH,
	O_ERR_DIFF_ALG, /* then one per Open MPI algorithm, 1-9 in order */
	NOPTS = O_ERR_DIFF_ALG + ML_COLL_NALG
};

#define TIMEOPT(n, d, h)                                                       \
	{                                                                      \
		.name = n, .kind = ML_OPT_TIME, .def = d, .help = h            \
	}
#define ERROPT(n, d, h)                                                        \
	{                                                                      \
		.name = n, .kind = ML_OPT_REAL, .def = d, .min = 0,            \
		.max = 100, .flags = ML_OPT_NOCOL, .help = h                   \
	}
#define ERRINT(n, d, h)                                                        \
	{                                                                      \
		.name = n, .kind = ML_OPT_INT, .def = d, .imin = 0,            \
		.imax = ML_COLL_MAX_RANKS, .flags = ML_OPT_NOCOL, .help = h    \
	}
#define BYTEOPT(n, d, h)                                                       \
	{                                                                      \
		.name = n, .kind = ML_OPT_REAL, .def = d, .unit = "us/byte",   \
		.help = h                                                      \
	}

static const struct ml_opt opts[NOPTS] = {
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
		     .choices = alg_names,
		     .help =
			 "Open MPI: linear, chain, pipeline, split-binary, "
			 "binary, binomial, knomial, scatter-allgather, "
			 "scatter-allgather-ring (or its id 1-9), ompi (its "
			 "fixed decision); MPICH: binomial, "
			 "scatter_recursive_doubling_allgather, "
			 "scatter_ring_allgather, smp, mpich (its decision); "
			 "default (the library's decision), best, or all "
			 "(the library's)"},
    [O_RANKS] = {.name = "ranks",
		 .kind = ML_OPT_INT,
		 .def = "2",
		 .imin = 2,
		 .imax = ML_COLL_MAX_RANKS,
		 .help = "processes P, root 0"},
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
		   .help = "segment size, 0 = unsegmented"},
    [O_FANOUT] = {.name = "fanout",
		  .kind = ML_OPT_INT,
		  .def = "4",
		  .imin = 0,
		  .imax = 32,
		  .help = "chain: number of chains (0 = 1)"},
    [O_RADIX] = {.name = "radix",
		 .kind = ML_OPT_INT,
		 .def = "4",
		 .imin = 2,
		 .imax = ML_COLL_MAX_RANKS,
		 .help = "knomial: radix k"},
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
		   .help = "as mpirun --bind-to: with --map-by node a node's "
			   "ranks fill its cores (core) or go round-robin over "
			   "its sockets or NUMA domains; the word default is "
			   "mpirun's own (core if P <= 2, else numa)"},
    [O_NUMA] = {.name = "numa",
		.kind = ML_OPT_INT,
		.def = "1",
		.imin = 1,
		.imax = ML_COLL_MAX_RANKS,
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
    [O_NIC_GAP] = TIMEOPT("nic-gap", "0.0694796", "NIC's time per message beyond b G"),
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
			 "all of the library's and its decision"},
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
};

static const struct ml_unused unused[] = {{"channel", "op", "bcast"},
					  {NULL, NULL, NULL}};

/* The interval columns exist when the machine has an error model. */
static bool has_errmodel(const union ml_val *base)
{
	return base[O_ERR_RANKS].i > 0;
}

enum {
	C_LATENCY,
	C_LATENCY_LO,
	C_LATENCY_HI,
	C_LATENCY_AVG,
	C_LATENCY_AVG_LO,
	C_LATENCY_AVG_HI,
	C_LATENCY_MIN,
	C_MESSAGES,
	C_SEGMENTS,
	C_CHOSEN,
	C_BEST,
	C_MARGIN,
	C_VS_OMPI,
	NCOLS
};

static const struct ml_col cols[NCOLS] = {
    [C_LATENCY] = {.name = "latency",
		   .kind = ML_COL_TIME,
		   .help = "the last rank leaves (OSU's Max)"},
    [C_LATENCY_LO] = {.name = "latency_lo",
		      .kind = ML_COL_TIME,
		      .na = true,
		      .visible = has_errmodel,
		      .help = "prediction interval of latency at --level: low"},
    [C_LATENCY_HI] = {.name = "latency_hi",
		      .kind = ML_COL_TIME,
		      .na = true,
		      .visible = has_errmodel,
		      .help = "prediction interval of latency: high"},
    [C_LATENCY_AVG] = {.name = "latency_avg",
		       .kind = ML_COL_TIME,
		       .na = true,
		       .help = "mean over ranks (OSU's Avg)"},
    [C_LATENCY_AVG_LO] = {.name = "latency_avg_lo",
			  .kind = ML_COL_TIME,
			  .na = true,
			  .visible = has_errmodel,
			  .help = "prediction interval of latency_avg: low"},
    [C_LATENCY_AVG_HI] = {.name = "latency_avg_hi",
			  .kind = ML_COL_TIME,
			  .na = true,
			  .visible = has_errmodel,
			  .help = "prediction interval of latency_avg: high"},
    [C_LATENCY_MIN] = {.name = "latency_min",
		       .kind = ML_COL_TIME,
		       .na = true,
		       .help = "the first rank leaves"},
    [C_MESSAGES] = {.name = "messages",
		    .kind = ML_COL_INT,
		    .help = "messages sent"},
    [C_SEGMENTS] = {.name = "segments",
		    .kind = ML_COL_INT,
		    .help = "segments the message was cut into"},
    [C_CHOSEN] = {.name = "chosen",
		  .kind = ML_COL_TEXT,
		  .help = "the algorithm run (after the library's decision and "
			  "fall-backs; MPICH: composition/algorithm)"},
    [C_BEST] = {.name = "best",
		.kind = ML_COL_TEXT,
		.help = "best: the fastest algorithm (else -)"},
    [C_MARGIN] = {.name = "margin",
		  .kind = ML_COL_REAL,
		  .na = true,
		  .help = "best: runner-up's latency / best's"},
    [C_VS_OMPI] = {.name = "vs_ompi",
		   .kind = ML_COL_REAL,
		   .na = true,
		   .help = "best: the library's own decision's latency / the "
			   "pick's"},
};

/* Is the --algorithm value a of --library lib? */
static bool alg_in_library(long long a, long long lib)
{
	long long c = ml_choice_of(a);

	if (lib == ML_COLL_MPICH)
		return c == ALG_BINOMIAL || (c >= ALG_MPICH_SRD && c < ALG_OMPI) ||
		       c == ALG_BEST || c == ALG_MPICH || c == ALG_DEFAULT;
	return c < ALG_MPICH_SRD || c == ALG_OMPI || c == ALG_BEST ||
	       c == ALG_DEFAULT;
}

/* Options -> params; the algorithm word (ompi, best) into *word.  An
 * algorithm of the other library leaves p->algorithm outside the
 * library's, for ml_collective_validate to reject. */
static enum ml_status to_params(const union ml_val *v,
				struct ml_collective_params *p, int *word)
{
	long long a = v[O_ALGORITHM].i, c = ml_choice_of(a);
	bool mpich = v[O_LIBRARY].i == 1;

	ml_collective_params_init(p);
	p->library = mpich ? ML_COLL_MPICH : ML_COLL_OPENMPI;
	*word = -1;
	if (!alg_in_library(a, v[O_LIBRARY].i)) {
		p->algorithm = mpich ? ML_COLL_LINEAR : ML_COLL_MPICH_SMP;
	} else if (c < 0) {
		p->algorithm = (enum ml_coll_alg)a;
	} else if (mpich && c == ALG_BINOMIAL) {
		p->algorithm = ML_COLL_MPICH_BINOMIAL;
	} else if (c < ALG_MPICH_SRD) {
		p->algorithm = (enum ml_coll_alg)(c + 1);
	} else if (c < ALG_OMPI) {
		p->algorithm =
		    (enum ml_coll_alg)(ML_COLL_MPICH_SCATTER_RD_ALLGATHER +
				       (c - ALG_MPICH_SRD));
	} else if (c == ALG_MPICH || c == ALG_DEFAULT) {
		p->algorithm = ML_COLL_DEFAULT;
	} else {
		*word = (int)c;
		p->algorithm = mpich ? ML_COLL_MPICH_BINOMIAL : ML_COLL_BINOMIAL;
	}
	p->ranks = v[O_RANKS].i;
	p->msg = v[O_MSG].i;
	p->segment = v[O_SEGMENT].i;
	p->fanout = v[O_FANOUT].i;
	p->radix = v[O_RADIX].i;
	p->ppn = v[O_PPN].i;
	p->sockets = v[O_SOCKETS].i;
	p->nodes = v[O_NODES].i == ML_AUTO_INT ? 0 : v[O_NODES].i;
	p->map_by = (enum ml_coll_map)v[O_MAP_BY].i;
	p->bind_to = (enum ml_coll_bind)v[O_BIND_TO].i;
	p->numa = v[O_NUMA].i;
	p->lat[ML_COLL_SOCKET] = v[O_LAT_SOCKET].r;
	p->lat[ML_COLL_NODE] = v[O_LAT_NODE].r;
	p->lat[ML_COLL_NET] = v[O_LAT_NET].r;
	p->byte[ML_COLL_SOCKET] = v[O_BYTE_SOCKET].r;
	p->byte[ML_COLL_NODE] = v[O_BYTE_NODE].r;
	p->byte[ML_COLL_NET] = v[O_BYTE_NET].r;
	p->overhead = v[O_OVERHEAD].r;
	p->nic_gap = v[O_NIC_GAP].r;
	p->ebyte[ML_COLL_SOCKET] = v[O_EBYTE_SOCKET].r;
	p->ebyte[ML_COLL_NODE] = v[O_EBYTE_NODE].r;
	p->ebyte[ML_COLL_NET] = v[O_EBYTE_NET].r;
	p->eager = v[O_EAGER].i;
	return ML_OK;
}

/* The error model of the options (fit_ranks 0: none). */
static void to_errmodel(const union ml_val *v, struct ml_coll_errmodel *em)
{
	int a;

	em->fit_ranks = v[O_ERR_RANKS].i;
	em->sd[0] = v[O_ERR_SD_SMALL].r;
	em->sd[1] = v[O_ERR_SD_MEDIUM].r;
	em->sd[2] = v[O_ERR_SD_LARGE].r;
	em->growth[0] = v[O_ERR_GROWTH_SMALL].r;
	em->growth[1] = v[O_ERR_GROWTH_MEDIUM].r;
	em->growth[2] = v[O_ERR_GROWTH_LARGE].r;
	em->diff_sd = v[O_ERR_DIFF].r;
	em->diff_growth = v[O_ERR_DIFF_GROWTH].r;
	em->diff_alg[0] = 0;
	for (a = 1; a <= ML_COLL_NALG; a++)
		em->diff_alg[a] = v[O_ERR_DIFF_ALG + a - 1].r;
}

/* The ML_COLL_AMONG bits of one --among item (a name of --algorithm, an
 * Open MPI id, or all), or 0 for a bad one.  Open MPI's binomial and
 * MPICH's share a name: both bits. */
static unsigned among_item(const char *s, size_t n)
{
	char *end;
	long id;
	size_t c;

	if (n == 3 && strncmp(s, "all", 3) == 0)
		return ML_COLL_AMONG_ALL;
	if (n > 0 && s[0] >= '0' && s[0] <= '9') {
		id = strtol(s, &end, 10);
		return (size_t)(end - s) == n && id >= 1 && id <= ML_COLL_NALG
			   ? ML_COLL_AMONG(id)
			   : 0;
	}
	for (c = 0; alg_names[c]; c++) {
		if (!ml_same_name(alg_names[c], s, n))
			continue;
		if (c == ALG_BINOMIAL)
			return ML_COLL_AMONG(ML_COLL_BINOMIAL) |
			       ML_COLL_AMONG(ML_COLL_MPICH_BINOMIAL);
		if (c < ALG_MPICH_SRD)
			return ML_COLL_AMONG(c + 1);
		if (c < ALG_OMPI)
			return ML_COLL_AMONG(ML_COLL_MPICH_SCATTER_RD_ALLGATHER +
					     (c - ALG_MPICH_SRD));
		if (c == ALG_OMPI || c == ALG_MPICH || c == ALG_DEFAULT)
			return ML_COLL_AMONG(ML_COLL_DEFAULT);
		return 0; /* best */
	}
	return 0;
}

/* --among's list into *mask (every candidate when s is NULL); -1 with
 * the bad item's offset and length when an item is not a candidate. */
static int parse_among(const char *s, unsigned *mask, size_t *at, size_t *len)
{
	size_t i = 0, n;
	unsigned bits;

	*mask = s ? 0 : ML_COLL_AMONG_ALL;
	while (s) {
		n = strcspn(s + i, ",");
		bits = among_item(s + i, n);
		if (!bits) {
			*at = i;
			*len = n;
			return -1;
		}
		*mask |= bits;
		if (s[i + n] == '\0')
			break;
		i += n + 1;
	}
	return 0;
}

/* The nodes the ranks are spread over (the allocation). */
static long long nodes_of(const struct ml_collective_params *p)
{
	return p->nodes > 0 ? p->nodes : (p->ranks + p->ppn - 1) / p->ppn;
}

/* --among is read once, before the sweep (a bad item is a usage error,
 * not a row); its candidates are the rows' *pt->prep. */
static enum ml_status prepare(const union ml_val *base, void **prep,
			      struct ml_diag *d)
{
	unsigned *among = malloc(sizeof *among);
	size_t at, len;

	*prep = among;
	if (!among)
		return ml_diag_set(d, "among", "out of memory");
	if (parse_among(base[O_AMONG].s, among, &at, &len)) {
		free(among);
		*prep = NULL;
		return ml_diag_set(d, "among",
				   "'%.*s' is not a candidate (an algorithm "
				   "of --algorithm, ompi, mpich, default or "
				   "all)",
				   (int)len, base[O_AMONG].s + at);
	}
	return ML_OK;
}


/* A point as run.  best: p.algorithm is the pick, ML_COLL_DEFAULT for
 * the library's own decision. */
struct outcome {
	struct ml_collective_params p;
	struct ml_collective_result r;
	double margin, vs_ompi;
};

/* best at the point: the pick among --among, do no harm by the error
 * model (ml_collective_best_among). */
static enum ml_status best_of(const union ml_val *v, const unsigned *prep,
			      struct outcome *o, struct ml_diag *d)
{
	struct ml_coll_errmodel em;
	struct ml_coll_pick pick;
	unsigned among;
	size_t at, len;
	enum ml_status st;

	if (prep)
		among = *prep;
	else if (parse_among(v[O_AMONG].s, &among, &at, &len))
		return ml_diag_set(d, "among", "not a candidate");
	to_errmodel(v, &em);
	st = ml_collective_best_among(&o->p, among,
				      v[O_OBJECTIVE].i ? ML_COLL_BY_AVG
						       : ML_COLL_BY_LATENCY,
				      &em, v[O_LEVEL].r, &pick);
	if (st == ML_EINVAL)
		return ml_diag_set(d, "among",
				   "no candidate of the library can run here");
	if (st != ML_OK)
		return st;
	o->p.algorithm = pick.alg;
	o->r = pick.r;
	o->margin = pick.margin;
	o->vs_ompi = pick.vs_default;
	return ML_OK;
}

/* Resolve the point into the params actually run (default, best). */
static enum ml_status resolve(const union ml_val *v, const unsigned *among,
			      struct outcome *o, struct ml_diag *d)
{
	int word;
	enum ml_status st;

	to_params(v, &o->p, &word);
	o->margin = NAN;
	o->vs_ompi = NAN;
	st = ml_collective_validate(&o->p, d);
	if (st != ML_OK)
		return st;
	if (word == ALG_OMPI)
		o->p.algorithm = ML_COLL_DEFAULT;
	if (word == ALG_BEST)
		return best_of(v, among, o, d);
	return ml_collective_eval(&o->p, &o->r);
}

/* best's pick at v for Open MPI's rules file (collective_ompi.c): the
 * algorithm (0: its fixed decision), the chain's fanout and the
 * segment size. */
static enum ml_status ompi_rule(const union ml_val *v, long long *alg,
				long long *fanout, long long *segment,
				struct ml_diag *d)
{
	struct outcome o;
	enum ml_status st = resolve(v, NULL, &o, d);

	if (st != ML_OK)
		return st;
	*alg = o.p.algorithm;
	*fanout = o.p.fanout;
	*segment = o.p.segment;
	return ML_OK;
}

/* best's pick at v, for MPICH's tuning file (collective_mpich.c):
 * ML_EINVAL without a message unless the algorithm is best. */
static enum ml_status resolve_best(const union ml_val *v, enum ml_coll_alg *alg,
				   struct ml_diag *d)
{
	struct outcome o;
	enum ml_status st;

	if (ml_choice_of(v[O_ALGORITHM].i) != ALG_BEST || v[O_OP].i != 0)
		return ML_EINVAL;
	st = resolve(v, NULL, &o, d);
	if (st != ML_OK)
		return st;
	/* MPICH's own decision in a tuning file read with the device
	 * collectives off: the MPIR algorithm it picks on the whole
	 * communicator (mcastlat-collective(1), MPICH's tuning file). */
	*alg = o.p.algorithm == ML_COLL_DEFAULT
		   ? ml_collective_mpich_mpir(o.p.ranks, o.p.msg,
					      o.p.ranks > nodes_of(&o.p))
		   : o.p.algorithm;
	return ML_OK;
}

/* --op p2p checks the machine as a broadcast would (the ranks' options
 * still place them); --op bcast the whole point. */
static enum ml_status check(const struct ml_point *pt, struct ml_diag *d)
{
	struct ml_collective_params p;
	long long a = pt->v[O_ALGORITHM].i, lib = pt->v[O_LIBRARY].i;
	int word;

	if (pt->v[O_OP].i == 0 && !alg_in_library(a, lib)) {
		if (ml_choice_of(a) < 0)
			return ml_diag_set(d, "algorithm",
					   "ids are Open MPI's: give MPICH's "
					   "algorithms by name");
		return ml_diag_set(d, "algorithm",
				   "'%s' is not %s's: see --library",
				   alg_names[ml_choice_of(a)],
				   lib == 1 ? "MPICH" : "Open MPI");
	}
	to_params(pt->v, &p, &word);
	return ml_collective_validate(&p, d);
}

/* A sweep's point whose algorithm is the other library's has no row
 * ("all" lists both libraries' algorithms). */
static bool skip(const union ml_val *v)
{
	return v[O_OP].i == 0 &&
	       !alg_in_library(v[O_ALGORITHM].i, v[O_LIBRARY].i);
}

/* What ran, for the column chosen: the algorithm, or with MPICH's
 * decision composition/algorithm ("beta/binomial"), the algorithms of
 * the node roots and of the nodes joined by '+' when they differ. */
static const char *chosen_text(const struct ml_collective_result *r,
			       char *buf, size_t len)
{
	enum ml_coll_alg part[3] = {r->ran_roots, r->ran_node_first,
				    r->ran_node_last};
	size_t n = 0;
	int i, k, dup;

	if (r->composition == ML_COLL_COMP_NONE)
		return ml_collective_alg_name(r->ran);
	n = (size_t)snprintf(buf, len, "%s/",
			     ml_collective_composition_name(r->composition));
	if (r->ran != ML_COLL_DEFAULT) {
		snprintf(buf + n, len - n, "%s", ml_collective_alg_name(r->ran));
		return buf;
	}
	for (i = 0, k = 0; i < 3 && n < len; i++) {
		for (dup = 0; dup < i && part[dup] != part[i]; dup++)
			;
		if (part[i] == ML_COLL_DEFAULT || dup < i)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", k++ ? "+" : "",
				      ml_collective_alg_name(part[i]));
	}
	return buf;
}

static enum ml_status eval_p2p(const union ml_val *v, union ml_val *out)
{
	struct ml_collective_params p;
	double t;
	int word;
	enum ml_status st;

	to_params(v, &p, &word);
	st = ml_collective_p2p(&p, (enum ml_coll_channel)v[O_CHANNEL].i, p.msg,
			       &t);
	if (st != ML_OK)
		return st;
	out[C_LATENCY].r = t;
	out[C_LATENCY_AVG].r = NAN;
	out[C_LATENCY_MIN].r = NAN;
	out[C_MESSAGES].i = 1;
	out[C_SEGMENTS].i = 1;
	out[C_CHOSEN].s = "p2p";
	out[C_BEST].s = "-";
	out[C_MARGIN].r = NAN;
	out[C_VS_OMPI].r = NAN;
	out[C_LATENCY_LO].r = NAN;
	out[C_LATENCY_HI].r = NAN;
	out[C_LATENCY_AVG_LO].r = NAN;
	out[C_LATENCY_AVG_HI].r = NAN;
	return ML_OK;
}

/* The interval columns of a result at the point (NaN without an error
 * model). */
static void intervals(const union ml_val *v, const struct outcome *o,
		      union ml_val *out)
{
	struct ml_coll_errmodel em;

	to_errmodel(v, &em);
	ml_collective_interval(&em, o->p.ranks, o->p.msg, v[O_LEVEL].r,
			       o->r.latency, &out[C_LATENCY_LO].r,
			       &out[C_LATENCY_HI].r);
	ml_collective_interval(&em, o->p.ranks, o->p.msg, v[O_LEVEL].r,
			       o->r.latency_avg, &out[C_LATENCY_AVG_LO].r,
			       &out[C_LATENCY_AVG_HI].r);
}

/* The name best's column gives a pick: the library's decision by its
 * --algorithm word. */
static const char *pick_name(const struct ml_collective_params *p)
{
	if (p->algorithm == ML_COLL_DEFAULT)
		return p->library == ML_COLL_MPICH ? "mpich" : "ompi";
	return ml_collective_alg_name(p->algorithm);
}

static enum ml_status eval(const struct ml_point *pt, union ml_val *out)
{
	struct outcome o;
	bool best = ml_choice_of(pt->v[O_ALGORITHM].i) == ALG_BEST;
	enum ml_status st;

	if (pt->v[O_OP].i == 1)
		return eval_p2p(pt->v, out);
	st = resolve(pt->v, pt->prep, &o, NULL);
	if (st != ML_OK)
		return st;
	out[C_LATENCY].r = o.r.latency;
	out[C_LATENCY_AVG].r = o.r.latency_avg;
	out[C_LATENCY_MIN].r = o.r.latency_min;
	intervals(pt->v, &o, out);
	out[C_MESSAGES].i = o.r.messages;
	out[C_SEGMENTS].i = o.r.segments;
	out[C_CHOSEN].s = chosen_text(&o.r, pt->text, ML_TEXT_MAX);
	out[C_BEST].s = best ? pick_name(&o.p) : "-";
	out[C_MARGIN].r = o.margin;
	out[C_VS_OMPI].r = o.vs_ompi;
	return ML_OK;
}

/* ---- --schedule and --rules: the command's own runs ---------------- */

static int run_schedule(const struct ml_command *cmd, struct ml_ctx *ctx,
			const char *format, const struct ml_vlist *const *vl,
			const union ml_val *base)
{
	struct outcome o;
	struct ml_diag d = {NULL, ""};
	char chosen[ML_TEXT_MAX];
	size_t i;

	for (i = 0; i < cmd->nopts; i++)
		if (vl[i]->count > 1)
			return ml_usage_err(ctx, cmd->name, "schedule",
					    "prints one point: give one "
					    "value of each option");
	if (base[O_OP].i == 1)
		return ml_usage_err(ctx, cmd->name, "schedule",
				    "needs --op bcast");
	if (resolve(base, NULL, &o, &d) != ML_OK)
		return ml_usage_err(ctx, cmd->name, d.param ? d.param : "msg",
				    d.msg[0] ? d.msg : "cannot be evaluated");
	if (ml_collective_print_schedule(
		ctx->out, format && strcmp(format, "table") != 0,
		chosen_text(&o.r, chosen, sizeof chosen), &o.p, &o.r)) {
		ml_err(ctx, "collective: --schedule: write failed");
		return ML_EXIT_ROWS;
	}
	return ML_EXIT_OK;
}

/* Does the machine carry an error model of its own (a fit's)?  Not
 * when every err- option is at the default machine's value. */
static bool machine_fitted(const union ml_val *base)
{
	size_t i;

	for (i = O_ERR_RANKS; i < NOPTS; i++) {
		const char *d = opts[i].def;

		if (opts[i].kind == ML_OPT_INT ? base[i].i != strtoll(d, NULL, 10)
					       : base[i].r != strtod(d, NULL))
			return true;
	}
	return false;
}


/* --schedule runs here; --rules writes its file, then the engine
 * prints the sweep's rows as usual. */
static int takeover(const struct ml_command *cmd,
		    const struct ml_vlist *const *vl, const union ml_val *base,
		    const char *format, struct ml_ctx *ctx)
{
	int rc;

	if (base[O_SCHEDULE].i)
		return run_schedule(cmd, ctx, format, vl, base);
	if (base[O_RULES].s) {
		if (ml_choice_of(base[O_ALGORITHM].i) != ALG_BEST ||
		    base[O_OP].i != 0)
			return ml_usage_err(ctx, cmd->name, "rules",
					    "needs --algorithm best (and --op "
					    "bcast)");
		rc = base[O_LIBRARY].i == 1
			 ? ml_collective_mpich_rules(cmd, ctx, vl, base, O_RANKS,
						     O_MSG, O_RULES, resolve_best)
			 : ml_collective_ompi_rules(cmd, ctx, vl, base, O_RANKS,
						    O_MSG, O_RULES,
						    machine_fitted(base),
						    ompi_rule);
		if (rc)
			return ML_EXIT_USAGE;
		if (!machine_fitted(base))
			ml_warn(ctx, "collective: --rules: the machine was not "
				     "fitted (the default machine): its picks "
				     "keep the library's default unless "
				     "clearly faster; fit yours first (mcastlat "
				     "fit collective)");
	}
	return -1;
}

/* ---- mcastlat fit collective (SPEC 10.4) -------------------------- */

/* A point of the fit: a ping-pong on its channel, or a broadcast of a
 * concrete algorithm (ompi resolved by Open MPI's decision). */
static enum ml_status fit_params(const union ml_val *v, void *params,
				 struct ml_diag *d)
{
	struct ml_collective_point *pt = params;
	int word;

	memset(pt, 0, sizeof(*pt));
	to_params(v, &pt->p, &word);
	pt->p2p = v[O_OP].i == 1;
	pt->channel = (enum ml_coll_channel)v[O_CHANNEL].i;
	if (pt->p2p)
		return ML_OK;
	if (word == ALG_BEST)
		return ml_diag_set(d, "algorithm",
				   "best is a prediction, not a measured "
				   "algorithm");
	if (word == ALG_OMPI)
		pt->p.algorithm = ML_COLL_DEFAULT;
	return ml_collective_validate(&pt->p, d);
}

static void fit_measure(void *params, bool mean)
{
	struct ml_collective_point *pt = params;

	pt->avg = mean && !pt->p2p;
}

/* The off-by-default mechanisms of SPEC 10.2 that --free auto may free:
 * kept by forward validation (fit_cmd.c, choose_mechanisms). */
static const char *const fit_mechanisms[] = {"overhead", "nic-gap",
					      "eager-byte-*", NULL};

static const char *const fit_inputs[] = {
    "op",     "library", "algorithm", "ranks",	"msg",	  "segment", "fanout",
    "radix",  "ppn",     "sockets",   "nodes",	"map-by", "bind-to", "numa",
    "channel", NULL};

/* A broadcast row must say how many ranks, a ping-pong which channel. */
static const char *fit_needs(const union ml_val *v, const bool *stated)
{
	if (v[O_OP].i == 1)
		return stated[O_CHANNEL] ? NULL : "channel";
	return stated[O_RANKS] ? NULL : "ranks";
}

static bool fit_collective(const union ml_val *v)
{
	return v[O_OP].i == 0;
}

static const struct ml_status_doc statuses[] = {
    {ML_OK, "every result is valid"},
    {ML_EINVAL, "the point is outside the model's domain (a sweep goes "
		"on; a warning names the rule)"},
    {ML_ENOMEM, "the ranks' state or the messages do not fit in memory"},
    {ML_OVERFLOW, "a time is not finite (huge inputs such as 1e308)"},
    {ML_OK, NULL}};

const struct ml_command ml_cmd_collective = {
    .name = "collective",
    .summary = "Open MPI's and MPICH's broadcast algorithms on a node "
	       "hierarchy "
	       "(ranks per node, sockets, NIC)",
    .source = "Open MPI 4.1/5.0 coll/base and coll/tuned, MPICH 4.0.2; "
	      "SPEC 10, 11.  Default machine: a fit of ORFEO's THIN nodes "
	      "(mcastlat-collective(1), DEFAULTS)",
    .time_unit = "us",
    .opts = opts,
    .nopts = NOPTS,
    .cols = cols,
    .ncols = NCOLS,
    .check = check,
    .eval = eval,
    .unused = unused,
    .statuses = statuses,
    .takeover = takeover,
    .takeover_flag = "schedule",
    .skip = skip,
    .prepare = prepare,
    .release = free,
    .fit_model = &ml_fit_collective,
    .fit_params = fit_params,
    .fit_inputs = fit_inputs,
    .fit_needs = fit_needs,
    .fit_collective = fit_collective,
    .fit_measure = fit_measure,
    .fit_errmodel = ml_collective_fit_errmodel,
    .fit_mechanisms = fit_mechanisms,
};
