/*
 * hypercube.c - broadcast latency in wormhole-routed hypercubes with
 * Duato's adaptive routing (Shahrabi, Ould-Khaoua and Mackenzie, "Unicast-
 * based broadcast: an analysis for the hypercube with adaptive routing",
 * SAC 2001), as read by SPEC section 4.
 *
 * The model in a sentence: every node of a binary n-cube generates Poisson
 * traffic at lambda_g messages per cycle, a fraction beta of it broadcasts
 * delivered along a spanning binomial tree (n one-hop steps, each a unicast
 * that may be replicated), the rest uniform unicasts; each physical channel
 * is an M/G/1 queue with V virtual channels (V-1 adaptive, 1 deterministic),
 * and the broadcast latency is n one-step latencies.
 *
 * Assumptions (the paper's a-e): Poisson sources, independent nodes;
 * M-flit messages, one flit per cycle per channel; infinite source queues,
 * immediate consumption; Duato's routing with the adaptive virtual channel
 * chosen at random; all channels equally loaded (adaptive routing, uniform
 * unicasts, base dimension of each broadcast tree chosen at random); the
 * service-time variance is approximated by (S - M)^2 (Draper and Ghosh).
 *
 * Channel load (load = PAPER, the default, or TREE).  The spanning
 * binomial tree sends N - 1 one-hop messages per broadcast (N = 2^n): n by
 * the source, one on each of its channels, and N - 1 - n relays by the
 * others.  Spread over the N n channels, each channel carries
 * (N - 1)/n lambda_sb of broadcast traffic.  The paper's equations carry
 * less: eq 3 counts the nodes that replicate at all, lambda_sr =
 * (N/2 - 1) lambda_sb, and eq 11 multiplies that by omega / n, where
 * omega (eq 10) is the mean number of replications over *all* receiving
 * nodes, those that replicate nothing included (sum_i i 2^(n-i-1) =
 * N - 1 - n, so omega = (N - 1 - n)/(N - 1)); the probability of
 * replicating is thus counted twice.  lambda_cb + lambda_cr is then
 * (1 + omega (N/2 - 1)/n) lambda_sb: on the 6-cube 5.675 lambda_sb
 * against the tree's 10.5 (n = 3: 11/7 = 1.571 against 7/3 = 2.333).
 * With load = TREE:
 *   (3)  lambda_sr = omega (N - 1) lambda_sb = (N - 1 - n) lambda_sb,
 *        the relayed messages a node sends (each of the N - 1 broadcasts
 *        it receives per lambda_sb is replicated omega times on average)
 *   (8)  lambda_cb = lambda_sb                        (unchanged)
 *   (11) lambda_cr = lambda_sr / n                    (was omega/n lambda_sr)
 *   (26) lambda_s = lambda_su/n + lambda_sb + lambda_sr / n
 *        (one injection channel per output channel; its last term is
 *        lambda_cr in both loads)
 *   (27) S_s = ((n lambda_sb + lambda_sr) S_b + lambda_su S_u)
 *              / (n lambda_sb + lambda_sr + lambda_su)
 *        (the message mix the injection channels carry: n copies per
 *        broadcast at the source, not 1, and the relays)
 * and eqs 4, 17 follow through lambda_cr.  Zero-load latency is the same
 * (no rate enters it); the saturation rate is lower.
 *
 * Units: time in cycles (flit times), rates in messages per cycle.
 *
 * Equations (paper numbering; the OCR fixes of SPEC 4 in brackets):
 *   (3)  lambda_sb = beta lambda_g,  lambda_su = (1 - beta) lambda_g,
 *        lambda_sr = (2^(n-1) - 1) lambda_sb
 *   (5)  p_i = C(n,i) / (2^n - 1)                 [denominator 2^n - 1]
 *   (6)  d = sum_{i=1..n} i p_i  (= (n/2) N/(N-1), N = 2^n)
 *   (7)  lambda_cu = lambda_su d / n
 *   (8)  lambda_cb = lambda_sb
 *   (9,10) omega = sum_{i=0..n-1} i 2^(n-i-1) / (2^n - 1)   [same fix]
 *   (11) lambda_cr = (omega / n) lambda_sr
 *   (4)  lambda_c = lambda_cu + lambda_cb + lambda_cr
 *   (29,30) q_0 = 1, q_v = q_(v-1) lambda_c S (0 < v < V),
 *        q_V = q_(V-1) lambda_c / (1/S - lambda_c), P_v = q_v / sum_j q_j
 *   (19) W_c = lambda_c S^2 (1 + (S - M)^2 / S^2) / (2 (1 - lambda_c S))
 *   (13) B_b = P_V W_c                  (12) S_b = M + B_b
 *   (23) P_a = P_(V-1) / V + P_V        (24) P_d = P_V
 *   (25) P_bj = P_a^(i-j) P_d           (22) B_uj = P_bj W_c
 *   (21) S_ui = M + i + sum_{j=1..i} B_uj
 *   (20) S_u = sum_{i=1..n} p_i S_ui
 *   (17) S = ((lambda_cb + lambda_cr) S_b + lambda_cu S_u) / lambda_c
 *   (26) lambda_s = lambda_su / n + lambda_sb + (omega / n) lambda_sr
 *   (27) S_s = ((lambda_sb + lambda_sr) S_b + lambda_su S_u)
 *              / (lambda_su + lambda_sb + lambda_sr)
 *   (28) W_s = lambda_s S_s^2 (1 + (S_s - M)^2 / S_s^2)
 *              / (2 (1 - lambda_s S_s))
 *   (31) Vbar = sum_{i=1..V} i^2 P_i / sum_{i=1..V} i P_i   (1 at rate 0)
 *   (2)  L_b = (S_b + W_s) Vbar
 *   (1)  Latency = n (L_b + Delta)
 *
 * The fixed point.  With r = lambda_c S the chain (29, 30) sums to
 * 1/(1 - r), so P_v = (1 - r) r^v for v < V and P_V = r^V: a truncated
 * geometric law.  Writing a = (lambda_cb + lambda_cr) / lambda_c and
 * b = lambda_cu / lambda_c (ratios that do not depend on lambda_g),
 *   F(S) = M + b d + P_V W_c (a + b H(P_a)),
 *   H(x) = sum_{i=1..n} p_i sum_{k=0..i-1} x^k = sum_{k=0..n-1} T_k x^k,
 *   T_k = sum_{i=k+1..n} p_i.
 * On [M, 1/lambda_c) each factor (r^V, P_a and so H(P_a), W_c) has
 * non-negative derivatives of every order, so F is increasing and convex,
 * and G(S) = F(S) - S is convex with G(M) > 0 (for lambda_c > 0) and
 * G -> +inf as S -> 1/lambda_c.  Hence the roots of G are the lowest root
 * r1 and a second one r2 >= r1, or none; saturation is min G > 0.  The
 * solver (hc_bracket) walks Newton iterates up from M: for a convex G every
 * Newton iterate from a point with G > 0, G' < 0 stays at or below r1, so
 * a point with G <= 0 brackets r1, and a point with G > 0, G' >= 0 proves
 * that no root exists.  When a probe lands beyond the minimum the minimum
 * is found (Brent on G') and its sign decides.  The bracket is polished by
 * GSL's Brent solver.  No iteration cap decides saturation: a cap only
 * gives ML_ENOCONV.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_pow_int.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_sf_gamma.h>

#include "mcastlat/hypercube.h"

/* Probe past the next Newton iterate once its step is below this fraction
 * of S (Newton is then in its fast phase and the probe brackets r1). */
