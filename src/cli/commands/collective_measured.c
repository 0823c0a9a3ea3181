/*
 * collective_measured.c - `mcastlat collective --measured` (SPEC 10.7,
 * mcastlat-collective(1), MEASUREMENTS): for each --map-by of the
 * sweep, what the measured broadcasts of that placement are and what
 * the cross-validation of the corrected predictor found in them
 * (ml_coll_tune_get_info): how far a prediction can be trusted before
 * any point is asked for.  A table (one column a placement, a line a
 * quantity, its meaning beside it), CSV or JSON Lines (a row or object
 * a placement).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands/collective_data.h"
#include "cli/commands/collective_opts.h"
#include "cli/commands/collective_parts.h"
#include "cli/engine/msg.h"
#include "cli/engine/parse.h"
#include "mcastlat/tune.h"

#define MAXPL 3 /* placements: one per --map-by */
#define MIN_LEFT_OUT 10 /* models/tune_int.h's MIN_Q */

static const char *const map_word[] = {"core", "socket", "node"};
static const char *const bind_word[] = {"core", "socket", "numa", "default"};

/* One placement's report. */
struct report {
	const char *map_by;
	size_t cells, algs;
	struct ml_coll_tune_info in;
	bool built; /* the predictor was built (in is its) */
};

/* The quantities, in print order: name, meaning (the table's), and
 * the value (NaN: none, "-" in a table, empty in CSV, null in JSON). */
struct quantity {
	const char *name, *help;
	bool cv; /* a quantile of the left-out errors */
};

static const struct quantity qs[] = {
    {"cells", "measured cells (algorithm, P, M) of the placement", false},
    {"algorithms", "algorithms measured", false},
    {"ranks_min", "least measured P", false},
    {"ranks_max", "largest measured P", false},
    {"left_out", "cells predicted with their P row left out", false},
    {"noise", "a run's sd of ln over all P (runs', or sizes')", false},
    {"noise_runs", "1: from repeated runs; 0: from neighbouring sizes", false},
    {"noise_min", "... the least read at a measured P (the intervals')", false},
    {"noise_max", "... the largest", false},
    {"noise_max_at", "... at this P (- with repeated runs)", false},
    {"run_sd", "a run's own sd of ln, which comparisons read", false},
    {"run_hilo", "hi/lo of a new run at a measured cell, all P", false},
    {"capped", "single runs over twice a larger size's: read as it", false},
    {"q_small", "ln error per sqrt doubling of P, M <= 4 KiB", true},
    {"q_medium", "... M <= 64 KiB", true},
    {"q_large", "... larger", true},
    {"qm", "ln error per sqrt doubling of M from a measured size", true},
    {"qdiff", "all candidates' error less the default's, per sqrt dbl.",
     true},
    {"qalg", "two broadcasts' ln errors at one cell apart", false},
    {"qclass", "another class of P's offset (by node, after Bruck)", false},
    {"growth", "ln error per doubling beyond the largest measured P", false},
    {"corner_cells", "cells where following the measured corners was judged",
     false},
    {"corner_gain", "their mean measured ln gain (none or > 0: they decide)",
     false},
};
#define NQ (sizeof qs / sizeof *qs)

static double value_of(const struct report *r, size_t k)
{
	const struct ml_coll_tune_info *in = &r->in;
	double v[NQ] = {
	    (double)r->cells, (double)r->algs, (double)in->pmin,
	    (double)in->pmax, (double)in->cv, in->noise,
	    in->noise_runs ? 1 : 0, in->noise_min, in->noise_max,
	    in->noise_max_at ? (double)in->noise_max_at : NAN, in->run_sd,
	    exp(2 * in->run_q), (double)in->capped, in->q[0], in->q[1],
	    in->q[2], in->qm, in->qdiff, in->qalg, in->qclass, in->growth,
	    (double)in->corner_cv, in->corner_gain};

	if (r->cells == 0 && k > 0)
		return NAN;
	if (!r->built && k > 1) /* no cell the model can run */
		return NAN;
	/* too few left out to read a quantile from: not measured (the
	 * interval is then the model's own error model's, at least) */
	if (in->cv < MIN_LEFT_OUT && qs[k].cv)
		return NAN;
	return v[k];
}

