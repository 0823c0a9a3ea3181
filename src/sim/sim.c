/*
 * sim.c - the simulator's public entry points (include/mcastlat/sim.h):
 * defaults, validation, the cycle loop with its stopping rules
 * (SPEC 7.3), and replications.
 *
 * Stopping.  Generated traffic: whenever the batches of the quantity
 * the run is about (ci_on: all messages, or multicasts) fill (stats.c),
 * once min_messages have been measured, a calm look after the first
 * whose interval meets the target stops the run with ML_OK; a first
 * look that meets it, and a skewed look (near saturation) that does
 * not, is instead a pilot that fixes the length and the batch size of
 * a second stage that measures afresh (converged(), restart()); the
 * run then stops with ML_OK at that length; with cycles set instead, it
 * stops with ML_OK exactly cycles after the first measured message was
 * generated (max_cycles then bounds the warm-up).
 * It stops with ML_SATURATED as soon as the
 * source queues hold more than max_queue messages, or (tested every 1024
 * cycles) when at least SAT_MIN measured messages have been generated and
 * the accepted traffic has stayed below the offered by more than 5 % at
 * every test while the measurement window doubled, 8 tests at least (one
 * test is not enough: a broadcast offers its (N - 1) M flits at once, and
 * on a 256-node cube a few broadcasts too many in a short window looked
 * like saturation on a network that carries the load); at max_cycles it
 * stops with ML_ENOCONV, keeping what it measured (run_one()).
 * accepted_min and accepted_max come from a count of measured flits per
 * node.  Deadlock (flits in the network, none moved
 * for 10 (M + diameter + 100) + R cycles, + prune_wait for trees with pruning)
 * is checked every cycle from the start and wins over everything.  A trace runs
 * until every message is complete (ML_OK), or max_cycles, deadlock or
 * max_queue.  Idle stretches (no flit anywhere) are skipped to the next
 * generation.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/mcast.h"
#include "sim/simint.h"

#define SAT_MIN	       2000  /* measured messages before the throughput test */
#define SAT_EVERY      1024  /* cycles between throughput tests */
#define PROGRESS_EVERY 16384 /* cycles between progress calls */


void ml_sim_params_init(struct ml_sim_params *p, enum ml_sim_topology topology)
{
	int cube = topology == ML_SIM_HYPERCUBE;

	memset(p, 0, sizeof(*p));
	p->topology = topology;
	p->k = 8;
	p->dims = 2;
	p->routing = cube ? ML_SIM_DUATO : ML_SIM_DOR;
	p->vcs = topology == ML_SIM_MESH ? 1 : 2;
	p->buffer = 2;
	p->ports = cube ? ML_SIM_ALL : 1;
	p->router_cycles = cube ? 0 : 2;
	p->rate = 0.001;
	p->flits = 32;
	p->unicast_flits = 0;
	p->beta = 0;
	p->dests = ML_SIM_ALL;
	p->multicast = ML_SIM_BINOMIAL;
	p->pattern = ML_SIM_UNIFORM;
	p->hotspot = 0;
	p->hotspot_fraction = 0.1;
	p->delta = 0;
	p->seed = 1;
	p->aux = 0;
	p->prune_wait = 1;
	p->pruning = 1;
	p->prep_cycles = 0;
	p->warmup = 20000;
	p->ci = 0.02;
	p->ci_on = ML_SIM_CI_ALL;
	p->min_messages = 5000; /* converged() says why */
	p->cycles = 0;
	p->max_cycles = 10000000ULL;
	p->max_queue = 100000;
	p->replications = 1;
}

/* ------------------------------------------------------------------ */
/* Validation. */

static unsigned nodes_of(const struct ml_sim_params *p)
{
	unsigned long long N = 1;
	unsigned k = p->topology == ML_SIM_HYPERCUBE ? 2 : p->k, d;

	for (d = 0; d < p->dims && N <= SIM_MAX_NODES; d++)
		N *= k;
	return N > SIM_MAX_NODES ? 0 : (unsigned)N;
}

static enum ml_status check_trace(const struct ml_sim_params *p, unsigned N,
				  struct ml_diag *d)
{
	unsigned char *seen;
	size_t i;
	unsigned j;
	enum ml_status st = ML_OK;

