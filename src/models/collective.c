/*
 * collective.c - the collective model's interface (SPEC 10): defaults,
 * the domain, the version's default decision (ompi_decide.c holds Open
 * MPI's fixed decision, han.c whether han takes the broadcast), the
 * ring's lower bound, and evaluation through the engine in
 * src/collective/ (place.c where ranks sit, trees.c Open MPI's trees,
 * dispatch.c whose programs run: programs.c, han.c, mpich_programs.c;
 * engine.c the event-driven machine).
 */
#include <math.h>
#include <stdlib.h>
#include <stddef.h>

#include "collective/coll_int.h"

/*
 * The default machine: the THIN nodes of ORFEO (2 x Xeon Gold 6126, 12
 * cores a socket, InfiniBand), `mcastlat fit collective --stat avg` of
 * every public THIN measurement (three channels' ping-pong, 21 broadcast
 * files, 93807 runs; scripts/default-machine.sh), every option it keeps
 * (mcastlat-collective(1), DEFAULTS).
 */
#define DEF_LAT_SOCKET	0.227281
#define DEF_BYTE_SOCKET 8.60893e-05
#define DEF_LAT_NODE	0.522963
#define DEF_BYTE_NODE	8.30140e-05
#define DEF_LAT_NET	1.55067
#define DEF_BYTE_NET	9.81964e-05
#define DEF_OVERHEAD	0.000814965
#define DEF_NIC_GAP	0.0694796

void ml_collective_params_init(struct ml_collective_params *p)
{
	p->ranks = 2;
	p->msg = 1;
	p->algorithm = ML_COLL_BINOMIAL;
	p->segment = 0;
	p->fanout = 4;
	p->radix = 4;
	p->root = 0;
	p->barrier = ML_COLL_BARRIER_NONE;
	p->ppn = 1;
	p->sockets = 1;
	p->nodes = 0;
	p->map_by = ML_COLL_MAP_CORE;
	p->bind_to = ML_COLL_BIND_CORE;
	p->numa = 1;
	p->lat[ML_COLL_SOCKET] = DEF_LAT_SOCKET;
	p->byte[ML_COLL_SOCKET] = DEF_BYTE_SOCKET;
	p->lat[ML_COLL_NODE] = DEF_LAT_NODE;
	p->byte[ML_COLL_NODE] = DEF_BYTE_NODE;
	p->lat[ML_COLL_NET] = DEF_LAT_NET;
	p->byte[ML_COLL_NET] = DEF_BYTE_NET;
	p->overhead = DEF_OVERHEAD;
	p->nic_gap = DEF_NIC_GAP;
	p->ebyte[ML_COLL_SOCKET] = 0;
	p->ebyte[ML_COLL_NODE] = 0;
	p->ebyte[ML_COLL_NET] = 0;
	p->eager = 4096;
	p->library = ML_COLL_OPENMPI;
	p->ompi_version = ML_COLL_OMPI_41;
	p->han_segment = 65536;
	p->han_simple = false;
}

const char *ml_collective_alg_name(enum ml_coll_alg a)
{
	static const char *const names[] = {NULL,
					    "linear",
					    "chain",
					    "pipeline",
					    "split-binary",
					    "binary",
					    "binomial",
					    "knomial",
					    "scatter-allgather",
					    "scatter-allgather-ring"};

	static const char *const mpich[] = {
	    "binomial", "scatter_recursive_doubling_allgather",
	    "scatter_ring_allgather", "smp"};

	if (a == ML_COLL_DEFAULT)
		return "default";
	if (a == ML_COLL_HAN)
		return "han";
	if (a >= ML_COLL_MPICH_FIRST && a <= ML_COLL_MPICH_LAST)
		return mpich[a - ML_COLL_MPICH_FIRST];
	return a >= 1 && a <= ML_COLL_NALG ? names[a] : "unknown";
}

/* Is a one of library lib's algorithms (or its default)? */
static int alg_of(enum ml_coll_library lib, enum ml_coll_alg a)
{
	if (a == ML_COLL_DEFAULT)
		return 1;
	if (lib == ML_COLL_MPICH)
		return a >= ML_COLL_MPICH_FIRST && a <= ML_COLL_MPICH_LAST;
	return (a >= 1 && a <= ML_COLL_NALG) || a == ML_COLL_HAN;
}

/* The params run for *p: Open MPI's default decision resolved into its
 * algorithm, unsegmented, one chain (5.0: han where it takes the
 * broadcast); MPICH resolves its own in setup, where the placement is
 * known. */
