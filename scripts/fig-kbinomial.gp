# fig-kbinomial.gp - Figures 12 to 14 of Kesavan & Panda, two panels
# each.  Called by fig-kbinomial.sh with a (CSV: nodes,packets,k,latency,
# binomial_latency,speedup), b (the same with packets and nodes first),
# png, fig (12, 13 or 14) and cap (the caption line, under the plots).
set terminal pngcairo size 1200,600 font ",10"
set datafile separator ","
set output png
set grid
set key top left box
sel(v, c) = column(1) == v ? column(c) : 1/0
set label 1 cap at screen 0.01, 0.085 left font ",9"
set bmargin 8
set multiplot layout 1,2 title ( \
	fig == 12 ? "Figure 12: the optimal k of the k-binomial tree" : \
	fig == 13 ? "Figure 13: multicast latency on the optimal k-binomial tree" : \
	"Figure 14: k-binomial against binomial trees") font ",12"

set xlabel "packets m"
if (fig == 12) {
	set ylabel "optimal k"
	set title "(a) fixed n"
	plot a u 2:(sel(16, 3)) w lp lw 2 t "n = 16", \
	     a u 2:(sel(32, 3)) w lp lw 2 t "n = 32", \
	     a u 2:(sel(64, 3)) w lp lw 2 t "n = 64"
	set xlabel "multicast set size n"
	set title "(b) fixed m"
	plot b u 2:(sel(1, 3)) w l lw 2 t "m = 1", \
	     b u 2:(sel(2, 3)) w l lw 2 t "m = 2", \
	     b u 2:(sel(4, 3)) w l lw 2 t "m = 4", \
	     b u 2:(sel(8, 3)) w l lw 2 t "m = 8"
}
if (fig == 13) {
	set ylabel "latency (us)"
	set title "(a) fixed n"
	plot a u 2:(sel(16, 4)) w lp lw 2 t "n = 16", \
	     a u 2:(sel(32, 4)) w lp lw 2 t "n = 32", \
	     a u 2:(sel(64, 4)) w lp lw 2 t "n = 64"
	set xlabel "multicast set size n"
	set title "(b) fixed m"
	plot b u 2:(sel(1, 4)) w l lw 2 t "m = 1", \
	     b u 2:(sel(2, 4)) w l lw 2 t "m = 2", \
	     b u 2:(sel(4, 4)) w l lw 2 t "m = 4", \
	     b u 2:(sel(8, 4)) w l lw 2 t "m = 8"
}
if (fig == 14) {
	set ylabel "latency (us)"
	set title "(a) fixed n"
	plot a u 2:(sel(16, 4)) w l lw 2 lc 1 t "k-binomial, n = 16", \
	     a u 2:(sel(16, 5)) w l lw 2 lc 1 dt 2 t "binomial, n = 16", \
	     a u 2:(sel(64, 4)) w l lw 2 lc 2 t "k-binomial, n = 64", \
	     a u 2:(sel(64, 5)) w l lw 2 lc 2 dt 2 t "binomial, n = 64"
	set xlabel "multicast set size n"
	set title "(b) fixed m"
	plot b u 2:(sel(2, 4)) w l lw 2 lc 1 t "k-binomial, m = 2", \
	     b u 2:(sel(2, 5)) w l lw 2 lc 1 dt 2 t "binomial, m = 2", \
	     b u 2:(sel(8, 4)) w l lw 2 lc 2 t "k-binomial, m = 8", \
	     b u 2:(sel(8, 5)) w l lw 2 lc 2 dt 2 t "binomial, m = 8"
}
unset multiplot