#define HC_PROBE_STEP 1e-2

/* Everything that does not depend on S, for one parameter set. */
struct hc_ctx {
	unsigned n, v;
	double m;
	double d;			/* eq 6 */
	double omega;			/* eq 10 */
	double a, b;			/* S_b and S_u weights of eq 17 */
	double as, bs;			/* S_b and S_u weights of eq 27 */
	double lc, ls;			/* eqs 4 and 26 */
	double smax;			/* 1 / lambda_c */
	double t[ML_HYPERCUBE_MAX_DIM]; /* T_k of H */
	double lsb, lsu, lsr, lcu, lcb, lcr;
	unsigned evals;
};

/* The quantities of eqs 12 to 25 at one S. */
struct hc_at {
	double r, pv, pa, wc, sb, su, f, df;
};

/*
 * Section 4 (validation) and Figure 1: the smallest of its cases, N = 2^6,
 * V = 2, M = 32 flits, beta = 0.01 (of 0.005, 0.01, 0.02), Delta = 1
 * cycle; lambda_g = 0.001, a light load below the 6-cube's saturation
 * (the paper fixes no rate).  The command's defaults.
 */
void ml_hypercube_params_init(struct ml_hypercube_params *p)
{
	p->dim = 6;
	p->vcs = 2;
	p->flits = 32;
	p->beta = 0.01;
	p->rate = 0.001;
	p->delta = 1;
	p->load = ML_HYPERCUBE_LOAD_PAPER;
	p->epsrel = ML_HYPERCUBE_EPSREL;
	p->sat_epsrel = ML_HYPERCUBE_SAT_EPSREL;
	p->max_iter = ML_HYPERCUBE_MAX_ITER;
}

