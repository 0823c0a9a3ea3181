/*
 * completion.c - `mcastlat completion bash`: the bash completion script,
 * written from the command table, each command's option table and the
 * global options of args.c, so that it cannot drift from what the parser
 * accepts.  zsh reads the same script through bashcompinit.
 *
 * The script is data and one fixed function.  _mcastlat_cmd CMD OPT sets
 * opts (every option CMD takes), kind and words (what the value of OPT
 * is): flag (no value), file (file names), one (one of words), list (a
 * comma-separated list of words) or value (a number or free text:
 * nothing to offer).  _mcastlat finds the command (always the first
 * word) and the option whose value is at the cursor (--opt VALUE,
 * --opt=VALUE, -o FILE) and offers what that option takes, or options.
 */
#include <getopt.h>
#include <string.h>

#include "mcastlat.h"

#include "cli/engine/args.h"
#include "cli/engine/columns.h"
#include "cli/engine/commands.h"
#include "cli/meta/completion.h"
#include "cli/fit/fit_cmd.h"

/* The short global options and the long ones they stand for (args.c's
 * set_global); a short option not listed here is still completed, as a
 * flag or an option with a value, from ml_short_opts. */
static const struct {
	char c;
	const char *name;
} short_long[] = {
    {'h', "help"}, {'V', "version"}, {'o', "output"}, {'j', "jobs"}};

/* The time units --unit takes (parse.c's ml_time_scale) when the
 * command's unit is us; a command in cycles takes only "cycles". */
static const char us_units[] = "ns us ms s";

