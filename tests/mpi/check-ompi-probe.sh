#!/bin/sh
# check-ompi-probe.sh MCASTLAT [BUILDDIR] - mcastlat-probe (SPEC 10.6)
# under Open MPI, four ranks oversubscribed on one node: its file is one
# that `mcastlat fit collective` reads and fits, with repeated rows for a
# lack-of-fit test, every algorithm forced and the library's own; bad
# options and channels that do not exist here are one-line errors that
# leave an existing output file alone.  The times mean nothing on an
# oversubscribed machine; what is checked is their shape.  Exit 77
# without Open MPI.  PROBE is the probe (built here with MAKE probe).
set -u
bin=${1:-./mcastlat}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
probe=${PROBE:-./mcastlat-probe}

if command -v mpirun.openmpi >/dev/null 2>&1; then
	MPIRUN=${MPIRUN:-mpirun.openmpi}
else
	MPIRUN=${MPIRUN:-mpirun}
fi
command -v "$MPIRUN" >/dev/null 2>&1 &&
	"$MPIRUN" --version 2>/dev/null | grep -q -e 'Open MPI' -e OpenRTE &&
	command -v "${MPICC:-mpicc}" >/dev/null 2>&1 || {
	echo "check-ompi-probe: skipped: no Open MPI (Debian: apt-get install" \
		"openmpi-bin libopenmpi-dev)"
	exit 77
}
${MAKE:-make} -s probe MPICC="${MPICC:-mpicc}" >/dev/null ||
	{ echo "check-ompi-probe: make probe failed"; exit 1; }
