# fig-cluster.gp - the cluster thesis's broadcast cost in both regimes.
# Called by fig-cluster.sh with p and m (CSV: regime,formula,msg,
# packets,nodes,latency,status; regime g2, g1 or g1-eq2.8; p: --nodes
# 2:256 for msg 1500 and 6000, m: --msg 0:48000:250 at 16 nodes), png and
# cap (the caption, lines ending in a newline).
set terminal pngcairo size 1200,600 font ",10"
set datafile separator ","
set output png
set grid
set key top left box
set label 1 cap at screen 0.01, 0.085 left font ",9"
set bmargin 8
selp(r, msg) = strcol(1) eq r && column(3) == msg ? column(6) : 1/0
selm(r) = strcol(1) eq r ? column(6) : 1/0
set multiplot layout 1,2 title "Broadcast on a switched cluster (thesis ch. 2.2): no interference (g = 2) and interference (g = 1)" font ",12"

set title "(a) against the cluster size, M = 1 and 4 packets"
set xlabel "nodes p"
set ylabel "broadcast cost B (us)"
set logscale x 2
plot p u 5:(selp("g2", 1500)) w l lw 2 lc 1 t "g = 2 (eq 2.8), 1 packet", \
     p u 5:(selp("g1", 1500)) w l lw 2 lc 2 t "g = 1, 1 packet", \
     p u 5:(selp("g2", 6000)) w l lw 2 lc 3 t "g = 2 (eq 2.8), 4 packets", \
     p u 5:(selp("g1", 6000)) w l lw 2 lc 4 t "g = 1 (eq 2.9), 4 packets", \
     p u 5:(selp("g1-eq2.8", 6000)) w l lw 2 lc 4 dt 2 \
	t "g = 1 as eq 2.8 would say, 4 packets"

unset logscale x
set title "(b) against the message size, p = 16 (MTU 1500 bytes)"
set xlabel "message size M (bytes)"
plot m u 3:(selm("g2")) w l lw 2 lc 1 t "g = 2 (eq 2.8)", \
     m u 3:(selm("g1")) w l lw 2 lc 2 t "g = 1 (eq 2.9 from 2 packets)", \
     m u 3:(selm("g1-eq2.8")) w l lw 2 lc 2 dt 2 t "g = 1 as eq 2.8 would say"
unset multiplot
