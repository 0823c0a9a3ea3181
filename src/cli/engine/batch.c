/*
 * batch.c - batch mode, --input FILE: a CSV header naming options, then
 * one row per line whose cells (value lists too) replace the command
 * line's values; each row is a sweep of its own.
 *
 * Lines are read up to ML_LINE_MAX bytes: a longer line (or a file with
 * no line end, such as /dev/zero) is an error, as is a read error; both
 * stop the run with exit status 2 after the rows already printed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/args.h"
#include "cli/engine/batch.h"
#include "cli/engine/csvline.h"
#include "cli/engine/columns.h"
#include "cli/engine/parse.h"
#include "cli/meta/suggest.h"


static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

static bool blank_line(const char *s)
{
	return s[strspn(s, " \t")] == '\0' || s[0] == '#';
}

/* colopt[] of a file column that is not an option: a result column or
 * the status (recomputed, so ignored), or one --keep copies through. */
#define COL_IGNORE ((size_t)-1)
#define COL_KEEP ((size_t)-2)

struct batch {
	struct run *r;
	const char *fname;
	FILE *f;
	size_t *colopt;	/* option index per file column, or COL_* */
	bool *echo;	/* per file column: also a result's name (the value
			 * the option used, such as torus r) */
	size_t ncols;
	const char **keepv;	/* this row's --keep cells */
	const struct ml_vlist *const *vl;
	const union ml_val *base;
	const size_t *order;
	size_t norder;
	const char **unit; /* per file column: the time unit its header
			    * names ("os_fixed[ns]"), or NULL: the model's */
	union ml_val *constval; /* the # line's values (r->constval) */
	/* per file column: the command line gave its option too, and no
	 * row has yet left the cell empty to use it */
	bool *shadowed;
	unsigned long rows;	/* data rows read */
};

/* Header cells are trimmed: "k, group" names k and group. */
static char *trim(char *s)
{
	size_t n;

	s += strspn(s, " \t");
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

/* The option a header cell names (its name or alias, '-' or '_'). */
static size_t find_opt(const struct ml_command *cmd, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < cmd->nopts; i++) {
		const struct ml_opt *o = &cmd->opts[i];

		if (o->kind == ML_OPT_FLAG)
			continue;
		if (ml_same_name(o->name, name, n) ||
		    (ml_alias_of(cmd, i) &&
		     ml_same_name(ml_alias_of(cmd, i), name, n)))
			return i;
	}
	return cmd->nopts;
}

/* A result column of the command (in any mode), or the status. */
static bool is_result(const struct ml_command *cmd, const char *name)
{
	size_t j, n = strlen(name);

	for (j = 0; j < cmd->ncols; j++)
		if (ml_same_name(cmd->cols[j].name, name, n))
			return true;
	return strcmp(name, "status") == 0;
}

/*
 * A header cell "name[unit]" (a time column printed under --unit, or a
 * time per byte "[ns/byte]"): the unit is cut off the name and returned
 * as one of the time unit names (static), NULL when the cell has none.
 * *bad is set when the unit is not a time unit of the command.
 */
static const char *cut_unit(const struct ml_command *cmd, char *name,
			    bool *bad)
{
	static const char *const units[] = {"ns", "us", "ms", "s", "cycles"};
	char *open = strchr(name, '[');
	size_t n = strlen(name), k, len;

	*bad = false;
	if (open == NULL || n < 3 || name[n - 1] != ']')
		return NULL;
	len = strcspn(open + 1, "/]");
	for (k = 0; k < sizeof(units) / sizeof(units[0]); k++)
		if (strlen(units[k]) == len &&
		    strncmp(open + 1, units[k], len) == 0 &&
		    (strcmp(cmd->time_unit, "us") == 0
			     ? ml_time_scale(units[k]) != 0.0
			     : strcmp(units[k], cmd->time_unit) == 0)) {
			*open = '\0';
			return units[k];
		}
	*bad = true;
	return NULL;
}

/* "did you mean" for a header cell that names nothing: the nearest
 * option or result, as the header spells it ('_'), or NULL. */
