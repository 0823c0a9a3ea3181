/*
 * fuzz_fitdata.c - fuzz target: the --data readers of `mcastlat fit`
 * (src/cli/fit/fitdata.c, read_csv.c, read_osu.c, read_imb.c) on any input
 * read as standard input: format detection, CSV quoting, OSU and IMB
 * tables, NUL bytes, CRLF, lines longer than ML_LINE_MAX.
 *
 * Reproduce (builds with clang, runs every target for FUZZ_SECONDS):
 *   make fuzz FUZZ_SECONDS=600 FUZZ_TARGETS=fitdata
 * Replay the corpus and regression inputs without libFuzzer:
 *   make fuzz-replay
 *
 * Input: when the first line starts with "-:" and is a list of
 * key=value attributes ("-:nodes=16:op=bcast"), it is the --data spec
 * and the rest of the input is the file; otherwise the spec is "-" and
 * the whole input is the file.  No file of the fuzzer's choosing is
 * opened.
 *
 * Checked: no crash, leak or undefined behaviour; fd_read returns 0 or
 * -1; on -1 a one-line message without "mcastlat: " and the set as it
 * was; on 0 at least two points (rows and rejected rows), every row
 * with a line, a known unit, statistics NaN or finite and > 0 and at
 * least one of them present; reading the same input twice gives twice
 * the rows.
 */
#include <ctype.h>
#include <math.h>

#include "cli/fit/fitdata.h"
#include "fuzz_common.h"

/* true when s is "-:" followed by key=value items: a spec that reads
 * standard input whatever the current directory holds. */
static int stdin_spec(const char *s)
{
	const char *p = s + 2;

	if (strncmp(s, "-:", 2) != 0)
		return 0;
	for (;;) {
		const char *k = p;

		while (*p &&
		       (isalnum((unsigned char)*p) || *p == '-' || *p == '_'))
			p++;
		if (p == k || *p != '=')
			return 0;
		p += strcspn(p, ":");
		if (*p == '\0')
			return 1;
		p++;
	}
}

static void check_rows(const struct fd_set *s)
{
	size_t i, k;

	for (i = 0; i < s->nrows; i++) {
		const struct fd_row *r = &s->rows[i];
		const double x[3] = {r->avg, r->min, r->max};
		int any = 0, j;

		FUZZ_ASSERT(r->file != NULL && r->line >= 1, "row %zu", i);
		FUZZ_ASSERT(r->unit == NULL || strcmp(r->unit, "ns") == 0 ||
				strcmp(r->unit, "us") == 0 ||
				strcmp(r->unit, "ms") == 0 ||
				strcmp(r->unit, "s") == 0,
			    "unit %s", r->unit);
		for (j = 0; j < 3; j++) {
			FUZZ_ASSERT(isnan(x[j]) || (isfinite(x[j]) && x[j] > 0),
				    "statistic %g", x[j]);
			any |= !isnan(x[j]);
		}
		FUZZ_ASSERT(any, "row %zu without a statistic", i);
		FUZZ_ASSERT(isnan(r->weight) ||
				(isfinite(r->weight) && r->weight > 0),
			    "weight %g", r->weight);
		for (k = 0; k < r->nkv; k++)
			FUZZ_ASSERT(r->kv[k].key && r->kv[k].val &&
					r->kv[k].key[0] != '\0',
				    "row %zu input %zu", i, k);
	}
	for (i = 0; i < s->nbad; i++)
		FUZZ_ASSERT(s->bad[i].where && s->bad[i].msg &&
				strchr(s->bad[i].msg, '\n') == NULL,
			    "problem %zu", i);
}

static int read_once(struct fd_set *s, const char *spec, const uint8_t *d,
		     size_t n)
{
	char err[512];
	FILE *in = n ? fmemopen((void *)d, n, "r") : fuzz_empty_in();
	struct fd_set before = *s;
	int rc;

	FUZZ_ASSERT(in != NULL, "fmemopen failed");
	rc = fd_read(s, spec, in, err, sizeof(err));
	if (n)
		fclose(in);
	FUZZ_ASSERT(rc == 0 || rc == -1, "fd_read returned %d", rc);
	if (rc) {
		FUZZ_ASSERT(err[0] != '\0' && strchr(err, '\n') == NULL &&
				strncmp(err, "mcastlat: ", 10) != 0,
			    "error message: %.200s", err);
		FUZZ_ASSERT(s->nrows == before.nrows &&
				s->nbad == before.nbad &&
				s->nnotes == before.nnotes &&
				s->nfiles == before.nfiles,
			    "the set changed on an error: %.200s", err);
	} else {
		FUZZ_ASSERT(s->nrows + s->nbad >=
				before.nrows + before.nbad + 2,
			    "fewer than two points accepted");
	}
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fd_set s = {0};
	const uint8_t *file = data;
	size_t nfile = size, rows;
	char *spec = NULL;
	int rc;

	fuzz_init();
	{
		const uint8_t *nl = memchr(data, '\n', size);

		if (nl != NULL) {
			spec = fuzz_strndup(data, (size_t)(nl - data));
			if (stdin_spec(spec) &&
			    strlen(spec) == (size_t)(nl - data)) {
				file = nl + 1;
				nfile = size - (size_t)(file - data);
			} else {
				free(spec);
				spec = NULL;
			}
		}
	}
	rc = read_once(&s, spec ? spec : "-", file, nfile);
	check_rows(&s);
	rows = s.nrows;
	if (rc == 0) {
		FUZZ_ASSERT(read_once(&s, spec ? spec : "-", file, nfile) == 0,
			    "a second read failed");
		FUZZ_ASSERT(s.nrows == 2 * rows,
			    "second read: %zu rows, not %zu", s.nrows,
			    2 * rows);
		check_rows(&s);
	}
	fd_free(&s);
	free(spec);
	return 0;
}
