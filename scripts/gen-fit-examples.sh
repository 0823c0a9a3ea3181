#!/bin/sh
# gen-fit-examples.sh - write the synthetic benchmark files of examples/
# that the worked example of mcastlat-fit(1) fits:
#
#   osu_latency.out     OSU 7.4 osu_latency layout, sizes 0, 1, 2, 4 .. 1 MiB
#   osu_bcast_4.out     OSU 7.4 osu_bcast -f layout (Size, Avg, Min, Max,
#   osu_bcast_8.out     Iterations), sizes 1 .. 1 MiB, on 4, 8, 16
#   osu_bcast_16.out    processes (OSU does not print the count: give it as
#                       FILE:nodes=P)
#   imb_bcast.out       IMB-MPI1 output: PingPong, then Bcast at #processes
#                       2, 4, 8, 16, 32, 64, sizes 0, 1, 2 .. 1 MiB
#
#   scripts/gen-fit-examples.sh [DIR]      (default: examples/ of the tree)
#
# Run by hand after a change of the cluster model or of this script, not
# by make check; the files are committed.  Every value is the repository's
# own `mcastlat cluster` (p2p for ping-pong, bcast --nodes P for the
# broadcasts) at the parameters below, times lognormal noise exp(0.02 z),
# z standard normal by Box-Muller on a Park-Miller generator (16807 x mod
# 2^31 - 1, exact in awk's doubles, so every awk gives the same digits)
# seeded with SEED + the file's number.  OSU -f: Max is the noisy value,
# Avg = 0.8 Max and Min = 0.6 Max (the root returns early); IMB Bcast:
# t_max is the noisy value, t_avg = 0.85 t_max, t_min = 0.6 t_max;
# PingPong t is the noisy p2p value.  Two decimals, as the tools print.
# Each file ends in '#' lines saying that it is synthetic and how it was
# made.  MCASTLAT names the binary (see common.sh).
set -eu

here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"
ml_need awk mawk
out=${1:-$here/../examples}
[ -d "$out" ] || ml_die "$out: not a directory"

params="--mtu 1500 --os-fixed 2 --or-fixed 3 --ur 1 --latency-fixed 5"
params="$params --latency-per-byte 0.0008 --gs-fixed 1 --gs-per-byte 0.0008"
params="$params --gr-fixed 1 --gr-per-byte 0.0008 --ctm-per-byte 0.0002"
SEED=20261125
sigma=0.02

# shellcheck disable=SC2154 # mcastlat is set by common.sh
# model OP NODES SIZES: "msg latency" lines of the cluster model.
model() {
	# shellcheck disable=SC2086
	"$mcastlat" cluster $params --op "$1" --nodes "$2" --msg "$3" \
		--format csv --no-header --columns msg,latency | tr ',' ' '
}

# The awk functions of the noise: rnd() uniform in (0, 1), noisy(x).
noise_awk='
function rnd() { s = (16807 * s) % 2147483647; return s / 2147483647 }
function noisy(x,   u1, u2) {
	u1 = rnd(); u2 = rnd()
	return x * exp(sigma * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2))
}'

# trailer COMMAND SEED: the '#' lines that end every file.
trailer() {
	cat <<EOF
# Synthetic data, not a measurement: made by scripts/gen-fit-examples.sh
# from the cluster model, $1
# with $params;
# each value times exp($sigma z), z standard normal (Box-Muller on a
# Park-Miller generator, seed $2).
EOF
}

osu_latency() {
	f=$out/osu_latency.out
	sizes='0,1:1048576:*2'
	{
		printf '\n# OSU MPI Latency Test v7.4\n# Datatype: MPI_CHAR.\n'
		printf '%-10s%18s\n' '# Size' 'Avg Latency(us)'
		model p2p 2 "$sizes" | awk -v s=$((SEED + 1)) -v sigma=$sigma \
			"$noise_awk"'
			{ printf "%-10d%18.2f\n", $1, noisy($2) }'
		trailer "mcastlat cluster --op p2p --msg $sizes" $((SEED + 1))
	} > "$f"
}

