/*
 * cluster.h - the cluster communication cost model (thesis chapter 2.2):
 * point-to-point, exchange and binomial-tree broadcast of an M-byte
 * message cut into k = ceil(M / b) packets on a switched cluster.
 * Times in microseconds, sizes in bytes.
 */
#ifndef MCASTLAT_CLUSTER_H
#define MCASTLAT_CLUSTER_H

#include "mcastlat/status.h"

enum ml_cluster_op { ML_CLUSTER_P2P, ML_CLUSTER_XCHG, ML_CLUSTER_BCAST };

/* Which broadcast formula: chosen by the model (auto) or forced. */
enum ml_cluster_formula {
	ML_CLUSTER_AUTO,
	ML_CLUSTER_EQ28, /* eq 2.8: no interference */
	ML_CLUSTER_EQ29	 /* eq 2.9: interference */
};

/* A per-packet cost linear in the packet size m: fixed + per_byte * m. */
struct ml_cluster_linear {
	double fixed, per_byte;
};

struct ml_cluster_params {
	struct ml_cluster_linear os;	/* send overhead O_s (2.1) */
	struct ml_cluster_linear gs;	/* send gap g_s (2.2) */
	struct ml_cluster_linear gr;	/* receive gap g_r (2.3) */
	struct ml_cluster_linear lat;	/* network latency L (2.4) */
	struct ml_cluster_linear orcv;	/* asynchronous receive overhead O_r (2.5) */
	double ur;			/* user receive overhead U_r */
	double ctm_per_byte;		/* cache-to-memory copy: ctm(M) = c M */
	double mtu;			/* b, bytes per packet, >= 1 */
	double msg;			/* M, bytes, >= 0 */
	long long nodes;		/* p, >= 2 */
	enum ml_cluster_op op;
	enum ml_cluster_formula formula;
};

struct ml_cluster_result {
	double time;		/* T (p2p, xchg) or B (bcast), us */
	double packets;		/* k */
	double os, g, lat, orcv; /* per-packet costs at m = min(M, b) */
	long long h;		/* ceil(log2 p), bcast only (else 0) */
	enum ml_cluster_formula used; /* bcast: EQ28 or EQ29; else AUTO */
	int full_duplex;	/* 1 when O_s + O_r + U_r < g < L */
};

/* Check the parameters; ML_OK or ML_EINVAL with *d naming the option. */
enum ml_status ml_cluster_validate(const struct ml_cluster_params *p,
				   struct ml_diag *d);

/* Evaluate eq 2.6 (p2p), 2.7 (xchg) or 2.8/2.9 (bcast). */
enum ml_status ml_cluster_eval(const struct ml_cluster_params *p,
			       struct ml_cluster_result *res);

#endif
