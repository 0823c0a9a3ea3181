/*
 * measure.c - mcastlat-probe's timings, and the algorithm it asks Open
 * MPI for.
 *
 * A ping-pong is half the mean round trip between two ranks, as
 * osu_latency reports it.  A broadcast is timed as osu_bcast times it:
 * each iteration starts at the exit of a barrier, and each rank's time
 * runs to its own return from MPI_Bcast; a rank's mean over the
 * iterations, then the mean, the smallest and the largest of those means
 * over ranks (OSU's Avg, Min and Max: `fit collective` fits
 * latency_avg and latency to them).  Iterations are sized from one
 * timed iteration so that a point takes about the time it is given.
 *
 * The algorithm is Open MPI's coll_tuned_bcast_algorithm (with its
 * segment size, chain fan-out and knomial radix), written through MPI_T
 * control variables: coll/tuned reads them when a communicator is made
 * (the radix at each call), so each point's communicator is made after
 * they are set.  They act only while coll_tuned_use_dynamic_rules is
 * true, which MPI_T cannot set (its scope is read-only): probe.c sets
 * it in the environment before MPI_Init.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"

#define MIN_ITERATIONS 3
#define MAX_ITERATIONS 100000L

static int cvar(const char *name, MPI_T_cvar_handle *h)
{
	int index, count;

	if (MPI_T_cvar_get_index(name, &index) != MPI_SUCCESS)
		return -1;
	return MPI_T_cvar_handle_alloc(index, NULL, h, &count) == MPI_SUCCESS
		       ? 0
		       : -1;
}

void probe_tuned_open(struct probe_tuned *t)
{
	t->ok = cvar("coll_tuned_bcast_algorithm", &t->algorithm) == 0 &&
		cvar("coll_tuned_bcast_algorithm_segmentsize", &t->segment) ==
			0 &&
		cvar("coll_tuned_bcast_algorithm_chain_fanout", &t->fanout) ==
			0 &&
		cvar("coll_tuned_bcast_algorithm_knomial_radix", &t->radix) ==
			0;
}

void probe_tuned_close(struct probe_tuned *t)
{
	if (!t->ok)
		return;
	MPI_T_cvar_handle_free(&t->algorithm);
	MPI_T_cvar_handle_free(&t->segment);
	MPI_T_cvar_handle_free(&t->fanout);
	MPI_T_cvar_handle_free(&t->radix);
	t->ok = false;
}

static int cvar_write(MPI_T_cvar_handle h, long long value)
{
	int v = (int)value;

	return MPI_T_cvar_write(h, &v);
}

int probe_tuned_force(struct probe_tuned *t, int algorithm, long long segment,
		      int fanout, int radix)
{
	int rc;

	if (!t->ok)
		return algorithm == 0 ? 0 : MPI_T_ERR_INVALID_NAME;
	rc = cvar_write(t->algorithm, algorithm);
	if (rc == MPI_SUCCESS)
		rc = cvar_write(t->segment, segment);
	if (rc == MPI_SUCCESS)
		rc = cvar_write(t->fanout, fanout);
	if (rc == MPI_SUCCESS)
		rc = cvar_write(t->radix, radix);
	return rc;
}

/* Iterations so that `seconds` hold them at `one` seconds each; the same
 * on every rank of comm (rank 0's). */
static long iterations_for(MPI_Comm comm, double one, double seconds)
{
	long n = MIN_ITERATIONS;

	if (one > 0 && seconds / one > MIN_ITERATIONS)
		n = seconds / one > MAX_ITERATIONS ? MAX_ITERATIONS
						   : (long)(seconds / one);
	MPI_Bcast(&n, 1, MPI_LONG, 0, comm);
	return n;
}

static void *buffer(long long msg)
{
	void *b = malloc(msg > 0 ? (size_t)msg : 1);

	if (b == NULL) {
		fprintf(stderr, "mcastlat-probe: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	memset(b, 0, msg > 0 ? (size_t)msg : 1);
	return b;
}

/* n round trips between ranks 0 and 1 of comm. */
static void round_trips(MPI_Comm comm, void *buf, long long msg, long n)
{
	int rank, i;

	MPI_Comm_rank(comm, &rank);
	for (i = 0; i < n; i++) {
		if (rank == 0) {
			MPI_Send(buf, (int)msg, MPI_BYTE, 1, 1, comm);
			MPI_Recv(buf, (int)msg, MPI_BYTE, 1, 1, comm,
				 MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, (int)msg, MPI_BYTE, 0, 1, comm,
				 MPI_STATUS_IGNORE);
			MPI_Send(buf, (int)msg, MPI_BYTE, 0, 1, comm);
		}
	}
}

void probe_pingpong(MPI_Comm comm, long long msg, double seconds,
		    struct probe_times *out)
{
	void *buf = buffer(msg);
	double t;
	long n;

	round_trips(comm, buf, msg, 1); /* warm-up: connections, buffers */
	t = MPI_Wtime();
	round_trips(comm, buf, msg, 1);
	n = iterations_for(comm, MPI_Wtime() - t, seconds);
	MPI_Barrier(comm);
	t = MPI_Wtime();
	round_trips(comm, buf, msg, n);
	t = (MPI_Wtime() - t) / (2.0 * (double)n) * 1e6;
	out->avg = out->min = out->max = t;
	out->iterations = n;
	free(buf);
}

/* n broadcasts, each from a barrier's exit; this rank's total seconds. */
static double broadcasts(MPI_Comm comm, void *buf, long long msg, long n)
{
	double total = 0, t;
	long i;

	for (i = 0; i < n; i++) {
		MPI_Barrier(comm);
		t = MPI_Wtime();
		MPI_Bcast(buf, (int)msg, MPI_BYTE, 0, comm);
		total += MPI_Wtime() - t;
	}
	return total;
}

void probe_bcast(MPI_Comm comm, long long msg, double seconds,
		 struct probe_times *out)
{
	void *buf = buffer(msg);
	double mine, sum, t;
	int size;
	long n;

	MPI_Comm_size(comm, &size);
	broadcasts(comm, buf, msg, 1); /* warm-up: the trees, connections */
	t = MPI_Wtime();
	broadcasts(comm, buf, msg, 1);
	n = iterations_for(comm, MPI_Wtime() - t, seconds);
	mine = broadcasts(comm, buf, msg, n) / (double)n * 1e6;
	MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
	MPI_Reduce(&mine, &out->min, 1, MPI_DOUBLE, MPI_MIN, 0, comm);
	MPI_Reduce(&mine, &out->max, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
	out->avg = sum / size;
	out->iterations = n;
	free(buf);
}
