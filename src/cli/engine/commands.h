/* commands.h - the table of every command (generated, see commands.c). */
#ifndef MCASTLAT_CLI_COMMANDS_H
#define MCASTLAT_CLI_COMMANDS_H

#include <stddef.h>

#include "cli/cmd.h"

extern const struct ml_command *const ml_commands[];
extern const size_t ml_ncommands;

/* The command of that exact name, or NULL. */
const struct ml_command *ml_find_command(const char *name);

#endif