static void put_choices(FILE *f, const struct ml_opt *o)
{
	size_t i;

	for (i = 0; o->choices && o->choices[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", o->choices[i]);
	if (o->flags & ML_OPT_ALL)
		fputs(" all", f);
}

/* "dims" for "dims", "hotspot_fraction" for "hotspot-fraction". */
static void put_colname(FILE *f, const char *name)
{
	for (; *name; name++)
		fputc(*name == '-' ? '_' : *name, f);
}

/* Every column a run of cmd may print (columns.c): the inputs (options
 * that are not flags or text), the results not named as an input, and
 * the status. */
static void put_columns(FILE *f, const struct ml_command *cmd)
{
	size_t i, j;

	for (i = 0; i < cmd->nopts; i++) {
		if (cmd->opts[i].kind == ML_OPT_FLAG ||
		    cmd->opts[i].kind == ML_OPT_TEXT)
			continue;
		put_colname(f, cmd->opts[i].name);
		fputc(' ', f);
	}
	for (j = 0; j < cmd->ncols; j++) {
		for (i = 0; i < cmd->nopts; i++)
			if (ml_same_name(cmd->opts[i].name, cmd->cols[j].name,
					 strlen(cmd->cols[j].name)))
				break;
		if (i == cmd->nopts)
			fprintf(f, "%s ", cmd->cols[j].name);
	}
	fputs("status", f);
}

/* One case of _mcastlat_cmd: an option of cmd and what its value is. */
static void put_opt(FILE *f, const struct ml_command *cmd, size_t i)
{
	const struct ml_opt *o = &cmd->opts[i];
	const char *alias = ml_alias_of(cmd, i);

	fprintf(f, "\t\t--%s", o->name);
	if (alias)
		fprintf(f, "|--%s", alias);
	switch (o->kind) {
	case ML_OPT_FLAG:
		fputs(") kind=flag ;;\n", f);
		return;
	case ML_OPT_CHOICE:
		fprintf(f, ") kind=%s words='",
			o->flags & ML_OPT_SINGLE ? "one" : "list");
		put_choices(f, o);
		fputs("' ;;\n", f);
		return;
	case ML_OPT_TEXT:
		fprintf(f, ") kind=%s ;;\n",
			o->flags & ML_OPT_FILE ? "file" : "value");
		return;
	case ML_OPT_INT:
	case ML_OPT_REAL:
	case ML_OPT_TIME:
		break;
	}
	fputs(") kind=value ;;\n", f);
}

/* The long option a short global option stands for, or NULL. */
static const char *long_of(char c)
{
	size_t i;

	for (i = 0; i < sizeof(short_long) / sizeof(short_long[0]); i++)
		if (short_long[i].c == c)
			return short_long[i].name;
	return NULL;
}

/* The short options of the long global option name: "|-o". */
static void put_shorts(FILE *f, const char *name)
{
	const char *s;

	for (s = ml_short_opts; *s; s++)
		if (*s != ':' && long_of(*s) && strcmp(long_of(*s), name) == 0)
			fprintf(f, "|-%c", *s);
}

/* One case of _mcastlat_cmd: a global option (args.c) under cmd. */
static void put_global(FILE *f, const struct ml_command *cmd,
		       const struct option *g)
{
	size_t k;

	fprintf(f, "\t\t--%s", g->name);
	put_shorts(f, g->name);
	if (g->has_arg == no_argument) {
		fputs(") kind=flag ;;\n", f);
	} else if (strcmp(g->name, "format") == 0) {
		fputs(") kind=one words='", f);
		for (k = 0; ml_fmt_names[k]; k++)
			fprintf(f, "%s%s", k ? " " : "", ml_fmt_names[k]);
		fputs("' ;;\n", f);
	} else if (strcmp(g->name, "input") == 0 ||
		   strcmp(g->name, "output") == 0) {
		fputs(") kind=file ;;\n", f);
	} else if (strcmp(g->name, "unit") == 0) {
		fprintf(f, ") kind=one words='%s' ;;\n",
			strcmp(cmd->time_unit, "us") == 0 ? us_units
							  : cmd->time_unit);
	} else if (strcmp(g->name, "columns") == 0 ||
		   strcmp(g->name, "value") == 0) {
		fprintf(f, ") kind=%s words='",
			g->name[0] == 'c' ? "list" : "one");
		put_columns(f, cmd);
		fputs("' ;;\n", f);
	} else {
		fputs(") kind=value ;;\n", f);
	}
}

/* Short options that stand for no long one: by their getopt spec. */
static void put_lone_shorts(FILE *f)
{
	const char *s;

	for (s = ml_short_opts; *s; s++)
		if (*s != ':' && !long_of(*s))
			fprintf(f, "\t\t-%c) kind=%s ;;\n", *s,
				s[1] == ':' ? "value" : "flag");
}

static void put_fit_opt(FILE *f, const struct ml_command *cmd,
			const struct option *g)
{
	static const char *const words[][2] = {
	    {"stat", "auto avg min max"},
	    {"weight", "relative log absolute"},
	    {"format", "table csv json tsv"},
	};
	size_t k;

	fprintf(f, "\t\t--%s%s", g->name,
		strcmp(g->name, "output") == 0 ? "|-o"
		: strcmp(g->name, "help") == 0 ? "|-h"
					       : "");
	if (g->has_arg == no_argument) {
		fputs(") kind=flag ;;\n", f);
		return;
	}
	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (strcmp(g->name, words[k][0]) == 0) {
			fprintf(f, ") kind=one words='%s' ;;\n", words[k][1]);
			return;
		}
	if (strcmp(g->name, "unit") == 0) {
		fprintf(f, ") kind=one words='%s' ;;\n",
			strcmp(cmd->time_unit, "us") == 0 ? us_units
							  : cmd->time_unit);
	} else if (strcmp(g->name, "free") == 0) {
		const char *names[64];
		size_t n = ml_fit_param_names(cmd->fit_model, names, 64);

		fputs(") kind=list words='auto", f);
		for (k = 0; k < n && k < 64; k++)
			fprintf(f, " %s", names[k]);
		fputs("' ;;\n", f);
	} else if (strcmp(g->name, "data") == 0 ||
		   strcmp(g->name, "emit") == 0 ||
		   strcmp(g->name, "output") == 0) {
		fputs(") kind=file ;;\n", f);
	} else {
		fputs(") kind=value ;;\n", f);
	}
}

/* `mcastlat fit MODEL`: the case fit-MODEL, the model's options and
 * fit's own. */
static void put_fit_command(FILE *f, const struct ml_command *cmd)
{
	size_t i;

	fprintf(f, "\tfit-%s)\n\t\topts='", cmd->name);
	for (i = 0; i < cmd->nopts; i++) {
		fprintf(f, "--%s ", cmd->opts[i].name);
		if (ml_alias_of(cmd, i))
			fprintf(f, "--%s ", ml_alias_of(cmd, i));
	}
	for (i = 0; i < ml_nfit_opts; i++)
		fprintf(f, "--%s%s", ml_fit_opts[i].name,
			i + 1 < ml_nfit_opts ? " " : "'\n");
	fputs("\t\tcase $2 in\n", f);
	for (i = 0; i < cmd->nopts; i++)
		put_opt(f, cmd, i);
	for (i = 0; i < ml_nfit_opts; i++)
		put_fit_opt(f, cmd, &ml_fit_opts[i]);
	fputs("\t\tesac ;;\n", f);
}

static void put_command(FILE *f, const struct ml_command *cmd)
{
	size_t i;

	fprintf(f, "\t%s)\n\t\topts='", cmd->name);
	for (i = 0; i < cmd->nopts; i++) {
		fprintf(f, "--%s ", cmd->opts[i].name);
		if (ml_alias_of(cmd, i))
			fprintf(f, "--%s ", ml_alias_of(cmd, i));
	}
	for (i = 0; i < ml_nglobal; i++)
		fprintf(f, "--%s%s", ml_global_opts[i].name,
			i + 1 < ml_nglobal ? " " : "'\n");
	fputs("\t\tcase $2 in\n", f);
	for (i = 0; i < cmd->nopts; i++)
		put_opt(f, cmd, i);
	for (i = 0; i < ml_nglobal; i++)
		put_global(f, cmd, &ml_global_opts[i]);
	put_lone_shorts(f);
	fputs("\t\tesac ;;\n", f);
}

/* The part of the script that is the same whatever the tables hold. */
static const char script_tail[] =
    "# _mcastlat_reply COMPGEN-ARGS...: COMPREPLY from compgen's lines\n"
    "# (no globbing, file names with spaces kept whole).\n"
    "_mcastlat_reply()\n"
    "{\n"
    "\tlocal line\n"
    "\tCOMPREPLY=()\n"
    "\twhile IFS= read -r line; do\n"
    "\t\tCOMPREPLY+=(\"$line\")\n"
    "\tdone < <(compgen \"$@\")\n"
    "}\n"
    "\n"
    "_mcastlat()\n"
    "{\n"
    "\tlocal cur prev= opt= eq= pre= head= opts= kind= words= cmd\n"
    "\tCOMPREPLY=()\n"
    "\tcur=${COMP_WORDS[COMP_CWORD]}\n"
    "\t((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
    "\tif ((COMP_CWORD == 1)); then\n"
    "\t\t_mcastlat_reply -W \"$_mcastlat_commands fit help list completion"
    " -h --help -V --version\" -- \"$cur\"\n"
    "\t\treturn 0\n"
    "\tfi\n"
    "\tcmd=${COMP_WORDS[1]}\n"
    "\tcase $cmd in\n"
    "\thelp)\n"
    "\t\t((COMP_CWORD == 2)) &&\n"
    "\t\t\t_mcastlat_reply -W \"$_mcastlat_commands fit\" -- \"$cur\"\n"
    "\t\treturn 0 ;;\n"
    "\tfit)\n"
    "\t\t# fit MODEL [OPTIONS]: the model first, then its options\n"
    "\t\tif ((COMP_CWORD == 2)); then\n"
    "\t\t\t_mcastlat_reply -W \"$_mcastlat_fit_models -h --help\" -- "
    "\"$cur\"\n"
    "\t\t\treturn 0\n"
    "\t\tfi\n"
    "\t\tcmd=fit-${COMP_WORDS[2]} ;;\n"
    "\tcompletion)\n"
    "\t\t((COMP_CWORD == 2)) && _mcastlat_reply -W bash -- \"$cur\"\n"
    "\t\treturn 0 ;;\n"
    "\tesac\n"
    "\t_mcastlat_cmd \"$cmd\" '' || return 0\n"
    "\t# The option whose value is at the cursor.  bash splits\n"
    "\t# --opt=value at '=' (COMP_WORDBREAKS): --opt = value; zsh and a\n"
    "\t# COMP_WORDBREAKS without '=' leave --opt=value one word.\n"
    "\tif [[ $cur == '=' ]]; then\n"
    "\t\topt=$prev eq=1 cur=\n"
    "\telif [[ $prev == '=' ]] && ((COMP_CWORD > 2)); then\n"
    "\t\topt=${COMP_WORDS[COMP_CWORD - 2]} eq=1\n"
    "\telif [[ $cur == --*=* ]]; then\n"
    "\t\topt=${cur%%=*} eq=1 pre=${cur%%=*}= cur=${cur#*=}\n"
    "\telif [[ $prev == -* ]]; then\n"
    "\t\topt=$prev\n"
    "\tfi\n"
    "\tif [[ -n $opt ]]; then\n"
    "\t\t_mcastlat_cmd \"$cmd\" \"$opt\"\n"
    "\t\tcase $kind in\n"
    "\t\tfile)\n"
    "\t\t\tif [[ -n ${ZSH_VERSION-} ]]; then\n"
    "\t\t\t\t# bashcompinit's compgen -f globs the whole word\n"
    "\t\t\t\tfor head in \"$cur\"*; do\n"
    "\t\t\t\t\t[[ -e $head ]] && COMPREPLY+=(\"$pre$head\")\n"
    "\t\t\t\tdone\n"
    "\t\t\telif [[ -z $pre ]] && declare -F _filedir >/dev/null; then\n"
    "\t\t\t\t_filedir\t# bash-completion's, when loaded\n"
    "\t\t\telse\n"
    "\t\t\t\tcompopt -o filenames 2>/dev/null\n"
    "\t\t\t\t_mcastlat_reply -P \"$pre\" -f -- \"$cur\"\n"
    "\t\t\tfi\n"
    "\t\t\treturn 0 ;;\n"
    "\t\tone)\n"
    "\t\t\t_mcastlat_reply -P \"$pre\" -W \"$words\" -- \"$cur\"\n"
    "\t\t\treturn 0 ;;\n"
    "\t\tlist)\n"
    "\t\t\t[[ $cur == *,* ]] && head=${cur%,*},\n"
    "\t\t\t_mcastlat_reply -P \"$pre$head\" -W \"$words\" -- "
    "\"${cur##*,}\"\n"
    "\t\t\treturn 0 ;;\n"
    "\t\tvalue)\n"
    "\t\t\treturn 0 ;;\n"
    "\t\tesac\n"
    "\t\t# --flag=, --unknown=: nothing; --flag or --unknown: options\n"
    "\t\t[[ -n $eq ]] && return 0\n"
    "\tfi\n"
    "\t# Options only: a command takes no operands.\n"
    "\t[[ -z $cur || $cur == -* ]] && _mcastlat_reply -W \"$opts\" -- "
    "\"$cur\"\n"
    "\treturn 0\n"
    "}\n"
    "\n"
    "complete -F _mcastlat mcastlat\n";

static void put_script(FILE *f)
{
	size_t i, j;

	fprintf(
	    f,
	    "# bash completion for mcastlat"
	    "                            -*- shell-script -*-\n"
	    "#\n"
	    "# Written by `mcastlat completion bash` (mcastlat %s) from its "
	    "command\n",
	    ml_version());
	fputs("# and option tables: regenerate it rather than edit it.  "
	      "Installed as\n"
	      "# $datadir/bash-completion/completions/mcastlat; or, in "
	      "~/.bashrc,\n"
	      "#   source <(mcastlat completion bash)\n"
	      "# zsh: autoload -U +X bashcompinit && bashcompinit, then "
	      "source this file.\n\n",
	      f);
	fputs("_mcastlat_commands='", f);
	for (i = 0; i < ml_ncommands; i++)
		fprintf(f, "%s%s", i ? " " : "", ml_commands[i]->name);
	fputs("'\n_mcastlat_fit_models='", f);
	for (i = 0, j = 0; i < ml_ncommands; i++)
		if (ml_commands[i]->fit_model)
			fprintf(f, "%s%s", j++ ? " " : "", ml_commands[i]->name);
	fputs("'\n\n"
	      "# _mcastlat_cmd CMD OPT: opts = the options of CMD; kind and "
	      "words = what\n"
	      "# OPT takes: flag (nothing), file, one or list (a comma list) "
	      "of words, or\n"
	      "# value (a number or text: nothing to offer).  Fails for no "
	      "such command.\n"
	      "_mcastlat_cmd()\n{\n\tkind= words=\n\tcase $1 in\n",
	      f);
	for (i = 0; i < ml_ncommands; i++)
		put_command(f, ml_commands[i]);
	for (i = 0; i < ml_ncommands; i++)
		if (ml_commands[i]->fit_model)
			put_fit_command(f, ml_commands[i]);
	fputs("\t*) return 1 ;;\n\tesac\n}\n\n", f);
	fputs(script_tail, f);
}

int ml_completion_main(int argc, char **argv, struct ml_ctx *ctx)
{
	char q[ML_QUOTE_LEN];

	if (argc < 2) {
		ml_err(ctx, "completion: no shell given (bash; zsh reads it "
			    "through bashcompinit)");
		return ML_EXIT_USAGE;
	}
	if (argc > 2) {
		ml_err(ctx, "completion: unexpected argument %s",
		       ml_quote(q, sizeof(q), argv[2]));
		return ML_EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		fputs("usage: mcastlat completion bash\n\n"
		      "Prints the bash completion script of mcastlat (zsh: "
		      "through bashcompinit).\nSee COMPLETION in man "
		      "mcastlat.\n",
		      ctx->out);
		return ML_EXIT_OK;
	}
	if (strcmp(argv[1], "bash") != 0) {
		ml_err(ctx,
		       "completion: %s is not a supported shell (bash; "
		       "zsh reads it through bashcompinit)",
		       ml_quote(q, sizeof(q), argv[1]));
		return ML_EXIT_USAGE;
	}
	put_script(ctx->out);
	return ML_EXIT_OK;
}
