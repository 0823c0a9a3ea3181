/* cmd_torus.c - `mcastlat torus`: options -> ml_torus_eval -> row. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "mcastlat/torus.h"

static const char *const alg_names[] = {"sep", "u", "s", "md", "mu", NULL};
static const char *const model_names[] = {"paper", "structural", NULL};
static const char *const variant_names[] = {"default", "eq6", "minus1", "steps",
					    "literal", "e",   "h",	NULL};
static const char *const placement_names[] = {"rowmajor", "random", NULL};

enum {
	O_ALGORITHM,
	O_K,
	O_DIMS,
	O_GROUP,
	O_MSG,
	O_MODEL,
	O_VARIANT,
	O_R,
	O_O,
	O_TPROCESS,
	O_ROOT,
	O_PLACEMENT,
	O_SEED,
	O_MEMBERS,
	O_FULL,
	O_LP,
	O_LF,
	O_LS,
	NOPTS
};

/* NOCOL options are echoed by result columns with the value used (r, o,
 * t_process) or are structural details (root, placement, seed, Lp, Lf,
 * Ls); see mcastlat-torus(1). */
static const struct ml_opt opts[NOPTS] = {
    [O_ALGORITHM] = {.name = "algorithm",
		     .kind = ML_OPT_CHOICE,
		     .def = "all",
		     .flags = ML_OPT_ALL,
		     .choices = alg_names,
		     .help = "multicast algorithm"},
    [O_K] = {.name = "k",
	     .kind = ML_OPT_INT,
	     .def = "4",
	     .imin = 2,
	     .help = "nodes per dimension"},
    [O_DIMS] = {.name = "dims",
		.kind = ML_OPT_INT,
		.def = "2",
		.imin = 1,
		.imax = 64,
		.help = "dimensions N"},
    [O_GROUP] = {.name = "group",
		 .kind = ML_OPT_INT,
		 .def = "16",
		 .imin = 2,
		 .help = "group size G, root included, <= k^N"},
    [O_MSG] = {.name = "msg",
	       .kind = ML_OPT_INT,
	       .def = "128",
	       .unit = "bytes",
	       .imin = 1,
	       .help = "message size M"},
    [O_MODEL] = {.name = "model",
		 .kind = ML_OPT_CHOICE,
		 .def = "paper",
		 .choices = model_names,
		 .help = "closed forms, or trees built on the torus"},
    [O_VARIANT] = {.name = "variant",
		   .kind = ML_OPT_CHOICE,
		   .def = "default",
		   .choices = variant_names,
		   .help = "reading of a reconstructed equation "
			   "(eq6: sep; minus1: md; steps, literal, e, h: u)"},
    [O_R] = {.name = "r",
	     .kind = ML_OPT_INT,
	     .imin = 2,
	     .flags = ML_OPT_NOCOL,
	     .help = "Mu-torus partition length, auto = k"},
    [O_O] = {.name = "o",
	     .kind = ML_OPT_TIME,
	     .flags = ML_OPT_NOCOL,
	     .help = "overhead o, auto = 1.994 + 0.00315 (M - 128) us"},
    [O_TPROCESS] = {.name = "tprocess",
		    .kind = ML_OPT_TIME,
		    .flags = ML_OPT_NOCOL,
		    .help = "t_process of every row, auto = Table 1"},
    [O_ROOT] = {.name = "root",
		.kind = ML_OPT_INT,
		.imin = 0,
		.flags = ML_OPT_NOCOL,
		.help = "structural: root node id, auto = 0 or the "
			"first of --members"},
    [O_PLACEMENT] = {.name = "placement",
		     .kind = ML_OPT_CHOICE,
		     .def = "rowmajor",
		     .flags = ML_OPT_NOCOL,
		     .choices = placement_names,
		     .help = "structural: group = root and the next "
			     "G - 1 ids, or random"},
    [O_SEED] = {.name = "seed",
		.kind = ML_OPT_INT,
		.def = "1",
		.imin = 0,
		.flags = ML_OPT_NOCOL,
		.help = "structural: seed of --placement random"},
    [O_MEMBERS] = {.name = "members",
		   .kind = ML_OPT_TEXT,
		   .help = "structural: the group as node ids, "
			   "comma-separated, G of them"},
    [O_FULL] = {.name = "full",
		.kind = ML_OPT_FLAG,
		.help = "structural: add hp Lp + hf Lf + hs Ls (eq 4)"},
    [O_LP] = {.name = "lp",
	      .kind = ML_OPT_TIME,
	      .def = "14ns",
	      .flags = ML_OPT_NOCOL,
	      .help = "propagation delay per hop Lp"},
    [O_LF] = {.name = "lf",
	      .kind = ML_OPT_TIME,
	      .def = "60ns",
	      .flags = ML_OPT_NOCOL,
	      .help = "forwarding delay per node Lf"},
    [O_LS] = {.name = "ls",
	      .kind = ML_OPT_TIME,
	      .def = "670ns",
	      .flags = ML_OPT_NOCOL,
	      .help = "switching delay per node Ls"},
};

