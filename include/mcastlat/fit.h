/*
 * fit.h - a model's parameters from measurements (calibration).
 *
 * A fit takes data points (one params struct of the model per point:
 * the point's inputs, such as the message size and the cluster size,
 * with every other parameter at its fixed value), the measured latency
 * of each point, and a free set (parameters by their option name,
 * "latency-fixed"), and returns the weighted least-squares estimates of
 * the free parameters with their covariance, intervals and diagnostics.
 * It neither prints nor reads files; the CLI's `mcastlat fit` does that.
 * A program calls gsl_set_error_handler_off() first, as for every GSL
 * user: GSL's default handler aborts.
 *
 * Every parameter a fit can free is a time cost: it is constrained to be
 * >= 0, and one that ends at 0 has status ML_FIT_AT_BOUND (no standard
 * error).  The models are linear in their time costs within each of a
 * few pieces (the cluster model's eq 2.8 and 2.9 regimes and its larger
 * gap; the step counts of kbinomial and the relay counts of torus do not
 * depend on the costs), so the fit enumerates the pieces' assignments
 * that the model allows, solves each as a linear least-squares problem
 * (GSL multifit), keeps the lowest residual of the true model, and
 * polishes it with GSL's trust-region solver: the global optimum, not a
 * local one.
 *
 * A free set that the data cannot determine (the Jacobian at the
 * solution is rank-deficient or its condition number exceeds
 * cond_max) is refused with ML_EUNIDENT, and the result names the
 * parameters that enter the data only in combination.  No standard error
 * is ever computed for an undetermined parameter.
 */
#ifndef MCASTLAT_FIT_H
#define MCASTLAT_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "mcastlat/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most parameters one fit may free. */
#define ML_FIT_MAXFREE 12

/* How to fit; start with ml_fit_options_init. */
struct ml_fit_options {
	/* true (default): each residual is divided by its measurement
	 * (relative errors: latencies span orders of magnitude); false:
	 * plain residuals. */
	bool relative;
	/* With relative: false (default, SPEC 9.3): the residual is
	 * (f - y) / y; true: ln(f / y), the relative error on a log scale,
	 * symmetric in over- and under-prediction and without the low bias
	 * of (f - y) / y, under which a point measured low weighs more
	 * (mcastlat-fit(1), Weights). */
	bool logscale;
	/* Bisquare down-weighting of outliers (gsl_multifit_robust). */
	bool robust;
	/* Confidence level of the intervals, default 0.95. */
	double level;
	/* Largest condition number of the (scaled) Jacobian accepted as
	 * determined, default 1e10. */
	double cond_max;
	/* |studentised residual| above which a point is flagged, default 3. */
	double outlier;
	/* Threads that evaluate a local model's points (the collective
	 * model: an engine run each), default 1.  Every point is computed
	 * alone, so the result is the same bits for any count. */
	unsigned threads;
	/* Optional: called at the start of every fit (each ml_fit, also
	 * those of ml_fit_auto and the error model), from the calling
	 * thread, with on_fit_arg: a caller's count of fits done, for a
	 * progress line.  NULL (default): not called. */
	void (*on_fit)(void *arg);
	void *on_fit_arg;
};

ML_API void ml_fit_options_init(struct ml_fit_options *o);

/* A model's fitting adapter (opaque): which parameters it can free and
 * how its prediction depends on them. */
struct ml_fit_model;

ML_API extern const struct ml_fit_model ml_fit_cluster;   /* struct ml_cluster_params */
ML_API extern const struct ml_fit_model ml_fit_kbinomial; /* struct ml_kbinomial_params */
ML_API extern const struct ml_fit_model ml_fit_torus;     /* struct ml_torus_params */
ML_API extern const struct ml_fit_model ml_fit_hypercube; /* struct ml_hypercube_params */
ML_API extern const struct ml_fit_model ml_fit_collective; /* struct ml_collective_point */

