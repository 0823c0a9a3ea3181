/*
 * collective_trust.c - how far a collective prediction holds, and picks
 * that do no harm (SPEC 10.5): the error model's interval at a point,
 * and best among a list of candidates with the library's own decision
 * kept unless the model can tell a candidate apart from it (and the
 * plain fastest, ml_collective_best, as its special case), and the
 * most ranks a placement puts on one socket, which tells a pick on
 * denser sockets than were fitted from one inside them.  The error
 * model itself is measured by `mcastlat fit collective` (forward
 * validation, src/fit/fit_coll_err.c).
 */
#include <math.h>
#include <stddef.h>

#include <gsl/gsl_cdf.h>

#include "collective/coll_int.h"
#include "mcastlat/collective.h"

void ml_coll_errmodel_init(struct ml_coll_errmodel *em)
{
	int k;

	em->fit_ranks = 0;
	for (k = 0; k < ML_COLL_NCLASS; k++) {
		em->sd[k] = 0;
		em->growth[k] = 0;
	}
	em->diff_sd = 0;
	em->diff_growth = 0;
	for (k = 0; k <= ML_COLL_NALG; k++)
		em->diff_alg[k] = 0;
	em->fit_socket_ranks = 0;
}

long long ml_coll_socket_ranks(const struct ml_collective_params *p)
{
	long long nodes, r, n = 0, node, socket;

	if (ml_collective_validate(p, NULL) != ML_OK)
		return 0;
	nodes = ml_coll_nodes(p);
	for (r = 0; r < p->ranks; r++) {
		ml_coll_place_one(p, nodes, r, &node, &socket);
		n += node == 0 && socket == 0;
	}
	return n;
}

int ml_coll_msg_class(long long msg)
{
	return msg <= 4096 ? 0 : msg <= 65536 ? 1 : 2;
}

/* Doublings of P beyond the fitted range, 0 inside it. */
static double beyond(const struct ml_coll_errmodel *em, long long ranks)
{
	double e = log2((double)ranks / (double)em->fit_ranks);

	return e > 0 ? e : 0;
}

static int has_model(const struct ml_coll_errmodel *em)
{
	return em && em->fit_ranks > 0;
}

double ml_coll_err_sigma(const struct ml_coll_errmodel *em, long long ranks,
			 long long msg)
{
	int k = ml_coll_msg_class(msg);

	if (!has_model(em) || ranks < 1)
		return NAN;
	return sqrt(em->sd[k] * em->sd[k] +
		    em->growth[k] * em->growth[k] * beyond(em, ranks));
}

double ml_coll_err_diff_sigma(const struct ml_coll_errmodel *em,
			      enum ml_coll_alg a, long long ranks)
{
	double sd;

	if (!has_model(em) || ranks < 1)
		return NAN;
	/* An algorithm's own rms can only raise the pooled one: where the
	 * two agreed at the fitted P they need not agree beyond. */
	sd = a >= 1 && a <= ML_COLL_NALG && em->diff_alg[a] > em->diff_sd
		 ? em->diff_alg[a]
		 : em->diff_sd;
	return sqrt(sd * sd +
		    em->diff_growth * em->diff_growth * beyond(em, ranks));
}

/* The two-sided standard normal quantile of level; NaN outside (0, 1). */
static double z_of(double level)
{
	if (!(level > 0 && level < 1))
		return NAN;
	return gsl_cdf_ugaussian_Pinv((1 + level) / 2);
}

enum ml_status ml_collective_interval(const struct ml_coll_errmodel *em,
				      long long ranks, long long msg,
				      double level, double pred, double *lo,
				      double *hi)
{
	double s = ml_coll_err_sigma(em, ranks, msg), z = z_of(level);

	*lo = *hi = NAN;
	if (!isfinite(s) || !isfinite(z) || !isfinite(pred))
		return ML_EINVAL;
	*lo = pred * exp(-z * s);
	*hi = pred * exp(z * s);
	return ML_OK;
}

/* Is a a candidate of library lib in among? */
static int candidate(unsigned among, enum ml_coll_library lib,
		     enum ml_coll_alg a)
{
	int ok = a == ML_COLL_DEFAULT ||
		 (lib == ML_COLL_MPICH
		      ? a >= ML_COLL_MPICH_FIRST && a <= ML_COLL_MPICH_LAST
		      : (a >= 1 && a <= ML_COLL_NALG) || a == ML_COLL_HAN);

	return ok && (among & ML_COLL_AMONG(a));
}

static double objective(const struct ml_collective_result *r,
			enum ml_coll_objective obj)
{
	return obj == ML_COLL_BY_AVG ? r->latency_avg : r->latency;
}

/* The candidates in order: the default first (it wins ties), then the
 * library's algorithms by id (Open MPI's han after its nine). */
