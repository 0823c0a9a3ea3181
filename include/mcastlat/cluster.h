/*
 * cluster.h - the cluster communication cost model (thesis chapter 2.2):
 * point-to-point, exchange and binomial-tree broadcast of an M-byte
 * message cut into k = ceil(M / b) packets on a switched cluster.
 * Times in microseconds, sizes in bytes.
 */
#ifndef MCASTLAT_CLUSTER_H
#define MCASTLAT_CLUSTER_H

#include "mcastlat/status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ml_cluster_op { ML_CLUSTER_P2P, ML_CLUSTER_XCHG, ML_CLUSTER_BCAST };

/*
 * Which broadcast formula.  For h = ceil(log2 p) < 2 every choice gives
 * eq 2.8 (= eq 2.6 + ctm(M)): eq 2.9 needs a node that receives and
 * forwards, and a broadcast to one other node has none.
 */
enum ml_cluster_formula {
	ML_CLUSTER_AUTO,   /* the larger of eqs 2.8 and 2.9 (2.8 on a tie):
			    * monotone in every cost */
	ML_CLUSTER_EQ28,   /* eq 2.8: no interference */
	ML_CLUSTER_EQ29,   /* eq 2.9: interference */
	ML_CLUSTER_THESIS  /* the thesis's switch: eq 2.8 when
			    * O_r + U_r + O_s < 2 max(g, O_s), else 2.9;
			    * not monotone (see the man page) */
};

/* A per-packet cost linear in the packet size m: fixed + per_byte * m. */
struct ml_cluster_linear {
	double fixed, per_byte;
};

struct ml_cluster_params {
	struct ml_cluster_linear os;	/* send overhead O_s (2.1) */
	struct ml_cluster_linear gs;	/* send gap g_s (2.2) */
	struct ml_cluster_linear gr;	/* receive gap g_r (2.4) */
	struct ml_cluster_linear lat;	/* network latency L (2.3) */
	struct ml_cluster_linear orcv;	/* asynchronous receive overhead O_r (2.5) */
	double ur;			/* user receive overhead U_r */
	double ctm_per_byte;		/* ctm(M) = c M, bcast only */
	double mtu;			/* b, bytes per packet, >= 1 */
	double msg;			/* M, bytes, >= 0 */
	long long nodes;		/* p, >= 2 (bcast only) */
	enum ml_cluster_op op;
	enum ml_cluster_formula formula;
};

struct ml_cluster_result {
	double time;		/* T (p2p, xchg) or B (bcast), us */
	double packets;		/* k */
	double os, g, lat, orcv; /* per-packet costs at m = min(M, b) */
	long long h;		/* ceil(log2 p), bcast only (else 0) */
	enum ml_cluster_formula used; /* bcast: EQ28 or EQ29; else AUTO */
	double b28, b29;	/* bcast, h >= 2: eqs 2.8 and 2.9 both (the
				 * one not used too); h < 2: both eq 2.8;
				 * else NaN */
	int full_duplex;	/* 1 when O_s + O_r + U_r < g < L */
};

/*
 * Fill *p with the command's defaults, the thesis's Figure 2.3 example:
 * O_s = 1, g_s = g_r = 2, L = 4, O_r = 1.5, U_r = 0.5 us (no per-byte
 * terms), ctm 0, b = 1500 bytes, M = 0, p = 16, p2p, ML_CLUSTER_AUTO.
 * Start from it and set what differs: a zeroed struct is a valid point
 * with every cost zero, which is rarely what is meant.
 */
ML_API void ml_cluster_params_init(struct ml_cluster_params *p);

/*
 * Check the parameters the operation uses (nodes and ctm_per_byte only
 * for bcast; p2p and xchg ignore them); ML_OK or ML_EINVAL with *d (may
 * be NULL) naming the option.
 */
ML_API enum ml_status ml_cluster_validate(const struct ml_cluster_params *p,
					  struct ml_diag *d);

/* Evaluate eq 2.6 (p2p), 2.7 (xchg) or 2.8/2.9 (bcast); ML_EINVAL (and
 * *res untouched) when ml_cluster_validate fails. */
ML_API enum ml_status ml_cluster_eval(const struct ml_cluster_params *p,
				      struct ml_cluster_result *res);

#ifdef __cplusplus
}
#endif

#endif
