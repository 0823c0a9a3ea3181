#!/bin/sh
# fig-multicast.sh - redraw Figures 6 to 12 of Malumbres & Duato (tree-based
# multicast with pruning, paper 004; SPEC section 8.1) from our own
# simulator: mean multicast latency against accepted traffic (flits
# received per node per cycle), one curve per mechanism and destination
# count.
#
#   scripts/fig-multicast.sh 6       Figure 6: 8x8 mesh, 4 ports, tree,
#                                    unicast, dual-path, pm, 4 and 11 dests
#   scripts/fig-multicast.sh 7|8|9   tree vs unicast, 4, 11 and 25 dests, on
#                                    an 8x8 mesh, 8x8 torus, 8x8x8 torus
#   scripts/fig-multicast.sh 10|11   tree, unicast, dual-path (mesh only),
#                                    4 and 11 dests, 16x16 mesh / torus
#   scripts/fig-multicast.sh 12      mixed traffic on the 8x8 mesh: 60 %
#                                    multicasts of 2 flits, 40 % unicasts of 9
#   scripts/fig-multicast.sh all     all of them (the default)
#   scripts/fig-multicast.sh -o DIR FIGURE...   into DIR (default $FIGDIR,
#                                    else figures); -h, --help: this text
#
# Writes DIR/mcast-figN.png (-o DIR; default $FIGDIR, else figures) and the CSV it was
# drawn from, mcast-figN.csv.  Each curve climbs a traffic grid and stops
# after its first saturated point; curves run JOBS at a time (default 2).
# A progress line on stderr per point.  SCALE multiplies the run lengths
# (default 1: a figure takes minutes on 2 cores, see the man page
# mcastlat-simulate(1), FIGURES).  Runs from any directory (DIR is
# relative to the current one); MCASTLAT names the binary (default: the
# tree's ./mcastlat, else mcastlat on PATH; see common.sh).  Needs
# gnuplot 5 (gnuplot-nox).
set -eu

ml_figures='6 7 8 9 10 11 12'
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"
ml_need gnuplot gnuplot-nox
jobs=${JOBS:-2}
scale=${SCALE:-1}
what=${*:-all}

# Traffic grid (flits received per node per cycle); each curve stops at
# its first saturated point.
grid="0.005 0.01 0.02 0.03 0.04 0.05 0.06 0.07 0.08 0.09 0.1 0.11 0.12 0.13 0.14 0.16 0.18 0.2 0.22 0.25 0.3 0.35 0.4 0.5 0.6 0.8 1"

# Run lengths: warm-up messages and a cycle cap per point, scaled.
# (a 95 % interval of 5 % of the mean, or the cycle cap: status
# no-convergence, drawn as a gap).
warmup=$(awk "BEGIN { printf \"%d\", 1000 * $scale }")
maxc=$(awk "BEGIN { printf \"%d\", 400000 * $scale }")

cols=dests,rate,offered,accepted,latency,multicast_latency,unicast_latency,multicast_latency_dest,prunings,branches,channels,status

# curve FIG LABEL DESTS FLITS_PER_MSG OPTIONS...: one curve into
# $tmp/FIG/LABEL.csv.  FLITS_PER_MSG is the mean number of flits a message
# delivers (multicast: dests x flits), so rate = traffic / FLITS_PER_MSG.
curve() {
	fig=$1 label=$2 per=$3
	shift 3
	f=$tmp/$fig/$label.csv
	: >"$f"
	for t in $grid; do
		rate=$(awk "BEGIN { printf \"%.6g\", $t / $per }")
		if awk "BEGIN { exit !($rate > 1) }"; then
			break
		fi
		row=$("$mcastlat" simulate "$@" --rate "$rate" --warmup "$warmup" \
			--max-cycles "$maxc" --ci 0.05 --format csv --no-header \
			--columns "$cols") || {
			echo "fig $fig: $label: mcastlat failed" >&2
			return 1
		}
		printf '%s,%s\n' "$label" "$row" >>"$f"
		st=${row##*,}
		lat=$(printf '%s\n' "$row" | cut -d, -f6)
		acc=$(printf '%s\n' "$row" | cut -d, -f4)
		printf 'fig %s  %-16s traffic %-5s accepted %-9s latency %-9s %s\n' \
			"$fig" "$label" "$t" "$acc" "$lat" "$st" >&2
		case $st in saturated | deadlock) break ;; esac
	done
}

