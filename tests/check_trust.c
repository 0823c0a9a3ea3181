/*
 * check_trust.c - how far a collective prediction holds and picks that do
 * no harm (SPEC 10.5): the interval by hand, the error model recovered
 * from data drawn with a known discrepancy, and best among candidates
 * against a brute force over the same candidates.
 */
#include <check.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

#include "mcastlat/collective.h"
#include "mcastlat/fit.h"

/* The interval: sigma^2 = sd^2 + growth^2 log2(P / fit_ranks) beyond
 * the fitted range, sd inside; z(0.90) = 1.6448536269514722. */
START_TEST(test_interval_by_hand)
{
	struct ml_coll_errmodel em;
	double lo, hi, s;

	ml_coll_errmodel_init(&em);
	ck_assert_int_eq(ml_collective_interval(&em, 64, 1, 0.9, 10, &lo, &hi),
			 ML_EINVAL);
	em.fit_ranks = 32;
	em.sd[0] = 0.2;
	em.growth[0] = 0.1;
	em.sd[2] = 0.5;
	/* inside: sigma = 0.2 */
	ck_assert_int_eq(ml_collective_interval(&em, 16, 100, 0.9, 10, &lo, &hi),
			 ML_OK);
	ck_assert_double_eq_tol(lo, 10 * exp(-1.6448536269514722 * 0.2), 1e-12);
	ck_assert_double_eq_tol(hi, 10 * exp(1.6448536269514722 * 0.2), 1e-12);
	/* two doublings beyond: sigma = sqrt(0.04 + 0.01 * 2) */
	s = sqrt(0.06);
	ml_collective_interval(&em, 128, 4096, 0.9, 10, &lo, &hi);
	ck_assert_double_eq_tol(lo, 10 * exp(-1.6448536269514722 * s), 1e-12);
	/* 4097 bytes is the middle class (sd 0): a point interval */
	ml_collective_interval(&em, 16, 4097, 0.9, 10, &lo, &hi);
	ck_assert_double_eq_tol(lo, 10, 1e-12);
	/* > 64 KiB: the large class; z(0.5) = 0.6744897501960817 */
	ml_collective_interval(&em, 16, 65537, 0.5, 10, &lo, &hi);
	ck_assert_double_eq_tol(hi, 10 * exp(0.6744897501960817 * 0.5), 1e-12);
	ck_assert_int_eq(ml_collective_interval(&em, 16, 1, 1.0, 10, &lo, &hi),
			 ML_EINVAL);
}
END_TEST

/* A machine of one rank per node (the network alone). */
static void net_machine(struct ml_collective_params *p)
{
	ml_collective_params_init(p);
	p->lat[ML_COLL_NET] = 2.0;
	p->byte[ML_COLL_NET] = 1e-4;
	p->overhead = 0.5;
}

/*
 * Data drawn with a known discrepancy: for each message size and
 * algorithm, ln(measured / model) is a random walk in log2 P with
 * variance g^2 per doubling, plus independent noise of sd s0 per run.
 * Forward validation must find the growth g (the fit absorbs the walk's
 * level at the cut, not its growth) within a third, and the in-range sd
 * above the noise.
 */
/* Data drawn with a known discrepancy (see the tests below): n points
 * into the arrays (room for DRAWN_MAX), group[] the runs of a point. */
#define DRAWN_NM   24
#define DRAWN_NP   7
#define DRAWN_NA   2
#define DRAWN_NRUN 3
#define DRAWN_MAX  (DRAWN_NM * DRAWN_NP * DRAWN_NA * DRAWN_NRUN + 8)

