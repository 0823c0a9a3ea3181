/*
 * fit_cluster.c - the cluster model's fitting adapter: its costs, its
 * pieces and the assignments of pieces that a fit tries.
 *
 * With h = ceil(log2 p), k packets of m = min(M, b) bytes, every cost
 * c(m) = fixed + per_byte m, the prediction (cluster.c) is the largest
 * of these pieces, each linear in the costs:
 *
 *   p2p, xchg        O_s + L + O_r + U_r + (k-1) g_x      x = s or r
 *   bcast (2.8)      c M + h (O_s + L + O_r + U_r + (k-1) g_x)
 *   bcast (2.9)      c M + (h+k-1)(O_s + O_r + U_r) + h L + (k-1)(h-2) O_s
 *
 * (g = max(g_s, g_r); eq 2.9 only for k > 1 and h >= 2, where it can
 * differ from eq 2.8).  Which piece is the largest: the gap is one
 * choice for the whole data set (multi-packet points all have m = b,
 * and the data have one MTU); eq 2.9 beats eq 2.8 exactly when
 * T0 - 2 O_s + h (O_s - g) > 0, linear in h, so the depths in the eq 2.9
 * regime are a prefix or a suffix of the sorted distinct depths.  The
 * candidates are therefore 2 gaps x (prefixes and suffixes): the true
 * optimum's assignment is among them.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "fit/fitint.h"
#include "mcastlat/cluster.h"

enum {
	P_OS_F,
	P_OS_B,
	P_GS_F,
	P_GS_B,
	P_GR_F,
	P_GR_B,
	P_LAT_F,
	P_LAT_B,
	P_OR_F,
	P_OR_B,
	P_UR,
	P_CTM,
	NPARAM
};

#define FIELD(n, f) {n, offsetof(struct ml_cluster_params, f)}

static const struct fit_param params[NPARAM] = {
    [P_OS_F] = FIELD("os-fixed", os.fixed),
    [P_OS_B] = FIELD("os-per-byte", os.per_byte),
    [P_GS_F] = FIELD("gs-fixed", gs.fixed),
    [P_GS_B] = FIELD("gs-per-byte", gs.per_byte),
    [P_GR_F] = FIELD("gr-fixed", gr.fixed),
    [P_GR_B] = FIELD("gr-per-byte", gr.per_byte),
    [P_LAT_F] = FIELD("latency-fixed", lat.fixed),
    [P_LAT_B] = FIELD("latency-per-byte", lat.per_byte),
    [P_OR_F] = FIELD("or-fixed", orcv.fixed),
    [P_OR_B] = FIELD("or-per-byte", orcv.per_byte),
    [P_UR] = FIELD("ur", ur),
    [P_CTM] = FIELD("ctm-per-byte", ctm_per_byte),
};

/*
 * --free auto (the man page's table): the intercept A of a one-packet
 * message, its slope B per byte, the gap g_b at b, the copy cost c, and,
 * from multi-packet broadcasts in the eq 2.9 regime at two or more
 * depths, the send overhead O_s and the relay work T0 - O_s = O_r + U_r.
 */
static const struct fit_carrier carriers[] = {
    {"latency-fixed", {"os-fixed", "or-fixed", "ur", NULL}},
    {"latency-per-byte", {"os-per-byte", "or-per-byte", NULL}},
    {"gs-fixed", {"gs-per-byte", "gr-fixed", "gr-per-byte", NULL}},
    {"ctm-per-byte", {NULL}},
    {"os-fixed", {"os-per-byte", NULL}},
    {"or-fixed", {"or-per-byte", "ur", NULL}},
};

static enum ml_status validate(const void *p, struct ml_diag *d)
{
	return ml_cluster_validate(p, d);
}

static enum ml_status eval(const void *p, double *y)
{
	struct ml_cluster_result r;
	enum ml_status st = ml_cluster_eval(p, &r);

	if (st == ML_OK)
		*y = r.time;
	return st;
}

struct shape {
	double k, m, h, msg;
	bool bcast;
};

static struct shape shape_of(const struct ml_cluster_params *p)
{
	struct shape s;
	long long x = 1;

	s.k = p->msg > 0 ? ceil(p->msg / p->mtu) : 1.0;
	s.m = fmin(p->msg, p->mtu);
	s.msg = p->msg;
	s.bcast = p->op == ML_CLUSTER_BCAST;
	s.h = 0;
	while (s.bcast && x < p->nodes) {
		x <<= 1;
		s.h++;
	}
	return s;
}

/* Which pieces a point has: the gaps matter for k > 1; eq 2.9 for k > 1,
 * h >= 2 and a formula that can choose it. */
static bool two_gaps(const struct shape *s)
{
	return s->k > 1;
}

static bool has_29(const struct ml_cluster_params *p, const struct shape *s)
{
	return s->bcast && s->k > 1 && s->h >= 2 &&
	       p->formula != ML_CLUSTER_EQ28;
}

static bool only_29(const struct ml_cluster_params *p, const struct shape *s)
{
	return has_29(p, s) && p->formula == ML_CLUSTER_EQ29;
}

static double value_of(const struct ml_cluster_params *p,
		       const struct fit_piece *pc)
{
	double v = 0;
	size_t j;

	for (j = 0; j < NPARAM; j++)
		v += pc->row[j] * *(const double *)((const char *)p +
						      params[j].offset);
	return v;
}

