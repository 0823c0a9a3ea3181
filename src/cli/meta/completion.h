/* completion.h - `mcastlat completion bash` (see completion.c). */
#ifndef MCASTLAT_CLI_COMPLETION_H
#define MCASTLAT_CLI_COMPLETION_H

#include "cli/engine/msg.h"

/*
 * `mcastlat completion SHELL` with argv[0] = "completion": prints the
 * completion script of SHELL (bash) on ctx->out.  Returns the exit
 * status (ML_EXIT_*), a usage error reported on ctx->err.
 */
int ml_completion_main(int argc, char **argv, struct ml_ctx *ctx);

#endif