enum {
	C_R,
	C_O,
	C_TPROCESS,
	C_LI,
	C_H,
	C_H_PLAIN,
	C_H_SERIAL,
	C_HOP_DEPTH,
	C_LATENCY,
	C_HP,
	C_HF,
	C_HS,
	C_T_NETWORK,
	C_NOTE,
	NCOLS
};

static const struct ml_col cols[NCOLS] = {
    [C_R] = {.name = "r",
	     .kind = ML_COL_INT,
	     .help = "Mu-torus partition length used"},
    [C_O] = {.name = "o", .kind = ML_COL_TIME, .help = "overhead o used"},
    [C_TPROCESS] = {.name = "t_process",
		    .kind = ML_COL_TIME,
		    .help = "t_process used"},
    [C_LI] = {.name = "L_i",
	      .kind = ML_COL_TIME,
	      .help = "L_i = t_process + 2 o"},
    [C_H] = {.name = "h",
	     .kind = ML_COL_REAL,
	     .help = "relays h of eq 7 (sep: the G - 1 serial sends)"},
    [C_H_PLAIN] = {.name = "h_plain",
		   .kind = ML_COL_REAL,
		   .na = true,
		   .help = "structural: relays on the deepest path"},
    [C_H_SERIAL] = {.name = "h_serial",
		    .kind = ML_COL_REAL,
		    .na = true,
		    .help = "structural: relays plus earlier sends of "
			    "their senders"},
    [C_HOP_DEPTH] = {.name = "hop_depth",
		     .kind = ML_COL_REAL,
		     .na = true,
		     .help = "structural: messages on the deepest path"},
    [C_LATENCY] = {.name = "latency",
		   .kind = ML_COL_TIME,
		   .help = "multicast latency"},
    [C_HP] = {.name = "hp",
	      .kind = ML_COL_REAL,
	      .na = true,
	      .help = "network hops of the deepest path",
	      .only_with = "full"},
    [C_HF] = {.name = "hf",
	      .kind = ML_COL_REAL,
	      .na = true,
	      .help = "forwarding nodes on it",
	      .only_with = "full"},
    [C_HS] = {.name = "hs",
	      .kind = ML_COL_REAL,
	      .na = true,
	      .help = "switching nodes on it",
	      .only_with = "full"},
    [C_T_NETWORK] = {.name = "t_network",
		     .kind = ML_COL_TIME,
		     .na = true,
		     .help = "hp Lp + hf Lf + hs Ls",
		     .only_with = "full"},
    [C_NOTE] = {.name = "note",
		.kind = ML_COL_TEXT,
		.help = "o extrapolated, 2-D form for N != 2, variant "
			"ignored",
		.always = true},
};

/*
 * Parse the --members text: node ids, comma-separated, at least two.
 * On success *ids (to be freed) holds *n ids.
 */
static enum ml_status parse_members(const char *text, unsigned long long **ids,
				    size_t *n, struct ml_diag *d)
{
	const char *s;
	unsigned long long *v;
	size_t cap = 1, i = 0;

	for (s = text; *s; s++)
		cap += *s == ',';
	v = malloc(cap * sizeof(*v));
	if (v == NULL)
		return ML_ENOMEM;
	for (s = text;; s++) {
		size_t len = strcspn(s, ",");
		char *end = NULL;

		errno = 0;
		if (*s >= '0' && *s <= '9')
			v[i++] = strtoull(s, &end, 10);
		if (end != s + len || errno == ERANGE) {
			free(v);
			return ml_diag_set(d, "members",
					   "'%.*s' is not a node id",
					   (int)(len < 20 ? len : 20), s);
		}
		s = end;
		if (*s == '\0')
			break;
	}
	if (i < 2) {
		free(v);
		return ml_diag_set(d, "members", "needs at least 2 node ids");
	}
	*ids = v;
	*n = i;
	return ML_OK;
}