/* The cells of m of *p's placement, and how many algorithms they hold. */
static size_t cells_of(const struct ml_coll_meas *m,
		       const struct ml_collective_params *p, size_t *algs)
{
	unsigned seen = 0, a;
	size_t i, n = 0;

	for (i = 0; i < m->ncell; i++)
		if (ml_coll_same_placement(&m->cell[i].p, p)) {
			n++;
			a = (unsigned)m->cell[i].p.algorithm;
			if (a < 32)
				seen |= 1u << a;
		}
	for (*algs = 0; seen; seen &= seen - 1)
		(*algs)++;
	return n;
}

/* The table; from: the placement read from the measured cells (no
 * placement option given), named on a comment line, or NULL. */
static void print_table(FILE *f, const struct report *r, size_t nr,
			double level, const struct ml_collective_params *from)
{
	size_t i, k;

	fprintf(f, "# the measured cells' cross-validation at level %g "
		   "(collective(1), MEASUREMENTS)\n",
		level);
	if (from)
		fprintf(f,
			"# the measured cells' placement: --ppn %lld "
			"--sockets %lld --nodes %lld --bind-to %s --numa %lld\n",
			from->ppn, from->sockets, from->nodes,
			bind_word[from->bind_to], from->numa);
	fprintf(f, "%-12s", "map_by");
	for (i = 0; i < nr; i++)
		fprintf(f, " %9s", r[i].map_by);
	fputc('\n', f);
	for (k = 0; k < NQ; k++) {
		fprintf(f, "%-12s", qs[k].name);
		for (i = 0; i < nr; i++) {
			double v = value_of(&r[i], k);

			if (isnan(v))
				fprintf(f, " %9s", "-");
			else
				fprintf(f, " %9.4g", v);
		}
		fprintf(f, "  %s\n", qs[k].help);
	}
}

/* CSV (sep ','), TSV ('\t') or JSON Lines (sep 0): a row a placement. */
static void print_rows(FILE *f, const struct report *r, size_t nr, char sep)
{
	bool json = sep == 0;
	size_t i, k;

	if (!json) {
		fputs("map_by", f);
		for (k = 0; k < NQ; k++)
			fprintf(f, "%c%s", sep, qs[k].name);
		fputc('\n', f);
	}
	for (i = 0; i < nr; i++) {
		fprintf(f, json ? "{\"map_by\":\"%s\"" : "%s", r[i].map_by);
		for (k = 0; k < NQ; k++) {
			double v = value_of(&r[i], k);

			if (json)
				fprintf(f, ",\"%s\":", qs[k].name);
			else
				fputc(sep, f);
			if (isfinite(v))
				fprintf(f, "%.9g", v);
			else if (json)
				fputs("null", f);
		}
		fputs(json ? "}\n" : "\n", f);
	}
}

/* Appends " --NAME VALUE (asked: ASKED)" to buf (at *len of cap). */
static void add_diff(char *buf, size_t cap, size_t *len, const char *name,
		     const char *value, const char *want)
{
	int n = snprintf(buf + *len, cap - *len, " --%s %s (asked: %s)", name,
			 value, want);

	if (n > 0 && (size_t)n < cap - *len)
		*len += (size_t)n;
}

/* The options in which the first measured cell's placement c differs
 * from the one asked a (the last --map-by of nmap asked), into buf, so
 * that `--bind-to default` left out is named, not found by comparing
 * two lists by eye. */
