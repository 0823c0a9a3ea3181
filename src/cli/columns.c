/*
 * columns.c - which columns a run prints and how wide: the input columns
 * (options that are not flags, texts or NOCOL), the result columns shown
 * for the flags given, the status, and the --columns selection of them.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/columns.h"

static bool flag_set(const struct ml_command *cmd, const union ml_val *base,
		     const char *name)
{
	size_t i;

	for (i = 0; i < cmd->nopts; i++)
		if (cmd->opts[i].kind == ML_OPT_FLAG &&
		    strcmp(cmd->opts[i].name, name) == 0)
			return base[i].i != 0;
	return false;
}

static bool res_visible(const struct ml_command *cmd, const union ml_val *base,
			size_t j)
{
	const struct ml_col *c = &cmd->cols[j];

	if (c->only_with && !flag_set(cmd, base, c->only_with))
		return false;
	if (c->only_without && flag_set(cmd, base, c->only_without))
		return false;
	return true;
}

static int int_digits(long long v)
{
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v
				     : (unsigned long long)v;
	int n = v < 0 ? 2 : 1;

	while (u >= 10) {
		u /= 10;
		n++;
	}
	return n;
}

/* The width of an input column: integers as wide as their widest value
 * (the value list is known before the first row). */
static int opt_width(const struct ml_opt *o, const struct ml_vlist *vl,
		     int prec)
{
	int w = 0, n;
	size_t i;

	switch (o->kind) {
	case ML_OPT_CHOICE:
		for (i = 0; o->choices[i]; i++) {
			n = (int)strlen(o->choices[i]);
			w = n > w ? n : w;
		}
		return (o->flags & ML_OPT_INTOK) && w < 6 ? 6 : w;
	case ML_OPT_INT:
		w = ml_out_width(ML_CELL_INT, prec);
		for (i = 0; i < vl->nitems; i++) {
			n = int_digits(vl->items[i].first.i);
			w = n > w ? n : w;
			n = int_digits(vl->items[i].last.i);
			w = n > w ? n : w;
		}
		return w;
	default:
		return ml_out_width(ML_CELL_REAL, prec);
	}
}

/* Every column that may be printed, in default order. */
static size_t all_columns(const struct ml_command *cmd,
			  const union ml_val *base, const struct ml_vlist *vl,
			  int prec,
			  struct ml_outcol *oc, struct colref *refs)
{
	size_t i, n = 0;

	for (i = 0; i < cmd->nopts; i++) {
		const struct ml_opt *o = &cmd->opts[i];

		if (o->kind == ML_OPT_FLAG || o->kind == ML_OPT_TEXT ||
		    (o->flags & ML_OPT_NOCOL))
			continue;
		oc[n].name = o->name;
		oc[n].width = opt_width(o, &vl[i], prec);
		oc[n].left = o->kind == ML_OPT_CHOICE;
		refs[n].src = SRC_OPT;
		refs[n++].idx = i;
	}
	for (i = 0; i < cmd->ncols; i++) {
		const struct ml_col *c = &cmd->cols[i];

		if (!res_visible(cmd, base, i))
			continue;
		oc[n].name = c->name;
		oc[n].left = c->kind == ML_COL_TEXT;
		oc[n].width = c->kind == ML_COL_TEXT
				      ? 4
				      : ml_out_width(c->kind == ML_COL_INT
							     ? ML_CELL_INT
							     : ML_CELL_REAL,
						     prec);
		refs[n].src = SRC_RES;
		refs[n++].idx = i;
	}
	oc[n].name = "status";
	oc[n].width = 6;
	oc[n].left = true;
	refs[n].src = SRC_STATUS;
	refs[n++].idx = 0;
	for (i = 0; i < n; i++) {
		int w = (int)strlen(oc[i].name);

		if (w > oc[i].width)
			oc[i].width = w;
	}
	return n;
}

/* Number of names in a comma-separated list (empty ones included). */
static size_t count_names(const char *list)
{
	size_t n = 1;

	for (; *list; list++)
		n += *list == ',';
	return n;
}

/*
 * Keep only the --columns, in that order.  A name given twice is printed
 * twice (as cut -f does not, but as a user who asks for it expects); an
 * empty name ("a,,b", "a,") is an error.  r->ocols holds count_names().
 */
static int select_columns(struct run *r, const char *list, size_t nall,
			  const struct ml_outcol *oc, const struct colref *refs)
{
	const char *tok = list;
	size_t n = 0, k, len;
	char msg[160], q[ML_QUOTE_LEN];

	for (;; tok += len + 1) {
		len = strcspn(tok, ",");
		if (len == 0) {
			snprintf(msg, sizeof(msg),
				 "%s has an empty column name",
				 ml_quote(q, sizeof(q), list));
			return ml_usage_err(r->ctx, r->cmd->name, "columns",
					    msg);
		}
		for (k = 0; k < nall; k++)
			if (strlen(oc[k].name) == len &&
			    strncmp(oc[k].name, tok, len) == 0)
				break;
		if (k == nall) {
			char *name = strndup(tok, len);

			snprintf(msg, sizeof(msg), "%s is not a column (see --help)",
				 ml_quote(q, sizeof(q), name ? name : "?"));
			free(name);
			return ml_usage_err(r->ctx, r->cmd->name, "columns",
					    msg);
		}
		r->ocols[n] = oc[k];
		r->refs[n++] = refs[k];
		if (tok[len] == '\0')
			break;
	}
	r->spec.ncols = n;
	return 0;
}

int ml_setup_columns(struct run *r, const char *list,
			 const union ml_val *base, const struct ml_vlist *vl)
{
	const struct ml_command *cmd = r->cmd;
	size_t max = cmd->nopts + cmd->ncols + 1, nall, k;
	struct ml_outcol *oc = calloc(max, sizeof(*oc));
	struct colref *refs = calloc(max, sizeof(*refs));

	size_t room = max + (list ? count_names(list) : 0);
	int rc = 0;

	/* Room for every name --columns gives, repeated or not. */
	r->ocols = calloc(room, sizeof(*r->ocols));
	r->refs = calloc(room, sizeof(*r->refs));
	r->finite = calloc(cmd->ncols + 1, sizeof(*r->finite));
	if (!oc || !refs || !r->ocols || !r->refs || !r->finite) {
		rc = ml_usage_err(r->ctx, cmd->name, NULL, "out of memory");
		goto out;
	}
	nall = all_columns(cmd, base, vl, r->spec.precision, oc, refs);
	for (k = 0; k < cmd->ncols; k++)
		r->finite[k] = res_visible(cmd, base, k) && !cmd->cols[k].na &&
			       cmd->cols[k].kind != ML_COL_TEXT &&
			       cmd->cols[k].kind != ML_COL_INT;
	if (list) {
		rc = select_columns(r, list, nall, oc, refs);
	} else {
		memcpy(r->ocols, oc, nall * sizeof(*oc));
		memcpy(r->refs, refs, nall * sizeof(*refs));
		r->spec.ncols = nall;
	}
	r->spec.cols = r->ocols;
out:
	free(oc);
	free(refs);
	return rc;
}
