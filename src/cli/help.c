/* help.c - `mcastlat COMMAND --help`, generated from the option table. */
#include <math.h>
#include <string.h>

#include "cli/run.h"

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
		snprintf(buf, len, "TEXT");
		return;
	case ML_OPT_FLAG:
		buf[0] = '\0';
		return;
	case ML_OPT_CHOICE:
		break;
	}
	buf[0] = '\0';
	for (i = 0; o->choices[i] && n + 1 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "|" : "",
				      o->choices[i]);
	if ((o->flags & ML_OPT_INTOK) && n + 1 < len)
		n += (size_t)snprintf(buf + n, len - n, "|N");
	if ((o->flags & ML_OPT_ALL) && n + 1 < len)
		snprintf(buf + n, len - n, "|all");
}

static void opt_line(const struct ml_command *cmd, const struct ml_opt *o,
		     FILE *f)
{
	char arg[128], left[192];
	const char *unit = o->unit ? o->unit
			   : o->kind == ML_OPT_TIME ? cmd->time_unit : NULL;

	opt_arg(o, arg, sizeof(arg));
	snprintf(left, sizeof(left), "--%s%s%s", o->name, arg[0] ? " " : "",
		 arg);
	fprintf(f, "  %-24s %s", left, o->help ? o->help : "");
	if (unit && o->kind != ML_OPT_CHOICE)
		fprintf(f, " [%s]", unit);
	if (o->kind != ML_OPT_FLAG)
		fprintf(f, " (default %s)",
			o->def		       ? o->def
			: o->kind == ML_OPT_TEXT ? "none"
						 : "auto");
	fputc('\n', f);
}

void ml_help(const struct ml_command *cmd, FILE *f)
{
	size_t i;

	fprintf(f, "usage: mcastlat %s [OPTIONS]\n\n%s.\nSource: %s\n\n",
		cmd->name, cmd->summary, cmd->source);
	fprintf(f, "Model options (numeric options take value lists: 4,8  "
		   "4:64  4:64:4  4:1024:*2):\n");
	for (i = 0; i < cmd->nopts; i++)
		opt_line(cmd, &cmd->opts[i], f);
	fprintf(f, "\nOutput options:\n");
	fprintf(f, "  %-24s %s\n", "--format table|csv|json",
		"output format (default table)");
	fprintf(f, "  %-24s %s\n", "--columns A,B,...",
		"print only these columns, in this order");
	fprintf(f, "  %-24s %s\n", "--precision N",
		"significant digits, 1..17 (default 6; table 7)");
	fprintf(f, "  %-24s %s\n", "--no-header", "omit the header line");
	fprintf(f, "  %-24s %s (default %s)\n", "--unit U",
		strcmp(cmd->time_unit, "us") == 0
			? "time unit of time columns: ns, us, ms, s"
			: "time unit of time columns: cycles",
		cmd->time_unit);
	fprintf(f, "  %-24s %s\n", "--input FILE|-",
		"batch mode: CSV of points, header = option names");
	fprintf(f, "  %-24s %s\n", "--jobs N",
		"evaluate on N threads, same output (default 1)");
	fprintf(f, "  %-24s %s\n", "--shard I/N",
		"evaluate only slice I of N of the sweep");
	fprintf(f, "  %-24s %s\n", "-h, --help", "this help");
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
		fprintf(f, "  %-24s %s%s%s\n", c->name, c->help ? c->help : "",
			c->kind == ML_COL_TIME ? " [time unit]" : "", cond);
	}
	fprintf(f, "  %-24s %s\n", "status",
		"ok, invalid, saturated, no-convergence or overflow "
		"(a result not finite)");
	fprintf(f, "\nSee man mcastlat-%s for the equations.\n", cmd->name);
}
