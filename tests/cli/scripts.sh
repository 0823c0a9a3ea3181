#!/bin/sh
# scripts.sh BINARY - the scripts of scripts/ run from any directory
# (issue 15): they find the binary ($MCASTLAT, else the tree's own, else
# PATH, else a one-line error), their .gp files beside themselves, write
# where the caller is, and say what they need when gnuplot is missing.
# Only the fast torus figure runs (gnuplot is a stub unless installed);
# the simulated figures are not run here.

# ok always succeeds, so "test && ok || bad" is an if-else:
# shellcheck disable=SC2015
set -u
. "$(dirname "$0")/testlib.sh"
src=$(cd "$(dirname "$0")/../../scripts" && pwd)

# A copy of the tree's scripts whose ./mcastlat logs its calls, a stub
# gnuplot that logs its arguments and writes the png='...' it is given,
# and a directory elsewhere to run from.  PATH has no mcastlat.
mkdir -p "$tmp/tree/scripts" "$tmp/stub" "$tmp/onpath" "$tmp/run" \
	"$tmp/empty"
cp "$src"/common.sh "$src"/fig-torus.sh "$src"/shard-sweep.sh "$src"/*.gp \
	"$tmp/tree/scripts/"
cat > "$tmp/tree/mcastlat" <<EOF
#!/bin/sh
echo tree >> "$tmp/calls"
exec "$bin" "\$@"
EOF
sed 's/echo tree/echo path/' "$tmp/tree/mcastlat" > "$tmp/onpath/mcastlat"
cat > "$tmp/stub/gnuplot" <<EOF
#!/bin/sh
printf '%s\n' "\$*" >> "$tmp/gnuplot.log"
png=\$(printf '%s\n' "\$2" | sed -n "s/.*png='\\([^']*\\)'.*/\\1/p")
[ -z "\$png" ] || : > "\$png"
EOF
chmod +x "$tmp/tree/mcastlat" "$tmp/onpath/mcastlat" "$tmp/stub/gnuplot"
base=$tmp/stub:/usr/bin:/bin
script=$tmp/tree/scripts/fig-torus.sh

# fig_torus PATH [VAR=VALUE...]: the torus projections from $tmp/run,
# MCASTLAT unset unless given; stdout, stderr, status in $tmp/o, e, rc
fig_torus() {
	p=$1
	shift
	: > "$tmp/calls"
	: > "$tmp/gnuplot.log"
	(cd "$tmp/run" && env -u MCASTLAT PATH="$p" "$@" sh "$script" \
		projections > "$tmp/o" 2> "$tmp/e")
	echo $? > "$tmp/rc"
}

# The tree's binary, beside scripts/, found from elsewhere; the CSV and
# PNGs in figures/ under the current directory; the .gp beside the
# script.
fig_torus "$base"
if [ "$(cat "$tmp/rc")" != 0 ]; then
	bad "fig-torus.sh from another directory: exit $(cat "$tmp/rc")"
	cat "$tmp/e"
else
	ok
fi
[ "$(sort -u "$tmp/calls")" = tree ] && ok ||
	bad "fig-torus.sh did not run the tree's mcastlat: $(cat "$tmp/calls")"
[ "$(head -n 1 "$tmp/run/figures/torus-fig14a.csv" 2> /dev/null)" = \
	"algorithm,r,group,latency" ] && ok ||
	bad "no figures/torus-fig14a.csv in the current directory"
[ -f "$tmp/run/figures/torus-fig14b.png" ] && ok ||
	bad "no figures/torus-fig14b.png in the current directory"
grep -q " $tmp/tree/scripts/fig-torus-proj.gp\$" "$tmp/gnuplot.log" && ok ||
	bad "gnuplot was not given the .gp beside the script: $(cat "$tmp/gnuplot.log")"

# FIGDIR relative to the current directory.
fig_torus "$base" FIGDIR=out
[ -f "$tmp/run/out/torus-fig14a.csv" ] && ok || bad "FIGDIR=out: no out/torus-fig14a.csv"

