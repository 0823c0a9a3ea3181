/*
 * machine.c - where mcastlat-probe's ranks run, and communicators laid
 * out as `mcastlat collective` lays out its ranks (SPEC 10.2).
 *
 * Nodes come from the MPI library (MPI_Comm_split_type with
 * MPI_COMM_TYPE_SHARED: the ranks that share memory), sockets from the
 * operating system: the CPU a rank runs on (sched_getcpu) and that CPU's
 * physical_package_id in sysfs.  Not hwloc: Linux's sysfs answers the one
 * question asked here without another library to install, and a rank's
 * affinity mask (sched_getaffinity) says whether the answer will hold:
 * an unbound rank may move to another socket, which is reported.
 *
 * A measurement's communicator is made so that its rank r is a world rank
 * on the node and socket where collective's placement (the library's
 * ml_collective_place) puts rank r: the model and the measurement then
 * agree on every channel.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"

/* The physical package of a CPU, or -1 when sysfs does not say. */
static int cpu_package(int cpu)
{
	char path[96], line[32], *end;
	FILE *f;
	long id = -1;

	snprintf(path, sizeof path,
		 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
		 cpu);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	if (fgets(line, sizeof line, f) != NULL) {
		id = strtol(line, &end, 10);
		if (end == line || id < 0 || id > 1 << 20)
			id = -1;
	}
	fclose(f);
	return (int)id;
}

/* This rank's package, and whether its affinity keeps it there. */
static int my_package(bool *bound)
{
	cpu_set_t set;
	int cpu = sched_getcpu(), pkg = cpu >= 0 ? cpu_package(cpu) : -1;
	int c;

	*bound = true;
	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return pkg < 0 ? 0 : pkg;
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set) && cpu_package(c) != pkg)
			*bound = false;
	return pkg < 0 ? 0 : pkg;
}

/* The node index of this rank: its node's leader's rank among leaders. */
static int my_node(MPI_Comm world)
{
	MPI_Comm node, leaders;
	int local, index = 0, rank;

	MPI_Comm_rank(world, &rank);
	MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
			    &node);
	MPI_Comm_rank(node, &local);
	MPI_Comm_split(world, local == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
	if (leaders != MPI_COMM_NULL) {
		MPI_Comm_rank(leaders, &index);
		MPI_Comm_free(&leaders);
	}
	MPI_Bcast(&index, 1, MPI_INT, 0, node);
	MPI_Comm_free(&node);
	return index;
}

/* The s-th smallest distinct package among the ranks of node n, or -1. */
static int nth_package(const int *where, int size, int n, int s)
{
	int last = -1, k, r;

	for (k = 0; k <= s; k++) {
		int next = -1;

		for (r = 0; r < size; r++)
			if (where[2 * r] == n && where[2 * r + 1] > last &&
			    (next < 0 || where[2 * r + 1] < next))
				next = where[2 * r + 1];
		if (next < 0)
			return -1;
		last = next;
	}
	return last;
}

/* Ranks of node n on package pkg. */
static int count_on(const int *where, int size, int n, int pkg)
{
	int r, k = 0;

	for (r = 0; r < size; r++)
		k += where[2 * r] == n && where[2 * r + 1] == pkg;
	return k;
}

/* The shape: sockets every node has ranks on, and the ranks each of
 * those sockets has at least. */
static void find_shape(const int *where, int size, struct probe_machine *m)
{
	int n, s;

	m->sockets = 0;
	for (n = 0; n < m->nodes; n++) {
		int k = 0;

		while (nth_package(where, size, n, k) >= 0)
			k++;
		if (n == 0 || k < m->sockets)
			m->sockets = k;
	}
	m->per_socket = size;
	for (n = 0; n < m->nodes; n++)
		for (s = 0; s < m->sockets; s++) {
			int k = count_on(where, size, n,
					 nth_package(where, size, n, s));

			if (k < m->per_socket)
				m->per_socket = k;
		}
}

static void fill_slots(const int *where, int size, struct probe_machine *m)
{
	int n, s, r;

	for (n = 0; n < m->nodes; n++)
		for (s = 0; s < m->sockets; s++) {
			int pkg = nth_package(where, size, n, s), i = 0;
			int *slot = m->slot + (n * m->sockets + s) *
						  m->per_socket;

			for (r = 0; r < size && i < m->per_socket; r++)
				if (where[2 * r] == n && where[2 * r + 1] == pkg)
					slot[i++] = r;
		}
}

/* MCASTLAT_PROBE_PRETEND="N,S": rank r is taken to run on node r / (P /
 * N), socket (r mod P/N) / (P / N / S), whatever the machine: a test of
 * the probe's several-node and several-socket plans on one machine (make
 * check-mpi).  0, or -1 when unset or malformed. */
