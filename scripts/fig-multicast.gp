# fig-multicast.gp - one figure of Malumbres & Duato (004 Figures 6-12):
# mean multicast latency against accepted traffic, one curve per label.
# Called by fig-multicast.sh with csv (first column the curve's label
# "mechanism-dests", then the columns it lists), png, ttl, labels (the
# labels, space separated), ymax and ycol (7: multicast latency, 6: mean
# latency of all messages).  Saturated points are nan: not drawn.
set terminal pngcairo size 900,640 font ",11"
set datafile separator ","
set datafile missing "nan"
set output png
set title ttl
set grid
set key outside right top box
set xlabel "Traffic (flits received per node per cycle)"
set ylabel (ycol == 6 ? "Mean message latency (cycles)" : "Mean multicast latency (cycles)")
set xrange [0:*]
set yrange [0:ymax]
# columns: 1 label, 2 dests, 3 rate, 4 offered, 5 accepted, 6 latency,
# 7 multicast_latency, 8 unicast_latency, ...
sel(l) = strcol(1) eq l ? column(ycol) : 1/0
plot for [l in labels] csv using 5:(sel(l)) w lp lw 2 t l
