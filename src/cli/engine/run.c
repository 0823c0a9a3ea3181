/*
 * run.c - the engine's driver, shared by every command: parse the command
 * line (args.c), choose the columns (columns.c), then run the sweep of
 * the command line (sweep.c) or the rows of an --input file (batch.c).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/engine/args.h"
#include "cli/engine/batch.h"
#include "cli/engine/columns.h"
#include "cli/engine/outfile.h"
#include "cli/engine/run.h"
#include "cli/engine/sweep.h"
#include "mcastlat.h"


static void free_vlists(struct ml_vlist *vl, size_t n)
{
	size_t i;

	for (i = 0; vl && i < n; i++)
		ml_vlist_free(&vl[i]);
	free(vl);
}

static int run_sweep(struct run *r, const struct ml_vlist *const *vlp,
		     const union ml_val *base, const size_t *order,
		     size_t norder, struct sink *sk)
{
	size_t *dims = calloc(norder + 1, sizeof(*dims)), nd;
	unsigned long long total, lo, hi;
	struct ml_diag dg = {NULL, ""};
	struct ml_buf hb = {0};
	struct sweep sw;
	int rc = ML_EXIT_OK;

	if (dims == NULL)
		return ml_usage_err(r->ctx, r->cmd->name, NULL, "out of memory");
	nd = ml_swept_dims(vlp, order, norder, dims);
	if (ml_sweep_total(vlp, dims, nd, &total) ||
	    total > ml_max_points(r->ctx)) {
		char msg[80];

		snprintf(msg, sizeof(msg), "the sweep has more than %llu points",
			 ml_max_points(r->ctx));
		free(dims);
		return ml_usage_err(r->ctx, r->cmd->name, NULL, msg);
	}
	sw = (struct sweep){vlp,  nd,		    dims, total,
			    base, r->cmd->nopts, r->prep, NULL};
	if (ml_precheck(r, &sw, &dg)) {
		free(dims);
		return ml_usage_err(r->ctx, r->cmd->name,
				 dg.param ? dg.param : "?", dg.msg);
	}
	/* Shard I of N: points [(I-1) T / N, I T / N). */
	lo = (r->shard_i - 1) * total / r->shard_n;
	hi = r->shard_i * total / r->shard_n;
	if (r->dryrun) {
		ml_dry_run(r, &sw, lo, hi, &hb);
		if (ml_sink_write(sk, &hb))
			rc = ML_EXIT_ROWS;
		ml_buf_free(&hb);
		free(dims);
		return rc;
	}
	if (r->shard_i == 1)
		ml_out_preamble(r, &hb);
	if (ml_sink_write(sk, &hb))
		rc = ML_EXIT_ROWS;
	ml_buf_free(&hb);
	ml_progress_start(&sk->prog, r->ctx->err, r->progress, hi - lo);
	r->prog = &sk->prog;
	if (rc == ML_EXIT_OK && ml_sweep_range(r, &sw, lo, hi, sk))
		rc = ML_EXIT_ROWS;
	r->prog = NULL;
	ml_progress_end(&sk->prog);
	free(dims);
	return rc;
}

/*
 * Options whose default holds several values (torus --algorithm all)
 * are swept too: slowest, in table order, before the options given.
 */
static void sweep_order(struct args *a, const struct ml_vlist *vl, size_t n)
{
	size_t i, k, m = 0, given = a->norder;

	for (i = 0; i < n; i++)
		if (a->raw[i] == NULL && vl[i].count > 1)
			m++;
	if (m == 0)
		return;
	memmove(a->order + m, a->order, given * sizeof(*a->order));
	for (i = 0, k = 0; i < n; i++)
		if (a->raw[i] == NULL && vl[i].count > 1)
			a->order[k++] = i;
	a->norder = given + m;
}

/*
 * -o FILE: the temporary file becomes FILE when every row was written
 * (statuses 0, 1 for rejected batch rows, 3 for --value), and is removed
 * otherwise: a usage error, a write error or running out of memory.
 */