enum ml_status ml_hypercube_validate(const struct ml_hypercube_params *p,
				     struct ml_diag *d)
{
	if (p->dim < 1 || p->dim > ML_HYPERCUBE_MAX_DIM)
		return ml_diag_set(d, "dim", "%u is outside [1,%d]", p->dim,
				   ML_HYPERCUBE_MAX_DIM);
	if (p->vcs < 2 || p->vcs > ML_HYPERCUBE_MAX_VCS)
		return ml_diag_set(d, "vcs", "%u is outside [2,%d]", p->vcs,
				   ML_HYPERCUBE_MAX_VCS);
	if (!(p->flits >= 1) || !isfinite(p->flits))
		return ml_diag_set(d, "flits", "%g must be a number >= 1",
				   p->flits);
	if (!(p->beta >= 0 && p->beta <= 1))
		return ml_diag_set(d, "beta", "%g is outside [0,1]", p->beta);
	if (!(p->rate >= 0) || !isfinite(p->rate))
		return ml_diag_set(d, "rate", "%g must be a number >= 0",
				   p->rate);
	if (!(p->delta >= 0) || !isfinite(p->delta))
		return ml_diag_set(d, "delta", "%g must be a number >= 0",
				   p->delta);
	if ((unsigned)p->load >= ML_HYPERCUBE_NLOAD)
		return ml_diag_set(d, "load", "unknown channel load %u",
				   (unsigned)p->load);
	if (!(p->epsrel >= 1e-15 && p->epsrel <= 1e-3))
		return ml_diag_set(d, "epsrel", "%g is outside [1e-15,1e-3]",
				   p->epsrel);
	if (!(p->sat_epsrel >= 1e-15 && p->sat_epsrel <= 1e-2))
		return ml_diag_set(d, "sat_epsrel",
				   "%g is outside [1e-15,1e-2]", p->sat_epsrel);
	if (p->max_iter < 10)
		return ml_diag_set(d, "max_iter", "%u is below 10",
				   p->max_iter);
	return ML_OK;
}

enum ml_status ml_hypercube_mean_distance(unsigned n, double *d)
{
	double nm1, sum = 0;
	unsigned i;

	if (n < 1 || n > ML_HYPERCUBE_MAX_DIM)
		return ML_EINVAL;
	nm1 = ldexp(1, (int)n) - 1;
	for (i = 1; i <= n; i++) {
		gsl_sf_result c;

		if (gsl_sf_choose_e(n, i, &c) != GSL_SUCCESS)
			return ML_ENOCONV;
		sum += i * (c.val / nm1); /* eqs 5, 6 */
	}
	*d = sum;
	return ML_OK;
}

/* Eqs 9, 10 for 1 <= n <= ML_HYPERCUBE_MAX_DIM. */
static double omega_of(unsigned n)
{
	double nm1 = ldexp(1, (int)n) - 1, w = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		w += i * (ldexp(1, (int)(n - i - 1)) / nm1); /* eqs 9, 10 */
	return w;
}

enum ml_status ml_hypercube_omega(unsigned n, double *omega)
{
	if (n < 1 || n > ML_HYPERCUBE_MAX_DIM)
		return ML_EINVAL;
	*omega = omega_of(n);
	return ML_OK;
}

