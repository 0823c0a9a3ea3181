/*
 * fuzz_batch.c - fuzz target: batch mode, a CSV file read through
 * `--input -` (header, RFC 4180 quoting, BOM, CRLF, NUL bytes, per-row
 * value lists combined with the command line's).
 *
 * Reproduce (builds with clang, runs every target for FUZZ_SECONDS):
 *   make fuzz FUZZ_SECONDS=600 FUZZ_TARGETS=batch
 * Replay the corpus and regression inputs without libFuzzer:
 *   make fuzz-replay
 *
 * Lines longer than ML_LINE_MAX (64 KiB) and a header naming a column
 * twice are errors (regress/batch holds one of each); a read error cannot
 * happen on fmemopen and is tested by tests/cli/hard_cases.txt.
 *
 * Input: when the first line starts with a command name followed by a
 * space or the end of the line, that line is "COMMAND [ARG ...]" (words
 * separated by spaces, e.g. "torus --format csv --jobs 2") and the rest
 * of the input is the CSV; otherwise byte 0 picks the command from
 * ml_commands and the whole input is the CSV.  The CSV is given to the
 * engine as ctx->in through fmemopen; "--input -" is appended to the
 * arguments, so it wins over any --input among them.
 *
 * Checked: the exit status and stdout/stderr contract of SPEC 1.3 (see
 * fuzz_oracle), no crash, no leak, no undefined behaviour; at most
 * FUZZ_MAX_POINTS points are evaluated per row.
 */
#include "fuzz_common.h"

/* true when the n bytes at p contain the word w (memmem is not C11). */
static int mentions(const uint8_t *p, size_t n, const char *w)
{
	size_t i, len = strlen(w);

	for (i = 0; i + len <= n; i++)
		if (memcmp(p + i, w, len) == 0)
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = NULL, *w[FUZZ_MAX_WORDS], *argv[FUZZ_MAX_WORDS + 4];
	const struct ml_command *cmd = NULL;
	const uint8_t *csv = data;
	size_t ncsv = size;
	struct fuzz_out o;
	struct ml_ctx ctx;
	FILE *in;
	int argc = 0, n = 0, i, rc;

	fuzz_init();
	if (size == 0 || ml_ncommands == 0)
		return 0;
	{
		const uint8_t *nl = memchr(data, '\n', size);
		size_t len = nl ? (size_t)(nl - data) : size;

		line = fuzz_strndup(data, len);
		n = fuzz_split(line, ' ', w, FUZZ_MAX_WORDS);
		cmd = ml_find_command(w[0]);
		if (cmd != NULL) {
			csv = nl ? nl + 1 : data + size;
			ncsv = size - (size_t)(csv - data);
		} else {
			n = 0;
			cmd = ml_commands[data[0] % ml_ncommands];
		}
	}
	argv[argc++] = (char *)cmd->name;
	for (i = 1; i < n; i++)
		argv[argc++] = w[i];
	argv[argc++] = "--input";
	argv[argc++] = "-";
	argv[argc] = NULL;
	/* A trace column or --trace would open a file of the fuzzer's
	 * choosing (simulate). */
	if (!fuzz_input_is_stdin(argc, argv) ||
	    mentions(csv, ncsv, "trace")) {
		free(line);
		return 0;
	}
	/* fmemopen wants a non-empty buffer; it reads NUL bytes as data. */
	in = ncsv ? fmemopen((void *)csv, ncsv, "r") : fuzz_empty_in();
	FUZZ_ASSERT(in != NULL, "fmemopen failed");
	fuzz_out_open(&o);
	ctx = (struct ml_ctx){.out = o.fout,
			     .err = o.ferr,
			     .in = in,
			     .max_points = FUZZ_MAX_POINTS,
			     .max_work = FUZZ_MAX_WORK,
			     .jobs = 1};
	rc = ml_run(cmd, argc, argv, &ctx);
	fuzz_oracle(&o, rc);
	fuzz_out_close(&o);
	if (ncsv)
		fclose(in);
	free(line);
	return 0;
}
