/*
 * fuzz_vlist.c - fuzz target: value-list parsing (src/cli/parse.c).
 *
 * Reproduce (builds with clang, runs every target for FUZZ_SECONDS):
 *   make fuzz FUZZ_SECONDS=600 FUZZ_TARGETS=vlist
 * Replay the corpus and regression inputs without libFuzzer:
 *   make fuzz-replay
 *
 * Input: byte 0 picks an option (a synthetic one for every kind and flag
 * combination, then every numeric or choice option of every command in
 * ml_commands); byte 1 bit 0 picks the command time unit (us or cycles),
 * bit 1 a short error buffer, bits 2-7 a precision (1 to 17) for the
 * output check; the rest, up to a NUL, is the value list.
 *
 * Checked on success: the count is 1 .. 10^9 and equals the sum of the
 * items; every item's first, middle and last point, and the first, middle
 * and last point of the whole list, are in the option's domain, finite,
 * and lie between their item's first and last value; ml_vlist_at agrees
 * with ml_item_at; ml_fmt_g prints each real point as printf's "%.*g"
 * does.  On failure: a non-empty message that fits its buffer and
 * nothing left allocated.
 */
#include <limits.h>
#include <math.h>

#include "cli/output.h"
#include "cli/parse.h"
#include "fuzz_common.h"

static const char *const abc[] = {"alpha", "beta", "gamma", NULL};
static const char *const one[] = {"only", NULL};

/* Every kind with every flag and domain shape the engine supports. */
static const struct ml_opt synth[] = {
    {"int", ML_OPT_INT, "0", NULL, 0, 0, 0, 0, 0, NULL, ">= 0", 0},
    {"int2", ML_OPT_INT, "2", NULL, 0, 0, 2, 64, 0, NULL, "[2,64]", 0},
    {"intany", ML_OPT_INT, "0", NULL, 0, 0, LLONG_MIN, LLONG_MAX, 0, NULL,
     "any", 0},
    {"intneg", ML_OPT_INT, "0", NULL, 0, 0, -1000, 1000, 0, NULL, "+-", 0},
    {"int1", ML_OPT_INT, "1", NULL, 0, 0, 1, 0, ML_OPT_SINGLE, NULL, "single", 0},
    {"real", ML_OPT_REAL, "0", NULL, 0, 0, 0, 0, 0, NULL, ">= 0", 0},
    {"prob", ML_OPT_REAL, "0", NULL, 0, 1, 0, 0, 0, NULL, "[0,1]", 0},
    {"realany", ML_OPT_REAL, "0", NULL, -HUGE_VAL, HUGE_VAL, 0, 0, 0, NULL,
     "any", 0},
    {"realbig", ML_OPT_REAL, "0", NULL, -1e308, 1e308, 0, 0, 0, NULL, "wide", 0},
    {"realpos", ML_OPT_REAL, "1", NULL, 0, 0, 0, 0, ML_OPT_MINOPEN, NULL,
     "> 0", 0},
    {"real1", ML_OPT_REAL, "1", NULL, 0, 0, 0, 0, ML_OPT_SINGLE, NULL,
     "single", 0},
    {"time", ML_OPT_TIME, "1", NULL, 0, 0, 0, 0, 0, NULL, ">= 0", 0},
    {"timepos", ML_OPT_TIME, "1", NULL, 0, 0, 0, 0, ML_OPT_MINOPEN, NULL,
     "> 0", 0},
    {"timebox", ML_OPT_TIME, "1", NULL, 0.5, 1000, 0, 0, 0, NULL, "box", 0},
    {"time1", ML_OPT_TIME, "1", NULL, 0, 0, 0, 0,
     ML_OPT_SINGLE | ML_OPT_MINOPEN, NULL, "single", 0},
    {"choice", ML_OPT_CHOICE, "alpha", NULL, 0, 0, 0, 0, 0, abc, "c", 0},
    {"choiceall", ML_OPT_CHOICE, "all", NULL, 0, 0, 0, 0, ML_OPT_ALL, abc, "c", 0},
    {"choiceint", ML_OPT_CHOICE, "alpha", NULL, 0, 0, 1, 0, ML_OPT_INTOK, abc,
     "c", 0},
    {"choiceintmax", ML_OPT_CHOICE, "alpha", NULL, 0, 0, 2, 100,
     ML_OPT_INTOK | ML_OPT_ALL, abc, "c", 0},
    {"choice1", ML_OPT_CHOICE, "alpha", NULL, 0, 0, 0, 0,
     ML_OPT_SINGLE | ML_OPT_ALL, abc, "c", 0},
    {"choiceone", ML_OPT_CHOICE, "only", NULL, 0, 0, 0, 0, ML_OPT_ALL, one,
     "c", 0},
};
#define NSYNTH (sizeof(synth) / sizeof(synth[0]))