/*
 * Set up everything that does not depend on S.  The weights a, b, as, bs
 * are computed from the rates per unit lambda_g so that they are defined
 * (and exact) at lambda_g = 0 too.
 */
static enum ml_status hc_setup(const struct ml_hypercube_params *p,
			       struct hc_ctx *c)
{
	double nm1, pi[ML_HYPERCUBE_MAX_DIM + 1], tail, rep, relay, cu, cbr,
	    lam;
	unsigned i, n = p->dim;

	c->n = n;
	c->v = p->vcs;
	c->m = p->flits;
	c->evals = 0;
	nm1 = ldexp(1, (int)n) - 1;
	c->d = 0;
	for (i = 1; i <= n; i++) {
		gsl_sf_result ch;

		if (gsl_sf_choose_e(n, i, &ch) != GSL_SUCCESS)
			return ML_ENOCONV;
		pi[i] = ch.val / nm1; /* eq 5 */
		c->d += i * pi[i];    /* eq 6 */
	}
	tail = 0;
	for (i = n; i >= 1; i--) {
		tail += pi[i];
		c->t[i - 1] = tail;
	}
	c->omega = omega_of(n);
	rep = ldexp(1, (int)n - 1) - 1; /* eq 3: replicating nodes */
	relay = nm1 - n;		/* tree: relays per broadcast */

	/* Rates per unit lambda_g (header comment for the tree load). */
	cu = (1 - p->beta) * c->d / n; /* eq 7 */
	if (p->load == ML_HYPERCUBE_LOAD_TREE) {
		cbr = p->beta + relay * p->beta / n; /* eqs 8, 11 */
		c->as = (n + relay) * p->beta /
			((n + relay) * p->beta + (1 - p->beta));
		c->bs = (1 - p->beta) / ((n + relay) * p->beta + (1 - p->beta));
	} else {
		cbr = p->beta + c->omega / n * rep * p->beta; /* eqs 8, 11 */
		c->as = (p->beta + rep * p->beta) / (1 + rep * p->beta);
		c->bs = (1 - p->beta) / (1 + rep * p->beta);
	}
	c->a = cbr / (cu + cbr);
	c->b = cu / (cu + cbr);

	lam = p->rate;
	c->lsb = p->beta * lam;
	c->lsu = (1 - p->beta) * lam;
	c->lcu = c->lsu * c->d / n;
	c->lcb = c->lsb;
	if (p->load == ML_HYPERCUBE_LOAD_TREE) {
		c->lsr = relay * c->lsb;
		c->lcr = c->lsr / n;
	} else {
		c->lsr = rep * c->lsb;
		c->lcr = c->omega / n * c->lsr;
	}
	c->lc = c->lcu + c->lcb + c->lcr;
	c->ls = c->lsu / n + c->lsb + c->lcr; /* eq 26 */
	c->smax = c->lc > 0 ? 1 / c->lc : INFINITY;
	return ML_OK;
}

/*
 * F and F' at S = s (eqs 12, 13, 17, 19 to 25, 29, 30 in the closed form
 * of the header comment).  Outside the domain (lambda_c s >= 1) F is +inf.
 */
static void hc_eval_at(struct hc_ctx *c, double s, struct hc_at *o)
{
	const double lc = c->lc, m = c->m;
	const unsigned v = c->v;
	double u, q, dq, rv1, drv, dpa, h, dh, k;
	unsigned i;

	c->evals++;
	o->r = lc * s;
	u = 1 - o->r;
	if (!(u > 0)) {
		o->pv = o->pa = 1;
		o->wc = o->sb = o->su = o->f = o->df = INFINITY;
		return;
	}
	q = s * s + (s - m) * (s - m);
	dq = 4 * s - 2 * m;
	o->wc = lc * q / (2 * u); /* eq 19 */
	rv1 = gsl_pow_uint(o->r, v - 1);
	o->pv = rv1 * o->r;			/* P_V = r^V */
	o->pa = rv1 * (1 + (v - 1) * o->r) / v; /* eq 23 */
	drv = v * lc * rv1;			/* d P_V / dS */
	dpa = lc * (v - 1) * gsl_pow_uint(o->r, v - 2) * (1 + v * o->r) / v;

	/* H(P_a) and H'(P_a) by Horner. */
	h = c->t[c->n - 1];
	dh = 0;
	for (i = c->n - 1; i-- > 0;) {
		dh = dh * o->pa + h;
		h = h * o->pa + c->t[i];
	}
	o->sb = m + o->pv * o->wc;	      /* eqs 12, 13 */
	o->su = m + c->d + o->pv * o->wc * h; /* eqs 20 to 22 */
	k = c->a + c->b * h;
	o->f = m + c->b * c->d + o->pv * o->wc * k; /* eq 17 */
	o->df =
	    (drv * o->wc + o->pv * lc * (dq * u + lc * q) / (2 * u * u)) * k +
	    o->pv * o->wc * c->b * dh * dpa;
}