case $probe in /*) ;; *) probe=$(pwd)/$probe ;; esac

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	printf 'FAIL: %s\n' "$*"
}

run_probe() {
	"$MPIRUN" --oversubscribe -np 4 "$probe" "$@"
}

# The default plan, within a small budget.
if run_probe --budget 6 -o "$tmp/probe.csv" 2> "$tmp/err"; then
	ok
else
	bad "the default plan failed: $(tail -n 3 "$tmp/err")"
fi
grep -q 'note: no net channel' "$tmp/err" && ok ||
	bad "no note that one node has no net channel"
want='op,channel,ranks,algorithm,segment,ppn,sockets,nodes,map_by,bind_to,msg,latency_avg,latency_min,latency'
[ "$(head -n 1 "$tmp/probe.csv" 2>/dev/null)" = "$want" ] && ok ||
	bad "header: $(head -n 1 "$tmp/probe.csv" 2>/dev/null)"
# The default plan is collective --plan's design (ml_collective_plan):
# 6 s are 24 points, under the least grid of 2 P x 2 sizes x 10
# algorithms = 40, so 40 points: P = 2 and 4 (all the ranks), sizes 1
# byte and 1 MiB.  Every algorithm and the library's own at both, each
# point three times (linear at P = 4 is also the fan-out's, measured at
# its sizes); a ping-pong per size on the one channel there is (socket:
# one node, sockets as the OS says).
for a in linear chain pipeline split-binary binary binomial knomial \
	scatter-allgather scatter-allgather-ring ompi; do
	for P in 2 4; do
		n=$(awk -F, -v a="$a" -v P=$P '$1 == "bcast" && $4 == a &&
			$3 == P && ($11 == 1 || $11 == 1048576)' \
			"$tmp/probe.csv" | wc -l)
		[ "$n" -eq 6 ] && ok || bad "$a: $n rows at P=$P, not 2 sizes x 3"
	done
	n=$(awk -F, -v a="$a" '$1 == "bcast" && $4 == a && $3 == 2' \
		"$tmp/probe.csv" | wc -l)
	[ "$n" -eq 6 ] && ok || bad "$a: $n rows at P=2, not 6"
done
n=$(awk -F, '$1 == "p2p" && $2 == "socket" && $14 > 0' "$tmp/probe.csv" | wc -l)
[ "$n" -eq 18 ] && ok || bad "$n socket ping-pong rows, not 18"
awk -F, 'NR > 1 && $1 == "bcast" && !($12 > 0 && $13 <= $12 && $12 <= $14) {
	exit 1 }' "$tmp/probe.csv" && ok || bad "a row without min <= avg <= max"

# fit collective reads and fits it, and tests the lack of fit against the
# repetitions.
if "$bin" fit collective --data "$tmp/probe.csv" > "$tmp/fit" 2>&1; then
	ok
else
	bad "fit collective failed: $(head -n 3 "$tmp/fit")"
fi
grep -q '^# lack of fit: .* F ' "$tmp/fit" && ok ||
	bad "no lack-of-fit test: $(grep 'lack of fit' "$tmp/fit")"

# --plan FILE measures exactly the plan's broadcasts (collective --plan
# for this allocation, as the first run found it), in its order, once a
# repetition, and nothing else.
alloc=$(awk -F, '$1 == "bcast" { print "--ppn " $6 " --sockets " $7 \
	" --nodes " $8; exit }' "$tmp/probe.csv")
# shellcheck disable=SC2086
"$bin" collective --plan $alloc --among binomial,linear,ompi \
	--msg 4,4096,8192 --budget 18 > "$tmp/plan.csv" 2> "$tmp/err" && ok ||
	bad "collective --plan $alloc: $(cat "$tmp/err")"
[ "$(wc -l < "$tmp/plan.csv")" -eq 19 ] && ok ||
	bad "the plan has $(wc -l < "$tmp/plan.csv") lines, not 1 + 18"
if run_probe --plan "$tmp/plan.csv" --reps 2 --budget 2 -o "$tmp/planned.csv" \
	2> "$tmp/err"; then
	ok
else
	bad "--plan: $(tail -n 3 "$tmp/err")"
fi
awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $4 }' "$tmp/plan.csv" > "$tmp/want"
cat "$tmp/want" "$tmp/want" > "$tmp/want2"
awk -F, 'NR > 1 { print $4 "," $3 "," $9 "," $11 }' "$tmp/planned.csv" \
	> "$tmp/got"
cmp -s "$tmp/want2" "$tmp/got" && ok ||
	bad "--plan measured other rows: $(diff "$tmp/want2" "$tmp/got" | head -n 4)"
awk -F, 'NR > 1 && $1 != "bcast" { exit 1 }' "$tmp/planned.csv" && ok ||
	bad "--plan measured more than the plan's broadcasts"
printf 'algorithm,ranks,msg\nompi,2,1\n' > "$tmp/noplan.csv"
printf 'algorithm,ranks,map_by,msg\nompi,99,core,1\n' > "$tmp/big.csv"
# A plan made for another allocation (8 cores a node) whose rows fit
# here: measured, with a note that names both allocations.
"$bin" collective --plan --ppn 8 --sockets 1 --nodes 1 --ranks 4 \
	--among ompi --budget 4 > "$tmp/other.csv"
if run_probe --plan "$tmp/other.csv" --reps 1 --budget 1 -o "$tmp/o.csv" \
	2> "$tmp/err"; then
	ok
else
	bad "--plan of another allocation: $(tail -n 3 "$tmp/err")"
fi
grep -q 'note: the plan is for 1 nodes of ppn 8 in 1 sockets' "$tmp/err" &&
	ok || bad "no note of the plan's allocation: $(cat "$tmp/err")"
[ "$(awk -F, 'NR > 1 && $1 == "bcast"' "$tmp/o.csv" | wc -l)" -eq 4 ] &&
	ok || bad "--plan of another allocation: not its 4 rows"

# Eight ranks taken for two nodes of two sockets (MCASTLAT_PROBE_PRETEND):
# every channel's ping-pong, the node channel's fan-out, the placements
# of several nodes; fit reads them all.
if MCASTLAT_PROBE_PRETEND=2,2 "$MPIRUN" -x MCASTLAT_PROBE_PRETEND \
	--oversubscribe -np 8 "$probe" --budget 2 --msg 1,4096 \
	--algorithm binomial,ompi --reps 2 --channel all \
	-o "$tmp/nodes.csv" 2> "$tmp/err"; then
	ok
else
	bad "2 nodes x 2 sockets: $(tail -n 3 "$tmp/err")"
fi
for c in socket node net; do
	n=$(awk -F, -v c="$c" '$1 == "p2p" && $2 == c' "$tmp/nodes.csv" | wc -l)
	[ "$n" -eq 4 ] && ok || bad "2 nodes: $n $c ping-pong rows, not 4"
done
n=$(awk -F, '$1 == "bcast" && $4 == "binomial" && $8 == 2 && $9 == "node"' \
	"$tmp/nodes.csv" | wc -l)
[ "$n" -eq 8 ] && ok || bad "2 nodes: $n binomial map-by node rows, not 8"
"$bin" fit collective --data "$tmp/nodes.csv" > "$tmp/fit" 2>&1 && ok ||
	bad "fit collective on 2 nodes failed: $(head -n 3 "$tmp/fit")"

# Errors: one line of the probe's on stderr, a nonzero exit, and an
# existing output file left as it was.
echo old > "$tmp/keep.csv"
probe_error() {
	what=$1
	shift
	if run_probe "$@" -o "$tmp/keep.csv" > "$tmp/out" 2> "$tmp/err"; then
		bad "$what: exit 0"
		return
	fi
	# mpirun adds its own report of the exit status, in a box of dashes.
	n=$(sed '/^-----/,/^-----/d' "$tmp/err" | wc -l)
	[ "$n" -eq 1 ] && grep -q '^mcastlat-probe: ' "$tmp/err" && ok ||
		bad "$what: $n lines besides mpirun's: $(cat "$tmp/err")"
	[ "$(cat "$tmp/keep.csv")" = old ] && ok || bad "$what: -o FILE changed"
	[ ! -s "$tmp/out" ] && ok || bad "$what: stdout: $(head -n 2 "$tmp/out")"
}
probe_error "--channel net on one node" --channel net --budget 2
probe_error "--budget 0" --budget 0
probe_error "--msg 0" --msg 0
probe_error "--algorithm 10" --algorithm 10
probe_error "--ranks 5 of 4" --ranks 5
probe_error "unknown option" --bogus
probe_error "--plan without map_by" --plan "$tmp/noplan.csv"
probe_error "--plan of a missing file" --plan "$tmp/no/such.csv"
probe_error "--plan: more ranks than here" --plan "$tmp/big.csv"
# A file that cannot be written: nothing left behind.
if run_probe --budget 1 --msg 1 --algorithm ompi --reps 1 \
	-o "$tmp/no/such/dir.csv" 2> "$tmp/err"; then
	bad "-o into a missing directory: exit 0"
else
	ok
fi
[ -z "$(ls "$tmp/no" 2>/dev/null)" ] && ok || bad "-o left files behind"

echo "check-ompi-probe: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
