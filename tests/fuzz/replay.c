/*
 * replay.c - run a fuzz target on saved inputs, without libFuzzer.
 *
 *   replay_<target> [-v] FILE|DIR ...
 *
 * Linked with one fuzz_<target>.c and the library (built with the plain
 * compiler, or with SANITIZE=address,undefined), it feeds every file
 * named, and every regular file of every directory named (in name
 * order, not recursively), to LLVMFuzzerTestOneInput.  A finding aborts
 * as it would under libFuzzer, and the name of the input is printed
 * (with -v, every input's name is printed before it runs).
 * `make fuzz-replay` (part of `make check`) runs it on tests/fuzz/corpus
 * and tests/fuzz/regress.
 */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Present when linked with a sanitizer runtime (gcc's or clang's). */
void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static const char *current = "(none)";
static int verbose;

/* Name the input that failed: async-signal-safe, from a handler too. */
static void say_current(void)
{
	static const char pre[] = "replay: failed on input ";

	if (write(2, pre, sizeof(pre) - 1) < 0 ||
	    write(2, current, strlen(current)) < 0 || write(2, "\n", 1) < 0)
		return;
}

static void on_signal(int sig)
{
	say_current();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Inputs larger than libFuzzer's usual -max_len are still read whole. */
#define MAX_INPUT (16u << 20)

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t n;

	if (f == NULL) {
		perror(path);
		return -1;
	}
	buf = malloc(MAX_INPUT);
	if (buf == NULL) {
		fclose(f);
		fprintf(stderr, "replay: out of memory\n");
		return -1;
	}
	n = fread(buf, 1, MAX_INPUT, f);
	if (ferror(f) || !feof(f)) {
		fprintf(stderr, "replay: %s: unreadable or too large\n", path);
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	current = path;
	if (verbose) {
		fprintf(stderr, "replay: %s\n", path);
		fflush(stderr);
	}
	LLVMFuzzerTestOneInput(buf, n);
	current = "(none)";
	free(buf);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order; -1 on error. */
static long run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, path[4096];
	size_t n = 0, cap = 0, i;
	long count = 0;

	if (d == NULL) {
		perror(dir);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **p;

			cap = cap ? 2 * cap : 64;
			p = realloc(names, cap * sizeof(*names));
			if (p == NULL)
				break;
			names = p;
		}
		names[n] = strdup(e->d_name);
		if (names[n] == NULL)
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (count >= 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
			count = run_file(path) ? -1 : count + 1;
		free(names[i]);
	}
	free(names);
	return count;
}

int main(int argc, char **argv)
{
	long total = 0, n;
	int i;

	if (argc > 1 && strcmp(argv[1], "-v") == 0) {
		verbose = 1;
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: replay [-v] FILE|DIR ...\n");
		return 2;
	}
	/* ASan and UBSan reports end in the death callback; abort() (a
	 * fuzz oracle) and crashes without a sanitizer end in a signal. */
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(say_current);
	signal(SIGABRT, on_signal);
	if (!__sanitizer_set_death_callback) {
		signal(SIGSEGV, on_signal);
		signal(SIGBUS, on_signal);
		signal(SIGFPE, on_signal);
	}
	for (i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			return 1;
		}
		if (S_ISDIR(st.st_mode))
			n = run_dir(argv[i]);
		else
			n = run_file(argv[i]) ? -1 : 1;
		if (n < 0)
			return 1;
		total += n;
	}
	printf("%s: %ld inputs replayed\n", argv[0], total);
	return 0;
}
