/* cmd_collective.c - `mcastlat collective`: options (their tables in
 * collective_opts.c) -> ml_collective_* -> rows; --schedule prints one
 * row per message of one point, --rules
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
#include "cli/commands/collective_opts.h"
#include "cli/commands/collective_parts.h"
#include "cli/commands/collective_data.h"
#include "mcastlat/tune.h"

static const struct ml_unused unused[] = {{"channel", "op", "bcast"},
					  {NULL, NULL, NULL}};

/* Is the --algorithm value a of --library lib? */
static bool alg_in_library(long long a, long long lib)
{
	long long c = ml_choice_of(a);

	if (lib == ML_COLL_MPICH)
		return c == ALG_BINOMIAL || (c >= ALG_MPICH_SRD && c < ALG_OMPI) ||
		       c == ALG_BEST || c == ALG_MPICH || c == ALG_DEFAULT;
	return c < ALG_MPICH_SRD || c == ALG_OMPI || c == ALG_BEST ||
	       c == ALG_DEFAULT || c == ALG_HAN;
}

/* The algorithm a word of --algorithm (its index c in
 * ml_collective_alg_names) names, MPICH's binomial for binomial when
 * mpich: ML_COLL_DEFAULT for mpich and default (and ompi), -1 for best
 * and all. */
static int word_alg(long long c, bool mpich)
{
	if (c == ALG_BINOMIAL && mpich)
		return ML_COLL_MPICH_BINOMIAL;
	if (c < ALG_MPICH_SRD)
		return (int)c + 1;
	if (c < ALG_OMPI)
		return ML_COLL_MPICH_SCATTER_RD_ALLGATHER +
		       (int)(c - ALG_MPICH_SRD);
	if (c == ALG_OMPI || c == ALG_MPICH || c == ALG_DEFAULT)
		return ML_COLL_DEFAULT;
	if (c == ALG_HAN)
		return ML_COLL_HAN;
	return -1;
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
	} else if (c != ALG_OMPI && word_alg(c, mpich) >= 0) {
		p->algorithm = (enum ml_coll_alg)word_alg(c, mpich);
	} else {
		*word = (int)c;
		p->algorithm = mpich ? ML_COLL_MPICH_BINOMIAL : ML_COLL_BINOMIAL;
	}
	p->ranks = v[O_RANKS].i;
	p->msg = v[O_MSG].i;
	p->segment = v[O_SEGMENT].i;
	p->fanout = v[O_FANOUT].i;
	p->radix = v[O_RADIX].i;
	p->root = v[O_ROOT].i;
	p->ompi_version = (enum ml_coll_ompi_version)v[O_OMPI_VERSION].i;
	p->han_segment = v[O_HAN_SEGMENT].i;
	p->han_simple = v[O_HAN_SIMPLE].i != 0;
	p->barrier = (enum ml_coll_barrier)v[O_OSU_BARRIER].i;
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
	em->fit_socket_ranks = v[O_ERR_SOCKET_RANKS].i;
}

/* The ML_COLL_AMONG bits of one --among item (a name of --algorithm, an
 * Open MPI id, or all: every one but han), or 0 for a bad one.  Open
 * MPI's binomial and MPICH's share a name: both bits. */
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
	for (c = 0; ml_collective_alg_names[c]; c++)
		if (ml_same_name(ml_collective_alg_names[c], s, n))
			return c == ALG_BINOMIAL
				   ? ML_COLL_AMONG(ML_COLL_BINOMIAL) |
					 ML_COLL_AMONG(ML_COLL_MPICH_BINOMIAL)
			       : word_alg(c, false) < 0
				   ? 0 /* best */
				   : ML_COLL_AMONG(word_alg(c, false));
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

/* A point as run.  best: p.algorithm is the pick, ML_COLL_DEFAULT for
 * the library's own decision. */
struct outcome {
	struct ml_collective_params p;
	struct ml_collective_result r;
	double margin, vs_ompi;
};

/* What every point of a sweep shares (*pt->prep): --among's candidates,
 * and with --rules best's outcome at each (ranks, msg) of the grid
 * (picks.out, struct outcome; NULL otherwise), left by the takeover so
 * that the rows after the file are not evaluated again (issue 48). */