static void run_params(const struct ml_collective_params *p,
		       struct ml_collective_params *q)
{
	*q = *p;
	if (p->library == ML_COLL_OPENMPI && p->algorithm == ML_COLL_DEFAULT &&
	    p->ompi_version == ML_COLL_OMPI_50 && ml_coll_han_takes(p)) {
		q->algorithm = ML_COLL_HAN;
	} else if (p->library == ML_COLL_OPENMPI &&
		   p->algorithm == ML_COLL_DEFAULT) {
		q->algorithm = ml_collective_ompi_decide(p->ranks, p->msg);
		q->segment = 0;
		q->fanout = 0;
	}
}

static int bad_time(double x)
{
	return !isfinite(x) || x < 0;
}

static const char *const lat_names[] = {"lat-socket", "lat-node", "lat-net"};
static const char *const byte_names[] = {"byte-socket", "byte-node",
					 "byte-net"};
static const char *const ebyte_names[] = {"eager-byte-socket", "eager-byte-node",
					  "eager-byte-net"};

static enum ml_status check_machine(const struct ml_collective_params *p,
				    struct ml_diag *d)
{
	int c;

	if (p->ppn < 1 || p->ppn > ML_COLL_MAX_RANKS)
		return ml_diag_set(d, "ppn", "must be in [1, 2^24]");
	if (p->sockets < 1 || p->ppn % p->sockets != 0)
		return ml_diag_set(d, "sockets",
				   "%lld does not divide ppn = %lld",
				   p->sockets, p->ppn);
	if (p->nodes < 0 || p->nodes > ML_COLL_MAX_RANKS)
		return ml_diag_set(d, "nodes", "must be in [0, 2^24]");
	if (p->nodes > 0 && p->nodes * p->ppn < p->ranks)
		return ml_diag_set(d, "nodes",
				   "%lld nodes of %lld cores cannot hold "
				   "%lld ranks",
				   p->nodes, p->ppn, p->ranks);
	if (p->map_by != ML_COLL_MAP_CORE && p->map_by != ML_COLL_MAP_SOCKET &&
	    p->map_by != ML_COLL_MAP_NODE)
		return ml_diag_set(d, "map-by", "unknown placement");
	if (p->bind_to < ML_COLL_BIND_CORE || p->bind_to > ML_COLL_BIND_DEFAULT)
		return ml_diag_set(d, "bind-to", "unknown binding");
	if (p->numa < 1 || (p->ppn / p->sockets) % p->numa != 0)
		return ml_diag_set(d, "numa",
				   "%lld does not divide the %lld cores of a "
				   "socket",
				   p->numa, p->ppn / p->sockets);
	for (c = 0; c < ML_COLL_NCHANNEL; c++) {
		if (bad_time(p->lat[c]))
			return ml_diag_set(d, lat_names[c],
					   "must be finite and >= 0");
		if (bad_time(p->byte[c]))
			return ml_diag_set(d, byte_names[c],
					   "must be finite and >= 0");
		if (bad_time(p->ebyte[c]))
			return ml_diag_set(d, ebyte_names[c],
					   "must be finite and >= 0");
	}
	if (bad_time(p->overhead))
		return ml_diag_set(d, "overhead", "must be finite and >= 0");
	if (bad_time(p->nic_gap))
		return ml_diag_set(d, "nic-gap", "must be finite and >= 0");
	if (p->eager < 0)
		return ml_diag_set(d, "eager", "must be >= 0");
	return ML_OK;
}

enum ml_status ml_collective_validate(const struct ml_collective_params *p,
				      struct ml_diag *d)
{
	struct coll_alg a;
	struct ml_collective_params q;
	long long bound;

