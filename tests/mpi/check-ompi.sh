#!/bin/sh
# check-ompi.sh MCASTLAT BUILDDIR - collective --schedule against the real
# Open MPI (SPEC 10.6): the messages each rank sends inside MPI_Bcast, as
# Open MPI's pml monitoring component records them (per sender and peer:
# bytes and messages), must be the messages of `collective --schedule`,
# pair by pair.  Exit 77 (skipped, one line) without Open MPI.
#
# Each run of tests/mpi/bcast_cases.c (see there why) puts groups of P =
# 2, 3, 5, 8, 13 ranks side by side in one MPI_COMM_WORLD and broadcasts a
# list of sizes in every group, under one setting of coll/tuned's MCA
# parameters (a forced algorithm with its segment size, chain fan-out and
# knomial radix; none, for the fixed decision; a rules file).  The record,
# less a baseline run without broadcasts, is compared per pair of world
# ranks with the sum of `collective --schedule` over the same groups and
# sizes.  When a run differs, every (P, M) of it is run alone to name the
# case.  The sizes sit on both sides of each threshold where Open MPI's
# code changes what it sends.
set -u
bin=${1:-./mcastlat}
build=${2:-build/mpi/ompi}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
here=$(cd "$(dirname "$0")" && pwd)

# shellcheck source=tests/mpi/ompi_setup.sh
. "$here/ompi_setup.sh"
skip() { ompi_skip "$@"; }
ompi_setup check-ompi

# Oversubscribed, as root in a container too; no network (sm and self).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
# ompi_root: the root of every group's broadcasts, R mod P (empty: 0).
ompi_root=
# CHECK_OMPI_ONLY: a shell pattern, only the runs whose name matches.
only=${CHECK_OMPI_ONLY:-*}
pass=0 fail=0
bad() {
	fail=$((fail + 1))
	printf 'FAIL: %s\n' "$*"
}

# monitored OUT GROUPS SIZES [--baseline] [MCA ARGS...]: the run's record
# as lines "src dst bytes messages", sorted; nonzero when the run fails.
monitored() {
	mon_out=$1 mon_groups=$2 mon_sizes=$3
	shift 3
	mon_base=
	if [ "${1:-}" = --baseline ]; then
		mon_base=--baseline
		shift
	fi
	mon_np=$(echo "$mon_groups" | tr ',' '\n' | awk '{ s += $1 } END { print s }')
	mon_root=
	[ -n "$mon_base" ] || [ -z "$ompi_root" ] || mon_root="--root $ompi_root"
	rm -f "$tmp"/prof.*.prof
	# shellcheck disable=SC2086 # $mon_root is two words or none
	"$MPIRUN" --oversubscribe -np "$mon_np" \
		--mca pml_monitoring_enable 2 \
		--mca pml_monitoring_enable_output 3 \
		--mca pml_monitoring_filename "$tmp/prof" \
		--mca coll_tuned_use_dynamic_rules 1 "$@" \
		"$prog" $mon_base $mon_root "$mon_groups" "$mon_sizes" \
		>"$tmp/mpirun.log" 2>&1 ||
		{ cat "$tmp/mpirun.log"; return 1; }
	# "I<tab>src<tab>dst<tab>N bytes<tab>K msgs sent...": internal tags,
	# which are the collectives'; the test sends nothing else.
	cat "$tmp"/prof.*.prof | awk -F'\t' '$1 == "I" {
		split($4, b, " "); split($5, m, " ")
		print $2, $3, b[1], m[1] }' | sort -k1,1n -k2,2n > "$mon_out"
}

# baseline GROUPS: the record of making the groups, once per group list.
baseline() {
	f=$tmp/base.$1
	[ -e "$f" ] || monitored "$f" "$1" 1 --baseline || return 1
	echo "$f"
}

# less RUN BASE: RUN's record less BASE's, pairs with nothing left out.
less() {
	awk 'NR == FNR { b[$1 " " $2] = $3; m[$1 " " $2] = $4; next }
	{ k = $1 " " $2; $3 -= b[k]; $4 -= m[k]; if ($3 || $4) print }' \
		"$2" "$1" | sort -k1,1n -k2,2n
}