	if (p->ntrace && !p->trace)
		return ml_diag_set(d, "trace", "no messages");
	seen = calloc(N, 1);
	if (!seen)
		return ML_ENOMEM;
	for (i = 0; i < p->ntrace && st == ML_OK; i++) {
		const struct ml_sim_trace_msg *m = &p->trace[i];

		if (i > 0 && m->cycle < p->trace[i - 1].cycle)
			st = ml_diag_set(d, "trace",
					 "message %zu: cycles not sorted",
					 i + 1);
		else if (m->source >= N)
			st = ml_diag_set(d, "trace",
					 "message %zu: source %u is not a node "
					 "(0..%u)",
					 i + 1, m->source, N - 1);
		else if (m->flits < 1 || m->flits > 65535)
			st = ml_diag_set(
			    d, "trace",
			    "message %zu: flits %u outside 1..65535", i + 1,
			    m->flits);
		else if (m->ndests > 1 && p->multicast >= ML_SIM_TREE &&
			 (m->flits < 2 || m->flits - 1 + m->ndests > 65535))
			st = ml_diag_set(d, "trace",
					 "message %zu: a hardware multicast "
					 "needs 2..%u flits",
					 i + 1, 65536 - m->ndests);
		else if (m->ndests < 1 || m->ndests > N - 1 || !m->dests)
			st = ml_diag_set(d, "trace",
					 "message %zu: %u destinations, need "
					 "1..%u",
					 i + 1, m->ndests, N - 1);
		for (j = 0; st == ML_OK && j < m->ndests; j++) {
			unsigned x = m->dests[j];

			if (x >= N || x == m->source || seen[x])
				st = ml_diag_set(d, "trace",
						 "message %zu: destination %u "
						 "is not another distinct node",
						 i + 1, x);
			else
				seen[x] = 1;
		}
		for (j = 0; j < m->ndests && m->dests; j++)
			if (m->dests[j] < N)
				seen[m->dests[j]] = 0;
	}
	free(seen);
	return st;
}

enum ml_status ml_sim_validate(const struct ml_sim_params *p, struct ml_diag *d)
{
	unsigned N, P, maxv;
	int torus = p->topology == ML_SIM_TORUS;

