/*
 * run.c - the engine shared by every command: option parsing (getopt_long
 * built from the command's table), value lists, the cartesian product
 * streamed in chunks (serially or on --jobs threads, in order), --shard,
 * --input batch files, and rows handed to the output module.
 *
 * The sweep is numbered 0 .. total-1 with the last-given option varying
 * fastest; a chunk decodes its first point by division and then steps an
 * odometer, so any slice can be evaluated independently.  Memory is
 * bounded by the chunk buffers whatever the number of points.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/output.h"
#include "cli/parse.h"
#include "cli/run.h"

enum {
	G_FORMAT = 1000,
	G_COLUMNS,
	G_PRECISION,
	G_NOHEADER,
	G_UNIT,
	G_INPUT,
	G_JOBS,
	G_SHARD,
	G_HELP
};

static const struct option global_opts[] = {
	{"columns", required_argument, NULL, G_COLUMNS},
	{"format", required_argument, NULL, G_FORMAT},
	{"help", no_argument, NULL, G_HELP},
	{"input", required_argument, NULL, G_INPUT},
	{"jobs", required_argument, NULL, G_JOBS},
	{"no-header", no_argument, NULL, G_NOHEADER},
	{"precision", required_argument, NULL, G_PRECISION},
	{"shard", required_argument, NULL, G_SHARD},
	{"unit", required_argument, NULL, G_UNIT},
};
#define NGLOBAL (sizeof(global_opts) / sizeof(global_opts[0]))
#define OPT_BASE 256

#define CHUNK_MAX 4096
#define FLUSH_BYTES (64 * 1024)
#define MAX_JOBS 256

enum colsrc { SRC_OPT, SRC_RES, SRC_STATUS };

struct colref {
	enum colsrc src;
	size_t idx;
};

/* The first row whose check() failed, for a warning. */
struct invalid_note {
	bool set;
	struct ml_diag diag;
};

/* Everything fixed for a run. */
struct run {
	const struct ml_command *cmd;
	struct ml_ctx *ctx;
	double unit_scale; /* output time = model time / unit_scale */
	struct ml_outspec spec;
	struct ml_outcol *ocols;
	struct colref *refs;
	unsigned jobs;
	unsigned long long shard_i, shard_n;
	const void *prep; /* the command's prepare() for the command line */
};

/* One sweep: the value list of every option and the order of dims. */
struct sweep {
	const struct ml_vlist *const *vl; /* per option */
	size_t ndims;
	const size_t *dim; /* option index per dim, outermost first */
	unsigned long long total;
	const union ml_val *base; /* values of options not swept */
	size_t nopts;
	const void *prep; /* the command's prepare() for this sweep */
};

/*
 * The formatted text of an input column, kept while its value does not
 * change: most inputs are constant or change only when an outer dim
 * moves, and formatting them is most of the cost of a closed-form row.
 */
struct colcache {
	bool valid;
	union ml_val last;
	size_t len;
	char txt[40];
};

/* Per-thread scratch. */
struct worker {
	union ml_val *v, *out;
	struct ml_cell *cells;
	unsigned long long *idx;
	struct colcache *cache;
	bool *dirty; /* per option: changed since its cells were built */
	char *text;  /* ML_TEXT_MAX bytes for the row's TEXT cells */
	const void *prep;
};

/* The command-line state before value lists are built. */
struct args {
	const char **raw;	/* per option: the text given, or NULL */
	size_t *order;		/* options in order of (last) appearance */
	size_t norder;
	const char *format, *columns, *precision, *unit, *input, *jobs,
		*shard;
	bool noheader, help;
};

static const char *fmt_names[] = {"table", "csv", "json", NULL};

/* ------------------------------------------------------------------ */
/* Evaluation of points                                                */