# expected OUT GROUPS SIZES RULESHOW: the sum of collective --schedule over
# the groups (each group's ranks shifted by its first world rank) and
# sizes; RULESHOW is a command that prints the model's options for P M.
expected() {
	exp_out=$1 exp_groups=$2 exp_sizes=$3 exp_how=$4
	exp_first=0
	: > "$tmp/pairs"
	for p in $(echo "$exp_groups" | tr ',' ' '); do
		for m in $(echo "$exp_sizes" | tr ',' ' '); do
			exp_opts=$($exp_how "$p" "$m")
			[ -z "$ompi_root" ] ||
				exp_opts="$exp_opts --root $((ompi_root % p))"
			# shellcheck disable=SC2086 # the options are words
			"$bin" collective --ranks "$p" --msg "$m" --schedule \
				--format csv $exp_opts > "$tmp/sched" ||
				{ echo "model failed: P=$p M=$m $exp_opts"; return 1; }
			awk -F, -v o="$exp_first" '$1 ~ /^[0-9]+$/ {
				print $1 + o, $2 + o, $4 }' "$tmp/sched" >> "$tmp/pairs"
		done
		exp_first=$((exp_first + p))
	done
	awk '{ k = $1 " " $2; b[k] += $3; m[k]++ }
	END { for (k in b) print k, b[k], m[k] }' "$tmp/pairs" |
		sort -k1,1n -k2,2n > "$exp_out"
}

# compare NAME GROUPS SIZES HOW [MCA ARGS...]: one run against the model;
# on a difference, each (P, M) alone.
compare() {
	cmp_name=$1 cmp_groups=$2 cmp_sizes=$3 cmp_how=$4
	shift 4
	case $cmp_name in $only) ;; *) return ;; esac
	cmp_base=$(baseline "$cmp_groups") || { bad "$cmp_name: baseline run failed"; return; }
	monitored "$tmp/run" "$cmp_groups" "$cmp_sizes" "$@" ||
		{ bad "$cmp_name: mpirun failed"; return; }
	less "$tmp/run" "$cmp_base" > "$tmp/got"
	expected "$tmp/want" "$cmp_groups" "$cmp_sizes" "$cmp_how" ||
		{ bad "$cmp_name: the model failed"; return; }
	if cmp -s "$tmp/got" "$tmp/want"; then
		pass=$((pass + 1))
		return
	fi
	bad "$cmp_name: P=$cmp_groups M=$cmp_sizes: Open MPI's messages differ"
	[ -n "${CHECK_OMPI_DEBUG:-}" ] && diff "$tmp/got" "$tmp/want" | head -n 20
	[ "$cmp_groups,$cmp_sizes" = "${cmp_groups%%,*},${cmp_sizes%%,*}" ] && {
		echo "  src dst bytes messages: Open MPI / --schedule"
		diff "$tmp/got" "$tmp/want" | sed -n 's/^[<>]/  &/p' | head -n 20
		return
	}
	for p in $(echo "$cmp_groups" | tr ',' ' '); do
		for m in $(echo "$cmp_sizes" | tr ',' ' '); do
			compare "$cmp_name" "$p" "$m" "$cmp_how" "$@"
		done
	done
}

# The model's options for a forced run: how_forced sets them.
forced_opts=
forced() { echo "$forced_opts"; }

# check_forced NAME ALG SEG FANOUT RADIX SIZES [GROUPS]
check_forced() {
	forced_opts="--algorithm $2 --segment $3 --fanout $4 --radix $5"
	compare "$1" "${7:-2,3,5,8,13}" "$6" forced \
		--mca coll_tuned_bcast_algorithm "$2" \
		--mca coll_tuned_bcast_algorithm_segmentsize "$3" \
		--mca coll_tuned_bcast_algorithm_chain_fanout "$4" \
		--mca coll_tuned_bcast_algorithm_knomial_radix "$5"
}

