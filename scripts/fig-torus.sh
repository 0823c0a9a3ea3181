#!/bin/sh
# fig-torus.sh - redraw the figures of Oral & George (2003) from our CSV.
#
#   scripts/fig-torus.sh models        Figures 9-13: the closed forms for
#                                      G = 4..16 on the 4x4 torus, one PNG
#                                      per algorithm, with the variants
#   scripts/fig-torus.sh projections   Figure 14: 8x8 (G = 4..64) and 16x16
#                                      (G = 4..256), Mu-torus r = 8, 16, 32,
#                                      log-scale latency
#   scripts/fig-torus.sh               both (all)
#   scripts/fig-torus.sh -o DIR ...    into DIR (default $FIGDIR, else
#                                      figures); -h, --help: this text
#
# Writes figures/torus-fig09.png .. torus-fig13.png, torus-fig14a.png and
# torus-fig14b.png (directory: $FIGDIR, default figures, from the current
# directory) and keeps the CSV they were drawn from beside them.  Runs
# from any directory; MCASTLAT names the binary (default: the tree's
# ./mcastlat, else mcastlat on PATH; see common.sh).  Needs gnuplot 5
# with the pngcairo or png terminal.
set -eu

ml_figures='models projections'
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"
ml_need gnuplot gnuplot-nox
what=${*:-all}

mkdir -p "$out"

models() {
	# group varies fastest so each curve is one run of rows
	"$mcastlat" torus --k 4 --msg 128 --algorithm sep,u,s,md,mu \
		--variant default,eq6,minus1,literal,e,h --group 4:16 \
		--format csv --columns algorithm,variant,group,latency \
		>"$out/torus-fig09-13.csv"
	gnuplot -e "csv='$out/torus-fig09-13.csv'; outdir='$out'" \
		"$here/fig-torus-models.gp"
}

projection() { # k gmax file
	"$mcastlat" torus --k "$1" --msg 128 --algorithm sep,u,s,md \
		--group "4:$2" --format csv --columns algorithm,r,group,latency \
		>"$3"
	"$mcastlat" torus --k "$1" --msg 128 --algorithm mu --r 8,16,32 \
		--group "4:$2" --format csv --no-header \
		--columns algorithm,r,group,latency >>"$3"
}

projections() {
	projection 8 64 "$out/torus-fig14a.csv"
	projection 16 256 "$out/torus-fig14b.csv"
	gnuplot -e "csv='$out/torus-fig14a.csv'; png='$out/torus-fig14a.png'; \
		ttl='Figure 14(a): projections, 8x8 torus, M = 128 B'; \
		xmax=64; xstep=4" "$here/fig-torus-proj.gp"
	gnuplot -e "csv='$out/torus-fig14b.csv'; png='$out/torus-fig14b.png'; \
		ttl='Figure 14(b): projections, 16x16 torus, M = 128 B'; \
		xmax=256; xstep=28" "$here/fig-torus-proj.gp"
}

for w in $what; do
	case $w in
	models) models ;;
	projections) projections ;;
	all)
		models
		projections
		;;
	esac
done
ls "$out"/torus-fig*.png
