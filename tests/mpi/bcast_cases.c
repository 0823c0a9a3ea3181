/*
 * bcast_cases.c - the MPI side of tests/mpi/check-ompi.sh: broadcasts that
 * Open MPI's pml monitoring component records, message by message.
 *
 *   mpirun -np W --mca pml_monitoring_enable 2 \
 *       --mca pml_monitoring_enable_output 3 \
 *       --mca pml_monitoring_filename PREFIX [--mca coll_tuned_...] \
 *       bcast_cases [--baseline] [--root R] [--warmup] P1,P2,... M1,M2,...
 *
 * The W = P1 + P2 + ... world ranks are cut into consecutive groups of P1,
 * P2, ... ranks (MPI_Comm_split); in every group at once, rank 0 of the
 * group broadcasts M1 bytes, then M2, ... (MPI_BYTE, so Open MPI's element
 * counts are bytes).  The algorithm, segment size, chain fan-out, knomial
 * radix or rules file are coll/tuned's MCA parameters on mpirun's command
 * line: they hold for every communicator of the run.  Each receiver checks
 * the bytes it got; the exit status is 1 when a broadcast delivered wrong
 * data.
 *
 * Why groups and a baseline rather than one case per run or per MPI_T
 * reading: Open MPI 4.1's pml monitoring performance variables are
 * unregistered with the component (open-mpi/ompi#9260), and once MPI_T is
 * initialised the monitoring writes no file at MPI_Finalize at all (tried
 * with 4.1.4), so the only record is the files of MPI_Finalize: per
 * sender, each peer's bytes and messages, summed over the run.  Disjoint
 * groups keep the cases of different P apart in that record (their world
 * ranks differ); the sizes of one group are summed.  Making the groups
 * sends messages of its own, which `--baseline` (the same run without the
 * broadcasts) records alone, to be subtracted.  --warmup broadcasts one
 * byte from rank 0 in each group first, in both runs: coll/han sets up
 * its sub-communicators at its first collective on a communicator
 * (allreduce, allgather, splits), which the baseline then holds too.
 */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS 64

/* Parses a comma-separated list of integers in [lo, hi]; returns how
 * many, or -1. */
static int parse_list(const char *s, long lo, long hi, long *out)
{
	int n = 0;

	for (;;) {
		char *end;
		long v;

		errno = 0;
		v = strtol(s, &end, 10);
		if (end == s || errno != 0 || v < lo || v > hi ||
		    n == MAX_ITEMS)
			return -1;
		out[n++] = v;
		if (*end == '\0')
			return n;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}

static unsigned char pattern(long i, long size_no)
{
	return (unsigned char)((i * 131 + size_no * 7 + 1) & 0xff);
}

/* Broadcasts each size on comm from root; returns the number of wrong
 * bytes. */
static long broadcast_sizes(MPI_Comm comm, const long *sizes, int nsizes,
			    int root)
{
	long max = 0, wrong = 0, i;
	unsigned char *buf;
	int rank, s;

	MPI_Comm_rank(comm, &rank);
	for (s = 0; s < nsizes; s++)
		if (sizes[s] > max)
			max = sizes[s];
	buf = malloc((size_t)max + 1);
	if (buf == NULL) {
		fprintf(stderr, "bcast_cases: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (s = 0; s < nsizes; s++) {
		for (i = 0; i < sizes[s]; i++)
			buf[i] = rank == root ? pattern(i, s) : 0;
		MPI_Bcast(buf, (int)sizes[s], MPI_BYTE, root, comm);
		for (i = 0; i < sizes[s]; i++)
			wrong += buf[i] != pattern(i, s);
	}
	free(buf);
	return wrong;
}

int main(int argc, char **argv)
{
	long groups[MAX_ITEMS], sizes[MAX_ITEMS], first = 0, wrong = 0;
	long root = 0, one = 1;
	int ngroups = -1, nsizes = -1, rank, size, g, baseline = 0, warmup = 0;
	int a = 1;
	char *end;
	MPI_Comm comm;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
		if (strcmp(argv[a], "--baseline") == 0) {
			baseline = 1;
		} else if (strcmp(argv[a], "--warmup") == 0) {
			warmup = 1;
		} else if (strcmp(argv[a], "--root") == 0 && a + 1 < argc) {
			errno = 0;
			root = strtol(argv[++a], &end, 10);
			if (*end != '\0' || errno != 0 || root < 0)
				break;
		} else {
			break;
		}
	}
	if (argc == a + 2) {
		ngroups = parse_list(argv[a], 1, 4096, groups);
		nsizes = ngroups > 0 ? parse_list(argv[a + 1], 0, 1 << 30,
						  sizes)
				     : -1;
	}
	for (g = 0; g < ngroups; g++)
		first += groups[g];
	if (nsizes < 0 || first != size) {
		if (rank == 0)
			fprintf(stderr, "usage: mpirun -np P1+P2+... "
					"bcast_cases [--baseline] [--root R] "
					"[--warmup] P1,P2,... M1,M2,...\n");
		MPI_Finalize();
		return 2;
	}
	for (g = 0, first = 0; rank >= first + groups[g]; g++)
		first += groups[g];
	MPI_Comm_split(MPI_COMM_WORLD, g, rank, &comm);
	if (warmup)
		wrong = broadcast_sizes(comm, &one, 1, 0);
	if (!baseline)
		wrong += broadcast_sizes(comm, sizes, nsizes,
					 (int)(root % groups[g]));
	if (wrong)
		fprintf(stderr, "bcast_cases: world rank %d (group of %ld): "
				"%ld wrong bytes\n", rank, groups[g], wrong);
	MPI_Comm_free(&comm);
	MPI_Finalize();
	return wrong ? 1 : 0;
}
