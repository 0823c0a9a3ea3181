# fig1-hypercube-sim.gp - model curves against simulated points for the
# Figure 1 configurations, from the CSVs of fig1-hypercube-sim.sh:
#   model: dim,vcs,flits,beta,rate,latency,status
#   sim:   dims,vcs,flits,beta,rate,sim_latency,sim_ci,model_latency,
#          error_pct,seeds_ok,seeds_not_ok
# Call: gnuplot -e "model='...'; sim='...'; outdir='...'; dims='6 7 8'" \
#	fig1-hypercube-sim.gp
set datafile separator ','
set datafile missing 'nan'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
	set terminal pngcairo size 1500,480 font ',10'
} else {
	set terminal png size 1500,480
}
set grid
set key top left Left reverse
set xlabel 'generation rate {/Symbol l}_g (messages/node/cycle)'
set ylabel 'mean broadcast latency (cycles)'
set format x '%g'
betas = '0.005 0.01 0.02'
flitss = '32 64 128'
# 1 for rows that match (n, V, M, beta) (and, for the model, are ok),
# else NaN, so that other rows neither plot nor widen the axes.
selm(n, v, m, b) = (column(1) == n && column(2) == v && \
	column(3) == m && abs(column(4) - b) < 1e-12 && \
	strcol(7) eq 'ok') ? 1 : NaN
sels(n, v, m, b) = (column(1) == n && column(2) == v && \
	column(3) == m && abs(column(4) - b) < 1e-12) ? 1 : NaN
if (!exists('dims')) dims = '6 7 8'
do for [nn in dims] {
	n = nn + 0
	do for [v in '2 4'] {
		set output sprintf('%s/fig1-hypercube-sim-n%d-v%s.png', outdir, n, v)
		set multiplot layout 1,3 title sprintf('Broadcast latency, ' . \
			'N = 2^%d nodes, V = %s virtual channels: model (lines) ' . \
			'and simulation (points, 95%% intervals across seeds)', n, v)
		do for [m in flitss] {
			set title sprintf('M = %s flits', m)
			plot for [i = 1:3] model skip 1 \
				using ($5 * selm(n, v + 0, m + 0, word(betas, i) + 0)):6 \
				with lines lw 2 lc i \
				title sprintf('{/Symbol b} = %s model', word(betas, i)), \
			     for [i = 1:3] sim skip 1 \
				using ($5 * sels(n, v + 0, m + 0, word(betas, i) + 0)):6:7 \
				with yerrorbars pt 7 ps 0.8 lc i \
				title sprintf('{/Symbol b} = %s simulated', word(betas, i))
		}
		unset multiplot
		set output
	}
}
