#!/bin/sh
# crosscheck.sh - mcastlat collective against SimGrid 3.32's SMPI, an
# independent simulator: the same MPI_Bcast algorithms (SimGrid's own
# code of them) on a platform matching `mcastlat collective --ppn 1`
# (one rank per host, each host's private split-duplex link playing its
# NIC: platform.sh), with SimGrid's network model made exact (CM02,
# latency and bandwidth factors 1, no TCP gamma bound, no cross-traffic,
# no weight-S, SMPI overheads 0, no MPI_Wtime cost, computation not
# simulated, eager = async + detached up to 4096 bytes: mcastlat's
# --eager 4096; -e changes both).  A lone message then costs L + (m + 16) G in SimGrid
# (SMPI adds a 16-byte envelope) and L + m G in mcastlat (plus one more
# L above --eager, the rendezvous handshake, which SimGrid does not have).
#
#   scripts/simgrid/crosscheck.sh [-o FILE] [-p "P..."] [-m "M..."]
#                                 [-a "ALG..."] [-e BYTES]
#
#   -o FILE  also write the table as CSV to FILE
#   -p       process counts (default "2 4 8 16 32")
#   -m       message sizes, bytes (default "1 1024 65536 1048576")
#   -a       SimGrid algorithms (default "binomial_tree flattree
#            ompi_pipeline ompi_split_bintree ompi"), each compared with
#            mcastlat's binomial, linear, pipeline (--segment = the
#            segment SimGrid's ompi_pipeline picks at P, M: 128 KiB, or
#            16 KiB for P = 4..8), split-binary (--segment 1024 below
#            370728 bytes, else 8192, as SimGrid's) and ompi
#   -e       the eager limit of both (default 4096, mcastlat's --eager;
#            SimGrid's smpi/async-small-thresh and send-is-detached-thresh
#            are one more): -e 2147483646 makes every message eager in
#            both, which removes mcastlat's rendezvous handshake L and
#            leaves the bandwidth sharing as the one difference
#   -h       this text
#
# First prints the ping-pong check (2 hosts; SimGrid's half round trip
# against L + m G and L + (m + 16) G), then one row per point: SimGrid's
# max and mean over ranks of the time from a common start to each rank's
# return from MPI_Bcast (first iteration), mcastlat's latency and
# latency_avg, and the differences in percent.  Channel: mcastlat's
# defaults, L = 1.17666 us, G = 1.16555e-04 us/byte (--lat-net,
# --byte-net; override with L= and G= in the environment).  MCASTLAT names
# the binary (default: the tree's mcastlat, else mcastlat on PATH).
# Needs SimGrid (smpicc, smpirun: Debian apt-get install libsimgrid-dev);
# without it, says so and exits 2.  About a minute (runs under nice).
set -eu
here=${0%/*}
[ "$here" != "$0" ] || here=.
if [ -z "${MCASTLAT:-}" ] && [ -x "$here/../../mcastlat" ]; then
	MCASTLAT=$(cd "$here/../.." && pwd)/mcastlat
fi
# shellcheck source=scripts/common.sh
. "$here/../common.sh"
csv=
Ps="2 4 8 16 32"
Ms="1 1024 65536 1048576"
algs="binomial_tree flattree ompi_pipeline ompi_split_bintree ompi"
eager=4096
while [ $# -gt 0 ]; do
	case $1 in
	-o) [ $# -ge 2 ] || ml_bad_usage "-o needs a file"; csv=$2; shift ;;
	-p) [ $# -ge 2 ] || ml_bad_usage "-p needs a list"; Ps=$2; shift ;;
	-m) [ $# -ge 2 ] || ml_bad_usage "-m needs a list"; Ms=$2; shift ;;
	-a) [ $# -ge 2 ] || ml_bad_usage "-a needs a list"; algs=$2; shift ;;
	-e) [ $# -ge 2 ] && [ "$2" -ge 0 ] 2>/dev/null && [ "$2" -lt 2147483647 ] ||
		ml_bad_usage "-e needs a byte count below 2147483647"
	    eager=$2; shift ;;
	*) ml_bad_usage "unknown argument '$1'" ;;
	esac
	shift
done
for prog in smpicc smpirun; do
	command -v "$prog" >/dev/null 2>&1 ||
		ml_die "needs SimGrid 3.32 ($prog not found; Debian: apt-get install libsimgrid-dev); it is a reference, not a dependency of mcastlat"
done
L=${L:-1.17666}
G=${G:-1.16555e-04}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
smpicc -O2 -o "$tmp/bcast" "$here/bcast.c" 2>"$tmp/cc.err" ||
	{ cat "$tmp/cc.err" >&2; ml_die "smpicc failed"; }

# The exact network: every option's name as SimGrid 3.32 spells it.
cfg="--cfg=network/model:CM02 --cfg=network/latency-factor:1
--cfg=network/bandwidth-factor:1 --cfg=network/TCP-gamma:0
--cfg=network/crosstraffic:0 --cfg=network/weight-S:0
--cfg=smpi/os:0:0:0:0:0 --cfg=smpi/or:0:0:0:0:0 --cfg=smpi/ois:0:0:0:0:0
--cfg=smpi/host-speed:1Gf --cfg=smpi/simulate-computation:no
--cfg=smpi/wtime:0 --cfg=smpi/async-small-thresh:$((eager + 1))
--cfg=smpi/send-is-detached-thresh:$((eager + 1)) --cfg=surf/precision:1e-15
--cfg=maxmin/precision:1e-15 --log=root.thres:critical"

# sg P ALG ARGS...: run bcast under smpirun on P hosts (-no-privatize:
# bcast.c has no globals, and privatization crashes in some containers)
sg() {
	sg_p=$1 sg_alg=$2
	shift 2
	[ -f "$tmp/p$sg_p.xml" ] || {
		sh "$here/platform.sh" "$sg_p" "$L" "$G" > "$tmp/p$sg_p.xml"
		awk -v P="$sg_p" 'BEGIN { for (i = 0; i < P; i++) print "h" i }' \
			> "$tmp/h$sg_p"
	}
	# shellcheck disable=SC2086 # cfg: words
	nice smpirun -no-privatize -np "$sg_p" -platform "$tmp/p$sg_p.xml" \
		-hostfile "$tmp/h$sg_p" "$tmp/bcast" "$@" $cfg \
		--cfg=smpi/bcast:"$sg_alg" >"$tmp/sg.out" 2>"$tmp/sg.err" || return 1
	grep -v '^\[' "$tmp/sg.out"
}

echo "# ping-pong, 2 hosts: half round trip (us)"
printf '%9s %14s %14s %14s %12s\n' msg simgrid 'L+mG' 'L+(m+16)G' 'sg-(L+(m+16)G)'
for m in 1 1024 4096 4097 65536 1048576; do
	sg 2 default -p "$m" 1 > "$tmp/pp" ||
		{ cat "$tmp/sg.err" >&2; ml_die "smpirun failed"; }
	t=$(awk '{ print $2 }' "$tmp/pp")
	awk -v m="$m" -v t="$t" -v L="$L" -v G="$G" 'BEGIN {
		printf "%9d %14.9g %14.9g %14.9g %12.3g\n", m, t, L + m * G,
			L + (m + 16) * G, t - (L + (m + 16) * G) }'
done
echo "# mcastlat --op p2p at 4096 and 4097 bytes (one more L above --eager $eager):" \
	"$("$mcastlat" collective --op p2p --msg 4096,4097 --eager "$eager" --format csv \
	--no-header --columns latency | tr '\n' ' ')"
echo

# ml_alg ALG P M: mcastlat's algorithm and --segment for SimGrid's ALG
ml_alg() {
	case $1 in
	binomial_tree) echo "binomial 0" ;;
	flattree) echo "linear 0" ;;
	ompi) echo "ompi 0" ;;
	ompi_split_bintree) [ "$3" -lt 370728 ] && echo "split-binary 1024" ||
		echo "split-binary 8192" ;;
	ompi_pipeline)
		# bcast-ompi-pipeline.cpp: 128 KiB, unless the size test
		# (a P + b per segment size) picks 64 or 16 KiB
		awk -v P="$2" -v M="$3" 'BEGIN {
			s = 131072
			if (P < 1.6134e-6 * M + 2.1102) s = 131072
			else if (P < 2.3679e-6 * M + 1.1787) s = 65536
			else if (P < 3.2118e-6 * M + 8.7936) s = 16384
			print "pipeline", s }' ;;
	*) ml_die "no mcastlat counterpart for SimGrid's '$1'" ;;
	esac
}

hdr='sg_alg,ml_alg,segment,P,M,sg_max,ml_max,d_max_pct,sg_avg,ml_avg,d_avg_pct,ml_chosen,sg_iter2_same'
[ -z "$csv" ] || echo "$hdr" > "$csv"
printf '%-18s %-12s %6s %3s %8s %12s %12s %7s %12s %12s %7s %s\n' \
	simgrid mcastlat seg P M sg_max ml_max d% sg_avg ml_avg d% chosen
for a in $algs; do
	for P in $Ps; do
		for M in $Ms; do
			set -- $(ml_alg "$a" "$P" "$M")
			ma=$1 seg=$2
			# two iterations; if SimGrid aborts, the first alone
			sg "$P" "$a" "$M" 2 1 > "$tmp/sg" ||
				sg "$P" "$a" "$M" 1 1 > "$tmp/sg" ||
				echo "0 nan nan nan" > "$tmp/sg"
			"$mcastlat" collective --ppn 1 --algorithm "$ma" \
				--segment "$seg" --ranks "$P" --msg "$M" \
				--lat-net "$L" --byte-net "$G" --eager "$eager" --format csv \
				--no-header --columns latency,latency_avg,chosen \
				> "$tmp/ml"
			awk -v a="$a" -v ma="$ma" -v seg="$seg" -v P="$P" \
			    -v M="$M" -v csv="$csv" -F '[ ,]' '
			function d(x, y) { return x - y < 1e-9 * y && y - x < 1e-9 * y }
			NR == FNR { it[$1] = $0; mx[$1] = $2; av[$1] = $3; next }
			{ lm = $1; la = $2; ch = $3 }
			END {
				same = "?"
				if (it[0] != "" && it[1] != "")
					same = (d(mx[0], mx[1]) && d(av[0], av[1])) ? "yes" : "no"
				dm = 100 * (mx[0] - lm) / lm
				da = 100 * (av[0] - la) / la
				printf "%-18s %-12s %6d %3d %8d %12.6f %12.6f %7.2f %12.6f %12.6f %7.2f %s%s\n",
					a, ma, seg, P, M, mx[0], lm, dm, av[0], la, da, ch,
					same == "no" ? " (*)" : same == "?" ? " (+)" : ""
				if (csv != "")
					printf "%s,%s,%d,%d,%d,%.9g,%.9g,%.4f,%.9g,%.9g,%.4f,%s,%s\n",
						a, ma, seg, P, M, mx[0], lm, dm, av[0], la, da,
						ch, same >> csv
			}' "$tmp/sg" "$tmp/ml"
		done
	done
done
echo "# d% = 100 (simgrid - mcastlat) / mcastlat; SimGrid: first iteration;"
echo "# (*) its second iteration differs (first-call setup such as init_smp, or a leftover message);"
echo "# (+) SimGrid aborts in a second iteration (one iteration run);"
echo "# nan: SimGrid crashes even in one iteration"