struct coll_prep {
	unsigned among;
	struct ml_coll_picks picks;
	struct ml_coll_meas meas;
	struct ml_coll_tune_cache *cache;
};

static void release(void *prep)
{
	struct coll_prep *c = prep;

	if (!c)
		return;
	ml_coll_picks_free(&c->picks);
	ml_coll_meas_free(&c->meas);
	ml_coll_tune_cache_free(c->cache);
	free(c);
}

/* --among is read once, before the sweep (a bad item is a usage error,
 * not a row), and the measured broadcasts: the --input file's "#
 * measured: " lines (a machine of fit --emit), then --data's files;
 * they are the rows' *pt->prep. */
static enum ml_status prepare_input(const union ml_val *base,
				    const char *input, void **prep,
				    struct ml_diag *d)
{
	struct coll_prep *c = calloc(1, sizeof *c);
	size_t at, len;

	*prep = c;
	if (!c)
		return ml_diag_set(d, "among", "out of memory");
	if (parse_among(base[O_AMONG].s, &c->among, &at, &len)) {
		free(c);
		*prep = NULL;
		return ml_diag_set(d, "among",
				   "'%.*s' is not a candidate (an algorithm "
				   "of --algorithm, ompi, mpich, default or "
				   "all)",
				   (int)len, base[O_AMONG].s + at);
	}
	if (ml_collective_data_read(base[O_DATA].s, input, base, to_params,
				    base[O_OBJECTIVE].i == 1, &c->meas, d) ||
	    (c->meas.ncell && !(c->cache = ml_coll_tune_cache_new()))) {
		if (!d->msg[0])
			ml_diag_set(d, "data", "out of memory");
		release(c);
		*prep = NULL;
		return ML_EINVAL;
	}
	return ML_OK;
}

/* Cell k's value of placement option i (O_PPN .. O_NUMA). */
static long long placed(const struct ml_coll_meas *m, size_t k, size_t i)
{
	const struct ml_collective_params *p = &m->cell[k].p;

	switch (i) {
	case O_PPN:
		return p->ppn;
	case O_SOCKETS:
		return p->sockets;
	case O_NODES:
		return p->nodes;
	case O_MAP_BY:
		return (long long)p->map_by;
	case O_BIND_TO:
		return (long long)p->bind_to;
	default:
		return p->numa;
	}
}

/* With no placement option on the command line, each placement option
 * the measured cells all share (SPEC 10.7): a fitted machine's
 * predictions then read its measurements without the allocation said
 * again; where the cells differ in one (map-by core and node), that
 * option's default, and no measured cell matches unless it is given. */
static const char *adopt(const void *prep, const bool *given, size_t i,
			 char *buf, size_t len)
{
	const struct coll_prep *c = prep;
	size_t k;
	long long v;

	if (i < O_PPN || i > O_NUMA || c->meas.ncell == 0)
		return NULL;
	for (k = O_PPN; k <= O_NUMA; k++)
		if (given[k])
			return NULL;
	v = placed(&c->meas, 0, i);
	for (k = 1; k < c->meas.ncell; k++)
		if (placed(&c->meas, k, i) != v)
			return NULL;
	if (i == O_NODES && v < 1)
		return NULL; /* auto */
	if (i == O_MAP_BY || i == O_BIND_TO)
		return ml_collective_opts[i].choices[v];
	snprintf(buf, len, "%lld", v);
	return buf;
}

static enum ml_status prepare(const union ml_val *base, void **prep,
			      struct ml_diag *d)
{
	return prepare_input(base, NULL, prep, d);
}

/* The corrected predictor of the point's machine and placement, NULL
 * without --data or a measured cell of the placement. */
static const struct ml_coll_tune *tune_of(const union ml_val *v,
					  const struct coll_prep *c,
					  const struct ml_collective_params *p)
{
	struct ml_coll_errmodel em;
	const struct ml_coll_tune *t = NULL;

	if (!c || !c->cache)
		return NULL;
	to_errmodel(v, &em);
	if (ml_coll_tune_cached(c->cache, &c->meas, p, &em, v[O_LEVEL].r,
				&t) != ML_OK)
		return NULL;
	return t;
}

