/*
 * cluster.c - cluster communication cost model (thesis chapter 2.2).
 *
 * A message of M bytes goes as k = ceil(M / b) packets of at most b bytes
 * (M = 0 is one empty packet).  Each per-packet cost is linear in the
 * packet size m = min(M, b) (eqs 2.1 to 2.5, the thesis's numbering):
 *
 *   (2.1) O_s = kappa_s + tau_s m     (2.2) g_s = g1 + tau1 m
 *   (2.3) L   = l + tau_L m           (2.4) g_r = g2 + tau2 m
 *   (2.5) O_r = kappa_r + tau_r m     g = max(g_s, g_r)
 *
 *   p2p   (2.6)  T = O_s + (k-1) g + L + O_r + U_r
 *   xchg  (2.7)  T as p2p: the links are full duplex
 *   bcast, binomial tree, h = ceil(log2 p), T0 = O_r + U_r + O_s:
 *         (2.8)  B = ctm(M) + h ((k-1) g + L + O_r + U_r + O_s)
 *         (2.9)  B = ctm(M) + (h + k - 1) T0 + L h + (k-1)(h-2) O_s
 *
 * Which broadcast formula.  2.9 - 2.8 = (k-1) (T0 + (h-2) O_s - h g):
 * the two agree for k = 1, and for k > 1 eq 2.9 is larger exactly when
 * the relay's per-packet work T0 + (h-2) O_s exceeds the root's h g.
 * The thesis switches by another test (2.8 when T0 < 2 max(g, O_s)),
 * under which the broadcast can get cheaper when a cost rises (p = 64,
 * k = 10, g = 2, O_s = 0.5, L = 1, U_r = 0: O_r 3.45 -> 3.5 gives 137.7
 * -> 84).  Eq 2.8 is the schedule whose bottleneck is the root (Figure
 * 2.3), eq 2.9 the one whose bottleneck is the relay at p/2 (Figure 2.4),
 * and the broadcast cannot beat either, so auto takes the larger.  Each
 * formula alone is non-decreasing in every cost for h >= 2 (every
 * coefficient is >= 0), so the larger is too.  The thesis's rule stays
 * available as ML_CLUSTER_THESIS.
 *
 * For h < 2 (p = 2) there is no node that both receives and forwards, so
 * eq 2.9's relay terms (and its (h-2) O_s < 0) do not apply: every
 * formula gives eq 2.8 = eq 2.6 + ctm(M), a point-to-point message plus
 * the broadcast's copy.
 *
 * The thesis assumes O_s + O_r + U_r < g < L (full_duplex); outside it
 * the formulas are still evaluated and the flag says so.
 */
#include <math.h>

#include "mcastlat/cluster.h"

/*
 * The thesis's Figure 2.3 example (chapter 2.2): p = 16, L = 4, g = 2
 * (g_s = g_r), O_s = 1, O_r = 1.5, U_r = 0.5 us, costs independent of the
 * packet size, no cache-to-memory copy; b = 1500 bytes, the Ethernet MTU
 * of the thesis's cluster; an empty message.  The command's defaults.
 */
void ml_cluster_params_init(struct ml_cluster_params *p)
{
	*p = (struct ml_cluster_params){
	    .os = {1, 0},
	    .gs = {2, 0},
	    .gr = {2, 0},
	    .lat = {4, 0},
	    .orcv = {1.5, 0},
	    .ur = 0.5,
	    .ctm_per_byte = 0,
	    .mtu = 1500,
	    .msg = 0,
	    .nodes = 16,
	    .op = ML_CLUSTER_P2P,
	    .formula = ML_CLUSTER_AUTO,
	};
}

static double lin(const struct ml_cluster_linear *c, double m)
{
	return c->fixed + c->per_byte * m;
}

static enum ml_status check_linear(const struct ml_cluster_linear *c,
				   const char *fixed, const char *per_byte,
				   struct ml_diag *d)
{
	if (!(c->fixed >= 0) || !isfinite(c->fixed))
		return ml_diag_set(d, fixed, "%g must be >= 0", c->fixed);
	if (!(c->per_byte >= 0) || !isfinite(c->per_byte))
		return ml_diag_set(d, per_byte, "%g must be >= 0",
				   c->per_byte);
	return ML_OK;
}

