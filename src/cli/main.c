/*
 * main.c - mcastlat: the command table and dispatch.
 *
 *   mcastlat [-h|--help] [-V|--version] COMMAND [OPTIONS]
 *   mcastlat help COMMAND
 *   mcastlat list
 *   mcastlat completion bash
 *   mcastlat fit MODEL --data FILE...    (fit.c)
 */
#include <gsl/gsl_errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/commands.h"
#include "cli/meta/completion.h"
#include "cli/fit/fit_cmd.h"
#include "cli/engine/run.h"
#include "cli/meta/suggest.h"
#include "mcastlat.h"


static void usage(FILE *f)
{
	size_t i;

	fputs("usage: mcastlat [-h|--help] [-V|--version] COMMAND [OPTIONS]\n"
	      "       mcastlat help COMMAND\n"
	      "       mcastlat list\n"
	      "       mcastlat fit MODEL --data FILE...\n"
	      "       mcastlat completion bash\n\n"
	      "Predicts multicast and broadcast latency in parallel-computer\n"
	      "interconnects from published analytical models.\n\n"
	      "Commands:\n",
	      f);
	for (i = 0; i < ml_ncommands; i++) {
		fprintf(f, "  %-10s", ml_commands[i]->name);
		ml_help_wrap(f, ml_commands[i]->summary, 12, 12);
	}
	fprintf(f, "  %-10s", "fit");
	ml_help_wrap(f, "a model's parameters from measurements (OSU, IMB, "
		     "CSV): see mcastlat-fit(1)", 12, 12);
	fputs("\nEvery numeric option takes a value list (4,8  4:64:4  "
	      "4:1024:*2); several\nlists give their cartesian product. "
	      "See 'mcastlat help COMMAND' and\nman mcastlat.\n",
	      f);
}

static void list(FILE *f)
{
	size_t i;

	for (i = 0; i < ml_ncommands; i++)
		fprintf(f, "%-10s %s. (%s)\n", ml_commands[i]->name,
			ml_commands[i]->summary, ml_commands[i]->source);
}

static int unknown_command(struct ml_ctx *ctx, const char *name)
{
	char q[ML_QUOTE_LEN];
	const char *names[64], *pick;
	size_t i, n = 0;

	for (i = 0; i < ml_ncommands && n < 64; i++)
		names[n++] = ml_commands[i]->name;
	pick = ml_suggest(name, names, n);
	if (pick)
		ml_err(ctx, "%s is not a mcastlat command (did you mean %s?)",
		       ml_quote(q, sizeof(q), name), pick);
	else
		ml_err(ctx, "%s is not a mcastlat command (see 'mcastlat list')",
		       ml_quote(q, sizeof(q), name));
	return ML_EXIT_USAGE;
}

static int dispatch(int argc, char **argv, struct ml_ctx *ctx)
{
	const struct ml_command *cmd;
	char q[ML_QUOTE_LEN];

	if (argc < 2) {
		ml_err(ctx, "no command given (see 'mcastlat --help')");
		return ML_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		/* Operands are an error everywhere, as in the commands. */
		if (argc > 2) {
			ml_err(ctx, "%s: unexpected argument %s", argv[1],
			       ml_quote(q, sizeof(q), argv[2]));
			return ML_EXIT_USAGE;
		}
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(ctx->out);
		return ML_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		fprintf(ctx->out, "mcastlat %s\n", ml_version());
		return ML_EXIT_OK;
	}
	if (strcmp(argv[1], "list") == 0) {
		if (argc > 2) {
			ml_err(ctx, "list: unexpected argument %s",
			       ml_quote(q, sizeof(q), argv[2]));
			return ML_EXIT_USAGE;
		}
		list(ctx->out);
		return ML_EXIT_OK;
	}
	if (strcmp(argv[1], "completion") == 0)
		return ml_completion_main(argc - 1, argv + 1, ctx);
	if (strcmp(argv[1], "fit") == 0)
		return ml_fit_main(argc - 1, argv + 1, ctx);
	if (strcmp(argv[1], "help") == 0) {
		if (argc == 2) {
			usage(ctx->out);
			return ML_EXIT_OK;
		}
		if (strcmp(argv[2], "fit") == 0 && argc == 3) {
			ml_fit_usage(ctx->out);
			return ML_EXIT_OK;
		}
		cmd = ml_find_command(argv[2]);
		if (cmd == NULL)
			return unknown_command(ctx, argv[2]);
		if (argc > 3) {
			ml_err(ctx, "help: unexpected argument %s",
			       ml_quote(q, sizeof(q), argv[3]));
			return ML_EXIT_USAGE;
		}
		ml_help(cmd, ctx->out);
		return ML_EXIT_OK;
	}
	if (argv[1][0] == '-') {
		ml_err(ctx, "%s: unknown option (a command comes first: "
			    "see 'mcastlat --help')",
		       ml_quote(q, sizeof(q), argv[1]));
		return ML_EXIT_USAGE;
	}
	cmd = ml_find_command(argv[1]);
	if (cmd == NULL)
		return unknown_command(ctx, argv[1]);
	return ml_run(cmd, argc - 1, argv + 1, ctx);
}

int main(int argc, char **argv)
{
	struct ml_ctx ctx = {stdout, stderr, stdin, 0, 0, 1, NULL};
	int rc;

	/* Every GSL status is checked where it is returned. */
	gsl_set_error_handler_off();
	rc = dispatch(argc, argv, &ctx);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		ml_err(&ctx, "write error on standard output");
		if (rc == ML_EXIT_OK)
			rc = ML_EXIT_ROWS;
	}
	return rc;
}