# No binary in the tree: the one on PATH.
mv "$tmp/tree/mcastlat" "$tmp/tree/mcastlat.off"
fig_torus "$tmp/onpath:$base"
[ "$(cat "$tmp/rc")" = 0 ] && [ "$(sort -u "$tmp/calls")" = path ] && ok ||
	bad "fig-torus.sh did not use mcastlat on PATH: exit $(cat "$tmp/rc"), calls $(cat "$tmp/calls")"

# Neither: one line, exit 2, nothing run.
fig_torus "$base"
if [ "$(cat "$tmp/rc")" = 2 ] && [ ! -s "$tmp/o" ] &&
	[ "$(wc -l < "$tmp/e")" -eq 1 ] &&
	grep -q '^fig-torus.sh: cannot find mcastlat ' "$tmp/e"; then
	ok
else
	bad "no mcastlat anywhere: exit $(cat "$tmp/rc"), stderr: $(cat "$tmp/e")"
fi

# MCASTLAT, relative to the current directory, before all.
mv "$tmp/tree/mcastlat.off" "$tmp/tree/mcastlat"
cp "$tmp/onpath/mcastlat" "$tmp/run/mine"
fig_torus "$base" MCASTLAT=./mine
[ "$(cat "$tmp/rc")" = 0 ] && [ "$(sort -u "$tmp/calls")" = path ] && ok ||
	bad "MCASTLAT=./mine was not used: exit $(cat "$tmp/rc"), calls $(cat "$tmp/calls")"
fig_torus "$base" MCASTLAT=./nosuch
[ "$(cat "$tmp/rc")" = 2 ] &&
	[ "$(cat "$tmp/e")" = "fig-torus.sh: MCASTLAT=./nosuch is not an executable" ] &&
	ok || bad "MCASTLAT=./nosuch: exit $(cat "$tmp/rc"), stderr: $(cat "$tmp/e")"

# Every figure script says it needs gnuplot, and nothing else, when
# gnuplot is not on PATH (an empty PATH: the check comes first).
for s in "$src"/fig*.sh; do
	name=${s##*/}
	(cd "$tmp/run" && MCASTLAT=$bin PATH=$tmp/empty /bin/sh "$s" \
		> "$tmp/o" 2> "$tmp/e")
	rc=$?
	want="$name: needs gnuplot (Debian: apt-get install gnuplot-nox)"
	if [ $rc -eq 2 ] && [ ! -s "$tmp/o" ] && [ "$(cat "$tmp/e")" = "$want" ]; then
		ok
	else
		bad "$name without gnuplot: exit $rc, stderr: $(cat "$tmp/e")"
	fi
done

# shard-sweep.sh from elsewhere, the tree's binary found beside
# scripts/ (the copy's, which runs $bin: a sanitizer build has no
# ./mcastlat): the same bytes as the unsharded run.
: > "$tmp/calls"
(cd "$tmp/run" && env -u MCASTLAT PATH=/usr/bin:/bin \
	sh "$tmp/tree/scripts/shard-sweep.sh" \
	3 all.csv kbinomial --nodes 2:40 --packets 1,4 --format csv) ||
	bad "shard-sweep.sh from another directory: exit $?"
"$bin" kbinomial --nodes 2:40 --packets 1,4 --format csv > "$tmp/whole.csv"
cmp -s "$tmp/whole.csv" "$tmp/run/all.csv" && ok ||
	bad "shard-sweep.sh: all.csv differs from the unsharded run"
[ "$(sort -u "$tmp/calls")" = tree ] && ok ||
	bad "shard-sweep.sh did not run the tree's mcastlat: $(cat "$tmp/calls")"

# One argument convention (issue 21): -h and --help print the header's
# usage, with its usage lines ("  scripts/NAME ...", issue 27), and exit
# 0, whatever else is missing, and create nothing; a
# figure script takes -o DIR and figure names, and says what is wrong
# with anything else (exit 2).
for s in "$src"/*.sh; do
	name=${s##*/}
	[ "$name" = common.sh ] && continue
	for h in -h --help; do
		(cd "$tmp/empty" && MCASTLAT=$bin PATH=/usr/bin:/bin sh "$s" $h \
			> "$tmp/o" 2> "$tmp/e")
		rc=$?
		if [ $rc = 0 ] && [ ! -s "$tmp/e" ] &&
			head -n 1 "$tmp/o" | grep -q "^$name " &&
			grep -q "^  .*scripts/$name" "$tmp/o" &&
			[ -z "$(ls -A "$tmp/empty")" ]; then
			ok
		else
			bad "$name $h: exit $rc, stdout $(head -n 1 "$tmp/o"), stderr $(cat "$tmp/e"), made: $(ls -A "$tmp/empty")"
		fi
		rm -rf "$tmp/empty" && mkdir "$tmp/empty"
	done
