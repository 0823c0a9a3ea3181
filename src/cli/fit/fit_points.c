/*
 * fit_points.c - the measurements of `mcastlat fit` turned into points
 * of the model: each row's key=value inputs applied to the options'
 * values (the operation, aliases, units), the measured value per
 * --stat, --holdout, and repeated points merged by a hash of their
 * values.  Called by fit_cmd.c; calls fit_args.c's helpers.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/columns.h"
#include "cli/fit/fit_cmd.h"
#include "cli/meta/suggest.h"

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
	i = ml_fit_find_opt(cmd, cmd->fit_pair, strlen(cmd->fit_pair));
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

	i = ml_fit_find_opt(cmd, key, len);
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
				 ml_fit_stat_names[a->stat]);
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

void ml_fit_points_free(struct fit_points *p)
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
int ml_fit_build_points(struct ml_ctx *ctx, const struct fit_args *a,
			const struct fd_set *set, const union ml_val *base,
			struct fit_points *p, size_t *nskip, bool report)
{
	const struct ml_command *cmd = a->cmd;
	size_t nopts = cmd->nopts, psize = ml_fit_params_size(cmd->fit_model);
	size_t i, j, k;
	bool *stated = calloc(nopts, sizeof(bool));
	/* a row's op column is this command's --op, or a benchmark's (op=p2p,
	 * op=bcast) read by apply_op */
	bool own_op = ml_fit_find_opt(cmd, "op", 2) < cmd->nopts;
	union ml_val *cells = calloc(cmd->ncols + 1, sizeof(*cells));
	struct seen seen = {0};
	enum ml_status st;
	char err[400], text[ML_TEXT_MAX];
	const char *note = NULL;
	size_t nnote = 0;
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
		return ml_fit_usage_err(ctx, NULL, "out of memory");
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
		 * (a saturated hypercube) cannot be fitted either.  A
		 * repeated run (its inputs seen before, in a point kept)
		 * has its first run's answer: asked once per distinct
		 * point (the collective model: an engine run each, a
		 * quarter of a large fit's time when asked for every run). */
		j = ok ? seen_find(&seen, cmd, p->v, v) : SIZE_MAX;
		if (ok && j >= p->n && (st = cmd->eval(&pt, cells)) != ML_OK) {
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
		 * are different points of the collective model.  j is the
		 * lookup above: nothing was added to the table since. */
		if (j == SIZE_MAX) {
			rc = ml_fit_usage_err(ctx, NULL, "out of memory");
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
		if (cmd->fit_note && (op = cmd->fit_note(v, stated))) {
			note = op;
			nnote++;
		}
	}
	if (report && nnote)
		ml_warn(ctx, "fit: %zu point%s: %s", nnote,
			nnote == 1 ? "" : "s", note);
	free(stated);
	free(cells);
	free(seen.slot);
	if (rc == 0 && p->n == 0)
		rc = ml_fit_usage_err(ctx, "data", "no valid data point");
	for (i = 0; rc == 0 && i < p->n && !p->use[i]; i++)
		;
	if (rc == 0 && i == p->n)
		rc = ml_fit_usage_err(ctx, "holdout", "every point is held out: "
			       "nothing is left to fit");
	return rc;
}
