#!/bin/sh
# check-ompi-han.sh MCASTLAT BUILDDIR - collective --algorithm han against
# the real Open MPI's coll/han (4.1.4: --mca coll_han_priority 100) on
# fake nodes (issue 47, notes/ompi_han.md): the messages each rank sends
# inside MPI_Bcast, recorded by pml monitoring per sender and peer, must
# be those of `collective --schedule`, pair by pair.  Exit 77 (skipped,
# one line) without Open MPI, its han or monitoring component, or
# without `unshare --uts` (root or a user namespace).
#
# Fake nodes.  han takes a broadcast only on ranks of several nodes, and
# Open MPI takes a rank's node from the hostname of the daemon that
# started it: a hostfile names this host and made-up ones (n2, n3, ...),
# and the rsh agent mpirun starts their daemons with is a script that
# runs each in a UTS namespace of its own with that hostname (unshare
# --uts).  The fake nodes share everything else: their ranks talk over
# btl tcp on the loopback interface.
#
# han's setup.  The first han collective on a communicator sets up its
# sub-communicators (an allreduce of the local peers, splits, an
# allgather of virtual ranks), messages the model does not send.  Every
# run here first broadcasts one byte from rank 0 (bcast_cases --warmup),
# and so does the baseline run (--baseline --warmup: no other
# broadcast); the run less the baseline is the broadcasts alone.
set -u
bin=${1:-./mcastlat}
build=${2:-build/mpi/ompi-han}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
here=$(cd "$(dirname "$0")" && pwd)

# shellcheck source=tests/mpi/ompi_setup.sh
. "$here/ompi_setup.sh"
skip() { ompi_skip "$@"; }
ompi_setup check-ompi-han
ompi_info 2>/dev/null | grep -q 'MCA coll: han' ||
	skip "Open MPI has no coll/han component"
unshare --uts sh -c 'hostname mcastlat-probe' >/dev/null 2>&1 ||
	skip "unshare --uts fails (needs root or user namespaces): no fake nodes"

# The rsh agent: argument 1 is the node, the rest the daemon's command.
cat > "$tmp/fakessh" <<'AGENT'
#!/bin/sh
host=$1
shift
exec unshare --uts sh -c "hostname $host && exec $*"
AGENT
chmod +x "$tmp/fakessh"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
pass=0 fail=0
bad() {
	fail=$((fail + 1))
	printf 'FAIL: %s\n' "$*"
}

# hosts SLOTS...: a hostfile, this host first with the first count.
hosts() {
	: > "$tmp/hosts"
	n=1
	for s in "$@"; do
		if [ "$n" = 1 ]; then
			echo "$(hostname) slots=$s" >> "$tmp/hosts"
		else
			echo "n$n slots=$s" >> "$tmp/hosts"
		fi
		n=$((n + 1))
	done
}

# monitored OUT P [MPIRUN ARGS --] PROGRAM ARGS: the record as lines
# "src dst bytes messages", sorted.
monitored() {
	mon_out=$1 mon_np=$2
	shift 2
	mon_map=
	if [ "$1" = --map-by ]; then
		mon_map="--map-by $2"
		shift 2
	fi
	rm -f "$tmp"/prof.*.prof
	# shellcheck disable=SC2086 # $mon_map is two words or none
	"$MPIRUN" --hostfile "$tmp/hosts" -np "$mon_np" $mon_map \
		--mca plm_rsh_agent "$tmp/fakessh" \
		--mca btl self,vader,tcp --mca btl_tcp_if_include lo \
		--mca oob_tcp_if_include lo \
		--mca coll_han_priority 100 \
		--mca pml_monitoring_enable 2 \
		--mca pml_monitoring_enable_output 3 \
		--mca pml_monitoring_filename "$tmp/prof" \
		"$prog" "$@" >"$tmp/mpirun.log" 2>&1 ||
		{ cat "$tmp/mpirun.log"; return 1; }
	cat "$tmp"/prof.*.prof | awk -F'\t' '$1 == "I" {
		split($4, b, " "); split($5, m, " ")
		print $2, $3, b[1], m[1] }' | sort -k1,1n -k2,2n > "$mon_out"
}