static const char *suggest_header(const struct ml_command *cmd,
				  const char *cell, char *buf, size_t len)
{
	const char **names = calloc(cmd->nopts + cmd->ncols + 1,
				    sizeof(*names));
	const char *pick = NULL;
	char *word = strdup(cell), *p;
	size_t n = 0, i;

	if (names && word) {
		for (i = 0; i < cmd->nopts; i++)
			if (cmd->opts[i].kind != ML_OPT_FLAG)
				names[n++] = cmd->opts[i].name;
		for (i = 0; i < cmd->ncols; i++)
			names[n++] = cmd->cols[i].name;
		names[n++] = "status";
		for (p = word; *p; p++)
			if (*p == '_')
				*p = '-';
		pick = ml_suggest(word, names, n);
		if (pick) {
			snprintf(buf, len, "%s", pick);
			for (p = buf; *p; p++)
				if (*p == '-')
					*p = '_';
			pick = buf;
		}
	}
	free(names);
	free(word);
	return pick;
}

/*
 * The header: options (the CSV this command prints is valid input: its
 * result columns and status are recomputed, so ignored); any other
 * column is an error, or with --keep copied through to the output.
 * Then the columns of the run are chosen, knowing which options the file
 * gives, and the header is printed.
 */
/*
 * The columns of the file whose cell is the same on every data row: as
 * a single value on the command line does, such an option goes on the
 * table's "# name=value" line rather than in a column of its own
 * (r->varies false, its value in r->constval).  The rest of the file is
 * read ahead from the current position and the position restored, so
 * only a file that can be read twice gets this (a pipe keeps every
 * column); any line the run itself would stop at (too long, a NUL byte,
 * a read error) or a row of the wrong length leaves every column as it
 * is.  A cell that is empty or "auto" (the command line's value), a list
 * (that row sweeps it), an echo of a result or a text option is never
 * constant.
 */
static void batch_constants(struct batch *bt)
{
	struct run *r = bt->r;
	const struct ml_command *cmd = r->cmd;
	size_t ncols = bt->ncols, k, nf, cap = 0, len, nconst = 0;
	char *line = NULL, **f = calloc(ncols + 1, sizeof(*f));
	char **same = calloc(ncols + 1, sizeof(*same));
	bool *differ = calloc(ncols + 1, sizeof(*differ));
	bool ok = true, any = false;
	long pos = ftell(bt->f);
	int got;

	if (pos < 0 || fseek(bt->f, pos, SEEK_SET) != 0 || !f || !same ||
	    !differ)
		goto out;
	while ((got = ml_read_line(bt->f, &line, &cap, &len)) != 0) {
		if (got < 0 || memchr(line, '\0', len)) {
			ok = false;
			break;
		}
		chomp(line);
		if (blank_line(line))
			continue;
		if (ml_csv_split(line, f, ncols + 1, &nf) || nf != ncols) {
			ok = false;
			break;
		}
		for (k = 0; k < ncols; k++) {
			if (differ[k])
				continue;
			if (!any) {
				same[k] = strdup(f[k]);
				if (same[k] == NULL)
					ok = false;
			} else if (strcmp(same[k], f[k]) != 0) {
				differ[k] = true;
			}
		}
		any = true;
		if (!ok)
			break;
	}
	clearerr(bt->f);
	if (fseek(bt->f, pos, SEEK_SET) != 0 || !ok || !any)
		goto out;
	bt->constval = malloc(cmd->nopts * sizeof(*bt->constval));
	if (bt->constval == NULL)
		goto out;
	memcpy(bt->constval, bt->base, cmd->nopts * sizeof(*bt->constval));
	for (k = 0; k < ncols; k++) {
		size_t i = bt->colopt[k];
		struct ml_vlist one = {0};
		char err[256], tbuf[80];
		const char *text = same[k];
		double x;

		if (differ[k] || i >= cmd->nopts || bt->echo[k] ||
		    text[0] == '\0' || strcmp(text, "auto") == 0 ||
		    cmd->opts[i].kind == ML_OPT_TEXT ||
		    cmd->opts[i].kind == ML_OPT_FLAG)
			continue;
		/* a time in the unit its header names, as batch_row */
		if (cmd->opts[i].kind == ML_OPT_TIME && bt->unit[k] &&
		    strcmp(bt->unit[k], cmd->time_unit) != 0 &&
		    ml_parse_real(text, &x) == NULL) {
			snprintf(tbuf, sizeof(tbuf), "%.60s%s", text,
				 bt->unit[k]);
			text = tbuf;
		}
		if (ml_build_vlist(cmd, i, text, &one, bt->constval, err,
				   sizeof(err)) == 0 &&
		    one.count == 1) {
			bt->constval[i] = ml_vlist_at(&one, 0);
			r->varies[i] = false;
			nconst++;
		}
		ml_vlist_free(&one);
	}
	if (nconst == 0) {
		free(bt->constval);
		bt->constval = NULL;
	}
	r->constval = bt->constval;
out:
	for (k = 0; same && k < ncols; k++)
		free(same[k]);
	free(same);
	free(differ);
	free(f);
	free(line);
}

