/*
 * once.c - Open MPI's unsegmented trees (binomial, binary, k-nomial,
 * chains, pipeline) and linear with one rank a node, timed without the
 * event queue (issue 36): every rank receives once, from its parent, so
 * the times are a recurrence down the tree in the arithmetic of
 * engine.c, the same bits (tests/check_collring.c holds the two
 * against each other).
 *
 * Why the engine's order cannot matter.  With one rank a node every
 * resource belongs to one rank: the send port, send_done and NIC out to
 * the sender, which takes them in its program's order (all its sends
 * posted at once, then one wait: eager sends timed as posted,
 * rendezvous ones ready together and timed in posting order, the
 * order of their events' keys); the receive side and NIC in to the
 * receiver, which only its parent's one message uses, while they are
 * still 0.  A rank's receive was posted at time 0 (in the engine's first
 * pass), so a rendezvous is ready at max(posted, 0) + L.
 *
 * Parents are lower virtual ranks in all these trees, so one pass in
 * rank order sees each rank's arrival before its sends; one double a
 * rank holds the arrival, then the rank's final time.
 */

#include "collective/coll_int.h"

static double max2(double a, double b)
{
	return a > b ? a : b;
}

int ml_coll_once_fits(const struct ml_collective_params *p,
		      const struct coll_alg *a)
{
	/* Root 0: the ranks' times are summed in rank order, which for
	 * another root is not this pass's order (the same bits). */
	if (a->library != ML_COLL_OPENMPI || p->ppn != 1 || a->ranks < 2 ||
	    a->root != 0)
		return 0;
	switch (a->alg) {
	case ML_COLL_LINEAR:
		return 1;
	case ML_COLL_CHAIN:
	case ML_COLL_PIPELINE:
	case ML_COLL_BINARY:
	case ML_COLL_BINOMIAL:
	case ML_COLL_KNOMIAL:
		return a->nseg == 1; /* prog_generic with one segment */
	default:
		return 0;
	}
}

/*
 * Rank v's sends, from its clock T: as prog_generic and prog_linear
 * post them, each timed by xfer_time of engine.c with the receiver's
 * side and NIC in at 0; then its WAIT_SENDS (try_wake).  Returns v's
 * final time, or -1 where a child is not a higher rank (the engine
 * then decides).
 */
static double sends(const struct ml_collective_params *p,
		    const struct coll_alg *a, long long v, double T, double *t)
{
	double L = p->lat[ML_COLL_NET], G = p->byte[ML_COLL_NET];
	double bg = (double)a->msg * ml_coll_gbyte(p, ML_COLL_NET, a->msg);
	double rside = 0, nic_in = 0;
	double port = 0, send_done = 0, nic_out = 0;
	double ready, start, done;
	long long kid, c, nk;
	int rndv = a->msg > p->eager;

	if (a->alg == ML_COLL_LINEAR)
		nk = v == 0 ? a->ranks - 1 : 0;
	else
		nk = ml_coll_tree_nkids(&a->tree, v);
	if (nk == 0)
		return T; /* a leaf leaves as it resumes */
	for (c = 0; c < nk; c++) {
		kid = a->alg == ML_COLL_LINEAR
			  ? c + 1
			  : ml_coll_tree_kid(&a->tree, v, (int)c);
		if (kid <= v || kid >= a->ranks)
			return -1;
		ready = rndv ? max2(T, 0) + L : T;
		start = max2(ready, max2(port, rside - L));
		start = max2(start, max2(nic_out, nic_in));
		nic_out = start + p->nic_gap + (double)a->msg * G;
		t[kid] = start + L + bg;
		port = start + p->overhead + bg;
		done = rndv ? t[kid] : port;
		if (done > send_done)
			send_done = done;
	}
	return send_done > T ? send_done : T;
}

int ml_coll_once_run(const struct ml_collective_params *p,
		     const struct coll_alg *a, double *t,
		     struct ml_collective_result *res)
{
	long long P = a->ranks, v;
	struct coll_times sum;
	double T;

	if (!ml_coll_once_fits(p, a))
		return 0;
	for (v = 1; v < P; v++)
		t[v] = -1; /* no arrival yet */
	ml_coll_times_init(&sum);
	t[0] = 0;
	for (v = 0; v < P; v++) {
		/* the root starts at 0; the rest resume at the arrival
		 * (try_wake from a clock of 0) */
		if (v > 0 && !(t[v] >= 0))
			return 0;
		T = v == 0 ? 0 : t[v] > 0 ? t[v] : 0;
		T = sends(p, a, v, T, t);
		if (T < 0)
			return 0;
		t[v] = T; /* final: only its children's come later */
		ml_coll_times_add(&sum, T);
	}
	return ml_coll_times_result(&sum, a, P - 1, res) == ML_OK;
}