static int finish_output(struct run *r, struct ml_outfile *of, int rc,
			 bool failed)
{
	char err[160], q[ML_QUOTE_LEN];

	if (rc == ML_EXIT_USAGE || failed) {
		ml_outfile_abort(of);
		return rc;
	}
	if (ml_outfile_commit(of, err, sizeof(err))) {
		ml_err(r->ctx, "%s: --output: %s: %s", r->cmd->name,
		       ml_quote(q, sizeof(q), of->path ? of->path : "?"), err);
		return ML_EXIT_ROWS;
	}
	return rc;
}

/* Is name one of the comma-separated list (a command's takeover_flag)? */
static bool flag_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

/* The options the command line left out that the command takes from
 * what its prepare() read (cmd->adopt), into vl and base; 0 or an exit
 * status, the error reported. */
static int adopt_values(const struct ml_command *cmd, struct ml_ctx *ctx,
			const void *prep, const bool *given, bool *varies,
			struct ml_vlist *vl, union ml_val *base)
{
	char buf[64], err[256];
	const char *t;
	size_t i;

	for (i = 0; i < cmd->nopts; i++) {
		if (given[i] || !(t = cmd->adopt(prep, given, i, buf, sizeof buf)))
			continue;
		ml_vlist_free(&vl[i]);
		if (ml_build_vlist(cmd, i, t, &vl[i], base, err, sizeof err))
			return ml_usage_err(ctx, cmd->name, cmd->opts[i].name,
					    err);
		varies[i] = vl[i].count > 1;
	}
	return 0;
}

int ml_run(const struct ml_command *cmd, int argc, char **argv,
	   struct ml_ctx *ctx)
{
	size_t n = cmd->nopts, i;
	struct args a = {0};
	struct run r = {0};
	struct ml_vlist *vl = calloc(n + 1, sizeof(*vl));
	const struct ml_vlist **vlp = calloc(n + 1, sizeof(*vlp));
	union ml_val *base = calloc(n + 1, sizeof(*base));
	struct sink sk = {.ctx = ctx, .cmdname = cmd->name};
	struct ml_outfile of = {0};
	FILE *stdout_f = ctx->out;
	char err[256];
	int rc;