static int batch_header(struct batch *bt, char *line, char **f, size_t maxf,
			struct sink *sk)
{
	const struct ml_command *cmd = bt->r->cmd;
	struct run *r = bt->r;
	size_t nf, k, i, j;
	int rc;

	if (ml_csv_split(line, f, maxf, &nf))
		goto bad;
	bt->colopt = calloc(nf, sizeof(*bt->colopt));
	bt->echo = calloc(nf + 1, sizeof(*bt->echo));
	bt->unit = calloc(nf + 1, sizeof(*bt->unit));
	r->keepnames = calloc(nf + 1, sizeof(*r->keepnames));
	bt->keepv = calloc(nf + 1, sizeof(*bt->keepv));
	bt->shadowed = calloc(nf + 1, sizeof(*bt->shadowed));
	if (!bt->colopt || !bt->echo || !bt->unit || !r->keepnames ||
	    !bt->keepv || !bt->shadowed)
		goto bad;
	for (k = 0; k < nf; k++) {
		bool badunit;

		f[k] = trim(f[k]);
		bt->unit[k] = cut_unit(cmd, f[k], &badunit);
		i = find_opt(cmd, f[k]);
		if (badunit || (bt->unit[k] && i < cmd->nopts &&
				cmd->opts[i].kind != ML_OPT_TIME)) {
			char q[ML_QUOTE_LEN];

			ml_err(bt->r->ctx, "%s: --input: %s: %s %s", cmd->name,
			       bt->fname, ml_quote(q, sizeof(q), f[k]),
			       badunit ? (strcmp(cmd->time_unit, "us") == 0
						  ? "has an unknown unit (use "
						    "ns, us, ms or s)"
						  : "has a unit that is not "
						    "cycles")
				       : "is not a time: it takes no unit");
			return ML_EXIT_USAGE;
		}
		/* A result of an option's name shows the value it used: it
		 * is read back as the option (see batch_row). */
		bt->echo[k] = i < cmd->nopts && is_result(cmd, f[k]);
		if (i == cmd->nopts && is_result(cmd, f[k])) {
			bt->colopt[k] = COL_IGNORE;
			continue;
		}
		if (i == cmd->nopts && r->keep) {
			bt->colopt[k] = COL_KEEP;
			r->keepnames[r->nkeep] = strdup(f[k]);
			if (r->keepnames[r->nkeep++] == NULL)
				goto bad;
			continue;
		}
		if (i == cmd->nopts) {
			char q[ML_QUOTE_LEN], sb[64];
			const char *pick = suggest_header(cmd, f[k], sb,
							  sizeof(sb));

			if (pick)
				ml_err(bt->r->ctx, "%s: --input: %s: %s is not an "
					"option or a result of %s (did you "
					"mean %s?)",
				       cmd->name, bt->fname,
				       ml_quote(q, sizeof(q), f[k]), cmd->name,
				       pick);
			else
				ml_err(bt->r->ctx, "%s: --input: %s: %s is not an "
					"option or a result of %s (--keep "
					"copies such columns)",
				       cmd->name, bt->fname,
				       ml_quote(q, sizeof(q), f[k]), cmd->name);
			return ML_EXIT_USAGE;
		}
		for (j = 0; j < k; j++)
			if (bt->colopt[j] == i) {
				char q[ML_QUOTE_LEN];

				ml_err(bt->r->ctx, "%s: --input: %s: column %s "
					"appears twice in the header",
				       cmd->name, bt->fname,
				       ml_quote(q, sizeof(q), f[k]));
				return ML_EXIT_USAGE;
			}
		/* The command line's value serves only the column's
		 * empty cells: ml_run_batch says so when none was. */
		bt->shadowed[k] = r->given[i] && !r->infile[i];
		bt->colopt[k] = i;
		r->given[i] = r->varies[i] = r->infile[i] = true;
	}
	r->input_name = bt->fname;
	bt->ncols = nf;
	if (r->spec.fmt == ML_FMT_TABLE && !r->collist && !r->allcols)
		batch_constants(bt);
	rc = ml_sink_columns(sk, r);
	if (rc == 0 && !r->own_output) {
		struct ml_buf hb = {0};

		ml_out_preamble(r, &hb);
		ml_sink_write(sk, &hb);
		ml_buf_free(&hb);
		fflush(r->ctx->out); /* a slow command's header shows at once */
	}
	return rc;
bad:
	ml_err(bt->r->ctx, "%s: --input: %s: unreadable header line",
	       cmd->name, bt->fname);
	return ML_EXIT_USAGE;
}

