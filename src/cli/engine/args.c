/*
 * args.c - the command line of a command: getopt_long built from the
 * option table plus the global options, exact option names (no prefix
 * abbreviations), the value list of each option (or its default) and
 * the global options' values (format, precision, unit, jobs, shard).
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/args.h"
#include "cli/engine/columns.h"
#include "cli/meta/suggest.h"

enum {
	G_FORMAT = 1000,
	G_COLUMNS,
	G_PRECISION,
	G_NOHEADER,
	G_UNIT,
	G_INPUT,
	G_JOBS,
	G_SHARD,
	G_HELP,
	G_OUTPUT,
	G_VERSION,
	G_PROGRESS,
	G_NOPROGRESS,
	G_VALUE,
	G_DRYRUN,
	G_ALLCOLS,
	G_KEEP
};

static const struct option global_opts[] = {
	{"all-columns", no_argument, NULL, G_ALLCOLS},
	{"columns", required_argument, NULL, G_COLUMNS},
	{"dry-run", no_argument, NULL, G_DRYRUN},
	{"format", required_argument, NULL, G_FORMAT},
	{"help", no_argument, NULL, G_HELP},
	{"input", required_argument, NULL, G_INPUT},
	{"jobs", required_argument, NULL, G_JOBS},
	{"keep", no_argument, NULL, G_KEEP},
	{"no-header", no_argument, NULL, G_NOHEADER},
	{"no-progress", no_argument, NULL, G_NOPROGRESS},
	{"output", required_argument, NULL, G_OUTPUT},
	{"precision", required_argument, NULL, G_PRECISION},
	{"progress", no_argument, NULL, G_PROGRESS},
	{"shard", required_argument, NULL, G_SHARD},
	{"unit", required_argument, NULL, G_UNIT},
	{"value", required_argument, NULL, G_VALUE},
	{"version", no_argument, NULL, G_VERSION},
};
/* Short forms, as coreutils and jq: -h help, -V version, -o FILE, -j N. */
static const char short_opts[] = ":hVo:j:";
#define NGLOBAL (sizeof(global_opts) / sizeof(global_opts[0]))
#define OPT_BASE 256

static const char *fmt_names[] = {"table", "csv", "json", "tsv", NULL};

/* The same tables, for the shell completion (completion.c). */
const struct option *const ml_global_opts = global_opts;
const size_t ml_nglobal = NGLOBAL;
const char *const ml_short_opts = short_opts;
const char *const *const ml_fmt_names = fmt_names;

/* The argv element that named the option just returned by getopt_long. */
static const char *opt_element(char **argv, int optind_now, bool has_arg)
{
	const char *last = argv[optind_now - 1];

	/* "--name=value": optarg points into the element itself. */
	if (!has_arg || optarg != last)
		return last;
	return argv[optind_now - 2];
}

static void add_order(struct args *a, size_t i)
{
	size_t k, n = 0;

	/* The last occurrence decides both value and position. */
	for (k = 0; k < a->norder; k++)
		if (a->order[k] != i)
			a->order[n++] = a->order[k];
	a->order[n++] = i;
	a->norder = n;
}

static int set_global(struct args *a, int c, const char *arg)
{
	switch (c) {
	case G_FORMAT:
		a->format = arg;
		break;
	case G_COLUMNS:
		a->columns = arg;
		break;
	case G_PRECISION:
		a->precision = arg;
		break;
	case G_NOHEADER:
		a->noheader = true;
		break;
	case G_UNIT:
		a->unit = arg;
		break;
	case G_INPUT:
		a->input = arg;
		break;
	case G_JOBS:
	case 'j':
		a->jobs = arg;
		break;
	case G_SHARD:
		a->shard = arg;
		break;
	case G_HELP:
	case 'h':
		a->help = true;
		break;
	case G_OUTPUT:
	case 'o':
		a->output = arg;
		break;
	case G_VERSION:
	case 'V':
		a->version = true;
		break;
	case G_PROGRESS:
		a->progress = 1;
		break;
	case G_NOPROGRESS:
		a->progress = 0;
		break;
	case G_VALUE:
		a->value = arg;
		break;
	case G_DRYRUN:
		a->dryrun = true;
		break;
	case G_ALLCOLS:
		a->allcols = true;
		break;
	case G_KEEP:
		a->keep = true;
		break;
	default:
		return -1;
	}
	return 0;
}

static const char *elem_name(const char *elem, char *buf, size_t len)
{
	size_t n = strcspn(elem, "=");

	if (n >= len)
		n = len - 1;
	memcpy(buf, elem, n);
	buf[n] = '\0';
	return buf;
}

static bool takes_no_value(const struct option *lo, const char *name)
{
	for (; lo->name; lo++)
		if (strncmp(name, "--", 2) == 0 &&
		    strcmp(lo->name, name + 2) == 0)
			return lo->has_arg == no_argument;
	return false;
}

/* "unknown option", with the nearest option name when it looks like a
 * typo of one (--gropu: did you mean --group?). */