static size_t draw_data(gsl_rng *rng, double g, double s0,
			struct ml_collective_point *pts, double *y,
			size_t *grp)
{
	static const long long ps[DRAWN_NP] = {2, 4, 8, 16, 32, 64, 128};
	static const enum ml_coll_alg algs[DRAWN_NA] = {ML_COLL_BINOMIAL,
							ML_COLL_BINARY};
	size_t i = 0, m, k, a, r;

	/* ping-pong on the network, for the intercept and slope */
	for (k = 0; k < 8; k++, i++) {
		net_machine(&pts[i].p);
		pts[i].p2p = true;
		pts[i].channel = ML_COLL_NET;
		pts[i].p.msg = 1LL << (2 * k);
		ck_assert_int_eq(ml_collective_p2p(&pts[i].p, ML_COLL_NET,
						   pts[i].p.msg, &y[i]),
				 ML_OK);
		grp[i] = i;
	}
	for (m = 0; m < DRAWN_NM; m++)
		for (a = 0; a < DRAWN_NA; a++) {
			double walk = 0;

			for (k = 0; k < DRAWN_NP; k++) {
				struct ml_collective_result rr;
				size_t first = i;

				if (k > 0)
					walk += gsl_ran_gaussian(rng, g);
				for (r = 0; r < DRAWN_NRUN; r++, i++) {
					net_machine(&pts[i].p);
					pts[i].p.algorithm = algs[a];
					pts[i].p.ranks = ps[k];
					pts[i].p.msg = 1 + (long long)m * 997;
					ck_assert_int_eq(
					    ml_collective_eval(&pts[i].p, &rr),
					    ML_OK);
					y[i] = rr.latency *
					       exp(walk + gsl_ran_gaussian(rng, s0));
					grp[i] = first;
				}
			}
		}
	return i;
}

/* Free what a test of drawn data allocated (use may be NULL). */
static void free_drawn(gsl_rng *rng, struct ml_collective_point *pts,
		       double *y, size_t *grp, bool *use)
{
	gsl_rng_free(rng);
	free(pts);
	free(y);
	free(grp);
	free(use);
}

/*
 * Data drawn with a known discrepancy: for each message size and
 * algorithm, ln(measured / model) is a random walk in log2 P with
 * variance g^2 per doubling, plus independent noise of sd s0 per run.
 * Forward validation must find the growth g (the fit absorbs the walk's
 * level at the cut, not its growth) within a third, and the in-range sd
 * above the noise.
 */
START_TEST(test_errmodel_recovers_growth)
{
	const double g = 0.2, s0 = 0.05;
	struct ml_collective_point *pts = calloc(DRAWN_MAX, sizeof *pts);
	double *y = calloc(DRAWN_MAX, sizeof *y);
	size_t *grp = calloc(DRAWN_MAX, sizeof *grp);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	const char *freeset[] = {"lat-net", "byte-net", "overhead"};
	struct ml_fit_data data = {0};
	struct ml_fit_options o;
	struct ml_fit_result res;
	struct ml_coll_errmodel em;
	struct ml_coll_errfit info;
	struct ml_diag d = {NULL, ""};
	double t;

	gsl_set_error_handler_off();
	gsl_rng_set(rng, 33);
	data.points = pts;
	data.n = draw_data(rng, g, s0, pts, y, grp);
	data.y = y;
	data.group = grp;
	ml_fit_options_init(&o);
	ck_assert_int_eq(ml_fit(&ml_fit_collective, &data, freeset, 3, &o,
				&res, &d),
			 ML_OK);
	ck_assert_int_eq(ml_fit_collective_errmodel(&data, freeset, 3, &o,
						    &res, &em, &info, &d),
			 ML_OK);
	ck_assert_int_eq(em.fit_ranks, 128);
	ck_assert_uint_eq(info.ncuts, 3); /* 64, 32, 16 */
	t = em.growth[0];
	ck_assert_msg(t > g * 0.67 && t < g * 1.33, "growth %g, drawn %g", t,
		      g);
	ck_assert_msg(em.sd[0] > s0, "sd %g below the runs' noise", em.sd[0]);
	/* the two algorithms share nothing of the walk: their difference
	 * grows like sqrt(2) g */
	ck_assert_msg(em.diff_growth > g && em.diff_growth < 2 * g,
		      "difference growth %g", em.diff_growth);
	ml_fit_result_free(&res);
	free_drawn(rng, pts, y, grp, NULL);
}
END_TEST

/*
 * One forward fit is one extrapolation: on data drawn with no growth
 * (g = 0), fitted at P <= 8 (one cut, at 4) the growth is held at the
 * sd at least (the variance doubles per doubling, as with no cut), and
 * so is the difference's; fitted at P <= 16 (two cuts, 8 and 4) the
 * growth is measured, and is below the sd.  Fails if one cut's growth
 * is taken at its word (mcastlat-collective(1), INTERVALS AND PICKS).
 */
