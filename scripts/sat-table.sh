#!/bin/sh
# sat-table.sh - the table of simulated saturation rates in
# mcastlat-simulate(1), DISCUSSION ("Hypercube broadcast"): for the 18
# configurations of the hypercube paper's Figure 1 on the 6-cube (V = 2,
# 4; M = 32, 64, 128; beta = 0.005, 0.01, 0.02; Delta = 1), the model's
# lambda_sat with the paper's channel load and with the binomial tree's
# (mcastlat hypercube --saturation), and the simulated saturation rate
# found by mcastlat simulate --saturation (2 seeds per step, each step
# 200000 cycles after the warm-up, bisection to 2 %), as a share of the
# paper load's lambda_sat.  About 80 minutes of a busy core; JOBS=2 (the
# default) uses two.
#
#   sh scripts/sat-table.sh > sat-table.txt
set -eu
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"
JOBS=${JOBS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
betas=0.005,0.01,0.02
printf '%s\n' ' V    M   lambda_sat (beta = 0.005, 0.01, 0.02)         simulated, as a' \
	'          paper                  tree                    share of paper'
for V in 2 4; do
	for M in 32 64 128; do
		"$mcastlat" hypercube --dim 6 --vcs "$V" --flits "$M" \
			--beta "$betas" --delta 1 --saturation --load paper,tree \
			--format csv --no-header --columns load,lambda_sat \
			> "$tmp/model"
		"$mcastlat" simulate --topology hypercube --dims 6 --vcs "$V" \
			--flits "$M" --beta "$betas" --delta 1 --rate 0.01 \
			--saturation --replications 2 --sat-resolution 0.02 \
			--compare --jobs "$JOBS" --format csv --no-header \
			--columns sat_rate,lambda_sat > "$tmp/sim"
		awk -F, -v V="$V" -v M="$M" '
			# .02177, and a share as 1.48 or  .97 (width 4)
			function lam(x) { x = sprintf("%.5f", x)
					  sub(/^0/, "", x); return x }
			function share(x) { x = sprintf("%.2f", x)
					    sub(/^0/, " ", x); return x }
			FILENAME == ARGV[1] { if ($1 == "paper") p[++np] = $2
					      else t[++nt] = $2; next }
			{ s[++ns] = $1 / $2 }
			END {
				printf "%2d  %3d  ", V, M
				for (i = 1; i <= 3; i++) printf " %s", lam(p[i])
				printf "  "
				for (i = 1; i <= 3; i++) printf " %s", lam(t[i])
				printf "   "
				for (i = 1; i <= 3; i++) printf " %s", share(s[i])
				printf "\n"
			}' "$tmp/model" "$tmp/sim"
	done
done