static int unknown_option(struct ml_ctx *ctx, const char *cmdname,
			  const char *name, const struct option *lo)
{
	const char *names[256], *pick = NULL;
	size_t n = 0;

	if (strncmp(name, "--", 2) == 0) {
		for (; lo[n].name && n < 256; n++)
			names[n] = lo[n].name;
		pick = ml_suggest(name + 2, names, n);
	}
	if (pick)
		ml_err(ctx, "%s: %s: unknown option (did you mean --%s?)",
		       cmdname, name, pick);
	else
		ml_err(ctx, "%s: %s: unknown option", cmdname, name);
	return ML_EXIT_USAGE;
}

static int parse_with(const struct ml_command *cmd, int argc, char **argv,
		      struct ml_ctx *ctx, struct option *lo, struct args *a)
{
	size_t i, n = 0;
	int c, idx;
	char name[96];

	for (i = 0; i < cmd->nopts; i++) {
		lo[n].name = cmd->opts[i].name;
		lo[n].has_arg = cmd->opts[i].kind == ML_OPT_FLAG
					? no_argument
					: required_argument;
		lo[n].flag = NULL;
		lo[n].val = OPT_BASE + (int)i;
		n++;
		if (ml_alias_of(cmd, i)) {
			lo[n] = lo[n - 1];
			lo[n].name = ml_alias_of(cmd, i);
			n++;
		}
	}
	for (i = 0; i < NGLOBAL; i++)
		lo[n++] = global_opts[i];
	memset(&lo[n], 0, sizeof(lo[n]));

	optind = 0;
	opterr = 0;
	while ((idx = -1,
		c = getopt_long(argc, argv, short_opts, lo, &idx)) != -1) {
		const char *elem;

		if (c == '?') {
			elem = argv[optind - 1];
			if (optopt && optopt < OPT_BASE)
				snprintf(name, sizeof(name), "-%c", optopt);
			else
				elem_name(elem, name, sizeof(name));
			/* getopt_long reports "--flag=x" as unknown too. */
			if (strchr(elem, '=') && takes_no_value(lo, name)) {
				ml_err(ctx, "%s: %s: takes no value", cmd->name,
				       name);
				return ML_EXIT_USAGE;
			}
			return unknown_option(ctx, cmd->name, name, lo);
		}
		if (c == ':') {
			elem = argv[optind - 1];
			ml_err(ctx, "%s: %s: missing value",
			       cmd->name, elem_name(elem, name, sizeof(name)));
			return ML_EXIT_USAGE;
		}
		if (c < OPT_BASE) {	/* a short option */
			set_global(a, c, optarg);
			continue;
		}
		/* getopt_long accepts unambiguous prefixes; we do not, so
		 * adding an option never breaks a script. */
		elem = opt_element(argv, optind, lo[idx].has_arg);
		if (strncmp(elem, "--", 2) != 0 ||
		    strcmp(elem_name(elem + 2, name, sizeof(name)),
			   lo[idx].name) != 0) {
			ml_err(ctx, "%s: %s: unknown option (did you mean --%s?)",
			       cmd->name, elem_name(elem, name, sizeof(name)),
			       lo[idx].name);
			return ML_EXIT_USAGE;
		}
		if (c >= OPT_BASE && c < OPT_BASE + (int)cmd->nopts) {
			i = (size_t)(c - OPT_BASE);
			a->raw[i] = cmd->opts[i].kind == ML_OPT_FLAG ? "1"
								     : optarg;
			add_order(a, i);
		} else if (set_global(a, c, optarg)) {
			return ml_usage_err(ctx, cmd->name, NULL,
					 "internal option error");
		}
	}
	if (optind < argc) {
		char q[ML_QUOTE_LEN];

		snprintf(name, sizeof(name), "unexpected argument %s",
			 ml_quote(q, sizeof(q), argv[optind]));
		return ml_usage_err(ctx, cmd->name, NULL, name);
	}
	return 0;
}

int ml_parse_args(const struct ml_command *cmd, int argc, char **argv,
		  struct ml_ctx *ctx, struct args *a)
{
	/* Room for every option twice: its name and an alias. */
	struct option *lo = calloc(2 * cmd->nopts + NGLOBAL + 1, sizeof(*lo));
	int rc;

	if (lo == NULL)
		return ml_usage_err(ctx, cmd->name, NULL, "out of memory");
	rc = parse_with(cmd, argc, argv, ctx, lo, a);
	free(lo);
	return rc;
}

int ml_build_vlist(const struct ml_command *cmd, size_t i,
		       const char *text, struct ml_vlist *vl, union ml_val *base,
		       char *err, size_t errlen)
{
	const struct ml_opt *o = &cmd->opts[i];

	memset(vl, 0, sizeof(*vl));
	vl->opt = o;
	if (o->kind == ML_OPT_FLAG) {
		base[i].i = text != NULL;
		return 0;
	}
	if (o->kind == ML_OPT_TEXT) {
		base[i].s = text ? text : o->def;
		if (base[i].s && base[i].s[0] == '\0') {
			snprintf(err, errlen, "empty value");
			return -1;
		}
		return 0;
	}
	if (text == NULL && o->def == NULL) {
		if (ml_opt_is_int(o))
			base[i].i = ML_AUTO_INT;
		else
			base[i].r = NAN;
		return 0;
	}
	if (ml_vlist_parse(vl, o, text ? text : o->def, cmd->time_unit, err,
			   errlen))
		return -1;
	base[i] = ml_vlist_at(vl, 0);
	return 0;
}