static void cell_from_opt(const struct run *r, size_t i, union ml_val v,
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

static void cell_from_res(const struct run *r, size_t j, union ml_val v,
			  bool ok, struct ml_cell *c)
{
	const struct ml_col *col = &r->cmd->cols[j];

	if (col->kind == ML_COL_TEXT) {
		c->kind = ML_CELL_TEXT;
		c->v.s = v.s ? v.s : "";
		return;
	}
	if (!ok && !col->always) {
		c->kind = ML_CELL_REAL;
		c->v.r = NAN;
		return;
	}
	if (col->kind == ML_COL_INT) {
		c->kind = ML_CELL_INT;
		c->v = v;
		return;
	}
	c->kind = ML_CELL_REAL;
	c->v.r = col->kind == ML_COL_TIME ? v.r / r->unit_scale : v.r;
}

static void reset_results(const struct ml_command *cmd, union ml_val *out)
{
	size_t j;

	for (j = 0; j < cmd->ncols; j++) {
		if (cmd->cols[j].kind == ML_COL_TEXT)
			out[j].s = NULL;
		else if (cmd->cols[j].kind == ML_COL_INT)
			out[j].i = 0;
		else
			out[j].r = NAN;
	}
}

static void cache_cell(const struct run *r, struct colcache *cc,
		       union ml_val v, struct ml_cell *c)
{
	if (c->kind != ML_CELL_INT && c->kind != ML_CELL_REAL)
		return;
	if (c->kind == ML_CELL_REAL && !isfinite(c->v.r))
		return; /* nan prints as null in json: leave it to the renderer */
	if (!cc->valid || memcmp(&cc->last, &v, sizeof(v)) != 0) {
		cc->len = ml_out_number(&r->spec, c, cc->txt);
		cc->last = v;
		cc->valid = true;
	}
	c->kind = ML_CELL_RAW;
	c->v.s = cc->txt;
	c->len = cc->len;
}

static void eval_row(const struct run *r, struct worker *w, struct ml_buf *b,
		     struct invalid_note *note)
{
	const struct ml_command *cmd = r->cmd;
	struct ml_point pt = {w->v, w->prep, w->text, r->ctx->max_work, NULL,
			      NULL};
	struct ml_diag dg = {NULL, ""};
	enum ml_status st;
	size_t j;

	/* eval() rejects what check() rejects (see cmd.h), so check() runs
	 * only to explain the first invalid row, not on every row. */
	reset_results(cmd, w->out);
	w->text[0] = '\0';
	st = cmd->eval(&pt, w->out);
	if (st == ML_EINVAL && !note->set) {
		note->set = true;
		if (cmd->check == NULL || cmd->check(&pt, &dg) == ML_OK)
			ml_diag_set(&dg, NULL, "invalid parameters");
		note->diag = dg;
	}
	for (j = 0; j < r->spec.ncols; j++) {
		const struct colref *ref = &r->refs[j];
		struct ml_cell *c = &w->cells[j];

		if (ref->src == SRC_OPT) {
			/* Unchanged inputs keep the cell of the last row. */
			if (!w->dirty[ref->idx])
				continue;
			cell_from_opt(r, ref->idx, w->v[ref->idx], c);
			cache_cell(r, &w->cache[j], w->v[ref->idx], c);
		} else if (ref->src == SRC_RES) {
			cell_from_res(r, ref->idx, w->out[ref->idx], st == ML_OK,
				      c);
			cache_cell(r, &w->cache[j], c->v, c);
		} else {
			c->kind = ML_CELL_TEXT;
			c->v.s = ml_status_word(st);
		}
	}
	ml_out_row(&r->spec, w->cells, b);
	memset(w->dirty, 0, cmd->nopts * sizeof(*w->dirty));
}

/* Set the odometer to point p and load every swept value. */
static void odometer_seek(const struct sweep *sw, struct worker *w,
			  unsigned long long p)
{
	size_t d = sw->ndims;

	memset(w->dirty, 1, sw->nopts * sizeof(*w->dirty));
	while (d-- > 0) {
		const struct ml_vlist *vl = sw->vl[sw->dim[d]];

		w->idx[d] = p % vl->count;
		p /= vl->count;
		w->v[sw->dim[d]] = ml_vlist_at(vl, w->idx[d]);
	}
}

static void odometer_step(const struct sweep *sw, struct worker *w)
{
	size_t d = sw->ndims;

	while (d-- > 0) {
		const struct ml_vlist *vl = sw->vl[sw->dim[d]];

		w->dirty[sw->dim[d]] = true;
		if (++w->idx[d] < vl->count) {
			w->v[sw->dim[d]] = ml_vlist_at(vl, w->idx[d]);
			return;
		}
		w->idx[d] = 0;
		w->v[sw->dim[d]] = ml_vlist_at(vl, 0);
	}
}

static void run_chunk(const struct run *r, const struct sweep *sw,
		      struct worker *w, unsigned long long first,
		      unsigned long long count, struct ml_buf *b,
		      struct invalid_note *note)
{
	memcpy(w->v, sw->base, r->cmd->nopts * sizeof(*w->v));
	w->prep = sw->prep;
	odometer_seek(sw, w, first);
	while (count-- > 0) {
		eval_row(r, w, b, note);
		if (count)
			odometer_step(sw, w);
	}
}

static int worker_init(struct worker *w, const struct run *r, size_t ndims)
{
	const struct ml_command *cmd = r->cmd;

	w->v = calloc(cmd->nopts + 1, sizeof(*w->v));
	w->out = calloc(cmd->ncols + 1, sizeof(*w->out));
	w->cells = calloc(r->spec.ncols + 1, sizeof(*w->cells));
	w->idx = calloc(ndims + 1, sizeof(*w->idx));
	w->cache = calloc(r->spec.ncols + 1, sizeof(*w->cache));
	w->dirty = calloc(cmd->nopts + 1, sizeof(*w->dirty));
	w->text = calloc(ML_TEXT_MAX, 1);
	w->prep = NULL;
	return w->v && w->out && w->cells && w->idx && w->cache && w->dirty &&
		       w->text
		       ? 0
		       : -1;
}

static void worker_free(struct worker *w)
{
	free(w->v);
	free(w->out);
	free(w->cells);
	free(w->idx);
	free(w->cache);
	free(w->dirty);
	free(w->text);
}

/* ------------------------------------------------------------------ */
/* Driving a sweep: serial or threaded, always in order                */

struct sink {
	struct ml_ctx *ctx;
	const char *cmdname;
	bool warned, failed;
};

static void sink_note(struct sink *s, const struct invalid_note *n)
{
	if (!n->set || s->warned)
		return;
	s->warned = true;
	ml_warn(s->ctx, "%s: --%s: %s (rows marked invalid)", s->cmdname,
		n->diag.param ? n->diag.param : "?", n->diag.msg);
}

static int sink_write(struct sink *s, struct ml_buf *b)
{
	if (b->oom) {
		ml_err(s->ctx, "%s: out of memory", s->cmdname);
		s->failed = true;
		return -1;
	}
	if (ml_buf_flush(b, s->ctx->out)) {
		s->failed = true;
		return -1;
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int sweep_serial(const struct run *r, const struct sweep *sw,
			unsigned long long lo, unsigned long long hi,
			struct sink *s)
{
	struct worker w;
	struct ml_buf b = {0};
	struct invalid_note note = {0};
	double last = now_s();
	unsigned long long p, n;
	int rc = 0;

	if (worker_init(&w, r, sw->ndims)) {
		worker_free(&w);
		ml_err(s->ctx, "%s: out of memory", s->cmdname);
		s->failed = true;
		return -1;
	}
	/* Small chunks, flushed at 64 KiB or every 50 ms, so slow models
	 * still stream rows as they are computed; a slow command's rows one
	 * by one. */
	for (p = lo; p < hi && rc == 0; p += n) {
		n = r->cmd->slow ? 1 : hi - p < 256 ? hi - p : 256;
		run_chunk(r, sw, &w, p, n, &b, &note);
		sink_note(s, &note);
		if (b.len >= FLUSH_BYTES || b.oom || r->cmd->slow ||
		    now_s() - last > 0.05) {
			rc = sink_write(s, &b);
			fflush(s->ctx->out);
			last = now_s();
		}
	}
	if (rc == 0)
		rc = sink_write(s, &b);
	ml_buf_free(&b);
	worker_free(&w);
	return rc;
}

enum slot_state { SLOT_FREE, SLOT_BUSY, SLOT_DONE };

struct slot {
	enum slot_state state;
	unsigned long long chunk;
	struct ml_buf buf;
	struct invalid_note note;
};

struct pool {
	const struct run *r;
	const struct sweep *sw;
	unsigned long long lo, hi, csize, nchunks, next;
	struct slot *slots;
	size_t nslots;
	bool stop, oom;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void *pool_worker(void *arg)
{
	struct pool *pl = arg;
	struct worker w;
	bool ok = worker_init(&w, pl->r, pl->sw->ndims) == 0;

	for (;;) {
		unsigned long long c, first, n;
		struct slot *s;

		pthread_mutex_lock(&pl->mu);
		while (!pl->stop && pl->next < pl->nchunks &&
		       pl->slots[pl->next % pl->nslots].state != SLOT_FREE)
			pthread_cond_wait(&pl->cv, &pl->mu);
		if (pl->stop || pl->next >= pl->nchunks || !ok) {
			if (!ok)
				pl->oom = pl->stop = true;
			pthread_cond_broadcast(&pl->cv);
			pthread_mutex_unlock(&pl->mu);
			break;
		}
		c = pl->next++;
		s = &pl->slots[c % pl->nslots];
		s->state = SLOT_BUSY;
		s->chunk = c;
		pthread_mutex_unlock(&pl->mu);

		first = pl->lo + c * pl->csize;
		n = pl->hi - first < pl->csize ? pl->hi - first : pl->csize;
		run_chunk(pl->r, pl->sw, &w, first, n, &s->buf, &s->note);

		pthread_mutex_lock(&pl->mu);
		s->state = SLOT_DONE;
		pthread_cond_broadcast(&pl->cv);
		pthread_mutex_unlock(&pl->mu);
	}
	worker_free(&w);
	return NULL;
}

static int sweep_threaded(const struct run *r, const struct sweep *sw,
			  unsigned long long lo, unsigned long long hi,
			  struct sink *sk)
{
	struct pool pl = {.r = r, .sw = sw, .lo = lo, .hi = hi};
	pthread_t th[MAX_JOBS];
	unsigned long long c;
	unsigned i, nth = 0;
	int rc = 0;

	/* Chunks small enough to keep every thread busy, large enough to
	 * make locking negligible. */
	pl.csize = (hi - lo) / ((unsigned long long)r->jobs * 16);
	if (pl.csize < 16)
		pl.csize = 16;
	if (pl.csize > CHUNK_MAX)
		pl.csize = CHUNK_MAX;
	if (r->cmd->slow)
		pl.csize = 1;
	pl.nchunks = (hi - lo + pl.csize - 1) / pl.csize;
	pl.nslots = (size_t)r->jobs * 4;
	pl.slots = calloc(pl.nslots, sizeof(*pl.slots));
	if (pl.slots == NULL) {
		ml_err(sk->ctx, "%s: out of memory", sk->cmdname);
		sk->failed = true;
		return -1;
	}
	pthread_mutex_init(&pl.mu, NULL);
	pthread_cond_init(&pl.cv, NULL);
	for (i = 0; i < r->jobs; i++)
		if (pthread_create(&th[nth], NULL, pool_worker, &pl) == 0)
			nth++;
	for (c = 0; c < pl.nchunks && nth > 0; c++) {
		struct slot *s = &pl.slots[c % pl.nslots];

		pthread_mutex_lock(&pl.mu);
		while (!pl.oom && !(s->state == SLOT_DONE && s->chunk == c))
			pthread_cond_wait(&pl.cv, &pl.mu);
		pthread_mutex_unlock(&pl.mu);
		if (pl.oom)
			break;
		sink_note(sk, &s->note);
		if (rc == 0)
			rc = sink_write(sk, &s->buf);
		if (rc == 0 && r->cmd->slow)
			fflush(sk->ctx->out); /* each row as soon as it is done */
		pthread_mutex_lock(&pl.mu);
		s->state = SLOT_FREE;
		s->buf.len = 0;
		if (rc)
			pl.stop = true;
		pthread_cond_broadcast(&pl.cv);
		pthread_mutex_unlock(&pl.mu);
		if (rc)
			break;
	}
	pthread_mutex_lock(&pl.mu);
	pl.stop = true;
	pthread_cond_broadcast(&pl.cv);
	pthread_mutex_unlock(&pl.mu);
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	if ((pl.oom || nth == 0) && rc == 0) {
		ml_err(sk->ctx, "%s: cannot start threads", sk->cmdname);
		sk->failed = true;
		rc = -1;
	}
	for (c = 0; c < pl.nslots; c++)
		ml_buf_free(&pl.slots[c].buf);
	free(pl.slots);
	pthread_cond_destroy(&pl.cv);
	pthread_mutex_destroy(&pl.mu);
	return rc;
}

/* Evaluate points [lo, hi) of the sweep in order. */
static int sweep_range(const struct run *r, const struct sweep *sw,
		       unsigned long long lo, unsigned long long hi,
		       struct sink *s)
{
	if (lo >= hi)
		return 0;
	if (r->jobs > 1 && (hi - lo >= 64 || (r->cmd->slow && hi - lo >= 2)))
		return sweep_threaded(r, sw, lo, hi, s);
	return sweep_serial(r, sw, lo, hi, s);
}

/* ------------------------------------------------------------------ */
/* Parsing the command line                                            */

static int usage_err(struct ml_ctx *ctx, const char *cmd, const char *opt,
		     const char *msg)
{
	if (opt)
		ml_err(ctx, "%s: --%s: %s", cmd, opt, msg);
	else
		ml_err(ctx, "%s: %s", cmd, msg);
	return ML_EXIT_USAGE;
}

/* The argv element that named the option just returned by getopt_long. */
static const char *opt_element(char **argv, int optind_now, bool has_arg)
{
	const char *last = argv[optind_now - 1];

	/* "--name=value": optarg points into the element itself. */
	if (!has_arg || optarg != last)
		return last;
	return argv[optind_now - 2];
}

static void add_order(struct args *a, size_t i)
{
	size_t k, n = 0;

	/* The last occurrence decides both value and position. */
	for (k = 0; k < a->norder; k++)
		if (a->order[k] != i)
			a->order[n++] = a->order[k];
	a->order[n++] = i;
	a->norder = n;
}

static int set_global(struct args *a, int c, const char *arg)
{
	switch (c) {
	case G_FORMAT:
		a->format = arg;
		break;
	case G_COLUMNS:
		a->columns = arg;
		break;
	case G_PRECISION:
		a->precision = arg;
		break;
	case G_NOHEADER:
		a->noheader = true;
		break;
	case G_UNIT:
		a->unit = arg;
		break;
	case G_INPUT:
		a->input = arg;
		break;
	case G_JOBS:
		a->jobs = arg;
		break;
	case G_SHARD:
		a->shard = arg;
		break;
	case G_HELP:
		a->help = true;
		break;
	default:
		return -1;
	}
	return 0;
}

static const char *elem_name(const char *elem, char *buf, size_t len)
{
	size_t n = strcspn(elem, "=");

	if (n >= len)
		n = len - 1;
	memcpy(buf, elem, n);
	buf[n] = '\0';
	return buf;
}

static bool takes_no_value(const struct option *lo, const char *name)
{
	for (; lo->name; lo++)
		if (strncmp(name, "--", 2) == 0 &&
		    strcmp(lo->name, name + 2) == 0)
			return lo->has_arg == no_argument;
	return false;
}

static int parse_args(const struct ml_command *cmd, int argc, char **argv,
		      struct ml_ctx *ctx, struct option *lo, struct args *a)
{
	size_t i, n = 0;
	int c, idx;
	char name[64];

	for (i = 0; i < cmd->nopts; i++) {
		lo[n].name = cmd->opts[i].name;
		lo[n].has_arg = cmd->opts[i].kind == ML_OPT_FLAG
					? no_argument
					: required_argument;
		lo[n].flag = NULL;
		lo[n].val = OPT_BASE + (int)i;
		n++;
	}
	for (i = 0; i < NGLOBAL; i++)
		lo[n++] = global_opts[i];
	memset(&lo[n], 0, sizeof(lo[n]));

	optind = 0;
	opterr = 0;
	while ((idx = -1, c = getopt_long(argc, argv, ":h", lo, &idx)) != -1) {
		const char *elem;

		if (c == '?') {
			elem = argv[optind - 1];
			if (optopt && optopt < OPT_BASE)
				snprintf(name, sizeof(name), "-%c", optopt);
			else
				elem_name(elem, name, sizeof(name));
			/* getopt_long reports "--flag=x" as unknown too. */
			ml_err(ctx, "%s: %s: %s", cmd->name, name,
			       strchr(elem, '=') && takes_no_value(lo, name)
				       ? "takes no value"
				       : "unknown option");
			return ML_EXIT_USAGE;
		}
		if (c == ':') {
			elem = argv[optind - 1];
			ml_err(ctx, "%s: %s: missing value",
			       cmd->name, elem_name(elem, name, sizeof(name)));
			return ML_EXIT_USAGE;
		}
		if (c == 'h') {
			a->help = true;
			continue;
		}
		/* getopt_long accepts unambiguous prefixes; we do not, so
		 * adding an option never breaks a script. */
		elem = opt_element(argv, optind, lo[idx].has_arg);
		if (strncmp(elem, "--", 2) != 0 ||
		    strcmp(elem_name(elem + 2, name, sizeof(name)),
			   lo[idx].name) != 0) {
			ml_err(ctx, "%s: %s: unknown option (did you mean --%s?)",
			       cmd->name, elem_name(elem, name, sizeof(name)),
			       lo[idx].name);
			return ML_EXIT_USAGE;
		}
		if (c >= OPT_BASE && c < OPT_BASE + (int)cmd->nopts) {
			i = (size_t)(c - OPT_BASE);
			a->raw[i] = cmd->opts[i].kind == ML_OPT_FLAG ? "1"
								     : optarg;
			add_order(a, i);
		} else if (set_global(a, c, optarg)) {
			return usage_err(ctx, cmd->name, NULL,
					 "internal option error");
		}
	}
	if (optind < argc) {
		snprintf(name, sizeof(name), "unexpected argument '%.40s'",
			 argv[optind]);
		return usage_err(ctx, cmd->name, NULL, name);
	}
	return 0;
}

/* Value list of option i from text (or its default); exit status. */
static int build_vlist(const struct ml_command *cmd, size_t i,
		       const char *text, struct ml_vlist *vl, union ml_val *base,
		       char *err, size_t errlen)
{
	const struct ml_opt *o = &cmd->opts[i];

	memset(vl, 0, sizeof(*vl));
	vl->opt = o;
	if (o->kind == ML_OPT_FLAG) {
		base[i].i = text != NULL;
		return 0;
	}
	if (o->kind == ML_OPT_TEXT) {
		base[i].s = text ? text : o->def;
		if (base[i].s && base[i].s[0] == '\0') {
			snprintf(err, errlen, "empty value");
			return -1;
		}
		return 0;
	}
	if (text == NULL && o->def == NULL) {
		if (ml_opt_is_int(o))
			base[i].i = ML_AUTO_INT;
		else
			base[i].r = NAN;
		return 0;
	}
	if (ml_vlist_parse(vl, o, text ? text : o->def, cmd->time_unit, err,
			   errlen))
		return -1;
	base[i] = ml_vlist_at(vl, 0);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Columns                                                             */

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

/* Keep only the --columns, in that order. */
static int select_columns(struct run *r, const char *list, size_t nall,
			  const struct ml_outcol *oc, const struct colref *refs)
{
	char *buf = strdup(list), *tok, *save = NULL;
	size_t n = 0, k;

	if (buf == NULL)
		return usage_err(r->ctx, r->cmd->name, "columns",
				 "out of memory");
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (k = 0; k < nall; k++)
			if (strcmp(oc[k].name, tok) == 0)
				break;
		if (k == nall || n >= 4 * nall) {
			char msg[128];

			snprintf(msg, sizeof(msg),
				 "'%.40s' is not a column (see --help)", tok);
			free(buf);
			return usage_err(r->ctx, r->cmd->name, "columns", msg);
		}
		r->ocols[n] = oc[k];
		r->refs[n++] = refs[k];
	}
	free(buf);
	if (n == 0)
		return usage_err(r->ctx, r->cmd->name, "columns",
				 "no column named");
	r->spec.ncols = n;
	return 0;
}

static int setup_columns(struct run *r, const char *list,
			 const union ml_val *base, const struct ml_vlist *vl)
{
	const struct ml_command *cmd = r->cmd;
	size_t max = cmd->nopts + cmd->ncols + 1, nall;
	struct ml_outcol *oc = calloc(max, sizeof(*oc));
	struct colref *refs = calloc(max, sizeof(*refs));
	int rc = 0;

	/* Room for --columns repeating names: up to 4x every column. */
	r->ocols = calloc(4 * max, sizeof(*r->ocols));
	r->refs = calloc(4 * max, sizeof(*r->refs));
	if (!oc || !refs || !r->ocols || !r->refs) {
		rc = usage_err(r->ctx, cmd->name, NULL, "out of memory");
		goto out;
	}
	nall = all_columns(cmd, base, vl, r->spec.precision, oc, refs);
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

/* ------------------------------------------------------------------ */
/* Global options                                                      */

static int setup_globals(struct run *r, const struct args *a)
{
	const char *cmd = r->cmd->name, *why;
	long long v;
	size_t i;

	r->spec.fmt = ML_FMT_TABLE;
	if (a->format) {
		for (i = 0; fmt_names[i]; i++)
			if (strcmp(a->format, fmt_names[i]) == 0)
				break;
		if (fmt_names[i] == NULL)
			return usage_err(r->ctx, cmd, "format",
					 "must be table, csv or json");
		r->spec.fmt = (enum ml_fmt)i;
	}
	/* csv and json: 6 digits (SPEC 1.2); the table, read by people
	 * against the papers, shows 7 so that values such as 1233.916 us
	 * appear as printed there. */
	r->spec.precision = r->spec.fmt == ML_FMT_TABLE ? 7 : 6;
	if (a->precision) {
		why = ml_parse_int(a->precision, &v);
		if (why || v < 1 || v > 17)
			return usage_err(r->ctx, cmd, "precision",
					 "must be an integer from 1 to 17");
		r->spec.precision = (int)v;
	}
	r->spec.header = !a->noheader;
	r->unit_scale = 1.0;
	if (a->unit) {
		if (strcmp(r->cmd->time_unit, "us") == 0)
			r->unit_scale = ml_time_scale(a->unit);
		else if (strcmp(a->unit, r->cmd->time_unit) == 0)
			r->unit_scale = 1.0;
		else
			r->unit_scale = 0.0;
		if (r->unit_scale == 0.0) {
			char msg[96];

			snprintf(msg, sizeof(msg), "'%.20s' %s", a->unit,
				 strcmp(r->cmd->time_unit, "us") == 0
					 ? "must be ns, us, ms or s"
					 : "is not a unit of this model (cycles)");
			return usage_err(r->ctx, cmd, "unit", msg);
		}
	}
	r->jobs = 1;
	if (a->jobs) {
		why = ml_parse_int(a->jobs, &v);
		if (why || v < 1 || v > MAX_JOBS)
			return usage_err(r->ctx, cmd, "jobs",
					 "must be an integer from 1 to 256");
		r->jobs = (unsigned)v;
	}
	r->shard_i = r->shard_n = 1;
	if (a->shard) {
		char buf[64], *slash;
		long long si, sn;

		snprintf(buf, sizeof(buf), "%s", a->shard);
		slash = strchr(buf, '/');
		if (slash)
			*slash = '\0';
		if (!slash || ml_parse_int(buf, &si) ||
		    ml_parse_int(slash + 1, &sn) || sn < 1 || si < 1 ||
		    si > sn || sn > 1000000000LL || strlen(a->shard) > 40)
			return usage_err(r->ctx, cmd, "shard",
					 "must be I/N with 1 <= I <= N");
		if (a->input)
			return usage_err(r->ctx, cmd, "shard",
					 "cannot be combined with --input");
		r->shard_i = (unsigned long long)si;
		r->shard_n = (unsigned long long)sn;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Sweeps                                                              */

/* The dims of a sweep: given options in order, then extra ones. */
static int sweep_total(const struct ml_vlist *const *vl, const size_t *dim,
		       size_t ndims, unsigned long long *total)
{
	unsigned long long t = 1;
	size_t d;

	for (d = 0; d < ndims; d++) {
		unsigned long long c = vl[dim[d]]->count ? vl[dim[d]]->count : 1;

		if (t > ML_MAX_POINTS / c)
			return -1;
		t *= c;
	}
	*total = t;
	return 0;
}

static unsigned long long max_points(const struct ml_ctx *ctx)
{
	return ctx->max_points ? ctx->max_points : ML_MAX_POINTS;
}

/* Drop dims whose option has a single value (or none). */
static size_t swept_dims(const struct ml_vlist *const *vl, const size_t *in,
			 size_t n, size_t *out)
{
	size_t k, m = 0;

	for (k = 0; k < n; k++)
		if (vl[in[k]]->count > 1)
			out[m++] = in[k];
	return m;
}

/* How many points the pre-check looks at before giving up. */
#define PRECHECK_MAX 1000000ULL

/*
 * A sweep none of whose points passes check() is a usage error (or a
 * bad batch row): the user gave values that can never work, such as a
 * group larger than the network.  The scan stops at the first point that
 * passes, so it costs almost nothing for a good sweep; it looks at no
 * more than PRECHECK_MAX points.  Returns -1 with *d filled when every
 * point looked at fails.
 */
static int precheck(const struct run *r, const struct sweep *sw,
		    struct ml_diag *d)
{
	struct worker w;
	unsigned long long p, n = sw->total < PRECHECK_MAX ? sw->total
							 : PRECHECK_MAX;
	struct ml_point pt;
	int rc = -1;

	if (r->cmd->check == NULL)
		return 0;
	if (worker_init(&w, r, sw->ndims)) {
		rc = 0; /* the sweep itself will report the failure */
		goto out;
	}
	memcpy(w.v, sw->base, r->cmd->nopts * sizeof(*w.v));
	odometer_seek(sw, &w, 0);
	pt = (struct ml_point){w.v, sw->prep, w.text, r->ctx->max_work, NULL,
			       NULL};
	for (p = 0; p < n; p++) {
		struct ml_diag tmp = {NULL, ""};

		if (r->cmd->check(&pt, p == 0 ? d : &tmp) == ML_OK) {
			rc = 0;
			break;
		}
		odometer_step(sw, &w);
	}
out:
	worker_free(&w);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Batch mode: --input FILE                                            */

/* Split one CSV line in place (RFC 4180 quotes); -1 on bad quoting. */
static int csv_split(char *line, char **f, size_t max, size_t *nf)
{
	char *p = line, *w;
	size_t n = 0;

	for (;;) {
		if (n == max)
			return -1;
		if (*p == '"') {
			f[n++] = w = ++p;
			for (;;) {
				if (*p == '\0')
					return -1;
				if (*p == '"' && p[1] == '"') {
					*w++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*w++ = *p++;
				}
			}
			if (*p != ',' && *p != '\0')
				return -1;
			*w = '\0';
		} else {
			f[n++] = p;
			p += strcspn(p, ",");
		}
		if (*p == '\0')
			break;
		*p++ = '\0';
	}
	*nf = n;
	return 0;
}

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

struct batch {
	struct run *r;
	const char *fname;
	FILE *f;
	size_t *colopt;	/* option index per file column */
	size_t ncols;
	const struct ml_vlist *const *vl;
	const union ml_val *base;
	const size_t *order;
	size_t norder;
};

static int batch_header(struct batch *bt, char *line, char **f, size_t maxf)
{
	const struct ml_command *cmd = bt->r->cmd;
	size_t nf, k, i;

	if (csv_split(line, f, maxf, &nf))
		goto bad;
	bt->colopt = calloc(nf, sizeof(*bt->colopt));
	if (bt->colopt == NULL)
		goto bad;
	for (k = 0; k < nf; k++) {
		for (i = 0; i < cmd->nopts; i++)
			if (strcmp(f[k], cmd->opts[i].name) == 0 &&
			    cmd->opts[i].kind != ML_OPT_FLAG)
				break;
		if (i == cmd->nopts) {
			ml_err(bt->r->ctx, "%s: --input: %s: '%.40s' is not an option of %s",
			       cmd->name, bt->fname, f[k], cmd->name);
			return ML_EXIT_USAGE;
		}
		bt->colopt[k] = i;
	}
	bt->ncols = nf;
	return 0;
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
		if (cmd->opts[bt->colopt[k]].kind == ML_OPT_TEXT &&
		    f[k][0] != '\0')
			break;
	if (k == nf)
		return 0;
	*d = (struct ml_diag){NULL, ""};
	return cmd->prepare(base, prep, d) == ML_OK ? 0 : -1;
}

/* One data row: returns 0 ok, 1 rejected (reported). */
static int batch_row(struct batch *bt, char *line, unsigned long lineno,
		     char **f, struct sink *sk)
{
	const struct ml_command *cmd = bt->r->cmd;
	size_t n = cmd->nopts, nf, k, nd = 0, *dims;
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
	if (csv_split(line, f, bt->ncols + 1, &nf) || nf != bt->ncols) {
		ml_err(bt->r->ctx, "%s:%lu: expected %zu fields", bt->fname,
		       lineno, bt->ncols);
		goto out;
	}
	for (k = 0; k < nf; k++) {
		size_t i = bt->colopt[k];

		if (f[k][0] == '\0')
			continue; /* empty cell: the command line's value */
		if (build_vlist(cmd, i, f[k], &own[k], base, err,
				sizeof(err))) {
			ml_err(bt->r->ctx, "%s:%lu: %s: %s", bt->fname, lineno,
			       cmd->opts[i].name, err);
			goto out;
		}
		vl[i] = &own[k];
	}
	/* Command-line order first, then the file's own columns. */
	memcpy(dims, bt->order, bt->norder * sizeof(*dims));
	nd = bt->norder;
	for (k = 0; k < nf; k++) {
		size_t j;

		for (j = 0; j < bt->norder; j++)
			if (bt->order[j] == bt->colopt[k])
				break;
		if (j == bt->norder)
			dims[nd++] = bt->colopt[k];
	}
	nd = swept_dims(vl, dims, nd, dims);
	if (sweep_total(vl, dims, nd, &total) ||
	    total > max_points(bt->r->ctx)) {
		ml_err(bt->r->ctx, "%s:%lu: the sweep has more than %llu points",
		       bt->fname, lineno, max_points(bt->r->ctx));
		goto out;
	}
	sw = (struct sweep){vl, nd, dims, total, base, cmd->nopts, bt->r->prep};
	if (row_prepare(bt, f, nf, base, &prep, &dg)) {
		ml_err(bt->r->ctx, "%s:%lu: %s: %s", bt->fname, lineno,
		       dg.param ? dg.param : "?", dg.msg);
		goto out;
	}
	if (prep != NULL)
		sw.prep = prep;
	if (precheck(bt->r, &sw, &dg)) {
		ml_err(bt->r->ctx, "%s:%lu: %s: %s", bt->fname, lineno,
		       dg.param ? dg.param : "?", dg.msg);
		goto out;
	}
	rc = sweep_range(bt->r, &sw, 0, total, sk) ? -1 : 0;
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

static int run_batch(struct run *r, const char *fname,
		     const struct ml_vlist *const *vl, const union ml_val *base,
		     const size_t *order, size_t norder, struct sink *sk)
{
	struct batch bt = {r, fname, NULL, NULL, 0, vl, base, order, norder};
	char *line = NULL, **f = NULL;
	size_t cap = 0, maxf;
	ssize_t len;
	unsigned long lineno = 0;
	int rc = ML_EXIT_OK, header = 1, x;

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
	while (f && (len = getline(&line, &cap, bt.f)) != -1) {
		char *s = line;

		lineno++;
		if (lineno == 1 && strncmp(s, "\xEF\xBB\xBF", 3) == 0)
			s += 3; /* UTF-8 byte order mark */
		if (memchr(s, '\0', (size_t)len - (size_t)(s - line))) {
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
			header = 0;
			rc = batch_header(&bt, s, f, maxf);
			if (rc)
				break;
			{
				struct ml_buf hb = {0};

				ml_out_header(&r->spec, &hb);
				sink_write(sk, &hb);
				ml_buf_free(&hb);
				fflush(r->ctx->out);
			}
			continue;
		}
		x = batch_row(&bt, s, lineno, f, sk);
		if (x < 0)
			break;
		if (x > 0)
			rc = ML_EXIT_ROWS;
	}
	if (header && rc == ML_EXIT_OK) {
		ml_err(r->ctx, "%s: --input: %s: no header line", r->cmd->name,
		       bt.fname);
		rc = ML_EXIT_USAGE;
	}
	if (bt.f != r->ctx->in)
		fclose(bt.f);
	free(line);
	free(f);
	free(bt.colopt);
	return rc;
}

/* ------------------------------------------------------------------ */

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
		return usage_err(r->ctx, r->cmd->name, NULL, "out of memory");
	nd = swept_dims(vlp, order, norder, dims);
	if (sweep_total(vlp, dims, nd, &total) ||
	    total > max_points(r->ctx)) {
		char msg[80];

		snprintf(msg, sizeof(msg), "the sweep has more than %llu points",
			 max_points(r->ctx));
		free(dims);
		return usage_err(r->ctx, r->cmd->name, NULL, msg);
	}
	sw = (struct sweep){vlp, nd, dims, total, base, r->cmd->nopts, r->prep};
	if (precheck(r, &sw, &dg)) {
		free(dims);
		return usage_err(r->ctx, r->cmd->name,
				 dg.param ? dg.param : "?", dg.msg);
	}
	if (r->shard_i == 1)
		ml_out_header(&r->spec, &hb);
	if (sink_write(sk, &hb))
		rc = ML_EXIT_ROWS;
	ml_buf_free(&hb);
	/* Shard I of N: points [(I-1) T / N, I T / N). */
	lo = (r->shard_i - 1) * total / r->shard_n;
	hi = r->shard_i * total / r->shard_n;
	if (rc == ML_EXIT_OK && sweep_range(r, &sw, lo, hi, sk))
		rc = ML_EXIT_ROWS;
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

int ml_run(const struct ml_command *cmd, int argc, char **argv,
	   struct ml_ctx *ctx)
{
	size_t n = cmd->nopts, i;
	struct option *lo = calloc(n + NGLOBAL + 1, sizeof(*lo));
	struct args a = {0};
	struct run r = {0};
	struct ml_vlist *vl = calloc(n + 1, sizeof(*vl));
	const struct ml_vlist **vlp = calloc(n + 1, sizeof(*vlp));
	union ml_val *base = calloc(n + 1, sizeof(*base));
	struct sink sk = {ctx, cmd->name, false, false};
	char err[256];
	int rc;

	a.raw = calloc(n + 1, sizeof(*a.raw));
	a.order = calloc(n + 1, sizeof(*a.order));
	r.cmd = cmd;
	r.ctx = ctx;
	if (!lo || !vl || !vlp || !base || !a.raw || !a.order) {
		rc = usage_err(ctx, cmd->name, NULL, "out of memory");
		goto out;
	}
	rc = parse_args(cmd, argc, argv, ctx, lo, &a);
	if (rc)
		goto out;
	if (a.help) {
		ml_help(cmd, ctx->out);
		goto out;
	}
	rc = setup_globals(&r, &a);
	if (rc)
		goto out;
	for (i = 0; i < n; i++) {
		if (build_vlist(cmd, i, a.raw[i], &vl[i], base, err,
				sizeof(err))) {
			rc = usage_err(ctx, cmd->name, cmd->opts[i].name, err);
			goto out;
		}
		vlp[i] = &vl[i];
	}
	rc = setup_columns(&r, a.columns, base, vl);
	if (rc)
		goto out;
	if (cmd->prepare) {
		struct ml_diag dg = {NULL, ""};
		void *prep = NULL;

		if (cmd->prepare(base, &prep, &dg) != ML_OK) {
			rc = usage_err(ctx, cmd->name,
				       dg.param ? dg.param : "?", dg.msg);
			goto out;
		}
		r.prep = prep;
	}
	sweep_order(&a, vl, n);
	if (a.input)
		rc = run_batch(&r, a.input, vlp, base, a.order, a.norder, &sk);
	else
		rc = run_sweep(&r, vlp, base, a.order, a.norder, &sk);
	if (sk.failed && rc == ML_EXIT_OK)
		rc = ML_EXIT_ROWS;
out:
	free(lo);
	free_vlists(vl, n);
	free(vlp);
	free(base);
	free(a.raw);
	free(a.order);
	free(r.ocols);
	free(r.refs);
	if (r.prep != NULL)
		cmd->release((void *)r.prep);
	return rc;
}