static double hc_g(double s, void *vp)
{
	struct hc_at o;

	hc_eval_at(vp, s, &o);
	return o.f - s;
}

static double hc_dg(double s, void *vp)
{
	struct hc_at o;

	hc_eval_at(vp, s, &o);
	return o.df - 1;
}

/*
 * Brent on fn over [lo, hi] (fn(lo) and fn(hi) finite and of opposite
 * signs or zero, checked by the caller so that GSL never raises an error)
 * until the bracket is narrower than epsrel relative.
 */
static enum ml_status hc_brent(gsl_root_fsolver *sv,
			       double (*fn)(double, void *), struct hc_ctx *c,
			       double lo, double hi,
			       const struct ml_hypercube_params *p, double *x)
{
	gsl_function gf;
	unsigned it;

	if (lo >= hi) {
		*x = lo;
		return ML_OK;
	}
	gf.function = fn;
	gf.params = c;
	if (gsl_root_fsolver_set(sv, &gf, lo, hi) != GSL_SUCCESS)
		return ML_ENOCONV;
	for (it = 0; it < p->max_iter; it++) {
		int st;

		if (gsl_root_fsolver_iterate(sv) != GSL_SUCCESS)
			return ML_ENOCONV;
		lo = gsl_root_fsolver_x_lower(sv);
		hi = gsl_root_fsolver_x_upper(sv);
		st = gsl_root_test_interval(lo, hi, 0, p->epsrel);
		if (st == GSL_SUCCESS) {
			*x = gsl_root_fsolver_root(sv);
			return ML_OK;
		}
		if (st != GSL_CONTINUE)
			return ML_ENOCONV;
	}
	return ML_ENOCONV;
}

/*
 * Both roots (if any) lie in (lo, hi), where G(lo) > 0 > G'(lo) and
 * G(hi) > 0 <= G'(hi) = dhi: locate the minimum of G (Brent on the
 * increasing G') and let the sign of G there decide.  On ML_OK
 * [*blo, *bhi] brackets the lowest root.
 */
static enum ml_status hc_by_minimum(gsl_root_fsolver *sv, struct hc_ctx *c,
				    const struct ml_hypercube_params *p,
				    double lo, double hi, double dhi,
				    double *blo, double *bhi)
{
	struct hc_at o;
	double smin;
	enum ml_status st;

	if (!isfinite(dhi)) /* GSL's Brent needs finite values */
		return ML_ENOCONV;
	st = hc_brent(sv, hc_dg, c, lo, hi, p, &smin);
	if (st != ML_OK)
		return st;
	hc_eval_at(c, smin, &o);
	if (o.f - smin > 0)
		return ML_SATURATED;
	*blo = lo;
	*bhi = smin;
	return ML_OK;
}

/*
 * Bracket the lowest root of G on [M, 1/lambda_c) (lambda_c > 0): return
 * ML_OK with G(*blo) > 0 >= G(*bhi), or ML_SATURATED when G has no root
 * there.  Every decision rests on the convexity of G (header comment).
 */