	if (p->ranks < 2 || p->ranks > ML_COLL_MAX_RANKS)
		return ml_diag_set(d, "ranks", "must be in [2, 2^24]");
	if (p->msg < 1 || p->msg > ML_COLL_MAX_MSG)
		return ml_diag_set(d, "msg", "must be in [1, 2^40] bytes");
	if (p->library != ML_COLL_OPENMPI && p->library != ML_COLL_MPICH)
		return ml_diag_set(d, "library", "must be openmpi or mpich");
	if (!alg_of(p->library, p->algorithm))
		return ml_diag_set(d, "algorithm",
				   p->library == ML_COLL_MPICH
				       ? "is not one of MPICH's (binomial, "
					 "scatter_recursive_doubling_allgather, "
					 "scatter_ring_allgather, smp)"
				       : "must be an id 1..10 (Open MPI's)");
	if (p->segment < 0)
		return ml_diag_set(d, "segment", "must be >= 0");
	if (p->root < 0 || p->root >= p->ranks)
		return ml_diag_set(d, "root", "must be in [0, ranks - 1]");
	if (p->ompi_version != ML_COLL_OMPI_41 &&
	    p->ompi_version != ML_COLL_OMPI_50)
		return ml_diag_set(d, "ompi-version", "must be 4.1 or 5.0");
	if (p->han_segment < 0)
		return ml_diag_set(d, "han-segment", "must be >= 0");
	if ((int)p->barrier < ML_COLL_BARRIER_NONE ||
	    p->barrier > ML_COLL_BARRIER_OMPI_TREE ||
	    (p->barrier == ML_COLL_BARRIER_TWO_PROC && p->ranks != 2))
		return ml_diag_set(d, "osu-barrier",
				   "unknown barrier (two-proc: 2 ranks only)");
	if (p->barrier != ML_COLL_BARRIER_NONE &&
	    p->barrier != ML_COLL_BARRIER_OMPI_TREE &&
	    p->library != ML_COLL_OPENMPI)
		return ml_diag_set(d, "osu-barrier",
				   "Open MPI's barriers only: none or "
				   "ompi-tree (none for MPICH) with --library "
				   "mpich");
	if (p->fanout < 0 || p->fanout > 32)
		return ml_diag_set(d, "fanout",
				   "must be in [0, 32] (Open MPI's "
				   "MAXTREEFANOUT)");
	if (p->radix < 2 || p->radix > ML_COLL_MAX_RANKS)
		return ml_diag_set(d, "radix", "must be in [2, 2^24]");
	if (check_machine(p, d) != ML_OK)
		return ML_EINVAL;
	run_params(p, &q);
	if (ml_coll_alg_setup(&q, &a) != ML_OK)
		return ml_diag_set(d, q.algorithm == ML_COLL_HAN ? "han-segment"
								 : "algorithm",
				   q.algorithm == ML_COLL_HAN
				       ? "han would cut more than 2^27 segments"
				       : "cannot be set up");
	bound = ml_coll_alg_messages_bound(&a);
	if (bound > ML_COLL_MAX_MESSAGES)
		return ml_diag_set(d,
				   a.alg == ML_COLL_HAN && q.han_segment > 0
				       ? "han-segment"
				   : q.segment > 0 ? "segment"
						   : "ranks",
				   "%s would send about %lld messages, more "
				   "than 2^31",
				   ml_collective_alg_name(a.alg), bound);
	return ML_OK;
}

enum ml_status ml_collective_place(const struct ml_collective_params *p,
				   long long r, long long *node,
				   long long *socket)
{
	if (ml_collective_validate(p, NULL) != ML_OK || r < 0 || r >= p->ranks)
		return ML_EINVAL;
	ml_coll_place_one(p, ml_coll_nodes(p), r, node, socket);
	return ML_OK;
}

enum ml_status ml_collective_channel(const struct ml_collective_params *p,
				     long long a, long long b,
				     enum ml_coll_channel *c)
{
	long long na, sa, nb, sb;

	if (ml_collective_place(p, a, &na, &sa) != ML_OK ||
	    ml_collective_place(p, b, &nb, &sb) != ML_OK)
		return ML_EINVAL;
	*c = na != nb ? ML_COLL_NET : sa != sb ? ML_COLL_NODE : ML_COLL_SOCKET;
	return ML_OK;
}

int ml_collective_place_cmp(const struct ml_collective_params *a,
			    const struct ml_collective_params *b)
{
	const long long ka[] = {a->ranks, a->ppn, a->sockets, a->nodes,
				a->map_by, a->bind_to, a->numa};
	const long long kb[] = {b->ranks, b->ppn, b->sockets, b->nodes,
				b->map_by, b->bind_to, b->numa};
	size_t k;

	for (k = 0; k < sizeof ka / sizeof ka[0]; k++)
		if (ka[k] != kb[k])
			return ka[k] < kb[k] ? -1 : 1;
	return 0;
}

static int cmp_ll(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return (a > b) - (a < b);
}

/* Each rank's (node, socket) as node * sockets + socket, sorted: a key
 * twice is a socket shared, two keys of one node its two sockets, two
 * nodes the network. */