# osu_bcast P K: the osu_bcast -f file of P processes, seed SEED + K.
osu_bcast() {
	f=$out/osu_bcast_$1.out
	sizes='1:1048576:*2'
	{
		printf '\n# OSU MPI Broadcast Latency Test v7.4\n'
		printf '# Datatype: MPI_CHAR.\n'
		printf '%-10s%18s%18s%18s%12s\n' '# Size' 'Avg Latency(us)' \
			'Min Latency(us)' 'Max Latency(us)' Iterations
		model bcast "$1" "$sizes" | awk -v s=$((SEED + $2)) \
			-v sigma=$sigma "$noise_awk"'
			{
				mx = noisy($2)
				it = $1 > 8192 ? 100 : 1000
				printf "%-10d%18.2f%18.2f%18.2f%12d\n", $1,
					0.8 * mx, 0.6 * mx, mx, it
			}'
		trailer "mcastlat cluster --op bcast --nodes $1 --msg $sizes" \
			$((SEED + $2))
	} > "$f"
}

# rule N: IMB's underline of a table of N columns of 13.
rule() {
	awk -v n="$1" 'BEGIN { s = "#"; for (i = 1; i < 13 * n; i++) s = s "-"; print s }'
}

# imb_table NAME P SEED: one IMB-MPI1 table of a job of 64 processes.
imb_table() {
	sizes='0,1:1048576:*2'
	if [ "$1" = PingPong ]; then ncol=4; op=p2p; else ncol=5; op=bcast; fi
	echo
	rule $ncol
	printf '# Benchmarking %s \n# #processes = %d \n' "$1" "$2"
	[ "$2" -ge 64 ] || printf '# ( %d additional processes waiting in MPI_Barrier)\n' $((64 - $2))
	rule $ncol
	if [ "$1" = PingPong ]; then
		printf '%13s%13s%13s%13s\n' '#bytes' '#repetitions' 't[usec]' \
			'Mbytes/sec'
	else
		printf '%13s%13s%13s%13s%13s\n' '#bytes' '#repetitions' \
			't_min[usec]' 't_max[usec]' 't_avg[usec]'
	fi
	# IMB runs min(1000, 40 MiB / size) repetitions.
	model $op "$2" "$sizes" | awk -v s="$3" -v sigma=$sigma -v op=$op \
		"$noise_awk"'
		{
			rep = 1000
			if ($1 > 0 && int(41943040 / $1) < rep)
				rep = int(41943040 / $1)
			t = noisy($2)
			if (op == "p2p")
				printf "%13d%13d%13.2f%13.2f\n", $1, rep, t,
					$1 / (t * 1.048576)
			else
				printf "%13d%13d%13.2f%13.2f%13.2f\n", $1, rep,
					0.6 * t, t, 0.85 * t
		}'
}

imb() {
	f=$out/imb_bcast.out
	{
		rule 5
		echo '#    Intel(R) MPI Benchmarks 2021.3, MPI-1 part'
		rule 5
		echo '# Date                  : (synthetic, see the end of this file)'
		echo '# Machine               : x86_64'
		echo '# System                : Linux'
		echo '# MPI Version           : 3.1'
		echo '# MPI Thread Environment: '
		printf '\n\n# Calling sequence was: \n\n'
		echo '# ./IMB-MPI1 -msglog 20 -npmin 2 PingPong Bcast'
		printf '\n# Minimum message length in bytes:   0\n'
		echo '# Maximum message length in bytes:   1048576'
		echo '#'
		echo '# MPI_Datatype                   :   MPI_BYTE '
		echo '# MPI_Datatype for reductions    :   MPI_FLOAT'
		echo '# MPI_Op                         :   MPI_SUM  '
		echo '#'
		echo '#'
		printf '\n# List of Benchmarks to run:\n\n# PingPong\n# Bcast\n'
		imb_table PingPong 2 $((SEED + 20))
		k=21
		for p in 2 4 8 16 32 64; do
			imb_table Bcast $p $((SEED + k))
			k=$((k + 1))
		done
		printf '\n\n# All processes entering MPI_Finalize\n\n'
		trailer "mcastlat cluster --op p2p (PingPong) and --op bcast --nodes P (Bcast, P = 2 .. 64) --msg 0,1:1048576:*2" \
			"$((SEED + 20)) (PingPong), $((SEED + 21)) .. $((SEED + 26)) (Bcast)"
	} > "$f"
}

osu_latency
osu_bcast 4 4
osu_bcast 8 8
osu_bcast 16 16
imb