# run_curves FIG: the lines of $tmp/FIG.curves ("LABEL PER OPTIONS...")
# JOBS at a time, then the CSV.
run_curves() {
	fig=$1
	mkdir -p "$tmp/$fig"
	n=$(wc -l <"$tmp/$fig.curves")
	echo "fig $fig: $n curves, $jobs at a time" >&2
	i=0
	while [ $i -lt "$jobs" ]; do
		awk -v i=$i -v j="$jobs" '(NR - 1) % j == i' "$tmp/$fig.curves" |
			while read -r label per opts; do
				# shellcheck disable=SC2086
				curve "$fig" "$label" "$per" $opts
			done &
		i=$((i + 1))
	done
	wait
	{
		echo "label,$cols"
		while read -r label rest; do
			cat "$tmp/$fig/$label.csv"
		done <"$tmp/$fig.curves"
	} >"$out/mcast-fig$fig.csv"
}

# plot FIG TITLE YMAX [YCOL]: YCOL 7 = multicast_latency (default), 6 =
# latency of all messages
plot() {
	labels=$(cut -d' ' -f1 "$tmp/$1.curves" | tr '\n' ' ')
	gnuplot -e "csv='$out/mcast-fig$1.csv'; png='$out/mcast-fig$1.png'; \
		ttl='$2'; labels='$labels'; ymax=$3; ycol=${4:-7}" \
		"$here/fig-multicast.gp"
	echo "$out/mcast-fig$1.png"
}

mesh8="--topology mesh --k 8 --dims 2"
torus8="--topology torus --k 8 --dims 2"

fig6() {
	for n in 4 11; do
		for m in tree unicast dual-path pm; do
			echo "$m-$n $((2 * n)) $mesh8 --ports 4 --beta 1 --flits 2 --multicast $m --dests $n"
		done
	done >"$tmp/6.curves"
	run_curves 6
	plot 6 "Figure 6: 8x8 mesh, 4 ports, 1 data flit" 250
}

tree_unicast() { # FIG TOPOLOGY-OPTIONS TITLE
	for n in 4 11 25; do
		for m in tree unicast; do
			echo "$m-$n $((2 * n)) $2 --beta 1 --flits 2 --multicast $m --dests $n"
		done
	done >"$tmp/$1.curves"
	run_curves "$1"
	plot "$1" "$3" 200
}

big() { # FIG TOPOLOGY MECHANISMS TITLE
	for n in 4 11; do
		for m in $3; do
			# dual-path needs a delivery channel per class
			ports=1
			[ "$m" = dual-path ] && ports=2
			echo "$m-$n $((2 * n)) --topology $2 --k 16 --dims 2 --ports $ports --beta 1 --flits 2 --multicast $m --dests $n"
		done
	done >"$tmp/$1.curves"
	run_curves "$1"
	plot "$1" "$4" 250
}

fig12() {
	# A message delivers 0.6 x 2n + 0.4 x 9 flits on average.
	for n in 4 11; do
		for m in tree unicast; do
			per=$(awk "BEGIN { print 1.2 * $n + 3.6 }")
			echo "$m-$n $per $mesh8 --beta 0.6 --flits 2 --unicast-flits 9 --multicast $m --dests $n"
		done
	done >"$tmp/12.curves"
	run_curves 12
	plot 12 "Figure 12: mixed traffic, 8x8 mesh, 60 % multicasts (2 flits), 40 % unicasts (9 flits)" 200 6
}

one() {
	case $1 in
	6) fig6 ;;
	7) tree_unicast 7 "$mesh8" "Figure 7: tree vs unicast, 8x8 mesh" ;;
	8) tree_unicast 8 "$torus8" "Figure 8: tree vs unicast, 8x8 torus" ;;
	9) tree_unicast 9 "--topology torus --k 8 --dims 3" \
		"Figure 9: tree vs unicast, 8x8x8 torus" ;;
	10) big 10 mesh "tree unicast dual-path" "Figure 10: 16x16 mesh" ;;
	11) big 11 torus "tree unicast" "Figure 11: 16x16 torus" ;;
	12) fig12 ;;
	*)
		echo "usage: $0 6|7|8|9|10|11|12|all" >&2
		exit 2
		;;
	esac
}

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for w in $what; do
	if [ "$w" = all ]; then
		for f in 6 7 8 9 10 11 12; do one $f; done
	else
		one "$w"
	fi
done