/* Options -> params; *ids receives the parsed members (or NULL). */
static enum ml_status to_params(const union ml_val *v,
				struct ml_torus_params *p,
				unsigned long long **ids, struct ml_diag *d)
{
	size_t n = 0;
	enum ml_status st;

	*ids = NULL;
	if (v[O_MEMBERS].s != NULL) {
		st = parse_members(v[O_MEMBERS].s, ids, &n, d);
		if (st != ML_OK)
			return st;
	}
	ml_torus_params_init(p);
	p->alg = (enum ml_torus_alg)v[O_ALGORITHM].i;
	p->model = (enum ml_torus_model)v[O_MODEL].i;
	p->variant = (enum ml_torus_variant)v[O_VARIANT].i;
	p->k = (unsigned long long)v[O_K].i;
	p->dims = (unsigned)v[O_DIMS].i;
	p->group = (unsigned long long)v[O_GROUP].i;
	p->msg = (unsigned long long)v[O_MSG].i;
	p->r = v[O_R].i == ML_AUTO_INT ? 0 : (unsigned long long)v[O_R].i;
	p->o = v[O_O].r;
	p->tprocess = v[O_TPROCESS].r;
	p->root = v[O_ROOT].i != ML_AUTO_INT ? (unsigned long long)v[O_ROOT].i
		  : *ids != NULL	     ? (*ids)[0]
					     : 0;
	p->placement = (enum ml_torus_placement)v[O_PLACEMENT].i;
	p->seed = (unsigned long long)v[O_SEED].i;
	p->members = *ids;
	p->nmembers = n;
	p->full = v[O_FULL].i != 0;
	p->lp = v[O_LP].r;
	p->lf = v[O_LF].r;
	p->ls = v[O_LS].r;
	return ML_OK;
}

static enum ml_status check(const struct ml_point *pt, struct ml_diag *d)
{
	struct ml_torus_params p;
	unsigned long long *ids;
	enum ml_status st;

	st = to_params(pt->v, &p, &ids, d);
	if (st == ML_OK)
		st = ml_torus_validate(&p, d);
	free(ids);
	if (st == ML_ENOMEM)
		st = ml_diag_set(d, "members", "out of memory");
	return st;
}

static enum ml_status eval(const struct ml_point *pt, union ml_val *out)
{
	struct ml_torus_params p;
	struct ml_torus_result r;
	unsigned long long *ids;
	enum ml_status st;

	st = to_params(pt->v, &p, &ids, NULL);
	if (st == ML_OK)
		st = ml_torus_eval(&p, &r);
	free(ids);
	if (st != ML_OK)
		return st;
	out[C_R].i = (long long)r.r;
	out[C_O].r = r.o;
	out[C_TPROCESS].r = r.tprocess;
	out[C_LI].r = r.li;
	out[C_H].r = r.h;
	out[C_H_PLAIN].r = r.h_plain;
	out[C_H_SERIAL].r = r.h_serial;
	out[C_HOP_DEPTH].r = r.hop_depth;
	out[C_LATENCY].r = r.latency;
	out[C_HP].r = r.hp;
	out[C_HF].r = r.hf;
	out[C_HS].r = r.hs;
	out[C_T_NETWORK].r = r.t_network;
	out[C_NOTE].s = ml_torus_note(r.notes);
	return ML_OK;
}

/* A fit's points are independent of one another: --members, a file of
 * group members, would describe one group for all of them. */
static enum ml_status fit_params(const union ml_val *v, void *params,
				 struct ml_diag *d)
{
	unsigned long long *ids;
	enum ml_status st;

	if (v[O_MEMBERS].s != NULL)
		return ml_diag_set(d, "members", "is not read by fit");
	st = to_params(v, params, &ids, d);
	free(ids);
	return st;
}

static const char *const fit_inputs[] = {
    "k", "dims", "group", "msg", "r", "root", "placement", "seed", NULL};

static const char *fit_needs(const union ml_val *v, const bool *stated)
{
	(void)v;
	return stated[O_GROUP] ? NULL : "group";
}
/* The statuses of a row (man page: STATUS). */
static const struct ml_status_doc statuses[] = {
    {ML_OK, "every result is valid"},
    {ML_EINVAL, "the point is outside the model's domain (a sweep goes on; a warning names the rule)"},
    {ML_OVERFLOW, "a result is not finite (huge inputs such as 1e308; the note names it)"},
    {ML_ENOMEM, "the member list or the structural model does not fit in memory"},
    {ML_OK, NULL}};

const struct ml_command ml_cmd_torus = {
    .name = "torus",
    .summary = "multicast latency on unidirectional SCI tori: separate "
	       "addressing, U-, S-, Md- and Mu-torus",
    .source = "Oral & George 2003",
    .time_unit = "us",
    .opts = opts,
    .nopts = NOPTS,
    .cols = cols,
    .ncols = NCOLS,
    .check = check,
    .eval = eval,
    .fit_model = &ml_fit_torus,
    .fit_params = fit_params,
    .fit_inputs = fit_inputs,
    .fit_needs = fit_needs,
    .fit_pair = "group",
    .statuses = statuses,
};
