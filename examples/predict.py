#!/usr/bin/env python3
"""predict.py - two predictions of libmcastlat from Python, with ctypes.

    python3 predict.py [path/to/libmcastlat.so.0]
    python3 predict.py --help

The structures below mirror include/mcastlat/kbinomial.h and cluster.h
field by field, in order, with the C types (enums are C ints, bool is
_Bool): they must follow the headers, and change when the library's major
version (the soname, libmcastlat.so.0) does.  The defaults come from the
library's params_init functions, not from this file.
"""

import ctypes
import ctypes.util
import sys

ML_OK = 0
ML_CLUSTER_BCAST = 2


class KbinomialParams(ctypes.Structure):
    _fields_ = [
        ("nodes", ctypes.c_longlong),
        ("packets", ctypes.c_longlong),
        ("tree", ctypes.c_int),  # enum ml_kbinomial_tree
        ("k", ctypes.c_longlong),
        ("tie", ctypes.c_int),  # enum ml_kbinomial_tie
        ("ts", ctypes.c_double),
        ("tr", ctypes.c_double),
        ("tns", ctypes.c_double),
        ("tnr", ctypes.c_double),
        ("tprop", ctypes.c_double),
        ("schedule", ctypes.c_bool),
    ]


class KbinomialResult(ctypes.Structure):
    _fields_ = [
        ("k", ctypes.c_longlong),
        ("l1", ctypes.c_longlong),
        ("steps", ctypes.c_longlong),
        ("latency", ctypes.c_double),
        ("binomial_steps", ctypes.c_longlong),
        ("binomial_latency", ctypes.c_double),
        ("speedup", ctypes.c_double),
        ("sim_steps", ctypes.c_longlong),
    ]


class ClusterLinear(ctypes.Structure):
    _fields_ = [("fixed", ctypes.c_double), ("per_byte", ctypes.c_double)]


class ClusterParams(ctypes.Structure):
    _fields_ = [
        ("os", ClusterLinear),
        ("gs", ClusterLinear),
        ("gr", ClusterLinear),
        ("lat", ClusterLinear),
        ("orcv", ClusterLinear),
        ("ur", ctypes.c_double),
        ("ctm_per_byte", ctypes.c_double),
        ("mtu", ctypes.c_double),
        ("msg", ctypes.c_double),
        ("nodes", ctypes.c_longlong),
        ("op", ctypes.c_int),  # enum ml_cluster_op
        ("formula", ctypes.c_int),  # enum ml_cluster_formula
    ]


class ClusterResult(ctypes.Structure):
    _fields_ = [
        ("time", ctypes.c_double),
        ("packets", ctypes.c_double),
        ("os", ctypes.c_double),
        ("g", ctypes.c_double),
        ("lat", ctypes.c_double),
        ("orcv", ctypes.c_double),
        ("h", ctypes.c_longlong),
        ("used", ctypes.c_int),  # enum ml_cluster_formula
        ("b28", ctypes.c_double),
        ("b29", ctypes.c_double),
        ("full_duplex", ctypes.c_int),
    ]


class Diag(ctypes.Structure):
    _fields_ = [("param", ctypes.c_char_p), ("msg", ctypes.c_char * 160)]


def load(path):
    lib = ctypes.CDLL(path or ctypes.util.find_library("mcastlat")
                      or "libmcastlat.so.0")
    lib.ml_version.restype = ctypes.c_char_p
    lib.ml_status_word.restype = ctypes.c_char_p
    for name, params, result in (("kbinomial", KbinomialParams,
                                  KbinomialResult),
                                 ("cluster", ClusterParams, ClusterResult)):
        getattr(lib, f"ml_{name}_params_init").argtypes = [
            ctypes.POINTER(params)]
        getattr(lib, f"ml_{name}_params_init").restype = None
        getattr(lib, f"ml_{name}_validate").argtypes = [
            ctypes.POINTER(params), ctypes.POINTER(Diag)]
        getattr(lib, f"ml_{name}_eval").argtypes = [
            ctypes.POINTER(params), ctypes.POINTER(result)]
    return lib


def evaluate(lib, name, params, result):
    """Validate (for the reason), then evaluate; raise on failure."""
    diag = Diag()
    if getattr(lib, f"ml_{name}_validate")(params, diag) != ML_OK:
        raise ValueError(f"{name}: {diag.param.decode()}: "
                         f"{diag.msg.decode()}")
    st = getattr(lib, f"ml_{name}_eval")(params, result)
    if st != ML_OK:
        raise RuntimeError(f"{name}: {lib.ml_status_word(st).decode()}")
    return result


USAGE = """usage: predict.py [LIBRARY]

Two predictions of libmcastlat (cluster and kbinomial) through ctypes.
LIBRARY is the path of libmcastlat.so.0; without it the loader's search
is used (LD_LIBRARY_PATH, then the system directories)."""


def main():
    args = sys.argv[1:]
    if args and args[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if len(args) > 1 or (args and args[0].startswith("-")):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        lib = load(args[0] if args else None)
    except OSError as e:
        print(f"predict.py: cannot load libmcastlat: {e}", file=sys.stderr)
        print(USAGE, file=sys.stderr)
        return 2
    print("libmcastlat", lib.ml_version().decode())

    p = ClusterParams()
    lib.ml_cluster_params_init(p)
    p.op, p.msg, p.nodes = ML_CLUSTER_BCAST, 6000, 64
    r = evaluate(lib, "cluster", p, ClusterResult())
    print(f"{'cluster':10} {r.time:14.10g} {'us':7} bcast, 6000 bytes, p = 64")

    p = KbinomialParams()
    lib.ml_kbinomial_params_init(p)
    p.nodes, p.packets = 256, 8
    r = evaluate(lib, "kbinomial", p, KbinomialResult())
    print(f"{'kbinomial':10} {r.latency:14.10g} {'us':7} n = 256, m = 8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