/* A row that sets a TEXT option gets its own prepare(); -1 with *d set
 * when it fails, 0 with *prep NULL when the run's own will do. */
static int row_prepare(const struct batch *bt, char *const *f, size_t nf,
		       const union ml_val *base, void **prep, struct ml_diag *d)
{
	const struct ml_command *cmd = bt->r->cmd;
	size_t k;

	*prep = NULL;
	if (cmd->prepare == NULL)
		return 0;
	for (k = 0; k < nf; k++)
		if (bt->colopt[k] < cmd->nopts &&
		    cmd->opts[bt->colopt[k]].kind == ML_OPT_TEXT &&
		    f[k][0] != '\0')
			break;
	if (k == nf)
		return 0;
	*d = (struct ml_diag){NULL, ""};
	if (cmd->prepare_input)
		return cmd->prepare_input(base,
					  bt->f == bt->r->ctx->in ? NULL
								: bt->fname,
					  prep, d) == ML_OK
			   ? 0
			   : -1;
	return cmd->prepare(base, prep, d) == ML_OK ? 0 : -1;
}

/* A row that states an option its mode ignores (k with
 * topology=hypercube), as --k --topology hypercube is on the command
 * line: an error rather than a k column that means nothing; 0 when
 * none. */
static int row_unused(const struct batch *bt, const struct ml_vlist *own,
		      const struct ml_vlist *const *vl, char *err,
		      size_t errlen)
{
	const struct ml_command *cmd = bt->r->cmd;
	size_t k, j;

	for (j = 0; cmd->unused && cmd->unused[j].opt; j++) {
		const struct ml_unused *u = &cmd->unused[j];

		if (u->value == NULL || !ml_unused_in_row(cmd, vl, u))
			continue;
		for (k = 0; k < bt->ncols; k++)
			if (bt->colopt[k] < cmd->nopts &&
			    vl[bt->colopt[k]] == &own[k] &&
			    strcmp(cmd->opts[bt->colopt[k]].name, u->opt) == 0) {
				snprintf(err, errlen,
					 "%s: does not apply to %s %s", u->opt,
					 u->flag, u->value);
				return -1;
			}
	}
	return 0;
}