	if (p->topology != ML_SIM_MESH && !torus &&
	    p->topology != ML_SIM_HYPERCUBE)
		return ml_diag_set(d, "topology", "unknown topology");
	if (p->topology != ML_SIM_HYPERCUBE && p->k < 2)
		return ml_diag_set(d, "k", "%u must be >= 2", p->k);
	if (torus && p->k == 2)
		return ml_diag_set(d, "k",
				   "a torus with k = 2 duplicates "
				   "links: use --topology hypercube");
	if (p->dims < 1 || p->dims > SIM_MAX_DIMS || (torus && p->dims > 16))
		return ml_diag_set(d, "dims", "%u must be in 1..%u", p->dims,
				   torus ? 16 : SIM_MAX_DIMS);
	N = nodes_of(p);
	if (N == 0)
		return ml_diag_set(d, "dims", "more than %u nodes",
				   SIM_MAX_NODES);
	P = p->topology == ML_SIM_HYPERCUBE ? p->dims : 2 * p->dims;
	if (p->vcs >= 1 && p->vcs <= SIM_MAX_VCS &&
	    (unsigned long long)N * 2 * P * p->vcs > SIM_MAX_VC_TOTAL)
		return ml_diag_set(d, "dims",
				   "%u nodes with %u virtual "
				   "channels per port: more than %u virtual "
				   "channels in all",
				   N, p->vcs, SIM_MAX_VC_TOTAL);
	if (p->routing != ML_SIM_DOR && p->routing != ML_SIM_DUATO)
		return ml_diag_set(d, "routing", "unknown routing");
	if (p->vcs < 1 || p->vcs > SIM_MAX_VCS)
		return ml_diag_set(d, "vcs", "%u must be in 1..%u", p->vcs,
				   SIM_MAX_VCS);
	if (p->routing == ML_SIM_DOR && torus && p->vcs < 2)
		return ml_diag_set(d, "vcs",
				   "dor on a torus needs 2 virtual "
				   "channels (dateline), got %u",
				   p->vcs);
	maxv = torus ? 3 : 2;
	if (p->routing == ML_SIM_DUATO && p->vcs < maxv)
		return ml_diag_set(d, "vcs",
				   "duato on a %s needs >= %u virtual "
				   "channels (adaptive and escape), got %u",
				   torus			? "torus"
				   : p->topology == ML_SIM_MESH ? "mesh"
								: "hypercube",
				   maxv, p->vcs);
	if (p->buffer < 1 || p->buffer > SIM_MAX_BUFFER)
		return ml_diag_set(d, "buffer", "%u must be in 1..%u",
				   p->buffer, SIM_MAX_BUFFER);
	if (p->ports != ML_SIM_ALL && p->ports > P)
		return ml_diag_set(d, "ports",
				   "%u exceeds the %u network "
				   "channels of a node",
				   p->ports, P);
	if (p->router_cycles > 1000)
		return ml_diag_set(d, "router-cycles", "%u exceeds 1000",
				   p->router_cycles);
	if (!(p->rate > 0 && p->rate <= 1))
		return ml_diag_set(d, "rate", "must be in (0, 1]");
	if (p->flits < 1 || p->flits > 65535)
		return ml_diag_set(d, "flits", "%u must be in 1..65535",
				   p->flits);
	if (p->unicast_flits > 65535)
		return ml_diag_set(d, "unicast-flits", "%u exceeds 65535",
				   p->unicast_flits);
	if (!(p->beta >= 0 && p->beta <= 1))
		return ml_diag_set(d, "beta", "must be in [0, 1]");
	if (p->dests != ML_SIM_ALL && p->dests > N - 1)
		return ml_diag_set(d, "dests", "%u exceeds the %u other nodes",
				   p->dests, N - 1);
	if (p->multicast > ML_SIM_PM)
		return ml_diag_set(d, "multicast", "unknown mechanism");
	if (p->multicast == ML_SIM_TREE) { /* SPEC 8, notes section 3 */
		if (p->topology == ML_SIM_HYPERCUBE || p->routing != ML_SIM_DOR)
			return ml_diag_set(d, "multicast",
					   "tree needs a mesh or "
					   "torus with dor routing");
		if (p->aux && p->aux < p->flits - 1)
			return ml_diag_set(d, "aux",
					   "%u flits cannot hold the "
					   "%u data flits of a multicast",
					   p->aux, p->flits - 1);
	}
	if ((p->multicast == ML_SIM_DUAL_PATH || p->multicast == ML_SIM_PM) &&
	    (p->topology != ML_SIM_MESH || p->dims != 2))
		return ml_diag_set(d, "multicast", "%s needs a 2-D mesh",
				   p->multicast == ML_SIM_PM ? "pm"
							     : "dual-path");
	if (p->multicast == ML_SIM_DUAL_PATH && p->ports != ML_SIM_ALL &&
	    p->ports < 2)
		return ml_diag_set(d, "ports",
				   "dual-path needs 2 delivery "
				   "channels, one per class (high and low "
				   "worms), got %u",
				   p->ports);
	if (p->multicast >= ML_SIM_TREE && p->beta > 0 && !p->trace &&
	    (p->dests == ML_SIM_ALL ? N - 1 : p->dests) + p->flits - 1 > 65535)
		return ml_diag_set(d, "flits",
				   "a hardware multicast worm "
				   "(addresses and data) exceeds 65535 flits");
	if (p->multicast >= ML_SIM_TREE && p->flits < 2 && p->beta > 0 &&
	    !p->trace)
		return ml_diag_set(d, "flits",
				   "a hardware multicast needs "
				   "data: 2 flits or more");
	if (p->prep_cycles > 1000000)
		return ml_diag_set(d, "prep-cycles", "%u exceeds 10^6",
				   p->prep_cycles);
	if ((unsigned)p->pattern > ML_SIM_HOTSPOT)
		return ml_diag_set(d, "pattern", "unknown pattern");
	if (p->pattern == ML_SIM_TORNADO &&
	    (p->topology == ML_SIM_HYPERCUBE || p->k < 3))
		return ml_diag_set(d, "pattern",
				   "tornado needs k >= 3 (it maps "
				   "every node to itself when k = 2)");
	if (p->pattern == ML_SIM_HOTSPOT && p->hotspot >= N)
		return ml_diag_set(d, "hotspot", "%u is not a node (0..%u)",
				   p->hotspot, N - 1);
	if (!(p->hotspot_fraction >= 0 && p->hotspot_fraction <= 1))
		return ml_diag_set(d, "hotspot-fraction", "must be in [0, 1]");
	if (p->delta > 1000000)
		return ml_diag_set(d, "delta", "%u exceeds 10^6", p->delta);
	if (!(p->ci > 0 && p->ci < 1))
		return ml_diag_set(d, "ci", "must be in (0, 1)");
	if (p->ci_on != ML_SIM_CI_ALL && p->ci_on != ML_SIM_CI_MULTICAST)
		return ml_diag_set(d, "ci-on", "unknown quantity");
	if (p->ci_on == ML_SIM_CI_MULTICAST && !(p->beta > 0) && !p->trace)
		return ml_diag_set(d, "ci-on",
				   "multicast needs multicasts (--beta > 0)");
	if (p->max_cycles < 1)
		return ml_diag_set(d, "max-cycles", "must be >= 1");
	if (p->max_queue < 1)
		return ml_diag_set(d, "max-queue", "must be >= 1");
	if (p->replications < 1 || p->replications > 10000)
		return ml_diag_set(d, "replications", "%u must be in 1..10000",
				   p->replications);
	if (p->trace || p->ntrace)
		return check_trace(p, N, d);
	return ML_OK;
}

