/* args.h - the command line of a command (see args.c); internal. */
#ifndef MCASTLAT_CLI_ARGS_H
#define MCASTLAT_CLI_ARGS_H

#include "cli/engine/engine.h"
#include "cli/engine/parse.h"

/* The global options every command takes (getopt_long's table,
 * ml_nglobal entries), the short ones ("hVo:j:" after a leading ':') and
 * the names of --format, NULL-terminated: read by completion.c. */
struct option;
extern const struct option *const ml_global_opts;
extern const size_t ml_nglobal;
extern const char *const ml_short_opts;
extern const char *const *const ml_fmt_names;

/* The command-line state before value lists are built. */
struct args {
	const char **raw;	/* per option: the text given, or NULL */
	size_t *order;		/* options in order of (last) appearance */
	size_t norder;
	const char *format, *columns, *precision, *unit, *input, *jobs,
		*shard, *output, *value;
	bool noheader, help, version, dryrun, allcols, keep;
	int progress;		/* -1 auto (stderr a terminal), 0 off, 1 on */
};

/* Parse argv into a (a->raw and a->order sized for cmd->nopts + 1);
 * returns 0 or an exit status, the error reported. */
int ml_parse_args(const struct ml_command *cmd, int argc, char **argv,
		  struct ml_ctx *ctx, struct args *a);

/* Value list of option i from text (or its default), base[i] set to its
 * first value; -1 with a message in err. */
int ml_build_vlist(const struct ml_command *cmd, size_t i, const char *text,
		   struct ml_vlist *vl, union ml_val *base, char *err,
		   size_t errlen);

/* --format, --precision, --no-header, --unit, --jobs, --shard into r;
 * returns 0 or an exit status, the error reported. */
int ml_setup_globals(struct run *r, const struct args *a);

#endif
