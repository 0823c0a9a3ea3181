/*
 * simtrace.h - what check_sim.c and check_mcast.c share for their
 * conservation tests: a random trace far beyond saturation (every node
 * sends every `every` cycles for `cycles` cycles, unicasts and multicasts
 * mixed) with the messages each node is due, and a deliver hook that
 * counts what each node received.  Static inline: the test runner links
 * only tests/check_*.c.
 */
#ifndef MCASTLAT_TESTS_SIMTRACE_H
#define MCASTLAT_TESTS_SIMTRACE_H

#include <check.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>

#include "mcastlat/sim.h"

struct trace_cfg {
	unsigned N, cycles, every;
	double multi;	   /* share of multicasts */
	unsigned more;	   /* a multicast has 2 .. 1 + more destinations */
	unsigned mf0, mfn; /* its flits: mf0 + uniform(mfn) */
	unsigned uf0, ufn; /* a unicast's: uf0 + uniform(ufn) */
};

struct trace {
	struct ml_sim_trace_msg *m;
	size_t n;
	unsigned *dl;		  /* destination lists, 1 + more per message */
	unsigned *want;		  /* per node: messages it is due */
	unsigned long long flits; /* sum over destinations of their flits */
};

/* A uniform draw from 0 .. n - 1. */
static inline unsigned below(gsl_rng *g, unsigned n)
{
	return (unsigned)gsl_rng_uniform_int(g, n);
}

/* Generate the trace of c with generator g (seeded by the caller). */
static inline void trace_make(struct trace *t, const struct trace_cfg *c,
			      gsl_rng *g)
{
	unsigned cyc, u, w = 1 + c->more;

	t->m = calloc((size_t)c->N * c->cycles, sizeof(*t->m));
	t->dl = calloc((size_t)c->N * c->cycles * w, sizeof(*t->dl));
	t->want = calloc(c->N, sizeof(*t->want));
	ck_assert(t->m && t->dl && t->want);
	t->n = 0;
	t->flits = 0;
	for (cyc = 0; cyc < c->cycles; cyc += c->every)
		for (u = 0; u < c->N; u++) {
			struct ml_sim_trace_msg *x = &t->m[t->n];
			unsigned *ds = t->dl + t->n * w, nd, j, q;

			nd = gsl_rng_uniform(g) < c->multi
				 ? 2 + below(g, c->more)
				 : 1;
			/* distinct destinations other than u */
			for (j = 0; j < nd;) {
				unsigned v = below(g, c->N);
				int dup = v == u;

				for (q = 0; q < j; q++)
					dup |= ds[q] == v;
				if (!dup)
					ds[j++] = v;
			}
			x->cycle = cyc;
			x->source = u;
			x->flits = nd > 1 ? c->mf0 + below(g, c->mfn)
					  : c->uf0 + below(g, c->ufn);
			x->ndests = nd;
			x->dests = ds;
			for (j = 0; j < nd; j++) {
				t->want[ds[j]]++;
				t->flits += x->flits;
			}
			t->n++;
		}
}

static inline void trace_free(struct trace *t)
{
	free(t->m);
	free(t->dl);
	free(t->want);
}

/* What the nodes received: struct sim_hooks.deliver with arg = this. */
struct tally {
	unsigned *got; /* per node: messages it has whole */
	unsigned long long flits;
};

static inline void tally_done(void *arg, unsigned node, unsigned src,
			      unsigned dest, unsigned op, unsigned flits,
			      unsigned long long cycle)
{
	struct tally *t = arg;

	(void)src, (void)op, (void)cycle;
	ck_assert_uint_eq(node, dest);
	t->got[node]++;
	t->flits += flits;
}

#endif
