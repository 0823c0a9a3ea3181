/* help.c - `mcastlat COMMAND --help`, generated from the option table. */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "cli/engine/columns.h"
#include "cli/engine/run.h"
#include "mcastlat/status.h"

/* Columns the choices of o take as "a|b|c" (with |N and |all). */
static size_t choices_width(const struct ml_opt *o)
{
	size_t i, n = 0;

	for (i = 0; o->choices[i]; i++)
		n += strlen(o->choices[i]) + 1;
	return n + 6;
}

static void opt_arg(const struct ml_opt *o, char *buf, size_t len)
{
	size_t i, n = 0;

	switch (o->kind) {
	case ML_OPT_INT:
		snprintf(buf, len, "N");
		return;
	case ML_OPT_REAL:
		snprintf(buf, len, "X");
		return;
	case ML_OPT_TIME:
		snprintf(buf, len, "T");
		return;
	case ML_OPT_TEXT:
		snprintf(buf, len, o->flags & ML_OPT_FILE ? "FILE" : "TEXT");
		return;
	case ML_OPT_FLAG:
		buf[0] = '\0';
		return;
	case ML_OPT_CHOICE:
		break;
	}
	buf[0] = '\0';
	/* Too wide for its line (80 columns): the help text and the page
	 * list them. */
	if (choices_width(o) > 90 || 4 + strlen(o->name) + choices_width(o) > 86) {
		snprintf(buf, len, "WORD");
		return;
	}
	for (i = 0; o->choices[i] && n + 1 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "|" : "",
				      o->choices[i]);
	if ((o->flags & ML_OPT_INTOK) && n + 1 < len)
		n += (size_t)snprintf(buf + n, len - n, "|N");
	if ((o->flags & ML_OPT_ALL) && n + 1 < len)
		snprintf(buf + n, len - n, "|all");
}

/*
 * "  LEFT  text" with the text wrapped at 80 columns under column 27; a
 * LEFT wider than 24 puts the text on the next line.
 */
/* Words of text from column col, wrapped at 80 columns to column
 * indent; ends the line. */
void ml_help_wrap(FILE *f, const char *text, size_t col, size_t indent)
{
	size_t w;
	bool first = true;

	while (*text) {
		while (*text == ' ')
			text++;
		w = strcspn(text, " ");
		if (w == 0)
			break;
		if (col + 1 + w > 80 && col > indent) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
			first = true;
		}
		if (!first || col > 0) {
			fputc(' ', f);
			col++;
		}
		fwrite(text, 1, w, f);
		col += w;
		text += w;
		first = false;
	}
	fputc('\n', f);
}

/*
 * "  LEFT  text" with the text wrapped at 80 columns under column 27; a
 * LEFT wider than 24 puts the text on the next line.
 */
static void help_line(FILE *f, const char *left, const char *text)
{
	fprintf(f, "  %-24s", left);
	if (strlen(left) > 24)
		fprintf(f, "\n%26s", "");
	ml_help_wrap(f, text, 26, 26);
}

static void opt_line(const struct ml_command *cmd, const struct ml_opt *o,
		     FILE *f)
{
	char arg[128], left[192], text[512];
	const char *unit = o->unit ? o->unit
			   : o->kind == ML_OPT_TIME ? cmd->time_unit : NULL;
	const char *help = o->help ? o->help : "";
	const char *alias = ml_alias_of(cmd, (size_t)(o - cmd->opts));
	char withalias[300];

	opt_arg(o, arg, sizeof(arg));
	snprintf(left, sizeof(left), "--%s%s%s", o->name, arg[0] ? " " : "",
		 arg);
	if (alias) {
		snprintf(withalias, sizeof(withalias), "%s (alias --%s)", help,
			 alias);
		help = withalias;
	}
	/* The default in the option's own unit: "(default 12.5 us)". */
	if (o->kind == ML_OPT_FLAG)
		snprintf(text, sizeof(text), "%s", help);
	else if (unit && o->kind != ML_OPT_CHOICE && o->def &&
		 isalpha((unsigned char)o->def[strlen(o->def) - 1]))
		/* a default with its own unit, "14ns" */
		snprintf(text, sizeof(text), "%s (default %s)", help, o->def);
	else if (unit && o->kind != ML_OPT_CHOICE && o->def)
		snprintf(text, sizeof(text), "%s (default %s %s)", help,
			 o->def, unit);
	else if (unit && o->kind != ML_OPT_CHOICE)
		snprintf(text, sizeof(text), "%s, in %s (default auto)", help,
			 unit);
	else
		snprintf(text, sizeof(text), "%s (default %s)", help,
			 o->def			  ? o->def
			 : o->kind == ML_OPT_TEXT ? "none"
						  : "auto");
	help_line(f, left, text);
}

