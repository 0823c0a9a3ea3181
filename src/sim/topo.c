/*
 * topo.c - the simulated networks' geometry: node coordinates, ports,
 * neighbours, wraparound links, distances, the dimension-order sorting
 * of nodes used by the recursive-halving multicast.
 *
 * Node id = sum_d coord[d] k^d (dimension 0 least significant); a
 * hypercube is the 2-ary n-mesh with one port per dimension.
 */
#include <stdlib.h>

#include "sim/simint.h"

unsigned ml_topo_port_dim(const struct topo *t, unsigned port)
{
	return t->kind == ML_SIM_HYPERCUBE ? port : port / 2;
}

unsigned ml_topo_node(const struct topo *t, const unsigned *coord)
{
	unsigned id = 0, d;

	for (d = t->n; d-- > 0;)
		id = id * t->k + coord[d];
	return id;
}

/* Hops of a minimal path (torus: the shorter way round). */
unsigned ml_topo_distance(const struct topo *t, unsigned a, unsigned b)
{
	const unsigned *ca = t->coord + (size_t)a * t->n;
	const unsigned *cb = t->coord + (size_t)b * t->n;
	unsigned d, sum = 0;

	for (d = 0; d < t->n; d++) {
		unsigned x = ca[d] > cb[d] ? ca[d] - cb[d] : cb[d] - ca[d];

		if (t->kind == ML_SIM_TORUS && t->k - x < x)
			x = t->k - x;
		sum += x;
	}
	return sum;
}

static void topo_links(struct topo *t)
{
	unsigned u, d, k = t->k;

	for (u = 0; u < t->N; u++) {
		unsigned *c = t->coord + (size_t)u * t->n;

		for (d = 0; d < t->n; d++) {
			unsigned x = c[d];
			size_t base = (size_t)u * t->P;

			if (t->kind == ML_SIM_HYPERCUBE) {
				c[d] = !x;
				t->nbr[base + d] = ml_topo_node(t, c);
				c[d] = x;
				continue;
			}
			/* + direction */
			if (x + 1 < k || t->kind == ML_SIM_TORUS) {
				c[d] = (x + 1) % k;
				t->nbr[base + 2 * d] = ml_topo_node(t, c);
				t->wrap[base + 2 * d] = x + 1 == k;
			}
			/* - direction */
			if (x > 0 || t->kind == ML_SIM_TORUS) {
				c[d] = (x + k - 1) % k;
				t->nbr[base + 2 * d + 1] = ml_topo_node(t, c);
				t->wrap[base + 2 * d + 1] = x == 0;
			}
			c[d] = x;
		}
	}
}

int ml_topo_init(struct topo *t, const struct ml_sim_params *p)
{
	unsigned u, d, i;

	t->kind = p->topology;
	t->n = p->dims;
	t->k = p->topology == ML_SIM_HYPERCUBE ? 2 : p->k;
	t->N = 1;
	for (d = 0; d < t->n; d++)
		t->N *= t->k;
	t->P = p->topology == ML_SIM_HYPERCUBE ? t->n : 2 * t->n;
	t->L = p->ports == ML_SIM_ALL ? t->P : p->ports;
	t->nport = t->P + t->L;
	t->diameter = t->n * (t->kind == ML_SIM_TORUS ? t->k / 2 : t->k - 1);
	t->coord = malloc(sizeof(*t->coord) * t->N * t->n);
	t->nbr = malloc(sizeof(*t->nbr) * t->N * t->P);
	t->wrap = calloc((size_t)t->N * t->P, 1);
	t->sorted = malloc(sizeof(*t->sorted) * t->N);
	t->rank = malloc(sizeof(*t->rank) * t->N);
	if (!t->coord || !t->nbr || !t->wrap || !t->sorted || !t->rank)
		return -1;
	for (u = 0; u < t->N; u++) {
		unsigned x = u, key = 0;

		for (d = 0; d < t->n; d++) {
			t->coord[(size_t)u * t->n + d] = x % t->k;
			x /= t->k;
		}
		/* dimension 0 most significant: the order DOR resolves */
		for (d = 0; d < t->n; d++)
			key = key * t->k + t->coord[(size_t)u * t->n + d];
		t->sorted[key] = u;
		t->rank[u] = key;
	}
	for (i = 0; i < t->N * t->P; i++)
		t->nbr[i] = SIM_NONE;
	topo_links(t);
	return 0;
}

void ml_topo_free(struct topo *t)
{
	free(t->coord);
	free(t->nbr);
	free(t->wrap);
	free(t->sorted);
	free(t->rank);
}