int ml_setup_globals(struct run *r, const struct args *a)
{
	const char *cmd = r->cmd->name, *why;
	long long v;
	size_t i;

	r->spec.fmt = ML_FMT_TABLE;
	if (a->format) {
		for (i = 0; fmt_names[i]; i++)
			if (strcmp(a->format, fmt_names[i]) == 0)
				break;
		if (fmt_names[i] == NULL)
			return ml_usage_err(r->ctx, cmd, "format",
					 "must be table, csv, tsv or json");
		r->spec.fmt = (enum ml_fmt)i;
	}
	/* csv and json: every number in its shortest form that reads back
	 * as the same double (no silent rounding, issue 12); the table,
	 * read by people against the papers, shows 7 digits so that values
	 * such as 1233.916 us appear as printed there. */
	r->spec.precision = r->spec.fmt == ML_FMT_TABLE ? 7 : 0;
	if (a->value) {
		/* One bare value per row for $(...): tsv (text unquoted),
		 * no header, full precision, one column. */
		if (a->format || a->columns)
			return ml_usage_err(r->ctx, cmd, "value",
					 "cannot be combined with --format or "
					 "--columns");
		r->spec.fmt = ML_FMT_TSV;
		r->spec.precision = 0;
	}
	if (a->precision) {
		why = ml_parse_int(a->precision, &v);
		if (why || v < 1 || v > 17)
			return ml_usage_err(r->ctx, cmd, "precision",
					 "must be an integer from 1 to 17");
		r->spec.precision = (int)v;
	}
	r->spec.header = !a->noheader && !a->value;
	r->value = a->value;
	r->colopt = a->value ? "value" : "columns";
	r->progress = a->progress;
	r->dryrun = a->dryrun;
	if (a->value && (a->value[0] == '\0' || strchr(a->value, ',')))
		return ml_usage_err(r->ctx, cmd, "value",
				 "names one column (see --columns for more)");
	if (a->dryrun && a->input)
		return ml_usage_err(r->ctx, cmd, "dry-run",
				 "cannot be combined with --input");
	/* An empty name is no file: not "is a directory", not ENOENT. */
	if (a->input && a->input[0] == '\0')
		return ml_usage_err(r->ctx, cmd, "input",
				 "'' is not a file name (- is standard input)");
	if (a->output && a->output[0] == '\0')
		return ml_usage_err(r->ctx, cmd, "output",
				 "'' is not a file name (- is standard output)");
	r->unit_scale = 1.0;
	r->unit_name = a->unit ? a->unit : r->cmd->time_unit;
	if (a->unit) {
		if (strcmp(r->cmd->time_unit, "us") == 0)
			r->unit_scale = ml_time_scale(a->unit);
		else if (strcmp(a->unit, r->cmd->time_unit) == 0)
			r->unit_scale = 1.0;
		else
			r->unit_scale = 0.0;
		if (r->unit_scale == 0.0) {
			char msg[96];

			char q[ML_QUOTE_LEN];

			snprintf(msg, sizeof(msg), "%s %s",
				 ml_quote(q, sizeof(q), a->unit),
				 strcmp(r->cmd->time_unit, "us") == 0
					 ? "must be ns, us, ms or s"
					 : "is not a unit of this model (cycles)");
			return ml_usage_err(r->ctx, cmd, "unit", msg);
		}
	}
	r->jobs = 1;
	if (a->jobs) {
		why = ml_parse_int(a->jobs, &v);
		if (why || v < 1 || v > MAX_JOBS)
			return ml_usage_err(r->ctx, cmd, "jobs",
					 "must be an integer from 1 to 256");
		r->jobs = (unsigned)v;
	}
	/* --value reports each row left out on stderr, in order. */
	if (a->value)
		r->jobs = 1;
	r->ctx->jobs = r->jobs;
	r->shard_i = r->shard_n = 1;
	if (a->shard) {
		const char *slash = strchr(a->shard, '/');
		char *first = slash ? strndup(a->shard, (size_t)(slash - a->shard))
				    : NULL;
		long long si, sn;
		bool bad = !first || ml_parse_int(first, &si) ||
			   ml_parse_int(slash + 1, &sn) || sn < 1 || si < 1 ||
			   si > sn || sn > 1000000000LL;

		free(first);
		if (bad)
			return ml_usage_err(r->ctx, cmd, "shard",
					 "must be I/N with 1 <= I <= N <= 10^9");
		if (a->input)
			return ml_usage_err(r->ctx, cmd, "shard",
					 "cannot be combined with --input");
		r->shard_i = (unsigned long long)si;
		r->shard_n = (unsigned long long)sn;
	}
	return 0;
}
