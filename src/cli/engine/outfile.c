/*
 * outfile.c - the atomic output file of -o (see outfile.h).
 *
 * rename(2) within one directory replaces the destination in one step:
 * a reader sees the old file or the whole new one.  The temporary file
 * is removed on failure, and by a signal handler on SIGINT, SIGTERM,
 * SIGHUP and SIGPIPE; only SIGKILL (or a crash) can leave it behind,
 * and then under a hidden name that no one mistakes for the result.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/engine/outfile.h"

/* The temporary file to remove if a signal ends the process. */
static char *volatile pending;

static void on_signal(int sig)
{
	char *t = pending;

	if (t)
		unlink(t);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_signals(bool on)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on ? on_signal : SIG_DFL;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

int ml_outfile_open(struct ml_outfile *o, const char *path, char *err,
		    size_t errlen)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dlen;
	mode_t um;
	int fd;
	struct stat st;

	memset(o, 0, sizeof(*o));
	if (*base == '\0') {
		snprintf(err, errlen, "is a directory");
		return -1;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "is a directory");
		return -1;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		o->f = fopen(path, "w");
		if (o->f == NULL) {
			snprintf(err, errlen, "%s", strerror(errno));
			return -1;
		}
		o->direct = true;
		return 0;
	}
	o->path = strdup(path);
	o->tmp = malloc(dlen + strlen(base) + 16);
	if (!o->path || !o->tmp) {
		snprintf(err, errlen, "out of memory");
		ml_outfile_abort(o);
		return -1;
	}
	memcpy(o->tmp, path, dlen);
	sprintf(o->tmp + dlen, ".%s.XXXXXX", base);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create a file beside it: %s",
			 strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		ml_outfile_abort(o);
		return -1;
	}
	/* mkstemp makes it 0600; a finished file has the usual mode. */
	um = umask(0);
	umask(um);
	fchmod(fd, 0666 & ~um);
	o->f = fdopen(fd, "w");
	if (o->f == NULL) {
		snprintf(err, errlen, "%s", strerror(errno));
		close(fd);
		ml_outfile_abort(o);
		return -1;
	}
	pending = o->tmp;
	catch_signals(true);
	return 0;
}

int ml_outfile_commit(struct ml_outfile *o, char *err, size_t errlen)
{
	int bad, e;

	if (o->direct) {
		bad = fflush(o->f) != 0 || ferror(o->f);
		e = errno;
		if (fclose(o->f) != 0 && !bad) {
			bad = 1;
			e = errno;
		}
		o->f = NULL;
		if (bad)
			snprintf(err, errlen, "%s", strerror(e));
		memset(o, 0, sizeof(*o));
		return bad ? -1 : 0;
	}
	bad = fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f));
	e = errno;

	if (fclose(o->f) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	o->f = NULL;
	if (!bad && rename(o->tmp, o->path) != 0) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		snprintf(err, errlen, "%s", strerror(e));
		ml_outfile_abort(o);
		return -1;
	}
	pending = NULL;
	catch_signals(false);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return 0;
}

void ml_outfile_abort(struct ml_outfile *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp) {
		pending = NULL;
		unlink(o->tmp);
		catch_signals(false);
	}
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}
