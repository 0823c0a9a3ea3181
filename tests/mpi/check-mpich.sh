#!/bin/sh
# check-mpich.sh [BINARY] - collective --library mpich against the real
# MPICH 4.0.2 (SPEC 11; notes/mpich_bcast.md, "Observing MPICH").
#
# tests/mpi/mpich/bcast_trace.c is linked statically against libmpich.a
# with ld --wrap on MPIC_Send, MPIC_Sendrecv and the four MPIR broadcast
# algorithms, and records every message each rank sends inside MPI_Bcast.
# For each case the per-pair totals (messages and bytes from each rank to
# each rank) must equal those of `mcastlat collective --schedule` on one
# node (--ppn P): every forced algorithm (MPIR_CVAR_BCAST_INTRA_ALGORITHM
# with MPIR_CVAR_DEVICE_COLLECTIVES=none, so that it runs on
# MPI_COMM_WORLD), MPICH's default (ch4 compositions, no CVAR), and a
# tuning file from `best --rules`, at P that are and are not powers of
# two, below and above 8, with sizes on both sides of 12288 and 524288
# and counts below P.  Ranks are oversubscribed on this machine: the
# messages are checked, not the times.
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

# The real MPICH's totals: "CASE SRC DST COUNT BYTES" sorted.
real_totals() {
	cat "$tmp"/out.* | awk '
		$1 == "C" { c = $2 }
		$1 == "M" { k = c " " $2 " " $3; n[k]++; b[k] += $4 }
		END { for (k in n) print k, n[k], b[k] }' | sort
}

# The model's: $1 algorithm, $2 P, then the sizes (case = index).
model_totals() {
	alg=$1 P=$2
	shift 2
	i=0
	for m in "$@"; do
		"$bin" collective --library mpich --algorithm "$alg" --ranks "$P" \
			--msg "$m" --ppn "$P" --schedule --format csv |
			awk -F, -v c="$i" '
				NR > 2 { k = c " " $1 " " $2; n[k]++; b[k] += $4 }
				END { for (k in n) print k, n[k], b[k] }' ||
			echo "model failed: $alg P=$P msg=$m"
		i=$((i + 1))
	done | sort
}

# run NAME ALGORITHM P ENV... : one mpiexec over every size.
run() {
	name=$1 alg=$2 P=$3
	shift 3
	rm -f "$tmp"/out.*
	envs=
	for e in "$@"; do
		envs="$envs -genv ${e%%=*} ${e#*=}"
	done
	# shellcheck disable=SC2086 # $envs and $sizes are word lists
	if ! timeout 120 "$MPIEXEC" $envs -n "$P" "$tmp/trace" "$tmp/out" 0 \
		$sizes > "$tmp/run.log" 2>&1; then
		echo "check-mpich: $name P=$P: mpiexec failed:" >&2
		head -n 5 "$tmp/run.log" >&2
		fail=1
		return
	fi
	real_totals > "$tmp/real"
	# shellcheck disable=SC2086
	model_totals "$alg" "$P" $sizes > "$tmp/model"
	ncase=$((ncase + $(echo $sizes | wc -w)))
	if ! cmp -s "$tmp/real" "$tmp/model"; then
		echo "check-mpich: $name P=$P: per-pair totals differ" \
			"(case src dst messages bytes; < MPICH, > mcastlat):" >&2
		diff "$tmp/real" "$tmp/model" | grep '^[<>]' | head -n 10 >&2
		fail=1
	fi
}

none=MPIR_CVAR_DEVICE_COLLECTIVES=none
force=MPIR_CVAR_BCAST_INTRA_ALGORITHM
for P in 4 6 8 12; do
	for a in binomial scatter_recursive_doubling_allgather \
		scatter_ring_allgather smp; do
		run "forced $a" "$a" "$P" "$none" "$force=$a"
	done
	run "default" mpich "$P"
done

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
	run "tuning file" best "$P" "$none" \
		"MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=$tmp/tuning.json"
done

if [ "$fail" = 0 ]; then
	echo "check-mpich: $ncase cases equal to MPICH's messages"
fi
exit "$fail"
