/*
 * fit_out.c - what `mcastlat fit` prints: the `#` lines (data, fit,
 * boundary, outliers, holdout, the discrete values tried, a ready
 * `# predict:` command), then one row per parameter or, with
 * --residuals, one row per point; and --emit's one-row CSV of the
 * fitted model for --input.  Every number that a later command reads
 * back (--emit, # predict:) is written in the shortest form that reads
 * back as the same double, so the fitted model predicts exactly what
 * the fit printed.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/fit/fit_cmd.h"
#include "cli/engine/outfile.h"
#include "cli/engine/table.h"

/* The shortest %.Ng (N <= 17) that reads back as x. */
static const char *exact(double x, char *buf, size_t len)
{
	int p;

	for (p = 6; p <= 17; p++) {
		snprintf(buf, len, "%.*g", p, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	return buf;
}

const char *ml_fit_value_text(const struct ml_opt *o, union ml_val v,
			      char *buf, size_t len)
{
	long long c;

	switch (o->kind) {
	case ML_OPT_CHOICE:
		c = (o->flags & ML_OPT_INTOK) ? ml_choice_of(v.i) : v.i;
		if (c < 0) {
			snprintf(buf, len, "%lld", v.i);
			return buf;
		}
		snprintf(buf, len, "%s", o->choices[c]);
		return buf;
	case ML_OPT_INT:
	case ML_OPT_FLAG:
		if (v.i == ML_AUTO_INT)
			snprintf(buf, len, "auto");
		else
			snprintf(buf, len, "%lld", v.i);
		return buf;
	case ML_OPT_TEXT:
		snprintf(buf, len, "%s", v.s ? v.s : "");
		return buf;
	case ML_OPT_REAL:
	case ML_OPT_TIME:
		if (isnan(v.r))
			snprintf(buf, len, "auto");
		else
			exact(v.r, buf, len);
		return buf;
	}
	return "";
}

static size_t opt_index(const struct ml_command *cmd, const char *name)
{
	size_t i;

	for (i = 0; i < cmd->nopts; i++)
		if (strcmp(cmd->opts[i].name, name) == 0)
			return i;
	return cmd->nopts;
}

const char *ml_fit_describe(const struct fit_args *a, const union ml_val *v,
			    const bool *stated, char *buf, size_t len)
{
	const struct ml_command *cmd = a->cmd;
	size_t j, i, at = 0;
	char t[64];

	buf[0] = '\0';
	for (j = 0; cmd->fit_inputs && cmd->fit_inputs[j]; j++) {
		i = opt_index(cmd, cmd->fit_inputs[j]);
		if (i == cmd->nopts)
			continue;
		/* what the point does not state (a ping-pong's cluster
		 * size) is no part of it */
		if (stated && !stated[i])
			continue;
		if (at + 1 >= len)
			break;
		at += (size_t)snprintf(buf + at, len - at, "%s%s=%s",
				       at ? " " : "", cmd->opts[i].name,
				       ml_fit_value_text(&cmd->opts[i], v[i], t,
							 sizeof(t)));
		if (at >= len)
			at = len - 1;
	}
	return buf;
}

/* Unit text of a cost: the model's time unit (or --unit), per byte. */
static const char *unit_of(const struct fit_args *a, const struct ml_opt *o,
			   char *buf, size_t len)
{
	const char *tu = a->unit ? a->unit : a->cmd->time_unit;

	if (o->unit && strstr(o->unit, "/byte"))
		snprintf(buf, len, "%s/byte", tu);
	else
		snprintf(buf, len, "%s", tu);
	return buf;
}

/* A cost's value in --unit. */
static double shown(const struct fit_args *a, double x)
{
	return x / a->unit_scale;
}

/* "FILE:LINE (op=bcast msg=8 nodes=16)" of point i. */
static const char *where(const struct fit_args *a, const struct fit_points *p,
			 size_t i, char *buf, size_t len)
{
	char d[256];

	snprintf(buf, len, "%s:%ld (%s)", p->row[i]->file, p->row[i]->line,
		 ml_fit_describe(a, &p->v[i * a->cmd->nopts],
				 &p->stated[i * a->cmd->nopts], d, sizeof(d)));
	return buf;
}

static void put(struct ml_buf *b, const char *s)
{
	ml_buf_put(b, s, strlen(s));
}

static void putf(struct ml_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void putf(struct ml_buf *b, const char *fmt, ...)
{
	char line[2048];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		ml_buf_put(b, line, (size_t)n < sizeof(line) ? (size_t)n
							     : sizeof(line) - 1);
}

static void data_lines(const struct fit_args *a, const struct fit_points *p,
		       struct ml_buf *b)
{
	static const char *const stat_text[] = {
	    "max over ranks for collectives where the file has it, else avg",
	    "avg", "min", "max"};
	size_t i, j;

	/* A file's points are one run: the points are built row by row of
	 * the files in their order (fit_points.c), so a line per run is a
	 * line per --data, in one pass (a scan of the points before each
	 * took seconds on 70,000 points). */
	for (i = 0; i < p->n; i = j) {
		size_t h = 0;

		for (j = i; j < p->n && p->row[j]->file == p->row[i]->file; j++)
			h += !p->use[j];
		putf(b, "# data: %s: %zu points", p->row[i]->file, j - i);
		if (h)
			putf(b, " (%zu held out)", h);
		put(b, "\n");
	}
	putf(b, "# statistic: %s; %s%s\n", stat_text[a->stat],
	     !a->relative ? "weights: 1"
	     : a->logscale ? "residuals: ln(predicted/measured)"
			   : "weights: 1/measured^2",
	     p->has_w ? " times the weight column" : "");
}

/* "2.3 times too low", "1.2 times too high": the miss as a factor,
 * which a relative error of an under-prediction (below 100 %) hides. */
static const char *ratio_text(double measured, double predicted, char *buf,
			      size_t len)
{
	if (predicted > 0 && measured >= predicted)
		snprintf(buf, len, "%.3g times too low", measured / predicted);
	else if (measured > 0)
		snprintf(buf, len, "%.3g times too high", predicted / measured);
	else
		snprintf(buf, len, "no ratio");
	return buf;
}

/*
 * An input that the fitted points state at one value only (broadcasts
 * at one cluster size) while held-out points state others: what the
 * model says between them is its assumption, not a measurement.
 */
static void caution_lines(const struct fit_args *a, const struct fit_points *p,
			  struct ml_buf *b)
{
	const struct ml_command *cmd = a->cmd;
	size_t j, i, k, n = cmd->nopts;

	for (j = 0; cmd->fit_inputs && cmd->fit_inputs[j]; j++) {
		const struct ml_opt *o = NULL;
		bool one = true, seen = false, other = false;
		union ml_val v0 = {0};
		char t[64];

		for (i = 0; i < n && !o; i++)
			if (strcmp(cmd->opts[i].name, cmd->fit_inputs[j]) == 0)
				o = &cmd->opts[i];
		if (!o || (o->kind != ML_OPT_INT && o->kind != ML_OPT_REAL))
			continue;
		i = (size_t)(o - cmd->opts);
		for (k = 0; k < p->n; k++) {
			union ml_val v = p->v[k * n + i];

			if (!p->stated[k * n + i] || !p->use[k])
				continue;
			if (seen && (o->kind == ML_OPT_INT ? v.i != v0.i
							   : v.r != v0.r))
				one = false;
			v0 = v;
			seen = true;
		}
		for (k = 0; seen && one && k < p->n; k++) {
			union ml_val v = p->v[k * n + i];

			if (p->stated[k * n + i] && !p->use[k] &&
			    (o->kind == ML_OPT_INT ? v.i != v0.i : v.r != v0.r))
				other = true;
		}
		if (seen && one && other)
			putf(b, "# caution: the fitted points have %s = %s only: "
				"at the held-out %s the prediction is the model's "
				"extrapolation, not a measured trend\n",
			     o->name, ml_fit_value_text(o, v0, t, sizeof(t)),
			     o->name);
	}
}

static void fit_lines(const struct fit_args *a, const struct fit_points *p,
		      const struct fit_outcome *o, struct ml_buf *b)
{
	const struct ml_fit_result *r = &o->res;
	char w[512], ratio[64];
	size_t i, n = 0;

	put(b, "# free:");
	for (i = 0; i < r->nfree; i++)
		putf(b, "%s %s", i ? "," : "", r->names[i]);
	put(b, o->automatic ? " (--free auto)\n" : "\n");
	if (o->nzeroed) {
		put(b, "# set to 0 (share a fitted quantity, not given):");
		for (i = 0; i < o->nzeroed; i++)
			putf(b, "%s %s", i ? "," : "", o->zeroed[i]);
		put(b, "\n");
	}
	putf(b, "# fit: %zu points, %d degrees of freedom, rms %.3g %%, max "
		"%.3g %% at %s, R^2 %.6g, condition number %.3g%s\n",
	     r->nfit, r->dof, 100 * r->rms_rel, 100 * r->max_rel,
	     where(a, p, r->worst, w, sizeof(w)), r->r2, r->cond,
	     a->robust ? ", robust (bisquare)" : "");
	if (r->nboundary)
		putf(b, "# boundary: %zu points lie within 1 %% of a regime "
			"boundary (eq 2.8 = 2.9, or the two gaps): the "
			"intervals are local to the regimes that hold here\n",
		     r->nboundary);
	for (i = 0; i < p->n; i++)
		if (r->flag[i] && n++ < 20)
			putf(b, "# outlier: %s: studentised residual %.3g, "
				"measured %.6g, predicted %.6g\n",
			     where(a, p, i, w, sizeof(w)), r->stud[i],
			     shown(a, p->y[i]), shown(a, r->pred[i]));
	if (n > 20)
		putf(b, "# outlier: ... and %zu more (see --residuals)\n",
		     n - 20);
	caution_lines(a, p, b);
	if (!isnan(r->lof_p))
		putf(b, "# lack of fit: %zu distinct points, %zu runs: F %.4g "
			"on %ld and %ld degrees of freedom, p %.3g (%s)\n",
		     r->ngroups, r->nfit, r->lof_f, r->lof_df1, r->lof_df2,
		     r->lof_p,
		     r->lof_p < 0.05 ? "the misfit exceeds the runs' spread"
				     : "within the runs' spread");
	else if (r->ngroups < r->nfit)
		putf(b, "# lack of fit: %zu distinct points, %zu runs: no "
			"test (%s)\n",
		     r->ngroups, r->nfit,
		     r->sspe > 0 ? "no degree of freedom left for it"
				 : "the repeated runs agree exactly");
	if (r->nhold) {
		size_t k = r->worst_hold;

		putf(b, "# holdout: %zu points, rms %.3g %%, mean %+.3g %%, max "
			"%.3g %% at %s: measured %.6g, predicted %.6g (%s)\n",
		     r->nhold, 100 * r->hold_rms_rel, 100 * r->hold_mean_rel,
		     100 * r->hold_max_rel, where(a, p, k, w, sizeof(w)),
		     shown(a, p->y[k]), shown(a, r->pred[k]),
		     ratio_text(p->y[k], r->pred[k], ratio, sizeof(ratio)));
	}
	else if (a->nholdout)
		put(b, "# holdout: no point matches\n");
}

/* Whether option i belongs in --emit and # predict: a model option
 * that is not an input of the points. */
static bool emitted(const struct ml_command *cmd, size_t i)
{
	size_t j;

	if (cmd->opts[i].kind == ML_OPT_TEXT ||
	    cmd->opts[i].kind == ML_OPT_FLAG ||
	    (cmd->opts[i].flags & ML_OPT_NOEMIT))
		return false;
	for (j = 0; cmd->fit_inputs && cmd->fit_inputs[j]; j++)
		if (strcmp(cmd->fit_inputs[j], cmd->opts[i].name) == 0)
			return false;
	return true;
}

static void predict_line(const struct fit_args *a, const union ml_val *base,
			 struct ml_buf *b)
{
	const struct ml_command *cmd = a->cmd;
	size_t i;
	char t[64];

	putf(b, "# predict: mcastlat %s", cmd->name);
	for (i = 0; i < cmd->nopts; i++) {
		char d[64];

		if (!emitted(cmd, i))
			continue;
		/* what differs from the defaults, and what was given */
		ml_fit_value_text(&cmd->opts[i], a->defaults[i], d, sizeof(d));
		if (!a->given[i] &&
		    strcmp(d, ml_fit_value_text(&cmd->opts[i], base[i], t,
						sizeof(t))) == 0)
			continue;
		putf(b, " --%s %s", cmd->opts[i].name,
		     ml_fit_value_text(&cmd->opts[i], base[i], t, sizeof(t)));
	}
	put(b, "\n");
}

/*
 * The # lines of b, each cut at spaces to at most 72 columns (the next
 * pieces start with "#   "); the # predict: line's pieces end in " \"
 * so that the lines without their leading "#" are one shell command.
 */
static void wrap_notes(const struct ml_buf *b, struct ml_buf *out)
{
	const char *p = b->p, *end = b->p + b->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		bool shell = len > 10 && strncmp(p, "# predict:", 10) == 0;
		/* 72: the width of a man page's example, and of mail */
		size_t width = shell ? 70 : 72, at = 0;

		while (len - at > width - (at ? 4 : 0)) {
			size_t room = width - (at ? 4 : 0), cut = room;

			while (cut > 0 && p[at + cut] != ' ')
				cut--;
			if (cut == 0)
				break; /* one word longer than a line */
			if (at)
				ml_buf_put(out, "#   ", 4);
			ml_buf_put(out, p + at, cut);
			ml_buf_put(out, shell ? " \\\n" : "\n", shell ? 3 : 1);
			at += cut + 1;
		}
		if (at)
			ml_buf_put(out, "#   ", 4);
		ml_buf_put(out, p + at, len - at);
		ml_buf_put(out, "\n", 1);
		p += len + 1;
	}
}

static int write_out(FILE *f, const struct fit_args *a,
		     const struct ml_outspec *spec, struct ml_buf *rows)
{
	struct ml_table t;
	int rc = 0;

	if (a->fmt != ML_FMT_TABLE)
		return ml_buf_flush(rows, f);
	if (ml_table_init(&t, spec->cols, spec->ncols))
		return -1;
	if (ml_table_feed(&t, rows->p, rows->len, f) ||
	    ml_table_finish(&t, f))
		rc = -1;
	ml_table_free(&t);
	rows->len = 0;
	return rc;
}

static void param_rows(const struct fit_args *a, const union ml_val *base,
		       const struct fit_outcome *o, const struct ml_outspec *s,
		       struct ml_buf *b)
{
	static const char *const st[] = {"fitted", "at-bound", "fixed"};
	const struct ml_command *cmd = a->cmd;
	const struct ml_fit_result *r = &o->res;
	const char *names[2 * ML_FIT_MAXFREE];
	size_t n = ml_fit_param_names(cmd->fit_model, names, 2 * ML_FIT_MAXFREE),
	       i, j, k;
	char u[32];

	for (k = 0; k < 2; k++)
		for (j = 0; j < (k == 0 ? r->nfree : n); j++) {
			const char *name = k == 0 ? r->names[j] : names[j];
			struct ml_cell c[7];
			bool is_free = k == 0;

			for (i = 0; k == 1 && i < r->nfree; i++)
				if (strcmp(r->names[i], name) == 0)
					break;
			if (k == 1 && i < r->nfree)
				continue;
			i = opt_index(cmd, name);
			if (i == cmd->nopts)
				continue;
			c[0] = (struct ml_cell){ML_CELL_TEXT, {.s = name}, 0};
			c[1] = (struct ml_cell){
			    ML_CELL_REAL,
			    {.r = shown(a, is_free ? r->value[j] : base[i].r)},
			    0};
			c[2] = (struct ml_cell){
			    ML_CELL_REAL, {.r = is_free ? shown(a, r->se[j]) : NAN},
			    0};
			/* the parameter is >= 0: so is the interval */
			c[3] = (struct ml_cell){
			    ML_CELL_REAL,
			    {.r = is_free ? shown(a, fmax(r->lo[j], 0)) : NAN},
			    0};
			c[4] = (struct ml_cell){
			    ML_CELL_REAL, {.r = is_free ? shown(a, r->hi[j]) : NAN},
			    0};
			c[5] = (struct ml_cell){
			    ML_CELL_TEXT,
			    {.s = unit_of(a, &cmd->opts[i], u, sizeof(u))},
			    0};
			c[6] = (struct ml_cell){
			    ML_CELL_TEXT,
			    {.s = st[is_free ? r->status[j] : ML_FIT_FIXED]}, 0};
			ml_out_row(s, c, b);
		}
}

static void residual_rows(const struct fit_args *a, const struct fit_points *p,
			  const struct fit_outcome *o,
			  const struct ml_outspec *s, size_t nin,
			  const size_t *in, struct ml_buf *b)
{
	const struct ml_fit_result *r = &o->res;
	struct ml_cell *c = calloc(nin + 7, sizeof(*c));
	char (*txt)[64] = calloc(nin + 1, sizeof(*txt));
	size_t i, j;

	if (!c || !txt) {
		b->oom = true;
		free(c);
		free(txt);
		return;
	}
	for (i = 0; i < p->n; i++) {
		const union ml_val *v = &p->v[i * a->cmd->nopts];

		snprintf(txt[nin], sizeof(txt[nin]), "%s:%ld", p->row[i]->file,
			 p->row[i]->line);
		c[0] = (struct ml_cell){ML_CELL_TEXT, {.s = txt[nin]}, 0};
		for (j = 0; j < nin; j++) {
			const struct ml_opt *op = &a->cmd->opts[in[j]];

			ml_fit_value_text(op, v[in[j]], txt[j], sizeof(txt[j]));
			/* an input the point does not state: empty */
			if (!p->stated[i * a->cmd->nopts + in[j]])
				txt[j][0] = '\0';
			if (op->kind == ML_OPT_CHOICE || txt[j][0] == '\0' ||
			    strcmp(txt[j], "auto") == 0)
				c[1 + j] = (struct ml_cell){ML_CELL_TEXT,
							    {.s = txt[j]}, 0};
			else
				c[1 + j] = (struct ml_cell){
				    ML_CELL_RAW, {.s = txt[j]}, strlen(txt[j])};
		}
		c[nin + 1] = (struct ml_cell){ML_CELL_REAL,
					      {.r = shown(a, p->y[i])}, 0};
		c[nin + 2] = (struct ml_cell){ML_CELL_REAL,
					      {.r = shown(a, r->pred[i])}, 0};
		c[nin + 3] = (struct ml_cell){ML_CELL_REAL,
					      {.r = shown(a, r->resid[i])}, 0};
		c[nin + 4] = (struct ml_cell){ML_CELL_REAL, {.r = r->rel[i]}, 0};
		c[nin + 5] = (struct ml_cell){
		    ML_CELL_TEXT, {.s = p->use[i] ? "fit" : "holdout"}, 0};
		c[nin + 6] = (struct ml_cell){
		    ML_CELL_TEXT, {.s = r->flag[i] ? "outlier" : ""}, 0};
		ml_out_row(s, c, b);
	}
	free(c);
	free(txt);
}

int ml_fit_print(struct ml_ctx *ctx, FILE *f, const struct fit_args *a,
		 const struct fit_points *pts, const union ml_val *base,
		 const struct fit_outcome *out, const char *extra)
{
	static const struct ml_outcol pcols[] = {
	    {.name = "parameter", .left = true}, {.name = "value"},
	    {.name = "stderr"},			 {.name = "ci_low"},
	    {.name = "ci_high"},		 {.name = "unit", .left = true},
	    {.name = "status", .left = true}};
	const struct ml_command *cmd = a->cmd;
	struct ml_outcol *rcols = NULL;
	struct ml_outspec spec = {a->fmt, a->precision, a->header, pcols, 7};
	struct ml_buf notes = {0}, rows = {0};
	size_t in[32], nin = 0, i, j;
	char tu[3][40];
	int rc = 0;

	data_lines(a, pts, &notes);
	fit_lines(a, pts, out, &notes);
	put(&notes, extra);
	predict_line(a, base, &notes);
	if (a->residuals) {
		for (j = 0; cmd->fit_inputs && cmd->fit_inputs[j] && nin < 32;
		     j++) {
			i = opt_index(cmd, cmd->fit_inputs[j]);
			if (i < cmd->nopts)
				in[nin++] = i;
		}
		rcols = calloc(nin + 7, sizeof(*rcols));
		if (!rcols)
			return -1;
		rcols[0] = (struct ml_outcol){.name = "source", .left = true};
		for (j = 0; j < nin; j++)
			rcols[1 + j] = (struct ml_outcol){
			    .name = cmd->opts[in[j]].name,
			    .left = cmd->opts[in[j]].kind == ML_OPT_CHOICE};
		/* a time in another unit than the model's says so in its
		 * name, as every command's columns do: measured[ns] */
		for (j = 0; j < 3; j++) {
			static const char *const tn[] = {"measured",
							 "predicted",
							 "residual"};

			if (a->unit && strcmp(a->unit, cmd->time_unit) != 0)
				snprintf(tu[j], sizeof(tu[j]), "%s[%s]", tn[j],
					 a->unit);
			else
				snprintf(tu[j], sizeof(tu[j]), "%s", tn[j]);
			rcols[nin + 1 + j] = (struct ml_outcol){.name = tu[j]};
		}
		rcols[nin + 4] = (struct ml_outcol){.name = "rel_error"};
		rcols[nin + 5] =
		    (struct ml_outcol){.name = "set", .left = true};
		rcols[nin + 6] =
		    (struct ml_outcol){.name = "flag", .left = true};
		spec.cols = rcols;
		spec.ncols = nin + 7;
	}
	/* JSON Lines holds only rows: the # lines go to stderr there. */
	{
		struct ml_buf wrapped = {0};

		wrap_notes(&notes, &wrapped);
		if (a->fmt == ML_FMT_JSON) {
			if (ml_buf_flush(&wrapped, ctx->err))
				rc = -1;
		} else {
			ml_buf_put(&rows, wrapped.p, wrapped.len);
		}
		notes.oom |= wrapped.oom;
		ml_buf_free(&wrapped);
	}
	/* a table aligns the rows; the # lines pass through it */
	ml_out_header(&spec, &rows);
	if (a->residuals)
		residual_rows(a, pts, out, &spec, nin, in, &rows);
	else
		param_rows(a, base, out, &spec, &rows);
	if (rows.oom || notes.oom)
		rc = -1;
	if (rc == 0 && write_out(f, a, &spec, &rows))
		rc = -1;
	if (rc)
		ml_err(ctx, "fit: write error");
	ml_buf_free(&notes);
	ml_buf_free(&rows);
	free(rcols);
	return rc;
}

/* The fitted broadcasts of pts as "# measured: " lines (ml_fit_emit). */
static void emit_measured(FILE *f, const struct fit_args *a,
			  const struct fit_points *pts)
{
	const struct ml_command *cmd = a->cmd;
	size_t i, j, k, n = 0, col[64];
	char t[64];
	bool head = false;

	if (!cmd->fit_collective || !cmd->fit_inputs || !pts)
		return;
	for (j = 0; cmd->fit_inputs[j] && n < 64; j++) {
		k = ml_fit_find_opt(cmd, cmd->fit_inputs[j],
				    strlen(cmd->fit_inputs[j]));
		if (k < cmd->nopts)
			col[n++] = k;
	}
	for (i = 0; i < pts->n; i++) {
		const union ml_val *v = &pts->v[i * cmd->nopts];

		if (!pts->use[i] || !cmd->fit_collective(v))
			continue;
		if (!head) {
			fprintf(f, "# measured: ");
			for (j = 0; j < n; j++)
				fprintf(f, "%s,", cmd->opts[col[j]].name);
			fprintf(f, "latency,latency_avg\n");
			head = true;
		}
		fprintf(f, "# measured: ");
		for (j = 0; j < n; j++)
			fprintf(f, "%s,", ml_fit_value_text(&cmd->opts[col[j]],
							    v[col[j]], t,
							    sizeof(t)));
		/* the measured column: latency_avg (a mean over ranks) or
		 * latency, the other empty */
		if (pts->mean && pts->mean[i])
			fprintf(f, ",%.17g\n", pts->y[i]);
		else
			fprintf(f, "%.17g,\n", pts->y[i]);
	}
}

int ml_fit_emit(struct ml_ctx *ctx, const struct fit_args *a,
		const union ml_val *base, const struct fit_points *pts)
{
	const struct ml_command *cmd = a->cmd;
	struct ml_outfile of;
	char err[512], t[64];
	size_t i, n = 0;

	if (ml_outfile_open(&of, a->emit, err, sizeof(err))) {
		ml_err(ctx, "fit: --emit: %s", err);
		return -1;
	}
	for (i = 0; i < cmd->nopts; i++)
		if (emitted(cmd, i))
			fprintf(of.f, "%s%s", n++ ? "," : "", cmd->opts[i].name);
	fputc('\n', of.f);
	n = 0;
	for (i = 0; i < cmd->nopts; i++)
		if (emitted(cmd, i))
			fprintf(of.f, "%s%s", n++ ? "," : "",
				ml_fit_value_text(&cmd->opts[i], base[i], t,
						  sizeof(t)));
	fputc('\n', of.f);
	emit_measured(of.f, a, pts);
	if (ml_outfile_commit(&of, err, sizeof(err))) {
		ml_err(ctx, "fit: --emit: %s", err);
		return -1;
	}
	return 0;
}