static int candidates(enum ml_coll_library lib, enum ml_coll_alg *out)
{
	int n = 0, a, first = 1, last = ML_COLL_NALG;

	if (lib == ML_COLL_MPICH) {
		first = ML_COLL_MPICH_FIRST;
		last = ML_COLL_MPICH_LAST;
	}
	out[n++] = ML_COLL_DEFAULT;
	for (a = first; a <= last; a++)
		out[n++] = (enum ml_coll_alg)a;
	if (lib == ML_COLL_OPENMPI)
		out[n++] = ML_COLL_HAN;
	return n;
}

/* ln(d / a) at *p by obj, d run as the library's decision runs it
 * (unsegmented, one chain; ML_COLL_DEFAULT: the decision itself); NaN
 * when either cannot be evaluated. */
static double gain_over(const struct ml_collective_params *p,
			enum ml_coll_alg a, enum ml_coll_alg d,
			enum ml_coll_objective obj)
{
	struct ml_collective_params q = *p;
	struct ml_collective_result ra, rd;

	q.algorithm = a;
	if (ml_collective_eval(&q, &ra) != ML_OK)
		return NAN;
	q.algorithm = d;
	if (d != ML_COLL_DEFAULT && p->library == ML_COLL_OPENMPI) {
		q.segment = 0;
		q.fanout = 0;
	}
	if (ml_collective_eval(&q, &rd) != ML_OK)
		return NAN;
	return log(objective(&rd, obj) / objective(&ra, obj));
}

/*
 * Does a beat the default by more than the error model's difference at
 * *p, with gain its predicted ln(default / a) there, the default running
 * algorithm ran?  Beyond what the machine was fitted on, a must also
 * beat ran by as much at the largest extent that was measured (the same
 * rule there): at the largest fitted P, and where a socket holds more
 * ranks than any fitted broadcast put on one (the default machine: 12,
 * THIN's sockets), on sockets of that many cores (more nodes).  A
 * crossover between two algorithms that the model predicts only where
 * nothing was measured is what extrapolation errors make
 * (mcastlat-collective(1), INTERVALS AND PICKS): the default machine,
 * judged on EPYC's 64-core sockets, predicted linear 3 times faster than
 * Open MPI's default at small messages where it ran 2 to 5 times slower.
 * The default's own change of algorithm beyond it is the library's, not
 * the model's.
 */
static bool clearly_better(const struct ml_collective_params *p,
			   enum ml_coll_alg a, enum ml_coll_alg ran,
			   double gain, enum ml_coll_objective obj,
			   const struct ml_coll_errmodel *em, double z)
{
	struct ml_collective_params q = *p;
	bool dense;
	double g;

	if (!(gain > z * ml_coll_err_diff_sigma(em, a, p->ranks)))
		return false;
	dense = em->fit_socket_ranks > 0 &&
		ml_coll_socket_ranks(p) > em->fit_socket_ranks;
	if (p->ranks <= em->fit_ranks && !dense)
		return true;
	if (q.ranks > em->fit_ranks)
		q.ranks = em->fit_ranks;
	/* Fewer ranks may already sit as densely as was fitted; else the
	 * sockets shrink, on the same nodes while they hold the ranks. */
	if (dense && ml_coll_socket_ranks(&q) > em->fit_socket_ranks) {
		q.ppn = q.sockets * em->fit_socket_ranks;
		if (q.nodes * q.ppn < q.ranks)
			q.nodes = 0;
		if (em->fit_socket_ranks % q.numa != 0)
			q.numa = 1;
	}
	if (q.ranks < 2 || ml_collective_validate(&q, NULL) != ML_OK)
		return false;
	g = gain_over(&q, a, ran, obj);
	return g > z * ml_coll_err_diff_sigma(em, a, q.ranks);
}

/*
 * Does candidate a at *p run exactly what Open MPI's decision ran?  The
 * decision runs its algorithm unsegmented with one chain
 * (collective.c, run_params); a candidate runs with *p's segment and
 * fanout, and the fanout reaches only the chain (ml_coll_alg_setup).
 * Then the candidate's result is the default's, bit for bit, and is not
 * run again (issue 36: a tenth of a tuning grid's time).
 */
static bool same_run_as_default(const struct ml_collective_params *p,
				enum ml_coll_alg a)
{
	/* (5.0's decision runs han where han takes the broadcast.) */
	return p->library == ML_COLL_OPENMPI && p->segment == 0 &&
	       (a != ML_COLL_CHAIN || p->fanout == 0) &&
	       a == ml_collective_ompi_decide(p->ranks, p->msg) &&
	       !(p->ompi_version == ML_COLL_OMPI_50 && ml_coll_han_takes(p));
}

/* Does candidate a at *p run linear, as Open MPI's scatter-allgathers
 * do below a byte a rank (ml_coll_alg_setup)?  Then it runs what the
 * linear candidate ran: linear reads no segment, fanout or radix. */
