/*
 * fuzz_args.c - fuzz target: the command line of every command (ml_run:
 * getopt_long, value lists, global options, sweeps, output).
 *
 * Reproduce (builds with clang, runs every target for FUZZ_SECONDS):
 *   make fuzz FUZZ_SECONDS=600 FUZZ_TARGETS=args
 * Replay the corpus and regression inputs without libFuzzer:
 *   make fuzz-replay
 *
 * Input: argument words separated by newlines.  When the first word is a
 * command name it is that command (so seeds read like command lines and
 * stay put when a command is added); otherwise byte 0 picks the command
 * from ml_commands and every word is an argument.  A word starting with
 * byte 0xff becomes "--NAME" followed by the rest of the word, NAME
 * being the command's option number (byte 1 modulo their number), so
 * every option of every command, present and future, is within reach
 * without a dictionary.  Inputs that would read a file (--input other
 * than -) are skipped; --input - reads an empty stream.
 *
 * Checked: the exit status and stdout/stderr contract of SPEC 1.3 (see
 * fuzz_oracle), no crash, no leak, no undefined behaviour; at most
 * FUZZ_MAX_POINTS points are evaluated.
 */
#include "fuzz_common.h"

/* "\xffN..." -> "--<option N>..." in buf (at least 80 bytes). */
static char *expand_word(const struct ml_command *cmd, char *w, char *buf,
			 size_t len)
{
	const char *name;

	if ((unsigned char)w[0] != 0xff || w[1] == '\0' || cmd->nopts == 0)
		return w;
	name = cmd->opts[(unsigned char)w[1] % cmd->nopts].name;
	snprintf(buf, len, "--%s%s", name, w + 2);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char expanded[FUZZ_MAX_WORDS][96];
	char *text, *w[FUZZ_MAX_WORDS], *argv[FUZZ_MAX_WORDS + 2];
	const struct ml_command *cmd;
	struct fuzz_out o;
	struct ml_ctx ctx;
	int n, argc = 0, i, rc;

	fuzz_init();
	if (size == 0 || ml_ncommands == 0)
		return 0;
	text = fuzz_strndup(data, size);
	n = fuzz_split(text, '\n', w, FUZZ_MAX_WORDS);
	cmd = ml_find_command(w[0]);
	i = 0;
	if (cmd != NULL)
		i = 1;
	else
		cmd = ml_commands[data[0] % ml_ncommands];
	argv[argc++] = (char *)cmd->name;
	for (; i < n; i++)
		argv[argc++] =
		    expand_word(cmd, w[i], expanded[i], sizeof(expanded[i]));
	argv[argc] = NULL;
	if (!fuzz_input_is_stdin(argc, argv)) {
		free(text);
		return 0;
	}
	fuzz_out_open(&o);
	ctx = (struct ml_ctx){.out = o.fout,
			     .err = o.ferr,
			     .in = fuzz_empty_in(),
			     .max_points = FUZZ_MAX_POINTS,
			     .max_work = FUZZ_MAX_WORK,
			     .jobs = 1};
	rc = ml_run(cmd, argc, argv, &ctx);
	fuzz_oracle(&o, rc);
	fuzz_out_close(&o);
	free(text);
	return 0;
}
