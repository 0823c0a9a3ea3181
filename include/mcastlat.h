/*
 * mcastlat.h - the whole public interface of libmcastlat, and its version.
 *
 * A program includes this one header and links with
 * `pkg-config --cflags --libs mcastlat`.  Every model takes a params
 * struct (start it with the model's params_init, which fills in the
 * paper's values), returns an enum ml_status and writes its result
 * through a pointer; see mcastlat/status.h for the contract and each
 * model's header for its parameters, units and equations.
 *
 * The version numbers below are the only place the version is written:
 * the Makefile reads them for the shared library's file name, the
 * pkg-config file and `mcastlat --version`.  The shared library's soname
 * carries MCASTLAT_VERSION_MAJOR (libmcastlat.so.0).
 */
#ifndef MCASTLAT_H
#define MCASTLAT_H

#define MCASTLAT_VERSION_MAJOR 0
#define MCASTLAT_VERSION_MINOR 1
#define MCASTLAT_VERSION_PATCH 0

#include "mcastlat/status.h"

#include "mcastlat/cluster.h"
#include "mcastlat/collective.h"
#include "mcastlat/fit.h"
#include "mcastlat/hypercube.h"
#include "mcastlat/kbinomial.h"
#include "mcastlat/sim.h"
#include "mcastlat/torus.h"
#include "mcastlat/tune.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The version of the library that is running, "MAJOR.MINOR.PATCH": the
 * macros above are the version a program was compiled against, this the
 * one it was linked or loaded with.  A static string; cannot fail.
 */
ML_API const char *ml_version(void);

#ifdef __cplusplus
}
#endif

#endif
