#!/bin/sh
# collective-ab.sh - the rows and schedules of `mcastlat collective`
# from two binaries, byte for byte: every algorithm, segments, fanouts,
# radices, placements, eager limits on both sides of the blocks, NIC
# gaps and overheads, --schedule, best, ompi, sweeps and --jobs (issue
# 36: a faster engine must not move a single digit).
#
#   scripts/collective-ab.sh OLD [NEW]   run each command with both,
#                                        cmp the outputs; one line per
#                                        difference, then a count
#   scripts/collective-ab.sh -h|--help   this text
#
# OLD is a binary built from the commit to compare against (say, main
# before the change, built in a directory of its own); NEW defaults to
# the tree's binary (MCASTLAT, see common.sh).  Exit 0 when every output
# is identical, 1 otherwise.  Takes a minute or two.
set -eu
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"
[ $# -ge 1 ] && [ $# -le 2 ] || ml_bad_usage "takes OLD [NEW]"
old=$1
new=${2:-$mcastlat}
[ -x "$old" ] || ml_die "$old: not an executable"
[ -x "$new" ] || ml_die "$new: not an executable"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
bad=0

# same ARGS...: the output (stdout, stderr, exit status) of both.
same() {
	n=$((n + 1))
	rc=0
	"$old" collective "$@" > "$tmp/o1" 2> "$tmp/e1" || rc=$?
	echo "exit $rc" >> "$tmp/e1"
	rc=0
	"$new" collective "$@" > "$tmp/o2" 2> "$tmp/e2" || rc=$?
	echo "exit $rc" >> "$tmp/e2"
	if ! cmp -s "$tmp/o1" "$tmp/o2" || ! cmp -s "$tmp/e1" "$tmp/e2"; then
		bad=$((bad + 1))
		echo "differs: collective $*"
	fi
}

all="linear chain pipeline split-binary binary binomial knomial scatter-allgather scatter-allgather-ring"
csv="--format csv --precision 17"
# Every algorithm over ranks, sizes around the eager limit and the
# blocks of the scatter, segments, on one node, two sockets, many nodes.
for a in $all; do
	same --algorithm $a --ranks 2:40 --msg 1,7,100,4096,4097,65536 $csv
	same --algorithm $a --ranks 3,17,64,100 --msg 1:300000:*3 \
		--segment 0,1000,8192 --ppn 8 --sockets 2 $csv
	same --algorithm $a --ranks 48,96,130 --msg 1000,1MiB --segment 0,64KiB \
		--ppn 24 --sockets 2 --map-by core,socket,node --nic-gap 0,0.3 \
		--overhead 0,0.05 $csv
	same --algorithm $a --ranks 33,255 --msg 32768,300001 --eager 0,1000,100000 \
		--ppn 4 --sockets 2 --nodes 70 --map-by node $csv
	same --algorithm $a --ranks 20 --msg 5000 --schedule
	same --algorithm $a --ranks 37 --msg 123457 --segment 10000 --ppn 6 \
		--sockets 3 --map-by socket --nic-gap 0.2 --schedule --format csv
	same --algorithm $a --ranks 9 --msg 1 --lat-socket 0 --lat-node 0 \
		--lat-net 0 --byte-socket 0 --byte-node 0 --byte-net 0 --schedule
done
same --algorithm chain --fanout 0:32 --ranks 2,5,40,199 --msg 1,1MiB \
	--segment 0,4096 $csv
same --algorithm knomial --radix 2:9,16,1000 --ranks 2,5,40,199,1000 \
	--msg 1,1MiB --segment 0,4096 $csv
same --algorithm split-binary --ranks 2:12 --msg 1:40 --segment 0:20 $csv
same --algorithm scatter-allgather,scatter-allgather-ring --ranks 2:70 \
	--msg 1:200 $csv
same --algorithm all --ranks 4096 --msg 1MiB --segment 8KiB $csv
same --algorithm binomial,binary,knomial --ranks 65536,1000003 --msg 1,8 $csv
same --algorithm ompi --ranks 2:300:7 --msg 1:4MiB:*4 $csv
same --algorithm ompi,best --ranks 2:300:13 --msg 1:4MiB:*2 --ppn 24 \
	--sockets 2 $csv
same --algorithm best --ranks 2:1024:31 --msg 1:4194304:*2 $csv
same --algorithm best --ranks 2:1024:31 --msg 1:4194304:*2 $csv --jobs 2
same --algorithm best --ranks 4:256:4 --msg 1:1MiB:*2 --ppn 24 --sockets 2 $csv
same --algorithm best --ranks 2:100:3 --msg 1:1MiB:*8 --ppn 1,4 --map-by node \
	--segment 0,8192 --eager 0,65536 --nic-gap 0.5 --jobs 2 $csv
same --algorithm best --ranks 2:64:2 --msg 1:64KiB:*2 --overhead 0.1 \
	--lat-socket 0 --lat-node 0 --lat-net 0 $csv
same --algorithm best --ranks 100 --msg 100000 --ppn 24 --sockets 2 --schedule
same --algorithm best --ranks 2:20 --msg 1,1000 --columns best,margin,latency
same --algorithm all --ranks 2:64 --msg 1:1MiB:*16 --ppn 24 --sockets 2 \
	--jobs 2 $csv
same --algorithm all --ranks 2,100 --msg 1,100000 --format json
# --rules: the file each writes.
n=$((n + 1))
for w in old new; do
	eval b=\$$w
	"$b" collective --algorithm best --ranks 2:200:6 --msg 1:1MiB:*4 \
		--rules "$tmp/rules.$w" > /dev/null 2> "$tmp/rules.$w.err"
done
cmp -s "$tmp/rules.old" "$tmp/rules.new" &&
	cmp -s "$tmp/rules.old.err" "$tmp/rules.new.err" || {
	bad=$((bad + 1))
	echo "differs: the --rules file"
}
# MPICH's programs, when both binaries have them.
if "$old" collective --library mpich --ranks 2 > /dev/null 2>&1 &&
	"$new" collective --library mpich --ranks 2 > /dev/null 2>&1; then
	same --library mpich --algorithm all --ranks 2:40:3 --msg 1:1MiB:*16 \
		--ppn 1,4 --sockets 1,2 --map-by core,node $csv
	same --library mpich --algorithm all --ranks 64,200,1000 --msg 1,1000,100000,1MiB \
		--ppn 24 --sockets 2 --eager 0,65536 --nic-gap 0,0.3 $csv
	same --library mpich --algorithm all --ranks 65536 --msg 8 $csv
	same --library mpich --algorithm best --ranks 2:300:11 --msg 1:4MiB:*4 \
		--ppn 1,24 --sockets 1,2 --jobs 2 $csv
	same --library mpich --algorithm scatter_ring_allgather --ranks 37 \
		--msg 123457 --ppn 6 --sockets 3 --schedule --format csv
fi
same --op p2p --channel socket,node,net --msg 1:1MiB:*8 $csv
same --algorithm binomial --ranks 1 --msg 1
same --algorithm scatter-allgather-ring --ranks 70000 --msg 1MiB
same --algorithm linear --ranks 16777216 --msg 1 --nodes 3
echo "collective-ab: $n commands, $bad differ"
[ "$bad" -eq 0 ]