/* ------------------------------------------------------------------ */
/* One run. */

static void sim_free(struct sim *s)
{
	ml_mc_free(s);
	ml_net_free(s);
	ml_traffic_free(s);
	ml_topo_free(&s->t);
	if (s->rng)
		gsl_rng_free(s->rng);
}

/* The hardware multicast mechanism of --multicast, whose hooks the
 * router calls (sim/mcast.h), or NULL: unicasts and software multicast
 * need none. */
static const struct ml_mc_ops *mc_mechanism(const struct ml_sim_params *p)
{
	switch (p->multicast) {
	case ML_SIM_TREE:
		return &ml_mc_tree;
	case ML_SIM_DUAL_PATH:
	case ML_SIM_PM:
		return &ml_mc_path;
	default:
		return NULL;
	}
}

static int sim_init(struct sim *s, const struct ml_sim_params *p,
		    unsigned long seed)
{
	memset(s, 0, sizeof(*s));
	s->p = p;
	s->V = p->vcs;
	s->B = p->buffer;
	s->R = p->router_cycles;
	s->msg_free = s->op_free = SIM_NONE;
	if (ml_topo_init(&s->t, p))
		return -1;
	ml_route_config(&s->rc, &s->t, p->routing, p->vcs);
	s->nvc_node = s->t.nport * s->V;
	s->rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!s->rng)
		return -1;
	gsl_rng_set(s->rng, seed);
	if (ml_net_init(s) || ml_traffic_init(s) ||
	    ml_mc_init(s, mc_mechanism(p)))
		return -1;
	ml_batches_init(&s->bat, p->trace != NULL);
	ml_batches_init(&s->bat_u, p->trace != NULL);
	ml_batches_init(&s->bat_m, p->trace != NULL);
	ml_batches_init(&s->bat_md, p->trace != NULL);
	s->epoch = 1;
	return 0;
}

/* One saturation test (every SAT_EVERY cycles, and at the end): 1 when
 * the point is saturated.  Not a pure predicate: it keeps short_since,
 * the start of the current run of failed throughput tests. */
static int saturation_test(struct sim *s)
{
	if (s->queued > s->p->max_queue)
		return 1;
	if (s->p->trace || !s->measuring || s->meas_generated < SAT_MIN)
		return 0;
	if (s->accepted_flits >= 0.95 * s->offered_flits) {
		s->short_since = 0;
		return 0;
	}
	/* Short since short_since: saturated once the window is twice as
	 * long as it was then, and at least 8 tests later (a 256-node
	 * cube generates SAT_MIN messages in a few hundred cycles, so
	 * doubling alone is a short wait).  A burst's deficit shrinks as
	 * the window grows; a saturated network's does not. */
	if (s->short_since == 0)
		s->short_since = s->now;
	return s->now - s->meas_start >= 2 * (s->short_since - s->meas_start) &&
	       s->now - s->short_since >= 8 * SAT_EVERY;
}

/* The 95 % half-width of a latency column, as reported. */
static double half_of(const struct batches *b)
{
	double mean, half;

	ml_batches_ci_report(b, &mean, &half);
	return half;
}

/* Messages of the quantity the stopping rule judges. */
static unsigned long long driver_n(const struct sim *s)
{
	return s->p->ci_on == ML_SIM_CI_MULTICAST ? s->mlat.n : s->lat.n;
}

