/*
 * fit.c - `mcastlat fit MODEL --data FILE...`: the command line, the
 * measurements turned into points of the model, and the fits (one per
 * value of a discrete option given as a list; the lowest residual
 * wins).  The fitting itself is the library's (mcastlat/fit.h); the
 * files are read by fitdata.c and the read_*.c readers; what is printed
 * is fit_out.c's.
 */
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/columns.h"
#include "cli/commands.h"
#include "cli/fit.h"
#include "cli/outfile.h"
#include "cli/suggest.h"

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
    {"no-header", no_argument, NULL, F_NOHEADER},
    {"output", required_argument, NULL, F_OUTPUT},
    {"precision", required_argument, NULL, F_PRECISION},
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

static const char *const stat_names[] = {"auto", "avg", "min", "max", NULL};
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
	      "  --weight relative|absolute  residuals relative to the "
	      "measurement (default)\n"
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
	      "Output options: --format table|csv|json|tsv, --precision N, "
	      "--no-header,\n"
	      "  --unit ns|us|ms|s, -o FILE.  Model options (fixed values; a "
	      "list tries each):\n"
	      "  see 'mcastlat help MODEL'.\n",
	      f);
}

/* ------------------------------------------------------------------ */
/* The command line. */

static int usage_err(struct ml_ctx *ctx, const char *opt, const char *fmt,
		     ...) __attribute__((format(printf, 3, 4)));