static enum ml_status hc_bracket(gsl_root_fsolver *sv, struct hc_ctx *c,
				 const struct ml_hypercube_params *p,
				 double *blo, double *bhi)
{
	struct hc_at o;
	double lo, glo, dlo, x;
	unsigned it;

	lo = c->m;
	if (!(lo < c->smax))
		return ML_SATURATED;
	hc_eval_at(c, lo, &o);
	glo = o.f - lo;
	dlo = o.df - 1;
	if (glo <= 0) { /* only by underflow: G(M) > 0 in exact arithmetic */
		*blo = *bhi = lo;
		return ML_OK;
	}
	if (dlo >= 0)
		return ML_SATURATED; /* G increasing from G(M) > 0 */

	/* Invariant: G(lo) > 0 > G'(lo) and lo <= r1 when r1 exists. */
	for (it = 0; it < p->max_iter; it++) {
		double gx, dx, h2, pr;

		x = lo - glo / dlo; /* Newton: x <= r1, tangent below G */
		if (!(x < c->smax))
			return ML_SATURATED;
		hc_eval_at(c, x, &o);
		gx = o.f - x;
		dx = o.df - 1;
		if (gx <= 0) {
			*blo = lo;
			*bhi = x;
			return ML_OK;
		}
		if (dx >= 0)
			return ML_SATURATED; /* past the minimum, G > 0 */
		lo = x;
		glo = gx;
		dlo = dx;

		/* Probe at twice the next Newton step: in Newton's fast
		 * phase r1 lies just past the next iterate. */
		h2 = -gx / dx;
		if (h2 > HC_PROBE_STEP * x)
			continue;
		pr = x + 2 * h2;
		if (pr == x)
			pr = nextafter(x, INFINITY);
		if (!(pr < c->smax))
			continue;
		hc_eval_at(c, pr, &o);
		if (o.f - pr <= 0) {
			*blo = x;
			*bhi = pr;
			return ML_OK;
		}
		if (o.df - 1 < 0) {
			/* G > 0 and falling: still left of r1. */
			lo = pr;
			glo = o.f - pr;
			dlo = o.df - 1;
			continue;
		}
		/* G > 0 and rising: both roots, if any, in (x, pr). */
		return hc_by_minimum(sv, c, p, x, pr, o.df - 1, blo, bhi);
	}
	return ML_ENOCONV;
}

/* Eqs 26 to 28, 31, 2 and 1 at the fixed point s. */
static enum ml_status hc_finish(struct hc_ctx *c,
				const struct ml_hypercube_params *p, double s,
				struct ml_hypercube_result *res)
{
	struct hc_at o;
	double ss, rs, num = 0, den = 0, ri = 1;
	unsigned i;

	hc_eval_at(c, s, &o);
	ss = c->as * o.sb + c->bs * o.su; /* eq 27 */
	rs = c->ls * ss;
	if (!(rs < 1))
		return ML_SATURATED;
	res->s = s;
	res->s_b = o.sb;
	res->s_u = o.su;
	res->s_s = ss;
	res->w_c = o.wc;
	res->w_s = c->ls * (ss * ss + (ss - c->m) * (ss - c->m)) /
		   (2 * (1 - rs)); /* eq 28 */
	/* Eq 31 with P_i / r (so that r = 0 gives the limit 1 exactly):
	 * P_i / r = (1 - r) r^(i-1) for i < V, P_V / r = r^(V-1). */
	for (i = 1; i < c->v; i++) {
		double pr = (1 - o.r) * ri;

		num += (double)i * i * pr;
		den += i * pr;
		ri *= o.r;
	}
	num += (double)c->v * c->v * ri;
	den += c->v * ri;
	res->vbar = num / den;
	res->rho = o.r;
	res->rho_s = rs;
	res->p_v = o.pv;
	res->p_a = o.pa;
	res->latency = p->dim * ((res->s_b + res->w_s) * res->vbar + p->delta);
	return ML_OK;
}

static void hc_rates(const struct hc_ctx *c, struct ml_hypercube_result *res)
{
	res->lambda_sb = c->lsb;
	res->lambda_su = c->lsu;
	res->lambda_sr = c->lsr;
	res->lambda_c = c->lc;
	res->lambda_cu = c->lcu;
	res->lambda_cb = c->lcb;
	res->lambda_cr = c->lcr;
	res->lambda_s = c->ls;
	res->iter = c->evals;
}

static void hc_nan(struct ml_hypercube_result *res)
{
	res->latency = res->s = res->s_b = res->s_u = res->s_s = NAN;
	res->w_c = res->w_s = res->vbar = res->rho = res->rho_s = NAN;
	res->p_v = res->p_a = NAN;
}

