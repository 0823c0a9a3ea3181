/*
 * fitint.h - what a model's fitting adapter tells the fitting core
 * (internal to src/fit/).
 *
 * The core (lsq.c) knows nothing of any model.  An adapter names the
 * time costs a fit may free (each a double field of the params struct),
 * evaluates the model, and, for a model that is only piecewise linear in
 * its costs, gives each point's pieces and the assignments of pieces to
 * points that the model's structure allows.
 */
#ifndef MCASTLAT_FIT_FITINT_H
#define MCASTLAT_FIT_FITINT_H

#include <stdbool.h>
#include <stddef.h>

#include "mcastlat/fit.h"

/* Most parameters a model can free, and most pieces of one point. */
#define FIT_NPARAM 12
#define FIT_NPIECE 3

/* A cost a fit can free: its option name and its field. */
struct fit_param {
	const char *name;
	size_t offset; /* of a double in the params struct */
};

/* One piece of a point's prediction, affine in the model's parameters:
 * value = offset + sum over free j of row[j] theta_j.  The adapter
 * fills row[] for every parameter of the model (index as in params[])
 * and value, the piece's value at the point's current parameters. */
struct fit_piece {
	double value;
	double row[FIT_NPARAM];
};

/* --free auto: a quantity the data may determine, carried by one option;
 * its partners (the other options of the combination) are set to 0 when
 * the user did not give them. */
struct fit_carrier {
	const char *name;
	const char *partners[4]; /* NULL-terminated */
};

struct ml_fit_model {
	const char *name;
	size_t size;
	const struct fit_param *params;
	size_t nparams;
	const struct fit_carrier *carriers;
	size_t ncarriers;
	enum ml_status (*validate)(const void *p, struct ml_diag *d);
	/* The prediction at p (ML_OK), or another status. */
	enum ml_status (*eval)(const void *p, double *y);
	/*
	 * Optional: the pieces of the prediction at p, whose largest is the
	 * prediction wherever the model's formula choice is by the larger
	 * (cluster's auto).  Returns how many (1..FIT_NPIECE).  NULL: the
	 * model is affine in its costs, one piece found by probing eval.
	 */
	unsigned (*pieces)(const void *p, struct fit_piece *pc);
	/*
	 * Optional (with pieces): the assignments of a piece to each point
	 * that the fit tries.  Writes candidate c's piece indices to
	 * assign[c * n + i] for the points (assign may be NULL to count)
	 * and returns the number of candidates.  NULL: one candidate, the
	 * largest piece of each point at the starting parameters.
	 */
	size_t (*candidates)(const void *points, size_t n,
			     unsigned char *assign);
	/*
	 * true: the model is piecewise linear in its costs with pieces too
	 * many to enumerate (the collective model's event simulation).
	 * The fit starts from the costs the points hold (not from 0),
	 * linearises each point there by forward differences (one piece),
	 * solves the non-negative linear problem and steps towards its
	 * solution while the true chi^2 falls (fit.c, local_fit): a local
	 * optimum.  pieces and candidates must be NULL.
	 */
	bool local;
	/* Optional: rules over the whole data (one MTU at a time). */
	enum ml_status (*check_data)(const void *points, size_t n,
				     struct ml_diag *d);
};

/* Index of the cost called name in m->params, or -1 (fitapi.c). */
long ml_fit_param_index(const struct ml_fit_model *m, const char *name);

/* The k-th cost of m in the params struct p. */
static inline double *fit_field(const struct ml_fit_model *m, void *p,
				size_t k)
{
	return (double *)((char *)p + m->params[k].offset);
}

#endif
