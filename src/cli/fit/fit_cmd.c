/*
 * fit_cmd.c - `mcastlat fit MODEL --data FILE...`: the command line, the
 * measurements turned into points of the model, and the fits (one per
 * value of a discrete option given as a list; the lowest residual
 * wins).  This file owns the fits and the command's main; the command
 * line is fit_args.c's, the data to points fit_points.c's.  The fitting itself is the library's (mcastlat/fit.h); the
 * files are read by fitdata.c and the read_*.c readers; what is printed
 * is fit_out.c's.
 */
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/columns.h"
#include "cli/engine/commands.h"
#include "cli/fit/fit_cmd.h"
#include "cli/engine/outfile.h"
#include "cli/engine/progress.h"
#include "cli/meta/suggest.h"

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
		i = ml_fit_find_opt(cmd, name, strlen(name));
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
				return ml_fit_usage_err(ctx, "free", "'%s' is not a "
						 "cost %s can fit (did you mean "
						 "%s?)", name, cmd->name, pick);
			return ml_fit_usage_err(ctx, "free", "'%s' is not a cost %s "
					 "can fit (%s, or auto)", name,
					 cmd->name, list);
		}
		if (a->given[i])
			return ml_fit_usage_err(ctx, "free", "%s is fixed on the "
					 "command line (--%s): free it or fix "
					 "it, not both", f, f);
		if (out->nfree == ML_FIT_MAXFREE)
			return ml_fit_usage_err(ctx, "free", "more than %d parameters",
					 ML_FIT_MAXFREE);
		out->freeset[out->nfree++] = f;
		s += len;
		if (*s == ',')
			s++;
	}
	if (out->nfree == 0)
		return ml_fit_usage_err(ctx, "free", "no parameter named");
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

/* ", forward rms X %" of a fit with an error model, else "". */
static const char *fwd_text(const struct fit_outcome *o, char *buf,
			    size_t len)
{
	if (!o->has_err || !isfinite(o->err.fwd_rms))
		return "";
	snprintf(buf, len, ", forward rms %.3g %%", 100 * o->err.fwd_rms);
	return buf;
}

/* The error model's options into base (--emit, # predict:), its # line
 * into extra. */
static void set_err(const struct fit_args *a, const struct ml_fit_errout *e,
		    union ml_val *base, char *extra, size_t len)
{
	size_t j, i, n = strlen(extra);

