/* run.h - the engine: parse a command's options, sweep, print. */
#ifndef MCASTLAT_CLI_RUN_H
#define MCASTLAT_CLI_RUN_H

#include "cli/cmd.h"
#include "cli/engine/msg.h"

/*
 * Run cmd with argv[0] = the command name and argv[1..] its options.
 * Returns the exit status (ML_EXIT_*).
 */
int ml_run(const struct ml_command *cmd, int argc, char **argv,
	   struct ml_ctx *ctx);

/* Print `mcastlat CMD --help` to f. */
void ml_help(const struct ml_command *cmd, FILE *f);

/* The words of text from column col, wrapped at 80 columns to column
 * indent; ends the line. */
void ml_help_wrap(FILE *f, const char *text, size_t col, size_t indent);

#endif
