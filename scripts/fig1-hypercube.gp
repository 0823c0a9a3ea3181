# fig1-hypercube.gp - draws the Figure 1 panels from the CSV written by
# fig1-hypercube.sh (columns dim,vcs,flits,beta,rate,latency,status).
# Call: gnuplot -e "datafile='...'; outdir='...'" fig1-hypercube.gp
set datafile separator ','
set terminal pngcairo size 1500,480 font ',10'
set grid
set key top left Left reverse
set xlabel 'generation rate {/Symbol l}_g (messages/node/cycle)'
set ylabel 'mean broadcast latency (cycles)'
set format x '%g'
betas = '0.005 0.01 0.02'
flitss = '32 64 128'
# 1 for rows that match (n, V, M, beta) and are ok, else NaN (so that
# other rows neither plot nor widen the autoscaled axes).
sel(n, v, m, b) = (column(1) == n && column(2) == v && \
	column(3) == m && abs(column(4) - b) < 1e-12 && \
	strcol(7) eq 'ok') ? 1 : NaN
do for [n = 6:8] {
	do for [v in '2 4'] {
		set output sprintf('%s/fig1-hypercube-n%d-v%s.png', outdir, n, v)
		set multiplot layout 1,3 title \
			sprintf('Broadcast latency, N = 2^%d nodes, V = %s virtual channels (model)', n, v)
		do for [m in flitss] {
			set title sprintf('M = %s flits', m)
			plot for [b in betas] datafile skip 1 \
				using ($5 * sel(n, v + 0, m + 0, b + 0)):6 \
				with lines lw 2 title sprintf('{/Symbol b} = %s', b)
		}
		unset multiplot
		set output
	}
}
