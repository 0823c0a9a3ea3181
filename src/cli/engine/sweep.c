/*
 * sweep.c - evaluating points and printing rows: the cartesian product
 * streamed in chunks, serially or on --jobs threads (always in order),
 * the pre-check of a sweep, and the per-row cells handed to the output
 * module.
 *
 * The sweep is numbered 0 .. total-1 with the last-given option varying
 * fastest; a chunk decodes its first point by division and then steps an
 * odometer, so any slice can be evaluated independently.  Memory is
 * bounded by the chunk buffers whatever the number of points.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/engine/columns.h"
#include "cli/engine/sweep.h"

#define CHUNK_MAX 4096
#define FLUSH_BYTES (64 * 1024)

/* The first row whose check() failed, and the first result column found
 * not finite, for a warning each. */
struct invalid_note {
	bool set;
	struct ml_diag diag;
	const char *overflow; /* column name, or NULL */
	unsigned long long notok; /* --value: rows left out */
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
	char note[96]; /* the note of an overflow row */
	char *text;    /* ML_TEXT_MAX bytes for the row's TEXT cells */
	const void *prep; /* the command's prepare() for this sweep */
	unsigned long long point; /* index of the point being evaluated */
};

/* ------------------------------------------------------------------ */
/* Evaluation of points                                                */

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

/*
 * The one check, for every command, that a result the model calls ok is
 * finite, as printed (a time after conversion to --unit too): the first
 * column that is not makes the row "overflow", which the note column (if
 * the command has one) names.  Columns hidden in this run (left NaN) and
 * those where NaN means "not applicable" (.na) are not looked at.
 * Returns the column, or NULL.
 */
static const struct ml_col *find_overflow(const struct run *r,
					  const union ml_val *out)
{
	const struct ml_command *cmd = r->cmd;
	size_t j;

	for (j = 0; j < cmd->ncols; j++) {
		const struct ml_col *c = &cmd->cols[j];

		if (!r->finite[j])
			continue;
		if (!isfinite(out[j].r) ||
		    (c->kind == ML_COL_TIME && !isfinite(out[j].r / r->unit_scale)))
			return c;
	}
	return NULL;
}

static void note_overflow(const struct run *r, struct worker *w,
			  const struct ml_col *bad)
{
	const struct ml_command *cmd = r->cmd;
	size_t j;

	for (j = 0; j < cmd->ncols; j++)
		if (cmd->cols[j].kind == ML_COL_TEXT &&
		    strcmp(cmd->cols[j].name, "note") == 0)
			break;
	if (j == cmd->ncols)
		return;
	snprintf(w->note, sizeof(w->note), "%s overflowed%s%s", bad->name,
		 w->out[j].s && w->out[j].s[0] ? "; " : "",
		 w->out[j].s ? w->out[j].s : "");
	w->out[j].s = w->note;
}

/* The progress inside a slow point, to the progress line. */
static void point_progress(void *arg, double done, const char *detail)
{
	ml_progress_point(arg, done, detail);
}

static void eval_row(const struct run *r, struct worker *w, struct ml_buf *b,
		     struct invalid_note *note, const char *const *keep)
{
	const struct ml_command *cmd = r->cmd;
	const struct colref *refs = r->refs;
	struct ml_cell *cells = w->cells;
	size_t ncols = r->spec.ncols;
	struct ml_point pt = {w->v, w->prep, w->text, r->ctx->max_work, NULL,
			      NULL};
	struct ml_diag dg = {NULL, ""};
	enum ml_status st;
	bool kept;
	size_t j;

