/*
 * columns.c - which columns a run prints, under which names: the input
 * columns, the result columns shown for the flags given, the status, the
 * --keep columns of an --input file, and the selection among them
 * (--columns, --value; for the table, the inputs that vary, the constant
 * ones going to one "# name=value ..." line above the header).
 *
 * An input column is an option that is not a flag or free text, named
 * as the option with '-' -> '_' (jq and pandas take no hyphens).  A
 * NOCOL option (a detail, or one a result column echoes) is a column
 * only when the user gave it; an option the mode ignores (only_with /
 * only_without) is none; a result column of the same name stands for
 * the option (it echoes the value used).  A result column that does
 * not apply to the run's values (struct ml_col applies) is left out
 * unless --columns names it; a detail (struct ml_col detail) is left out
 * of the default table.  The table's "#" line names the machine (struct
 * ml_command machine, or the --input file) rather than listing the
 * ML_OPT_MACHINE options the user did not give, and leaves out the
 * ML_OPT_TERSE ones not given.  Adding a column is one
 * entry in a command's table: nothing here names a command.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/columns.h"
#include "cli/engine/shortest.h"
#include "cli/meta/suggest.h"

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
	if (c->visible && !c->visible(base))
		return false;
	return true;
}

/* Result column j applies to the run's value lists (an option of the
 * --input file: any value). */
static bool res_applies(const struct run *r, size_t j)
{
	const struct ml_col *c = &r->cmd->cols[j];
	const struct ml_vlist *vl[256];
	size_t i, n = r->cmd->nopts;

	if (c->applies == NULL || r->vl == NULL || n > 256)
		return true;
	for (i = 0; i < n; i++)
		vl[i] = r->infile && r->infile[i] ? NULL : r->vl[i];
	return c->applies(vl);
}

/* n bytes of a and b are equal, '-' and '_' alike. */
static bool same_n(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((a[i] == '-' ? '_' : a[i]) != (b[i] == '-' ? '_' : b[i]))
			return false;
	return true;
}

/* "packet-size" and "packet_size" name the same column. */
bool ml_same_name(const char *a, const char *b, size_t blen)
{
	size_t i;

	for (i = 0; i < blen; i++, a++) {
		char x = *a == '-' ? '_' : *a, y = b[i] == '-' ? '_' : b[i];

		if (*a == '\0' || x != y)
			return false;
	}
	return *a == '\0';
}

/* Result column j of the run (visible) has this name. */
static bool res_named(const struct run *r, const char *name)
{
	size_t j;

	for (j = 0; j < r->cmd->ncols; j++)
		if (res_visible(r->cmd, r->base, j) &&
		    ml_same_name(r->cmd->cols[j].name, name, strlen(name)))
			return true;
	return false;
}

void ml_cell_from_opt(const struct run *r, size_t i, union ml_val v,
		      struct ml_cell *c)
{
	const struct ml_opt *o = &r->cmd->opts[i];

	switch (o->kind) {
	case ML_OPT_INT:
		if (v.i == ML_AUTO_INT) {
			c->kind = ML_CELL_TEXT;
			c->v.s = "auto";
		} else {
			c->kind = ML_CELL_INT;
			c->v = v;
		}
		return;
	case ML_OPT_REAL:
	case ML_OPT_TIME:
		if (isnan(v.r)) {
			c->kind = ML_CELL_TEXT;
			c->v.s = "auto";
			return;
		}
		c->kind = ML_CELL_REAL;
		c->v.r = o->kind == ML_OPT_TIME ? v.r / r->unit_scale : v.r;
		return;
	case ML_OPT_CHOICE:
		if (v.i == ML_AUTO_INT) {
			c->kind = ML_CELL_TEXT;
			c->v.s = "auto";
			return;
		}
		if ((o->flags & ML_OPT_INTOK) && v.i >= 0) {
			c->kind = ML_CELL_INT;
			c->v = v;
			return;
		}
		c->kind = ML_CELL_TEXT;
		c->v.s = o->choices[(o->flags & ML_OPT_INTOK) ? ml_choice_of(v.i)
							      : v.i];
		return;
	case ML_OPT_FLAG:
	case ML_OPT_TEXT:
		break;
	}
	c->kind = ML_CELL_TEXT;
	c->v.s = "";
}

const char *ml_alias_of(const struct ml_command *cmd, size_t i)
{
	size_t k;

	for (k = 0; cmd->aliases && cmd->aliases[k].opt; k++)
		if (strcmp(cmd->aliases[k].opt, cmd->opts[i].name) == 0)
			return cmd->aliases[k].alias;
	return NULL;
}

