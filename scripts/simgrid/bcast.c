/* bcast.c - a tiny osu_bcast -f for SimGrid's SMPI (scripts/simgrid/).
 *
 *   bcast M [ITER [SYNC]]   MPI_Bcast of M bytes of MPI_BYTE from root 0,
 *                           ITER times (default 3): per iteration an
 *                           MPI_Barrier, then (SYNC = 1, the default) every
 *                           rank idles until one common start time, so
 *                           all ranks enter MPI_Bcast at the same simulated
 *                           instant, as mcastlat collective assumes; with
 *                           SYNC = 0 each rank starts when it leaves the
 *                           barrier, as OSU does.  Each rank's time is
 *                           from the common start (SYNC = 1) or its own
 *                           (SYNC = 0) to its return from MPI_Bcast.
 *                           The results are gathered 1 s (simulated)
 *                           after the start.  Hosts must run at 1 Gflop/s.
 *   bcast -p M [ITER]       ping-pong between ranks 0 and 1: half the
 *                           round trip of M bytes (osu_latency).
 *
 * Prints one line per iteration, "iter max avg min" in microseconds:
 * max and mean over ranks (OSU's Max and Avg, mcastlat's latency and
 * latency_avg) and the min; for -p, "iter half_round_trip".  Times are
 * printed with %.17g (all digits).  Build with smpicc; run under smpirun.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double now_us(void) { return MPI_Wtime() * 1e6; }

int main(int argc, char **argv)
{
	int rank, size, i, pingpong = 0, a = 1, iters = 3, sync = 1;
	long m;
	char *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (a < argc && strcmp(argv[a], "-p") == 0) {
		pingpong = 1;
		a++;
	}
	if (a >= argc) {
		if (rank == 0)
			fprintf(stderr, "usage: bcast [-p] M [ITER [SYNC]]\n");
		MPI_Finalize();
		return 2;
	}
	m = atol(argv[a]);
	if (a + 1 < argc)
		iters = atoi(argv[a + 1]);
	if (a + 2 < argc)
		sync = atoi(argv[a + 2]);
	buf = calloc(m > 0 ? (size_t)m : 1, 1);

	for (i = 0; i < iters; i++) {
		double t0, t, st[3], mx[3];

		MPI_Barrier(MPI_COMM_WORLD);
		if (sync) {
			/* a common start t0: the latest exit from the barrier
			 * plus 1 ms (far above the allreduce's own time); each
			 * rank idles until t0 (smpi_execute_flops on a host of
			 * 1 Gflop/s: one flop a nanosecond, fractions kept) */
			t = now_us();
			MPI_Allreduce(&t, &t0, 1, MPI_DOUBLE, MPI_MAX,
				      MPI_COMM_WORLD);
			t0 += 1000;
			t = now_us();
			if (t0 > t)
				smpi_execute_flops((t0 - t) * 1e3);
		} else {
			t0 = now_us();
		}
		if (pingpong) {
			if (rank == 0) {
				MPI_Send(buf, (int)m, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
				MPI_Recv(buf, (int)m, MPI_BYTE, 1, 1, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
				printf("%d %.17g\n", i, (now_us() - t0) / 2);
			} else if (rank == 1) {
				MPI_Recv(buf, (int)m, MPI_BYTE, 0, 1, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
				MPI_Send(buf, (int)m, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
			}
			continue;
		}
		MPI_Bcast(buf, (int)m, MPI_BYTE, 0, MPI_COMM_WORLD);
		t = now_us() - t0;
		/* no traffic of ours while a broadcast may still run: a rank
		 * leaves MPI_Bcast as soon as its (detached) sends are posted,
		 * and its MPI_Reduce messages would share links with the
		 * broadcast's; so every rank idles until t0 + 1 s first */
		if (t < 1e6)
			smpi_execute_flops((1e6 - t) * 1e3);
		st[0] = t;
		st[1] = t;
		st[2] = -t;
		MPI_Reduce(&st[0], &mx[0], 1, MPI_DOUBLE, MPI_MAX, 0,
			   MPI_COMM_WORLD);
		MPI_Reduce(&st[1], &mx[1], 1, MPI_DOUBLE, MPI_SUM, 0,
			   MPI_COMM_WORLD);
		MPI_Reduce(&st[2], &mx[2], 1, MPI_DOUBLE, MPI_MAX, 0,
			   MPI_COMM_WORLD);
		if (rank == 0)
			printf("%d %.17g %.17g %.17g\n", i, mx[0], mx[1] / size,
			       -mx[2]);
	}
	free(buf);
	MPI_Finalize();
	return 0;
}
