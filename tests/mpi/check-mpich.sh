#!/bin/sh
# check-mpich.sh [BINARY] - collective --library mpich against the real
# MPICH 4.0.2 (SPEC 11; notes/mpich_bcast.md, "Observing MPICH").
#
# tests/mpi/mpich/bcast_trace.c is linked statically against libmpich.a
# with ld --wrap on MPIC_Send, MPIC_Sendrecv and the four MPIR broadcast
# algorithms, and records every message each rank sends inside MPI_Bcast.
# For each case the per-pair totals (messages and bytes from each rank to
# each rank), and each rank's sends in order, must equal those of
# `mcastlat collective --schedule` on one node (--ppn P): every forced
# algorithm (MPIR_CVAR_BCAST_INTRA_ALGORITHM with
# MPIR_CVAR_DEVICE_COLLECTIVES=none, so that it runs on MPI_COMM_WORLD),
# MPICH's default (ch4 compositions, no CVAR), and a tuning file from
# `best --rules`, at P that are and are not powers of two, below and
# above 8, with sizes on both sides of 12288 and 524288 and counts below
# P, from root 0 and from another root (--root).
#
# Several nodes on one host: MPIR_CVAR_NUM_CLIQUES=K makes MPICH see K
# nodes (src/util/mpir_pmi.c at v4.0.2), round robin (rank i on node
# i mod K: our --map-by node --nodes K --ppn ceil(P/K)) or in blocks
# (MPIR_CVAR_CLIQUES_BY_BLOCK=1: the first P mod K nodes hold one rank
# more; our --ppn ceil(P/K) when only the last node is smaller, i.e.
# P mod K is 0 or K - 1; 7 ranks in 3 blocks, 3+2+2, has no placement
# of ours and is not checked).  Its node and node-roots communicators,
# and so the compositions alpha, beta and gamma, follow: checked with
# MPICH's default and with smp forced, from root 0 and from a root that
# is not its node's first rank (alpha then sends one message more).
# Ranks are oversubscribed on this machine: the messages are checked,
# not the times.
#
# Exit 0 all equal, 1 a difference (printed), 77 skipped (one line: no
# MPICH).  MCASTLAT_MPI_REQUIRE=1 turns a skip into a failure (CI).
set -u
bin=${1:-./mcastlat}
here=$(dirname "$0")
MPIEXEC=${MPIEXEC_MPICH:-mpiexec.mpich}
CC=${CC:-cc}

skip() {
	echo "check-mpich: skipped: $*"
	[ "${MCASTLAT_MPI_REQUIRE:-0}" = 1 ] && exit 1
	exit 77
}