enum ml_status ml_collective_spans(const struct ml_collective_params *p,
				   unsigned *channels)
{
	long long *k, r, n, s, N;

	*channels = 0;
	if (ml_collective_validate(p, NULL) != ML_OK)
		return ML_EINVAL;
	k = malloc((size_t)p->ranks * sizeof *k);
	if (!k)
		return ML_ENOMEM;
	N = ml_coll_nodes(p);
	for (r = 0; r < p->ranks; r++) {
		ml_coll_place_one(p, N, r, &n, &s);
		k[r] = n * p->sockets + s;
	}
	qsort(k, (size_t)p->ranks, sizeof *k, cmp_ll);
	for (r = 1; r < p->ranks; r++)
		*channels |= 1u << (k[r] == k[r - 1] ? ML_COLL_SOCKET
				    : k[r] / p->sockets == k[r - 1] / p->sockets
					? ML_COLL_NODE
					: ML_COLL_NET);
	free(k);
	return ML_OK;
}

enum ml_status ml_coll_eval_ws(struct coll_ws *ws,
			       const struct ml_collective_params *p,
			       ml_coll_msg_fn fn, void *arg,
			       struct ml_collective_result *r)
{
	struct coll_alg a;
	struct ml_collective_params q;
	struct ml_collective_result tmp;
	enum ml_status st;

	st = ml_collective_validate(p, NULL);
	if (st != ML_OK)
		return st;
	run_params(p, &q);
	if (ml_coll_alg_setup(&q, &a) != ML_OK)
		return ML_EINVAL;
	st = ml_coll_barrier_of(&q) != ML_COLL_BARRIER_NONE
		 ? ml_coll_osu_run(ws, &q, &a, fn, arg, &tmp)
		 : ml_coll_engine_run_ws(ws, &q, &a, fn, arg, &tmp);
	if (st != ML_OK)
		return st;
	tmp.composition = a.composition;
	if (a.library == ML_COLL_OPENMPI && a.alg == ML_COLL_HAN)
		ml_coll_han_parts(&a, &tmp.ran_roots, &tmp.ran_node_first,
				  &tmp.ran_node_last);
	else
		ml_coll_mpich_parts(&a, &tmp.ran_roots, &tmp.ran_node_first,
				    &tmp.ran_node_last);
	*r = tmp;
	return ML_OK;
}

enum ml_status ml_collective_schedule(const struct ml_collective_params *p,
				      ml_coll_msg_fn fn, void *arg,
				      struct ml_collective_result *r)
{
	struct coll_ws *ws = ml_coll_ws_new();
	enum ml_status st;

	if (!ws)
		return ML_ENOMEM;
	st = ml_coll_eval_ws(ws, p, fn, arg, r);
	ml_coll_ws_free(ws);
	return st;
}

enum ml_status ml_collective_eval(const struct ml_collective_params *p,
				  struct ml_collective_result *r)
{
	return ml_collective_schedule(p, NULL, NULL, r);
}

enum ml_status ml_collective_p2p(const struct ml_collective_params *p,
				 enum ml_coll_channel c, long long bytes,
				 double *t)
{
	double x;

	if (check_machine(p, NULL) != ML_OK || (int)c < 0 ||
	    c >= ML_COLL_NCHANNEL || bytes < 0 || bytes > ML_COLL_MAX_MSG)
		return ML_EINVAL;
	x = p->lat[c] + (double)bytes * ml_coll_gbyte(p, c, bytes);
	if (bytes > p->eager)
		x += p->lat[c];
	if (!isfinite(x))
		return ML_OVERFLOW;
	*t = x;
	return ML_OK;
}

bool ml_collective_han_takes(const struct ml_collective_params *p)
{
	return ml_collective_validate(p, NULL) == ML_OK && ml_coll_han_takes(p);
}

enum ml_status ml_collective_tree(enum ml_coll_alg kind, long long ranks,
				  long long arg, long long v, long long *parent,
				  long long *kids, int cap, int *nkids)
{
	struct coll_tree t;
	int n, c;

	if (ranks < 1 || ranks > ML_COLL_MAX_RANKS || v < 0 || v >= ranks ||
	    (kind == ML_COLL_CHAIN && (arg < 0 || arg > 32)) ||
	    (kind == ML_COLL_KNOMIAL && arg > ML_COLL_MAX_RANKS) ||
	    ml_coll_tree_init(&t, kind, ranks, arg) != 0)
		return ML_EINVAL;
	if (ranks == 1) {
		*parent = -1;
		*nkids = 0;
		return ML_OK;
	}
	n = ml_coll_tree_nkids(&t, v);
	if (n > cap || (n > 0 && !kids))
		return ML_EINVAL;
	for (c = 0; c < n; c++)
		kids[c] = ml_coll_tree_kid(&t, v, c);
	*parent = ml_coll_tree_parent(&t, v);
	*nkids = n;
	return ML_OK;
}