done
# bench.sh takes no arguments: one line, exit 2, nothing run (issue 27).
(cd "$tmp/empty" && MCASTLAT=$bin PATH=/usr/bin:/bin sh "$src/bench.sh" \
	--quick > "$tmp/o" 2> "$tmp/e")
rc=$?
[ $rc = 2 ] && [ "$(wc -l < "$tmp/e")" = 1 ] && [ ! -s "$tmp/o" ] &&
	grep -q "^bench.sh: takes no arguments .*(see bench.sh --help)\$" "$tmp/e" &&
	ok || bad "bench.sh --quick: exit $rc, stderr $(cat "$tmp/e")"
for args in "outdir" "--bogus" "-o"; do
	(cd "$tmp/empty" && MCASTLAT=$bin PATH=$tmp/stub:/usr/bin:/bin \
		sh "$src/fig1-hypercube.sh" $args > "$tmp/o" 2> "$tmp/e")
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l < "$tmp/e")" = 1 ] &&
		grep -q "^fig1-hypercube.sh: .*(see fig1-hypercube.sh --help)\$" "$tmp/e" &&
		[ -z "$(ls -A "$tmp/empty")" ] && ok ||
		bad "fig1-hypercube.sh $args: exit $rc, stderr $(cat "$tmp/e")"
done
(cd "$tmp/empty" && MCASTLAT=$bin PATH=$tmp/stub:/usr/bin:/bin \
	sh "$src/fig-torus.sh" nosuch > "$tmp/o" 2> "$tmp/e")
[ $? = 2 ] && grep -q "'nosuch' is not a figure of this script (one of: models projections, all" "$tmp/e" &&
	ok || bad "fig-torus.sh nosuch: $(cat "$tmp/e")"
(cd "$tmp/run" && env -u MCASTLAT PATH="$base" sh "$script" -o there \
	projections > /dev/null 2>&1)
[ -f "$tmp/run/there/torus-fig14a.csv" ] && ok || bad "fig-torus.sh -o there: no there/torus-fig14a.csv"

# fig1-hypercube-sim.sh's time left, from the work done: with a clock
# that advances with the node-cycles simulated (ML_CLOCK: what the runs
# file holds so far), every estimate after the first tenth of the runs
# is within a factor of 1.5 of the time that was in fact left.  (The
# estimate from the runs done was off by a factor of 2.4 here.)
mkdir -p "$tmp/sim"
{
	echo '#!/bin/sh'
	echo "awk -F, 'NR > 1 && \$10 ~ /^[0-9]+\$/ { s += \$10 * 2 ^ \$1 }"
	echo "	END { printf \"%d\\\\n\", s / 1000 }' \"$tmp/sim/fig1-hypercube-sim-runs.csv\" 2> /dev/null || echo 0"
} > "$tmp/clock"
chmod +x "$tmp/clock"
(cd "$tmp/run" && PATH=$tmp/stub:/usr/bin:/bin ML_CLOCK=$tmp/clock \
	MCASTLAT=$bin DIMS=3 LOADS="0.3 0.6 0.9" SEEDS=2 WARMUP=100 CI=0.1 \
	MAXCYC=50000 JOBS=1 sh "$src/fig1-hypercube-sim.sh" -o "$tmp/sim" \
	> /dev/null 2> "$tmp/e")
end=$("$tmp/clock")
tr '\r' '\n' < "$tmp/e" | awk -v T="$end" '/ runs, / {
		split($1, a, "/"); n = a[1]; el = $3 + 0; est = $6 + 0
		tl = T - el; seen++
		if (n * 10 < a[2] || tl <= 0) next
		r = est / tl; checked++
		if (r > 1.5 || r < 1 / 1.5) {
			print "run " n ": about " est "s left, in fact " tl "s"; bad = 1 }
	}
	END { if (seen < 100 || checked < 80) { print seen " progress lines"; bad = 1 }
	      exit bad }' > "$tmp/o" && ok ||
	bad "fig1-hypercube-sim.sh time left: $(head -n 3 "$tmp/o") (clock $end)"