	for (j = 0; j < e->nset; j++) {
		const struct ml_opt *o;

		i = ml_fit_find_opt(a->cmd, e->names[j], strlen(e->names[j]));
		if (i >= a->cmd->nopts)
			continue;
		o = &a->cmd->opts[i];
		if (o->kind == ML_OPT_INT)
			base[i].i = (long long)e->vals[j];
		else
			base[i].r = e->vals[j];
	}
	snprintf(extra + n, len - n, "%s", e->note);
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

/* The command's mechanism (its index in fit_mechanisms) that free
 * parameter name belongs to, or -1: an entry ending in '*' holds every
 * parameter that starts with the rest (eager-byte-* is one mechanism,
 * kept or dropped on all channels at once). */
static int mechanism_of(const struct ml_command *cmd, const char *name)
{
	size_t i, n;
	const char *m;

	for (i = 0; (m = cmd->fit_mechanisms[i]); i++) {
		n = strlen(m);
		if (n > 0 && m[n - 1] == '*' ? strncmp(m, name, n - 1) == 0
					    : strcmp(m, name) == 0)
			return (int)i;
	}
	return -1;
}

/*
 * The progress line of a fit (--progress): the library's fits counted
 * as they start (ml_fit_options.on_fit), against an estimate of how
 * many there will be, refined as each stage ends, and what is being
 * done now.  A collective fit runs the engine once a point per
 * iteration, dozens of fits in all: minutes on a large dataset.
 */
struct fit_prog {
	struct ml_progress pg;
	unsigned long long started; /* fits begun */
	unsigned long long later;   /* estimated for the values after this */
	unsigned long long cuts;    /* fits of the last error model */
	char value[64];		    /* "value 2 of 3: ", or "" */
	char stage[128];
};

static void fit_started(void *arg)
{
	struct fit_prog *fp = arg;

	fp->started++;
	ml_progress_update_point(&fp->pg, fp->started - 1, fp->stage);
}

/* Now doing what fmt says; about `more` fits are left after it began
 * (the estimate replaces the last). */
static void fit_stage(struct fit_prog *fp, unsigned long long more,
		      const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fit_stage(struct fit_prog *fp, unsigned long long more,
		      const char *fmt, ...)
{
	va_list ap;
	size_t n = (size_t)snprintf(fp->stage, sizeof fp->stage, "%s",
				    fp->value);

	va_start(ap, fmt);
	if (n < sizeof fp->stage)
		vsnprintf(fp->stage + n, sizeof fp->stage - n, fmt, ap);
	va_end(ap);
	fp->pg.total = fp->started + more + fp->later;
	ml_progress_point(&fp->pg, 0, fp->stage);
}

/* The fits of an error model (its forward cuts), and of --free auto
 * (at most a trial per carrier), for the estimate. */
#define EST_CUTS ML_COLL_ERR_MAXCUTS
static unsigned long long est_variant_fits(const struct ml_command *cmd)
{
	size_t n = 0;

	while (cmd->fit_mechanisms && cmd->fit_mechanisms[n])
		n++;
	return cmd->fit_errmodel ? ((1ull << n) - 1) * (1 + EST_CUTS) : 0;
}

static unsigned long long est_fits(const struct ml_command *cmd,
				   bool automatic)
{
	const char *names[2 * ML_FIT_MAXFREE];
	size_t np = ml_fit_param_names(cmd->fit_model, names,
				       2 * ML_FIT_MAXFREE);

	return (automatic ? np : 0) + 1 +
	       (cmd->fit_errmodel ? EST_CUTS : 0) +
	       (automatic ? est_variant_fits(cmd) : 0);
}

/* One variant of the free set: out's less the mechanisms of bits in
 * drop (bit g: the free parameters j with grp[j] == g), those held at 0
 * in a copy of the points.  *v receives its fit and error model; ML_OK
 * or the fit's status. */
static enum ml_status fit_variant(const struct fit_args *a,
				  const struct ml_fit_data *data,
				  const struct ml_fit_options *o,
				  const struct fit_outcome *out,
				  const int *grp, unsigned drop,
				  void **pts, struct fit_outcome *v)
{
	const struct ml_fit_model *m = a->cmd->fit_model;
	size_t size = ml_fit_params_size(m), i, j, n = 0;
	struct ml_fit_data sub = *data;
	enum ml_status st;

	*v = *out;
	memset(&v->res, 0, sizeof v->res);
	*pts = malloc(data->n * size + 1);
	if (!*pts)
		return ML_ENOMEM;
	memcpy(*pts, data->points, data->n * size);
	for (j = 0; j < out->nfree; j++) {
		if (grp[j] < 0 || !(drop >> grp[j] & 1u)) {
			v->freeset[n++] = out->freeset[j];
			continue;
		}
		for (i = 0; i < data->n; i++)
			ml_fit_set(m, (char *)*pts + i * size, out->freeset[j],
				   0);
	}
	v->nfree = n;
	sub.points = *pts;
	st = ml_fit(m, &sub, v->freeset, v->nfree, o, &v->res, &v->d);
	if (st == ML_OK && a->cmd->fit_errmodel(&sub, v->freeset, v->nfree, o,
						&v->res, &v->err)) {
		ml_fit_result_free(&v->res);
		st = ML_ENOMEM;
	}
	return st;
}

/*
 * --free auto with an error model: each mechanism of the free set is
 * kept only where the forward validation predicts better with it
 * (SPEC 10.5: chosen for prediction, not for fit).  Every subset of the
 * mechanisms is tried; the lowest forward rms wins, where it is lower
 * by more than MECH_MARGIN (a mechanism the forward cuts cannot see,
 * such as NIC queues where the cuts hold one node, ties: it stays as
 * the whole fit determined it).
 * The winner replaces *out; its dropped mechanisms join out->zeroed
 * (held at 0 in the points and in --emit).  A # mechanisms line says
 * what each variant predicted.
 */
#define MECH_MARGIN 0.005 /* relative */

static void choose_mechanisms(const struct fit_args *a, struct fit_points *p,
			      const struct ml_fit_data *data,
			      const struct ml_fit_options *o,
			      struct fit_outcome *out, struct fit_prog *fp)
{
	int grp[ML_FIT_MAXFREE], gmech[8];
	size_t ng = 0, j, i, len;
	unsigned drop, best = 0, nvar;
	double best_rms = out->err.fwd_rms;
	char line[512];
	void *best_pts = NULL;
	struct fit_outcome v, win;

	for (j = 0; j < out->nfree; j++) {
		int m = mechanism_of(a->cmd, out->freeset[j]);

		for (i = 0; i < ng && gmech[i] != m; i++)
			;
		if (m >= 0 && i == ng && ng < 8)
			gmech[ng++] = m;
		grp[j] = m >= 0 && i < ng ? (int)i : -1;
	}
	if (ng == 0)
		return;
	nvar = 1u << ng;
	len = (size_t)snprintf(line, sizeof line,
			       "# mechanisms: forward rms %.3g with all",
			       out->err.fwd_rms);
	for (drop = 1; drop < nvar; drop++) {
		void *pts = NULL;
		enum ml_status st;

		fit_stage(fp, (nvar - drop) * (1 + fp->cuts),
			  "mechanisms, variant %u of %u", drop, nvar - 1);
		st = fit_variant(a, data, o, out, grp, drop, &pts, &v);

		if (len < sizeof line) {
			len += (size_t)snprintf(line + len, sizeof line - len,
						"; without");
			for (i = 0; i < ng && len < sizeof line; i++)
				if (drop >> i & 1u)
					len += (size_t)snprintf(
					    line + len, sizeof line - len, " %s",
					    a->cmd->fit_mechanisms[gmech[i]]);
			if (len < sizeof line)
				len += (size_t)snprintf(
				    line + len, sizeof line - len, " %.3g",
				    st == ML_OK ? v.err.fwd_rms : NAN);
		}
		if (st == ML_OK && isfinite(v.err.fwd_rms) &&
		    v.err.fwd_rms < best_rms * (1 - MECH_MARGIN)) {
			if (best)
				ml_fit_result_free(&win.res);
			free(best_pts);
			best = drop;
			best_rms = v.err.fwd_rms;
			win = v;
			best_pts = pts;
		} else {
			if (st == ML_OK)
				ml_fit_result_free(&v.res);
			free(pts);
		}
	}
	if (best) {
		size_t size = ml_fit_params_size(a->cmd->fit_model);

		for (j = 0; j < out->nfree; j++) {
			size_t k;

			if (grp[j] < 0 || !(best >> grp[j] & 1u))
				continue;
			win.zeroed[win.nzeroed++] = out->freeset[j];
			k = ml_fit_find_opt(a->cmd, out->freeset[j],
					    strlen(out->freeset[j]));
			for (i = 0; i < p->n && k < a->cmd->nopts; i++)
				p->v[i * a->cmd->nopts + k].r = 0;
		}
		memcpy(p->params, best_pts, p->n * size);
		ml_fit_result_free(&out->res);
		*out = win;
	}
	free(best_pts);
	len = strlen(out->err.note);
	snprintf(out->err.note + len, sizeof out->err.note - len, "%s%s\n",
		 line, best ? " (kept: the lowest)" : " (kept: all)");
}

static void run_fit(const struct fit_args *a, struct fit_points *p,
		    struct fit_outcome *out, struct fit_prog *fp)
{
	struct ml_fit_options o;
	struct ml_fit_data data = {p->params, p->n,	 p->y,
				   p->has_w ? p->w : NULL, p->use, p->group};
	const char *given[64];
	size_t ng = given_names(a, given), i, j;
	unsigned long long mech = out->automatic
				      ? est_variant_fits(a->cmd) : 0;
	ml_fit_options_init(&o);
	o.relative = a->relative;
	o.logscale = a->logscale;
	o.robust = a->robust;
	o.threads = a->jobs ? a->jobs : 1;
	o.on_fit = fit_started;
	o.on_fit_arg = fp;
	if (out->automatic) {
		fit_stage(fp, est_fits(a->cmd, true), "choosing the free set");
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
				size_t k = ml_fit_find_opt(a->cmd, out->zeroed[j],
						    strlen(out->zeroed[j]));

				if (k < a->cmd->nopts)
					p->v[i * a->cmd->nopts + k].r = 0;
			}
		if (out->st != ML_OK)
			return;
	}
	fit_stage(fp, 1 + (a->cmd->fit_errmodel ? EST_CUTS : 0) + mech,
		  "fitting %zu parameters", out->nfree);
	out->st = ml_fit(a->cmd->fit_model, &data, out->freeset, out->nfree,
			 &o, &out->res, &out->d);
	if (out->st == ML_OK && a->cmd->fit_errmodel) {
		unsigned long long before = fp->started;

		out->has_err = true;
		fit_stage(fp, EST_CUTS + mech,
			  "error model, forward validation");
		if (a->cmd->fit_errmodel(&data, out->freeset, out->nfree, &o,
					 &out->res, &out->err)) {
			ml_fit_result_free(&out->res);
			out->st = ML_ENOMEM;
		}
		fp->cuts = fp->started - before;
	}
	/* A mechanism is dropped on the word of two forward fits at least:
	 * one extrapolation is too little (EPYC fitted on P <= 20, judged
	 * by one fit of P <= 8, dropped the sender's overhead, and its
	 * picks of a linear fallback were then 4 times slower at P = 128). */
	if (out->st == ML_OK && out->automatic && out->has_err &&
	    a->cmd->fit_mechanisms && isfinite(out->err.fwd_rms) &&
	    out->err.nfwdfits >= 2)
		choose_mechanisms(a, p, &data, &o, out, fp);
}

/* Is fit c better than fit b?  By the error of forward validation where
 * both have one (predictions, not fit: SPEC 10.5), else by AIC. */
static bool better(const struct fit_outcome *c, const struct fit_outcome *b)
{
	if (c->st != ML_OK)
		return false;
	if (b->st != ML_OK)
		return true;
	if (c->has_err && b->has_err && isfinite(c->err.fwd_rms) &&
	    isfinite(b->err.fwd_rms))
		return c->err.fwd_rms < b->err.fwd_rms;
	return ml_fit_aic(&c->res) < ml_fit_aic(&b->res);
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
			return ml_fit_usage_err(ctx, "free", "these data determine no "
					 "parameter of %s (see the table in "
					 "mcastlat-fit(1))", a->cmd->name);
		if (r->combo_absent)
			return ml_fit_usage_err(ctx, "free", "%s %s not enter these "
					 "data: fix %s", list,
					 r->ncombo > 1 ? "do" : "does",
					 r->ncombo > 1 ? "them" : "it");
		if (r->combo_sum)
			return ml_fit_usage_err(ctx, "free", "%s enter these data "
					 "only as their sum: free one of them",
					 list);
		return ml_fit_usage_err(ctx, "free", "%s enter these data only in a "
				 "fixed combination: free fewer of them (see "
				 "mcastlat-fit(1))", list);
	case ML_ENOCONV:
		ml_err(ctx, "fit: the fit did not converge: %s",
		       r->reason[0] ? r->reason : out->d.msg);
		return ML_EXIT_NOTOK;
	case ML_ENOMEM:
		return ml_fit_usage_err(ctx, NULL, "out of memory");
	default:
		if (out->d.param)
			return ml_fit_usage_err(ctx, NULL, "%s: %s", out->d.param,
					 out->d.msg);
		return ml_fit_usage_err(ctx, NULL, "%s", out->d.msg);
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
			return ml_fit_usage_err(ctx, "data", "%s", err);
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
	struct fit_prog fp = {0};
	union ml_val *base;
	char extra[4096] = "";
	int rc = 0;

	if (nc > FIT_MAX_COMBOS)
		return ml_fit_usage_err(ctx, NULL, "more than %d combinations of "
				 "listed values to try", FIT_MAX_COMBOS);
	outs = calloc(nc, sizeof(*outs));
	base = calloc(a->cmd->nopts, sizeof(*base));
	if (!outs || !base) {
		free(outs);
		free(base);
		return ml_fit_usage_err(ctx, NULL, "out of memory");
	}
	ml_progress_start(&fp.pg, ctx->err, a->progress, 0);
	fp.pg.unit = "fits";
	fp.pg.label = "now";
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

			rc = ml_fit_build_points(ctx, a, set, base, &pts,
					  c == 0 ? nskip : &ignored, c == 0);
		}
		if (rc && c == 0) {
			ml_fit_points_free(&pts);
			break;
		}
		if (rc) {
			rc = 0;
			outs[c].st = ML_EINVAL;
			ml_fit_points_free(&pts);
			continue;
		}
		fp.later = (nc - c - 1) * est_fits(a->cmd, outs[c].automatic);
		if (nc > 1)
			snprintf(fp.value, sizeof fp.value,
				 "value %zu of %zu: ", c + 1, nc);
		run_fit(a, &pts, &outs[c], &fp);
		if (c == 0 || better(&outs[c], &outs[best])) {
			best = c;
			ml_fit_points_free(&bestpts);
			bestpts = pts;
			memset(&pts, 0, sizeof(pts));
		}
		ml_fit_points_free(&pts);
	}
	ml_progress_end(&fp.pg);
	if (rc == 0 && outs[best].st != ML_OK)
		rc = fit_failed(ctx, a, &outs[best]);
	if (rc == 0 && nc > 1) {
		/* The other values, on # lines. */
		for (c = 0; c < nc; c++) {
			char desc[256] = "", fwd[64];
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
					 "Akaike weight %.3g%s%s\n",
					 desc, 100 * outs[c].res.rms_rel,
					 outs[c].res.chi2,
					 akaike_weight(outs, nc, c),
					 fwd_text(&outs[c], fwd, sizeof fwd),
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
				i = ml_fit_find_opt(a->cmd, outs[best].zeroed[j],
					     strlen(outs[best].zeroed[j]));
				if (i < a->cmd->nopts)
					base[i].r = 0;
			}
			for (j = 0; j < outs[best].res.nfree; j++) {
				i = ml_fit_find_opt(a->cmd, outs[best].res.names[j],
					     strlen(outs[best].res.names[j]));
				if (i < a->cmd->nopts)
					base[i].r = outs[best].res.value[j];
			}
			if (outs[best].has_err)
				set_err(a, &outs[best].err, base, extra,
					sizeof extra);
			if (ml_fit_print(ctx, f, a, &bestpts, base,
					 &outs[best], extra))
				rc = ML_EXIT_ROWS;
			if (rc == 0 && a->emit && ml_fit_emit(ctx, a, base, &bestpts))
				rc = ML_EXIT_USAGE;
		}
	}
	ml_fit_points_free(&bestpts);
	for (c = 0; c < nc; c++)
		ml_fit_result_free(&outs[c].res);
	free(outs);
	free(base);
	return rc;
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
		return ml_fit_usage_err(ctx, NULL, "%s is a simulator, not a model "
				 "with parameters to fit (fit hypercube to "
				 "its output instead)", name);
	pick = ml_suggest(name, names, 5);
	return ml_fit_usage_err(ctx, NULL, "%s is not a model fit knows%s%s%s "
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
	a.logscale = false;
	a.header = true;
	a.precision = -1;
	a.jobs = 1;
	a.progress = -1;
	a.fmt = ML_FMT_TABLE;
	a.unit_scale = 1;
	rc = ml_fit_parse_args(ctx, &a, argc - 1, argv + 1);
	/* as the other commands: 7 digits in a table, else the shortest
	 * text that reads back as the same double */
	if (a.precision < 0)
		a.precision = a.fmt == ML_FMT_TABLE ? 7 : 0;
	if (rc == 0)
		rc = read_data(ctx, &a, &set, &nskip);
	if (rc == 0 && a.output) {
		if (ml_outfile_open(&of, a.output, err, sizeof(err)))
			rc = ml_fit_usage_err(ctx, "output", "%s", err);
		else
			f = of.f;
	}
	if (rc == 0)
		rc = fit_all(ctx, &a, &set, &nskip, f);
	if (a.output && of.f) {
		if (rc == 0 && ml_outfile_commit(&of, err, sizeof(err)))
			rc = ml_fit_usage_err(ctx, "output", "%s", err);
		else if (rc != 0)
			ml_outfile_abort(&of);
	}
	if (rc == 0 && nskip > 0) {
		ml_warn(ctx, "fit: %zu bad rows skipped", nskip);
		rc = ML_EXIT_ROWS;
	}
	fd_free(&set);
	ml_fit_args_free(&a);
	return rc < 0 ? ML_EXIT_OK : rc;
}