/* The adapter of the model named like its command ("cluster"), or NULL. */
ML_API const struct ml_fit_model *ml_fit_model_find(const char *name);

/* Size of the model's params struct. */
ML_API size_t ml_fit_params_size(const struct ml_fit_model *m);

/*
 * The parameters the model can free, by option name, in the order --free
 * auto considers them.  Writes at most max names and returns how many
 * there are.
 */
ML_API size_t ml_fit_param_names(const struct ml_fit_model *m,
				 const char **names, size_t max);

/*
 * Read or write the parameter `name` of one params struct of model m.
 * Return ML_EINVAL for a name the model cannot free.
 */
ML_API enum ml_status ml_fit_get(const struct ml_fit_model *m,
				 const void *params, const char *name,
				 double *value);
ML_API enum ml_status ml_fit_set(const struct ml_fit_model *m, void *params,
				 const char *name, double value);

/* The data of a fit. */
struct ml_fit_data {
	/* n params structs of the model, one per point: its inputs and the
	 * fixed parameters.  The free parameters' values are ignored. */
	const void *points;
	size_t n;
	const double *y; /* measured latency, the model's time unit, > 0 */
	const double *w; /* optional weights > 0 (multiplied in), or NULL */
	/* Point i is fitted when use[i] (NULL: every point); the others are
	 * held out: predicted with the fitted parameters and scored. */
	const bool *use;
	/* Optional (NULL: every point differs): group[i] is the index of
	 * the first point with the same inputs as point i (group[i] <= i,
	 * group[group[i]] = group[i]), so that repeated runs of a point
	 * are told apart from other points.  Their spread is the pure
	 * error of the lack-of-fit test, and the model is evaluated once
	 * per group. */
	const size_t *group;
};

enum ml_fit_pstatus {
	ML_FIT_FITTED,	 /* estimated, with standard error and interval */
	ML_FIT_AT_BOUND, /* estimated at its bound 0: no standard error; its
			  * interval is [0, max(0, bound_est + t bound_sd)] */
	ML_FIT_FIXED	 /* not free */
};

struct ml_fit_result {
	size_t nfree;
	const char *names[ML_FIT_MAXFREE]; /* the free set, as given */
	double value[ML_FIT_MAXFREE];	   /* estimate */
	double se[ML_FIT_MAXFREE];	   /* standard error; NaN at bound */
	double lo[ML_FIT_MAXFREE], hi[ML_FIT_MAXFREE]; /* interval at level */
	/* At bound: the estimate and standard error the parameter would
	 * have with no bound, the others free too (one Gauss-Newton step
	 * from the fit with the whole free set's covariance, scaled by
	 * chi^2 / dof; the unconstrained least squares where the model is
	 * linear in its costs); NaN for the others.  Its interval is the
	 * unconstrained one cut at 0, [0, max(0, bound_est + t bound_sd)]:
	 * it holds a value > 0 exactly when the unconstrained interval
	 * does, so it covers as often (0 itself it always holds). */
	double bound_est[ML_FIT_MAXFREE];
	double bound_sd[ML_FIT_MAXFREE];
	enum ml_fit_pstatus status[ML_FIT_MAXFREE];
	/* Covariance of the estimates, row-major nfree x nfree, scaled by
	 * chi^2 / dof; rows and columns of parameters at bound are 0. */
	double cov[ML_FIT_MAXFREE * ML_FIT_MAXFREE];