/* The index of x in the sorted a[0..n-1], or n. */
static size_t find_ll(const long long *a, size_t n, long long x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && a[lo] == x ? lo : n;
}

/* best's outcome at v's (ranks, msg) as --rules left it, or NULL. */
static const struct outcome *cached(const struct coll_prep *cp,
				    const union ml_val *v)
{
	const struct ml_coll_picks *pk;
	size_t i, j;

	if (!cp || !cp->picks.out)
		return NULL;
	pk = &cp->picks;
	i = find_ll(pk->ps, pk->np, v[O_RANKS].i);
	j = find_ll(pk->ms, pk->nm, v[O_MSG].i);
	if (i == pk->np || j == pk->nm)
		return NULL;
	return (const struct outcome *)pk->out + i * pk->nm + j;
}

/* best at the point: the pick among --among, do no harm by the error
 * model (ml_collective_best_among). */
static enum ml_status best_of(const union ml_val *v,
			      const struct coll_prep *prep, struct outcome *o,
			      struct ml_diag *d)
{
	struct ml_coll_errmodel em;
	struct ml_coll_pick pick;
	const struct ml_coll_tune *t = tune_of(v, prep, &o->p);
	enum ml_coll_objective obj =
	    v[O_OBJECTIVE].i ? ML_COLL_BY_AVG : ML_COLL_BY_LATENCY;
	unsigned among;
	size_t at, len;
	enum ml_status st;

	if (prep)
		among = prep->among;
	else if (parse_among(v[O_AMONG].s, &among, &at, &len))
		return ml_diag_set(d, "among", "not a candidate");
	to_errmodel(v, &em);
	/* Measured cells decide, the model corrected between them: where
	 * they measure the objective (a latency_avg residual says nothing
	 * of latency). */
	if (t && prep->meas.obj != obj)
		t = NULL;
	st = t ? ml_coll_tune_best(t, &o->p, among, obj, &pick)
	       : ml_collective_best_among(&o->p, among, obj, &em,
					  v[O_LEVEL].r, &pick);
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
static enum ml_status resolve(const union ml_val *v,
			      const struct coll_prep *among, struct outcome *o,
			      struct ml_diag *d)
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
static enum ml_status ompi_rule(const void *arg, const union ml_val *v,
				long long *alg, long long *fanout,
				long long *segment, struct ml_diag *d)
{
	const struct outcome *c = cached(arg, v);
	struct outcome o;
	enum ml_status st = c ? ML_OK : resolve(v, arg, &o, d);

	if (st != ML_OK)
		return st;
	if (!c)
		c = &o;
	*alg = c->p.algorithm;
	*fanout = c->p.fanout;
	*segment = c->p.segment;
	return ML_OK;
}

/* best's pick at v, for MPICH's tuning file (collective_mpich.c):
 * ML_EINVAL without a message unless the algorithm is best. */
static enum ml_status resolve_best(const void *arg, const union ml_val *v,
				   enum ml_coll_alg *alg, struct ml_diag *d)
{
	const struct outcome *c = cached(arg, v);
	struct outcome o;
	enum ml_status st;
	unsigned spans;

	if (ml_choice_of(v[O_ALGORITHM].i) != ALG_BEST || v[O_OP].i != 0)
		return ML_EINVAL;
	if (c) {
		o = *c;
		st = ML_OK;
	} else {
		st = resolve(v, arg, &o, d);
	}

	if (st != ML_OK || (st = ml_collective_spans(&o.p, &spans)) != ML_OK)
		return st;
	/* MPICH's own decision in a tuning file read with the device
	 * collectives off: the MPIR algorithm it picks on the whole
	 * communicator (mcastlat-collective(1), MPICH's tuning file), a
	 * parent one when some node holds two ranks. */
	*alg = o.p.algorithm == ML_COLL_DEFAULT
		   ? ml_collective_mpich_mpir(
			 o.p.ranks, o.p.msg,
			 spans & ~(1u << ML_COLL_NET) ? true : false)
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
				   ml_collective_alg_names[ml_choice_of(a)],
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