command -v "$MPIEXEC" > /dev/null 2>&1 || skip "no $MPIEXEC (apt-get install mpich libmpich-dev)"
command -v mpicc.mpich > /dev/null 2>&1 || skip "no mpicc.mpich (apt-get install libmpich-dev)"
# The include and library directories, from the wrapper itself.
flags=$(mpicc.mpich -show 2>/dev/null) || skip "mpicc.mpich -show failed"
inc= libdir=
for w in $flags; do
	case $w in
	-I*) inc="$inc $w" ;;
	-L*) [ -z "$libdir" ] && libdir=${w#-L} ;;
	esac
done
liba=${MPICH_LIBA:-$libdir/libmpich.a}
[ -f "$liba" ] || skip "no static $liba (Debian's libmpich-dev ships it)"
[ -x "$bin" ] || { echo "check-mpich: no binary $bin" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wrap="-Wl,--wrap=MPIC_Send -Wl,--wrap=MPIC_Sendrecv"
for a in binomial scatter_recursive_doubling_allgather scatter_ring_allgather smp; do
	wrap="$wrap -Wl,--wrap=MPIR_Bcast_intra_$a"
done
# shellcheck disable=SC2086 # word lists
if ! $CC -O1 -o "$tmp/trace" "$here/mpich/bcast_trace.c" $inc $wrap "$liba" \
	-lucp -luct -lucs -lhwloc -lpthread -lm -ldl -lrt > "$tmp/cc.log" 2>&1; then
	# Another build of MPICH may need other libraries: say so, once.
	skip "cannot link the tracer against $liba: $(head -n 1 "$tmp/cc.log")"
fi

fail=0 ncase=0
sizes="1 3 1000 12287 12288 12289 100000 524288 524289"

# The real MPICH's totals, "T CASE SRC DST COUNT BYTES", and each
# rank's sends in order, "S CASE SRC K DST BYTES" (the K-th send of SRC),
# sorted; a case is a root and a size.  Every send of MPICH's broadcasts
# is blocking (MPIC_Send, MPIC_Sendrecv), so a rank's sends in the
# schedule's order are its program's.
real_totals() {
	cat "$tmp"/out.* | awk '
		$1 == "C" { c = $2 }
		$1 == "M" { k = c " " $2 " " $3; n[k]++; b[k] += $4
			    print "S", c, $2, ++q[c " " $2], $3, $4 }
		END { for (k in n) print "T", k, n[k], b[k] }' | sort
}

# The model's: $1 algorithm, $2 P, $3 the roots (comma-separated),
# $4 the placement's options, at each of $sizes (case = index, as the
# tracer counts them).
model_totals() {
	alg=$1 P=$2 rs=$3 place=$4
	i=0
	for r in $(echo "$rs" | tr , ' '); do
		for m in $sizes; do
			# shellcheck disable=SC2086 # $place is a word list
			"$bin" collective --library mpich --algorithm "$alg" \
				--ranks "$P" --root "$r" --msg "$m" $place \
				--schedule --format csv |
				awk -F, -v c="$i" '
				NR > 2 { k = c " " $1 " " $2; n[k]++; b[k] += $4
					 print "S", c, $1, ++q[$1], $2, $4 }
				END { for (k in n) print "T", k, n[k], b[k] }' ||
				echo "model failed: $alg P=$P root=$r msg=$m"
			i=$((i + 1))
		done
	done | sort
}

# run NAME ALGORITHM P ROOTS PLACE ENV... : one mpiexec over every root
# (comma-separated) and size; PLACE the model's placement options.
run() {
	name=$1 alg=$2 P=$3 roots=$4 place=$5
	shift 5
	rm -f "$tmp"/out.*
	envs=
	for e in "$@"; do
		envs="$envs -genv ${e%%=*} ${e#*=}"
	done
	# shellcheck disable=SC2086 # $envs and $sizes are word lists
	if ! timeout 120 "$MPIEXEC" $envs -n "$P" "$tmp/trace" "$tmp/out" \
		"$roots" $sizes > "$tmp/run.log" 2>&1; then
		echo "check-mpich: $name P=$P: mpiexec failed:" >&2
		head -n 5 "$tmp/run.log" >&2
		fail=1
		return
	fi
	real_totals > "$tmp/real"
	model_totals "$alg" "$P" "$roots" "$place" > "$tmp/model"
	# shellcheck disable=SC2086
	ncase=$((ncase + $(echo $sizes | wc -w) * $(echo "$roots" | tr , ' ' |
		wc -w)))
	if ! cmp -s "$tmp/real" "$tmp/model"; then
		echo "check-mpich: $name P=$P roots $roots ($place): differ" \
			"(T case src dst messages bytes: per-pair totals;" \
			"S case src k dst bytes: src's k-th send;" \
			"< MPICH, > mcastlat):" >&2
		diff "$tmp/real" "$tmp/model" | grep '^[<>]' | sort -k 2 |
			head -n 12 >&2
		fail=1
	fi
}

none=MPIR_CVAR_DEVICE_COLLECTIVES=none
force=MPIR_CVAR_BCAST_INTRA_ALGORITHM
# One node; the second root is the last rank, or one inside (8, 12).
for P in 4 6 8 12; do
	case $P in
	8) roots=0,5 ;;
	12) roots=0,7 ;;
	*) roots=0,$((P - 1)) ;;
	esac
	for a in binomial scatter_recursive_doubling_allgather \
		scatter_ring_allgather smp; do
		run "forced $a" "$a" "$P" "$roots" "--ppn $P" "$none" "$force=$a"
	done
	run "default" mpich "$P" "$roots" "--ppn $P"
done

# Cliques: P K rr|blocks ROOT (ROOT not its node's first rank, but on
# 6 ranks in 6 cliques, a node each).  The sizes: alpha, beta and gamma
# on both sides of 12288 and 524288 (above that gamma's ring is the
# whole communicator's, checked above).
sizes="1 1000 12287 12288 100000 524288"
for c in "8 2 rr 5" "7 3 rr 4" "12 3 rr 7" "5 4 rr 4" "16 4 rr 6" \
	"6 6 rr 3" "8 2 blocks 5" "12 3 blocks 5" "7 2 blocks 6" \
	"16 4 blocks 13"; do
	# shellcheck disable=SC2086 # split the case
	set -- $c
	P=$1 k=$2 R=$4 ppn=$(((P + k - 1) / k))
	if [ "$3" = rr ]; then
		place="--map-by node --nodes $k --ppn $ppn"
		by=MPIR_CVAR_CLIQUES_BY_BLOCK=0
	else
		place="--ppn $ppn"
		by=MPIR_CVAR_CLIQUES_BY_BLOCK=1
	fi
	cl=MPIR_CVAR_NUM_CLIQUES=$k
	run "$k cliques ($3) default" mpich "$P" "0,$R" "$place" "$cl" "$by"
	run "$k cliques ($3) forced smp" smp "$P" "0,$R" "$place" "$cl" "$by" \
		"$none" "$force=smp"
done
sizes="1 3 1000 12287 12288 12289 100000 524288 524289"

# A tuning file from best --rules over these P and sizes, obeyed on the
# whole communicator (the ch4 level bypassed).
# shellcheck disable=SC2086
list=$(echo $sizes | tr ' ' ',')
for P in 6 8; do
	if ! "$bin" collective --library mpich --algorithm best --ranks "$P" \
		--msg "$list" --ppn "$P" --rules "$tmp/tuning.json" > /dev/null; then
		echo "check-mpich: best --rules failed" >&2
		fail=1
		continue
	fi
	run "tuning file" best "$P" 0 "--ppn $P" "$none" \
		"MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=$tmp/tuning.json"
done

if [ "$fail" = 0 ]; then
	echo "check-mpich: $ncase cases equal to MPICH's messages"
fi
exit "$fail"