	size_t nfit;	/* points fitted */
	size_t nhold;	/* points held out */
	int dof;	/* nfit - parameters estimated (not at bound) */
	double chi2;	/* weighted residual sum of squares */
	double r2;	/* weighted coefficient of determination */
	double cond;	/* condition number of the column-scaled Jacobian */
	double tquant;	/* the t quantile the intervals used */
	/* Over the fitted points: rms and largest |relative error|, and the
	 * index of the point with the largest. */
	double rms_rel, max_rel;
	size_t worst;
	/* Over the held-out points (NaN, and worst_hold = n, without):
	 * rms and largest |relative error|, the point of the largest, and
	 * the mean signed relative error (< 0: predicted too low; a
	 * prediction too low can never miss by 100 %, so say which). */
	double hold_rms_rel, hold_max_rel;
	size_t worst_hold;
	double hold_mean_rel;
	size_t noutliers; /* fitted points with |stud| > outlier */
	/*
	 * Lack of fit against pure error (repeated runs, data->group): m
	 * distinct fitted points, sspe the weighted spread of the runs
	 * about each point's weighted mean, sslof = chi2 - sspe;
	 * lof_f = (sslof / (m - p)) / (sspe / (nfit - m)) with p the
	 * parameters estimated, and lof_p its upper tail probability
	 * (F distribution with lof_df1 = m - p and lof_df2 = nfit - m
	 * degrees of freedom).  lof_f and lof_p are NaN when a degree of
	 * freedom is < 1 or sspe is 0 (no repeated runs).
	 */
	size_t ngroups;
	double sspe, sslof, lof_f, lof_p;
	long lof_df1, lof_df2;
	/* Fitted points within 1 % of a boundary between two of the
	 * model's pieces (the cluster model's eq 2.8 and 2.9, or its two
	 * gaps) at the fit: a small change of the costs moves them to the
	 * other piece, so the standard errors, from the pieces that hold
	 * at the fit, are local to this side of the boundary.  A point
	 * exactly on one must be determined from both sides (else
	 * ML_EUNIDENT). */
	size_t nboundary;

	/* Per point (n each; allocated by ml_fit, freed by
	 * ml_fit_result_free): the prediction; the residual, predicted
	 * minus measured; the relative error (predicted - measured) /
	 * measured; the internally studentised residual (NaN for held-out
	 * points); and 1 for a flagged outlier. */
	double *pred, *resid, *rel, *stud;
	unsigned char *flag;

	/*
	 * ML_EUNIDENT: the free parameters that enter the data only in
	 * combination (from the null space of the Jacobian), and whether
	 * they enter only as their sum (equal columns).
	 */
	size_t ncombo;
	const char *combo[ML_FIT_MAXFREE];
	bool combo_sum;
	/* ... or that they do not enter the data at all (a zero column). */
	bool combo_absent;
	/* ML_ENOCONV: why, as a phrase ("..."); else "". */
	char reason[160];
};

/*
 * Fit the free parameters free[0..nfree) of model m to the data.
 * Returns
 *   ML_OK        fitted; *res filled (free with ml_fit_result_free);
 *   ML_EINVAL    bad arguments or data (a point outside the model's
 *                domain, a latency not finite and > 0, fewer than nfree
 *                + 1 fitted points, an unknown or repeated name); *d
 *                names the parameter, with the point's index in the
 *                message where one is to blame;
 *   ML_EUNIDENT  the data do not determine the free set: res->combo;
 *   ML_ENOCONV   the solver failed: res->reason;
 *   ML_ENOMEM.
 * On any status but ML_OK, res holds no allocation.
 */
ML_API enum ml_status ml_fit(const struct ml_fit_model *m,
			     const struct ml_fit_data *data,
			     const char *const *freeset, size_t nfree,
			     const struct ml_fit_options *o,
			     struct ml_fit_result *res, struct ml_diag *d);

ML_API void ml_fit_result_free(struct ml_fit_result *res);

/* Akaike's information criterion of a fit, for least squares with
 * normal errors of unknown scale (Burnham and Anderson, Model Selection
 * and Multimodel Inference, 2nd ed., 2002, section 2.2):
 * nfit ln(chi2 / nfit) + 2 K, K the parameters estimated (not at bound)
 * plus the scale.  Only differences between fits of the same points
 * mean anything: exp(-(AIC_a - AIC_b) / 2) is how much likelier fit a
 * is than fit b (values of a discrete option, say).  -inf when chi2 is
 * 0; NaN when res holds no fit (nfit 0). */
