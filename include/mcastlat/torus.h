/*
 * torus.h - small-message multicast latency on unidirectional SCI tori
 * (Oral and George, 2003): separate addressing, U-torus, S-torus, Md-torus
 * and Mu-torus, either by the paper's closed forms (eqs 8 to 12) or by
 * building each algorithm's communication tree on a k-ary N-dimensional
 * torus and counting relays (eq 7).  Times are in microseconds.
 */
#ifndef MCASTLAT_TORUS_H
#define MCASTLAT_TORUS_H

#include <stdbool.h>
#include <stddef.h>

#include "mcastlat/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The algorithms, in the order of the command's --algorithm choices. */
enum ml_torus_alg {
	ML_TORUS_SEP = 0, /* separate addressing (multi-unicast), eq 8 */
	ML_TORUS_U,	  /* U-torus, binomial tree, eq 11 */
	ML_TORUS_S,	  /* S-torus, one chain, eq 12 */
	ML_TORUS_MD,	  /* Md-torus, one chain per ringlet, eq 9 */
	ML_TORUS_MU,	  /* Mu-torus, chains of length r, eq 10 */
	ML_TORUS_NALG
};

enum ml_torus_model {
	ML_TORUS_PAPER = 0,  /* the simplified closed forms */
	ML_TORUS_STRUCTURAL, /* trees built on the torus, eq 7 */
	ML_TORUS_NMODEL
};

/*
 * Readings of the equations the OCR damaged.  Each variant belongs to one
 * algorithm and changes nothing for the others.
 */
enum ml_torus_variant {
	ML_TORUS_VAR_DEFAULT = 0, /* the default readings (torus.c); for u
				   * the same as STEPS */
	ML_TORUS_VAR_EQ6,	  /* sep: (G-1)(o + t_p) + o, eq 6 */
	ML_TORUS_VAR_MINUS1,	  /* md: h = ceil(G/k) - 1 */
	ML_TORUS_VAR_STEPS,	  /* u: h = ceil(log2 G) (the default) */
	ML_TORUS_VAR_LITERAL,	  /* u: h = ceil(log2 G) ((G mod k) + k)/k, the
				   * OCR of eq 11 read literally */
	ML_TORUS_VAR_E, /* u: h = (ceil(log2 G) - 1) ((G mod k) + k)/k */
	ML_TORUS_VAR_H, /* u: h = floor(log2 G) ((G mod k) + k)/k */
	ML_TORUS_NVARIANT
};

/* How the structural model chooses the group when no member list is given. */
enum ml_torus_placement {
	ML_TORUS_ROWMAJOR = 0, /* the root and the next G - 1 node ids */
	ML_TORUS_RANDOM,       /* root plus G - 1 uniformly random others */
	ML_TORUS_NPLACEMENT
};

/* Largest torus: k^N must not exceed 2^53 (exact in a double). */
#define ML_TORUS_MAX_NODES (1ULL << 53)
/* Largest group the structural model builds a tree for. */
#define ML_TORUS_MAX_TREE (1ULL << 22)

/* Bits of ml_torus_result.notes. */
#define ML_TORUS_NOTE_EXTRAPOLATED 0x1u /* o(M) outside 128..512 bytes */
#define ML_TORUS_NOTE_NOT2D	   0x2u /* 2-D closed form used for N != 2 */
#define ML_TORUS_NOTE_VARIANT	   0x4u /* variant has no structural meaning */

struct ml_torus_params {
	enum ml_torus_alg alg;
	enum ml_torus_model model;
	enum ml_torus_variant variant;
	unsigned long long k;	  /* nodes per dimension, >= 2 */
	unsigned dims;		  /* N, >= 1, k^N <= ML_TORUS_MAX_NODES */
	unsigned long long group; /* G, root included, 2 .. k^N */
	unsigned long long msg;	  /* M, bytes, >= 1 */
	unsigned long long r;	  /* Mu-torus partition length, >= 2; 0: k */
	double o;		  /* overhead o, us, >= 0; NaN: o(M), Fig. 8 */
	double tprocess;	  /* t_process, us, >= 0; NaN: Table 1 */
	/* The rest is used by the structural model only. */
	unsigned long long root; /* root node id, < k^N */
	enum ml_torus_placement placement;
	unsigned long long seed; /* for ML_TORUS_RANDOM */
	/*
	 * Explicit group (node ids, root included, no duplicates, each
	 * < k^N); nmembers must equal group.  NULL: use placement.  Checked
	 * in both models, used by the structural one.
	 */
	const unsigned long long *members;
	size_t nmembers;
	bool full;	   /* add hp Lp + hf Lf + hs Ls (eqs 3, 4) */
	double lp, lf, ls; /* us, >= 0: propagation, forwarding, switching */
};

