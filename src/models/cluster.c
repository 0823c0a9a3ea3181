/*
 * cluster.c - cluster communication cost model (thesis chapter 2.2).
 *
 * A message of M bytes goes as k = ceil(M / b) packets of at most b bytes
 * (M = 0 is one empty packet).  Each per-packet cost is linear in the
 * packet size m = min(M, b) (eqs 2.1 to 2.5):
 *
 *   O_s = kappa_s + tau_s m     g_s = g1 + tau1 m     g_r = g2 + tau2 m
 *   L   = l + tau_L m           O_r = kappa_r + tau_r m     g = max(g_s, g_r)
 *
 *   p2p   (2.6)  T = O_s + (k-1) g + L + O_r + U_r
 *   xchg  (2.7)  T as p2p: the links are full duplex
 *   bcast, binomial tree, h = ceil(log2 p), T0 = O_r + U_r + O_s:
 *         (2.8)  B = ctm(M) + h ((k-1) g + L + O_r + U_r + O_s)
 *         (2.9)  B = ctm(M) + (h + k - 1) T0 + L h + (k-1)(h-2) O_s
 *   auto picks 2.8 when T0 < 2 max(g, O_s) (a node finishes relaying one
 *   packet before the next arrives: no interference), else 2.9.
 *
 * The thesis assumes O_s + O_r + U_r < g < L (full_duplex); outside it
 * the formulas are still evaluated and the flag says so.
 */
#include <math.h>

#include "mcastlat/cluster.h"

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
	if (!(p->ctm_per_byte >= 0) || !isfinite(p->ctm_per_byte))
		return ml_diag_set(d, "ctm-per-byte", "%g must be >= 0",
				   p->ctm_per_byte);
	if (!(p->mtu >= 1) || !isfinite(p->mtu))
		return ml_diag_set(d, "mtu", "%g must be >= 1", p->mtu);
	if (!(p->msg >= 0) || !isfinite(p->msg))
		return ml_diag_set(d, "msg", "%g must be >= 0", p->msg);
	if (p->nodes < 2)
		return ml_diag_set(d, "nodes", "%lld must be >= 2", p->nodes);
	if (p->op > ML_CLUSTER_BCAST)
		return ml_diag_set(d, "op", "unknown operation");
	if (p->formula > ML_CLUSTER_EQ29)
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

enum ml_status ml_cluster_eval(const struct ml_cluster_params *p,
			       struct ml_cluster_result *res)
{
	double k, m, os, g, lat, orcv, t0, ctm;
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
	if (p->op != ML_CLUSTER_BCAST) {
		/* eq 2.6; eq 2.7 has the same value on full-duplex links */
		res->time = os + (k - 1) * g + lat + orcv + p->ur;
		return ML_OK;
	}
	h = ceil_log2(p->nodes);
	ctm = p->ctm_per_byte * p->msg;
	f = p->formula;
	if (f == ML_CLUSTER_AUTO)
		f = t0 < 2 * fmax(g, os) ? ML_CLUSTER_EQ28 : ML_CLUSTER_EQ29;
	if (f == ML_CLUSTER_EQ28)
		res->time = ctm + (double)h * ((k - 1) * g + lat + t0);
	else
		res->time = ctm + ((double)h + k - 1) * t0 + lat * (double)h +
			    (k - 1) * ((double)h - 2) * os;
	res->h = h;
	res->used = f;
	return ML_OK;
}