/* The index of the option named name, or cmd->nopts. */
static size_t opt_index(const struct ml_command *cmd, const char *name)
{
	size_t i;

	for (i = 0; i < cmd->nopts; i++)
		if (strcmp(cmd->opts[i].name, name) == 0)
			break;
	return i;
}

/* The choice index of u->value in its option, or -1. */
static long long unused_choice(const struct ml_command *cmd, size_t ic,
			       const struct ml_unused *u)
{
	long long c;

	for (c = 0; ic < cmd->nopts && cmd->opts[ic].choices &&
		    cmd->opts[ic].choices[c];
	     c++)
		if (strcmp(cmd->opts[ic].choices[c], u->value) == 0)
			return (cmd->opts[ic].flags & ML_OPT_INTOK) ? -c - 1 : c;
	return -1;
}

bool ml_unused_everywhere(const struct run *r, const struct ml_unused *u)
{
	size_t ic = opt_index(r->cmd, u->flag);
	long long c = unused_choice(r->cmd, ic, u);

	return c >= 0 && r->base && r->varies && !r->varies[ic] &&
	       r->base[ic].i == c;
}

/* The choice index of value v of CHOICE option o, or -1 (an integer of
 * an INTOK option). */
static long long choice_of(const struct ml_opt *o, union ml_val v)
{
	return (o->flags & ML_OPT_INTOK) ? ml_choice_of(v.i) : v.i;
}

static bool listed_name(const char *const *names, const char *name)
{
	for (; names && *names; names++)
		if (strcmp(*names, name) == 0)
			return true;
	return false;
}

void ml_note_ignored(struct run *r, const struct ml_vlist *const *vl)
{
	const struct ml_command *cmd = r->cmd;
	const struct ml_ignored *g;
	size_t e;

	for (e = 0, g = cmd->ignored; g && g->opt && e < 64; e++, g++) {
		size_t io = opt_index(cmd, g->opt), ic = opt_index(cmd, g->flag);
		const struct ml_opt *fo;
		const struct ml_vlist *fl;
		char names[256] = "", uses[256] = "";
		unsigned long long k, seen = 0;
		size_t n = 0;

		if ((r->ignored_noted >> e) & 1 || io >= cmd->nopts ||
		    ic >= cmd->nopts || !r->given[io] ||
		    cmd->opts[ic].kind != ML_OPT_CHOICE)
			continue;
		fo = &cmd->opts[ic];
		fl = vl[ic];
		for (k = 0; k < fl->count; k++) {
			long long c = choice_of(fo, ml_vlist_at(fl, k));

			if (c < 0 || c >= 64 || (seen >> c) & 1 ||
			    listed_name(g->uses, fo->choices[c]))
				continue;
			seen |= 1ULL << c;
			n += (size_t)snprintf(names + n,
					      n < sizeof(names) ? sizeof(names) - n
								: 0,
					      "%s%s", n ? "," : "",
					      fo->choices[c]);
		}
		if (seen == 0)
			continue;
		for (n = 0, k = 0; g->uses[k]; k++)
			n += (size_t)snprintf(uses + n,
					      n < sizeof(uses) ? sizeof(uses) - n
							       : 0,
					      "%s%s", k ? "," : "", g->uses[k]);
		r->ignored_noted |= 1ULL << e;
		ml_warn(r->ctx,
			"%s: --%s: ignored by the points with --%s %s (used by "
			"--%s %s only)",
			cmd->name, g->opt, g->flag, names, g->flag, uses);
	}
}

/* Every value of fl, the list of u's flag (option ic), is u's value. */
static bool all_unused(const struct ml_command *cmd, size_t ic,
		       const struct ml_vlist *fl, const struct ml_unused *u)
{
	long long c = unused_choice(cmd, ic, u);
	unsigned long long k;

	if (c < 0 || fl->count == 0)
		return false;
	for (k = 0; k < fl->count; k++)
		if (ml_vlist_at(fl, k).i != c)
			return false;
	return true;
}

bool ml_unused_in_all(const struct ml_command *cmd,
		      const struct ml_vlist *vl, const struct ml_unused *u)
{
	size_t ic = opt_index(cmd, u->flag);

	return ic < cmd->nopts && all_unused(cmd, ic, &vl[ic], u);
}