START_TEST(test_errmodel_one_cut)
{
	struct ml_collective_point *pts = calloc(DRAWN_MAX, sizeof *pts);
	double *y = calloc(DRAWN_MAX, sizeof *y);
	size_t *grp = calloc(DRAWN_MAX, sizeof *grp), i, k;
	bool *use = calloc(DRAWN_MAX, sizeof *use);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	const char *freeset[] = {"lat-net", "byte-net"};
	struct ml_fit_data data = {0};
	struct ml_fit_options o;
	struct ml_fit_result res;
	struct ml_coll_errmodel em;
	struct ml_coll_errfit info;
	struct ml_diag d = {NULL, ""};
	long long pmax;

	gsl_set_error_handler_off();
	gsl_rng_set(rng, 71);
	data.points = pts;
	data.n = draw_data(rng, 0, 0.05, pts, y, grp);
	data.y = y;
	data.group = grp;
	data.use = use;
	ml_fit_options_init(&o);
	for (pmax = 8; pmax <= 16; pmax *= 2) {
		for (i = 0; i < data.n; i++)
			use[i] = pts[i].p2p || pts[i].p.ranks <= pmax;
		ck_assert_int_eq(ml_fit(&ml_fit_collective, &data, freeset, 2,
					&o, &res, &d),
				 ML_OK);
		ck_assert_int_eq(ml_fit_collective_errmodel(&data, freeset, 2,
							    &o, &res, &em,
							    &info, &d),
				 ML_OK);
		ck_assert_int_eq(em.fit_ranks, pmax);
		ck_assert_uint_eq(info.ncuts, pmax == 8 ? 1 : 2);
		for (k = 0; k < ML_COLL_NCLASS && pmax == 8; k++)
			ck_assert_msg(em.growth[k] >= em.sd[k] && em.sd[k] > 0,
				      "one cut: growth %g below sd %g",
				      em.growth[k], em.sd[k]);
		if (pmax == 8)
			ck_assert(em.diff_growth >= em.diff_sd);
		else
			ck_assert_msg(em.growth[0] < em.sd[0],
				      "two cuts, no growth drawn: growth %g, "
				      "sd %g", em.growth[0], em.sd[0]);
		ml_fit_result_free(&res);
	}
	free_drawn(rng, pts, y, grp, use);
}
END_TEST

/*
 * Coverage, measured: fitted at P <= 32 on data drawn as above, the 90 %
 * intervals of the predictions at P = 64 and 128 (one and two doublings
 * beyond, never fitted) hold 2271 of 2880 held-out runs (78.9 %, ten
 * draws of 48 independent walks x 2 P x 3 runs).  That is below the
 * nominal 90 %: from five fitted P the forward validation finds a growth
 * of 0.06 to 0.19 per doubling where 0.2 was drawn (the cuts' fits
 * extrapolate from shorter ranges than the full fit), and the intervals
 * are mostly the in-range sd (without the growth they hold 2243).  The
 * band, 0.75 .. 0.98, holds what the method achieves here (the binomial
 * sd of ten draws' coverage is about 0.014, the walks' correlation
 * widens it): a change that makes the intervals narrower or far wider
 * fails; mcastlat-collective(1) states the shortfall.  On the real
 * data the held-out coverage is 85 to 96 % (DISCUSSION).
 */