/* The options to pick from: synth[], then every command's. */
static const struct ml_opt *opts[512];
static size_t nopts;
/* Precision of the ml_fmt_g check for the current input. */
static int prec;

static void init_opts(void)
{
	size_t i, j;

	if (nopts)
		return;
	for (i = 0; i < NSYNTH; i++)
		opts[nopts++] = &synth[i];
	for (i = 0; i < ml_ncommands; i++)
		for (j = 0; j < ml_commands[i]->nopts; j++) {
			const struct ml_opt *o = &ml_commands[i]->opts[j];

			if (o->kind == ML_OPT_FLAG || o->kind == ML_OPT_TEXT)
				continue;
			FUZZ_ASSERT(nopts < sizeof(opts) / sizeof(opts[0]),
				    "too many options");
			opts[nopts++] = o;
		}
}

static size_t nchoices(const struct ml_opt *o)
{
	size_t n = 0;

	while (o->choices[n])
		n++;
	return n;
}

/* v is a value the option can hold. */
static void check_domain(const struct ml_opt *o, union ml_val v)
{
	bool hasmax;

	switch (o->kind) {
	case ML_OPT_CHOICE:
		if ((o->flags & ML_OPT_INTOK) && v.i >= 0) {
			FUZZ_ASSERT(v.i >= o->imin, "%s: %lld < imin", o->name,
				    v.i);
			FUZZ_ASSERT(o->imax <= o->imin || v.i <= o->imax,
				    "%s: %lld > imax", o->name, v.i);
			return;
		}
		if (o->flags & ML_OPT_INTOK)
			v.i = ml_choice_of(v.i);
		FUZZ_ASSERT(v.i >= 0 && (size_t)v.i < nchoices(o),
			    "%s: choice index %lld", o->name, v.i);
		return;
	case ML_OPT_INT:
		FUZZ_ASSERT(v.i >= o->imin, "%s: %lld < imin", o->name, v.i);
		FUZZ_ASSERT(o->imax <= o->imin || v.i <= o->imax,
			    "%s: %lld > imax", o->name, v.i);
		return;
	case ML_OPT_REAL:
	case ML_OPT_TIME:
		hasmax = o->max > o->min && o->max != HUGE_VAL;
		FUZZ_ASSERT(isfinite(v.r), "%s: value %g", o->name, v.r);
		FUZZ_ASSERT(v.r >= o->min, "%s: %.17g < min", o->name, v.r);
		FUZZ_ASSERT(!(o->flags & ML_OPT_MINOPEN) || v.r > o->min,
			    "%s: %.17g not > min", o->name, v.r);
		FUZZ_ASSERT(!hasmax || v.r <= o->max, "%s: %.17g > max",
			    o->name, v.r);
		return;
	case ML_OPT_FLAG:
	case ML_OPT_TEXT:
		break;
	}
	FUZZ_ASSERT(0, "%s: unexpected kind", o->name);
}

/* v lies between the item's first and last point (ranges ascend). */
static void check_between(const struct ml_vlist *vl, const struct ml_item *it,
			  union ml_val v)
{
	const struct ml_opt *o = vl->opt;

	if (o->kind == ML_OPT_CHOICE &&
	    ((o->flags & ML_OPT_INTOK) == 0 || it->first.i < 0))
		return; /* choice indices are not ordered */
	if (ml_opt_is_int(o))
		FUZZ_ASSERT(it->first.i <= v.i && v.i <= it->last.i,
			    "%s: %lld outside item [%lld,%lld]", o->name, v.i,
			    it->first.i, it->last.i);
	else
		FUZZ_ASSERT(it->first.r <= v.r && v.r <= it->last.r,
			    "%s: %.17g outside item [%.17g,%.17g]", o->name,
			    v.r, it->first.r, it->last.r);
}

