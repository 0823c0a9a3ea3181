/*
 * planfile.c - mcastlat-probe --plan FILE: the broadcasts of a plan
 * (`mcastlat collective --plan`'s CSV: a header naming at least
 * algorithm, ranks, map_by and msg, then one row a broadcast; '#' lines
 * and blank lines skipped).  Rank 0 reads the file and sends its text
 * to every rank, which parses the same rows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/csvline.h"
#include "probe/probe.h"

static const char *const map_names[] = {"core", "socket", "node", NULL};

static int word(const char *const *names, const char *s)
{
	int i;

	for (i = 0; names[i]; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

/* An Open MPI algorithm by the name collective --plan writes: "ompi"
 * (0, its own decision) or one of ml_collective_alg_name's 1-9; -1. */
static int alg_word(const char *s)
{
	int a;

	if (strcmp(s, "ompi") == 0)
		return 0;
	for (a = 1; a <= ML_COLL_NALG; a++)
		if (strcmp(ml_collective_alg_name((enum ml_coll_alg)a), s) == 0)
			return a;
	return -1;
}

static int number(const char *s, long long lo, long long hi, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	return end == s || *end != '\0' || errno != 0 || *v < lo || *v > hi ? -1
									    : 0;
}

/* Rank 0: the whole file into a new buffer (*len bytes), or NULL with
 * the reason in err. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *more;
	size_t cap = 0, n = 0, got;

	if (!f) {
		snprintf(err, errlen, "--plan: '%s': %s", path,
			 strerror(errno));
		return NULL;
	}
	do {
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			more = cap < (1u << 30) ? realloc(buf, cap + 1) : NULL;
			if (!more) {
				snprintf(err, errlen, "--plan: '%s': too large",
					 path);
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = more;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	if (ferror(f)) {
		snprintf(err, errlen, "--plan: '%s': %s", path,
			 strerror(errno));
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The rows of text into *rows (*n); 0, or -1 with err. */
static int parse(char *text, struct probe_row **rows, size_t *n, char *err,
		 size_t errlen)
{
	enum { C_ALG, C_RANKS, C_MAP, C_MSG, NC };
	static const char *const need[NC] = {"algorithm", "ranks", "map_by",
					     "msg"};
	static const char *const alloc[3] = {"ppn", "sockets", "nodes"};
	int col[NC] = {-1, -1, -1, -1}, acol[3] = {-1, -1, -1};
	char *line, *next, *f[64];
	size_t nf, cap = 0, lineno = 0, i;
	bool header = false;

	*rows = NULL;
	*n = 0;
	for (line = text; line && *line; line = next) {
		struct probe_row r;
		long long v;
		int k;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (line[0] && line[strlen(line) - 1] == '\r')
			line[strlen(line) - 1] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (ml_csv_split(line, f, 64, &nf) != 0) {
			snprintf(err, errlen, "--plan: line %zu: bad CSV",
				 lineno);
			return -1;
		}
		if (!header) {
			for (i = 0; i < nf; i++) {
				for (k = 0; k < NC; k++)
					if (strcmp(f[i], need[k]) == 0)
						col[k] = (int)i;
				for (k = 0; k < 3; k++)
					if (strcmp(f[i], alloc[k]) == 0)
						acol[k] = (int)i;
			}
			for (k = 0; k < NC; k++)
				if (col[k] < 0) {
					snprintf(err, errlen,
						 "--plan: the header has no "
						 "column '%s' (collective "
						 "--plan writes one)",
						 need[k]);
					return -1;
				}
			header = true;
			continue;
		}
		for (k = 0; k < NC; k++)
			if ((size_t)col[k] >= nf) {
				snprintf(err, errlen,
					 "--plan: line %zu: no "
					 "%s",
					 lineno, need[k]);
				return -1;
			}
		r.algorithm = alg_word(f[col[C_ALG]]);
		k = word(map_names, f[col[C_MAP]]);
		if (r.algorithm < 0 || k < 0) {
			snprintf(err, errlen,
				 "--plan: line %zu: '%s' is not "
				 "%s",
				 lineno,
				 r.algorithm < 0 ? f[col[C_ALG]]
						 : f[col[C_MAP]],
				 r.algorithm < 0 ? "an algorithm of Open MPI's "
						   "or ompi"
						 : "core, socket or node");
			return -1;
		}
		r.map_by = (enum ml_coll_map)k;
		if (number(f[col[C_RANKS]], 2, 1 << 24, &r.ranks) != 0 ||
		    number(f[col[C_MSG]], 1, 1LL << 30, &v) != 0) {
			snprintf(err, errlen,
				 "--plan: line %zu: ranks must be "
				 "an integer >= 2, msg in [1, 2^30]",
				 lineno);
			return -1;
		}
		r.msg = v;
		/* The allocation the plan was made for, where it says. */
		for (k = 0; k < 3; k++) {
			long long *a = k == 0	? &r.ppn
				       : k == 1 ? &r.sockets
						: &r.nodes;

			if (acol[k] < 0 || (size_t)acol[k] >= nf ||
			    number(f[acol[k]], 1, 1 << 24, a) != 0)
				*a = 0;
		}
		if (*n == cap) {
			struct probe_row *more;

			cap = cap ? 2 * cap : 256;
			more = realloc(*rows, cap * sizeof *more);
			if (!more) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			*rows = more;
		}
		(*rows)[(*n)++] = r;
	}
	if (*n == 0) {
		snprintf(err, errlen, "--plan: no broadcast to measure");
		return -1;
	}
	return 0;
}

int probe_plan_read(MPI_Comm world, const char *path, struct probe_row **rows,
		    size_t *n, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	long long shared;
	int rank, rc;

	*rows = NULL;
	*n = 0;
	MPI_Comm_rank(world, &rank);
	if (rank == 0)
		text = slurp(path, &len, err, errlen);
	shared = text ? (long long)len : -1;
	MPI_Bcast(&shared, 1, MPI_LONG_LONG, 0, world);
	if (shared < 0) {
		if (rank != 0)
			snprintf(err, errlen, "--plan: unreadable");
		return -1;
	}
	if (rank != 0) {
		text = malloc((size_t)shared + 1);
		if (!text)
			MPI_Abort(world, 1);
		text[shared] = '\0';
	}
	MPI_Bcast(text, (int)shared, MPI_CHAR, 0, world);
	rc = parse(text, rows, n, err, errlen);
	free(text);
	if (rc != 0) {
		free(*rows);
		*rows = NULL;
		*n = 0;
	}
	return rc;
}