/* One data row: returns 0 ok, 1 rejected (reported). */
static int batch_row(struct batch *bt, char *line, unsigned long lineno,
		     char **f, struct sink *sk)
{
	const struct ml_command *cmd = bt->r->cmd;
	size_t n = cmd->nopts, nf, k, nk, nd = 0, *dims;
	char tbuf[80];
	double x;
	const struct ml_vlist **vl = calloc(n, sizeof(*vl));
	struct ml_vlist *own = calloc(bt->ncols + 1, sizeof(*own));
	union ml_val *base = calloc(n, sizeof(*base));
	unsigned long long total;
	struct sweep sw;
	struct ml_diag dg;
	void *prep = NULL;
	char err[256];
	int rc = 1;

	dims = calloc(n + bt->ncols + 1, sizeof(*dims));
	if (!vl || !own || !base || !dims) {
		snprintf(err, sizeof(err), "out of memory");
		ml_err(bt->r->ctx, "%s:%lu: %s", bt->fname, lineno, err);
		goto out;
	}
	memcpy(vl, bt->vl, n * sizeof(*vl));
	memcpy(base, bt->base, n * sizeof(*base));
	if (ml_csv_split(line, f, bt->ncols + 1, &nf) || nf != bt->ncols) {
		ml_err(bt->r->ctx, "%s:%lu: expected %zu fields", bt->fname,
		       lineno, bt->ncols);
		goto out;
	}
	for (k = 0, nk = 0; k < nf; k++) {
		size_t i = bt->colopt[k];

		if (i == COL_KEEP)
			bt->keepv[nk++] = f[k];
		if (i >= n)
			continue;
		/* empty cell or auto (as printed): the command line's value */
		if (f[k][0] == '\0' || strcmp(f[k], "auto") == 0) {
			bt->shadowed[k] = false;
			continue;
		}
		/* A time is in the unit its header names ("os_fixed[ns]",
		 * as printed under --unit ns), else in the model's own,
		 * whatever this run's --unit. */
		if (cmd->opts[i].kind == ML_OPT_TIME && bt->unit[k] &&
		    strcmp(bt->unit[k], cmd->time_unit) != 0 &&
		    ml_parse_real(f[k], &x) == NULL) {
			snprintf(tbuf, sizeof(tbuf), "%.60s%s", f[k],
				 bt->unit[k]);
			f[k] = tbuf;
		}
		if (ml_build_vlist(cmd, i, f[k], &own[k], base, err,
				sizeof(err))) {
			/* An echo the option does not take (nan in an
			 * invalid row, cluster's formula 2.6 for p2p) is a
			 * result: the command line's value. */
			if (bt->echo[k]) {
				bt->shadowed[k] = false;
				ml_vlist_free(&own[k]);
				memcpy(&base[i], &bt->base[i], sizeof(base[i]));
				continue;
			}
			ml_err(bt->r->ctx, "%s:%lu: %s: %s", bt->fname, lineno,
			       cmd->opts[i].name, err);
			goto out;
		}
		vl[i] = &own[k];
	}
	if (row_unused(bt, own, vl, err, sizeof(err))) {
		ml_err(bt->r->ctx, "%s:%lu: %s", bt->fname, lineno, err);
		goto out;
	}
	/* Command-line order first, then the file's own columns. */
	memcpy(dims, bt->order, bt->norder * sizeof(*dims));
	nd = bt->norder;
	for (k = 0; k < nf; k++) {
		size_t j;

		if (bt->colopt[k] >= n)
			continue;
		for (j = 0; j < bt->norder; j++)
			if (bt->order[j] == bt->colopt[k])
				break;
		if (j == bt->norder)
			dims[nd++] = bt->colopt[k];
	}
	nd = ml_swept_dims(vl, dims, nd, dims);
	if (ml_sweep_total(vl, dims, nd, &total) ||
	    total > ml_max_points(bt->r->ctx)) {
		ml_err(bt->r->ctx, "%s:%lu: the sweep has more than %llu points",
		       bt->fname, lineno, ml_max_points(bt->r->ctx));
		goto out;
	}
	sw = (struct sweep){vl,   nd,		  dims,	      total,
			    base, cmd->nopts, bt->r->prep, bt->keepv};
	if (row_prepare(bt, f, nf, base, &prep, &dg)) {
		ml_err(bt->r->ctx, "%s:%lu: %s: %s", bt->fname, lineno,
		       dg.param ? dg.param : "?", dg.msg);
		goto out;
	}
	if (prep != NULL)
		sw.prep = prep;
	if (ml_precheck(bt->r, &sw, &dg)) {
		ml_err(bt->r->ctx, "%s:%lu: %s: %s", bt->fname, lineno,
		       dg.param ? dg.param : "?", dg.msg);
		goto out;
	}
	if (cmd->takeover) {
		int t;

		bt->r->ctx->given = bt->r->given;
		t = cmd->takeover(cmd, vl, base, bt->r->format, bt->r->ctx,
				  (void *)sw.prep);
		bt->r->ctx->given = NULL;

		if (t >= 0) { /* done by the command, or refused */
			rc = t == 0 ? 0 : 1;
			goto out;
		}
	}
	ml_note_ignored(bt->r, vl);
	rc = ml_sweep_range(bt->r, &sw, 0, total, sk) ? -1 : 0;
out:
	if (prep != NULL)
		cmd->release(prep);
	for (k = 0; own && k < bt->ncols; k++)
		ml_vlist_free(&own[k]);
	free(own);
	free(vl);
	free(base);
	free(dims);
	return rc;
}

/* An option given on the command line that every row of the file set
 * (SPEC 1: the file's columns win): a --k 4 beside a file of k = 8
 * would otherwise look obeyed. */
