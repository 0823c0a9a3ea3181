/*
 * bcast_trace.c - records every point-to-point message MPICH sends
 * inside MPI_Bcast, for tests/mpi/check-mpich.sh (SPEC 11).
 *
 * Linked statically against Debian's libmpich.a with ld --wrap on
 * MPICH's internal MPIC_Send and MPIC_Sendrecv (and on the four MPIR
 * broadcast algorithms, to name what ran), so MPICH itself is not
 * rebuilt: each wrapper logs and calls the real function.  A message on
 * an internal communicator (node_comm, node_roots_comm) is translated
 * to its COMM_WORLD ranks through the communicator's group.
 *
 *   bcast_trace OUTPREFIX ROOT[,ROOT...] BYTES...
 *
 * broadcasts BYTES bytes (MPI_BYTE) from each ROOT in turn, once per
 * BYTES argument (the cases, numbered from 0: every size of the first
 * root, then of the next), and writes OUTPREFIX.RANK: for each case
 * "C INDEX BYTES ROOT", then one line per message this rank sent,
 * "M SRC DST BYTES", and one per algorithm entered, "A NAME COMMSIZE".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct MPIR_Comm; /* opaque: its first int is the handle */

static int tracing, wrank;
static FILE *out;

static MPI_Comm handle_of(struct MPIR_Comm *c)
{
	int h;

	memcpy(&h, (const void *)c, sizeof h);
	return (MPI_Comm)h;
}

/* COMM_WORLD rank of rank r of internal communicator c. */
static int world_rank(struct MPIR_Comm *c, int r)
{
	MPI_Group g, wg;
	int w = r;

	if (PMPI_Comm_group(handle_of(c), &g) != MPI_SUCCESS)
		return r;
	PMPI_Comm_group(MPI_COMM_WORLD, &wg);
	PMPI_Group_translate_ranks(g, 1, &r, wg, &w);
	PMPI_Group_free(&g);
	PMPI_Group_free(&wg);
	return w;
}

static void log_send(struct MPIR_Comm *c, int dst, MPI_Aint count,
		     MPI_Datatype t)
{
	int size = 1;

	if (!tracing)
		return;
	PMPI_Type_size(t, &size);
	fprintf(out, "M %d %d %lld\n", wrank, world_rank(c, dst),
		(long long)count * size);
}

static void log_alg(const char *name, struct MPIR_Comm *c)
{
	int n = 0;

	if (!tracing)
		return;
	PMPI_Comm_size(handle_of(c), &n);
	fprintf(out, "A %s %d\n", name, n);
}

int __real_MPIC_Send(const void *, MPI_Aint, MPI_Datatype, int, int,
		     struct MPIR_Comm *, int *);
int __wrap_MPIC_Send(const void *, MPI_Aint, MPI_Datatype, int, int,
		     struct MPIR_Comm *, int *);
int __wrap_MPIC_Send(const void *buf, MPI_Aint count, MPI_Datatype t,
		     int dest, int tag, struct MPIR_Comm *c, int *errflag)
{
	log_send(c, dest, count, t);
	return __real_MPIC_Send(buf, count, t, dest, tag, c, errflag);
}

int __real_MPIC_Sendrecv(const void *, MPI_Aint, MPI_Datatype, int, int,
			 void *, MPI_Aint, MPI_Datatype, int, int,
			 struct MPIR_Comm *, MPI_Status *, int *);
int __wrap_MPIC_Sendrecv(const void *, MPI_Aint, MPI_Datatype, int, int,
			 void *, MPI_Aint, MPI_Datatype, int, int,
			 struct MPIR_Comm *, MPI_Status *, int *);
int __wrap_MPIC_Sendrecv(const void *sb, MPI_Aint sc, MPI_Datatype st,
			 int dest, int stag, void *rb, MPI_Aint rc,
			 MPI_Datatype rt, int src, int rtag,
			 struct MPIR_Comm *c, MPI_Status *s, int *errflag)
{
	log_send(c, dest, sc, st);
	return __real_MPIC_Sendrecv(sb, sc, st, dest, stag, rb, rc, rt, src,
				    rtag, c, s, errflag);
}

#define WRAP_ALG(NAME)                                                         \
	int __real_MPIR_Bcast_intra_##NAME(void *, MPI_Aint, MPI_Datatype,    \
					   int, struct MPIR_Comm *, int *);    \
	int __wrap_MPIR_Bcast_intra_##NAME(void *, MPI_Aint, MPI_Datatype,    \
					   int, struct MPIR_Comm *, int *);    \
	int __wrap_MPIR_Bcast_intra_##NAME(void *b, MPI_Aint n,               \
					   MPI_Datatype t, int root,           \
					   struct MPIR_Comm *c, int *e)        \
	{                                                                      \
		log_alg(#NAME, c);                                             \
		return __real_MPIR_Bcast_intra_##NAME(b, n, t, root, c, e);    \
	}
WRAP_ALG(binomial)
WRAP_ALG(scatter_recursive_doubling_allgather)
WRAP_ALG(scatter_ring_allgather)
WRAP_ALG(smp)

int main(int argc, char **argv)
{
	char path[4096];
	char *buf;
	const char *roots;
	long long n, max = 1;
	int i, root, ncase = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
	if (argc < 4) {
		if (wrank == 0)
			fprintf(stderr, "usage: bcast_trace OUTPREFIX "
					"ROOT[,ROOT...] BYTES...\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	roots = argv[2];
	for (i = 3; i < argc; i++) {
		n = atoll(argv[i]);
		max = n > max ? n : max;
	}
	snprintf(path, sizeof path, "%s.%d", argv[1], wrank);
	out = fopen(path, "w");
	buf = malloc((size_t)max);
	if (!out || !buf)
		MPI_Abort(MPI_COMM_WORLD, 1);
	memset(buf, wrank, (size_t)max);
	for (;;) {
		root = atoi(roots);
		for (i = 3; i < argc; i++) {
			n = atoll(argv[i]);
			fprintf(out, "C %d %lld %d\n", ncase++, n, root);
			MPI_Barrier(MPI_COMM_WORLD);
			tracing = 1;
			MPI_Bcast(buf, (int)n, MPI_BYTE, root, MPI_COMM_WORLD);
			tracing = 0;
		}
		roots = strchr(roots, ',');
		if (!roots)
			break;
		roots++;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	fclose(out);
	free(buf);
	MPI_Finalize();
	return 0;
}