bool ml_unused_in_row(const struct ml_command *cmd,
		      const struct ml_vlist *const *vl,
		      const struct ml_unused *u)
{
	size_t ic = opt_index(cmd, u->flag);

	return ic < cmd->nopts && vl[ic] && all_unused(cmd, ic, vl[ic], u);
}

bool ml_opt_is_column(const struct run *r, size_t i)
{
	const struct ml_opt *o = &r->cmd->opts[i];
	size_t k;

	if (o->kind == ML_OPT_FLAG || o->kind == ML_OPT_TEXT)
		return false;
	if ((o->flags & ML_OPT_NOCOL) && !(r->given && r->given[i]))
		return false;
	for (k = 0; r->cmd->unused && r->cmd->unused[k].opt; k++)
		if (strcmp(r->cmd->unused[k].opt, o->name) == 0 &&
		    (r->cmd->unused[k].value
			     ? ml_unused_everywhere(r, &r->cmd->unused[k])
			     : flag_set(r->cmd, r->base,
					r->cmd->unused[k].flag)))
			return false;
	return !res_named(r, o->name);
}

/* Append a column name to r->names: the plain name with '-' -> '_', and
 * a time column's unit, "latency[us]" ("[us/byte]" for a time per
 * byte): in the table always, in CSV and JSON when --unit is not the
 * model's own, so that --input reads the file back in its unit. */
static const char *add_name(struct run *r, const char *name, bool time,
			    const char *unit)
{
	char *d = r->names + r->names_len;
	size_t n = strlen(name), i;
	const char *per = unit ? strchr(unit, '/') : NULL;

	for (i = 0; i < n; i++)
		d[i] = name[i] == '-' ? '_' : name[i];
	if (time && (r->spec.fmt == ML_FMT_TABLE ||
		     strcmp(r->unit_name, r->cmd->time_unit) != 0))
		n += (size_t)sprintf(d + n, "[%s%.20s]", r->unit_name,
				     per ? per : "");
	d[n] = '\0';
	r->names_len += n + 1;
	return d;
}

/* Every column that may be printed, in default order: --keep columns,
 * inputs, results, status. */
static size_t all_columns(struct run *r, struct ml_outcol *oc,
			  struct colref *refs)
{
	const struct ml_command *cmd = r->cmd;
	size_t i, n = 0;

	for (i = 0; i < r->nkeep; i++) {
		oc[n].name = add_name(r, r->keepnames[i], false, NULL);
		oc[n].left = true;
		refs[n].src = SRC_KEEP;
		refs[n++].idx = i;
	}
	for (i = 0; i < cmd->nopts; i++) {
		const struct ml_opt *o = &cmd->opts[i];

		if (!ml_opt_is_column(r, i))
			continue;
		oc[n].name = add_name(r, o->name, o->kind == ML_OPT_TIME,
				      o->unit);
		oc[n].left = o->kind == ML_OPT_CHOICE;
		refs[n].src = SRC_OPT;
		refs[n++].idx = i;
	}
	for (i = 0; i < cmd->ncols; i++) {
		const struct ml_col *c = &cmd->cols[i];

		if (!res_visible(cmd, r->base, i))
			continue;
		oc[n].name = add_name(r, c->name, c->kind == ML_COL_TIME, NULL);
		oc[n].left = c->kind == ML_COL_TEXT;
		oc[n].brief = c->brief;
		refs[n].src = SRC_RES;
		refs[n].noapply = !res_applies(r, i);
		refs[n].detail = c->detail;
		refs[n++].idx = i;
	}
	oc[n].name = "status";
	oc[n].left = true;
	refs[n].src = SRC_STATUS;
	refs[n++].idx = 0;
	return n;
}

/* The column of the option whose alias is the len bytes at tok, or
 * nall. */
static size_t by_alias(const struct run *r, const char *tok, size_t len,
		       size_t nall, const struct ml_outcol *oc)
{
	const struct ml_alias *a = r->cmd->aliases;
	size_t k, n;

	for (; a && a->opt; a++) {
		if (strlen(a->alias) != len || !same_n(a->alias, tok, len))
			continue;
		n = strlen(a->opt);
		for (k = 0; k < nall; k++)
			if (strcspn(oc[k].name, "[") == n &&
			    same_n(a->opt, oc[k].name, n))
				return k;
	}
	return nall;
}