START_TEST(test_interval_coverage)
{
	const double g = 0.2, s0 = 0.05;
	struct ml_collective_point *pts = calloc(DRAWN_MAX, sizeof *pts);
	double *y = calloc(DRAWN_MAX, sizeof *y);
	size_t *grp = calloc(DRAWN_MAX, sizeof *grp);
	bool *use = calloc(DRAWN_MAX, sizeof *use);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	/* the overhead stays at its drawn value (a draw's fit at P <= 32
	 * may leave it undetermined) */
	const char *freeset[] = {"lat-net", "byte-net"};
	size_t held = 0, in = 0, in_flat = 0, i;
	int draw;

	gsl_set_error_handler_off();
	gsl_rng_set(rng, 2026);
	for (draw = 0; draw < 10; draw++) {
		struct ml_fit_data data = {0};
		struct ml_fit_options o;
		struct ml_fit_result res;
		struct ml_coll_errmodel em, flat;
		struct ml_coll_errfit info;
		struct ml_diag d = {NULL, ""};

		data.points = pts;
		data.n = draw_data(rng, g, s0, pts, y, grp);
		data.y = y;
		data.group = grp;
		for (i = 0; i < data.n; i++)
			use[i] = pts[i].p2p || pts[i].p.ranks <= 32;
		data.use = use;
		ml_fit_options_init(&o);
		{
			enum ml_status st = ml_fit(&ml_fit_collective, &data,
						   freeset, 2, &o, &res, &d);

			ck_assert_msg(st == ML_OK, "draw %d: fit %d: %s %s %s",
				      draw, st, d.msg,
				      res.ncombo ? res.combo[0] : "",
				      res.ncombo > 1 ? res.combo[1] : "");
		}
		ck_assert_int_eq(ml_fit_collective_errmodel(&data, freeset, 2,
							    &o, &res, &em,
							    &info, &d),
				 ML_OK);
		ck_assert_int_eq(em.fit_ranks, 32);
		flat = em;
		flat.growth[0] = 0;
		for (i = 0; i < data.n; i++) {
			double lo, hi;

			if (use[i])
				continue;
			ck_assert_int_eq(
			    ml_collective_interval(&em, pts[i].p.ranks,
						   pts[i].p.msg, 0.9,
						   res.pred[i], &lo, &hi),
			    ML_OK);
			held++;
			in += y[i] >= lo && y[i] <= hi;
			ml_collective_interval(&flat, pts[i].p.ranks,
					       pts[i].p.msg, 0.9, res.pred[i],
					       &lo, &hi);
			in_flat += y[i] >= lo && y[i] <= hi;
		}
		ml_fit_result_free(&res);
	}
	ck_assert_uint_eq(held, 2880);
	ck_assert_msg(in >= 0.75 * held && in <= 0.98 * held,
		      "90 %% intervals hold %zu of %zu held-out runs", in, held);
	/* the growth term only ever widens them */
	ck_assert_msg(in_flat <= in, "without the growth they hold %zu of "
				     "%zu, more than with it (%zu)",
		      in_flat, held, in);
	free_drawn(rng, pts, y, grp, use);
}
END_TEST

/* The fastest of the candidates by brute force: each evaluated alone,
 * the least objective, ties to the default then the lower id. */
static int brute_best(const struct ml_collective_params *p, unsigned among,
		      enum ml_coll_objective obj, double *best)
{
	struct ml_collective_params q = *p;
	struct ml_collective_result r;
	int a, pick = -1;

	for (a = 0; a <= ML_COLL_NALG; a++) {
		double v;

		if (!(among & ML_COLL_AMONG(a)))
			continue;
		q.algorithm = (enum ml_coll_alg)a;
		if (ml_collective_eval(&q, &r) != ML_OK)
			continue;
		v = obj == ML_COLL_BY_AVG ? r.latency_avg : r.latency;
		if (pick < 0 || v < *best * (1 - 1e-12)) {
			*best = v;
			pick = a;
		}
	}
	return pick;
}

/* Without an error model best is the brute-force fastest of --among;
 * with one whose difference is huge, the default is kept; with a tiny
 * one, the fastest again. */
