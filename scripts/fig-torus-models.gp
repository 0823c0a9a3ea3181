# fig-torus-models.gp - Figures 9 to 13 of Oral & George (2003): the
# simplified models for G = 4..16 on the 4x4 torus, 128-byte messages.
# Called by fig-torus.sh with csv (columns algorithm,variant,group,latency)
# and outdir.  The paper's figures also show measurements, which we do not
# have; the dotted line marks the top of the paper's latency axis.
set terminal pngcairo size 800,640 font ",11"
set datafile separator ","
set grid
set key below box
set bmargin 9
set xlabel "Multicast group size (nodes)"
set ylabel "Multicast completion latency (us)"
set xrange [4:16]
set xtics 4,2,16
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0

sel(a, v) = (strcol(1) eq a && strcol(2) eq v) ? column(4) : 1/0

set output outdir."/torus-fig09.png"
set title "Figure 9: separate addressing model (eq 8), 4x4 torus"
plot csv using 3:(sel("sep", "default")) w lp lw 2 pt 7 t "eq 8: (G-1)(2o + t_p)", \
     csv using 3:(sel("sep", "eq6")) w lp lw 2 pt 6 dt 2 t "variant eq6: (G-1)(o + t_p) + o", \
     200 w l dt 3 lc "gray40" t "top of the paper's axis"

set output outdir."/torus-fig10.png"
set title "Figure 10: Md-torus model (eq 9), 4x4 torus"
plot csv using 3:(sel("md", "default")) w lp lw 2 pt 7 t "2o + ceil(G/k) L_i", \
     csv using 3:(sel("md", "minus1")) w lp lw 2 pt 6 dt 2 t "variant minus1: 2o + (ceil(G/k) - 1) L_i"

set output outdir."/torus-fig11.png"
set title "Figure 11: Mu-torus model (eq 10), r = 4, 4x4 torus"
plot csv using 3:(sel("mu", "default")) w lp lw 2 pt 7 t "2o + (p + r - 2) L_i; 2o + (G-2) L_i for p < 2", \
     1400 w l dt 3 lc "gray40" t "top of the paper's axis"

set output outdir."/torus-fig12.png"
set title "Figure 12: U-torus model (eq 11), 4x4 torus"
plot csv using 3:(sel("u", "default")) w lp lw 2 pt 7 t "steps: 2o + ceil(log2 G) L_i", \
     csv using 3:(sel("u", "literal")) w lp lw 2 pt 6 dt 2 t "variant literal: 2o + ceil(log2 G) ((G mod k)+k)/k L_i", \
     csv using 3:(sel("u", "e")) w lp lw 2 pt 4 dt 4 t "variant e: (ceil(log2 G) - 1) x factor", \
     csv using 3:(sel("u", "h")) w lp lw 2 pt 8 dt 5 t "variant h: floor(log2 G) x factor", \
     3500 w l dt 3 lc "gray40" t "top of the paper's axis"

set output outdir."/torus-fig13.png"
set title "Figure 13: S-torus model (eq 12), 4x4 torus"
plot csv using 3:(sel("s", "default")) w lp lw 2 pt 7 t "2o + (G-2) L_i", \
     4500 w l dt 3 lc "gray40" t "top of the paper's axis"