static void placement_diff(char *buf, size_t cap,
			   const struct ml_collective_params *c,
			   const struct ml_collective_params *a, size_t nmap)
{
	char x[24], y[24];
	size_t len = 0;
	const struct {
		const char *name;
		long long have, want;
	} n[] = {{"ppn", c->ppn, a->ppn},
		 {"sockets", c->sockets, a->sockets},
		 {"nodes", c->nodes, a->nodes},
		 {"numa", c->numa, a->numa}};
	size_t i;

	for (i = 0; i < sizeof n / sizeof *n; i++)
		if (n[i].have != n[i].want) {
			snprintf(x, sizeof x, "%lld", n[i].have);
			snprintf(y, sizeof y, "%lld", n[i].want);
			add_diff(buf, cap, &len, n[i].name, x, y);
		}
	if (c->bind_to != a->bind_to)
		add_diff(buf, cap, &len, "bind-to", bind_word[c->bind_to],
			 bind_word[a->bind_to]);
	if (nmap == 1 && c->map_by != a->map_by)
		add_diff(buf, cap, &len, "map-by", map_word[c->map_by],
			 map_word[a->map_by]);
	if (len == 0) /* the library, or a --map-by among several */
		snprintf(buf, cap, " --map-by %s", map_word[c->map_by]);
}

/* The warning of --measured where no cell matched. */
static void warn_unmatched(struct ml_ctx *ctx,
			   const struct ml_collective_params *c,
			   const struct ml_collective_params *a, size_t nmap)
{
	char buf[256] = "";

	placement_diff(buf, sizeof buf, c, a, nmap);
	ml_warn(ctx,
		"collective: --measured: no measured cell has the placement "
		"asked for; the first has%s",
		buf);
}

void ml_collective_warn_unmeasured(
    struct ml_ctx *ctx, const struct ml_vlist *const *vl,
    const union ml_val *base,
    enum ml_status (*conv)(const union ml_val *, struct ml_collective_params *,
			   int *),
    const struct ml_coll_meas *m)
{
	union ml_val v[NOPTS];
	struct ml_collective_params p;
	char buf[256] = "";
	size_t i, algs;
	int word;

	if (!m || m->ncell == 0)
		return;
	memcpy(v, base, sizeof v);
	for (i = 0; i < vl[O_MAP_BY]->count; i++) {
		v[O_MAP_BY] = ml_vlist_at(vl[O_MAP_BY], i);
		conv(v, &p, &word);
		if (cells_of(m, &p, &algs) > 0)
			return;
	}
	placement_diff(buf, sizeof buf, &m->cell[0].p, &p,
		       vl[O_MAP_BY]->count);
	ml_warn(ctx,
		"collective: no measured cell has the placement asked for, so "
		"%s; the first has%s",
		base[O_PLAN].i ? "the plan is the fixed design"
			       : "the model alone predicts",
		buf);
}

/* Whether the command line gave any placement option. */
static bool placement_given(const struct ml_ctx *ctx)
{
	static const int place[] = {O_PPN,     O_SOCKETS, O_NODES,
				    O_MAP_BY,  O_BIND_TO, O_NUMA};
	size_t k;

	for (k = 0; ctx->given && k < sizeof place / sizeof *place; k++)
		if (ctx->given[place[k]])
			return true;
	return !ctx->given;
}

/* Into map[] (room for MAXPL), the --map-by of m's cells placed as its
 * first but for --map-by, each once, in order of appearance; their
 * number. */
static size_t cells_maps(const struct ml_coll_meas *m, int map[MAXPL])
{
	size_t i, k, n = 0;

	for (i = 0; i < m->ncell && n < MAXPL; i++) {
		struct ml_collective_params x = m->cell[i].p;

		x.map_by = m->cell[0].p.map_by;
		if (!ml_coll_same_placement(&x, &m->cell[0].p))
			continue;
		for (k = 0; k < n && map[k] != (int)m->cell[i].p.map_by; k++)
			;
		if (k == n)
			map[n++] = (int)m->cell[i].p.map_by;
	}
	return n;
}