/* The batches of the quantity the stopping rule judges, and how many
 * messages they hold. */
static const struct batches *driver(const struct sim *s, unsigned long long *n)
{
	if (s->p->ci_on == ML_SIM_CI_MULTICAST) {
		*n = s->mlat.n;
		return &s->bat_m;
	}
	*n = s->lat.n;
	return &s->bat;
}

static void fill(const struct sim *s, struct ml_sim_result *r)
{
	double win = (double)(s->now - s->meas_start);
	uint64_t lo = UINT64_MAX, hi = 0;
	unsigned i;

	r->latency = acc_mean(&s->lat);
	r->latency_ci = half_of(&s->bat);
	r->unicast_latency = acc_mean(&s->ulat);
	r->unicast_latency_ci = half_of(&s->bat_u);
	r->multicast_latency = acc_mean(&s->mlat);
	r->multicast_latency_ci = half_of(&s->bat_m);
	r->multicast_latency_dest = acc_mean(&s->mdest);
	r->multicast_latency_dest_ci = half_of(&s->bat_md);
	for (i = 0; i < s->t.N; i++) {
		lo = s->node_flits[i] < lo ? s->node_flits[i] : lo;
		hi = s->node_flits[i] > hi ? s->node_flits[i] : hi;
	}
	if (s->measuring && win > 0) {
		r->offered = s->offered_flits / (win * s->t.N);
		r->accepted = s->accepted_flits / (win * s->t.N);
		r->accepted_min = (double)lo / win;
		r->accepted_max = (double)hi / win;
	} else {
		r->offered = r->accepted = NAN;
		r->accepted_min = r->accepted_max = NAN;
	}
	r->hops = acc_mean(&s->hops);
	r->prunings = s->prune.n ? acc_mean(&s->prune) : s->mlat.n ? 0.0 : NAN;
	r->branches = s->branch.n ? acc_mean(&s->branch)
		      : s->mlat.n ? 0.0
				  : NAN;
	r->channels = acc_mean(&s->chan);
	r->cycles = s->now;
	r->messages = s->lat.n;
}

static void progress(const struct sim *s, unsigned rep)
{
	const struct ml_sim_params *p = s->p;
	double f = (double)s->now / (double)p->max_cycles, mean, half;
	unsigned long long n;

	if (p->progress_info) {
		p->progress_info->cycles = s->now;
		p->progress_info->rep = rep;
		p->progress_info->half_rel = NAN;
	}
	if (p->cycles) {
		f = s->measuring
			? (double)(s->now - s->meas_start) / (double)p->cycles
			: 0;
	} else if (!p->trace) {
		ml_batches_ci(driver(s, &n), &mean, &half);
		if (!(half > 0) && s->epoch > 1) {
			/* the second stage has no interval yet: the pilot's */
			int mc = p->ci_on == ML_SIM_CI_MULTICAST;

			mean =
			    mc ? s->pilot.multicast_latency : s->pilot.latency;
			half = mc ? s->pilot.multicast_latency_ci
				  : s->pilot.latency_ci;
		}
		if (p->progress_info && half > 0 && mean > 0)
			p->progress_info->half_rel = half / mean;
		/* the share of the length the pilot fixed, or before the
		 * pilot the share the interval suggests */
		double g = s->need > 0		  ? (double)n / s->need
			   : half > 0 && mean > 0 ? (p->ci * mean / half) *
							(p->ci * mean / half)
						  : 0;

		if (g > 0.99)
			g = 0.99;
		if (g > f)
			f = g;
	} else if (p->ntrace) {
		double g = (double)s->trace_next / (double)p->ntrace;

		if (g > f)
			f = g;
	}
	if (f > 1)
		f = 1;
	p->progress(p->progress_arg, (rep + f) / p->replications);
}

static unsigned max_flits(const struct ml_sim_params *p)
{
	unsigned m = p->flits > p->unicast_flits ? p->flits : p->unicast_flits;
	size_t i;

	for (i = 0; p->trace && i < p->ntrace; i++)
		if (p->trace[i].flits > m)
			m = p->trace[i].flits;
	return m;
}

/* Cycles without a move that make a deadlock: SPEC 7.3's 10 (M +
 * diameter + 100), plus R (a header that waits R cycles in a router is
 * not stuck), plus, for trees with pruning, prune_wait (a worm blocked
 * that long prunes, which resolves what would otherwise be a deadlock,
 * 004 section 3). */
