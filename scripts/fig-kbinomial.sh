#!/bin/sh
# fig-kbinomial.sh - Figures 12 to 14 of Kesavan & Panda (optimal
# multicast with packetization, paper 003) from `mcastlat kbinomial`,
# with the paper's parameters (t_s = t_r = 12.5 us, t_ns = 3 us,
# t_nr = 2 us, the command's defaults):
#
#   scripts/fig-kbinomial.sh 12      the optimal k: (a) against the
#                                    packets m for n = 16, 32, 64; (b)
#                                    against the set size n for m = 1, 2,
#                                    4, 8
#   scripts/fig-kbinomial.sh 13      multicast latency on the optimal
#                                    tree, the same axes
#   scripts/fig-kbinomial.sh 14      k-binomial against binomial trees:
#                                    (a) n = 16, 64; (b) m = 2, 8
#   scripts/fig-kbinomial.sh [all]   all three
#   scripts/fig-kbinomial.sh -o DIR ...   into DIR (default $FIGDIR, else
#                                    figures); -h, --help: this text
#
# Writes DIR/kbinomial-fig12.png .. kbinomial-fig14.png, the CSV they are
# drawn from (kbinomial-a.csv: n fixed, m = 1..32; kbinomial-b.csv: m
# fixed, n = 2..64) and DIR/kbinomial-captions.txt: one line per figure,
# what the paper shows and what we get, also printed on standard output
# and written under each plot.  The paper's Figures 13 and 14 are
# simulations of a 64-node irregular network (averaged over topologies
# and destination sets); ours are the contention-free step counts of its
# Theorems 1 to 3, so the shapes, not the last microsecond, compare.
# Runs from any directory (DIR is relative to the current one); MCASTLAT
# names the binary (default: the tree's ./mcastlat, else mcastlat on
# PATH; see common.sh).  Needs gnuplot (gnuplot-nox).  Takes a second.
set -eu
ml_figures='12 13 14'
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"
ml_need gnuplot gnuplot-nox
what=${*:-all}
mkdir -p "$out"
a=$out/kbinomial-a.csv
b=$out/kbinomial-b.csv
caps=$out/kbinomial-captions.txt
cols=k,latency,binomial_latency,speedup

"$mcastlat" kbinomial --nodes 16,32,64 --packets 1:32 --format csv \
	--columns "nodes,packets,$cols" > "$a"
"$mcastlat" kbinomial --packets 1,2,4,8 --nodes 2:64 --format csv \
	--columns "packets,nodes,$cols" > "$b"

# What we get, from the data: columns key,x,k,latency,binomial,speedup.
cap12=$(awk -F, '
	FNR == 1 { f++; next }
	f == 1 && $3 == 1 && !(($1) in lin) { lin[$1] = $2 }
	f == 2 && $1 == 1 { n1++; c = 0; for (v = 1; v < $2; v *= 2) c++
		if ($3 == c) ok1++ }
	f == 2 && ($1 == 4 || $1 == 8) && $2 >= 9 { if ($3 == 2) two[$1]++; tot[$1]++ }
	function from(n) { return n in lin ? "from m = " lin[n] : "not for m <= 32" }
	END { printf "Figure 12, the paper: for m = 1 the optimal k is ceil(log2 n); k falls as m grows, to 1 (linear) sooner for n = 16 than 32; for m = 4 and 8, k = 2 as n grows to 64. We get: m = 1: k = ceil(log2 n) for %d of %d n; k = 1 %s (n = 16), %s (n = 32), %s (n = 64); k = 2 for %d of %d n in 9..64 at m = 4, %d of %d at m = 8.\n", ok1, n1, from(16), from(32), from(64), two[4], tot[4], two[8], tot[8] }' "$a" "$b")
cap13=$(awk -F, '
	FNR == 1 { next }
	$1 == 16 && $2 == 31 { l31 = $4 } $1 == 16 && $2 == 32 { l32 = $4 }
	$1 == 64 && $2 == 31 { h31 = $4 } $1 == 64 && $2 == 32 { h32 = $4; k64 = $3 }
	END { printf "Figure 13, the paper (simulated): latency grows more slowly where the optimal k falls; for 15 destinations the slope drops once k = 1. We get: at m = 32 each packet adds %g us for n = 16 (k = 1) and %g us for n = 64 (k = %d), one t_ns + t_nr per child of the source.\n", l32 - l31, h32 - h31, k64 }' "$a")
cap14=$(awk -F, '
	FNR == 1 { f++; next }
	$6 > best { best = $6; bn = f == 1 ? $1 : $2; bm = f == 1 ? $2 : $1 }
	f == 1 && $1 == 64 && ($2 == 1 || $2 == 8 || $2 == 32) { s[$2] = $6 }
	END { printf "Figure 14, the paper (simulated): k-binomial up to 2 times faster than binomial trees, more so for more packets. We get: %.2f, %.2f and %.2f times at n = 64 for m = 1, 8, 32; at most %.2f (n = %d, m = %d).\n", s[1], s[8], s[32], best, bn, bm }' "$a" "$b")
printf '%s\n%s\n%s\n' "$cap12" "$cap13" "$cap14" > "$caps"

# The caption under the plots, in lines of 170 characters.
gpcap() {
	printf '%s\n' "$1" | fold -s -w 170 | sed 's/"/\\"/g; s/ *$/\\n/' |
		tr -d '\n'
}
fig() { # N CAPTION
	gnuplot -e "a='$a'; b='$b'; png='$out/kbinomial-fig$1.png'; \
		fig=$1; cap=\"$(gpcap "$2")\"" "$here/fig-kbinomial.gp"
	printf '%s\n' "$2"
	echo "$out/kbinomial-fig$1.png" >&2
}
for w in $what; do
	case $w in
	12) fig 12 "$cap12" ;;
	13) fig 13 "$cap13" ;;
	14) fig 14 "$cap14" ;;
	all)
		fig 12 "$cap12"
		fig 13 "$cap13"
		fig 14 "$cap14"
		;;
	esac
done