/* p placed as cell c (ranks, algorithm and the rest kept), --map-by
 * map. */
static void place_as(struct ml_collective_params *p,
		     const struct ml_collective_params *c, int map)
{
	p->ppn = c->ppn;
	p->sockets = c->sockets;
	p->nodes = c->nodes;
	p->bind_to = c->bind_to;
	p->numa = c->numa;
	p->map_by = (enum ml_coll_map)map;
}

int ml_collective_print_measured(const struct ml_command *cmd,
				 struct ml_ctx *ctx,
				 const struct ml_vlist *const *vl,
				 const union ml_val *base, const char *format,
				 enum ml_status (*conv)(
				     const union ml_val *,
				     struct ml_collective_params *, int *),
				 const struct ml_coll_errmodel *em,
				 const struct ml_coll_meas *m)
{
	static const int single[] = {O_PPN,  O_SOCKETS, O_NODES,
				     O_BIND_TO, O_NUMA, O_LEVEL};
	union ml_val v[NOPTS];
	struct report r[MAXPL];
	struct ml_collective_params asked;
	size_t k, nr = 0, nmap;
	unsigned long long i;
	int word, map[MAXPL];
	bool given;

	int rc = ml_collective_one_allocation(
	    cmd, ctx, vl, single, sizeof single / sizeof *single, "measured");

	if (rc)
		return rc;
	if (!m || m->ncell == 0)
		return ml_usage_err(ctx, cmd->name, "measured",
				    "nothing measured: give a machine of fit "
				    "collective --emit as --input, or --data");
	memcpy(v, base, sizeof v);
	/* No placement asked: the measured cells' (each of their
	 * --map-by), which the report then names. */
	given = placement_given(ctx);
	nmap = given ? (size_t)vl[O_MAP_BY]->count : cells_maps(m, map);
	for (i = 0; i < nmap && nr < MAXPL; i++) {
		struct ml_collective_params p;
		struct ml_coll_tune *t = NULL;
		enum ml_status st;

		if (given)
			v[O_MAP_BY] = ml_vlist_at(vl[O_MAP_BY], i);
		conv(v, &p, &word);
		if (!given)
			place_as(&p, &m->cell[0].p, map[i]);
		asked = p;
		memset(&r[nr], 0, sizeof r[nr]);
		r[nr].map_by = map_word[p.map_by];
		r[nr].cells = cells_of(m, &p, &r[nr].algs);
		st = ml_coll_tune_new(m, &p, em, base[O_LEVEL].r, &t);
		if (st != ML_OK) {
			ml_err(ctx, "collective: --measured: %s",
			       st == ML_ENOMEM ? "out of memory"
					       : "the machine cannot run the "
						 "measured cells");
			return ML_EXIT_ROWS;
		}
		if (t) {
			ml_coll_tune_get_info(t, &r[nr].in);
			r[nr].built = true;
			ml_coll_tune_free(t);
		}
		nr++;
	}
	for (k = 0; k < nr && r[k].cells == 0; k++)
		;
	if (k == nr && nr > 0)
		warn_unmatched(ctx, &m->cell[0].p, &asked, nr);
	if (format && strcmp(format, "csv") == 0)
		print_rows(ctx->out, r, nr, ',');
	else if (format && strcmp(format, "tsv") == 0)
		print_rows(ctx->out, r, nr, '\t');
	else if (format && strcmp(format, "json") == 0)
		print_rows(ctx->out, r, nr, 0);
	else
		print_table(ctx->out, r, nr, base[O_LEVEL].r,
			    given ? NULL : &m->cell[0].p);
	if (fflush(ctx->out) != 0 || ferror(ctx->out)) {
		ml_err(ctx, "collective: --measured: write failed");
		return ML_EXIT_ROWS;
	}
	return ML_EXIT_OK;
}