START_TEST(test_best_among)
{
	static const long long ranks[] = {4, 17, 64, 200};
	static const long long msgs[] = {1, 3000, 100000};
	static const unsigned amongs[] = {
	    ML_COLL_AMONG_ALL,
	    ML_COLL_AMONG(0) | ML_COLL_AMONG(ML_COLL_LINEAR) |
		ML_COLL_AMONG(ML_COLL_CHAIN),
	    ML_COLL_AMONG(ML_COLL_BINOMIAL) | ML_COLL_AMONG(ML_COLL_PIPELINE)};
	struct ml_collective_params p;
	struct ml_coll_errmodel none, wide, tight;
	struct ml_coll_pick pick;
	size_t i, j, k;
	int obj;

	ml_coll_errmodel_init(&none);
	ml_coll_errmodel_init(&wide);
	ml_coll_errmodel_init(&tight);
	wide.fit_ranks = tight.fit_ranks = 1024;
	wide.diff_sd = 5; /* e^(1.645 * 5): no model tells that apart */
	tight.diff_sd = 1e-9;
	for (i = 0; i < 4; i++)
		for (j = 0; j < 3; j++)
			for (k = 0; k < 3; k++)
				for (obj = 0; obj < 2; obj++) {
					double bv = 0;
					int b;

					ml_collective_params_init(&p);
					p.ranks = ranks[i];
					p.msg = msgs[j];
					p.ppn = 8;
					p.sockets = 2;
					p.nic_gap = 0.3;
					p.overhead = 0.2;
					b = brute_best(&p, amongs[k],
						       (enum ml_coll_objective)obj,
						       &bv);
					ck_assert_int_ge(b, 0);
					ck_assert_int_eq(
					    ml_collective_best_among(
						&p, amongs[k],
						(enum ml_coll_objective)obj,
						&none, 0.9, &pick),
					    ML_OK);
					ck_assert_int_eq(pick.alg, b);
					ck_assert_int_eq(pick.fastest, b);
					ck_assert_double_eq_tol(
					    obj ? pick.r.latency_avg
						: pick.r.latency,
					    bv, 1e-9 * bv);
					ml_collective_best_among(
					    &p, amongs[k],
					    (enum ml_coll_objective)obj, &tight,
					    0.9, &pick);
					ck_assert_int_eq(pick.alg, b);
					ml_collective_best_among(
					    &p, amongs[k],
					    (enum ml_coll_objective)obj, &wide,
					    0.9, &pick);
					/* the default stays when it is a
					 * candidate */
					if (amongs[k] & ML_COLL_AMONG(0)) {
						ck_assert_int_eq(pick.alg, 0);
						ck_assert(pick.kept == (b != 0));
						ck_assert_double_eq(
						    pick.vs_default, 1);
					} else {
						ck_assert_int_eq(pick.alg, b);
					}
				}
	/* no candidate of the library: MPICH's only */
	ml_collective_params_init(&p);
	ck_assert_int_eq(ml_collective_best_among(
			     &p, ML_COLL_AMONG(ML_COLL_MPICH_BINOMIAL),
			     ML_COLL_BY_LATENCY, NULL, 0.9, &pick),
			 ML_EINVAL);
}
END_TEST

/*
 * The default machine (a fit of a real cluster, with overhead and NIC
 * gap) must not rank linear first for a large communicator at small
 * messages: a machine without per-message costs did (1.2 us predicted at
 * 256 ranks, 1 byte, against 41 us measured on EPYC).
 */
START_TEST(test_default_machine_not_linear)
{
	static const long long msgs[] = {1, 16, 256, 1024};
	struct ml_collective_params p;
	struct ml_coll_pick pick;
	size_t j;
	int obj;

	for (j = 0; j < 4; j++)
		for (obj = 0; obj < 2; obj++) {
			ml_collective_params_init(&p);
			ck_assert_double_gt(p.overhead, 0);
			ck_assert_double_gt(p.nic_gap, 0);
			p.ranks = 256;
			p.ppn = 128;
			p.sockets = 2;
			p.msg = msgs[j];
			ck_assert_int_eq(
			    ml_collective_best_among(&p, ML_COLL_AMONG_ALL,
						     (enum ml_coll_objective)obj,
						     NULL, 0.9, &pick),
			    ML_OK);
			ck_assert_int_ne(pick.fastest, ML_COLL_LINEAR);
		}
}
END_TEST

/*
 * The most ranks a socket holds, by hand: 2 nodes of 2 x 64 cores.
 * --map-by core fills node 0's socket 0 first: P = 40 puts 40 there,
 * P = 100 its 64 cores.  --map-by socket alternates the sockets of a
 * node: 40 ranks are 20 a socket.  --map-by node deals P = 40 over 2
 * nodes, 20 each, filling cores in order (--bind-to core): 20 on
 * socket 0; bound to NUMA domains (bind-to default, 4 a socket), the
 * node's i-th rank goes to domain i mod 8, socket 0 holding domains 0-3:
 * ranks 0-3, 8-11 and 16-19 of the node, 12.
 */
START_TEST(test_socket_ranks)
{
	static const struct {
		long long ranks;
		enum ml_coll_map map;
		enum ml_coll_bind bind;
		long long numa, want;
	} c[] = {{40, ML_COLL_MAP_CORE, ML_COLL_BIND_CORE, 1, 40},
		 {100, ML_COLL_MAP_CORE, ML_COLL_BIND_CORE, 1, 64},
		 {40, ML_COLL_MAP_SOCKET, ML_COLL_BIND_CORE, 1, 20},
		 {40, ML_COLL_MAP_NODE, ML_COLL_BIND_CORE, 1, 20},
		 {40, ML_COLL_MAP_NODE, ML_COLL_BIND_DEFAULT, 4, 12}};
	struct ml_collective_params p;
	size_t i;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		ml_collective_params_init(&p);
		p.ranks = c[i].ranks;
		p.ppn = 128;
		p.sockets = 2;
		p.nodes = 2;
		p.map_by = c[i].map;
		p.bind_to = c[i].bind;
		p.numa = c[i].numa;
		ck_assert_int_eq(ml_coll_socket_ranks(&p), c[i].want);
	}
	p.ranks = 1; /* not valid: 0 */
	ck_assert_int_eq(ml_coll_socket_ranks(&p), 0);
}
END_TEST

