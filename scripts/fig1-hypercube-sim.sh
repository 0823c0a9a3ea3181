#!/bin/sh
# fig1-hypercube-sim.sh - the hypercube paper's Figure 1 configurations
# (Shahrabi, Ould-Khaoua and Mackenzie, SAC 2001: n = 6, 7, 8; V = 2, 4;
# M = 32, 64, 128; beta = 0.005, 0.01, 0.02), model against simulation:
# the model's mean broadcast latency as curves (`mcastlat hypercube`, the
# paper's channel load solid, the binomial tree's dashed) and our
# flit-level simulation of the same points (`mcastlat simulate
# --compare`) as points with 95 % intervals.
#
#   scripts/fig1-hypercube-sim.sh [-o DIR]  (default DIR: $FIGDIR, else figures)
#   scripts/fig1-hypercube-sim.sh -h|--help
#
# Writes DIR/fig1-hypercube-sim-n<n>-v<V>.png (three panels M = 32, 64,
# 128, one colour per beta), the model curves DIR/fig1-hypercube-sim-
# model.csv (both loads), every simulated run DIR/fig1-hypercube-sim-
# runs.csv and the points drawn, DIR/fig1-hypercube-sim.csv (mean
# broadcast latency over the seeds that ran to ok, the Student t 95 %
# half-width across them, the model's latency and error_pct with the
# paper's load and with the tree's, and how many seeds were not ok).
#
# Delta = 1 cycle, as in the paper.  Simulated rates are the fractions
# LOADS of each configuration's saturation rate under the paper's load;
# a fraction above 1 shows where the simulated network still runs.  A run
# measures after WARMUP messages (the paper's 20000) and stops when the
# 95 % interval of its mean latency (all messages) is CI of the mean, or
# after MAXCYC cycles (then it is not ok and not drawn); the interval
# drawn comes from the spread of the broadcast latency across the SEEDS
# seeds.  MODEL="paper tree" names the model curves drawn (paper: the
# paper's equations, solid; tree: --load tree, dashed).
#
# Run time: the defaults (DIMS=6, LOADS="0.25 0.5 0.75 0.9 1.1", SEEDS=3,
# CI=0.02, MAXCYC=2000000: 270 simulations, 125 million cycles of a
# 64-node network) took 17 minutes (992 s) on 2 shared cores with JOBS=2;
# half the cycles go to the 59 runs near or past saturation that end
# without a point (MAXCYC=1000000 should save about a fifth of the time,
# judging by the cycles, and lose a few points at 0.9 and 1.1).  A run
# on the 7-cube simulated 1.3 to 3.4 times the node-cycles of the same
# run on the 6-cube, on the 8-cube 5 to 7 times (M = 32, beta = 0.01),
# and a node-cycle of the larger cubes costs about twice as much:
# DIMS="6 7 8" (the paper's whole figure) takes hours, not minutes.
# Every knob is an environment variable; a progress line on stderr counts
# the runs.  Runs from any directory; MCASTLAT names the binary (default:
# the tree's mcastlat beside scripts/, else mcastlat on PATH); needs
# gnuplot.
set -eu
ml_figures=
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"
ml_need gnuplot gnuplot-nox
dims=${DIMS:-6}
loads=${LOADS:-0.25 0.5 0.75 0.9 1.1}
seeds=${SEEDS:-3}
warmup=${WARMUP:-20000}
ci=${CI:-0.02}
maxcyc=${MAXCYC:-2000000}
jobs=${JOBS:-2}
model=${MODEL:-paper tree}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pre=$out/fig1-hypercube-sim

# The model: saturation rate of every configuration under both loads,
# then 101 rates per curve up to it, denser towards it.
"$mcastlat" hypercube --saturation --load paper,tree \
	--dim "$(echo $dims | tr ' ' ,)" --vcs 2,4 --flits 32,64,128 \
	--beta 0.005,0.01,0.02 --delta 1 --format csv --precision 17 \
	--columns load,dim,vcs,flits,beta,lambda_sat > "$tmp/sat.csv"
