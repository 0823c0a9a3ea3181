/*
 * fit_collective.c - the fitting adapter of the collective model (SPEC
 * 10.4): the machine's per-channel latencies and per-byte times, the
 * sender's overhead and the NIC's gap, from ping-pong and broadcast
 * timings.
 *
 * A point is a broadcast simulated on the node hierarchy, or half a
 * ping-pong on one channel (L_c + b (G_c + E_c) up to the eager limit,
 * 2 L_c + b G_c above it).  A broadcast's time is the length of its critical path: a sum
 * of costs along a chain of messages and resource waits, the largest of
 * many such sums.  It is piecewise linear in the costs, with pieces too
 * many to enumerate (which messages wait for which resource depends on
 * the costs), so the core linearises it at the current costs by finite
 * differences and iterates (local, below): a local optimum near the
 * starting values (the defaults, or the values given), not the global
 * one that the affine models get.
 *
 * Identifiability (mcastlat-fit(1)): ping-pong on channel c determines
 * lat-c and byte-c (two or more sizes); broadcasts add overhead (sends
 * in a row from one rank), nic-gap (messages that queue for a NIC:
 * several ranks per node) and eager-byte-c (sizes on both sides of the
 * eager limit); each is freed by --free auto only when the data move
 * the prediction with it at the fit.
 */
#include <stddef.h>

#include "fit/fitint.h"
#include "mcastlat/collective.h"

#define PT(f) offsetof(struct ml_collective_point, p.f)

static const struct fit_param coll_params[] = {
    {"lat-socket", PT(lat[ML_COLL_SOCKET])},
    {"lat-node", PT(lat[ML_COLL_NODE])},
    {"lat-net", PT(lat[ML_COLL_NET])},
    {"byte-socket", PT(byte[ML_COLL_SOCKET])},
    {"byte-node", PT(byte[ML_COLL_NODE])},
    {"byte-net", PT(byte[ML_COLL_NET])},
    {"overhead", PT(overhead)},
    {"nic-gap", PT(nic_gap)},
    {"eager-byte-socket", PT(ebyte[ML_COLL_SOCKET])},
    {"eager-byte-node", PT(ebyte[ML_COLL_NODE])},
    {"eager-byte-net", PT(ebyte[ML_COLL_NET])},
};

/* --free auto: the network first (every multi-node broadcast uses it),
 * then each channel inside a node, then the two occupancies, then the
 * eager copies' per-byte times (those need sizes on both sides of the
 * eager limit). */
static const struct fit_carrier coll_carriers[] = {
    {"lat-net", {NULL}},    {"byte-net", {NULL}},  {"lat-socket", {NULL}},
    {"byte-socket", {NULL}}, {"lat-node", {NULL}},  {"byte-node", {NULL}},
    {"overhead", {NULL}},   {"nic-gap", {NULL}},
    {"eager-byte-net", {NULL}}, {"eager-byte-socket", {NULL}},
    {"eager-byte-node", {NULL}},
};

static enum ml_status coll_validate(const void *pv, struct ml_diag *d)
{
	const struct ml_collective_point *pt = pv;

	if (pt->p2p && (pt->channel < ML_COLL_SOCKET ||
			pt->channel > ML_COLL_NET))
		return ml_diag_set(d, "channel", "not socket, node or net");
	return ml_collective_validate(&pt->p, d);
}

static enum ml_status coll_eval(const void *pv, double *y)
{
	const struct ml_collective_point *pt = pv;
	struct ml_collective_result r;
	enum ml_status st;

	if (pt->p2p)
		return ml_collective_p2p(&pt->p, pt->channel, pt->p.msg, y);
	st = ml_collective_eval(&pt->p, &r);
	if (st == ML_OK)
		*y = pt->avg ? r.latency_avg : r.latency;
	return st;
}

const struct ml_fit_model ml_fit_collective = {
    .name = "collective",
    .size = sizeof(struct ml_collective_point),
    .params = coll_params,
    .nparams = sizeof(coll_params) / sizeof(coll_params[0]),
    .carriers = coll_carriers,
    .ncarriers = sizeof(coll_carriers) / sizeof(coll_carriers[0]),
    .validate = coll_validate,
    .eval = coll_eval,
    .local = true,
};
