#!/bin/sh
# coverage.sh - the long coverage study of SPEC 7.3 (man page
# mcastlat-simulate(1), MEASUREMENT): for two networks at 25, 50, 75 and
# 90 % of their saturation rate, SEEDS runs (SEEDS8 on the 8x8 torus) to
# the default --ci 0.02 and the fraction whose 95 % interval holds the
# long-run mean (from 8 runs of 2 10^7 cycles, 10^7 on the 8x8; 16 at
# 90 %, where the latency varies most).  A correct interval covers it in
# about 95 % of runs; the binomial standard error is printed beside,
# and the runs' mean half-width beside 1.96 standard deviations of their
# estimates (the two agree when the intervals are as wide as they should
# be).  Takes about two hours of a core (nice it; near saturation a run
# to 2 % takes millions of messages).  `make check` runs a short form
# (tests/check_sim.c, coverage).
#
#   8x8 torus, DOR, 2 VCs, 2-flit buffers, R = 2, unicasts of 16 flits:
#     saturation at about rate 0.0125 (scripts/bench_sim.c)
#   4x4 torus, likewise, unicasts of 8 flits: saturation at about 0.041
#     (0.33 flits/node/cycle)
#
#   SEEDS=100 SEEDS8=50 nice sh scripts/coverage.sh > coverage.txt
#   scripts/coverage.sh -h|--help
set -eu
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"
[ $# -eq 0 ] || ml_bad_usage "takes no arguments (SEEDS=N in the environment)"
cd "$here/.."
B=${BUILD:-build}
SEEDS=${SEEDS:-100}
SEEDS8=${SEEDS8:-50}
[ -f libmcastlat.a ] || make libmcastlat.a >/dev/null
mkdir -p "$B/bench"
gsl=$(pkg-config --cflags --libs gsl)
# shellcheck disable=SC2086 # one word per flag
${CC:-cc} -O2 -Iinclude -o "$B/bench/coverage_sim" scripts/coverage_sim.c \
	libmcastlat.a $gsl -lpthread -lm
run() { # name topology k dims flits saturation long-cycles seeds
	for pct in 25 50 75 90; do
		rate=$(awk "BEGIN { printf \"%.6g\", $6 * $pct / 100 }")
		long=8
		[ "$pct" -lt 90 ] || long=16
		printf '%s, %s %% of saturation: ' "$1" "$pct"
		COV_LONG_RUNS=$long "$B/bench/coverage_sim" "$2" "$3" "$4" \
			"$5" "$rate" "$8" 0.02 "$7"
	done
}
run "4x4 torus, M = 8" torus 4 2 8 0.041 20000000 "$SEEDS"
run "8x8 torus, M = 16" torus 8 2 16 0.0125 10000000 "$SEEDS8"