awk -F, 'NR == 1 { print "load,dim,vcs,flits,beta,rate"; next }
	{ for (k = 0; k <= 100; k++) {
		f = 1 - (1 - k / 100) ^ 2
		printf "%s,%s,%s,%s,%s,%.17g\n", $1, $2, $3, $4, $5, f * $6 } }' \
	"$tmp/sat.csv" > "$tmp/model-points.csv"
"$mcastlat" hypercube --delta 1 --input "$tmp/model-points.csv" \
	--format csv --columns load,dim,vcs,flits,beta,rate,latency,status \
	> "$pre-model.csv"

# The simulated points: one batch row per (n, V, M, beta, load fraction)
# of the paper's saturation rate; each row sweeps the seeds, which --jobs
# spreads over the threads.
awk -F, -v loads="$loads" '$1 == "paper" {
	  n = split(loads, f, " ")
	  for (i = 1; i <= n; i++)
		printf "%s,%s,%s,%s,%.6g\n", $2, $3, $4, $5, f[i] * $6 }' \
	"$tmp/sat.csv" > "$tmp/rows.csv"
{ echo "dims,vcs,flits,beta,rate"; cat "$tmp/rows.csv"; } > "$tmp/sim-points.csv"
total=$(( $(wc -l < "$tmp/rows.csv") * seeds ))
# The tree load's latency at the same points (the model is cheap: no
# second simulation, see --model-load in mcastlat-simulate(1)).
{ echo "load,dim,vcs,flits,beta,rate"; sed 's/^/tree,/' "$tmp/rows.csv"; } |
	"$mcastlat" hypercube --delta 1 --input - --format csv --precision 17 \
	--columns dim,vcs,flits,beta,rate,latency > "$tmp/tree.csv"

# Copy the rows through, one "runs done, time left" line on stderr.  A
# shell loop, not awk: mawk reads a pipe in blocks, so it would not see
# the rows as they arrive.
#
# Time left is estimated from the work done, not the runs done: runs
# differ by orders of magnitude (near saturation a run goes to MAXCYC
# cycles, at low load it stops in a few thousand; a run of the n-cube
# simulates 2^n nodes, and longer messages need more cycles), so the
# runs left are costed by the node-cycles (cycles x 2^n) of the runs
# done of the same n, M and load fraction; of the same n and load
# fraction, per flit (at most MAXCYC), when no such run is done yet;
# else at MAXCYC.
# Time left = elapsed x work left / work done.  ML_CLOCK replaces
# `date +%s` (tests/cli/scripts.sh).
nloads=$(echo $loads | wc -w)
keys=
r=0
while IFS=, read -r d _ f _; do
	li=$((r % nloads))
	k=${d}_${f}_$li
	eval "[ -n \"\${left_$k-}\" ] || keys=\"\$keys $k\"
		left_$k=\$(( \${left_$k:-0} + seeds ))"
	r=$((r + 1))
