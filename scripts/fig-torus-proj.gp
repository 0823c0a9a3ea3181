# fig-torus-proj.gp - Figure 14 of Oral & George (2003): small-message
# latency projections on a k x k torus, log-scale latency.  Called by
# fig-torus.sh with csv (columns algorithm,r,group,latency), png, ttl,
# xmax and xstep.
set terminal pngcairo size 900,600 font ",11"
set datafile separator ","
set output png
set title ttl
set grid
set logscale y
set key outside right top box
set xlabel "Multicast group size (nodes)"
set ylabel "Multicast completion latency (us)"
set xrange [4:xmax]
set xtics 4,xstep,xmax

sel(a) = strcol(1) eq a ? column(4) : 1/0
selr(r) = (strcol(1) eq "mu" && column(2) == r) ? column(4) : 1/0

plot csv using 3:(sel("u")) w l lw 2 t "U-torus", \
     csv using 3:(sel("s")) w l lw 2 t "S-torus", \
     csv using 3:(selr(8)) w l lw 2 t "Mu-torus (r=8)", \
     csv using 3:(selr(16)) w l lw 2 t "Mu-torus (r=16)", \
     csv using 3:(selr(32)) w l lw 2 t "Mu-torus (r=32)", \
     csv using 3:(sel("md")) w l lw 2 t "Md-torus", \
     csv using 3:(sel("sep")) w l lw 2 t "Sep Add"