less() {
	awk 'NR == FNR { b[$1 " " $2] = $3; m[$1 " " $2] = $4; next }
	{ k = $1 " " $2; $3 -= b[k]; $4 -= m[k]; if ($3 || $4) print }' \
		"$2" "$1" | sort -k1,1n -k2,2n
}

# check NAME "SLOTS..." P ROOTS SIZES MODEL-OPTIONS [--map-by node]: on
# the fake nodes of SLOTS, one baseline, then a run per root, each
# against the sum of the model's schedules over SIZES.
check() {
	name=$1 slots=$2 np=$3 roots=$4 sizes=$5 opts=$6
	shift 6
	# shellcheck disable=SC2086 # the slot counts are words
	hosts $slots
	monitored "$tmp/base" "$np" "$@" --baseline --warmup "$np" 1 ||
		{ bad "$name: baseline run failed"; return; }
	for r in $(echo "$roots" | tr ',' ' '); do
		monitored "$tmp/run" "$np" "$@" --warmup --root "$r" "$np" \
			"$sizes" || { bad "$name root $r: mpirun failed"; continue; }
		less "$tmp/run" "$tmp/base" > "$tmp/got"
		: > "$tmp/pairs"
		for m in $(echo "$sizes" | tr ',' ' '); do
			# shellcheck disable=SC2086 # the options are words
			"$bin" collective --algorithm han --ranks "$np" --msg "$m" \
				--root "$r" $opts --schedule --format csv \
				> "$tmp/sched" || { bad "$name: model failed"; continue 2; }
			awk -F, '$1 ~ /^[0-9]+$/ { print $1, $2, $4 }' \
				"$tmp/sched" >> "$tmp/pairs"
		done
		awk '{ k = $1 " " $2; b[k] += $3; m[k]++ }
		END { for (k in b) print k, b[k], m[k] }' "$tmp/pairs" |
			sort -k1,1n -k2,2n > "$tmp/want"
		if cmp -s "$tmp/got" "$tmp/want"; then
			pass=$((pass + 1))
		else
			bad "$name root $r: M=$sizes: Open MPI's messages differ"
			echo "  src dst bytes messages: Open MPI / --schedule"
			diff "$tmp/got" "$tmp/want" | sed -n 's/^[<>]/  &/p' |
				head -n 20
		fi
	done
}

# Eight layouts, a baseline and one or two roots each (about 2 s a run
# on an idle machine).  Sizes: one segment, the fixed decision's thresholds inside han (P = 2
# and 4 across, 2 to 4 a node), a 64 KiB segment exactly, two to four
# segments (the last short).
S=1,100,2048,65536,65537,200000
check 2x2 "2 2" 4 0,3 "$S" "--ppn 2"
check 2x4 "4 4" 8 6 "$S" "--ppn 4"
check 4x2 "2 2 2 2" 8 0,5 "$S" "--ppn 2"
check 3x2 "2 2 2" 6 3 "$S" "--ppn 2"
# Uneven (3 + 2) and one rank a node: han hands over to tuned.
check 3+2 "3 2" 5 4 1,100,200000 "--ppn 3"
check 4x1 "1 1 1 1" 4 2 1,100,200000 "--ppn 1"
# --map-by node: node 0 holds ranks 0, 2, 4, node 1 ranks 1, 3, 5.
check map-by-node "3 3" 6 3 "$S" "--ppn 3 --nodes 2 --map-by node" \
	--map-by node
# libnbc's binomial (more than 4 nodes), its root swapped with 0.
check 5x2 "2 2 2 2 2" 10 7 100,200000 "--ppn 2"

echo "check-ompi-han: $pass runs passed, $fail failed"
[ "$fail" -eq 0 ]
