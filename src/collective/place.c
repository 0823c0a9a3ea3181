/*
 * place.c - where mpirun --map-by puts each rank (SPEC 10.2), for rank
 * r, ppn cores per node in S sockets of C = ppn / S cores, N nodes:
 *
 *   core    node r / ppn, socket (r mod ppn) / C
 *   socket  node r / ppn, socket (r mod ppn) mod S
 *   node    node r mod N, socket i / C (--bind-to core), with i = r / N
 *           the node's i-th rank; i mod S (socket); (i mod S D) / D
 *           (numa, D NUMA domains a socket: mpirun deals a node's ranks
 *           round-robin over its domains, each to the least used one)
 *
 * With --map-by core and socket the binding stays inside the core or
 * socket the mapping chose, so it does not move a rank's socket.
 * Below both the engine and the model's interface, which use it.
 */
#include "collective/coll_int.h"

long long ml_coll_nodes(const struct ml_collective_params *p)
{
	return p->nodes > 0 ? p->nodes : (p->ranks + p->ppn - 1) / p->ppn;
}

/* D of the table above: the NUMA domains a socket over which --map-by
 * node deals a node's ranks, or 0 when they fill its cores in order.
 * mpirun 4.1 binds to a core for P <= 2 and to a NUMA domain above
 * (rmaps_base_map_job.c; what --display-devel-map prints). */
long long ml_coll_rr_numa(const struct ml_collective_params *p)
{
	switch (p->bind_to) {
	case ML_COLL_BIND_SOCKET:
		return 1;
	case ML_COLL_BIND_NUMA:
		return p->numa;
	case ML_COLL_BIND_DEFAULT:
		return p->ranks <= 2 ? 0 : p->numa;
	default:
		return 0;
	}
}

void ml_coll_place_one(const struct ml_collective_params *p, long long nodes,
		       long long r, long long *node, long long *socket)
{
	long long per = p->ppn / p->sockets, d = ml_coll_rr_numa(p), i;

	switch (p->map_by) {
	case ML_COLL_MAP_SOCKET:
		*node = r / p->ppn;
		*socket = (r % p->ppn) % p->sockets;
		break;
	case ML_COLL_MAP_NODE:
		*node = r % nodes;
		i = r / nodes;
		*socket = d ? (i % (p->sockets * d)) / d : i / per;
		break;
	default:
		*node = r / p->ppn;
		*socket = (r % p->ppn) / per;
		break;
	}
}

/* n / d by a multiply and a shift (Granlund and Montgomery): with
 * l = ceil(log2 d), k = 24 + l and m = ceil(2^k / d), floor(n m / 2^k)
 * = floor(n / d) for every n < 2^24, because m overshoots 2^k / d by
 * less than 1 and n (m - 2^k / d) / 2^k < 2^24 / 2^k <= 1 / d; n m <
 * 2^50.  Ranks, nodes and ppn are below 2^24 (ML_COLL_MAX_RANKS). */
static void div_init(struct coll_div *v, long long d)
{
	unsigned l = 0;

	while ((1LL << l) < d)
		l++;
	v->d = (uint32_t)d;
	v->k = 24 + l;
	v->m = ((1ULL << v->k) + (uint64_t)d - 1) / (uint64_t)d;
}

void ml_coll_place_init(const struct ml_collective_params *p,
			struct coll_place *pl)
{
	long long d;

	pl->map = p->map_by;
	pl->single = p->ppn == 1;
	div_init(&pl->ppn, p->ppn);
	div_init(&pl->sockets, p->sockets);
	div_init(&pl->per, p->ppn / p->sockets);
	div_init(&pl->nodes, ml_coll_nodes(p));
	d = ml_coll_rr_numa(p);
	pl->rr = d > 0;
	div_init(&pl->numa, pl->rr ? d : 1);
	div_init(&pl->sd, pl->rr ? d * p->sockets : 1);
}