static int pretend(MPI_Comm world, int *node, int *socket)
{
	const char *s = getenv("MCASTLAT_PROBE_PRETEND");
	char *end;
	long n, k;
	int rank, size, per_node;

	if (s == NULL)
		return -1;
	n = strtol(s, &end, 10);
	if (end == s || *end != ',')
		return -1;
	s = end + 1;
	k = strtol(s, &end, 10);
	MPI_Comm_rank(world, &rank);
	MPI_Comm_size(world, &size);
	if (end == s || *end != '\0' || n < 1 || k < 1 || size % n != 0 ||
	    (size / n) % k != 0)
		return -1;
	per_node = size / (int)n;
	*node = rank / per_node;
	*socket = (rank % per_node) / (per_node / (int)k);
	return 0;
}

int probe_machine_find(MPI_Comm world, struct probe_machine *m, char *err,
		       size_t errlen)
{
	int size, mine[3], bound_all, *all;
	bool bound = true;

	MPI_Comm_size(world, &size);
	if (pretend(world, &mine[0], &mine[1]) != 0) {
		mine[0] = my_node(world);
		mine[1] = my_package(&bound);
	}
	all = malloc(sizeof *all * 2 * (size_t)size);
	if (all == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, world);
	mine[2] = bound;
	MPI_Allreduce(&mine[2], &bound_all, 1, MPI_INT, MPI_LAND, world);
	MPI_Allreduce(&mine[0], &m->nodes, 1, MPI_INT, MPI_MAX, world);
	m->nodes++;
	m->bound = bound_all;
	find_shape(all, size, m);
	m->slot = malloc(sizeof *m->slot * (size_t)m->nodes *
			 (size_t)m->sockets * (size_t)m->per_socket);
	if (m->slot == NULL) {
		free(all);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fill_slots(all, size, m);
	free(all);
	return 0;
}

void probe_machine_free(struct probe_machine *m)
{
	free(m->slot);
	m->slot = NULL;
}

long long probe_machine_ppn(const struct probe_machine *m)
{
	return (long long)m->sockets * m->per_socket;
}

/* The model's parameters of a placement on m. */
static void place_params(const struct probe_machine *m,
			 const struct probe_place *pl,
			 struct ml_collective_params *p)
{
	ml_collective_params_init(p);
	p->ranks = pl->ranks;
	p->ppn = probe_machine_ppn(m);
	p->sockets = m->sockets;
	p->nodes = pl->nodes;
	p->map_by = pl->map_by;
}

/* world_of[r]: the world rank that holds rank r of pl; -1 if it does not
 * fit. */
static int place_ranks(const struct probe_machine *m,
		       const struct probe_place *pl, int *world_of)
{
	struct ml_collective_params p;
	size_t ncores = (size_t)m->nodes * (size_t)m->sockets;
	int *used = calloc(ncores ? ncores : 1, sizeof *used);
	long long r, node, socket;

	if (used == NULL)
		return -1;
	place_params(m, pl, &p);
	for (r = 0; r < pl->ranks; r++) {
		size_t at;

		if (ml_collective_place(&p, r, &node, &socket) != ML_OK ||
		    node >= m->nodes || socket >= m->sockets)
			break;
		at = (size_t)(node * m->sockets + socket);
		if (used[at] == m->per_socket)
			break;
		world_of[r] = m->slot[at * (size_t)m->per_socket +
				      (size_t)used[at]++];
	}
	free(used);
	return r == pl->ranks ? 0 : -1;
}

int probe_place_comm(const struct probe_machine *m,
		     const struct probe_place *pl, MPI_Comm world,
		     MPI_Comm *comm)
{
	int *world_of = malloc(sizeof *world_of * (size_t)pl->ranks);
	int rank, key = -1;
	long long r;

	if (world_of == NULL || place_ranks(m, pl, world_of) != 0) {
		free(world_of);
		return -1;
	}
	MPI_Comm_rank(world, &rank);
	for (r = 0; r < pl->ranks; r++)
		if (world_of[r] == rank)
			key = (int)r;
	free(world_of);
	MPI_Comm_split(world, key >= 0 ? 0 : MPI_UNDEFINED, key, comm);
	return 0;
}

int probe_channel_place(const struct probe_machine *m, enum ml_coll_channel c,
			long long ranks, struct probe_place *pl)
{
	pl->ranks = ranks;
	switch (c) {
	case ML_COLL_SOCKET:
		pl->nodes = 1;
		pl->map_by = ML_COLL_MAP_CORE;
		return ranks <= m->per_socket ? 0 : -1;
	case ML_COLL_NODE:
		pl->nodes = 1;
		pl->map_by = ML_COLL_MAP_SOCKET;
		return m->sockets >= 2 && ranks <= probe_machine_ppn(m) ? 0
									: -1;
	default:
		pl->nodes = ranks;
		pl->map_by = ML_COLL_MAP_NODE;
		return ranks <= m->nodes ? 0 : -1;
	}
}