/* The column name nearest a mistyped one (suggest.c), or NULL. */
static const char *suggest_column(const char *name, size_t nall,
				  const struct ml_outcol *oc)
{
	char plain[64][64];
	const char *names[64] = {NULL};
	size_t k, n = 0;

	for (k = 0; k < nall && n < 64; k++) {
		snprintf(plain[n], sizeof(plain[n]), "%.*s",
			 (int)strcspn(oc[k].name, "["), oc[k].name);
		names[n] = plain[n];
		n++;
	}
	const char *pick = n ? ml_suggest(name, names, n) : NULL;

	for (k = 0; pick && k < n; k++)
		if (pick == plain[k])
			return oc[k].name;
	return NULL;
}

/* Number of names in a --columns list (commas + 1). */
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
 * empty name ("a,,b", "a,") is an error.  Names match with '-' or '_'
 * and without the table's "[unit]".  r->ocols holds count_names().
 */
static int select_columns(struct run *r, const char *list, size_t nall,
			  const struct ml_outcol *oc, const struct colref *refs)
{
	const char *tok = list;
	size_t n = 0, k, len, plen;
	char msg[160], q[ML_QUOTE_LEN];
	const char *opt = r->colopt ? r->colopt : "columns";

	for (;; tok += len + 1) {
		len = strcspn(tok, ",");
		if (len == 0) {
			snprintf(msg, sizeof(msg),
				 "%s has an empty column name",
				 ml_quote(q, sizeof(q), list));
			return ml_usage_err(r->ctx, r->cmd->name, opt, msg);
		}
		for (k = 0; k < nall; k++) {
			plen = strcspn(oc[k].name, "[");
			if (plen == len && same_n(tok, oc[k].name, len))
				break;
		}
		if (k == nall) /* an alias names its option's column */
			k = by_alias(r, tok, len, nall, oc);
		if (k == nall) {
			char *name = strndup(tok, len);
			const char *pick = name ? suggest_column(name, nall, oc)
						: NULL;

			if (pick)
				snprintf(msg, sizeof(msg),
					 "%s is not a column (did you mean %.*s?)",
					 ml_quote(q, sizeof(q), name),
					 (int)strcspn(pick, "["), pick);
			else
				snprintf(msg, sizeof(msg),
					 "%s is not a column (see --help)",
					 ml_quote(q, sizeof(q), name ? name : "?"));
			free(name);
			return ml_usage_err(r->ctx, r->cmd->name, opt, msg);
		}
		r->ocols[n] = oc[k];
		r->refs[n++] = refs[k];
		if (tok[len] == '\0')
			break;
	}
	r->spec.ncols = n;
	return 0;
}

/* " name=value" of a constant input (its first value) into the line. */
static void const_item(struct run *r, size_t i, struct ml_buf *b)
{
	const struct ml_opt *o = &r->cmd->opts[i];
	struct ml_outspec full = r->spec;
	struct ml_cell c;
	char num[48], name[80];
	const char *t = num;

	full.precision = 0;
	full.fmt = ML_FMT_CSV;
	ml_cell_from_opt(r, i, r->constval ? r->constval[i] : r->base[i], &c);
	if (c.kind == ML_CELL_TEXT)
		t = c.v.s;
	else
		ml_out_number(&full, &c, num);
	snprintf(name, sizeof(name), "%s", o->name);
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	ml_buf_put(b, " ", 1);
	ml_buf_put(b, name, strlen(name));
	ml_buf_put(b, "=", 1);
	ml_buf_put(b, t, strlen(t));
	/* 12.5us reads back as an option value; cycles take no suffix */
	if (o->kind == ML_OPT_TIME && c.kind != ML_CELL_TEXT &&
	    ml_time_scale(r->unit_name) != 0.0)
		ml_buf_put(b, r->unit_name, strlen(r->unit_name));
}

/* A constant ML_OPT_MACHINE option that the "# machine=" item stands
 * for: one the user did not give on the command line. */
static bool by_machine(const struct run *r, size_t i)
{
	return (r->cmd->opts[i].flags & ML_OPT_MACHINE) &&
	       (!r->given[i] || (r->infile && r->infile[i]));
}

/* " machine=NAME": the --input file if it gives a machine option, else
 * the command's machine; nothing if no option needs it. */
