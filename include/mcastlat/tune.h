/*
 * tune.h - measured where measured, the model between (SPEC 10.7): a
 * table of measured broadcasts (per algorithm and placement: P, M, the
 * runs' median and spread), the model corrected by the measured log
 * residuals of its algorithm and placement, interpolated over log P and
 * log M, with intervals of a new run from leave-one-P-out and
 * leave-one-size-out cross-validation of that corrected predictor, by
 * algorithm; and best's pick where measured cells decide.
 */
#ifndef MCASTLAT_TUNE_H
#define MCASTLAT_TUNE_H

#include <stdbool.h>
#include <stddef.h>

#include "mcastlat/collective.h"
#include "mcastlat/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One measured run of a broadcast: p says where (placement, ranks,
 * msg) and which algorithm (ML_COLL_DEFAULT: the library's own
 * decision); its machine fields are not read.  value: the measured time
 * of the table's objective, us (> 0). */
struct ml_coll_run {
	struct ml_collective_params p;
	double value;
};

/* A measured cell: the runs of one (placement, algorithm, P, M). */
struct ml_coll_cell {
	struct ml_collective_params p; /* as the first run gave it */
	double median;		       /* the runs' median, us */
	double spread; /* robust sd of ln(run): 1.4826 x its median absolute
			* deviation; NaN with < 3 runs */
	int runs;
	double sd;     /* the plain sd of ln(run); NaN with < 3 runs */
	size_t dev_first; /* its runs' deviations: dev[dev_first ..
			   * dev_first + runs) of its table */
};

/* The table: its cells, and the objective their values measure. */
struct ml_coll_meas {
	struct ml_coll_cell *cell;
	size_t ncell;
	enum ml_coll_objective obj;
	/* Each run's |ln(run / its cell's median)|, sqrt(n / (n - 1))
	 * times (a median of n runs sits closer to them than the true
	 * one), by cell; NULL: not known (a table built by hand). */
	double *dev;
};

/* The cells of n runs (median and spread per cell) into *out (free with
 * ml_coll_meas_free).  ML_EINVAL for a value that is not > 0 or a run
 * whose ranks or msg is below 1; ML_ENOMEM. */
ML_API enum ml_status ml_coll_meas_build(const struct ml_coll_run *runs,
					 size_t n, enum ml_coll_objective obj,
					 struct ml_coll_meas *out);
ML_API void ml_coll_meas_free(struct ml_coll_meas *m);

/*
 * The corrected predictor of one machine and placement: the model (the
 * machine of *machine: its channels, mechanisms, library; and its
 * placement: ppn, sockets, nodes, map-by, bind-to, numa) at each
 * measured cell of that placement gives the residual r = ln(measured /
 * model).  Opaque; ml_coll_tune_free.
 */
struct ml_coll_tune;

/* What the cross-validation measured (for # lines and the man page). */
struct ml_coll_tune_info {
	size_t cells;	  /* measured cells of the placement */
	size_t cv;	  /* cells predicted with their P left out */
	double q[ML_COLL_NCLASS]; /* level quantile of |ln error|, by class */
	double qdiff;	  /* level quantile of |error(a) - error(default)| */
	/* level quantile of |r_a - r_b| of two algorithms measured at one
	 * cell that ran different broadcasts: the default's term where its
	 * decision runs a broadcast none of the cells its correction is
	 * read from ran (NaN: fewer than 10 such pairs, the largest q
	 * taken instead) */
	double qalg;
	size_t capped; /* single runs read as a larger size's least time */
	/* the term of a correction read from rows of the other class of P
	 * (Open MPI by node on several nodes: after the Bruck barrier that
	 * crosses unevenly loaded nodes, or not), the largest q; NaN where
	 * the placement has one class */
	double qclass;
	double noise;	  /* a run's robust sd of ln: runs' or neighbours' */
	double run_q;	  /* level quantile of a new run's |ln deviation|
			   * from its cell's median: the runs' (cells of
			   * 3 or more), else z x noise */
	double qm;	  /* the interval's term per doubling of M from
			   * the nearest measured size (leave-one-size-out) */
	bool noise_runs;  /* noise from repeated runs (else neighbours) */
	/* Without repeated runs the noise is read at each measured P: its
	 * least and largest there, and the P of the largest (with
	 * repeated runs: noise, noise and 0) */
	double noise_min, noise_max;
	long long noise_max_at;
	/* a run's own sd of ln, which best's comparisons of measured
	 * cells read: the runs' (noise), or without repeated runs from
	 * the double differences of the residuals (the change between
	 * adjacent measured P of the step between adjacent sizes), where
	 * the model's misfit the two rows share cancels */
	double run_sd;
	double growth;	  /* ln error per doubling beyond the measured P */
	long long pmin, pmax; /* measured P range */
	/* The measured cells around a point decide where they agree,
	 * unless leave-one-P-out shows that following them loses: the
	 * cells so judged and their mean measured ln gain. */
	size_t corner_cv;
	double corner_gain;
};