/*
 * Solve at p->rate.  exist_only: the caller needs only to know whether a
 * solution exists, so the root is polished only when the source
 * condition lambda_s S_s < 1 cannot be decided from the bracket.
 */
static enum ml_status hc_solve(const struct ml_hypercube_params *p,
			       struct hc_ctx *c, gsl_root_fsolver **sv,
			       bool exist_only, struct ml_hypercube_result *res)
{
	enum ml_status st;
	double lo, hi, s;

	st = hc_setup(p, c);
	if (st != ML_OK)
		return st;
	if (c->lc == 0) /* zero load: F is the constant M + b d */
		return hc_finish(c, p, c->m + c->b * c->d, res);
	if (*sv == NULL) {
		*sv = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
		if (*sv == NULL)
			return ML_ENOMEM;
	}
	st = hc_bracket(*sv, c, p, &lo, &hi);
	if (st != ML_OK)
		return st;
	if (exist_only) {
		/* S_s grows with S, and the root is at most hi. */
		struct hc_at o;

		hc_eval_at(c, hi, &o);
		if (c->ls * (c->as * o.sb + c->bs * o.su) < 1)
			return ML_OK;
	}
	st = hc_brent(*sv, hc_g, c, lo, hi, p, &s);
	if (st != ML_OK)
		return st;
	return hc_finish(c, p, s, res);
}

enum ml_status ml_hypercube_eval(const struct ml_hypercube_params *p,
				 struct ml_hypercube_result *res)
{
	struct hc_ctx c = {0};
	struct ml_hypercube_result r;
	gsl_root_fsolver *sv = NULL;
	enum ml_status st;

	st = ml_hypercube_validate(p, NULL);
	if (st != ML_OK)
		return st;
	hc_nan(&r);
	st = hc_solve(p, &c, &sv, false, &r);
	gsl_root_fsolver_free(sv);
	if (st == ML_ENOMEM)
		return st;
	if (st != ML_OK)
		hc_nan(&r);
	hc_rates(&c, &r);
	*res = r;
	return st;
}

enum ml_status ml_hypercube_saturation(const struct ml_hypercube_params *p,
				       double *lambda_sat)
{
	struct ml_hypercube_params q;
	struct hc_ctx c;
	struct ml_hypercube_result r;
	gsl_root_fsolver *sv = NULL;
	enum ml_status st;
	double lo, hi;

	st = ml_hypercube_validate(p, NULL);
	if (st != ML_OK)
		return st;
	/*
	 * Existence is monotone in lambda_g: F grows with lambda_c at every
	 * S, so the lowest root (and S_s, lambda_s with it) grows with
	 * lambda_g.  lambda_g = 0 always has a solution; at lambda_g with
	 * lambda_c M = 1 the domain [M, 1/lambda_c) is empty.
	 */
	q = *p;
	q.rate = 1;
	st = hc_setup(&q, &c);
	if (st != ML_OK)
		return st;
	lo = 0;
	hi = 1 / (c.lc * p->flits);
	while (lo == 0 || hi - lo > p->sat_epsrel * lo) {
		double mid = lo + (hi - lo) / 2;

		if (!(mid > lo && mid < hi))
			break;
		q.rate = mid;
		st = hc_solve(&q, &c, &sv, true, &r);
		if (st == ML_OK)
			lo = mid;
		else if (st == ML_SATURATED)
			hi = mid;
		else
			break;
	}
	gsl_root_fsolver_free(sv);
	if (st != ML_OK && st != ML_SATURATED)
		return st;
	*lambda_sat = lo;
	return ML_OK;
}

enum ml_status ml_hypercube_map(const struct ml_hypercube_params *p, double s,
				double *f)
{
	struct hc_ctx c;
	struct hc_at o;
	enum ml_status st;

	st = ml_hypercube_validate(p, NULL);
	if (st != ML_OK)
		return st;
	st = hc_setup(p, &c);
	if (st != ML_OK)
		return st;
	if (!(s >= p->flits && c.lc * s < 1))
		return ML_EINVAL;
	hc_eval_at(&c, s, &o);
	*f = o.f;
	return ML_OK;
}