static uint64_t deadlock_cycles(const struct sim *s)
{
	const struct ml_sim_params *p = s->p;
	uint64_t thr = 10ULL * (max_flits(p) + s->t.diameter + 100) + s->R;

	if (p->multicast == ML_SIM_TREE && p->pruning)
		thr += p->prune_wait;
	return thr;
}

static void one_cycle(struct sim *s)
{
	if (s->mc && s->mc->ops->cycle) /* end marks of tree branches */
		s->mc->ops->cycle(s);
	/* routers activated by an arrival in this pass hold only flits that
	 * arrived this cycle: nothing to do for them until the next */
	ml_net_routers_cycle(s, s->nact);
	ml_net_inject_phase(s);
	ml_net_compact(s);
}

/* The pilot's messages join the warm-up: the second stage measures
 * afresh, counting only the messages generated from now on (their
 * epoch); the messages of the pilot still in flight are not counted. */
static void restart(struct sim *s)
{
	int trace = s->p->trace != NULL;

	s->epoch++;
	memset(&s->lat, 0, sizeof(s->lat));
	s->ulat = s->mlat = s->mdest = s->hops = s->chan = s->lat;
	s->prune = s->branch = s->lat;
	ml_batches_init(&s->bat, trace);
	ml_batches_init(&s->bat_u, trace);
	ml_batches_init(&s->bat_m, trace);
	ml_batches_init(&s->bat_md, trace);
	s->offered_flits = s->accepted_flits = 0;
	memset(s->node_flits, 0, s->t.N * sizeof(*s->node_flits));
	s->meas_start = s->now;
	s->meas_generated = 0;
	s->short_since = 0;
}

/* The stopping rule (its decision at a look: stats.c, ml_stop_rule()),
 * looked at when the quantity's batches fill (run lengths that double),
 * once min_messages = 5000 messages of any kind have been measured.
 *
 * 1. A look whose batches give the rule's interval (stats.c: at least
 *    SIM_NB_TEST batches that passed the test of independence, with
 *    batches of m_test messages) is calm when the first-order stopping
 *    bias (below) is at most CALM_BIAS = 0.1 standard errors whatever
 *    the stop (ml_bm_calm(): near-normal batch means).  A calm look
 *    after the first stops the run when its half-width meets the target
 *    (SPEC 7.3's rule), else the run goes on to the next look.
 * 2. The first look never stops the run.  If it meets the target (with
 *    the rule's interval, or with SIM_NB_FIRST = 64 to 127 tested
 *    groups) it is the pilot of a second stage as long as itself; if it
 *    does not, it lets the run go on where it is calm or has fewer
 *    groups than the rule's, and is a pilot (below) where it is skewed.
 * 3. A pilot, after Stein (Ann. Math. Statist. 16, 1945), fixes a second
 *    stage of n = max(n_pilot (half / (ci mean))^2, n_pilot) messages of
 *    the quantity, measured afresh (restart(): the pilot's messages join
 *    the warm-up), in batches of at least m_test messages, not tested
 *    again; the run stops when they are measured, whatever their
 *    interval (the target on average).  A later look that is not calm
 *    is a pilot too.
 *
 * Why.  A run whose length depends on its own data is biased wherever
 * its estimates of the mean and of the variance (or its test of
 * independence) are correlated with the mean, as they are near
 * saturation, where a long excursion raises the mean and the variance
 * and fails the test: the run stops when all are low.  For Stein's rule
 * with the pilot's data kept, the bias is, to first order, -gamma
 * sqrt(n_pilot / n) / sqrt(k) standard errors of the final estimate
 * (gamma: skewness of the pilot's k batch means; the covariance of a
 * mean and a variance estimate is the third central moment over k), and
 * a sequential stop at a look that meets the target has a bias of the
 * same order: 16 batches and gamma near 3 make it about -0.8, as issue
 * 28 measured; 128 batches and gamma under 0.8, under 0.1: hence calm
 * looks may stop.  The first look is where that bound fails: a look of
 * a length fixed in advance, whose stop depends on its variance alone,
 * still selects the runs with a low mean where about half of them stop
 * there (a 4x4 torus at 75 % of saturation, --ci 0.05, warm-up 200000:
 * 31.55 against a long-run 31.66 when first looks that met the target
 * stopped; 31.64 with them as pilots).  Pilots' data are never kept:
 * the second stage's data play no part in choosing its length or its
 * batches, so its mean carries no stopping bias.  The price is a second
 * stage whose interval is the target on average, wider in a run that met
 * an excursion its pilot did not.  min_messages 5000 (it was 20000) keeps
 * a pilot and its second stage at half saturation about as long as one
 * first look was. */
