/*
 * bench_exec.c - run a command N times with stdout to /dev/null and print
 * the median wall time in seconds and the largest peak resident set size
 * in KiB, as "seconds kib".  Used by scripts/bench.sh.
 *
 *   bench_exec N command [args...]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int n, i;
	double *t;
	long maxrss = 0;

	if (argc < 3 || (n = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: bench_exec N command [args...]\n");
		return 2;
	}
	t = calloc((size_t)n, sizeof(*t));
	for (i = 0; i < n; i++) {
		struct rusage ru;
		int status;
		double t0 = now();
		pid_t pid = fork();

		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);

			dup2(fd, 1);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
			perror("bench_exec");
			return 1;
		}
		t[i] = now() - t0;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "bench_exec: %s failed\n", argv[2]);
			return 1;
		}
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
	}
	qsort(t, (size_t)n, sizeof(*t), cmp);
	printf("%.9f %ld\n", t[n / 2], maxrss);
	free(t);
	return 0;
}
