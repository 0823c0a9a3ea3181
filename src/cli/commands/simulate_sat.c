/*
 * simulate_sat.c - `mcastlat simulate --saturation` (SPEC 7.3): the
 * rate at which the network stops carrying the offered traffic, found
 * by bisection on --rate, each step a run of the simulator over the
 * --replications seeds.  Knows nothing of rows: cmd_simulate.c prints.
 */
#include <math.h>

#include "cli/commands/simulate.h"

/* Cycles of each step of the search unless --cycles is given: long
 * enough that a rate 1 % past saturation shows a deficit. */
#define SAT_STEP_CYCLES 200000ULL

/* One step at rate r: 1 when the network carries it (no saturated
 * status, accepted >= 0.99 offered over the --replications seeds), 0
 * when not, -1 on another failure (status in *st). */
static int carries(struct ml_sim_params *p, double r, double *acc,
		   enum ml_status *st, struct ml_diag *d)
{
	struct ml_sim_result res;

	p->rate = r;
	*st = ml_sim_run(p, &res, d);
	*acc = res.accepted;
	if (*st == ML_SATURATED)
		return 0;
	if (*st != ML_OK && *st != ML_ENOCONV)
		return -1;
	return res.accepted >= 0.99 * res.offered;
}

/*
 * Bracket the saturation rate from the first guess p->rate (doubling or
 * halving), then bisect until the bracket is at most res times its upper
 * end.  Each step is a fixed-length run (--cycles, else
 * SAT_STEP_CYCLES after the warm-up).  *lo: the highest rate carried
 * (0 when none down to 1e-6), *hi: the lowest not carried (NaN when even
 * rate 1 is carried); *thr: the accepted traffic at *lo.
 */
enum ml_status ml_simulate_sat_search(struct ml_sim_params *p, double res,
				 double *lo, double *hi, double *thr,
				 struct ml_diag *d)
{
	enum ml_status st;
	double r = p->rate, acc = NAN;
	int c;

	if (!p->cycles)
		p->cycles = SAT_STEP_CYCLES;
	*lo = 0;
	*hi = NAN;
	*thr = NAN;
	c = carries(p, r, &acc, &st, d);
	if (c < 0)
		return st;
	if (c) {
		*lo = r;
		*thr = acc;
		while (r < 1) {
			r = fmin(2 * r, 1);
			c = carries(p, r, &acc, &st, d);
			if (c < 0)
				return st;
			if (!c) {
				*hi = r;
				break;
			}
			*lo = r;
			*thr = acc;
		}
		if (isnan(*hi))
			return ML_OK;
	} else {
		*hi = r;
		for (;;) {
			r /= 2;
			if (r < 1e-6)
				return ML_OK;
			c = carries(p, r, &acc, &st, d);
			if (c < 0)
				return st;
			if (c) {
				*lo = r;
				*thr = acc;
				break;
			}
			*hi = r;
		}
	}
	while (*hi - *lo > res * *hi) {
		r = (*lo + *hi) / 2;
		c = carries(p, r, &acc, &st, d);
		if (c < 0)
			return st;
		if (c) {
			*lo = r;
			*thr = acc;
		} else {
			*hi = r;
		}
	}
	return ML_OK;
}