G=2,3,5,8,13
# 1 linear: no segments.
check_forced linear 1 0 4 4 1,100,100000
check_forced linear-seg 1 1000 4 4 5000
# 2 chain: fan-outs 1, 2, 3, 4 (default), 32 (capped at P-1 and 32);
# segment counts that do and do not divide.
check_forced chain 2 0 4 4 7,100000
check_forced chain-f3-8k 2 8192 3 4 100000,16384
check_forced chain-f1 2 1000 1 4 2500
check_forced chain-f2 2 3 2 4 10
check_forced chain-f32 2 4096 32 4 4096,4097
# 3 pipeline.
check_forced pipeline 3 0 4 4 1,100000
check_forced pipeline-8k 3 8192 4 4 8191,8192,8193,100000
check_forced pipeline-1k 3 1000 4 4 2999,3000
# 4 split-binary: counts below 2, segments larger than a half (the
# pipeline runs), odd counts, a segment equal to a half.
check_forced split-binary 4 0 4 4 1,2,3,7,100000
check_forced split-binary-8k 4 8192 4 4 16000,16383,16384,16385,100000
check_forced split-binary-1k 4 1000 4 4 1999,2000,2001,3001
check_forced split-binary-1 4 1 4 4 1,2,5
# 5 binary, 6 binomial.
check_forced binary 5 0 4 4 1,100000
check_forced binary-8k 5 8192 4 4 8193,100000
check_forced binary-3 5 3 4 4 10
check_forced binomial 6 0 4 4 1,100000
check_forced binomial-8k 6 8192 4 4 8193,100000
check_forced binomial-1k 6 1000 4 4 2500
# 7 knomial: radix 2, 3, 4 (default), 5, 16.
check_forced knomial 7 0 4 4 1,100000
check_forced knomial-r2 7 0 4 2 7
check_forced knomial-r3-8k 7 8192 4 3 100000
check_forced knomial-r5 7 1000 4 5 2500
check_forced knomial-r16 7 0 4 16 7
# 8, 9 scatter-allgather: counts below P run linear; counts that leave
# the last blocks short or empty (P+1, 2P-1).
check_forced scatter-allgather 8 0 4 4 1,4,7,12,13,14,25,100,100001
check_forced scatter-allgather-seg 8 1000 4 4 2500
check_forced scatter-allgather-ring 9 0 4 4 1,4,7,12,13,14,25,100,100001

# Open MPI's fixed decision (no algorithm forced): sizes on both sides of
# every threshold of its table for P < 4, 4-7, 8-15, 16-31, 32-63; and
# below for 64-127 and 128-255.
ompi_opts=
how_ompi() { echo "--algorithm ompi $ompi_opts"; }
S1=1,7,8,31,32,63,64,127,128,255,256,511,512,1023,1024,2047,2048
S2=4095,4096,8191,8192,16383,16384,32767,32768,131071,131072,262143
S3=262144,524287,524288,1048575,1048576
compare ompi-small "$G" "$S1" how_ompi
compare ompi-medium "$G" "$S2" how_ompi
compare ompi-large "$G" "$S3" how_ompi
compare ompi-16-32 17 1,4095,4096,1048575,1048576 how_ompi
compare ompi-32-64 33 2047,2048 how_ompi
# P = 64 to 255 (issue 46: EPYC's two nodes): the decision's bounds
# there, one group at a time.
compare ompi-64-128 66 1,2,2047,2048,8191,8192,65536 how_ompi
compare ompi-128-256 130 1,2,8,2047,2048,8191,8192,16383,16384,65536 how_ompi
# The radix reaches the knomial the fixed decision picks.
ompi_opts="--radix 3"
compare ompi-radix3 "$G" 1,7,512,1023 how_ompi \
	--mca coll_tuned_bcast_algorithm_knomial_radix 3
ompi_opts=

# Roots other than 0 (issue 47): R = 7 is root 1, 1, 2, 7, 7 of the
# groups of 2, 3, 5, 8, 13.  The trees rotate by the root (virtual
# ranks), linear sends in rank order, scatter-allgather and the ring
# rotate their blocks; the fixed decision as any algorithm.
ompi_root=7
check_forced root-linear 1 0 4 4 1,100000
check_forced root-chain 2 1000 3 4 2500
check_forced root-pipeline 3 1000 4 4 2500
check_forced root-split-binary 4 1000 4 4 1,3,2001,3001
check_forced root-binary 5 1000 4 4 2500
check_forced root-binomial 6 1000 4 4 1,2500
check_forced root-knomial 7 0 4 3 1,100000
check_forced root-scatter-allgather 8 0 4 4 1,7,13,14,100,100001
check_forced root-scatter-allgather-ring 9 0 4 4 7,13,100,100001
compare root-ompi "$G" 1,100,2048,16384,262144,1048576 how_ompi
ompi_root=