static void warn_shadowed(const struct batch *bt)
{
	size_t k;

	for (k = 0; bt->shadowed && bt->rows > 0 && k < bt->ncols; k++)
		if (bt->shadowed[k])
			ml_warn(bt->r->ctx, "%s: --%s given on the command line "
				"was not used: every row of %s sets it",
				bt->r->cmd->name,
				bt->r->cmd->opts[bt->colopt[k]].name, bt->fname);
}

int ml_run_batch(struct run *r, const char *fname,
		     const struct ml_vlist *const *vl, const union ml_val *base,
		     const size_t *order, size_t norder, struct sink *sk)
{
	struct batch bt = {.r = r,
			   .fname = fname,
			   .vl = vl,
			   .base = base,
			   .order = order,
			   .norder = norder};
	char *line = NULL, **f = NULL;
	size_t cap = 0, maxf;
	size_t len;
	unsigned long lineno = 0;
	int rc = ML_EXIT_OK, header = 1, x, got;

	if (strcmp(fname, "-") == 0) {
		bt.f = r->ctx->in;
		bt.fname = "stdin";
	} else {
		bt.f = fopen(fname, "r");
		if (bt.f == NULL) {
			ml_err(r->ctx, "%s: --input: %s: %s", r->cmd->name,
			       fname, strerror(errno));
			return ML_EXIT_USAGE;
		}
	}
	maxf = r->cmd->nopts + 2;
	f = calloc(maxf, sizeof(*f));
	while (f && (got = ml_read_line(bt.f, &line, &cap, &len)) != 0) {
		char *s = line;

		lineno++;
		if (got < 0) {
			if (got == -2)
				ml_err(r->ctx, "%s: --input: %s:%lu: line longer "
					       "than %d bytes",
				       r->cmd->name, bt.fname, lineno,
				       ML_LINE_MAX);
			else
				ml_err(r->ctx, "%s: --input: %s:%lu: read error: %s",
				       r->cmd->name, bt.fname, lineno,
				       strerror(errno));
			rc = ML_EXIT_USAGE;
			break;
		}
		if (lineno == 1 && strncmp(s, "\xEF\xBB\xBF", 3) == 0)
			s += 3; /* UTF-8 byte order mark */
		if (memchr(s, '\0', len - (size_t)(s - line))) {
			if (header)
				ml_err(r->ctx, "%s: --input: %s:%lu: line "
					       "contains a NUL byte",
				       r->cmd->name, bt.fname, lineno);
			else
				ml_err(r->ctx, "%s:%lu: line contains a NUL byte",
				       bt.fname, lineno);
			rc = header ? ML_EXIT_USAGE : ML_EXIT_ROWS;
			if (header)
				break;
			continue;
		}
		chomp(s);
		if (blank_line(s))
			continue;
		if (header) {
			/* Room for every field of the header (a comma each,
			 * at most) and one more, to tell a row too long. */
			size_t need = 2, i;
			char **g;

			for (i = 0; s[i]; i++)
				need += s[i] == ',';
			if (need > maxf) {
				g = realloc(f, need * sizeof(*f));
				if (g == NULL)
					break;
				f = g;
				maxf = need;
			}
			header = 0;
			rc = batch_header(&bt, s, f, maxf, sk);
			if (rc)
				break;
			continue;
		}
		bt.rows++;
		x = batch_row(&bt, s, lineno, f, sk);
		if (x < 0)
			break;
		if (x > 0)
			rc = ML_EXIT_ROWS;
	}
	if (f == NULL) {
		ml_err(r->ctx, "%s: --input: out of memory", r->cmd->name);
		rc = ML_EXIT_USAGE;
	} else if (header && rc == ML_EXIT_OK) {
		ml_err(r->ctx, "%s: --input: %s: no header line", r->cmd->name,
		       bt.fname);
		rc = ML_EXIT_USAGE;
	}
	if (bt.f != r->ctx->in)
		fclose(bt.f);
	free(line);
	free(f);
	if (rc != ML_EXIT_USAGE) /* an error stays the one line */
		warn_shadowed(&bt);
	free(bt.shadowed);
	free(bt.colopt);
	free(bt.echo);
	free(bt.unit);
	free(bt.keepv);
	r->constval = NULL;
	free(bt.constval);
	while (r->nkeep > 0)
		free((char *)r->keepnames[--r->nkeep]);
	free(r->keepnames);
	r->keepnames = NULL;
	return rc;
}
