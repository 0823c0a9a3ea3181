/*
 * fuzz_common.h - what the fuzz targets share: the libFuzzer entry point,
 * quiet output streams, argument vectors split from the input, and the
 * oracle every run of the engine must satisfy (SPEC 1.3).
 *
 * The helpers are static inline so each target stays one translation unit
 * linked either with libFuzzer (make fuzz) or with replay.c (make check).
 */
#ifndef MCASTLAT_FUZZ_COMMON_H
#define MCASTLAT_FUZZ_COMMON_H

#include <gsl/gsl_errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/commands.h"
#include "cli/engine/msg.h"
#include "cli/engine/run.h"

/* Called by libFuzzer, or by replay.c, once per input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Most points one run may evaluate: no input can run for long. */
#define FUZZ_MAX_POINTS 2000ULL
/* Most work one point may do (a simulation: node-cycles), so that a
 * simulated point costs milliseconds. */
#define FUZZ_MAX_WORK 100000ULL
/* Most argument words taken from one input. */
#define FUZZ_MAX_WORDS 64

/* A finding: print why on stderr and abort, so libFuzzer saves the input. */
#define FUZZ_ASSERT(cond, ...)                                                 \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "fuzz: %s:%d: %s: ", __FILE__,         \
				__LINE__, #cond);                              \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			abort();                                               \
		}                                                              \
	} while (0)

/* Done once per process, as main() does: GSL statuses are checked where
 * they are returned, so its abort() handler must not run. */
static inline void fuzz_init(void)
{
	static int done;

	if (!done) {
		gsl_set_error_handler_off();
		done = 1;
	}
}

/* A stream that reads nothing (what --input - sees in fuzz_args). */
static inline FILE *fuzz_empty_in(void)
{
	static FILE *f;

	if (f == NULL)
		f = fopen("/dev/null", "r");
	FUZZ_ASSERT(f != NULL, "cannot open /dev/null");
	clearerr(f);
	return f;
}

/*
 * Output of one run, captured so the oracle can look at it.  Memory
 * streams are opened per run; FUZZ_MAX_POINTS keeps them small.
 */
struct fuzz_out {
	char *out, *err;
	size_t nout, nerr;
	FILE *fout, *ferr;
};

static inline void fuzz_out_open(struct fuzz_out *o)
{
	memset(o, 0, sizeof(*o));
	o->fout = open_memstream(&o->out, &o->nout);
	o->ferr = open_memstream(&o->err, &o->nerr);
	FUZZ_ASSERT(o->fout && o->ferr, "open_memstream failed");
}

static inline void fuzz_out_close(struct fuzz_out *o)
{
	fclose(o->fout);
	fclose(o->ferr);
	free(o->out);
	free(o->err);
}

/*
 * The contract of SPEC 1.3 on one finished run (streams closed or
 * flushed): exit 0, 1 or 2; a usage error (2) prints exactly one line,
 * "mcastlat: ...", on stderr and nothing on stdout; a rejected row (1)
 * says so on stderr; success (0) prints no error, only warnings.
 */
static inline void fuzz_oracle(struct fuzz_out *o, int rc)
{
	size_t lines = 0, i;
	const char *p;

	fflush(o->fout);
	fflush(o->ferr);
	FUZZ_ASSERT(rc == 0 || rc == 1 || rc == 2 || rc == 3, "exit status %d",
		    rc);
	for (i = 0; i < o->nerr; i++)
		lines += o->err[i] == '\n';
	FUZZ_ASSERT(o->nerr == 0 || o->err[o->nerr - 1] == '\n',
		    "stderr does not end in a newline: %.200s", o->err);
	/* Every stderr line is a message of the program. */
	for (p = o->err; p < o->err + o->nerr; p = strchr(p, '\n') + 1)
		FUZZ_ASSERT(strncmp(p, "mcastlat: ", 10) == 0,
			    "stderr line without 'mcastlat: ': %.200s", p);
	if (rc == 2 && (lines > 1 || o->nout > 0)) {
		/* Only an --input file that cannot be read to its end stops
		 * after rows (and their messages): its error comes last. */
		const char *last = o->err + o->nerr - 1;

		while (last > o->err && last[-1] != '\n')
			last--;
		FUZZ_ASSERT(lines >= 1 && strstr(last, ": --input: ") &&
				    (strstr(last, ": line longer than ") ||
				     strstr(last, ": read error: ")),
			    "usage error with %zu stderr lines or stdout: %.400s",
			    lines, o->err);
	} else if (rc == 2) {
		FUZZ_ASSERT(lines == 1,
			    "usage error with %zu stderr lines: %.400s", lines,
			    o->err);
	} else if (rc == 1) {
		FUZZ_ASSERT(lines >= 1, "exit 1 without a message");
	} else if (rc == 3) {
		/* --value: each row left out is named on stderr */
		FUZZ_ASSERT(lines >= 1 && strstr(o->err, ": --value "),
			    "exit 3 without a --value message: %.200s", o->err);
	} else {
		for (p = o->err; p < o->err + o->nerr; p = strchr(p, '\n') + 1)
			FUZZ_ASSERT(strncmp(p, "mcastlat: warning: ", 19) == 0,
				    "exit 0 with an error: %.200s", p);
	}
}

/*
 * Split text (NUL-terminated, modified in place) into words at sep.
 * Returns the number of words stored in w[0 .. max-1].
 */
static inline int fuzz_split(char *text, char sep, char **w, int max)
{
	int n = 0;
	char *p = text;

	while (n < max) {
		char *e = strchr(p, sep);

		w[n++] = p;
		if (e == NULL)
			break;
		*e = '\0';
		p = e + 1;
	}
	return n;
}

/*
 * true when every --input in argv[1 ..] reads standard input and no
 * --trace names a file: a fuzzer must not open files of its own choosing
 * (/dev/zero, /dev/stdin).
 */
static inline int fuzz_input_is_stdin(int argc, char **argv)
{
	int i;

	/* -o FILE would write files: such inputs are skipped too. */
	for (i = 1; i < argc; i++)
		if (strncmp(argv[i], "--output", 8) == 0 ||
		    strncmp(argv[i], "-o", 2) == 0 ||
		    (argv[i][0] == '-' && argv[i][1] != '-' &&
		     strchr(argv[i], 'o')))
			return 0;
	for (i = 1; i < argc; i++) {
		/* simulate --trace FILE reads a file too, never stdin. */
		if (strncmp(argv[i], "--trace", 7) == 0)
			return 0;
		if (strncmp(argv[i], "--input", 7) != 0)
			continue;
		if (argv[i][7] == '=') {
			if (strcmp(argv[i] + 8, "-") != 0)
				return 0;
		} else if (i + 1 < argc && strcmp(argv[i + 1], "-") != 0) {
			return 0;
		}
	}
	return 1;
}

/* Copy size bytes into a new NUL-terminated string. */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	FUZZ_ASSERT(s != NULL, "out of memory");
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
