/*
 * probe.h - mcastlat-probe (SPEC 10.6), the MPI program that measures a
 * machine for `mcastlat fit collective`: what its files share.
 *
 *   machine.c   where the ranks run (nodes, sockets) and communicators
 *               whose ranks sit where collective's placement puts them
 *   measure.c   ping-pong and broadcast timings, algorithms forced
 *               through Open MPI's MPI_T control variables
 *   probe.c     options, the plan, the CSV
 *   planfile.c  --plan FILE: the broadcasts of collective --plan
 */
#ifndef MCASTLAT_PROBE_H
#define MCASTLAT_PROBE_H

#include <mpi.h>
#include <stdbool.h>

#include "mcastlat/collective.h"

/* Where the ranks of MPI_COMM_WORLD run, as collective's machine sees
 * it: nodes of `sockets` sockets holding `per_socket` usable ranks
 * each (the smallest count found: a node or socket with more ranks has
 * the rest idle). */
struct probe_machine {
	int nodes;
	int sockets;
	int per_socket;
	int *slot; /* world rank of core i of socket s of node n, at
		    * (n * sockets + s) * per_socket + i */
	bool bound; /* every rank stayed on one socket (its affinity) */
};

/* Finds the machine, collectively over world; 0, or -1 with a message in
 * err (out of memory). */
int probe_machine_find(MPI_Comm world, struct probe_machine *m, char *err,
		       size_t errlen);
void probe_machine_free(struct probe_machine *m);

/* The placement of a measurement: the model's (SPEC 10.2) options. */
struct probe_place {
	long long ranks;
	long long nodes; /* allocated, as collective --nodes */
	enum ml_coll_map map_by;
};

/* The ppn of collective's machine for m (sockets x per_socket). */
long long probe_machine_ppn(const struct probe_machine *m);

/* Makes *comm the communicator whose rank r is the world rank that sits
 * where collective puts rank r under pl (MPI_COMM_NULL on ranks left
 * out); collective over world.  -1 when pl does not fit m. */
int probe_place_comm(const struct probe_machine *m,
		     const struct probe_place *pl, MPI_Comm world,
		     MPI_Comm *comm);

/* The placement of `ranks` ranks whose rank 0 reaches the others over
 * channel c: socket, the first cores of one socket (map-by core); node,
 * one node's ranks alternating sockets (map-by socket: every other rank
 * on the other socket); net, one rank per node (map-by node).  -1 when
 * the machine has too few cores, sockets or nodes for it. */
int probe_channel_place(const struct probe_machine *m, enum ml_coll_channel c,
			long long ranks, struct probe_place *pl);

/* Open MPI's coll/tuned knobs (MPI_T control variables). */
struct probe_tuned {
	bool ok; /* the four variables were found */
	MPI_T_cvar_handle algorithm, segment, fanout, radix;
};

/* Finds the knobs (after MPI_T_init_thread); t->ok false when the MPI
 * library has none (not Open MPI's coll/tuned). */
void probe_tuned_open(struct probe_tuned *t);
void probe_tuned_close(struct probe_tuned *t);

/* Sets the forced algorithm (0: the library's own decision) and its
 * segment size, chain fan-out and knomial radix, for communicators made
 * from now on; 0 or an MPI error code. */
int probe_tuned_force(struct probe_tuned *t, int algorithm, long long segment,
		      int fanout, int radix);

/* One timed point: each rank's mean time over the iterations, reduced. */
struct probe_times {
	double avg, min, max; /* over ranks, us */
	long iterations;
};

/* Half the round trip of msg bytes between the two ranks of comm (size
 * 2), averaged over iterations sized to about `seconds`; collective over
 * comm; result on rank 0. */
void probe_pingpong(MPI_Comm comm, long long msg, double seconds,
		    struct probe_times *out);

/* MPI_Bcast of msg bytes from rank 0 of comm, each rank timed from a
 * barrier's exit to its own return, iterations sized to about
 * `seconds`; result on rank 0. */
void probe_bcast(MPI_Comm comm, long long msg, double seconds,
		 struct probe_times *out);

/* One broadcast of a plan file: algorithm 0 = ompi (nothing forced),
 * else Open MPI's id. */
struct probe_row {
	int algorithm;
	long long ranks, msg;
	enum ml_coll_map map_by;
	long long ppn, sockets, nodes; /* the plan's allocation, 0 if not
					* given */
};

/* Reads the plan file path (collective --plan's CSV) on world's rank 0
 * and parses it on every rank into *rows (*n, malloc'ed); collective
 * over world.  0, or -1 with a one-line message in err (every rank). */
int probe_plan_read(MPI_Comm world, const char *path, struct probe_row **rows,
		    size_t *n, char *err, size_t errlen);

#endif