void ml_help(const struct ml_command *cmd, FILE *f)
{
	char text[400];
	size_t i;

	fprintf(f, "usage: mcastlat %s [OPTIONS]\n\n", cmd->name);
	snprintf(text, sizeof(text), "%s.", cmd->summary);
	ml_help_wrap(f, text, 0, 0);
	snprintf(text, sizeof(text), "Source: %s", cmd->source);
	ml_help_wrap(f, text, 0, 7);
	fputc('\n', f);
	fprintf(f, "Model options (numeric options take value lists: 4,8  "
		   "4:64  4:64:4  4:1024:*2):\n");
	for (i = 0; i < cmd->nopts; i++)
		opt_line(cmd, &cmd->opts[i], f);
	fprintf(f, "\nOutput options:\n");
	help_line(f, "--format table|csv|tsv|json", "output format (default "
		  "table); csv, tsv and json print every number in full");
	help_line(f, "--columns A,B,...",
		  "print only these columns, in this order");
	help_line(f, "--all-columns", "the table shows every input, not "
		  "only those that vary (the others go on its # line)");
	help_line(f, "--value COL", "print only COL, one bare value per row, "
		  "for $(...); exit 3 when a row is not ok");
	help_line(f, "--precision N",
		  "round numbers to N significant digits, 1..17 (default: "
		  "table 7, others every digit)");
	help_line(f, "--no-header", "omit the header line");
	snprintf(text, sizeof(text), "%s (default %s)",
		 strcmp(cmd->time_unit, "us") == 0
			 ? "time unit of time columns: ns, us, ms, s"
			 : "time unit of time columns: cycles",
		 cmd->time_unit);
	help_line(f, "--unit U", text);
	help_line(f, "-o, --output FILE", "write to FILE, replaced only when "
		  "the run succeeds");
	help_line(f, "--input FILE|-",
		  "batch mode: CSV of points, header = option names (the CSV "
		  "this command prints is valid input)");
	help_line(f, "--keep", "with --input: copy columns that are no "
		  "option (ids, labels) to the output");
	help_line(f, "-j, --jobs N",
		  "evaluate on N threads, same output (default 1)");
	help_line(f, "--shard I/N", "evaluate only slice I of N of the sweep");
	help_line(f, "--dry-run", "print the number of points and the first "
		  "and last, evaluate nothing");
	help_line(f, "--progress, --no-progress", "progress line on stderr "
		  "(default: when stderr is a terminal)");
	help_line(f, "-h, --help", "this help");
	help_line(f, "-V, --version", "the version of mcastlat");
	fprintf(f, "\nResult columns:\n");
	for (i = 0; i < cmd->ncols; i++) {
		const struct ml_col *c = &cmd->cols[i];
		char cond[64] = "";

		if (c->only_with)
			snprintf(cond, sizeof(cond), " (with --%s)",
				 c->only_with);
		else if (c->only_without)
			snprintf(cond, sizeof(cond), " (without --%s)",
				 c->only_without);
		snprintf(text, sizeof(text), "%s%s%s", c->help ? c->help : "",
			 c->kind == ML_COL_TIME ? " [time unit]" : "", cond);
		help_line(f, c->name, text);
	}
	help_line(f, "status", "ok, or why the numbers are not valid "
		  "(below); the numeric results are then nan");
	fprintf(f, "\nStatuses:\n");
	if (cmd->statuses) {
		for (i = 0; cmd->statuses[i].help; i++)
			help_line(f, ml_status_word(cmd->statuses[i].st),
				  cmd->statuses[i].help);
	} else {
		enum ml_status st;

		for (st = ML_OK; st <= ML_EUNIDENT; st++)
			help_line(f, ml_status_word(st), "");
	}
	fprintf(f, "\nSee man mcastlat-%s for the equations.\n", cmd->name);
}