	if (cmd->skip && cmd->skip(w->v))
		return; /* no row; the inputs stay dirty for the next one */
	if (cmd->slow && r->prog && r->prog->on) {
		pt.progress = point_progress;
		pt.progress_arg = r->prog;
	}
	/* eval() rejects what check() rejects (see cmd.h), so check() runs
	 * only to explain the first invalid row, not on every row. */
	reset_results(cmd, w->out);
	w->text[0] = '\0';
	st = cmd->eval(&pt, w->out);
	if (st == ML_OK) {
		const struct ml_col *bad = find_overflow(r, w->out);

		if (bad) {
			st = ML_OVERFLOW;
			note_overflow(r, w, bad);
			if (!note->overflow)
				note->overflow = bad->name;
		}
	}
	if (st == ML_EINVAL && !note->set) {
		note->set = true;
		if (cmd->check == NULL || cmd->check(&pt, &dg) == ML_OK)
			ml_diag_set(&dg, NULL, "invalid parameters");
		note->diag = dg;
	}
	if (r->value && st != ML_OK) {
		/* --value runs serially (see run.c): the line is in order. */
		ml_err(r->ctx, "%s: --value %s: point %llu is %s: no value",
		       cmd->name, r->value, w->point + 1, ml_status_word(st));
		note->notok++;
		memset(w->dirty, 1, cmd->nopts * sizeof(*w->dirty));
		return;
	}
	kept = st == ML_OK || st == cmd->keeps;
	for (j = 0; j < ncols; j++) {
		const struct colref *ref = &refs[j];
		struct ml_cell *c = &cells[j];

		if (ref->src == SRC_OPT) {
			/* Unchanged inputs keep the cell of the last row. */
			if (!w->dirty[ref->idx])
				continue;
			ml_cell_from_opt(r, ref->idx, w->v[ref->idx], c);
			cache_cell(r, &w->cache[j], w->v[ref->idx], c);
		} else if (ref->src == SRC_RES) {
			cell_from_res(r, ref->idx, w->out[ref->idx], kept, c);
			cache_cell(r, &w->cache[j], c->v, c);
		} else if (ref->src == SRC_STATUS) {
			c->kind = ML_CELL_TEXT;
			c->v.s = ml_status_word(st);
		} else { /* SRC_KEEP, rare: last */
			c->kind = ML_CELL_TEXT;
			c->v.s = keep ? keep[ref->idx] : "";
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
	for (w->point = first; count-- > 0; w->point++) {
		eval_row(r, w, b, note, sw->keep);
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


static void sink_note(struct sink *s, struct invalid_note *n)
{
	s->notok += n->notok;
	n->notok = 0;
	if (n->overflow && !s->owarned) {
		s->owarned = true;
		ml_warn(s->ctx, "%s: %s is not finite (rows marked overflow)",
			s->cmdname, n->overflow);
	}
	if (!n->set || s->warned)
		return;
	s->warned = true;
	ml_warn(s->ctx, "%s: --%s: %s (rows marked invalid)", s->cmdname,
		n->diag.param ? n->diag.param : "?", n->diag.msg);
}

int ml_sink_columns(struct sink *s, struct run *r)
{
	int rc = ml_setup_columns(r);

	if (rc || r->spec.fmt != ML_FMT_TABLE || r->dryrun)
		return rc;
	if (s->table)
		ml_table_free(s->table);
	s->table = &s->tbl;
	if (ml_table_init(s->table, r->spec.cols, r->spec.ncols)) {
		s->table = NULL;
		return ml_usage_err(r->ctx, r->cmd->name, NULL, "out of memory");
	}
	/* A slow command's rows show as they finish (header and first row
	 * measured; a wider value later pushes its row right). */
	if (r->cmd->slow)
		s->table->hold = r->spec.header ? 2 : 1;
	return 0;
}

int ml_sink_write(struct sink *s, struct ml_buf *b)
{
	if (b->oom) {
		ml_err(s->ctx, "%s: out of memory", s->cmdname);
		s->failed = true;
		return -1;
	}
	if (s->table) {
		size_t n = b->len;

		b->len = 0;
		if (ml_table_feed(s->table, b->p, n, s->ctx->out)) {
			s->failed = true;
			return -1;
		}
		return 0;
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
		ml_progress_update(&s->prog, s->pdone + (p + n - lo));
		if (b.len >= FLUSH_BYTES || b.oom || r->cmd->slow ||
		    now_s() - last > 0.05) {
			rc = ml_sink_write(s, &b);
			fflush(s->ctx->out);
			last = now_s();
		}
	}
	if (rc == 0)
		rc = ml_sink_write(s, &b);
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
		ml_progress_update(&sk->prog,
				   sk->pdone + ((c + 1) * pl.csize < hi - lo
						? (c + 1) * pl.csize
						: hi - lo));
		if (rc == 0)
			rc = ml_sink_write(sk, &s->buf);
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
int ml_sweep_range(const struct run *r, const struct sweep *sw,
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
/* --dry-run                                                           */

/* " name=value" for each swept option at point p. */
static void put_point(const struct run *r, const struct sweep *sw,
		      unsigned long long p, struct ml_buf *b)
{
	struct ml_outspec full = r->spec;
	size_t d = sw->ndims;
	unsigned long long idx[64];
	char num[48];

	full.precision = 0; /* every digit: this is what will be evaluated */
	while (d-- > 0) {
		const struct ml_vlist *vl = sw->vl[sw->dim[d]];

		idx[d < 64 ? d : 63] = p % vl->count;
		p /= vl->count;
	}
	for (d = 0; d < sw->ndims && d < 64; d++) {
		size_t i = sw->dim[d];
		struct ml_cell c;
		const char *t = num;
		size_t n;

		ml_cell_from_opt(r, i, ml_vlist_at(sw->vl[i], idx[d]), &c);
		if (c.kind == ML_CELL_TEXT)
			t = c.v.s;
		else
			ml_out_number(&full, &c, num);
		n = strlen(r->cmd->opts[i].name);
		ml_buf_put(b, " ", 1);
		ml_buf_put(b, r->cmd->opts[i].name, n);
		ml_buf_put(b, "=", 1);
		ml_buf_put(b, t, strlen(t));
	}
	ml_buf_put(b, "\n", 1);
}

void ml_dry_run(const struct run *r, const struct sweep *sw,
		unsigned long long lo, unsigned long long hi, struct ml_buf *b)
{
	char line[48];

	snprintf(line, sizeof(line), "points: %llu\n", hi - lo);
	ml_buf_put(b, line, strlen(line));
	if (hi <= lo || sw->ndims == 0)
		return;
	ml_buf_put(b, "first:", 6);
	put_point(r, sw, lo, b);
	ml_buf_put(b, "last:", 5);
	put_point(r, sw, hi - 1, b);
}

/* ------------------------------------------------------------------ */
/* Sizes and the pre-check                                             */

/* The dims of a sweep: given options in order, then extra ones. */
int ml_sweep_total(const struct ml_vlist *const *vl, const size_t *dim,
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

unsigned long long ml_max_points(const struct ml_ctx *ctx)
{
	return ctx->max_points ? ctx->max_points : ML_MAX_POINTS;
}

/* Drop dims whose option has a single value (or none). */
size_t ml_swept_dims(const struct ml_vlist *const *vl, const size_t *in,
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
/* The largest sweep the pre-check proves invalid point by point. */
#define PRECHECK_EXACT 10000000ULL

/* Scan n points of the sweep for one that passes check(): every point
 * in order when n == total, else n points spread evenly over it.  *d is
 * filled by point 0.  Returns 0 when one passes, -1 when none does. */
static int scan_points(const struct run *r, const struct sweep *sw,
		       struct worker *w, unsigned long long n,
		       struct ml_diag *d)
{
	bool whole = n == sw->total;
	struct ml_point pt = {w->v, sw->prep, w->text, r->ctx->max_work, NULL,
			      NULL};
	unsigned long long p;

	memcpy(w->v, sw->base, r->cmd->nopts * sizeof(*w->v));
	odometer_seek(sw, w, 0);
	for (p = 0; p < n; p++) {
		struct ml_diag tmp = {NULL, ""};

		if (!whole) /* point p * total / n, without overflow */
			odometer_seek(sw, w,
				      p * (sw->total / n) +
					      p * (sw->total % n) / n);
		if (r->cmd->check(&pt, p == 0 ? d : &tmp) == ML_OK)
			return 0;
		if (whole)
			odometer_step(sw, w);
	}
	return -1;
}

/*
 * A sweep none of whose points passes check() is a usage error (or a
 * bad batch row): the user gave values that can never work, such as a
 * group larger than the network.  A sweep with some valid points runs,
 * its invalid points being rows with status invalid: "--k 2,2000 --group
 * 5:1000005" is valid although k = 2 fits no group of it.
 *
 * Deciding costs little: every scan stops at the first point that
 * passes.  First PRECHECK_MAX points spread evenly over the sweep (every
 * dim varies among them, not only the innermost) are looked at, which is
 * the whole sweep when it is no larger.  When none passes, a sweep of up
 * to PRECHECK_EXACT points is scanned whole, so the verdict is exact; a
 * larger one runs, since no point passing cannot be proved cheaply, and
 * its rows say invalid.  Returns -1 with *d filled (by point 0) when
 * every point fails.
 */
int ml_precheck(const struct run *r, const struct sweep *sw,
		struct ml_diag *d)
{
	struct worker w;
	int rc = 0;

	if (r->cmd->check == NULL)
		return 0;
	if (worker_init(&w, r, sw->ndims))
		goto out; /* the sweep itself will report the failure */
	if (sw->total <= PRECHECK_MAX) {
		rc = scan_points(r, sw, &w, sw->total, d);
	} else if (scan_points(r, sw, &w, PRECHECK_MAX, d) != 0 &&
		   sw->total <= PRECHECK_EXACT) {
		struct ml_diag tmp = {NULL, ""};

		rc = scan_points(r, sw, &w, sw->total, &tmp);
	}
out:
	worker_free(&w);
	return rc;
}

