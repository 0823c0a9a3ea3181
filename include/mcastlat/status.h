/*
 * status.h - status codes and diagnostics shared by every mcastlat model.
 *
 * Every model function returns an enum ml_status and writes its results
 * through a pointer.  When the parameters are outside the model's domain
 * the function returns ML_EINVAL, leaves the result untouched and, when
 * given a struct ml_diag, names the offending parameter (by the long option
 * name of the command line, without dashes) and says what is wrong.
 *
 * The same holds for every public function whose arguments have a
 * domain (the helpers ml_kbinomial_l1, ml_hypercube_omega, ...): it
 * returns ML_EINVAL rather than a sentinel value, and leaves its output
 * untouched.  The few functions that return a value directly are defined
 * for every argument and cannot fail: ml_version, ml_status_word,
 * ml_torus_overhead, ml_torus_note, and the ml_<model>_params_init
 * functions, which fill a params struct with the command's defaults (the
 * papers' values).  Start every params struct with its params_init.
 */
#ifndef MCASTLAT_STATUS_H
#define MCASTLAT_STATUS_H

#include <stddef.h>

/*
 * ML_API marks the library's interface: libmcastlat.so is built with
 * -fvisibility=hidden, so that only the functions declared with it are
 * exported, and the simulator's internals stay private.
 */
#if defined(__GNUC__) && __GNUC__ >= 4
#define ML_API		__attribute__((visibility("default")))
#define ML_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ML_API
#define ML_PRINTF(f, a)
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum ml_status {
	ML_OK = 0,    /* the result is valid */
	ML_EINVAL,    /* a parameter is outside the model's domain */
	ML_SATURATED, /* the network is saturated: no steady state exists */
	ML_ENOCONV,   /* a numerical method failed to converge */
	ML_ENOMEM,    /* an allocation failed */
	ML_OVERFLOW,  /* a result is not finite (inf or nan) */
	ML_DEADLOCK,  /* a simulation stopped moving: flits stuck */
	ML_EUNIDENT   /* a fit: the data do not determine the free set */
};

/* Why a parameter set was rejected: param is the option name ("group"),
 * msg a lowercase phrase without a final full stop ("32 exceeds k^N = 16"). */
struct ml_diag {
	const char *param;
	char msg[160];
};

/* The word printed in the status column: "ok", "invalid", "saturated",
 * "no-convergence", "no-memory", "overflow", "deadlock" or
 * "unidentifiable". */
ML_API const char *ml_status_word(enum ml_status st);

/* Fill *d (if d is not NULL) and return ML_EINVAL; printf-style message. */
ML_API enum ml_status ml_diag_set(struct ml_diag *d, const char *param,
				  const char *fmt, ...) ML_PRINTF(3, 4);

#ifdef __cplusplus
}
#endif

#endif
