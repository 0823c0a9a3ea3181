#!/bin/sh
# fig-cluster.sh - the cluster thesis's broadcast cost (paper 001,
# chapter 2.2, eqs 2.8 and 2.9) from `mcastlat cluster --op bcast`, in
# both interference regimes: the thesis's Figure 2.3 cluster (g = 2: no
# interference, eq 2.8) and its Figure 2.4 cluster (g reduced to 1:
# successive packets interfere, eq 2.9), with what eq 2.8 would say for
# the second one dashed, so the interference's cost shows.
#
#   scripts/fig-cluster.sh [all]       both panels, one PNG:
#                                      (a) B against the cluster size p =
#                                      2..256 for 1 and 4 packets,
#                                      (b) B against the message size M =
#                                      0..48000 bytes (MTU 1500) at p = 16
#   scripts/fig-cluster.sh -o DIR      into DIR (default $FIGDIR, else
#                                      figures); -h, --help: this text
#
# Writes DIR/cluster-bcast.png, the CSV it is drawn from
# (cluster-bcast-p.csv, cluster-bcast-m.csv; regime g2, g1 or g1-eq2.8) and DIR/cluster-captions.txt:
# one line, what the thesis shows (its worked values: B = 28 at p = 16
# for one packet in both clusters; for 4 packets 52 with g = 2 by eq 2.8,
# and 43 with g = 1 by eq 2.9 where eq 2.8 would say 40) and what we get,
# also printed on standard output and under the plot.  The other
# parameters are the thesis's Figure 2.3 values, the command's defaults.
# Runs from any directory (DIR is relative to the current one); MCASTLAT
# names the binary (default: the tree's ./mcastlat, else mcastlat on
# PATH; see common.sh).  Needs gnuplot (gnuplot-nox).  Takes a second.
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
pcsv=$out/cluster-bcast-p.csv
mcsv=$out/cluster-bcast-m.csv
caps=$out/cluster-captions.txt

# The regimes, one --input row each (the gap g = max(g_s, g_r)), named
# in a column of their own (--keep): no interference (g = 2), with
# interference (g = 1), and g = 1 as eq 2.8 would have it.
printf 'regime,gs_fixed,gr_fixed,formula\n%s\n%s\n%s\n' g2,2,2,auto \
	g1,1,1,auto g1-eq2.8,1,1,2.8 > "$tmp/regimes.csv"
"$mcastlat" cluster --op bcast --input "$tmp/regimes.csv" --keep \
	--msg 1500,6000 --nodes 2:256 --format csv \
	--columns regime,formula,msg,packets,nodes,latency,status > "$pcsv"
"$mcastlat" cluster --op bcast --input "$tmp/regimes.csv" --keep \
	--nodes 16 --msg 0:48000:250 --format csv \
	--columns regime,formula,msg,packets,nodes,latency,status > "$mcsv"

# What we get, from the data (p = 16).
cap=$(awk -F, '
	FNR == 1 || $5 != 16 || ($3 != 1500 && $3 != 6000) { next }
	{ b[$1, $3] = $6; f[$1, $3] = $2 }
	END { printf "Cluster broadcast, the thesis (Figures 2.3 and 2.4): B = 28 us at p = 16 for one packet with g = 2 and with g = 1; for 4 packets, 52 (g = 2, eq 2.8) and 43 (g = 1, eq 2.9; eq 2.8 would say 40): the interference costs more as the message grows. We get: %g and %g for one packet (eq %s, %s: the formulas agree for one packet); for 4, %g (eq %s), %g (eq %s) and %g (eq 2.8).\n",
		b["g2", 1500], b["g1", 1500], f["g2", 1500], f["g1", 1500],
		b["g2", 6000], f["g2", 6000], b["g1", 6000], f["g1", 6000],
		b["g1-eq2.8", 6000] }' "$pcsv")
printf '%s\n' "$cap" > "$caps"
gnuplot -e "p='$pcsv'; m='$mcsv'; png='$out/cluster-bcast.png'; \
	cap=\"$(printf '%s\n' "$cap" | fold -s -w 170 |
		sed 's/"/\\"/g; s/ *$/\\n/' | tr -d '\n')\"" \
	"$here/fig-cluster.gp"
printf '%s\n' "$cap"
echo "$out/cluster-bcast.png" >&2
