#!/bin/sh
# fig1-hypercube.sh - the paper's Figure 1 (Shahrabi, Ould-Khaoua and
# Mackenzie, SAC 2001) from the model: mean broadcast latency against the
# generation rate lambda_g for n = 6, 7, 8, V = 2, 4, M = 32, 64, 128 and
# beta = 0.005, 0.01, 0.02.
#
#   scripts/fig1-hypercube.sh [-o DIR]     (default DIR: $FIGDIR, else figures)
#   scripts/fig1-hypercube.sh -h|--help
#
# Writes DIR/fig1-hypercube-n<n>-v<V>.png (one per n and V, three panels
# M = 32, 64, 128, one curve per beta) and the data, DIR/fig1-hypercube.csv.
# Each curve runs from lambda_g = 0 to that point's saturation rate: first
# `mcastlat hypercube --saturation` gives lambda_sat, then a batch run
# evaluates 201 rates per curve, denser towards lambda_sat.  Runs from
# any directory (DIR is relative to the current one); set MCASTLAT to
# use another binary (default: the tree's ./mcastlat, else mcastlat on
# PATH; see common.sh); needs gnuplot (gnuplot-nox).
set -eu
ml_figures=
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"
ml_need gnuplot gnuplot-nox
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$mcastlat" hypercube --saturation --dim 6:8 --vcs 2,4 --flits 32,64,128 \
	--beta 0.005,0.01,0.02 --format csv --precision 17 \
	--columns dim,vcs,flits,beta,lambda_sat > "$tmp/sat.csv"

# rate = lambda_sat (1 - (1 - k/200)^2), k = 0..200: k = 200 is lambda_sat.
awk -F, 'NR == 1 { print "dim,vcs,flits,beta,rate"; next }
	{ for (k = 0; k <= 200; k++) {
		f = 1 - (1 - k / 200) ^ 2
		printf "%s,%s,%s,%s,%.17g\n", $1, $2, $3, $4, f * $5 } }' \
	"$tmp/sat.csv" > "$tmp/points.csv"

"$mcastlat" hypercube --input "$tmp/points.csv" --format csv \
	--columns dim,vcs,flits,beta,rate,latency,status \
	> "$out/fig1-hypercube.csv"

gnuplot -e "datafile='$out/fig1-hypercube.csv'; outdir='$out'" \
	"$here/fig1-hypercube.gp"
ls "$out"/fig1-hypercube-n*-v*.png