ML_API double ml_fit_aic(const struct ml_fit_result *res);

/*
 * --free auto: the model's identifiable set for these data.  Each
 * quantity the data determine is carried by one option (the model's
 * carriers, in order); a carrier is taken when the fit with it added
 * stays determined.  Options in given[0..ngiven) (fixed by the user) are
 * never freed nor changed.  The other options of a carried quantity
 * (its partners: or-fixed and ur beside latency-fixed) are set to 0 in
 * *points when not given, so that the carrier holds the whole quantity;
 * their names are written to zeroed[] (ML_FIT_MAXFREE * 2 entries).
 * points must be writable (data->points is cast).  Writes the free set
 * to free[] (ML_FIT_MAXFREE entries).  Returns ML_OK (possibly with
 * *nfree = 0 when nothing is determined), or a status of ml_fit
 * (ML_ENOCONV: d->msg says why).
 */
ML_API enum ml_status ml_fit_auto(const struct ml_fit_model *m,
				  const struct ml_fit_data *data,
				  const char *const *given, size_t ngiven,
				  const struct ml_fit_options *o,
				  const char **freeset, size_t *nfree,
				  const char **zeroed, size_t *nzeroed,
				  struct ml_diag *d);

/* ------------------------------------------------------------------ */
/* The collective model's error model (SPEC 10.5; mcastlat/collective.h's
 * struct ml_coll_errmodel).                                          */

struct ml_coll_errmodel;

/* Most forward cuts (Pmax / 2, / 4, / 8). */
#define ML_COLL_ERR_MAXCUTS 3

/* How the error model was measured. */
struct ml_coll_errfit {
	size_t nfitted;			  /* broadcasts of the full fit (e = 0) */
	size_t ncuts;			  /* forward fits tried */
	long long cut[ML_COLL_ERR_MAXCUTS]; /* their largest P */
	size_t judged[ML_COLL_ERR_MAXCUTS]; /* broadcasts each judged */
	enum ml_status status[ML_COLL_ERR_MAXCUTS]; /* each fit's status */
	size_t nfwd;	/* judged in all */
	double fwd_rms; /* rms of ln(measured / predicted) over them */
	size_t npairs;	/* pairs of algorithms at one point */
	/* forward fits that judged a point: with fewer than two the
	 * growth is held at the sd at least (one extrapolation measures
	 * too little), and a caller should drop no mechanism on them */
	size_t nforward;
};

/*
 * The error model of a collective fit by forward validation
 * (src/fit/fit_coll_err.c): data, freeset, nfree and o as given to
 * ml_fit for ml_fit_collective (every point a struct
 * ml_collective_point), full that fit's result.
 * Fits the ping-pong rows with the broadcasts at P <= c for cuts c of
 * about Pmax / 2, / 4 and / 8, and learns from the broadcasts above c,
 * and from the full fit's own, how ln(measured / predicted) grows with
 * log2(P / c), per message class, and for two algorithms at one point.
 * ML_OK (*em and *info filled; with fewer than three fitted P no cut
 * is possible and the growth is taken as equal to the sd: the variance
 * doubles per doubling); ML_EINVAL (no broadcast fitted: *d says so);
 * ML_ENOMEM.  Parameters a forward fit's data do not determine (the
 * network when every rank of the smaller P sits on one node) are held
 * at the full fit's values; a forward fit that fails even so is
 * skipped (info->status).
 */
ML_API enum ml_status ml_fit_collective_errmodel(
    const struct ml_fit_data *data, const char *const *freeset, size_t nfree,
    const struct ml_fit_options *o, const struct ml_fit_result *full,
    struct ml_coll_errmodel *em, struct ml_coll_errfit *info,
    struct ml_diag *d);

#ifdef __cplusplus
}
#endif

#endif