done < "$tmp/rows.csv"
progress() {
	start=$(${ML_CLOCK:-date +%s})
	n=-1
	done_w=0
	while IFS= read -r line; do
		printf '%s\n' "$line"
		n=$((n + 1))
		[ $n -ge 1 ] || continue
		IFS=, read -r d _ f _ _ _ _ _ _ cyc _ <<-EOF
		$line
		EOF
		case $cyc in '' | *[!0-9]*) cyc=0 ;; esac
		li=$(( ((n - 1) / seeds) % nloads ))
		w=$((cyc << d))
		done_w=$((done_w + w))
		eval "left_${d}_${f}_$li=\$((left_${d}_${f}_$li - 1))
			sum_${d}_${f}_$li=\$((\${sum_${d}_${f}_$li:-0} + w))
			cnt_${d}_${f}_$li=\$((\${cnt_${d}_${f}_$li:-0} + 1))
			fsum_${d}_$li=\$((\${fsum_${d}_$li:-0} + w / f))
			fcnt_${d}_$li=\$((\${fcnt_${d}_$li:-0} + 1))"
		rem=0
		for k in $keys; do
			d=${k%%_*} li=${k##*_} f=${k#*_} f=${f%_*}
			eval "l=\$left_$k c=\${cnt_$k:-0} s=\${sum_$k:-0}
				fc=\${fcnt_${d}_$li:-0} fs=\${fsum_${d}_$li:-0}"
			if [ "$c" -gt 0 ]; then
				rem=$((rem + l * s / c))
			elif [ "$fc" -gt 0 ]; then
				# per flit, but no run goes past MAXCYC
				w=$((f * fs / fc))
				[ $w -le $((maxcyc << d)) ] || w=$((maxcyc << d))
				rem=$((rem + l * w))
			else
				rem=$((rem + l * (maxcyc << d)))
			fi
		done
		el=$(($(${ML_CLOCK:-date +%s}) - start))
		left=0
		[ $done_w -eq 0 ] || left=$((el * rem / done_w))
		printf '\r%d/%d runs, %ds elapsed, about %ds left  ' "$n" \
			"$total" "$el" "$left" >&2
	done
	printf '\n' >&2
}
echo "fig1-hypercube-sim: $total simulations ($seeds seeds), --jobs $jobs" >&2

"$mcastlat" simulate --topology hypercube --compare --delta 1 \
	--warmup "$warmup" --ci "$ci" --max-cycles "$maxcyc" --seed "1:$seeds" \
	--input "$tmp/sim-points.csv" --jobs "$jobs" --format csv \
	--columns dims,vcs,flits,beta,rate,seed,multicast_latency,latency_ci,model_latency,cycles,status |
	progress > "$pre-runs.csv"

# Mean and Student t 95 % interval across the seeds that ran to ok (with
# a broadcast measured: a very short run may have none).  The
# tree load's latency is looked up by row order: tree.csv has the rows of
# sim-points.csv in the same order.
awk -F, '
function tq(df) { # two-sided 95 % quantiles of Student t, df 1..30
	split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 " \
	      "2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 " \
	      "2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", q, " ")
	return df <= 30 ? q[df] : 1.96
}
function err(mod, sim) {
	return mod == "nan" || mod == "" ? "nan" : sprintf("%.4g", 100 * (mod - sim) / sim)
}
FNR == 1 { next }
FILENAME == tree { tl[++nt] = $6; next }
{ key = $1 "," $2 "," $3 "," $4 "," $5
  if (!(key in n)) { order[++nk] = key; n[key] = 0; bad[key] = 0 }
  model[key] = $9
  if ($11 == "ok" && $7 != "nan") { n[key]++; s[key] += $7; ss[key] += $7 * $7 }
  else bad[key]++ }
END {
  print "dims,vcs,flits,beta,rate,sim_latency,sim_ci,model_latency,error_pct,model_tree_latency,error_tree_pct,seeds_ok,seeds_not_ok"
  for (i = 1; i <= nk; i++) {
	k = order[i]; m = n[k]; t = tl[i]
	if (m == 0) {
		printf "%s,nan,nan,%s,nan,%s,nan,0,%d\n", k, model[k], t, bad[k]
		continue
	}
	mean = s[k] / m
	var = m > 1 ? (ss[k] - m * mean * mean) / (m - 1) : 0
	ci = m > 1 ? tq(m - 1) * sqrt(var > 0 ? var : 0) / sqrt(m) : 0
	printf "%s,%.6g,%.4g,%s,%s,%s,%s,%d,%d\n", k, mean, ci, model[k],
		err(model[k], mean), t, err(t, mean), m, bad[k]
  } }' tree="$tmp/tree.csv" "$tmp/tree.csv" "$pre-runs.csv" > "$pre.csv"

gnuplot -e "model='$pre-model.csv'; sim='$pre.csv'; outdir='$out'; dims='$dims'; loads='$model'" \
	"$here/fig1-hypercube-sim.gp"
ls "$out"/fig1-hypercube-sim-n*-v*.png