enum ml_status ml_cluster_validate(const struct ml_cluster_params *p,
				   struct ml_diag *d)
{
	if (check_linear(&p->os, "os-fixed", "os-per-byte", d) ||
	    check_linear(&p->gs, "gs-fixed", "gs-per-byte", d) ||
	    check_linear(&p->gr, "gr-fixed", "gr-per-byte", d) ||
	    check_linear(&p->lat, "latency-fixed", "latency-per-byte", d) ||
	    check_linear(&p->orcv, "or-fixed", "or-per-byte", d))
		return ML_EINVAL;
	if (!(p->ur >= 0) || !isfinite(p->ur))
		return ml_diag_set(d, "ur", "%g must be >= 0", p->ur);
	if (!(p->mtu >= 1) || !isfinite(p->mtu))
		return ml_diag_set(d, "mtu", "%g must be >= 1", p->mtu);
	if (!(p->msg >= 0) || !isfinite(p->msg))
		return ml_diag_set(d, "msg", "%g must be >= 0", p->msg);
	if (p->op > ML_CLUSTER_BCAST)
		return ml_diag_set(d, "op", "unknown operation");
	if (p->op != ML_CLUSTER_BCAST)
		return ML_OK; /* p, ctm and the formula are bcast's alone */
	if (!(p->ctm_per_byte >= 0) || !isfinite(p->ctm_per_byte))
		return ml_diag_set(d, "ctm-per-byte", "%g must be >= 0",
				   p->ctm_per_byte);
	if (p->nodes < 2)
		return ml_diag_set(d, "nodes", "%lld must be >= 2 for bcast",
				   p->nodes);
	if (p->formula > ML_CLUSTER_THESIS)
		return ml_diag_set(d, "formula", "unknown formula");
	return ML_OK;
}

/* ceil(log2 p) for p >= 1, exact for every 64-bit p. */
static long long ceil_log2(long long p)
{
	long long h = 0;
	unsigned long long x = 1;

	while (x < (unsigned long long)p) {
		x <<= 1;
		h++;
	}
	return h;
}

/* Which formula a bcast with h >= 2 uses, given both values. */
static enum ml_cluster_formula pick(enum ml_cluster_formula f, double b28,
				    double b29, double t0, double g, double os)
{
	switch (f) {
	case ML_CLUSTER_AUTO:
		return b29 > b28 ? ML_CLUSTER_EQ29 : ML_CLUSTER_EQ28;
	case ML_CLUSTER_THESIS:
		return t0 < 2 * fmax(g, os) ? ML_CLUSTER_EQ28 : ML_CLUSTER_EQ29;
	case ML_CLUSTER_EQ28:
	case ML_CLUSTER_EQ29:
		break;
	}
	return f;
}

enum ml_status ml_cluster_eval(const struct ml_cluster_params *p,
			       struct ml_cluster_result *res)
{
	double k, m, os, g, lat, orcv, t0, ctm, hd;
	long long h;
	enum ml_cluster_formula f;

	if (ml_cluster_validate(p, NULL) != ML_OK)
		return ML_EINVAL;
	k = p->msg > 0 ? ceil(p->msg / p->mtu) : 1.0;
	m = fmin(p->msg, p->mtu);
	os = lin(&p->os, m);
	g = fmax(lin(&p->gs, m), lin(&p->gr, m));
	lat = lin(&p->lat, m);
	orcv = lin(&p->orcv, m);
	t0 = orcv + p->ur + os;

	res->packets = k;
	res->os = os;
	res->g = g;
	res->lat = lat;
	res->orcv = orcv;
	res->full_duplex = os + orcv + p->ur < g && g < lat;
	res->h = 0;
	res->used = ML_CLUSTER_AUTO;
	res->b28 = res->b29 = NAN;
	if (p->op != ML_CLUSTER_BCAST) {
		/* eq 2.6; eq 2.7 has the same value on full-duplex links */
		res->time = os + (k - 1) * g + lat + orcv + p->ur;
		return ML_OK;
	}
	h = ceil_log2(p->nodes);
	hd = (double)h;
	ctm = p->ctm_per_byte * p->msg;
	res->b28 = ctm + hd * ((k - 1) * g + lat + t0);
	if (h < 2) {
		/* p = 2: one message, no relay (header comment) */
		res->b29 = res->b28;
		f = ML_CLUSTER_EQ28;
	} else {
		res->b29 = ctm + (hd + k - 1) * t0 + lat * hd +
			   (k - 1) * (hd - 2) * os;
		f = pick(p->formula, res->b28, res->b29, t0, g, os);
	}
	res->time = f == ML_CLUSTER_EQ28 ? res->b28 : res->b29;
	res->h = h;
	res->used = f;
	return ML_OK;
}