/*
 * Build the corrected predictor of m's cells of *machine's placement at
 * level (0.5 <= level < 1).  em (may be NULL or without a model): its
 * forward-validation growth per doubling of P beyond the measured P
 * (else the leave-one-P-out errors of the edge rows give it).  ML_OK
 * with *out NULL when no cell is of that placement; ML_EINVAL for a bad
 * level or machine; ML_ENOMEM.
 */
ML_API enum ml_status ml_coll_tune_new(const struct ml_coll_meas *m,
				       const struct ml_collective_params *machine,
				       const struct ml_coll_errmodel *em,
				       double level, struct ml_coll_tune **out);
ML_API void ml_coll_tune_free(struct ml_coll_tune *t);
ML_API void ml_coll_tune_get_info(const struct ml_coll_tune *t,
				  struct ml_coll_tune_info *info);

/* A corrected prediction. */
struct ml_coll_tuned {
	double value;	/* us: the measurement, or model x exp(corr) */
	double lo, hi;	/* its interval at the table's level */
	double corr;	/* the ln correction applied (0: none) */
	double dist;	/* doublings of P to the nearest measured row */
	double run;	/* the ln half-width's part that is a new run's
			 * deviation from the median (the rest is the
			 * median's own uncertainty), 0 where none */
	bool measured;	/* the cell was measured: value is its median */
	bool corrected; /* the algorithm has measured cells here */
};

/*
 * Algorithm a at (ranks, msg) of the table's placement, whose model
 * value (of the table's objective) is model: the measured median at a
 * measured cell; else model x exp(the residual interpolated linearly in
 * log M within the measured P rows around ranks, then in log P between
 * them, held at the edge beyond); model unchanged where a has no
 * measured cell.  The interval, of a new run: at a measured cell a
 * run's deviation (info.run_q) or the cell's spread where wider, else
 * that and the cross-validated terms of P and M (by algorithm),
 * widened beyond the measured P by growth per doubling; the default's
 * widened by info.qalg where its decision at the point runs a broadcast
 * that none of the cells its correction is read from ran.  ML_EINVAL
 * for model <= 0.
 */
ML_API enum ml_status ml_coll_tune_predict(const struct ml_coll_tune *t,
					   enum ml_coll_alg a, long long ranks,
					   long long msg, double model,
					   struct ml_coll_tuned *out);

/* ml_coll_tune_predict of the model's result at the point, *model: its
 * value of the table's objective, and for the default its decision
 * there (ran, composition), which ml_coll_tune_predict finds by running
 * the model once more. */
ML_API enum ml_status ml_coll_tune_predict_result(
    const struct ml_coll_tune *t, enum ml_coll_alg a, long long ranks,
    long long msg, const struct ml_collective_result *model,
    struct ml_coll_tuned *out);

/*
 * best with measurements (SPEC 10.7): every candidate of among at *p
 * (its placement must be the table's) predicted by the model and
 * corrected; a candidate replaces the default only where it is faster
 * by more than the two could be wrong by together: at a cell where
 * both were measured, by more than the runs' spread (sqrt of the sum of
 * the two runs' variances), else by more than the cross-validated
 * level quantile of the difference of their errors (widened beyond the
 * measured P).  More than a doubling beyond the default's measured P,
 * where its decision runs an algorithm that no measured cell of the
 * default ran and that was not measured forced, the default is kept
 * against a candidate not measured at the point.
 * The fastest such candidate is picked, else the default.
 * out->r is the model's result of the pick (ml_coll_tune_predict
 * corrects it); out->vs_default and out->margin are by corrected
 * values.  Without the default among the
 * candidates, the fastest by corrected value.  ML_EINVAL when no
 * candidate runs.
 */
ML_API enum ml_status ml_coll_tune_best(const struct ml_coll_tune *t,
					const struct ml_collective_params *p,
					unsigned among,
					enum ml_coll_objective obj,
					struct ml_coll_pick *out);

/* Do a and b place their ranks alike apart from P (ppn, sockets,
 * nodes, map-by, bind-to, numa) and run the same library? */
ML_API bool ml_coll_same_placement(const struct ml_collective_params *a,
				   const struct ml_collective_params *b);

#ifdef __cplusplus
}
#endif

#endif