/*
 * A pick the model makes only on sockets denser than any fitted is
 * kept back (issue 48).  The default machine at P = 40, 1 byte, on
 * 64-core sockets (--map-by core: all 40 on one socket), by
 * latency_avg: linear's root sends 39 messages at a per-message cost of
 * 0.0008 us, so linear is predicted faster than Open MPI's binomial by
 * more than e^0.5; on 12-core sockets (2 nodes of 2 x 12) the same 40
 * ranks cross sockets and nodes and its predicted gain is under 0.5.
 * With a difference rms of 0.25 (threshold 1.645 x 0.25 = 0.41) and
 * every P fitted, linear replaces the default when the fitted sockets
 * held 64 ranks or nothing is known (0), and the default stays when
 * they held 12.
 */
START_TEST(test_dense_sockets_kept)
{
	struct ml_collective_params p, q;
	struct ml_collective_result rl, rd;
	struct ml_coll_errmodel em;
	struct ml_coll_pick pick;
	unsigned among = ML_COLL_AMONG(0) | ML_COLL_AMONG(ML_COLL_LINEAR);

	ml_collective_params_init(&p);
	p.ranks = 40;
	p.msg = 1;
	p.ppn = 128;
	p.sockets = 2;
	p.nodes = 2;
	/* the premise, by the model's own two runs at each density */
	q = p;
	q.algorithm = ML_COLL_LINEAR;
	ck_assert_int_eq(ml_collective_eval(&q, &rl), ML_OK);
	q.algorithm = ML_COLL_DEFAULT;
	ck_assert_int_eq(ml_collective_eval(&q, &rd), ML_OK);
	ck_assert_double_gt(log(rd.latency_avg / rl.latency_avg), 0.5);
	q.ppn = 24;
	q.nodes = 0;
	q.algorithm = ML_COLL_LINEAR;
	ck_assert_int_eq(ml_collective_eval(&q, &rl), ML_OK);
	q.algorithm = rd.ran;
	ck_assert_int_eq(ml_collective_eval(&q, &rd), ML_OK);
	ck_assert_double_lt(log(rd.latency_avg / rl.latency_avg), 0.41);

	ml_coll_errmodel_init(&em);
	em.fit_ranks = 1024;
	em.diff_sd = 0.25;
	ck_assert_int_eq(ml_collective_best_among(&p, among, ML_COLL_BY_AVG,
						  &em, 0.9, &pick),
			 ML_OK);
	ck_assert_int_eq(pick.alg, ML_COLL_LINEAR);
	em.fit_socket_ranks = 64;
	ml_collective_best_among(&p, among, ML_COLL_BY_AVG, &em, 0.9, &pick);
	ck_assert_int_eq(pick.alg, ML_COLL_LINEAR);
	em.fit_socket_ranks = 12;
	ml_collective_best_among(&p, among, ML_COLL_BY_AVG, &em, 0.9, &pick);
	ck_assert_int_eq(pick.alg, ML_COLL_DEFAULT);
	ck_assert(pick.kept);
	ck_assert_int_eq(pick.fastest, ML_COLL_LINEAR);
}
END_TEST

Suite *suite_trust(void);

Suite *suite_trust(void)
{
	Suite *s = suite_create("trust");
	TCase *tc = tcase_create("interval");

	tcase_add_test(tc, test_interval_by_hand);
	suite_add_tcase(s, tc);
	tc = tcase_create("errmodel");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_errmodel_recovers_growth);
	tcase_add_test(tc, test_errmodel_one_cut);
	tcase_add_test(tc, test_interval_coverage);
	suite_add_tcase(s, tc);
	tc = tcase_create("best");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_best_among);
	tcase_add_test(tc, test_default_machine_not_linear);
	tcase_add_test(tc, test_socket_ranks);
	tcase_add_test(tc, test_dense_sockets_kept);
	suite_add_tcase(s, tc);
	return s;
}
