#!/bin/sh
# shard-sweep.sh N OUT ARGS... - run `mcastlat ARGS --shard I/N` for
# I = 1..N at once (GNU parallel when installed, else xargs -P) and
# concatenate the shards in order into OUT: the same bytes as the
# unsharded run.  MCASTLAT names the binary (default: mcastlat on PATH,
# else ./mcastlat).
#
#   scripts/shard-sweep.sh 8 all.csv hypercube --rate 0:0.02:0.00001 --format csv
set -eu
[ $# -ge 3 ] || { echo "usage: $0 N OUT ARGS..." >&2; exit 2; }
n=$1
out=$2
shift 2
bin=${MCASTLAT:-$(command -v mcastlat || echo ./mcastlat)}
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