/* One packet's O_s + L + O_r + U_r, times f, and (k-1) g_x times f. */
static void p2p_row(const struct shape *s, int gap, double f, double *row)
{
	row[P_OS_F] += f;
	row[P_OS_B] += f * s->m;
	row[P_LAT_F] += f;
	row[P_LAT_B] += f * s->m;
	row[P_OR_F] += f;
	row[P_OR_B] += f * s->m;
	row[P_UR] += f;
	row[gap ? P_GR_F : P_GS_F] += f * (s->k - 1);
	row[gap ? P_GR_B : P_GS_B] += f * (s->k - 1) * s->m;
}

static void eq29_row(const struct shape *s, double *row)
{
	double t0 = s->h + s->k - 1, os = t0 + (s->k - 1) * (s->h - 2);

	row[P_CTM] = s->msg;
	row[P_OS_F] = os;
	row[P_OS_B] = os * s->m;
	row[P_OR_F] = t0;
	row[P_OR_B] = t0 * s->m;
	row[P_UR] = t0;
	row[P_LAT_F] = s->h;
	row[P_LAT_B] = s->h * s->m;
}

/* Piece order: [gap s, gap r] (one when k = 1), then eq 2.9; eq 2.9
 * alone when the formula forces it. */
static unsigned pieces(const void *pv, struct fit_piece *pc)
{
	const struct ml_cluster_params *p = pv;
	struct shape s = shape_of(p);
	unsigned n = 0;
	int gap;

	if (only_29(p, &s)) {
		pc[0] = (struct fit_piece){0};
		eq29_row(&s, pc[0].row);
		pc[0].value = value_of(p, &pc[0]);
		return 1;
	}
	for (gap = 0; gap < (two_gaps(&s) ? 2 : 1); gap++, n++) {
		pc[n] = (struct fit_piece){0};
		p2p_row(&s, gap, s.bcast ? s.h : 1, pc[n].row);
		if (s.bcast)
			pc[n].row[P_CTM] = s.msg;
		pc[n].value = value_of(p, &pc[n]);
	}
	if (has_29(p, &s)) {
		pc[n] = (struct fit_piece){0};
		eq29_row(&s, pc[n].row);
		pc[n].value = value_of(p, &pc[n]);
		n++;
	}
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The distinct depths of the points that can be in the eq 2.9 regime,
 * sorted; returns how many (at most 64: h <= 63). */
static size_t depths(const struct ml_cluster_params *pts, size_t n,
		     double *hs)
{
	size_t i, j, q = 0;

	for (i = 0; i < n; i++) {
		struct shape s = shape_of(&pts[i]);

		if (!has_29(&pts[i], &s) || only_29(&pts[i], &s))
			continue;
		for (j = 0; j < q && hs[j] != s.h; j++)
			;
		if (j == q && q < 64)
			hs[q++] = s.h;
	}
	qsort(hs, q, sizeof(*hs), cmp_double);
	return q;
}

/* Candidate c = gap * nsets + set; set t < q + 1 is the prefix of the
 * first t depths, t > q the suffix of the last t - q depths. */
static size_t candidates(const void *pv, size_t n, unsigned char *assign)
{
	const struct ml_cluster_params *pts = pv;
	double hs[64];
	size_t q = depths(pts, n, hs), nsets = q ? 2 * q : 1, c, i;

	if (!assign)
		return 2 * nsets;
	for (c = 0; c < 2 * nsets; c++) {
		size_t gap = c / nsets, set = c % nsets;

		for (i = 0; i < n; i++) {
			struct shape s = shape_of(&pts[i]);
			unsigned char a = 0;

			if (only_29(&pts[i], &s)) {
				a = 0;
			} else {
				bool in29 = false;

				if (has_29(&pts[i], &s)) {
					size_t t;

					for (t = 0; t < q && hs[t] != s.h; t++)
						;
					in29 = set <= q ? t < set
							: t >= q - (set - q);
				}
				a = in29 ? (two_gaps(&s) ? 2 : 1)
				    : two_gaps(&s) ? (unsigned char)gap
						   : 0;
			}
			assign[c * n + i] = a;
		}
	}
	return 2 * nsets;
}

/* One packet size: the regimes and the gap at b are shared only then. */
static enum ml_status check_data(const void *pv, size_t n, struct ml_diag *d)
{
	const struct ml_cluster_params *pts = pv;
	size_t i;

	for (i = 1; i < n; i++)
		if (pts[i].mtu != pts[0].mtu)
			return ml_diag_set(d, "mtu",
					   "the data have more than one MTU "
					   "(%g and %g): fit one at a time",
					   pts[0].mtu, pts[i].mtu);
	return ML_OK;
}

const struct ml_fit_model ml_fit_cluster = {
    .name = "cluster",
    .size = sizeof(struct ml_cluster_params),
    .params = params,
    .nparams = NPARAM,
    .carriers = carriers,
    .ncarriers = sizeof(carriers) / sizeof(carriers[0]),
    .validate = validate,
    .eval = eval,
    .pieces = pieces,
    .candidates = candidates,
    .check_data = check_data,
};