static int usage_err(struct ml_ctx *ctx, const char *opt, const char *fmt,
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

static size_t find_opt(const struct ml_command *cmd, const char *name,
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
		return usage_err(ctx, "holdout",
				 "%s is not COLUMN OP VALUE (e.g. nodes>16, "
				 "msg>=65536, op=bcast)",
				 ml_quote(q, sizeof(q), s));
	i = find_opt(cmd, s, len);
	if (i == cmd->nopts)
		return usage_err(ctx, "holdout", "%.*s is not an option of %s",
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
		return usage_err(ctx, "holdout", "%s: no value after the "
				 "operator", ml_quote(q, sizeof(q), s));
	if (cmd->opts[i].kind == ML_OPT_TEXT || cmd->opts[i].kind == ML_OPT_FLAG)
		return usage_err(ctx, "holdout", "%s cannot be compared",
				 cmd->opts[i].name);
	if (cmd->opts[i].kind == ML_OPT_CHOICE && c->op != '=')
		return usage_err(ctx, "holdout", "%s takes only = (a choice)",
				 cmd->opts[i].name);
	if (ml_vlist_parse(&vl, &cmd->opts[i], val, cmd->time_unit, err,
			   sizeof(err)))
		return usage_err(ctx, "holdout", "%s: %s", cmd->opts[i].name,
				 err);
	if (vl.count != 1) {
		ml_vlist_free(&vl);
		return usage_err(ctx, "holdout", "%s: one value to compare with",
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
		return usage_err(ctx, "holdout", "more than %d --holdout options",
				 FIT_MAX_HOLDOUT);
	copy = strdup(arg);
	if (!copy)
		return usage_err(ctx, "holdout", "out of memory");
	a->ncond[h] = 0;
	for (tok = strtok_r(copy, ",", &save); tok && rc == 0;
	     tok = strtok_r(NULL, ",", &save)) {
		if (a->ncond[h] == FIT_MAX_COND) {
			rc = usage_err(ctx, "holdout", "more than %d conditions",
				       FIT_MAX_COND);
			break;
		}
		rc = parse_cond(ctx, a, tok, &a->cond[h][a->ncond[h]++]);
	}
	if (rc == 0 && a->ncond[h] == 0)
		rc = usage_err(ctx, "holdout", "no condition given");
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
			return usage_err(ctx, "data", "out of memory");
		a->data = d;
		a->data[a->ndata++] = arg;
		return 0;
	}
	case F_FREE:
		a->free = arg;
		return 0;
	case F_STAT:
		k = choice_index(stat_names, arg);
		if (k < 0)
			return usage_err(ctx, "stat", "%s is not auto, avg, min "
				 "or max", ml_quote(q, sizeof(q), arg));
		a->stat = (enum fit_stat)k;
		return 0;
	case F_WEIGHT:
		if (strcmp(arg, "relative") && strcmp(arg, "absolute"))
			return usage_err(ctx, "weight", "%s is not relative or "
				 "absolute", ml_quote(q, sizeof(q), arg));
		a->relative = strcmp(arg, "relative") == 0;
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
			return usage_err(ctx, "emit", "an empty file name");
		a->emit = arg;
		return 0;
	case F_SKIPBAD:
		a->skip_bad = true;
		return 0;
	case F_FORMAT:
		k = choice_index(fmt_names, arg);
		if (k < 0)
			return usage_err(ctx, "format", "%s is not table, csv, "
				 "json or tsv", ml_quote(q, sizeof(q), arg));
		a->fmt = (enum ml_fmt)k;
		return 0;
	case F_PRECISION: {
		long long p;

		if (ml_parse_int(arg, &p) || p < 1 || p > 17)
			return usage_err(ctx, "precision", "%s is not an "
				 "integer in 1..17", ml_quote(q, sizeof(q), arg));
		a->precision = (int)p;
		return 0;
	}
	case F_NOHEADER:
		a->header = false;
		return 0;
	case F_UNIT:
		if (ml_time_scale(arg) == 0)
			return usage_err(ctx, "unit", "%s is not ns, us, ms or s",
					 ml_quote(q, sizeof(q), arg));
		if (strcmp(a->cmd->time_unit, "us") != 0)
			return usage_err(ctx, "unit", "%s counts %s: its times "
				 "take no unit", a->cmd->name,
				 a->cmd->time_unit);
		a->unit = arg;
		a->unit_scale = ml_time_scale(arg);
		return 0;
	case 'o':
	case F_OUTPUT:
		if (*arg == '\0')
			return usage_err(ctx, "output", "an empty file name");
		a->output = arg;
		return 0;
	}
	return usage_err(ctx, NULL, "internal: unknown option %d", c);
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
		return usage_err(ctx, o->name, "%s", err);
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
			return usage_err(ctx, o->name, "internal: default: %s",
					 err);
		a->defaults[i] = ml_vlist_at(&vl, 0);
		ml_vlist_free(&vl);
	}
	return 0;
}

static int parse_args(struct ml_ctx *ctx, struct fit_args *a, int argc,
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
		return usage_err(ctx, NULL, "out of memory");
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
	       (c = getopt_long(argc, argv, ":ho:", lo, NULL)) != -1) {
		if (c == 'h' || c == F_HELP) {
			ml_fit_usage(ctx->out);
			rc = -1;
		} else if (c == ':') {
			rc = usage_err(ctx, NULL, "%s needs a value",
				       argv[optind - 1]);
		} else if (c == '?') {
			char q[ML_QUOTE_LEN];

			rc = usage_err(ctx, NULL, "%s is not an option of fit",
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

		rc = usage_err(ctx, NULL, "unexpected argument %s",
			       ml_quote(q, sizeof(q), argv[optind]));
	}
	if (rc == 0 && a->ndata == 0)
		rc = usage_err(ctx, "data", "no measurements given (--data "
			       "FILE)");
	free(lo);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Data to points. */

/* Column names a model prints that are results, not inputs. */
static bool is_result(const struct ml_command *cmd, const char *key)
{
	size_t j;

	if (strcmp(key, "status") == 0 || strcmp(key, "note") == 0)
		return true;
	for (j = 0; j < cmd->ncols; j++)
		if (ml_same_name(cmd->cols[j].name, key, strlen(key)))
			return true;
	return false;
}

static bool is_input(const struct ml_command *cmd, size_t i)
{
	size_t j;

	for (j = 0; cmd->fit_inputs && cmd->fit_inputs[j]; j++)
		if (strcmp(cmd->fit_inputs[j], cmd->opts[i].name) == 0)
			return true;
	return false;
}

/* The operation a row names (OSU and IMB rows carry op=p2p or
 * op=bcast), or NULL. */
static const char *row_op(const struct fd_row *r)
{
	size_t k;

	for (k = 0; k < r->nkv; k++)
		if (strcmp(r->kv[k].key, "op") == 0)
			return r->kv[k].val;
	return NULL;
}

/*
 * The op of a benchmark row, for a command without --op: a multicast
 * model reads a broadcast as one multicast, and a ping-pong as a
 * multicast to one destination, a set of 2 in the option the command
 * names (cmd->fit_pair).  op_readable says whether the command reads
 * the op at all (checked first, since it is the reason a ping-pong file
 * cannot be fitted by a model without point-to-point messages);
 * apply_op sets the pair after the row's other columns, so that a file
 * attribute such as nodes=4 cannot undo it unseen.
 */
static int op_readable(const struct ml_command *cmd, const char *val,
		       char *err, size_t errlen)
{
	if (strcmp(val, "bcast") == 0 ||
	    (strcmp(val, "p2p") == 0 && cmd->fit_pair))
		return 0;
	if (strcmp(val, "p2p") == 0)
		snprintf(err, errlen, "a point-to-point row, and %s models no "
			 "point-to-point message: leave it out", cmd->name);
	else
		snprintf(err, errlen, "op '%.20s' is not read by %s", val,
			 cmd->name);
	return -1;
}

static int apply_op(const struct ml_command *cmd, const char *val,
		    union ml_val *v, bool *stated, char *err, size_t errlen)
{
	size_t i;

	if (strcmp(val, "p2p") != 0)
		return 0;
	i = find_opt(cmd, cmd->fit_pair, strlen(cmd->fit_pair));
	if (stated[i] && v[i].i != 2) {
		snprintf(err, errlen, "a point-to-point row is a set of 2, "
			 "not the %s=%lld stated for it", cmd->fit_pair,
			 (long long)v[i].i);
		return -1;
	}
	v[i].i = 2;
	stated[i] = true;
	return 0;
}

/* Apply one key=value of a row to the option values v; "" on success,
 * else an error phrase in err. */
static int apply_kv(const struct fit_args *a, const struct fd_kv *kv,
		    union ml_val *v, bool *stated, char *err, size_t errlen)
{
	const struct ml_command *cmd = a->cmd;
	const char *key = kv->key, *br = strchr(kv->key, '[');
	size_t len = br ? (size_t)(br - key) : strlen(key), i;
	struct ml_vlist vl;
	char text[160], e2[256];

	i = find_opt(cmd, key, len);
	if (i == cmd->nopts && strcmp(key, "op") == 0)
		return 0; /* build_points applies it last (apply_op) */
	/* A result column that shares an option's name: the echo of a
	 * point's input (kbinomial's packets), or a result to ignore
	 * (cluster's formula, the equation the model used). */
	if (i < cmd->nopts && (cmd->opts[i].flags & ML_OPT_NOCOL) &&
	    is_result(cmd, key) && !is_input(cmd, i))
		return 0;
	if (i == cmd->nopts) {
		const char *names[256], *pick;
		size_t n = 0;

		if (is_result(cmd, key) || strcmp(key, "source") == 0)
			return 0;
		for (i = 0; i < cmd->nopts && n < 256; i++)
			names[n++] = cmd->opts[i].name;
		pick = ml_suggest(key, names, n);
		snprintf(err, errlen,
			 "column '%.60s' is not an option or a result of "
			 "%s%s%s%s",
			 key, cmd->name, pick ? " (did you mean " : "",
			 pick ? pick : "", pick ? "?)" : "");
		return -1;
	}
	if (kv->val[0] == '\0' || strcmp(kv->val, "auto") == 0)
		return 0; /* empty: the command line's value */
	/* A model parameter on the command line is fixed there, whatever
	 * the file's column says (a model's own output names them all);
	 * a point's inputs are the file's. */
	if (a->given[i] && !is_input(cmd, i))
		return 0;
	if (cmd->opts[i].kind == ML_OPT_TEXT || cmd->opts[i].kind == ML_OPT_FLAG) {
		snprintf(err, errlen, "%s: not read from data",
			 cmd->opts[i].name);
		return -1;
	}
	/* "os_fixed[ns]", "os_per_byte[ns/byte]": a time column in that
	 * unit (per byte: the unit of the time) */
	if (br && cmd->opts[i].kind == ML_OPT_TIME) {
		snprintf(text, sizeof(text), "%.80s%.*s", kv->val,
			 (int)strcspn(br + 1, "]/"), br + 1);
	} else {
		snprintf(text, sizeof(text), "%.150s", kv->val);
	}
	if (ml_vlist_parse(&vl, &cmd->opts[i], text, cmd->time_unit, e2,
			   sizeof(e2))) {
		snprintf(err, errlen, "%s: %s", cmd->opts[i].name, e2);
		return -1;
	}
	if (vl.count != 1) {
		ml_vlist_free(&vl);
		snprintf(err, errlen, "%s: one value per point, not a list",
			 cmd->opts[i].name);
		return -1;
	}
	v[i] = ml_vlist_at(&vl, 0);
	ml_vlist_free(&vl);
	stated[i] = true;
	return 0;
}

/* The measured value of a row in the model's unit, per --stat. */
static int measured(const struct fit_args *a, const struct fd_row *r,
		    const union ml_val *v, double *y, bool *mean, char *err,
		    size_t len)
{
	double x = r->avg, scale = 1;
	const char *op = row_op(r);
	/* a point-to-point row is one process's own time */
	bool collective = a->cmd->fit_collective
				  ? a->cmd->fit_collective(v)
				  : !(op && strcmp(op, "p2p") == 0);
	switch (a->stat) {
	case STAT_AUTO:
		if (collective && !isnan(r->max))
			x = r->max;
		break;
	case STAT_AVG:
		break;
	case STAT_MIN:
	case STAT_MAX:
		x = a->stat == STAT_MIN ? r->min : r->max;
		if (isnan(x) && !isnan(r->avg) && isnan(r->min) &&
		    isnan(r->max))
			x = r->avg; /* one value per row: it is every stat */
		if (isnan(x)) {
			snprintf(err, len,
				 "--stat %s: the file has no such column",
				 stat_names[a->stat]);
			return -1;
		}
		break;
	}
	if (r->unit) {
		if (strcmp(a->cmd->time_unit, "us") != 0) {
			snprintf(err, len, "times in %s, but %s counts %s: "
				 "give the data in %s", r->unit, a->cmd->name,
				 a->cmd->time_unit, a->cmd->time_unit);
			return -1;
		}
		scale = ml_time_scale(r->unit);
		if (scale == 0) {
			snprintf(err, len, "unknown time unit '%.20s'", r->unit);
			return -1;
		}
	} else if (a->unit) {
		scale = a->unit_scale;
	}
	*y = x * scale;
	*mean = r->mean && x == r->avg && !isnan(x);
	if (!isfinite(*y) || !(*y > 0)) {
		snprintf(err, len, "latency %g is not a time > 0", x);
		return -1;
	}
	return 0;
}

static bool same_value(const struct ml_opt *o, union ml_val x, union ml_val y)
{
	if (o->kind == ML_OPT_TEXT)
		return (x.s == y.s) ||
		       (x.s && y.s && strcmp(x.s, y.s) == 0);
	if (ml_opt_is_int(o))
		return x.i == y.i;
	return x.r == y.r || (isnan(x.r) && isnan(y.r));
}

static bool cond_holds(const struct fit_args *a, const struct fit_cond *c,
		       const union ml_val *v)
{
	const struct ml_opt *o = &a->cmd->opts[c->opt];
	double x, y;

	if (c->op == '=')
		return same_value(o, v[c->opt], c->v);
	x = ml_opt_is_int(o) ? (double)v[c->opt].i : v[c->opt].r;
	y = ml_opt_is_int(o) ? (double)c->v.i : c->v.r;
	switch (c->op) {
	case '<':
		return x < y;
	case 'l':
		return x <= y;
	case '>':
		return x > y;
	default:
		return x >= y;
	}
}

/* A condition on an option the point does not state (the cluster size
 * of a ping-pong) does not hold: --holdout 'nodes>16' leaves the
 * ping-pong rows in the fit. */
static bool held_out(const struct fit_args *a, const union ml_val *v,
		     const bool *stated)
{
	size_t h, k;

	for (h = 0; h < a->nholdout; h++) {
		for (k = 0; k < a->ncond[h] && stated[a->cond[h][k].opt] &&
			    cond_holds(a, &a->cond[h][k], v);
		     k++)
			;
		if (k == a->ncond[h])
			return true;
	}
	return false;
}

/* The points so far, by the hash of their option values. */
struct seen {
	size_t *slot; /* point index + 1; 0: empty */
	size_t cap;   /* a power of two, at least twice the points */
};

static uint64_t point_hash(const struct ml_command *cmd,
			   const union ml_val *v)
{
	uint64_t h = 1469598103934665603u, x;
	size_t k;

	for (k = 0; k < cmd->nopts; k++) {
		if (cmd->opts[k].kind == ML_OPT_TEXT)
			continue; /* same_value compares them */
		if (ml_opt_is_int(&cmd->opts[k])) {
			x = (uint64_t)v[k].i;
		} else {
			double r = v[k].r == 0 ? 0 : v[k].r; /* -0 = 0 */

			if (isnan(r))
				r = NAN;
			memcpy(&x, &r, sizeof(x));
		}
		h = (h ^ x) * 1099511628211u;
		h ^= h >> 29;
	}
	return h;
}

static bool same_point(const struct ml_command *cmd, const union ml_val *u,
		       const union ml_val *v)
{
	size_t k;

	for (k = 0; k < cmd->nopts; k++)
		if (!same_value(&cmd->opts[k], u[k], v[k]))
			return false;
	return true;
}

/* The index of a point equal to v among those added, n (none: any
 * value >= the points' count), or SIZE_MAX when memory runs out. */
static size_t seen_find(struct seen *t, const struct ml_command *cmd,
			const union ml_val *all, const union ml_val *v)
{
	size_t i, m;

	if (t->cap == 0) {
		t->cap = 64;
		t->slot = calloc(t->cap, sizeof(*t->slot));
		if (!t->slot)
			return SIZE_MAX;
	}
	m = t->cap - 1;
	for (i = point_hash(cmd, v) & m; t->slot[i]; i = (i + 1) & m)
		if (same_point(cmd, &all[(t->slot[i] - 1) * cmd->nopts], v))
			return t->slot[i] - 1;
	return SIZE_MAX - 1;
}

static void seen_put(struct seen *t, const struct ml_command *cmd,
		     const union ml_val *all, size_t idx)
{
	size_t i, m = t->cap - 1;

	for (i = point_hash(cmd, &all[idx * cmd->nopts]) & m; t->slot[i];
	     i = (i + 1) & m)
		;
	t->slot[i] = idx + 1;
}

/* Add point idx (after seen_find); doubles the table when half full. */
static void seen_add(struct seen *t, const struct ml_command *cmd,
		     const union ml_val *all, size_t idx)
{
	if (2 * (idx + 1) >= t->cap) {
		size_t *old = t->slot, oldcap = t->cap, i;

		t->slot = calloc(2 * oldcap, sizeof(*t->slot));
		if (!t->slot) {
			t->slot = old; /* keep the old: slower, still right */
		} else {
			t->cap = 2 * oldcap;
			for (i = 0; i < oldcap; i++)
				if (old[i])
					seen_put(t, cmd, all, old[i] - 1);
			free(old);
		}
	}
	if (2 * (idx + 1) < t->cap || idx + 1 < t->cap)
		seen_put(t, cmd, all, idx);
}

static void points_free(struct fit_points *p)
{
	free(p->params);
	free(p->v);
	free(p->stated);
	free(p->y);
	free(p->w);
	free(p->use);
	free(p->row);
	free(p->group);
	free(p->mean);
	free(p->mean_next);
	memset(p, 0, sizeof(*p));
}

/* A row that cannot be a point: an error (returned as the exit
 * status), or with --skip-bad a warning (0, counted). */
static int bad_row(struct ml_ctx *ctx, const struct fit_args *a,
		   const struct fd_row *r, const char *msg, size_t *nskip,
		   bool report)
{
	if (!a->skip_bad) {
		if (report)
			ml_err(ctx, "fit: %s:%ld: %s", r->file, r->line, msg);
		return ML_EXIT_USAGE;
	}
	if (report)
		ml_warn(ctx, "fit: %s:%ld: %s (skipped)", r->file, r->line,
			msg);
	(*nskip)++;
	return 0;
}

/* The points of the data for the option values base.  report: say what
 * is wrong (the first set of values); later ones skip silently. */
static int build_points(struct ml_ctx *ctx, const struct fit_args *a,
			const struct fd_set *set, const union ml_val *base,
			struct fit_points *p, size_t *nskip, bool report)
{
	const struct ml_command *cmd = a->cmd;
	size_t nopts = cmd->nopts, psize = ml_fit_params_size(cmd->fit_model);
	size_t i, j, k;
	bool *stated = calloc(nopts, sizeof(bool));
	/* a row's op column is this command's --op, or a benchmark's (op=p2p,
	 * op=bcast) read by apply_op */
	bool own_op = find_opt(cmd, "op", 2) < cmd->nopts;
	union ml_val *cells = calloc(cmd->ncols + 1, sizeof(*cells));
	struct seen seen = {0};
	enum ml_status st;
	char err[400], text[ML_TEXT_MAX];
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->params = calloc(set->nrows ? set->nrows : 1, psize);
	p->v = calloc((set->nrows ? set->nrows : 1) * nopts, sizeof(*p->v));
	p->stated = calloc((set->nrows ? set->nrows : 1) * nopts, sizeof(bool));
	p->y = calloc(set->nrows ? set->nrows : 1, sizeof(double));
	p->w = calloc(set->nrows ? set->nrows : 1, sizeof(double));
	p->use = calloc(set->nrows ? set->nrows : 1, sizeof(bool));
	p->row = calloc(set->nrows ? set->nrows : 1, sizeof(*p->row));
	p->group = calloc(set->nrows ? set->nrows : 1, sizeof(*p->group));
	p->mean = calloc(set->nrows ? set->nrows : 1, sizeof(*p->mean));
	p->mean_next =
	    calloc(set->nrows ? set->nrows : 1, sizeof(*p->mean_next));
	if (!stated || !cells || !p->params || !p->v || !p->stated || !p->y ||
	    !p->w || !p->use || !p->row || !p->group || !p->mean ||
	    !p->mean_next) {
		free(stated);
		free(cells);
		return usage_err(ctx, NULL, "out of memory");
	}
	for (i = 0; i < set->nrows && rc == 0; i++) {
		const struct fd_row *r = &set->rows[i];
		union ml_val *v = &p->v[p->n * nopts];
		void *params = (char *)p->params + p->n * psize;
		struct ml_diag d = {0};
		struct ml_point pt = {.v = v, .text = text};
		const char *need, *op;
		bool ok = true, mean = false;

		memcpy(v, base, nopts * sizeof(*v));
		memcpy(stated, a->given, nopts * sizeof(bool));
		op = own_op ? NULL : row_op(r);
		if (op && op_readable(cmd, op, err, sizeof(err)))
			ok = false;
		for (k = 0; k < r->nkv && ok; k++)
			if (apply_kv(a, &r->kv[k], v, stated, err, sizeof(err)))
				ok = false;
		if (ok && op && apply_op(cmd, op, v, stated, err, sizeof(err)))
			ok = false;
		if (ok && cmd->fit_needs && (need = cmd->fit_needs(v, stated))) {
			snprintf(err, sizeof(err),
				 "%s: not given (add :%s=N to the file name or "
				 "--%s N)", need, need, need);
			ok = false;
		}
		if (ok && cmd->check && cmd->check(&pt, &d) != ML_OK) {
			snprintf(err, sizeof(err), "%s: %s",
				 d.param ? d.param : "point", d.msg);
			ok = false;
		}
		if (ok && cmd->fit_params(v, params, &d) != ML_OK) {
			snprintf(err, sizeof(err), "%s: %s",
				 d.param ? d.param : "point", d.msg);
			ok = false;
		}
		/* A point the model cannot answer at the fixed parameters
		 * (a saturated hypercube) cannot be fitted either. */
		if (ok && (st = cmd->eval(&pt, cells)) != ML_OK) {
			snprintf(err, sizeof(err),
				 "the model's status here is '%s' (at the fixed "
				 "parameters): leave the point out",
				 ml_status_word(st));
			ok = false;
		}
		if (ok && measured(a, r, v, &p->y[p->n], &mean, err,
				   sizeof(err)))
			ok = false;
		if (ok && cmd->fit_measure)
			cmd->fit_measure(params, mean);
		if (!ok) {
			rc = bad_row(ctx, a, r, err, nskip, report);
			continue;
		}
		/* The same point again: a repeated run, one observation
		 * more of the point, whose spread is the pure error of the
		 * lack-of-fit test (a hash table of the points so far: a
		 * long file costs O(n), not O(n^2)).  The measured statistic
		 * is part of the point: an Avg and a Max of the same inputs
		 * are different points of the collective model. */
		j = seen_find(&seen, cmd, p->v, v);
		if (j == SIZE_MAX) {
			rc = usage_err(ctx, NULL, "out of memory");
			continue;
		}
		while (j < p->n && p->mean[j] != mean)
			j = p->mean_next[j];
		if (j < p->n) {
			p->group[p->n] = p->group[j];
		} else {
			p->group[p->n] = p->n;
			/* a second statistic of seen inputs: chained */
			j = seen_find(&seen, cmd, p->v, v);
			if (j < p->n) {
				while (p->mean_next[j] < p->n)
					j = p->mean_next[j];
				p->mean_next[j] = p->n;
			} else {
				seen_add(&seen, cmd, p->v, p->n);
			}
		}
		p->mean[p->n] = mean;
		p->mean_next[p->n] = SIZE_MAX;
		p->w[p->n] = isnan(r->weight) ? 1 : r->weight;
		p->has_w |= !isnan(r->weight);
		p->use[p->n] = !held_out(a, v, stated);
		memcpy(&p->stated[p->n * nopts], stated, nopts * sizeof(bool));
		p->row[p->n] = r;
		p->n++;
	}
	free(stated);
	free(cells);
	free(seen.slot);
	if (rc == 0 && p->n == 0)
		rc = usage_err(ctx, "data", "no valid data point");
	for (i = 0; rc == 0 && i < p->n && !p->use[i]; i++)
		;
	if (rc == 0 && i == p->n)
		rc = usage_err(ctx, "holdout", "every point is held out: "
			       "nothing is left to fit");
	return rc;
}

/* ------------------------------------------------------------------ */
/* The fits. */

static const char *fittable(const struct ml_command *cmd, const char *name)
{
	const char *names[ML_FIT_MAXFREE * 2];
	size_t n = ml_fit_param_names(cmd->fit_model, names, 2 * ML_FIT_MAXFREE),
	       i;

	for (i = 0; i < n && i < 2 * ML_FIT_MAXFREE; i++)
		if (strcmp(names[i], name) == 0)
			return names[i];
	return NULL;
}

/* --free LIST into out->freeset (the library's own name strings). */
static int parse_free(struct ml_ctx *ctx, const struct fit_args *a,
		      struct fit_outcome *out)
{
	const struct ml_command *cmd = a->cmd;
	const char *s = a->free;

	out->nfree = 0;
	while (*s) {
		size_t len = strcspn(s, ","), i;
		char name[64];
		const char *f;

		snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63),
			 s);
		i = find_opt(cmd, name, strlen(name));
		f = i < cmd->nopts ? fittable(cmd, cmd->opts[i].name) : NULL;
		if (!f) {
			const char *names[ML_FIT_MAXFREE * 2], *pick;
			size_t n = ml_fit_param_names(cmd->fit_model, names,
						      2 * ML_FIT_MAXFREE);
			char list[400] = "";

			pick = ml_suggest(name, names, n);
			for (i = 0; i < n; i++)
				snprintf(list + strlen(list),
					 sizeof(list) - strlen(list), "%s%s",
					 i ? ", " : "", names[i]);
			if (pick)
				return usage_err(ctx, "free", "'%s' is not a "
						 "cost %s can fit (did you mean "
						 "%s?)", name, cmd->name, pick);
			return usage_err(ctx, "free", "'%s' is not a cost %s "
					 "can fit (%s, or auto)", name,
					 cmd->name, list);
		}
		if (a->given[i])
			return usage_err(ctx, "free", "%s is fixed on the "
					 "command line (--%s): free it or fix "
					 "it, not both", f, f);
		if (out->nfree == ML_FIT_MAXFREE)
			return usage_err(ctx, "free", "more than %d parameters",
					 ML_FIT_MAXFREE);
		out->freeset[out->nfree++] = f;
		s += len;
		if (*s == ',')
			s++;
	}
	if (out->nfree == 0)
		return usage_err(ctx, "free", "no parameter named");
	return 0;
}

static void copy_base(const struct fit_args *a, size_t combo,
		      union ml_val *base)
{
	size_t i;

	for (i = 0; i < a->cmd->nopts; i++) {
		base[i] = a->defaults[i];
		if (a->given[i] && a->vl[i].count > 0) {
			base[i] = ml_vlist_at(&a->vl[i],
					      combo % a->vl[i].count);
			combo /= a->vl[i].count;
		}
	}
}

/* The given options that a fit must not free or change. */
static size_t given_names(const struct fit_args *a, const char **names)
{
	size_t i, n = 0;
	const char *f;

	for (i = 0; i < a->cmd->nopts; i++)
		if (a->given[i] && (f = fittable(a->cmd, a->cmd->opts[i].name)))
			names[n++] = f;
	return n;
}

static void run_fit(const struct fit_args *a, struct fit_points *p,
		    struct fit_outcome *out)
{
	struct ml_fit_options o;
	struct ml_fit_data data = {p->params, p->n,	 p->y,
				   p->has_w ? p->w : NULL, p->use, p->group};
	const char *given[64];
	size_t ng = given_names(a, given), i, j;
	ml_fit_options_init(&o);
	o.relative = a->relative;
	o.robust = a->robust;
	if (out->automatic) {
		out->st = ml_fit_auto(a->cmd->fit_model, &data, given, ng, &o,
				      out->freeset, &out->nfree, out->zeroed,
				      &out->nzeroed, &out->d);
		if (out->st == ML_OK && out->nfree == 0) {
			out->st = ML_EUNIDENT;
			out->res.ncombo = 0;
		}
		/* The zeroed partners hold 0 in every point's option
		 * values too (--emit, # predict:). */
		for (i = 0; i < p->n && out->st == ML_OK; i++)
			for (j = 0; j < out->nzeroed; j++) {
				size_t k = find_opt(a->cmd, out->zeroed[j],
						    strlen(out->zeroed[j]));

				if (k < a->cmd->nopts)
					p->v[i * a->cmd->nopts + k].r = 0;
			}
		if (out->st != ML_OK)
			return;
	}
	out->st = ml_fit(a->cmd->fit_model, &data, out->freeset, out->nfree,
			 &o, &out->res, &out->d);
}

/* The Akaike weight of value c among the values of a discrete option
 * that fitted (Burnham and Anderson 2002, section 2.9): exp(-D_c / 2)
 * over the sum of the same, D the AIC less the smallest; about the
 * probability that c is the best of the values tried.  Fits with chi2
 * = 0 (AIC -inf) share the weight equally. */
static double akaike_weight(const struct fit_outcome *outs, size_t nc,
			    size_t c)
{
	double min = INFINITY, sum = 0, a;
	size_t i, nexact = 0;

	for (i = 0; i < nc; i++)
		if (outs[i].st == ML_OK) {
			a = ml_fit_aic(&outs[i].res);
			nexact += a == -INFINITY;
			if (a < min)
				min = a;
		}
	if (nexact)
		return ml_fit_aic(&outs[c].res) == -INFINITY ? 1.0 / nexact
							     : 0.0;
	for (i = 0; i < nc; i++)
		if (outs[i].st == ML_OK)
			sum += exp(-(ml_fit_aic(&outs[i].res) - min) / 2);
	return exp(-(ml_fit_aic(&outs[c].res) - min) / 2) / sum;
}

/* The message of a fit that did not succeed; the exit status. */
static int fit_failed(struct ml_ctx *ctx, const struct fit_args *a,
		      const struct fit_outcome *out)
{
	const struct ml_fit_result *r = &out->res;
	char list[400] = "";
	size_t i;

	for (i = 0; i < r->ncombo; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", i == 0 ? "" : i + 1 == r->ncombo ? " and " : ", ",
			 r->combo[i]);
	switch (out->st) {
	case ML_EUNIDENT:
		if (r->ncombo == 0)
			return usage_err(ctx, "free", "these data determine no "
					 "parameter of %s (see the table in "
					 "mcastlat-fit(1))", a->cmd->name);
		if (r->combo_absent)
			return usage_err(ctx, "free", "%s %s not enter these "
					 "data: fix %s", list,
					 r->ncombo > 1 ? "do" : "does",
					 r->ncombo > 1 ? "them" : "it");
		if (r->combo_sum)
			return usage_err(ctx, "free", "%s enter these data "
					 "only as their sum: free one of them",
					 list);
		return usage_err(ctx, "free", "%s enter these data only in a "
				 "fixed combination: free fewer of them (see "
				 "mcastlat-fit(1))", list);
	case ML_ENOCONV:
		ml_err(ctx, "fit: the fit did not converge: %s",
		       r->reason[0] ? r->reason : out->d.msg);
		return ML_EXIT_NOTOK;
	case ML_ENOMEM:
		return usage_err(ctx, NULL, "out of memory");
	default:
		if (out->d.param)
			return usage_err(ctx, NULL, "%s: %s", out->d.param,
					 out->d.msg);
		return usage_err(ctx, NULL, "%s", out->d.msg);
	}
}

static size_t ncombos(const struct fit_args *a)
{
	size_t i, n = 1;

	for (i = 0; i < a->cmd->nopts; i++)
		if (a->given[i] && a->vl[i].count > 1) {
			if (n > FIT_MAX_COMBOS / a->vl[i].count)
				return FIT_MAX_COMBOS + 1;
			n *= a->vl[i].count;
		}
	return n;
}

/* Read every --data file into one set; 0 or the exit status. */
static int read_data(struct ml_ctx *ctx, const struct fit_args *a,
		     struct fd_set *set, size_t *nskip)
{
	char err[512];
	size_t i;

	for (i = 0; i < a->ndata; i++) {
		size_t j;

		/* The same argument twice is most likely a mistake; its
		 * rows are read again all the same, as repeated runs. */
		for (j = 0; j < i; j++)
			if (strcmp(a->data[i], a->data[j]) == 0 &&
			    strcmp(a->data[i], "-") != 0) {
				ml_err(ctx, "fit: note: %s: given twice: its rows "
				       "count twice, as repeated runs",
				       a->data[i]);
				break;
			}
		if (fd_read(set, a->data[i], ctx->in, err, sizeof(err)))
			return usage_err(ctx, "data", "%s", err);
	}
	for (i = 0; i < set->nnotes; i++)
		ml_err(ctx, "fit: note: %s", set->notes[i]);
	for (i = 0; i < set->nbad; i++) {
		if (!a->skip_bad) {
			ml_err(ctx, "fit: %s: %s", set->bad[i].where,
			       set->bad[i].msg);
			return ML_EXIT_USAGE;
		}
		ml_warn(ctx, "fit: %s: %s (skipped)", set->bad[i].where,
			set->bad[i].msg);
	}
	*nskip += set->nbad;
	return 0;
}

/* The fits of every discrete value; the best is printed. */
static int fit_all(struct ml_ctx *ctx, struct fit_args *a,
		   const struct fd_set *set, size_t *nskip, FILE *f)
{
	size_t nc = ncombos(a), c, best = 0;
	struct fit_outcome *outs;
	struct fit_points pts = {0}, bestpts = {0};
	union ml_val *base;
	char extra[4096] = "";
	int rc = 0;

	if (nc > FIT_MAX_COMBOS)
		return usage_err(ctx, NULL, "more than %d combinations of "
				 "listed values to try", FIT_MAX_COMBOS);
	outs = calloc(nc, sizeof(*outs));
	base = calloc(a->cmd->nopts, sizeof(*base));
	if (!outs || !base) {
		free(outs);
		free(base);
		return usage_err(ctx, NULL, "out of memory");
	}
	for (c = 0; c < nc && rc == 0; c++) {
		outs[c].combo = c;
		outs[c].automatic = strcmp(a->free, "auto") == 0;
		if (!outs[c].automatic)
			rc = parse_free(ctx, a, &outs[c]);
		if (rc)
			break;
		copy_base(a, c, base);
		/* The first values' bad rows are reported (or skipped and
		 * counted); a later value under which a row is bad is a
		 * value the data rule out: a # tried: line says so. */
		{
			size_t ignored = 0;

			rc = build_points(ctx, a, set, base, &pts,
					  c == 0 ? nskip : &ignored, c == 0);
		}
		if (rc && c == 0) {
			points_free(&pts);
			break;
		}
		if (rc) {
			rc = 0;
			outs[c].st = ML_EINVAL;
			points_free(&pts);
			continue;
		}
		run_fit(a, &pts, &outs[c]);
		if (c == 0 || (outs[c].st == ML_OK &&
			       (outs[best].st != ML_OK ||
				ml_fit_aic(&outs[c].res) <
				    ml_fit_aic(&outs[best].res)))) {
			best = c;
			points_free(&bestpts);
			bestpts = pts;
			memset(&pts, 0, sizeof(pts));
		}
		points_free(&pts);
	}
	if (rc == 0 && outs[best].st != ML_OK)
		rc = fit_failed(ctx, a, &outs[best]);
	if (rc == 0 && nc > 1) {
		/* The other values, on # lines. */
		for (c = 0; c < nc; c++) {
			char desc[256] = "";
			size_t i;

			copy_base(a, c, base);
			for (i = 0; i < a->cmd->nopts; i++)
				if (a->given[i] && a->vl[i].count > 1) {
					char t[64];

					snprintf(desc + strlen(desc),
						 sizeof(desc) - strlen(desc),
						 "%s%s=%s", *desc ? " " : "",
						 a->cmd->opts[i].name,
						 ml_fit_value_text(
						     &a->cmd->opts[i], base[i],
						     t, sizeof(t)));
				}
			if (outs[c].st == ML_OK)
				snprintf(extra + strlen(extra),
					 sizeof(extra) - strlen(extra),
					 "# tried: %s: rms %.3g %%, chi2 %.6g, "
					 "Akaike weight %.3g%s\n",
					 desc, 100 * outs[c].res.rms_rel,
					 outs[c].res.chi2,
					 akaike_weight(outs, nc, c),
					 c == best ? " (best)" : "");
			else
				snprintf(extra + strlen(extra),
					 sizeof(extra) - strlen(extra),
					 "# tried: %s: %s\n", desc,
					 outs[c].st == ML_EINVAL
					     ? "a data point is outside the "
					       "model"
					     : ml_status_word(outs[c].st));
		}
	}
	if (rc == 0) {
		copy_base(a, best, base);
		{
			size_t i, j;

			/* base carries the fitted values and the zeroed
			 * partners, for --emit and # predict: */
			for (j = 0; j < outs[best].nzeroed; j++) {
				i = find_opt(a->cmd, outs[best].zeroed[j],
					     strlen(outs[best].zeroed[j]));
				if (i < a->cmd->nopts)
					base[i].r = 0;
			}
			for (j = 0; j < outs[best].res.nfree; j++) {
				i = find_opt(a->cmd, outs[best].res.names[j],
					     strlen(outs[best].res.names[j]));
				if (i < a->cmd->nopts)
					base[i].r = outs[best].res.value[j];
			}
			if (ml_fit_print(ctx, f, a, &bestpts, base,
					 &outs[best], extra))
				rc = ML_EXIT_ROWS;
			if (rc == 0 && a->emit && ml_fit_emit(ctx, a, base))
				rc = ML_EXIT_USAGE;
		}
	}
	points_free(&bestpts);
	for (c = 0; c < nc; c++)
		ml_fit_result_free(&outs[c].res);
	free(outs);
	free(base);
	return rc;
}

static void args_free(struct fit_args *a)
{
	size_t i;

	for (i = 0; a->vl && i < a->cmd->nopts; i++)
		ml_vlist_free(&a->vl[i]);
	free(a->vl);
	free(a->given);
	free(a->defaults);
	free(a->data);
}

static int find_model(struct ml_ctx *ctx, const char *name,
		      const struct ml_command **cmd)
{
	const char *names[] = {"cluster", "collective", "hypercube",
			       "kbinomial", "torus"};
	char q[ML_QUOTE_LEN];
	const char *pick;
	size_t i;

	/* the table itself: fit sits below the command table's layer */
	*cmd = NULL;
	for (i = 0; i < ml_ncommands; i++)
		if (strcmp(ml_commands[i]->name, name) == 0)
			*cmd = ml_commands[i];
	if (*cmd && (*cmd)->fit_model)
		return 0;
	if (*cmd)
		return usage_err(ctx, NULL, "%s is a simulator, not a model "
				 "with parameters to fit (fit hypercube to "
				 "its output instead)", name);
	pick = ml_suggest(name, names, 5);
	return usage_err(ctx, NULL, "%s is not a model fit knows%s%s%s "
			 "(cluster, collective, hypercube, kbinomial, "
			 "torus)",
			 ml_quote(q, sizeof(q), name),
			 pick ? " (did you mean " : "", pick ? pick : "",
			 pick ? "?)" : "");
}

int ml_fit_main(int argc, char **argv, struct ml_ctx *ctx)
{
	struct fit_args a = {0};
	struct fd_set set = {0};
	struct ml_outfile of = {0};
	size_t nskip = 0;
	char err[512];
	FILE *f = ctx->out;
	int rc;

	if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		if (argc < 2) {
			ml_err(ctx, "fit: no model given (cluster, hypercube, "
				    "kbinomial or torus)");
			return ML_EXIT_USAGE;
		}
		ml_fit_usage(ctx->out);
		return ML_EXIT_OK;
	}
	rc = find_model(ctx, argv[1], &a.cmd);
	if (rc)
		return rc;
	a.free = "auto";
	a.relative = true;
	a.header = true;
	a.precision = -1;
	a.fmt = ML_FMT_TABLE;
	a.unit_scale = 1;
	rc = parse_args(ctx, &a, argc - 1, argv + 1);
	/* as the other commands: 7 digits in a table, else the shortest
	 * text that reads back as the same double */
	if (a.precision < 0)
		a.precision = a.fmt == ML_FMT_TABLE ? 7 : 0;
	if (rc == 0)
		rc = read_data(ctx, &a, &set, &nskip);
	if (rc == 0 && a.output) {
		if (ml_outfile_open(&of, a.output, err, sizeof(err)))
			rc = usage_err(ctx, "output", "%s", err);
		else
			f = of.f;
	}
	if (rc == 0)
		rc = fit_all(ctx, &a, &set, &nskip, f);
	if (a.output && of.f) {
		if (rc == 0 && ml_outfile_commit(&of, err, sizeof(err)))
			rc = usage_err(ctx, "output", "%s", err);
		else if (rc != 0)
			ml_outfile_abort(&of);
	}
	if (rc == 0 && nskip > 0) {
		ml_warn(ctx, "fit: %zu bad rows skipped", nskip);
		rc = ML_EXIT_ROWS;
	}
	fd_free(&set);
	args_free(&a);
	return rc < 0 ? ML_EXIT_OK : rc;
}