static bool runs_linear(const struct ml_collective_params *p,
			enum ml_coll_alg a)
{
	return p->library == ML_COLL_OPENMPI &&
	       (a == ML_COLL_SCATTER_ALLGATHER ||
		a == ML_COLL_SCATTER_ALLGATHER_RING) &&
	       p->msg < p->ranks;
}

enum ml_status ml_collective_best_among(const struct ml_collective_params *p,
					unsigned among,
					enum ml_coll_objective obj,
					const struct ml_coll_errmodel *em,
					double level,
					struct ml_coll_pick *out)
{
	struct ml_collective_params q = *p;
	struct ml_collective_result x, best = {0}, dflt = {0}, lin = {0};
	enum ml_coll_alg list[ML_COLL_NALG + 2], pick = ML_COLL_DEFAULT;
	double second = INFINITY, z = z_of(level);
	int n = candidates(p->library, list), i, found = 0, have_dflt = 0;
	int have_lin = 0;
	enum ml_status st;
	struct coll_ws *ws;

	if (!isfinite(z))
		return ML_EINVAL;
	/* One engine workspace for every candidate (issue 36). */
	ws = ml_coll_ws_new();
	if (!ws)
		return ML_ENOMEM;
	for (i = 0; i < n; i++) {
		int cand = candidate(among, p->library, list[i]);

		/* The default is run whether or not it is a candidate: the
		 * pick is measured against it (vs_default). */
		if (!cand && list[i] != ML_COLL_DEFAULT)
			continue;
		q.algorithm = list[i];
		/* A candidate bound to be neither fastest nor runner-up
		 * changes nothing: not run (the ring's P^2 messages). */
		if (list[i] != ML_COLL_DEFAULT && found &&
		    obj == ML_COLL_BY_LATENCY &&
		    ml_coll_lower_bound(&q, list[i]) >= second)
			continue;
		if (have_dflt && same_run_as_default(p, list[i])) {
			x = dflt;
			st = ML_OK;
		} else if (have_lin && runs_linear(p, list[i])) {
			x = lin;
			st = ML_OK;
		} else {
			st = ml_coll_eval_ws(ws, &q, NULL, NULL, &x);
		}
		if (st == ML_EINVAL)
			continue; /* e.g. too many messages for this one */
		if (st != ML_OK) {
			ml_coll_ws_free(ws);
			return st;
		}
		if (list[i] == ML_COLL_DEFAULT) {
			dflt = x;
			have_dflt = 1;
		}
		if (list[i] == ML_COLL_LINEAR) {
			lin = x;
			have_lin = 1;
		}
		if (!cand)
			continue;
		/* Equal to rounding is a tie, which goes to the earlier. */
		if (!found ||
		    objective(&x, obj) < objective(&best, obj) * (1 - 1e-12)) {
			if (found)
				second = objective(&best, obj);
			best = x;
			pick = list[i];
			found = 1;
		} else if (objective(&x, obj) < second) {
			second = objective(&x, obj);
		}
	}
	ml_coll_ws_free(ws);
	if (!found)
		return ML_EINVAL;
	out->fastest = pick;
	out->margin = isfinite(second) ? second / objective(&best, obj) : NAN;
	out->kept = false;
	/* Do no harm: the default stays unless the gain is larger than the
	 * two predictions could be wrong by together. */
	if (pick != ML_COLL_DEFAULT && have_dflt &&
	    candidate(among, p->library, ML_COLL_DEFAULT) && has_model(em) &&
	    !clearly_better(p, pick, dflt.ran,
			    log(objective(&dflt, obj) / objective(&best, obj)),
			    obj, em, z)) {
		pick = ML_COLL_DEFAULT;
		best = dflt;
		out->kept = true;
	}
	out->alg = pick;
	out->r = best;
	out->vs_default =
	    have_dflt ? objective(&dflt, obj) / objective(&best, obj) : NAN;
	return ML_OK;
}

enum ml_status ml_collective_best(const struct ml_collective_params *p,
				  enum ml_coll_alg *best,
				  struct ml_collective_result *r,
				  double *margin)
{
	/* best --among the library's algorithms, without its decision and
	 * without an error model: the plain fastest (collective_trust.c,
	 * which keeps the workspace and the bound). */
	struct ml_coll_pick pick;
	enum ml_status st = ml_collective_best_among(
	    p, ML_COLL_AMONG_ALL & ~ML_COLL_AMONG(ML_COLL_DEFAULT),
	    ML_COLL_BY_LATENCY, NULL, 0.9, &pick);

	if (st != ML_OK)
		return st;
	*best = pick.alg;
	*r = pick.r;
	*margin = isnan(pick.margin) ? INFINITY : pick.margin;
	return ML_OK;
}
