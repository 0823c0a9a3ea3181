/*
 * fit_args.c - the command line of `mcastlat fit MODEL`: fit's own
 * options and the model's (sweepable lists, --holdout conditions,
 * --stat, --format, ...), checked and parsed into a struct fit_args;
 * fit's usage text; and the small helpers the other files of fit use
 * (ml_fit_usage_err, ml_fit_find_opt).  Below fit_points.c and
 * fit_cmd.c, which call it.
 */
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/columns.h"
#include "cli/fit/fit_cmd.h"
#include "cli/meta/suggest.h"


enum {
	F_DATA = 1000,
	F_FREE,
	F_STAT,
	F_WEIGHT,
	F_ROBUST,
	F_HOLDOUT,
	F_RESIDUALS,
	F_EMIT,
	F_SKIPBAD,
	F_FORMAT,
	F_PRECISION,
	F_NOHEADER,
	F_UNIT,
	F_OUTPUT,
	F_JOBS,
	F_PROGRESS,
	F_NOPROGRESS,
	F_HELP
};

/* The fit's own options, sorted; the model's follow them. */
static const struct option fit_opts[] = {
    {"data", required_argument, NULL, F_DATA},
    {"emit", required_argument, NULL, F_EMIT},
    {"format", required_argument, NULL, F_FORMAT},
    {"free", required_argument, NULL, F_FREE},
    {"help", no_argument, NULL, F_HELP},
    {"holdout", required_argument, NULL, F_HOLDOUT},
    {"jobs", required_argument, NULL, F_JOBS},
    {"no-header", no_argument, NULL, F_NOHEADER},
    {"no-progress", no_argument, NULL, F_NOPROGRESS},
    {"output", required_argument, NULL, F_OUTPUT},
    {"precision", required_argument, NULL, F_PRECISION},
    {"progress", no_argument, NULL, F_PROGRESS},
    {"residuals", no_argument, NULL, F_RESIDUALS},
    {"robust", no_argument, NULL, F_ROBUST},
    {"skip-bad", no_argument, NULL, F_SKIPBAD},
    {"stat", required_argument, NULL, F_STAT},
    {"unit", required_argument, NULL, F_UNIT},
    {"weight", required_argument, NULL, F_WEIGHT},
};
#define NFIT (sizeof(fit_opts) / sizeof(fit_opts[0]))
#define OPT_BASE 2000

const struct option *const ml_fit_opts = fit_opts;
const size_t ml_nfit_opts = NFIT;

const char *const ml_fit_stat_names[] = {"auto", "avg", "min", "max", NULL};
static const char *const fmt_names[] = {"table", "csv", "json", "tsv", NULL};

void ml_fit_usage(FILE *f)
{
	fputs("usage: mcastlat fit MODEL --data FILE[:key=value...] "
	      "[--data FILE]...\n"
	      "                    [MODEL OPTIONS] [FIT OPTIONS] "
	      "[OUTPUT OPTIONS]\n\n"
	      "Fits the parameters of MODEL (cluster, collective, kbinomial, "
	      "torus,\nhypercube) to measured latencies: CSV with a latency "
	      "(or latency_avg) column\n(a model's own --format csv "
	      "output), OSU Micro-Benchmarks\n"
	      "osu_latency/osu_bcast, IMB-MPI1 PingPong/Bcast.\n\n"
	      "Fit options:\n"
	      "  --data FILE          measurements; FILE:nodes=64 adds what "
	      "the file lacks\n"
	      "  --free auto|LIST     parameters to fit, by option name "
	      "(auto: those the\n"
	      "                       data determine; see mcastlat-fit(1))\n"
	      "  --stat auto|avg|min|max  statistic of a row with several "
	      "(auto: max over\n"
	      "                       ranks for collectives, else avg)\n"
	      "  --weight relative|log|absolute  residuals relative to the "
	      "measurement\n"
	      "                       (default), ln(predicted / measured), "
	      "or plain\n"
	      "  --robust             bisquare down-weighting of outliers\n"
	      "  --holdout COND[,COND]  leave out the points where every "
	      "COND holds (COLUMN\n"
	      "                       OP VALUE, OP < <= > >= =) and report "
	      "their error\n"
	      "  --residuals          print every point instead of the "
	      "parameters\n"
	      "  --emit FILE          write the fitted model as a one-row "
	      "CSV for --input\n"
	      "  --skip-bad           skip bad rows with a warning (exit 1) "
	      "instead of exit 2\n"
	      "  -j, --jobs N         evaluate the collective model's points "
	      "on N threads\n"
	      "                       (the same result for any N)\n"
	      "  --progress, --no-progress  the fits done on stderr (default: "
	      "on a terminal)\n"
	      "Output options: --format table|csv|json|tsv, --precision N, "
	      "--no-header,\n"
	      "  --unit ns|us|ms|s, -o FILE.  Model options (fixed values; a "
	      "list tries each):\n"
	      "  see 'mcastlat help MODEL'.\n",
	      f);
}

