#!/bin/sh
# shard-sweep.sh N OUT ARGS... - run `mcastlat ARGS --shard I/N` for
# I = 1..N at once (GNU parallel when installed, else xargs -P) and
# concatenate the shards in order into OUT: the same bytes as the
# unsharded run.  Runs from any directory (OUT is relative to the current
# one); MCASTLAT names the binary (default: the tree's ./mcastlat, else
# mcastlat on PATH; see common.sh).
#
#   scripts/shard-sweep.sh 8 all.csv hypercube --rate 0:0.02:0.00001 --format csv
#   scripts/shard-sweep.sh -h|--help
set -eu
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"
[ $# -ge 3 ] || ml_die "usage: $ml_script N OUT ARGS... (see --help)"
n=$1
out=$2
shift 2
bin=$mcastlat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q GNU; then
	seq "$n" | parallel -j0 --halt now,fail=1 \
		"\"$bin\" $* --shard {}/$n > \"$tmp/part.{}\""
else
	i=1
	pids=
	while [ "$i" -le "$n" ]; do
		"$bin" "$@" --shard "$i/$n" > "$tmp/part.$i" &
		pids="$pids $!"
		i=$((i + 1))
	done
	for p in $pids; do wait "$p"; done
fi
i=1
: > "$out"
while [ "$i" -le "$n" ]; do
	cat "$tmp/part.$i" >> "$out"
	i=$((i + 1))
done