struct ml_torus_result {
	double latency;	 /* t_multicast, us */
	double o;	 /* o used, us */
	double tprocess; /* t_process used, us */
	double li;	 /* L_i = t_process + 2 o, us */
	double h;	 /* relays used in eq 7 (sep: the G - 1 serial sends) */
	unsigned long long r; /* r used */
	/* Structural model only (NaN in paper mode): */
	double h_plain;	  /* relays on the deepest path */
	double h_serial;  /* relays plus earlier sends by the same parents */
	double hop_depth; /* messages on the deepest path */
	/* With full in the structural model (NaN otherwise): the network
	 * hops of the deepest path and their cost, us. */
	double hp, hf, hs, t_network;
	unsigned notes; /* ML_TORUS_NOTE_* bits */
};

/* One edge of a communication tree: from sends to `to`; order is the
 * position of this send among from's sends (0 = first). */
struct ml_torus_edge {
	unsigned long long from, to;
	unsigned long long order;
};

/*
 * Fill *p with the command's defaults: separate addressing (the first
 * of the command's default "all"), the closed forms with their default
 * readings, a 4 x 4 torus (k = 4, N = 2), G = 16, M = 128 bytes, r = k,
 * o and t_process NaN (o(M) of Figure 8 and Table 1), root 0, row-major
 * placement, seed 1, no member list, no network terms, Lp = 0.014,
 * Lf = 0.060, Ls = 0.670 us.  A zeroed struct is invalid (k = 0) and
 * would take o = 0 and t_process = 0 rather than the paper's.
 */
ML_API void ml_torus_params_init(struct ml_torus_params *p);

/*
 * Check every parameter of *p, including an explicit member list (range,
 * duplicates, root among them: O(G log G)).  Returns ML_OK, ML_EINVAL
 * with *d (may be NULL) naming the parameter by its option name, or
 * ML_ENOMEM when the copy needed to find duplicates cannot be allocated.
 */
ML_API enum ml_status ml_torus_validate(const struct ml_torus_params *p,
					struct ml_diag *d);

/*
 * Evaluate one multicast latency.  Returns ML_OK, ML_EINVAL (invalid
 * parameters, *res untouched) or ML_ENOMEM (the structural tree could not
 * be allocated).  Thread safe: no global state; the random placement uses
 * a generator local to the call, seeded from p->seed.
 */
ML_API enum ml_status ml_torus_eval(const struct ml_torus_params *p,
				    struct ml_torus_result *res);

/*
 * Build p->alg's communication tree (as the structural model does,
 * whatever p->model says) and store its G - 1 edges in edges[0 .. cap-1],
 * parents before children; *nedges receives G - 1.  Returns ML_EINVAL
 * also when cap < G - 1.
 */
ML_API enum ml_status ml_torus_tree(const struct ml_torus_params *p,
				    struct ml_torus_edge *edges, size_t cap,
				    size_t *nedges);

/* o(M) = 1.994 + 0.00315 (M - 128) us, the fit of the paper's Figure 8
 * (measured for 128..512 bytes, extrapolated elsewhere).  Defined for
 * every msg, so it cannot fail and returns the value itself. */
ML_API double ml_torus_overhead(unsigned long long msg);

/* Table 1's t_process of an algorithm into *us (sep 7, md 206, mu 201,
 * u 629, s 265 us).  Returns ML_OK, or ML_EINVAL (*us untouched) for an
 * algorithm outside enum ml_torus_alg. */
ML_API enum ml_status ml_torus_tprocess(enum ml_torus_alg alg, double *us);

/* The note for a set of ML_TORUS_NOTE_* bits: a static string, "" for
 * none, phrases joined by "; ".  Unknown bits are ignored: it cannot
 * fail. */
ML_API const char *ml_torus_note(unsigned notes);

#ifdef __cplusplus
}
#endif

#endif