# Rules files.  rule P M FILE: the (algorithm, topo, segment) Open MPI
# takes from FILE for communicator size P and message size M, read as
# coll_tuned_dynamic_file.c reads it (integers; '#' to the end of the
# line; the version-1 layout) and matched as coll_tuned_dynamic_rules.c
# matches (the last communicator rule with size <= P, the first when
# none is; the last message rule with size <= M).
rule() {
	awk -v P="$1" -v M="$2" '
	{ sub(/#.*/, ""); gsub(/[^0-9]+/, " ")
	  n = split($0, f, " "); for (i = 1; i <= n; i++) t[++nt] = f[i] + 0 }
	END {
		k = 1; ncoll = t[k++]
		for (c = 1; c <= ncoll; c++) {
			id = t[k++]; ncs = t[k++]
			for (s = 1; s <= ncs; s++) {
				cs = t[k++]; nms = t[k++]
				if (id == 7 && (s == 1 || cs <= P)) pick = 1
				else pick = 0
				for (m = 1; m <= nms; m++) {
					ms = t[k++]; a = t[k++]; tp = t[k++]; sg = t[k++]
					if (pick && (m == 1 || ms <= M)) r = a " " tp " " sg
				}
			}
		}
		print r
	}' "$3"
}

# how_rules P M: the model's options for the rule of $rules_file; an
# algorithm 0 is the forced algorithm of the run ($rules_forced: "ALG SEG
# FANOUT"), or the fixed decision when none is forced
# (coll_tuned_decision_dynamic.c, ompi_coll_tuned_bcast_intra_dec_dynamic).
rules_file= rules_forced=
how_rules() {
	set -- $(rule "$1" "$2" "$rules_file")
	if [ "$1" != 0 ]; then
		echo "--algorithm $1 --fanout $2 --segment $3"
	elif [ -n "$rules_forced" ]; then
		set -- $rules_forced
		echo "--algorithm $1 --segment $2 --fanout $3"
	else
		echo "--algorithm ompi"
	fi
}

check_rules() {
	name=$1 sizes=$2
	shift 2
	if ! grep -q '[0-9]' "$rules_file"; then
		bad "$name: empty rules file"
		return
	fi
	compare "$name" "$G" "$sizes" how_rules \
		--mca coll_tuned_dynamic_rules_filename "$rules_file" "$@"
}

# A rules file written by best --rules, on a machine of 4-core nodes with
# 2 sockets, and the sizes around each of its message rules.
rules_file=$tmp/best.rules
"$bin" collective --algorithm best --ranks 2,3,5,8,13 --msg 1:1MiB:*8 \
	--ppn 4 --sockets 2 --rules "$rules_file" > /dev/null ||
	bad "collective --rules failed"
sizes=$(awk '{ sub(/#.*/, "") } NF >= 4 && $1 > 0 { print $1 - 1; print $1 }' \
	"$rules_file" | sort -n -u | head -n 24 | tr '\n' ',' | sed 's/,$//')
check_rules best-rules "1,${sizes:-100},1048576"

# A rules file written here, with algorithm-0 lines (Open MPI's own
# decision), a chain whose topo is its fan-out, segment sizes, and a
# first communicator rule larger than P = 2 (which Open MPI still uses).
rules_file=$tmp/hand.rules
cat > "$rules_file" <<'RULES'
1             # one collective
7             # MPI_Bcast
2             # two communicator sizes
3             # P < 8 (and P = 2: the first rule when none is <= P)
4
0     0 0 0   # algorithm 0: the fixed decision
100   2 3 1000
5000  4 0 4096
70000 6 0 8192
8             # P >= 8
3
0     5 0 0
64    0 0 0
40000 9 0 0
RULES
check_rules hand-rules 1,99,100,2500,4999,5000,69999,70000,100000
# Algorithm 0 under a forced algorithm: the forced one runs.
rules_forced="7 1000 4"
check_rules hand-rules-forced 1,99,64,2500,40000 \
	--mca coll_tuned_bcast_algorithm 7 \
	--mca coll_tuned_bcast_algorithm_segmentsize 1000
rules_forced=

echo "check-ompi: $pass runs passed, $fail failed"
[ "$fail" -eq 0 ]
