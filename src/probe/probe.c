/*
 * probe.c - mcastlat-probe (SPEC 10.6, mcastlat-probe(1)): measures, on
 * the allocation it runs on, what `mcastlat fit collective` fits, and
 * writes it as fit's CSV.  Its options, its plan and its output; the
 * machine and the timings are machine.c's and measure.c's.
 *
 *   mpirun -np N mcastlat-probe [--budget S] [--msg LIST] [--algorithm
 *       LIST] [--ranks LIST] [--map-by LIST] [--channel LIST] [--reps R]
 *       [--plan FILE] [-o FILE]
 *
 * The plan, for each repetition (the outer loop, so that a drift of the
 * machine spreads over the repetitions rather than into one point):
 *   - a ping-pong per channel and size (op=p2p: channel, msg, latency);
 *   - root fan-out per channel: linear broadcasts (Open MPI's algorithm
 *     1, one rank sending to k others at once) to 2, 4, ... receivers on
 *     that channel;
 *   - broadcasts: collective --plan's design (ml_collective_plan: P
 *     log-spaced over the allocation, sizes around each protocol
 *     switch, every algorithm at every cell) for 4 points a second of
 *     --budget, or exactly the rows of --plan FILE (then ping-pongs and
 *     fan-outs only for a --channel given).
 * Each point gets an equal share of --budget.  Every rank parses the
 * same command line and finds the same machine, so every rank computes
 * the same plan; rank 0 alone speaks (stderr) and writes.  The CSV is
 * held in memory and written at the end, through a temporary file
 * renamed onto -o FILE: a run that fails leaves nothing half-written.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/engine/parse.h"
#include "mcastlat.h"
#include "probe/probe.h"

#define MAX_LIST 64

static const char *const alg_choices[] = {
    "linear", "chain", "pipeline", "split-binary", "binary", "binomial",
    "knomial", "scatter-allgather", "scatter-allgather-ring", "ompi", NULL};
#define ALG_OMPI 0 /* Open MPI's own decision: nothing forced */
static const char *const channel_choices[] = {"socket", "node", "net", NULL};
static const char *const map_choices[] = {"core", "socket", "node", NULL};

static const struct ml_opt opt_msg = {.name = "msg",
				      .kind = ML_OPT_INT,
				      .unit = "bytes",
				      .imin = 1,
				      .imax = 1LL << 30};
static const struct ml_opt opt_ranks = {
    .name = "ranks", .kind = ML_OPT_INT, .imin = 2, .imax = 1 << 24};
static const struct ml_opt opt_algorithm = {.name = "algorithm",
					    .kind = ML_OPT_CHOICE,
					    .imin = 1,
					    .imax = 9,
					    .flags = ML_OPT_ALL |
						     ML_OPT_INTOK,
					    .choices = alg_choices};
static const struct ml_opt opt_channel = {.name = "channel",
					  .kind = ML_OPT_CHOICE,
					  .flags = ML_OPT_ALL,
					  .choices = channel_choices};
static const struct ml_opt opt_map = {
    .name = "map-by", .kind = ML_OPT_CHOICE, .choices = map_choices};

/* A value list given on the command line, or not. */
struct list {
	long long v[MAX_LIST];
	int n;
	bool given;
};

struct opts {
	struct list msg, algorithm, ranks, channel, map_by;
	double budget; /* seconds */
	long reps;
	const char *output;
	const char *plan; /* --plan FILE */
};

static const char usage_line[] =
    "usage: mpirun -np N mcastlat-probe [--budget SECONDS] [--msg LIST] "
    "[--algorithm LIST] [--ranks LIST] [--map-by LIST] [--channel LIST] "
    "[--reps N] [--plan FILE] [-o FILE]";

/* One measurement of the plan. */
enum point_kind { PT_PINGPONG, PT_FANOUT, PT_BCAST };
struct point {
	enum point_kind kind;
	enum ml_coll_channel channel; /* ping-pong, fan-out */
	int algorithm;		      /* 0 = ompi, else Open MPI's id */
	struct probe_place place;
	long long msg;
};