static int converged(struct sim *s)
{
	unsigned long long n;
	const struct batches *b = driver(s, &n);
	unsigned long m;
	double need;
	int first, look;

	if (s->need > 0)
		return (double)n >= s->need;
	if (s->lat.n < s->p->min_messages)
		return 0;
	first = !s->looked;
	s->looked = 1;
	look = ml_stop_rule(b, n, first, s->p->ci, &need, &m);
	if (look != ML_LOOK_PILOT)
		return look == ML_LOOK_STOP;
	s->need = need;
	fill(s, &s->pilot);
	s->pilot_n = n;
	restart(s);
	if (s->p->ci_on == ML_SIM_CI_MULTICAST)
		s->bat_m.fixed_m = m;
	else
		s->bat.fixed_m = m;
	return 0;
}

static enum ml_status run_loop(struct sim *s, unsigned rep)
{
	const struct ml_sim_params *p = s->p;
	uint64_t thr = deadlock_cycles(s);
	uint64_t next_prog = PROGRESS_EVERY, next_sat = SAT_EVERY, end;
	struct batches *drive =
	    p->ci_on == ML_SIM_CI_MULTICAST ? &s->bat_m : &s->bat;

	for (;;) {
		if (p->trace && s->trace_next == p->ntrace &&
		    s->outstanding == 0)
			return ML_OK;
		/* a fixed-length run ends N cycles after the measurement
		 * began; max_cycles bounds its warm-up */
		end = p->cycles && s->measuring ? s->meas_start + p->cycles
						: p->max_cycles;
		if (s->now >= end) {
			if (!(p->cycles && s->measuring))
				return ML_ENOCONV;
			return saturation_test(s) ? ML_SATURATED : ML_OK;
		}
		if (s->nact == 0 && s->ninj_act == 0) {
			uint64_t nx = ml_traffic_next_event(s);

			if (nx > s->now) {
				s->now = nx < end ? nx : end;
				continue;
			}
		}
		if (ml_traffic_generate(s))
			return ML_ENOMEM;
		one_cycle(s);
		if (s->failed)
			return ML_ENOMEM;
		s->now++;
		if (s->flits_in_net && s->now - s->last_move > thr)
			return ML_DEADLOCK;
		if (p->progress && s->now >= next_prog) {
			next_prog = s->now + PROGRESS_EVERY;
			progress(s, rep);
		}
		if (s->queued > p->max_queue)
			return ML_SATURATED;
		if (p->trace)
			continue;
		/* the pilot looks when the batches fill; the second stage
		 * stops when it has measured what the pilot asked for */
		if (drive->fresh && s->need == 0) {
			drive->fresh = 0;
			if (!p->cycles && converged(s))
				return saturation_test(s) ? ML_SATURATED
							  : ML_OK;
		} else if (s->need > 0 && (double)driver_n(s) >= s->need &&
			   converged(s)) {
			return saturation_test(s) ? ML_SATURATED : ML_OK;
		}
		if (s->now >= next_sat) {
			next_sat = s->now + SAT_EVERY;
			if (saturation_test(s))
				return ML_SATURATED;
		}
	}
}

static enum ml_status run_one(const struct ml_sim_params *p, unsigned long seed,
			      unsigned rep, struct ml_sim_result *res,
			      const struct sim_hooks *h,
			      struct sim_counters *cnt)
{
	struct sim *s = malloc(sizeof(*s));
	enum ml_status st;

	if (!s)
		return ML_ENOMEM;
	if (sim_init(s, p, seed)) {
		sim_free(s);
		free(s);
		return ML_ENOMEM;
	}
	s->hooks = h;
	st = run_loop(s, rep);
	if (st != ML_ENOMEM)
		fill(s, res);
	/* cut in the second stage before it measured as much as the pilot,
	 * or before its own interval: the pilot's results, the cycles run */
	if (st == ML_ENOCONV && s->epoch > 1 &&
	    (driver_n(s) < s->pilot_n ||
	     !isfinite(s->p->ci_on == ML_SIM_CI_MULTICAST
			   ? res->multicast_latency_ci
			   : res->latency_ci))) {
		*res = s->pilot;
		res->cycles = s->now;
	}
	if (cnt)
		*cnt = s->cnt;
	sim_free(s);
	free(s);
	return st;
}