	if (r->ran == ML_COLL_HAN) {
		/* han/up+low: the tuned algorithms of its two levels */
		n = (size_t)snprintf(buf, len, "han/%s+%s",
				     ml_collective_alg_name(r->ran_roots),
				     ml_collective_alg_name(r->ran_node_first));
		if (r->ran_node_last != r->ran_node_first && n < len)
			snprintf(buf + n, len - n, "+%s",
				 ml_collective_alg_name(r->ran_node_last));
		return buf;
	}
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
		      const struct coll_prep *prep, union ml_val *out)
{
	struct ml_coll_errmodel em;
	const struct ml_coll_tune *t = tune_of(v, prep, &o->p);
	struct ml_coll_tuned y;
	bool avg;

	to_errmodel(v, &em);
	if (t && prep) {
		/* The measured objective: the measurement, or the model
		 * corrected, with the cross-validated interval. */
		avg = prep->meas.obj == ML_COLL_BY_AVG;
		if (ml_coll_tune_predict_result(t, o->p.algorithm,
						o->p.ranks, o->p.msg, &o->r,
						&y) == ML_OK &&
		    y.corrected) {
			out[avg ? C_LATENCY_AVG : C_LATENCY].r = y.value;
			out[avg ? C_LATENCY_AVG_LO : C_LATENCY_LO].r = y.lo;
			out[avg ? C_LATENCY_AVG_HI : C_LATENCY_HI].r = y.hi;
			if (avg)
				ml_collective_interval(
				    &em, o->p.ranks, o->p.msg, v[O_LEVEL].r,
				    o->r.latency, &out[C_LATENCY_LO].r,
				    &out[C_LATENCY_HI].r);
			else
				ml_collective_interval(
				    &em, o->p.ranks, o->p.msg, v[O_LEVEL].r,
				    o->r.latency_avg, &out[C_LATENCY_AVG_LO].r,
				    &out[C_LATENCY_AVG_HI].r);
			return;
		}
	}
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
	if (best && cached(pt->prep, pt->v)) {
		o = *cached(pt->prep, pt->v);
	} else {
		st = resolve(pt->v, pt->prep, &o, NULL);
		if (st != ML_OK)
			return st;
	}
	out[C_LATENCY].r = o.r.latency;
	out[C_LATENCY_AVG].r = o.r.latency_avg;
	out[C_LATENCY_MIN].r = o.r.latency_min;
	intervals(pt->v, &o, pt->prep, out);
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

	for (i = O_ERR_RANKS; i <= O_ERR_LAST; i++) {
		const struct ml_opt *o = &ml_collective_opts[i];

		if (o->kind == ML_OPT_INT ? base[i].i != strtoll(o->def, NULL, 10)
					  : base[i].r != strtod(o->def, NULL))
			return true;
	}
	return false;
}

/* --schedule runs here; --rules writes its file, then the engine
 * prints the sweep's rows as usual. */
/* The grid's point function for --rules: best's whole outcome at v,
 * kept for the file and for the rows after it. */
static enum ml_status keep_point(void *arg, const union ml_val *v, void *out,
				 struct ml_diag *d)
{
	return resolve(v, arg, out, d);
}

static int takeover(const struct ml_command *cmd,
		    const struct ml_vlist *const *vl, const union ml_val *base,
		    const char *format, struct ml_ctx *ctx, void *prep)
{
	unsigned among;
	size_t at, len;
	struct coll_prep *cp = prep;
	int rc;

	if (base[O_SCHEDULE].i)
		return run_schedule(cmd, ctx, format, vl, base);
	if (base[O_MEASURED].i) {
		struct ml_coll_errmodel em;

		to_errmodel(base, &em);
		return ml_collective_print_measured(cmd, ctx, vl, base, format,
						    to_params, &em,
						    cp ? &cp->meas : NULL);
	}
	if (cp)
		ml_collective_warn_unmeasured(ctx, vl, base, to_params,
					      &cp->meas);
	if (base[O_PLAN].i) {
		if (parse_among(base[O_AMONG].s, &among, &at, &len))
			return ml_usage_err(ctx, cmd->name, "among",
					    "not a candidate");
		if (cp && cp->meas.ncell) {
			struct ml_coll_adapt_params ap;
			struct ml_coll_errmodel em;
			int word;

			memset(&ap, 0, sizeof ap);
			to_params(base, &ap.machine, &word);
			to_errmodel(base, &em);
			ap.meas = &cp->meas;
			ap.em = &em;
			ap.level = base[O_LEVEL].r;
			return ml_collective_print_plan(cmd, ctx, vl, base,
							among, &ap);
		}
		return ml_collective_print_plan(cmd, ctx, vl, base, among,
						NULL);
	}
	if (base[O_RULES].s) {
		if (ml_choice_of(base[O_ALGORITHM].i) != ALG_BEST ||
		    base[O_OP].i != 0)
			return ml_usage_err(ctx, cmd->name, "rules",
					    "needs --algorithm best (and --op "
					    "bcast)");
		/* best at every point once, on --jobs threads: the file is
		 * written from these and the rows printed from them. */
		if (cp) {
			ml_coll_picks_free(&cp->picks);
			rc = ml_coll_rules_picks(cmd, ctx, vl, base, O_RANKS,
						 O_MSG, keep_point, cp,
						 sizeof(struct outcome),
						 &cp->picks);
			if (rc)
				return ML_EXIT_USAGE;
		}
		rc = base[O_LIBRARY].i == 1
			 ? ml_collective_mpich_rules(cmd, ctx, vl, base, O_RANKS,
						     O_MSG, O_RULES, resolve_best,
						     cp)
			 : ml_collective_ompi_rules(cmd, ctx, vl, base, O_RANKS,
						    O_MSG, O_RULES,
						    machine_fitted(base),
						    base[O_OMPI_VERSION].i ==
							ML_COLL_OMPI_50,
						    ompi_rule, cp);
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
    "radix",  "root", "ppn",     "sockets",   "nodes",	"map-by", "bind-to", "numa",
    "channel", "ompi-version", "han-segment", "han-simple", NULL};

/* A broadcast row must say how many ranks, a ping-pong which channel. */
static const char *fit_needs(const union ml_val *v, const bool *stated)
{
	if (v[O_OP].i == 1)
		return stated[O_CHANNEL] ? NULL : "channel";
	return stated[O_RANKS] ? NULL : "ranks";
}

/* A broadcast by node on nodes of several sockets, its binding not
 * stated: the default (cores filled in order) is not what a plain
 * mpirun does. */
static const char *fit_note(const union ml_val *v, const bool *stated)
{
	if (v[O_OP].i != 0 || v[O_MAP_BY].i != ML_COLL_MAP_NODE ||
	    v[O_SOCKETS].i < 2 || stated[O_BIND_TO])
		return NULL;
	return "--map-by node on nodes of several sockets, with no bind-to: "
	       "taken as --bind-to core (each node's cores filled in order); "
	       "a plain mpirun binds to NUMA domains, so a node's ranks "
	       "alternate its sockets: say bind-to=default (and numa=D) "
	       "(mcastlat-collective(1), The machine)";
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
    .machine = "default (THIN fit)",
    .summary = "Open MPI's and MPICH's broadcast algorithms on a node "
	       "hierarchy "
	       "(ranks per node, sockets, NIC)",
    .source = "Open MPI 4.1/5.0 coll/base and coll/tuned, MPICH 4.0.2; "
	      "SPEC 10, 11.  Default machine: a fit of ORFEO's THIN nodes "
	      "(mcastlat-collective(1), DEFAULTS)",
    .time_unit = "us",
    .opts = ml_collective_opts,
    .nopts = NOPTS,
    .cols = ml_collective_cols,
    .ncols = NCOLS,
    .check = check,
    .eval = eval,
    .unused = unused,
    .statuses = statuses,
    .takeover = takeover,
    .takeover_flag = "schedule,plan,measured",
    .skip = skip,
    .prepare = prepare,
    .prepare_input = prepare_input,
    .adopt = adopt,
    .release = release,
    .fit_model = &ml_fit_collective,
    .fit_params = fit_params,
    .fit_inputs = fit_inputs,
    .fit_needs = fit_needs,
    .fit_note = fit_note,
    .fit_collective = fit_collective,
    .fit_measure = fit_measure,
    .fit_errmodel = ml_collective_fit_errmodel,
    .fit_mechanisms = fit_mechanisms,
};