/* The channel between ranks a and b of a valid *p on its N nodes. */
static enum ml_coll_channel chan(const struct ml_collective_params *p,
				 long long N, long long a, long long b)
{
	long long na, sa, nb, sb;

	ml_coll_place_one(p, N, a, &na, &sa);
	ml_coll_place_one(p, N, b, &nb, &sb);
	return na != nb ? ML_COLL_NET : sa != sb ? ML_COLL_NODE : ML_COLL_SOCKET;
}

/* A message of n bytes on channel c posted at t by a rank that then
 * waits for it: the least time the wait can end, in the engine's own
 * operations and order (engine.c), so that rounding, being monotone,
 * keeps the bound below the engine's time.  Eager: the send port
 * frees; rendezvous: the handshake's L_c, then the arrival. */
static double send_done_least(const struct ml_collective_params *p,
			      enum ml_coll_channel c, long long n, double t)
{
	double bg = (double)n * p->byte[c];

	if (n > p->eager)
		return t + p->lat[c] + p->lat[c] + bg;
	return t + p->overhead + bg;
}

/*
 * MPICH's ring allgather (its scatter is not Open MPI's, which the
 * bound below follows): rank v finishes step i no earlier than rank
 * v-1 finished step i-1, plus the latency and bytes of the block it
 * then sent; along that chain the block is the same one, so the rank
 * that ends a chain carrying block 0 (a full block of ceil(M/P) bytes)
 * finishes after at least P - 1 times (min L_c + ceil(M/P) min G_c).
 */
static double ring_bound_any(const struct ml_collective_params *p)
{
	double lmin = p->lat[0], gmin = p->byte[0];
	long long sc = (p->msg + p->ranks - 1) / p->ranks;
	int c;

	for (c = 1; c < ML_COLL_NCHANNEL; c++) {
		lmin = p->lat[c] < lmin ? p->lat[c] : lmin;
		gmin = p->byte[c] < gmin ? p->byte[c] : gmin;
	}
	return (double)(p->ranks - 1) * (lmin + (double)sc * gmin);
}

/*
 * A lower bound on the latency of algorithm a at *p, or 0.  Open MPI's
 * ring (scatter-allgather-ring without its fall-back to linear): block 0
 * goes round from rank 0, which sends it at step 1 once its part of the
 * scatter is done; rank v forwards at step v + 1 what it received at
 * step v, so the block reaches rank P - 1 no earlier than the sum of
 * rank 0's scatter sends (each waited for in turn) and of the P - 1
 * hops (v, v + 1), each L_c + ceil(M/P) G_c (and another L_c for the
 * handshake above the eager limit).  Each term is added as the engine
 * adds it: the bound is exact arithmetic of a shorter schedule, never
 * above the engine's latency.
 */
double ml_coll_lower_bound(const struct ml_collective_params *p,
			   enum ml_coll_alg a)
{
	long long P = p->ranks, N = ml_coll_nodes(p), R = p->root;
	long long sc = (p->msg + P - 1) / P, cnt = p->msg, mask = 1, n, v;
	enum ml_coll_channel c;
	double t = 0;

	/* A barrier's skew can put any time below the engine's. */
	if (ml_coll_barrier_of(p) != ML_COLL_BARRIER_NONE)
		return 0;
	if (a == ML_COLL_MPICH_SCATTER_RING_ALLGATHER)
		return ring_bound_any(p);
	if (a != ML_COLL_SCATTER_ALLGATHER_RING || p->msg < P ||
	    p->library != ML_COLL_OPENMPI)
		return 0;
	/* The root's scatter (ranks below rotated: root R's virtual rank v
	 * is R + v mod P), as programs.c's scatter() runs it for v = 0. */
	while (mask < P)
		mask <<= 1;
	for (mask >>= 1; mask > 0; mask >>= 1) {
		n = cnt - sc * mask;
		if (mask >= P || n <= 0)
			continue;
		cnt -= n;
		t = send_done_least(p, chan(p, N, R, (R + mask) % P), n, t);
	}
	for (v = 0; v + 1 < P; v++) {
		c = chan(p, N, (R + v) % P, (R + v + 1) % P);
		if (sc > p->eager)
			t = t + p->lat[c];
		t = t + p->lat[c] + (double)sc * p->byte[c];
	}
	return t;
}