/* ------------------------------------------------------------------ */
/* The command line. */

int ml_fit_usage_err(struct ml_ctx *ctx, const char *opt, const char *fmt,
		     ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (opt)
		ml_err(ctx, "fit: --%s: %s", opt, msg);
	else
		ml_err(ctx, "fit: %s", msg);
	return ML_EXIT_USAGE;
}

size_t ml_fit_find_opt(const struct ml_command *cmd, const char *name,
		       size_t len)
{
	size_t i, j;

	for (i = 0; i < cmd->nopts; i++)
		if (ml_same_name(cmd->opts[i].name, name, len))
			return i;
	for (j = 0; cmd->aliases && cmd->aliases[j].opt; j++)
		if (ml_same_name(cmd->aliases[j].alias, name, len))
			for (i = 0; i < cmd->nopts; i++)
				if (strcmp(cmd->opts[i].name,
					   cmd->aliases[j].opt) == 0)
					return i;
	return cmd->nopts;
}

/* Every --name on the command line must be an option's exact name (no
 * prefix abbreviations: they break scripts when an option is added). */
static int check_names(struct ml_ctx *ctx, const struct option *lo,
		       size_t nlo, int argc, char **argv)
{
	const char *names[512];
	int i;
	size_t j, n = 0;

	for (j = 0; j < nlo && n < 512; j++)
		names[n++] = lo[j].name;
	for (i = 1; i < argc; i++) {
		const char *s = argv[i], *eq;
		size_t len;

		if (strcmp(s, "--") == 0)
			break;
		if (strncmp(s, "--", 2) != 0)
			continue;
		s += 2;
		eq = strchr(s, '=');
		len = eq ? (size_t)(eq - s) : strlen(s);
		for (j = 0; j < nlo; j++)
			if (strlen(lo[j].name) == len &&
			    strncmp(lo[j].name, s, len) == 0)
				break;
		if (j == nlo) {
			char q[ML_QUOTE_LEN], word[64];
			const char *pick;

			snprintf(word, sizeof(word), "%.*s",
				 (int)(len < 63 ? len : 63), s);
			pick = ml_suggest(word, names, n);
			ml_err(ctx, "fit: %s is not an option of fit%s%s%s",
			       ml_quote(q, sizeof(q), argv[i]),
			       pick ? " (did you mean --" : "",
			       pick ? pick : "", pick ? "?)" : "");
			return ML_EXIT_USAGE;
		}
		if (lo[j].has_arg == required_argument && !eq)
			i++;
	}
	return 0;
}