	a.progress = -1;
	a.raw = calloc(n + 1, sizeof(*a.raw));
	a.order = calloc(n + 1, sizeof(*a.order));
	r.cmd = cmd;
	r.ctx = ctx;
	if (!vl || !vlp || !base || !a.raw || !a.order) {
		rc = ml_usage_err(ctx, cmd->name, NULL, "out of memory");
		goto out;
	}
	rc = ml_parse_args(cmd, argc, argv, ctx, &a);
	if (rc)
		goto out;
	if (a.help) {
		ml_help(cmd, ctx->out);
		goto out;
	}
	if (a.version) {
		fprintf(ctx->out, "mcastlat %s\n", ml_version());
		goto out;
	}
	rc = ml_setup_globals(&r, &a);
	if (rc)
		goto out;
	for (i = 0; i < n; i++) {
		if (ml_build_vlist(cmd, i, a.raw[i], &vl[i], base, err,
				sizeof(err))) {
			rc = ml_usage_err(ctx, cmd->name, cmd->opts[i].name, err);
			goto out;
		}
		vlp[i] = &vl[i];
	}
	r.given = calloc(n + 1, sizeof(*r.given));
	r.varies = calloc(n + 1, sizeof(*r.varies));
	r.infile = calloc(n + 1, sizeof(*r.infile));
	if (!r.given || !r.varies || !r.infile) {
		rc = ml_usage_err(ctx, cmd->name, NULL, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		r.given[i] = a.raw[i] != NULL;
		r.varies[i] = vl[i].count > 1;
	}
	for (i = 0; cmd->unused && cmd->unused[i].opt; i++) {
		const struct ml_unused *u = &cmd->unused[i];
		size_t io;

		if (u->value == NULL)
			continue;
		for (io = 0; io < n; io++)
			if (strcmp(cmd->opts[io].name, u->opt) == 0)
				break;
		if (io < n && r.given[io] && ml_unused_in_all(cmd, vl, u)) {
			snprintf(err, sizeof(err), "does not apply to --%s %s",
				 u->flag, u->value);
			rc = ml_usage_err(ctx, cmd->name, u->opt, err);
			goto out;
		}
	}
	r.format = a.format;
	for (i = 0; cmd->takeover_flag && i < n; i++)
		if (flag_listed(cmd->takeover_flag, cmd->opts[i].name))
			r.own_output = r.own_output || base[i].i != 0;
	/* prepare() first: the takeover may leave its work in the prep. */
	if (cmd->prepare) {
		struct ml_diag dg = {NULL, ""};
		void *prep = NULL;

		const char *in =
		    a.input && strcmp(a.input, "-") != 0 ? a.input : NULL;

		if ((cmd->prepare_input
			 ? cmd->prepare_input(base, in, &prep, &dg)
			 : cmd->prepare(base, &prep, &dg)) != ML_OK) {
			rc = ml_usage_err(ctx, cmd->name,
					  dg.param ? dg.param : "?", dg.msg);
			goto out;
		}
		r.prep = prep;
	}
	if (cmd->adopt && r.prep) {
		rc = adopt_values(cmd, ctx, r.prep, r.given, r.varies, vl, base);
		if (rc)
			goto out;
	}
	if (cmd->takeover && !a.input) {
		ctx->given = r.given;
		rc = cmd->takeover(cmd, vlp, base, a.format, ctx,
				   (void *)r.prep);
		ctx->given = NULL;
		if (rc >= 0)
			goto out;
		rc = 0;
	}
	r.collist = a.value ? a.value : a.columns;
	r.allcols = a.allcols;
	r.keep = a.keep;
	r.base = base;
	r.vl = (const struct ml_vlist *const *)vlp;
	if (a.keep && !a.input) {
		rc = ml_usage_err(ctx, cmd->name, "keep",
				  "copies columns of an --input file: give one");
		goto out;
	}
	/* With --input the columns are known once its header is read. */
	if (!a.input) {
		rc = ml_sink_columns(&sk, &r);
		if (rc)
			goto out;
	}
	sweep_order(&a, vl, n);
	if (a.output && strcmp(a.output, "-") != 0 && !a.dryrun) {
		if (ml_outfile_open(&of, a.output, err, sizeof(err))) {
			char q[ML_QUOTE_LEN];

			ml_err(ctx, "%s: --output: %s: %s", cmd->name,
			       ml_quote(q, sizeof(q), a.output), err);
			rc = ML_EXIT_USAGE;
			goto out;
		}
		ctx->out = of.f;
	}
	if (a.input) {
		rc = ml_run_batch(&r, a.input, vlp, base, a.order, a.norder, &sk);
	} else {
		ml_note_ignored(&r, (const struct ml_vlist *const *)vlp);
		rc = run_sweep(&r, vlp, base, a.order, a.norder, &sk);
	}
	if (sk.table) {
		if (ml_table_finish(sk.table, ctx->out))
			sk.failed = true;
		ml_table_free(sk.table);
		sk.table = NULL;
	}
	if (sk.failed && rc == ML_EXIT_OK)
		rc = ML_EXIT_ROWS;
	if (sk.notok && rc == ML_EXIT_OK)
		rc = ML_EXIT_NOTOK;
	if (of.f)
		rc = finish_output(&r, &of, rc, sk.failed);
out:
	ctx->out = stdout_f;
	free_vlists(vl, n);
	free(vlp);
	free(base);
	free(a.raw);
	free(a.order);
	if (sk.table)
		ml_table_free(sk.table);
	ml_free_columns(&r);
	free(r.given);
	free(r.varies);
	free(r.infile);
	if (r.prep != NULL)
		cmd->release((void *)r.prep);
	return rc;
}
