/*
 * hypercube.h - broadcast latency in wormhole-routed binary n-cubes with
 * Duato's adaptive routing (Shahrabi, Ould-Khaoua and Mackenzie, SAC 2001).
 *
 * Broadcasts travel along a spanning binomial tree as unicast messages,
 * mixed with uniform unicast traffic; V virtual channels per physical
 * channel.  The model reduces to one fixed point S = F(S) in the mean
 * channel service time S.  Times are in cycles, rates in messages per
 * node (or per channel) per cycle.
 */
#ifndef MCASTLAT_HYPERCUBE_H
#define MCASTLAT_HYPERCUBE_H

#include "mcastlat/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Domain limits of the integer parameters. */
#define ML_HYPERCUBE_MAX_DIM 20
#define ML_HYPERCUBE_MAX_VCS 1024

/* Solver defaults (see ml_hypercube_params_init). */
#define ML_HYPERCUBE_EPSREL	1e-12
#define ML_HYPERCUBE_SAT_EPSREL 1e-9
#define ML_HYPERCUBE_MAX_ITER	100

/*
 * How broadcast traffic loads a channel (eqs 3, 11, 26, 27).
 * PAPER: the paper's equations as printed.  TREE: the spanning binomial
 * tree's true message count, N - 1 one-hop messages per broadcast, so
 * lambda_cb + lambda_cr = (N - 1)/n lambda_sb (see hypercube.c).
 */
enum ml_hypercube_load {
	ML_HYPERCUBE_LOAD_PAPER = 0,
	ML_HYPERCUBE_LOAD_TREE,
	ML_HYPERCUBE_NLOAD
};

struct ml_hypercube_params {
	unsigned dim; /* n, 1 .. ML_HYPERCUBE_MAX_DIM; N = 2^n nodes */
	unsigned vcs; /* V, virtual channels per channel, 2 .. MAX_VCS */
	double flits; /* M, message length in flits, >= 1 */
	double beta;  /* fraction of generated messages that are broadcasts */
	double rate;  /* lambda_g, messages per node per cycle, >= 0 */
	double delta; /* start-up latency Delta, cycles, >= 0 */
	enum ml_hypercube_load load; /* broadcast channel load */
	/*
	 * Solver knobs.  epsrel: relative tolerance of the root S, in
	 * [1e-15, 1e-3].  sat_epsrel: relative width of the final bracket of
	 * ml_hypercube_saturation, in [1e-15, 1e-2].  max_iter: iteration
	 * cap of each root-finding loop, >= 10; hitting it gives ML_ENOCONV,
	 * never ML_SATURATED.
	 */
	double epsrel;
	double sat_epsrel;
	unsigned max_iter;
};

struct ml_hypercube_result {
	/* Broadcast latency, eq 1, cycles. */
	double latency;
	/* Mean channel service time S (eq 17, the fixed point), the
	 * one-step broadcast and mean unicast network latencies S_b (eq 12)
	 * and S_u (eq 20), and the source service time S_s (eq 27). */
	double s, s_b, s_u, s_s;
	/* Mean waiting times at a channel (eq 19) and at the source (eq 28). */
	double w_c, w_s;
	/* Mean degree of virtual-channel multiplexing (eq 31). */
	double vbar;
	/* Channel utilisation lambda_c S (eq 15) and source utilisation
	 * lambda_s S_s. */
	double rho, rho_s;
	/* P_V (all V virtual channels busy) and P_a (eq 23) at the root. */
	double p_v, p_a;
	/* Generation rates per node (eq 3, assumption b).  lambda_sr is
	 * eq 3's rate of replicating events with the paper's load, and the
	 * rate of relayed one-hop messages, (N - 1 - n) lambda_sb, with
	 * ML_HYPERCUBE_LOAD_TREE. */
	double lambda_sb, lambda_su, lambda_sr;
	/* Channel rates (eqs 4, 7, 8, 11) and the injection rate (eq 26). */
	double lambda_c, lambda_cu, lambda_cb, lambda_cr, lambda_s;
	/* Evaluations of F used by the solver. */
	unsigned iter;
};

/*
 * Fill *p with the command's defaults: n = 6, V = 2, M = 32, beta = 0.01,
 * lambda_g = 0.001, Delta = 1, the paper's channel load
 * (ML_HYPERCUBE_LOAD_PAPER), and the solver defaults above.
 */
ML_API void ml_hypercube_params_init(struct ml_hypercube_params *p);

/*
 * Check every parameter, solver knobs included.  Return ML_OK, or
 * ML_EINVAL with *d (when not NULL) naming the parameter by its option
 * name ("dim", "vcs", "flits", "beta", "rate", "delta", "load", "epsrel",
 * "sat_epsrel", "max_iter").
 */
ML_API enum ml_status ml_hypercube_validate(const struct ml_hypercube_params *p,
					    struct ml_diag *d);

/*
 * Evaluate the model at p->rate.  Returns ML_OK with *res filled in;
 * ML_SATURATED when no fixed point S exists with lambda_c S < 1 and
 * lambda_s S_s < 1 (then the rates and iter are filled in and every
 * other field is NaN); ML_ENOCONV if a root finder hit max_iter (fields as
 * for ML_SATURATED); ML_ENOMEM if the GSL solver could not be allocated;
 * ML_EINVAL (res untouched) for invalid parameters.  At lambda_g = 0 the
 * latency is exactly n (M + Delta) and Vbar = 1.
 */
ML_API enum ml_status ml_hypercube_eval(const struct ml_hypercube_params *p,
					struct ml_hypercube_result *res);

/*
 * The saturation rate: the largest lambda_g (p->rate is ignored) at which
 * the model has a solution, by bisection on existence until the bracket
 * is narrower than p->sat_epsrel relative; *lambda_sat is the bracket's
 * lower end, at which ml_hypercube_eval returns ML_OK.  Returns ML_OK,
 * ML_EINVAL, ML_ENOCONV or ML_ENOMEM.
 */
ML_API enum ml_status
ml_hypercube_saturation(const struct ml_hypercube_params *p,
			double *lambda_sat);

/*
 * One application of the fixed-point map: *f = F(s) (eq 17 with eqs 12,
 * 13, 19 to 25 and 29, 30 evaluated at S = s) at p->rate.  Returns
 * ML_EINVAL for invalid parameters or unless M <= s and lambda_c s < 1.
 * For inspection and tests; ml_hypercube_eval does not need it.
 */
ML_API enum ml_status ml_hypercube_map(const struct ml_hypercube_params *p,
				       double s, double *f);

/* d, the mean number of dimensions a unicast crosses: sum of i p_i
 * (eqs 5, 6), into *d.  Returns ML_OK, ML_EINVAL (*d untouched) unless
 * 1 <= n <= ML_HYPERCUBE_MAX_DIM, or ML_ENOCONV if GSL cannot form a
 * binomial coefficient. */
ML_API enum ml_status ml_hypercube_mean_distance(unsigned n, double *d);

/* omega, the mean number of replications of a broadcast at a node
 * (eqs 9, 10), into *omega.  Returns ML_OK, or ML_EINVAL (*omega
 * untouched) unless 1 <= n <= ML_HYPERCUBE_MAX_DIM. */
ML_API enum ml_status ml_hypercube_omega(unsigned n, double *omega);

#ifdef __cplusplus
}
#endif

#endif