static void machine_item(const struct run *r, const struct colref *refs,
			 size_t nall, struct ml_buf *b)
{
	const char *name = r->cmd->machine;
	bool any = false;
	size_t k, i;

	for (k = 0; k < nall; k++) {
		if (refs[k].src != SRC_OPT || r->varies[refs[k].idx] ||
		    !by_machine(r, refs[k].idx))
			continue;
		i = refs[k].idx;
		any = true;
		if (r->infile && r->infile[i] && r->input_name)
			name = r->input_name;
	}
	if (!any || name == NULL)
		return;
	ml_buf_put(b, " machine=", 9);
	ml_buf_put(b, name, strlen(name));
}

/*
 * The default table: the inputs that vary, then the results that apply
 * and are not details, and status; the constant inputs go on the "#
 * name=value ..." line (r->constline), the machine's by its name.
 */
static int table_columns(struct run *r, size_t nall,
			 const struct ml_outcol *oc, const struct colref *refs)
{
	struct ml_buf b = {0};
	size_t k, n = 0;
	bool named = r->cmd->machine != NULL || r->input_name != NULL;

	ml_buf_put(&b, "#", 1);
	if (named)
		machine_item(r, refs, nall, &b);
	for (k = 0; k < nall; k++) {
		if (refs[k].noapply || refs[k].detail)
			continue;
		if (refs[k].src == SRC_OPT && !r->varies[refs[k].idx]) {
			size_t i = refs[k].idx;

			if ((named && by_machine(r, i)) ||
			    ((r->cmd->opts[i].flags & ML_OPT_TERSE) &&
			     !r->given[i]))
				continue;
			const_item(r, i, &b);
			continue;
		}
		r->ocols[n] = oc[k];
		r->refs[n++] = refs[k];
	}
	r->spec.ncols = n;
	ml_buf_put(&b, "\n", 2); /* with its NUL */
	if (b.oom) {
		ml_buf_free(&b);
		return ml_usage_err(r->ctx, r->cmd->name, NULL, "out of memory");
	}
	if (b.len > 3)
		r->constline = b.p;
	else
		ml_buf_free(&b);
	return 0;
}

int ml_setup_columns(struct run *r)
{
	const struct ml_command *cmd = r->cmd;
	size_t max = cmd->nopts + cmd->ncols + 1 + r->nkeep, nall, k;
	struct ml_outcol *oc = calloc(max, sizeof(*oc));
	struct colref *refs = calloc(max, sizeof(*refs));
	const char *list = r->collist;
	size_t room = max + (list ? count_names(list) : 0), nbytes = 0;
	int rc = 0;

	ml_free_columns(r);
	for (k = 0; k < r->nkeep; k++)
		nbytes += strlen(r->keepnames[k]) + 1;
	nbytes += max * 96;
	r->names = malloc(nbytes);
	r->names_len = 0;
	/* Room for every name --columns gives, repeated or not. */
	r->ocols = calloc(room, sizeof(*r->ocols));
	r->refs = calloc(room, sizeof(*r->refs));
	r->finite = calloc(cmd->ncols + 1, sizeof(*r->finite));
	if (!oc || !refs || !r->ocols || !r->refs || !r->finite || !r->names) {
		rc = ml_usage_err(r->ctx, cmd->name, NULL, "out of memory");
		goto out;
	}
	nall = all_columns(r, oc, refs);
	for (k = 0; k < cmd->ncols; k++)
		r->finite[k] = res_visible(cmd, r->base, k) &&
			       !cmd->cols[k].na &&
			       cmd->cols[k].kind != ML_COL_TEXT &&
			       cmd->cols[k].kind != ML_COL_INT;
	if (list) {
		rc = select_columns(r, list, nall, oc, refs);
	} else if (r->spec.fmt == ML_FMT_TABLE && !r->allcols) {
		rc = table_columns(r, nall, oc, refs);
	} else {
		size_t n = 0;

		for (k = 0; k < nall; k++) {
			if (refs[k].noapply)
				continue;
			r->ocols[n] = oc[k];
			r->refs[n++] = refs[k];
		}
		r->spec.ncols = n;
	}
	r->spec.cols = r->ocols;
out:
	free(oc);
	free(refs);
	return rc;
}

void ml_free_columns(struct run *r)
{
	free(r->ocols);
	free(r->refs);
	free(r->finite);
	free(r->names);
	free(r->constline);
	r->ocols = NULL;
	r->refs = NULL;
	r->finite = NULL;
	r->names = NULL;
	r->constline = NULL;
}

void ml_out_preamble(const struct run *r, struct ml_buf *b)
{
	if (r->constline && r->spec.header)
		ml_buf_put(b, r->constline, strlen(r->constline));
	ml_out_header(&r->spec, b);
}
