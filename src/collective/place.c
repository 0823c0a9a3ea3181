/*
 * place.c - where mpirun --map-by puts each rank (SPEC 10.2), for rank
 * r, ppn cores per node in S sockets of C = ppn / S cores, N nodes:
 *
 *   core    node r / ppn, socket (r mod ppn) / C
 *   socket  node r / ppn, socket (r mod ppn) mod S
 *   node    node r mod N, socket (r / N) / C
 *
 * Below both the engine and the model's interface, which use it.
 */
#include "collective/coll_int.h"

long long ml_coll_nodes(const struct ml_collective_params *p)
{
	return p->nodes > 0 ? p->nodes : (p->ranks + p->ppn - 1) / p->ppn;
}

void ml_coll_place_one(const struct ml_collective_params *p, long long nodes,
		       long long r, long long *node, long long *socket)
{
	long long per = p->ppn / p->sockets;

	switch (p->map_by) {
	case ML_COLL_MAP_SOCKET:
		*node = r / p->ppn;
		*socket = (r % p->ppn) % p->sockets;
		break;
	case ML_COLL_MAP_NODE:
		*node = r % nodes;
		*socket = (r / nodes) / per;
		break;
	default:
		*node = r / p->ppn;
		*socket = (r % p->ppn) / per;
		break;
	}
}

void ml_coll_place_all(const struct ml_collective_params *p, long long nodes,
		       uint32_t *node, uint32_t *sock)
{
	long long r, n, s;

	for (r = 0; r < p->ranks; r++) {
		ml_coll_place_one(p, nodes, r, &n, &s);
		node[r] = (uint32_t)n;
		sock[r] = (uint32_t)(n * p->sockets + s);
	}
}