/* ------------------------------------------------------------------ */
/* Replications. */

/* Seed of replication i: the given seed for the first, then SplitMix64
 * steps from it, so replications are independent and reproducible. */
static unsigned long rep_seed(unsigned long seed, unsigned i)
{
	uint64_t z;

	if (i == 0)
		return seed;
	z = (uint64_t)seed + (uint64_t)i * 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (unsigned long)(z & 0xffffffffUL);
}

static int worse(enum ml_status a, enum ml_status b)
{
	static const int rank[] = {
	    [ML_OK] = 0,       [ML_ENOCONV] = 1, [ML_SATURATED] = 2,
	    [ML_DEADLOCK] = 3, [ML_EINVAL] = 4,	 [ML_ENOMEM] = 5,
	    [ML_OVERFLOW] = 1,
	};

	return rank[a] > rank[b];
}

/* Mean and 95 % half-width across replications of one column, NaN
 * values (a replication without multicasts) left out. */
struct across {
	double sum, sq;
	unsigned n;
};

static void across_add(struct across *a, double x)
{
	if (isnan(x))
		return;
	a->sum += x;
	a->sq += x * x;
	a->n++;
}

static double across_mean(const struct across *a)
{
	return a->n ? a->sum / a->n : NAN;
}

static double across_half(const struct across *a)
{
	double m = across_mean(a);

	if (a->n < 2)
		return NAN;
	return ml_t_half(sqrt(fmax(0, (a->sq - a->n * m * m) / (a->n - 1))),
			 a->n);
}

enum ml_status ml_sim_run_hooked(const struct ml_sim_params *p,
				 struct ml_sim_result *res, struct ml_diag *d,
				 const struct sim_hooks *h,
				 struct sim_counters *cnt)
{
	enum ml_status st = ML_OK, s1;
	struct ml_sim_result r, sum;
	struct across lat = {0}, ulat = {0}, mlat = {0}, mdest = {0};
	unsigned i, R = p->replications;

	if (!(h && h->skip_validate)) {
		st = ml_sim_validate(p, d);
		if (st != ML_OK)
			return st;
	}
	if (R <= 1)
		return run_one(p, p->seed, 0, res, h, cnt);
	memset(&sum, 0, sizeof(sum));
	for (i = 0; i < R; i++) {
		s1 = run_one(p, rep_seed(p->seed, i), i, &r, h, cnt);
		if (s1 == ML_ENOMEM)
			return s1;
		if (worse(s1, st))
			st = s1;
		across_add(&lat, r.latency);
		across_add(&ulat, r.unicast_latency);
		across_add(&mlat, r.multicast_latency);
		across_add(&mdest, r.multicast_latency_dest);
		sum.offered += r.offered;
		sum.accepted += r.accepted;
		sum.accepted_min += r.accepted_min;
		sum.accepted_max += r.accepted_max;
		sum.hops += r.hops;
		sum.prunings += r.prunings;
		sum.branches += r.branches;
		sum.channels += r.channels;
		sum.cycles += r.cycles;
		sum.messages += r.messages;
	}
	res->latency = across_mean(&lat);
	res->latency_ci = across_half(&lat);
	res->unicast_latency = across_mean(&ulat);
	res->unicast_latency_ci = across_half(&ulat);
	res->multicast_latency = across_mean(&mlat);
	res->multicast_latency_ci = across_half(&mlat);
	res->multicast_latency_dest = across_mean(&mdest);
	res->multicast_latency_dest_ci = across_half(&mdest);
	res->offered = sum.offered / R;
	res->accepted = sum.accepted / R;
	res->accepted_min = sum.accepted_min / R;
	res->accepted_max = sum.accepted_max / R;
	res->hops = sum.hops / R;
	res->prunings = sum.prunings / R;
	res->branches = sum.branches / R;
	res->channels = sum.channels / R;
	res->cycles = sum.cycles;
	res->messages = sum.messages;
	return st;
}

enum ml_status ml_sim_run(const struct ml_sim_params *p,
			  struct ml_sim_result *res, struct ml_diag *d)
{
	return ml_sim_run_hooked(p, res, d, NULL, NULL);
}
