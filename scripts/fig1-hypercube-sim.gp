# fig1-hypercube-sim.gp - model curves against simulated points for the
# Figure 1 configurations, from the CSVs of fig1-hypercube-sim.sh:
#   model: load,dim,vcs,flits,beta,rate,latency,status
#   sim:   dims,vcs,flits,beta,rate,sim_latency,sim_ci,model_latency,
#          error_pct,model_tree_latency,error_tree_pct,seeds_ok,seeds_not_ok
# Call: gnuplot -e "model='...'; sim='...'; outdir='...'; dims='6 7 8'; \
#	loads='paper tree'" fig1-hypercube-sim.gp
set datafile separator ','
set datafile missing 'nan'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
	set terminal pngcairo size 1500,600 font ',10'
} else {
	set terminal png size 1500,600
}
set grid
set key top left Left reverse spacing 0.9
set xlabel 'generation rate {/Symbol l}_g (messages/node/cycle)'
set ylabel 'mean broadcast latency (cycles)'
set format x '%g'
set xrange [0:*]
set yrange [0:*]
betas = '0.005 0.01 0.02'
flitss = '32 64 128'
if (!exists('dims')) dims = '6 7 8'
if (!exists('loads')) loads = 'paper tree'
# The model's curves: the paper's load solid, the tree's dashed.
dash(l) = l eq 'tree' ? 2 : 1
lname(l) = l eq 'tree' ? 'tree load' : 'paper'
# 1 for rows that match (load, n, V, M, beta) and are ok (model), or
# (n, V, M, beta) (simulation), else NaN: x and y are multiplied by it,
# so that other rows neither plot nor widen the axes (gnuplot autoscales
# y on rows whose x is NaN).
selm(l, n, v, m, b) = (strcol(1) eq l && column(2) == n && \
	column(3) == v && column(4) == m && abs(column(5) - b) < 1e-12 && \
	strcol(8) eq 'ok') ? 1 : NaN
sels(n, v, m, b) = (column(1) == n && column(2) == v && \
	column(3) == m && abs(column(4) - b) < 1e-12) ? 1 : NaN
do for [nn in dims] {
	n = nn + 0
	do for [v in '2 4'] {
		set output sprintf('%s/fig1-hypercube-sim-n%d-v%s.png', outdir, n, v)
		set multiplot layout 1,3 title sprintf('Broadcast latency, ' . \
			'N = 2^%d nodes, V = %s virtual channels, {/Symbol D} = 1: ' . \
			'model (lines: paper solid, tree load dashed) and ' . \
			'simulation (points, 95%% intervals across seeds)', n, v)
		do for [m in flitss] {
			# One legend, in the first panel: the colours are the
			# same in all three.
			if (m eq '32') { set key } else { unset key }
			set title sprintf('M = %s flits', m)
			plot for [l in loads] for [i = 1:3] model skip 1 \
				using ($6 * selm(l, n, v + 0, m + 0, word(betas, i) + 0)):($7 * selm(l, n, v + 0, m + 0, word(betas, i) + 0)) \
				with lines lw 2 lc i dt dash(l) \
				title sprintf('{/Symbol b} = %s model, %s', \
					word(betas, i), lname(l)), \
			     for [i = 1:3] sim skip 1 \
				using ($5 * sels(n, v + 0, m + 0, word(betas, i) + 0)):($6 * sels(n, v + 0, m + 0, word(betas, i) + 0)):7 \
				with yerrorbars pt 7 ps 0.8 lc i \
				title sprintf('{/Symbol b} = %s simulated', word(betas, i))
		}
		unset multiplot
		set output
	}
}