static bool same(const struct ml_opt *o, union ml_val a, union ml_val b)
{
	return ml_opt_is_int(o) ? a.i == b.i : a.r == b.r;
}

/* The fast formatter agrees with printf (finite values here). */
static void check_fmt(double x)
{
	char got[64], want[64];

	ml_fmt_g(got, x, prec);
	snprintf(want, sizeof(want), "%.*g", prec, x);
	FUZZ_ASSERT(strcmp(got, want) == 0, "ml_fmt_g(%a, %d) = %s, not %s", x,
		    prec, got, want);
}

/* Point idx of the list, checked against its item. */
static void check_point(const struct ml_vlist *vl, unsigned long long idx)
{
	const struct ml_item *it = NULL;
	union ml_val v = ml_vlist_at(vl, idx), w;
	size_t k;

	for (k = 0; k < vl->nitems; k++)
		if (idx >= vl->items[k].start &&
		    idx - vl->items[k].start < vl->items[k].count) {
			it = &vl->items[k];
			break;
		}
	FUZZ_ASSERT(it != NULL, "%s: point %llu in no item", vl->opt->name,
		    idx);
	w = ml_item_at(it, ml_opt_is_int(vl->opt), idx - it->start);
	FUZZ_ASSERT(same(vl->opt, v, w), "%s: ml_vlist_at(%llu) disagrees",
		    vl->opt->name, idx);
	if (!ml_opt_is_int(vl->opt))
		check_fmt(v.r);
	check_domain(vl->opt, v);
	check_between(vl, it, v);
}

static void check_list(const struct ml_vlist *vl)
{
	unsigned long long sum = 0;
	size_t k;

	FUZZ_ASSERT(vl->count >= 1 && vl->count <= ML_MAX_POINTS,
		    "%s: %llu points", vl->opt->name, vl->count);
	FUZZ_ASSERT(vl->nitems >= 1 && vl->items != NULL, "%s: no items",
		    vl->opt->name);
	for (k = 0; k < vl->nitems; k++) {
		const struct ml_item *it = &vl->items[k];

		FUZZ_ASSERT(it->start == sum, "%s: item %zu starts at %llu",
			    vl->opt->name, k, it->start);
		FUZZ_ASSERT(it->count >= 1, "%s: item %zu is empty",
			    vl->opt->name, k);
		sum += it->count;
		/* Enough to catch a bad item; bounded for long lists. */
		if (k < 64 || k + 1 == vl->nitems) {
			check_point(vl, it->start);
			check_point(vl, it->start + it->count / 2);
			check_point(vl, it->start + it->count - 1);
		}
	}
	FUZZ_ASSERT(sum == vl->count, "%s: items sum to %llu, count %llu",
		    vl->opt->name, sum, vl->count);
	check_point(vl, 0);
	check_point(vl, vl->count / 2);
	check_point(vl, vl->count - 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ml_opt *o;
	const char *unit;
	struct ml_vlist vl;
	char err[256], *text;
	size_t errlen;

	init_opts();
	if (size < 2)
		return 0;
	o = opts[data[0] % nopts];
	unit = (data[1] & 1) ? "cycles" : "us";
	errlen = (data[1] & 2) ? 16 : sizeof(err);
	prec = 1 + (data[1] >> 2) % 17;
	text = fuzz_strndup(data + 2, size - 2);
	memset(err, 'x', sizeof(err));
	if (ml_vlist_parse(&vl, o, text, unit, err, errlen) == 0) {
		check_list(&vl);
		ml_vlist_free(&vl);
		FUZZ_ASSERT(vl.items == NULL && vl.count == 0,
			    "ml_vlist_free left items");
	} else {
		FUZZ_ASSERT(memchr(err, '\0', errlen) != NULL,
			    "error message not terminated");
		FUZZ_ASSERT(err[0] != '\0', "empty error message for '%s'",
			    text);
		FUZZ_ASSERT(vl.items == NULL && vl.count == 0,
			    "failed parse left items");
	}
	free(text);
	return 0;
}