# The k-binomial paper's Figures 12 to 14 and the cluster thesis's
# broadcast (issue 21): their CSV, and a caption line per figure with
# what the paper shows and what we get, the numbers from the data.
(cd "$tmp/run" && MCASTLAT=$bin PATH=$tmp/stub:/usr/bin:/bin \
	sh "$src/fig-kbinomial.sh" -o kb > "$tmp/o" 2> "$tmp/e") ||
	bad "fig-kbinomial.sh: exit $?: $(cat "$tmp/e")"
[ "$(head -n 1 "$tmp/run/kb/kbinomial-a.csv")" = \
	"nodes,packets,k,latency,binomial_latency,speedup" ] &&
	[ "$(wc -l < "$tmp/run/kb/kbinomial-a.csv")" = 97 ] &&
	[ "$(wc -l < "$tmp/run/kb/kbinomial-b.csv")" = 253 ] && ok ||
	bad "fig-kbinomial.sh: kbinomial-a.csv or -b.csv"
grep -q '^Figure 12, the paper: .* We get: m = 1: k = ceil(log2 n) for 63 of 63 n; k = 1 from m = 12 (n = 16), from m = 27 (n = 32), not for m <= 32 (n = 64); k = 2 for 56 of 56 n in 9..64 at m = 4' "$tmp/o" &&
	grep -q '^Figure 13, the paper .* We get: at m = 32 each packet adds 5 us for n = 16 (k = 1) and 10 us for n = 64 (k = 2)' "$tmp/o" &&
	grep -q '^Figure 14, the paper .* We get: 1.00, 1.96 and 2.63 times at n = 64 for m = 1, 8, 32' "$tmp/o" &&
	[ "$(wc -l < "$tmp/o")" = 3 ] &&
	cmp -s "$tmp/o" "$tmp/run/kb/kbinomial-captions.txt" && ok ||
	bad "fig-kbinomial.sh captions: $(cat "$tmp/o")"
(cd "$tmp/run" && MCASTLAT=$bin PATH=$tmp/stub:/usr/bin:/bin \
	sh "$src/fig-cluster.sh" -o cl > "$tmp/o" 2> "$tmp/e") ||
	bad "fig-cluster.sh: exit $?: $(cat "$tmp/e")"
grep -q '^Cluster broadcast, the thesis .* We get: 28 and 28 for one packet (eq 2.8, 2.8: the formulas agree for one packet); for 4, 52 (eq 2.8), 43 (eq 2.9) and 40 (eq 2.8)\.$' "$tmp/o" &&
	[ "$(head -n 1 "$tmp/run/cl/cluster-bcast-m.csv")" = \
		"regime,formula,msg,packets,nodes,latency,status" ] &&
	[ "$(grep -c ',ok$' "$tmp/run/cl/cluster-bcast-p.csv")" = 1530 ] &&
	ok || bad "fig-cluster.sh: $(cat "$tmp/o")"

# With the real gnuplot, when installed: real PNGs.
if command -v gnuplot > /dev/null; then
	rm -rf "$tmp/run/figures"
	(cd "$tmp/run" && env -u MCASTLAT sh "$script" projections > /dev/null) ||
		bad "fig-torus.sh projections with gnuplot: exit $?"
	(cd "$tmp/run" && MCASTLAT=$bin sh "$src/fig-kbinomial.sh" \
		> /dev/null 2>&1 && MCASTLAT=$bin sh "$src/fig-cluster.sh" \
		> /dev/null 2>&1) || bad "fig-kbinomial.sh, fig-cluster.sh with gnuplot"
	for f in torus-fig14a.png torus-fig14b.png kbinomial-fig12.png \
		kbinomial-fig13.png kbinomial-fig14.png cluster-bcast.png; do
		magic=$(od -An -c -N4 "$tmp/run/figures/$f" 2> /dev/null | tr -d ' ')
		[ "$magic" = '211PNG' ] && ok || bad "figures/$f is not a PNG"
	done
fi

finish "scripts"