struct plan {
	struct point *pt;
	size_t n, cap;
};

/* What every rank shares while it runs the plan. */
struct run {
	MPI_Comm world;
	int rank;
	struct probe_machine machine;
	struct probe_tuned tuned;
	bool rules; /* a rules file is loaded: Open MPI obeys it first */
	FILE *csv;  /* rank 0: the rows so far (open_memstream) */
	char *csv_text;
	size_t csv_len;
};

/* Rank 0's one-line error; every rank returns 2. */
__attribute__((format(printf, 2, 3))) static int
usage_error(int rank, const char *fmt, ...)
{
	va_list ap;

	if (rank == 0) {
		fprintf(stderr, "mcastlat-probe: ");
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	return 2;
}

static int parse_list(struct list *l, const struct ml_opt *opt,
		      const char *text, int rank)
{
	struct ml_vlist vl;
	char err[256];
	unsigned long long i;

	if (ml_vlist_parse(&vl, opt, text, "us", err, sizeof err) != 0)
		return usage_error(rank, "--%s: %s", opt->name, err);
	if (vl.count > MAX_LIST) {
		ml_vlist_free(&vl);
		return usage_error(rank, "--%s: '%s' has more than 64 values",
				   opt->name, text);
	}
	for (i = 0; i < vl.count; i++)
		l->v[i] = ml_vlist_at(&vl, i).i;
	l->n = (int)vl.count;
	l->given = true;
	ml_vlist_free(&vl);
	return 0;
}

/* Algorithm values: -idx-1 for a name, else Open MPI's id; to 0..9. */
static int algorithm_ids(struct list *l, int rank)
{
	int i;

	for (i = 0; i < l->n; i++) {
		long long c = ml_choice_of(l->v[i]);

		if (c < 0 && (l->v[i] < 1 || l->v[i] > 9)) {
			return usage_error(rank,
					   "--algorithm: '%lld' is not one of "
					   "Open MPI's ids 1-9",
					   l->v[i]);
		}
		l->v[i] = c < 0 ? l->v[i] : c == 9 ? ALG_OMPI : c + 1;
	}
	return 0;
}

static int parse_number(const char *name, const char *text, double lo,
			double hi, double *out, int rank)
{
	const char *why = ml_parse_real(text, out);

	if (why == NULL && (*out < lo || *out > hi))
		why = "is out of range";
	return why ? usage_error(rank, "--%s: %s", name, why) : 0;
}

static int parse_opts(int argc, char **argv, struct opts *o, int rank)
{
	static const struct option longs[] = {
	    {"algorithm", required_argument, NULL, 'a'},
	    {"budget", required_argument, NULL, 'b'},
	    {"channel", required_argument, NULL, 'c'},
	    {"help", no_argument, NULL, 'h'},
	    {"map-by", required_argument, NULL, 'y'},
	    {"msg", required_argument, NULL, 'm'},
	    {"output", required_argument, NULL, 'o'},
	    {"plan", required_argument, NULL, 'P'},
	    {"ranks", required_argument, NULL, 'p'},
	    {"reps", required_argument, NULL, 'r'},
	    {"version", no_argument, NULL, 'V'},
	    {NULL, 0, NULL, 0}};
	double v;
	int c, rc = 0;

	memset(o, 0, sizeof *o);
	o->budget = 60;
	o->reps = 3;
	opterr = 0;
	while (rc == 0 &&
	       (c = getopt_long(argc, argv, "ho:V", longs, NULL)) != -1) {
		switch (c) {
		case 'a':
			rc = parse_list(&o->algorithm, &opt_algorithm, optarg,
					rank);
			if (rc == 0)
				rc = algorithm_ids(&o->algorithm, rank);
			break;
		case 'b':
			rc = parse_number("budget", optarg, 1, 1e6,
					  &o->budget, rank);
			break;
		case 'c':
			rc = parse_list(&o->channel, &opt_channel, optarg,
					rank);
			break;
		case 'm':
			rc = parse_list(&o->msg, &opt_msg, optarg, rank);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'p':
			rc = parse_list(&o->ranks, &opt_ranks, optarg, rank);
			break;
		case 'P':
			o->plan = optarg;
			break;
		case 'r':
			rc = parse_number("reps", optarg, 1, 1000, &v, rank);
			if (rc == 0 && v != (long)v)
				rc = usage_error(rank, "--reps: '%s' is not an "
						 "integer", optarg);
			o->reps = (long)v;
			break;
		case 'y':
			rc = parse_list(&o->map_by, &opt_map, optarg, rank);
			break;
		case 'h':
			if (rank == 0)
				printf("%s\n", usage_line);
			return -1;
		case 'V':
			if (rank == 0)
				printf("mcastlat-probe %s\n", ml_version());
			return -1;
		default:
			rc = usage_error(rank, "unknown option '%s'",
					 argv[optind - 1]);
		}
	}
	if (rc == 0 && optind < argc)
		rc = usage_error(rank, "unexpected argument '%s'",
				 argv[optind]);
	return rc;
}

/* The same broadcast (a fan-out is a linear broadcast the plan may also
 * hold). */
static bool same_bcast(const struct point *a, const struct point *b)
{
	return a->kind != PT_PINGPONG && b->kind != PT_PINGPONG &&
	       a->algorithm == b->algorithm && a->msg == b->msg &&
	       a->place.ranks == b->place.ranks &&
	       a->place.nodes == b->place.nodes &&
	       a->place.map_by == b->place.map_by;
}

static void plan_add(struct plan *pl, const struct point *p)
{
	size_t i;

	for (i = 0; i < pl->n; i++)
		if (same_bcast(&pl->pt[i], p))
			return;
	if (pl->n == pl->cap) {
		size_t cap = pl->cap ? 2 * pl->cap : 256;
		struct point *more = realloc(pl->pt, cap * sizeof *more);

		if (more == NULL) {
			fprintf(stderr, "mcastlat-probe: out of memory\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		pl->pt = more;
		pl->cap = cap;
	}
	pl->pt[pl->n++] = *p;
}

static const char *const channel_why[] = {
    "needs two ranks on one socket", "needs ranks on two sockets of a node",
    "needs ranks on two nodes"};

/* The channels to measure: those given (each must exist), else every
 * one the machine has, with a note for the others.  -1 on an error. */
static int pick_channels(const struct opts *o, const struct run *r,
			 bool use[ML_COLL_NCHANNEL])
{
	struct probe_place pl;
	int c, i;

	for (c = 0; c < ML_COLL_NCHANNEL; c++) {
		bool exists =
		    probe_channel_place(&r->machine, (enum ml_coll_channel)c,
					2, &pl) == 0;
		bool asked = !o->channel.given && !o->plan;

		for (i = 0; i < o->channel.n; i++)
			asked = asked || o->channel.v[i] == c;
		if (asked && !exists && o->channel.given) {
			usage_error(r->rank, "--channel: '%s' %s here",
				    channel_choices[c], channel_why[c]);
			return -1;
		}
		use[c] = asked && exists;
	}
	return 0;
}

/* Default sizes: 1 byte to 1 MiB in steps of 16. */
static void default_msgs(struct list *l)
{
	long long m;

	for (m = 1; m <= 1LL << 20; m *= 16)
		l->v[l->n++] = m;
}

/* The fan-out after k: twice k, else the most the channel has, else 0
 * (k is the most). */
static long long next_fanout(const struct run *r, enum ml_coll_channel c,
			     long long k)
{
	struct probe_place pl;
	long long most = k;

	if (probe_channel_place(&r->machine, c, 2 * k + 1, &pl) == 0)
		return 2 * k;
	while (probe_channel_place(&r->machine, c, most + 2, &pl) == 0)
		most++;
	return most > k ? most : 0;
}

static void plan_channels(const struct opts *o, const struct run *r,
			  const bool use[ML_COLL_NCHANNEL], struct plan *pl)
{
	struct point p = {0};
	long long k;
	int c, i;

	for (c = 0; c < ML_COLL_NCHANNEL; c++) {
		if (!use[c])
			continue;
		p.channel = (enum ml_coll_channel)c;
		for (i = 0; i < o->msg.n; i++) {
			p.kind = PT_PINGPONG;
			p.msg = o->msg.v[i];
			probe_channel_place(&r->machine, p.channel, 2,
					    &p.place);
			plan_add(pl, &p);
		}
		if (!r->tuned.ok || r->rules)
			continue;
		/* Fan-out to 2, 4, 8, ... receivers, and as many as the
		 * channel has. */
		p.kind = PT_FANOUT;
		p.algorithm = ML_COLL_LINEAR;
		k = probe_channel_place(&r->machine, p.channel, 3, &p.place) == 0
			? 2
			: 0;
		for (; k > 0; k = next_fanout(r, p.channel, k))
			for (i = 0; i < o->msg.n; i++) {
				probe_channel_place(&r->machine, p.channel,
						    k + 1, &p.place);
				p.msg = o->msg.v[i];
				plan_add(pl, &p);
			}
	}
}

/* The sizes the default plan chooses from when --msg is not given:
 * ml_collective_plan's range, 1 byte to 1 MiB. */
#define PLAN_MSG_MAX (1LL << 20)

/* The default plan's broadcasts: ml_collective_plan for the machine,
 * the placements, the algorithms, --ranks and --msg as lists to choose
 * from, and 4 points a second of --budget (at least the plan's
 * minimum); -1 on an error. */
static int plan_bcasts(const struct opts *o, const struct run *r,
		       struct plan *pl)
{
	struct point p = {.kind = PT_BCAST};
	struct ml_coll_plan_params pp;
	struct ml_coll_plan plan;
	struct ml_diag d = {NULL, ""};
	long long nr, nm, ncand = 0, nmap = 0, minimum;
	size_t i;
	int k;

	ml_collective_plan_init(&pp);
	pp.ppn = probe_machine_ppn(&r->machine);
	pp.sockets = r->machine.sockets;
	pp.nodes = r->machine.nodes;
	pp.maps = 0;
	for (k = 0; k < o->map_by.n; k++)
		pp.maps |= 1u << o->map_by.v[k];
	pp.among = 0;
	for (k = 0; k < o->algorithm.n; k++)
		pp.among |= ML_COLL_AMONG(o->algorithm.v[k]);
	if (o->ranks.given) {
		pp.ranks = o->ranks.v;
		pp.nranks = (size_t)o->ranks.n;
	}
	if (o->msg.given) {
		pp.msgs = o->msg.v;
		pp.nmsgs = (size_t)o->msg.n;
	}
	pp.msg_max = PLAN_MSG_MAX;
	for (k = 0; k <= ML_COLL_NALG; k++)
		ncand += pp.among >> k & 1;
	for (k = 0; k <= ML_COLL_MAP_NODE; k++)
		nmap += pp.maps >> k & 1;
	nr = o->ranks.given ? o->ranks.n : pp.ppn * pp.nodes - 1;
	nm = o->msg.given ? o->msg.n : 21;
	minimum = (nr < 2 ? nr : 2) * (nm < 2 ? nm : 2) * ncand * nmap;
	pp.budget = (long long)(4 * o->budget);
	if (pp.budget < minimum)
		pp.budget = minimum;
	if (ml_collective_plan(&pp, &plan, &d) != ML_OK) {
		usage_error(r->rank, "the plan: --%s: %s",
			    d.param ? d.param : "budget", d.msg);
		return -1;
	}
	for (i = 0; i < plan.n; i++) {
		p.algorithm = (int)plan.rows[i].alg;
		p.place.ranks = plan.rows[i].ranks;
		p.place.map_by = plan.rows[i].map_by;
		p.place.nodes = r->machine.nodes;
		p.msg = plan.rows[i].msg;
		plan_add(pl, &p);
	}
	ml_collective_plan_free(&plan);
	return 0;
}

/* --plan FILE: its rows, each checked against the allocation; -1 on an
 * error. */
static int plan_file(const struct opts *o, const struct run *r,
		     struct plan *pl)
{
	struct point p = {.kind = PT_BCAST};
	struct probe_row *rows;
	long long most = r->machine.nodes * probe_machine_ppn(&r->machine);
	char err[256];
	size_t i, n;

	if (probe_plan_read(r->world, o->plan, &rows, &n, err, sizeof err)) {
		usage_error(r->rank, "%s", err);
		return -1;
	}
	if (r->rank == 0 && rows[0].ppn > 0 &&
	    (rows[0].ppn != probe_machine_ppn(&r->machine) ||
	     rows[0].sockets != r->machine.sockets ||
	     rows[0].nodes != r->machine.nodes))
		fprintf(stderr, "mcastlat-probe: note: the plan is for %lld "
			"nodes of ppn %lld in %lld sockets, this allocation has "
			"%d of ppn %lld in %d: its rows are measured here\n",
			rows[0].nodes, rows[0].ppn, rows[0].sockets,
			r->machine.nodes, probe_machine_ppn(&r->machine),
			r->machine.sockets);
	for (i = 0; i < n; i++) {
		if (rows[i].ranks > most) {
			usage_error(r->rank, "--plan: ranks %lld is more than "
				    "the %lld usable ranks here",
				    rows[i].ranks, most);
			free(rows);
			return -1;
		}
		if (rows[i].algorithm != ALG_OMPI &&
		    (!r->tuned.ok || r->rules)) {
			usage_error(r->rank, "--plan: '%s' cannot be forced "
				    "here (%s)",
				    alg_choices[rows[i].algorithm - 1],
				    r->rules ? "a rules file is loaded"
					     : "no coll/tuned dynamic rules");
			free(rows);
			return -1;
		}
		p.algorithm = rows[i].algorithm;
		p.place.ranks = rows[i].ranks;
		p.place.map_by = rows[i].map_by;
		p.place.nodes = r->machine.nodes;
		p.msg = rows[i].msg;
		plan_add(pl, &p);
	}
	free(rows);
	return 0;
}

/* The broadcast part's defaults and checks; -1 on an error. */
static int bcast_options(struct opts *o, const struct run *r)
{
	long long most = r->machine.nodes * probe_machine_ppn(&r->machine);
	int i;

	if (!o->algorithm.given) {
		o->algorithm.n = 0;
		if (!r->rules)
			for (i = 1; i <= 9 && r->tuned.ok; i++)
				o->algorithm.v[o->algorithm.n++] = i;
		o->algorithm.v[o->algorithm.n++] = ALG_OMPI;
	}
	for (i = 0; i < o->algorithm.n; i++) {
		if (o->algorithm.v[i] == ALG_OMPI)
			continue;
		if (!r->tuned.ok) {
			usage_error(r->rank, "--algorithm: '%s' needs Open "
				    "MPI's coll/tuned with dynamic rules (MPI_T "
				    "variable %s)",
				    alg_choices[o->algorithm.v[i] - 1],
				    "coll_tuned_bcast_algorithm");
			return -1;
		}
		if (r->rules) {
			usage_error(r->rank, "--algorithm: '%s' cannot be "
				    "forced while a rules file is loaded (%s): "
				    "Open MPI obeys the file first; measure "
				    "ompi",
				    alg_choices[o->algorithm.v[i] - 1],
				    "coll_tuned_dynamic_rules_filename");
			return -1;
		}
	}
	for (i = 0; i < o->ranks.n; i++)
		if (o->ranks.v[i] > most) {
			usage_error(r->rank, "--ranks: '%lld' is more than "
				    "the %lld usable ranks here",
				    o->ranks.v[i], most);
			return -1;
		}
	if (!o->map_by.given) {
		o->map_by.v[o->map_by.n++] = ML_COLL_MAP_CORE;
		if (r->machine.nodes > 1)
			o->map_by.v[o->map_by.n++] = ML_COLL_MAP_NODE;
	}
	return 0;
}

static int make_plan(struct opts *o, struct run *r, struct plan *pl)
{
	bool use[ML_COLL_NCHANNEL];
	struct list sizes = o->msg;
	struct opts oc;
	int c;

	if (!o->msg.given)
		default_msgs(&sizes);
	if (pick_channels(o, r, use) != 0 ||
	    (!o->plan && bcast_options(o, r) != 0))
		return -1;
	/* The ping-pongs and fan-outs at --msg, or 1 B to 1 MiB by 16. */
	oc = *o;
	oc.msg = sizes;
	plan_channels(&oc, r, use, pl);
	if (o->plan ? plan_file(o, r, pl) != 0 : plan_bcasts(o, r, pl) != 0)
		return -1;
	for (c = 0; c < ML_COLL_NCHANNEL && r->rank == 0 && !o->plan; c++)
		if (!use[c] && !o->channel.given)
			fprintf(stderr,
				"mcastlat-probe: note: no %s channel (it %s): "
				"its ping-pong and fan-out are not measured\n",
				channel_choices[c], channel_why[c]);
	return 0;
}

static const char csv_header[] =
    "op,channel,ranks,algorithm,segment,ppn,sockets,nodes,map_by,bind_to,"
    "msg,latency_avg,latency_min,latency\n";

/* The algorithm column of a broadcast row. */
static const char *algorithm_label(const struct run *r, int algorithm)
{
	if (algorithm != ALG_OMPI)
		return alg_choices[algorithm - 1];
	return r->rules ? "rules" : "ompi";
}

/* Rank 0: one row (latency_avg and latency_min empty for a ping-pong,
 * whose one number is latency). */
static void write_row(struct run *r, const struct point *p,
		      const struct probe_times *t)
{
	if (p->kind == PT_PINGPONG) {
		fprintf(r->csv, "p2p,%s,2,,,,,,,,%lld,,,%.6g\n",
			channel_choices[p->channel], p->msg, t->max);
		return;
	}
	fprintf(r->csv,
		"bcast,,%lld,%s,0,%lld,%d,%lld,%s,core,%lld,%.6g,%.6g,%.6g\n",
		p->place.ranks,
		algorithm_label(r, p->kind == PT_FANOUT ? ML_COLL_LINEAR
							: p->algorithm),
		probe_machine_ppn(&r->machine), r->machine.sockets,
		p->place.nodes, map_choices[p->place.map_by], p->msg, t->avg,
		t->min, t->max);
}

/* Measures one point; its times reach world rank 0.  0, or an MPI error
 * code from forcing the algorithm. */
static int run_point(struct run *r, const struct point *p, double seconds,
		     struct probe_times *out)
{
	struct probe_times t = {0};
	double mine[3] = {0, 0, 0}, sum[3];
	MPI_Comm comm;
	int rc = 0, crank;

	if (p->kind != PT_PINGPONG && r->tuned.ok)
		rc = probe_tuned_force(&r->tuned, p->algorithm, 0, 4, 4);
	if (rc != 0)
		return rc;
	if (probe_place_comm(&r->machine, &p->place, r->world, &comm) != 0)
		return MPI_ERR_ARG; /* the plan checked it: not reached */
	if (comm != MPI_COMM_NULL) {
		if (p->kind == PT_PINGPONG)
			probe_pingpong(comm, p->msg, seconds, &t);
		else
			probe_bcast(comm, p->msg, seconds, &t);
		MPI_Comm_rank(comm, &crank);
		if (crank == 0) {
			mine[0] = t.avg;
			mine[1] = t.min;
			mine[2] = t.max;
		}
		MPI_Comm_free(&comm);
	}
	/* Only the communicator's rank 0 holds the times: a sum is a copy. */
	MPI_Reduce(mine, sum, 3, MPI_DOUBLE, MPI_SUM, 0, r->world);
	out->avg = sum[0];
	out->min = sum[1];
	out->max = sum[2];
	return 0;
}

static void progress(const struct run *r, size_t done, size_t total,
		     double started)
{
	static int last_tenth = -1;
	int tenth = (int)(10 * done / total);

	if (r->rank != 0 || tenth == last_tenth)
		return;
	last_tenth = tenth;
	fprintf(stderr, "mcastlat-probe: %zu of %zu points, %.0f s\n", done,
		total, MPI_Wtime() - started);
}

static int run_plan(struct run *r, const struct plan *pl, long reps,
		    double budget)
{
	/* A tenth of the budget is left to calibration and communicators. */
	double share = 0.9 * budget / ((double)pl->n * (double)reps);
	double started = MPI_Wtime();
	struct probe_times t;
	size_t i, done = 0;
	long rep;
	int rc;

	for (rep = 0; rep < reps; rep++)
		for (i = 0; i < pl->n; i++) {
			progress(r, done++, pl->n * (size_t)reps, started);
			rc = run_point(r, &pl->pt[i], share, &t);
			if (rc != 0) {
				if (r->rank == 0)
					fprintf(stderr, "mcastlat-probe: cannot "
						"force algorithm %d (MPI_T error "
						"%d)\n", pl->pt[i].algorithm, rc);
				return 1;
			}
			if (r->rank == 0)
				write_row(r, &pl->pt[i], &t);
		}
	progress(r, done, done, started);
	return 0;
}

/* Rank 0: the rows to FILE through a temporary file renamed onto it, or
 * to stdout; 0, or 1 with a message. */
static int write_output(struct run *r, const char *path)
{
	char *tmp;
	FILE *f;
	int fd, bad;

	if (fclose(r->csv) != 0)
		return fprintf(stderr, "mcastlat-probe: out of memory\n"), 1;
	r->csv = NULL;
	if (path == NULL) {
		bad = fwrite(r->csv_text, 1, r->csv_len, stdout) != r->csv_len ||
		      fflush(stdout) != 0;
		if (bad)
			fprintf(stderr, "mcastlat-probe: writing: %s\n",
				strerror(errno));
		return bad;
	}
	tmp = malloc(strlen(path) + 8);
	if (tmp == NULL)
		return fprintf(stderr, "mcastlat-probe: out of memory\n"), 1;
	sprintf(tmp, "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	bad = f == NULL ||
	      fwrite(r->csv_text, 1, r->csv_len, f) != r->csv_len;
	if (f != NULL)
		bad = fclose(f) != 0 || bad;
	else if (fd >= 0)
		close(fd);
	if (!bad && rename(tmp, path) != 0)
		bad = 1;
	if (bad) {
		fprintf(stderr, "mcastlat-probe: '%s': %s\n", path,
			strerror(errno));
		if (fd >= 0)
			unlink(tmp);
	}
	free(tmp);
	return bad;
}

/* The string value of an MPI_T control variable, or NULL. */
static char *cvar_string(const char *name)
{
	MPI_T_cvar_handle h;
	int index, count;
	char *s;

	if (MPI_T_cvar_get_index(name, &index) != MPI_SUCCESS ||
	    MPI_T_cvar_handle_alloc(index, NULL, &h, &count) != MPI_SUCCESS)
		return NULL;
	s = calloc((size_t)count + 2, 1);
	if (s != NULL && MPI_T_cvar_read(h, s) != MPI_SUCCESS) {
		free(s);
		s = NULL;
	}
	MPI_T_cvar_handle_free(&h);
	return s;
}

/* A bool MPI_T control variable (Open MPI reads one into the first byte
 * of an int: zeroed first); -1 when absent. */
static int cvar_bool(const char *name)
{
	MPI_T_cvar_handle h;
	int index, count, v = 0;

	if (MPI_T_cvar_get_index(name, &index) != MPI_SUCCESS ||
	    MPI_T_cvar_handle_alloc(index, NULL, &h, &count) != MPI_SUCCESS)
		return -1;
	if (MPI_T_cvar_read(h, &v) != MPI_SUCCESS)
		v = -1;
	MPI_T_cvar_handle_free(&h);
	return v < 0 ? -1 : v != 0;
}

/* What Open MPI offers: its knobs act only under dynamic rules; a rules
 * file, when one is loaded, overrides them. */
static void find_library(struct run *r)
{
	char *rules;

	probe_tuned_open(&r->tuned);
	if (r->tuned.ok && cvar_bool("coll_tuned_use_dynamic_rules") != 1) {
		probe_tuned_close(&r->tuned);
		if (r->rank == 0)
			fprintf(stderr, "mcastlat-probe: note: "
				"coll_tuned_use_dynamic_rules is off: no "
				"algorithm can be forced\n");
	}
	rules = cvar_string("coll_tuned_dynamic_rules_filename");
	r->rules = r->tuned.ok && rules != NULL && rules[0] != '\0';
	if (r->rules && r->rank == 0)
		fprintf(stderr, "mcastlat-probe: note: rules file '%s' "
			"loaded: Open MPI's choices are its; rows say "
			"algorithm=rules\n", rules);
	free(rules);
}

static int probe(int argc, char **argv, struct run *r)
{
	struct plan pl = {0};
	struct opts o;
	char err[128];
	int rc;

	rc = parse_opts(argc, argv, &o, r->rank);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	if (probe_machine_find(r->world, &r->machine, err, sizeof err) != 0) {
		fprintf(stderr, "mcastlat-probe: %s\n", err);
		return 1;
	}
	find_library(r);
	if (make_plan(&o, r, &pl) != 0) {
		rc = 2;
	} else {
		if (r->rank == 0)
			fprintf(stderr, "mcastlat-probe: %d nodes, %d sockets "
				"x %d ranks each%s; %zu points x %ld, about "
				"%.0f s\n", r->machine.nodes,
				r->machine.sockets, r->machine.per_socket,
				r->machine.bound ? "" : " (ranks not bound: "
				"mpirun --bind-to core)", pl.n, o.reps,
				o.budget);
		if (r->rank == 0) {
			r->csv = open_memstream(&r->csv_text, &r->csv_len);
			if (r->csv == NULL)
				MPI_Abort(r->world, 1);
			fputs(csv_header, r->csv);
		}
		rc = run_plan(r, &pl, o.reps, o.budget);
		if (rc == 0 && r->rank == 0)
			rc = write_output(r, o.output);
		MPI_Bcast(&rc, 1, MPI_INT, 0, r->world);
	}
	if (r->csv != NULL)
		fclose(r->csv);
	free(r->csv_text);
	free(pl.pt);
	probe_tuned_close(&r->tuned);
	probe_machine_free(&r->machine);
	return rc;
}

int main(int argc, char **argv)
{
	struct run r = {.world = MPI_COMM_WORLD};
	int provided, rc;

	/* Open MPI forces an algorithm only under dynamic rules, a variable
	 * MPI_T cannot set: read from the environment at MPI_Init.  With
	 * no rules file and nothing forced, its decision is the default. */
	setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", 0);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
	if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
		if (r.rank == 0)
			fprintf(stderr, "mcastlat-probe: MPI_T_init_thread "
				"failed\n");
		MPI_Finalize();
		return 1;
	}
	rc = probe(argc, argv, &r);
	MPI_T_finalize();
	MPI_Finalize();
	return rc;
}