static long choice_index(const char *const *names, const char *s)
{
	long i;

	for (i = 0; names[i]; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

/* One COLUMN OP VALUE. */
static int parse_cond(struct ml_ctx *ctx, struct fit_args *a, const char *s,
		      struct fit_cond *c)
{
	const struct ml_command *cmd = a->cmd;
	size_t len = strcspn(s, "<>="), i;
	struct ml_vlist vl;
	char err[256], q[ML_QUOTE_LEN];
	const char *val;

	if (s[len] == '\0' || len == 0)
		return ml_fit_usage_err(ctx, "holdout",
				 "%s is not COLUMN OP VALUE (e.g. nodes>16, "
				 "msg>=65536, op=bcast)",
				 ml_quote(q, sizeof(q), s));
	i = ml_fit_find_opt(cmd, s, len);
	if (i == cmd->nopts)
		return ml_fit_usage_err(ctx, "holdout", "%.*s is not an option of %s",
				 (int)(len < 60 ? len : 60), s, cmd->name);
	c->opt = i;
	val = s + len;
	if (val[0] == '<' && val[1] == '=')
		c->op = 'l', val += 2;
	else if (val[0] == '>' && val[1] == '=')
		c->op = 'g', val += 2;
	else if (val[0] == '<' || val[0] == '>' || val[0] == '=')
		c->op = val[0], val += 1;
	if (*val == '\0' || strchr("<>=", *val))
		return ml_fit_usage_err(ctx, "holdout", "%s: no value after the "
				 "operator", ml_quote(q, sizeof(q), s));
	if (cmd->opts[i].kind == ML_OPT_TEXT || cmd->opts[i].kind == ML_OPT_FLAG)
		return ml_fit_usage_err(ctx, "holdout", "%s cannot be compared",
				 cmd->opts[i].name);
	if (cmd->opts[i].kind == ML_OPT_CHOICE && c->op != '=')
		return ml_fit_usage_err(ctx, "holdout", "%s takes only = (a choice)",
				 cmd->opts[i].name);
	if (ml_vlist_parse(&vl, &cmd->opts[i], val, cmd->time_unit, err,
			   sizeof(err)))
		return ml_fit_usage_err(ctx, "holdout", "%s: %s", cmd->opts[i].name,
				 err);
	if (vl.count != 1) {
		ml_vlist_free(&vl);
		return ml_fit_usage_err(ctx, "holdout", "%s: one value to compare with",
				 cmd->opts[i].name);
	}
	c->v = ml_vlist_at(&vl, 0);
	ml_vlist_free(&vl);
	return 0;
}

static int parse_holdout(struct ml_ctx *ctx, struct fit_args *a,
			 const char *arg)
{
	char *copy, *tok, *save = NULL;
	size_t h = a->nholdout;
	int rc = 0;

	if (h == FIT_MAX_HOLDOUT)
		return ml_fit_usage_err(ctx, "holdout", "more than %d --holdout options",
				 FIT_MAX_HOLDOUT);
	copy = strdup(arg);
	if (!copy)
		return ml_fit_usage_err(ctx, "holdout", "out of memory");
	a->ncond[h] = 0;
	for (tok = strtok_r(copy, ",", &save); tok && rc == 0;
	     tok = strtok_r(NULL, ",", &save)) {
		if (a->ncond[h] == FIT_MAX_COND) {
			rc = ml_fit_usage_err(ctx, "holdout", "more than %d conditions",
				       FIT_MAX_COND);
			break;
		}
		rc = parse_cond(ctx, a, tok, &a->cond[h][a->ncond[h]++]);
	}
	if (rc == 0 && a->ncond[h] == 0)
		rc = ml_fit_usage_err(ctx, "holdout", "no condition given");
	free(copy);
	if (rc == 0)
		a->nholdout++;
	return rc;
}

static int set_fit_opt(struct ml_ctx *ctx, struct fit_args *a, int c,
		       const char *arg)
{
	char q[ML_QUOTE_LEN];
	long k;

	switch (c) {
	case F_DATA: {
		const char **d = realloc(a->data, (a->ndata + 1) * sizeof(*d));

		if (!d)
			return ml_fit_usage_err(ctx, "data", "out of memory");
		a->data = d;
		a->data[a->ndata++] = arg;
		return 0;
	}
	case F_FREE:
		a->free = arg;
		return 0;
	case F_STAT:
		k = choice_index(ml_fit_stat_names, arg);
		if (k < 0)
			return ml_fit_usage_err(ctx, "stat", "%s is not auto, avg, min "
				 "or max", ml_quote(q, sizeof(q), arg));
		a->stat = (enum fit_stat)k;
		return 0;
	case F_WEIGHT:
		if (strcmp(arg, "relative") && strcmp(arg, "log") &&
		    strcmp(arg, "absolute"))
			return ml_fit_usage_err(ctx, "weight", "%s is not relative, "
				 "log or absolute", ml_quote(q, sizeof(q), arg));
		a->relative = strcmp(arg, "absolute") != 0;
		a->logscale = strcmp(arg, "log") == 0;
		return 0;
	case F_ROBUST:
		a->robust = true;
		return 0;
	case F_HOLDOUT:
		return parse_holdout(ctx, a, arg);
	case F_RESIDUALS:
		a->residuals = true;
		return 0;
	case F_EMIT:
		if (*arg == '\0')
			return ml_fit_usage_err(ctx, "emit", "an empty file name");
		a->emit = arg;
		return 0;
	case F_SKIPBAD:
		a->skip_bad = true;
		return 0;
	case F_FORMAT:
		k = choice_index(fmt_names, arg);
		if (k < 0)
			return ml_fit_usage_err(ctx, "format", "%s is not table, csv, "
				 "json or tsv", ml_quote(q, sizeof(q), arg));
		a->fmt = (enum ml_fmt)k;
		return 0;
	case F_PRECISION: {
		long long p;

		if (ml_parse_int(arg, &p) || p < 1 || p > 17)
			return ml_fit_usage_err(ctx, "precision", "%s is not an "
				 "integer in 1..17", ml_quote(q, sizeof(q), arg));
		a->precision = (int)p;
		return 0;
	}
	case F_NOHEADER:
		a->header = false;
		return 0;
	case 'j':
	case F_JOBS: {
		long long j;

		if (ml_parse_int(arg, &j) || j < 1 || j > 256)
			return ml_fit_usage_err(ctx, "jobs", "must be an integer "
				 "from 1 to 256");
		a->jobs = (unsigned)j;
		return 0;
	}
	case F_PROGRESS:
		a->progress = 1;
		return 0;
	case F_NOPROGRESS:
		a->progress = 0;
		return 0;
	case F_UNIT:
		if (ml_time_scale(arg) == 0)
			return ml_fit_usage_err(ctx, "unit", "%s is not ns, us, ms or s",
					 ml_quote(q, sizeof(q), arg));
		if (strcmp(a->cmd->time_unit, "us") != 0)
			return ml_fit_usage_err(ctx, "unit", "%s counts %s: its times "
				 "take no unit", a->cmd->name,
				 a->cmd->time_unit);
		a->unit = arg;
		a->unit_scale = ml_time_scale(arg);
		return 0;
	case 'o':
	case F_OUTPUT:
		if (*arg == '\0')
			return ml_fit_usage_err(ctx, "output", "an empty file name");
		a->output = arg;
		return 0;
	}
	return ml_fit_usage_err(ctx, NULL, "internal: unknown option %d", c);
}

static int set_model_opt(struct ml_ctx *ctx, struct fit_args *a, size_t i,
			 const char *arg)
{
	const struct ml_opt *o = &a->cmd->opts[i];
	char err[256];

	if (a->given[i]) {
		ml_vlist_free(&a->vl[i]);
		memset(&a->vl[i], 0, sizeof(a->vl[i]));
	}
	a->given[i] = true;
	if (o->kind == ML_OPT_FLAG) {
		a->defaults[i].i = 1;
		return 0;
	}
	if (o->kind == ML_OPT_TEXT) {
		a->defaults[i].s = arg;
		return 0;
	}
	if (ml_vlist_parse(&a->vl[i], o, arg, a->cmd->time_unit, err,
			   sizeof(err)))
		return ml_fit_usage_err(ctx, o->name, "%s", err);
	return 0;
}

static int parse_defaults(struct ml_ctx *ctx, struct fit_args *a)
{
	size_t i;

	for (i = 0; i < a->cmd->nopts; i++) {
		const struct ml_opt *o = &a->cmd->opts[i];
		struct ml_vlist vl;
		char err[256];

		if (o->kind == ML_OPT_FLAG) {
			a->defaults[i].i = 0;
			continue;
		}
		if (o->kind == ML_OPT_TEXT) {
			a->defaults[i].s = NULL;
			continue;
		}
		if (o->def == NULL) {
			if (ml_opt_is_int(o))
				a->defaults[i].i = ML_AUTO_INT;
			else
				a->defaults[i].r = NAN;
			continue;
		}
		if (ml_vlist_parse(&vl, o, o->def, a->cmd->time_unit, err,
				   sizeof(err)))
			return ml_fit_usage_err(ctx, o->name, "internal: default: %s",
					 err);
		a->defaults[i] = ml_vlist_at(&vl, 0);
		ml_vlist_free(&vl);
	}
	return 0;
}

int ml_fit_parse_args(struct ml_ctx *ctx, struct fit_args *a, int argc,
		      char **argv)
{
	const struct ml_command *cmd = a->cmd;
	struct option *lo;
	size_t nlo = 0, i, j;
	int c, rc = 0;

	lo = calloc(NFIT + 2 * cmd->nopts + 1, sizeof(*lo));
	a->vl = calloc(cmd->nopts, sizeof(*a->vl));
	a->given = calloc(cmd->nopts, sizeof(*a->given));
	a->defaults = calloc(cmd->nopts, sizeof(*a->defaults));
	if (!lo || !a->vl || !a->given || !a->defaults) {
		free(lo);
		return ml_fit_usage_err(ctx, NULL, "out of memory");
	}
	for (i = 0; i < NFIT; i++)
		lo[nlo++] = fit_opts[i];
	for (i = 0; i < cmd->nopts; i++) {
		int has = cmd->opts[i].kind == ML_OPT_FLAG ? no_argument
							   : required_argument;

		lo[nlo++] = (struct option){cmd->opts[i].name, has, NULL,
					    OPT_BASE + (int)i};
		for (j = 0; cmd->aliases && cmd->aliases[j].opt; j++)
			if (strcmp(cmd->aliases[j].opt, cmd->opts[i].name) == 0)
				lo[nlo++] = (struct option){
				    cmd->aliases[j].alias, has, NULL,
				    OPT_BASE + (int)i};
	}
	rc = check_names(ctx, lo, nlo, argc, argv);
	if (rc == 0)
		rc = parse_defaults(ctx, a);
	optind = 0;
	opterr = 0;
	while (rc == 0 &&
	       (c = getopt_long(argc, argv, ":ho:j:", lo, NULL)) != -1) {
		if (c == 'h' || c == F_HELP) {
			ml_fit_usage(ctx->out);
			rc = -1;
		} else if (c == ':') {
			rc = ml_fit_usage_err(ctx, NULL, "%s needs a value",
				       argv[optind - 1]);
		} else if (c == '?') {
			char q[ML_QUOTE_LEN];

			rc = ml_fit_usage_err(ctx, NULL, "%s is not an option of fit",
				       ml_quote(q, sizeof(q), argv[optind - 1]));
		} else if (c >= OPT_BASE) {
			rc = set_model_opt(ctx, a, (size_t)(c - OPT_BASE),
					   optarg);
		} else {
			rc = set_fit_opt(ctx, a, c, optarg);
		}
	}
	if (rc == 0 && optind < argc) {
		char q[ML_QUOTE_LEN];

		rc = ml_fit_usage_err(ctx, NULL, "unexpected argument %s",
			       ml_quote(q, sizeof(q), argv[optind]));
	}
	if (rc == 0 && a->ndata == 0)
		rc = ml_fit_usage_err(ctx, "data", "no measurements given (--data "
			       "FILE)");
	free(lo);
	return rc;
}

void ml_fit_args_free(struct fit_args *a)
{
	size_t i;

	for (i = 0; a->vl && i < a->cmd->nopts; i++)
		ml_vlist_free(&a->vl[i]);
	free(a->vl);
	free(a->given);
	free(a->defaults);
	free(a->data);
}
