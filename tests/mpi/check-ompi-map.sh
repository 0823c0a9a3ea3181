#!/bin/sh
# check-ompi-map.sh MCASTLAT [BUILDDIR] - collective's placement (SPEC
# 10.2: --ppn, --nodes, --map-by) against Open MPI's own mapper.  mpirun
# --do-not-launch --display-map, given made-up hosts (--host a:N,b:N,...),
# prints which node each rank would run on without starting anything;
# the model's placement is read from --schedule: a linear broadcast's
# channel from rank 0 to each rank (net: another node) and a ring's
# channel from each rank to the next.  (plm isolated: the launcher that
# never starts a daemon on another host, so none is waited for.)  Exit 77
# without Open MPI.
#
# Across made-up hosts only nodes are checked: Open MPI knows no socket
# of theirs (--bind-to core or socket prints nothing, and the ras
# simulator that makes up topologies crashes in --display-devel-map in
# 4.1.4), so --map-by socket is checked there for the node each rank
# lands on.  Sockets are checked on this host, given a made-up topology
# (HWLOC_SYNTHETIC: 2 packages of D NUMA domains of C cores): mpirun's
# default binding (a core for P <= 2, else a NUMA domain), which
# --display-devel-map prints as each rank's cores, one [...] a package,
# against collective --bind-to default --numa D on one node.
set -u
bin=${1:-./mcastlat}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac

if command -v mpirun.openmpi >/dev/null 2>&1; then
	MPIRUN=${MPIRUN:-mpirun.openmpi}
else
	MPIRUN=${MPIRUN:-mpirun}
fi
command -v "$MPIRUN" >/dev/null 2>&1 &&
	"$MPIRUN" --version 2>/dev/null | grep -q -e 'Open MPI' -e OpenRTE || {
	echo "check-ompi-map: skipped: no Open MPI mpirun (Debian: apt-get" \
		"install openmpi-bin)"
	exit 77
}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# mapper NODES SLOTS P MAPBY: "rank node-index" per rank, as mpirun maps
# them (it exits nonzero after the map: nothing was launched).  One run
# in a few then hangs for five seconds, deaf to SIGTERM, before it exits:
# as nothing was launched, it is killed after two (the map is printed by
# then), and a run that printed no map is tried again.
mapper() {
	for _ in 1 2 3; do
		map_once "$@" > "$tmp/map"
		[ "$(wc -l < "$tmp/map")" -eq "$3" ] && break
	done
	cat "$tmp/map"
}

map_once() {
	hosts=$(awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++)
		printf "%s%c:%d", i ? "," : "", 97 + i, s }')
	timeout -s KILL 2 "$MPIRUN" --mca plm isolated --do-not-launch --display-map \
		--bind-to none --host "$hosts" --map-by "$4" -np "$3" true \
		> "$tmp/mpirun.out" 2>&1 < /dev/null
	awk '/Data for node:/ { node = $4 }
		/Process rank:/ { for (i = 1; i < NF; i++)
			if ($i == "rank:") print $(i + 1), index("abcdefgh", node) - 1 }' \
		"$tmp/mpirun.out" | sort -n
}

# model_pairs NODES SLOTS P MAPBY: "same-as-0 same-as-next" per rank from
# the schedule's channels (1 when the two ranks share a node).
model_pairs() {
	sockets=1
	[ $(($2 % 2)) -eq 0 ] && sockets=2
	opts="--ranks $3 --ppn $2 --sockets $sockets --nodes $1 --map-by $4"
	# shellcheck disable=SC2086 # the options are words
	"$bin" collective --algorithm linear --msg 1 --schedule --format csv \
		$opts > "$tmp/linear" &&
		"$bin" collective --algorithm scatter-allgather-ring \
			--msg "$3" --schedule --format csv $opts > "$tmp/ring" ||
		return 1
	awk -F, -v P="$3" '
	FILENAME ~ /linear$/ && $1 ~ /^[0-9]+$/ { z[$2] = $5 != "net" }
	FILENAME ~ /ring$/ && $1 ~ /^[0-9]+$/ && $2 == ($1 + 1) % P {
		nx[$1] = $5 != "net" }
	END { for (r = 0; r < P; r++) print r, (r ? z[r] : 1), nx[r] + 0 }' \
		"$tmp/linear" "$tmp/ring"
}

check() {
	name="nodes=$1 slots=$2 P=$3 map-by=$4"
	mapper "$@" > "$tmp/mapped"
	mv "$tmp/mapped" "$tmp/map"
	if [ "$(wc -l < "$tmp/map")" -ne "$3" ]; then
		fail=$((fail + 1))
		echo "FAIL: $name: mpirun printed no map"
		return
	fi
	# The same relations from mpirun's nodes.
	awk -v P="$3" '{ n[$1] = $2 } END { for (r = 0; r < P; r++)
		print r, (n[r] == n[0]), (n[r] == n[(r + 1) % P]) }' \
		"$tmp/map" > "$tmp/want"
	model_pairs "$@" > "$tmp/got" || {
		fail=$((fail + 1))
		echo "FAIL: $name: collective failed"
		return
	}
	if cmp -s "$tmp/got" "$tmp/want"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $name: rank, same node as 0, as the next: collective / mpirun"
		paste "$tmp/got" "$tmp/want" | head -n 20
	fi
}

# bindmap D C P MAPBY: "rank package" as mpirun binds them on this host.
bindmap() {
	for _ in 1 2 3; do
		HWLOC_SYNTHETIC="pack:2 numa:$1 core:$2 pu:1" HWLOC_THISSYSTEM=1 \
			timeout -s KILL 2 "$MPIRUN" --mca plm isolated \
			--do-not-launch --display-devel-map \
			--host "$(hostname):$((2 * $1 * $2))" --map-by "$4" \
			-np "$3" true > "$tmp/mpirun.out" 2>&1 < /dev/null
		awk '/App rank:/ { for (i = 1; i < NF; i++)
				if ($i == "rank:") r = $(i + 1) }
		/Binding:/ { n = split($2, g, "]")
			for (k = 1; k <= n; k++)
				if (g[k] ~ /B/) { print r, k - 1; break } }' \
			"$tmp/mpirun.out" | sort -n > "$tmp/bind"
		[ "$(wc -l < "$tmp/bind")" -eq "$3" ] && break
	done
	cat "$tmp/bind"
}

# model_sockets D C P MAPBY: "rank socket" from a linear broadcast's
# channels on one node (rank 0 is on socket 0; node: the other socket).
model_sockets() {
	"$bin" collective --algorithm linear --msg 1 --schedule --format csv \
		--ranks "$3" --ppn $((2 * $1 * $2)) --sockets 2 --numa "$1" \
		--nodes 1 --map-by "$4" --bind-to default |
		awk -F, 'BEGIN { print 0, 0 }
		$1 ~ /^[0-9]+$/ { print $2, $5 == "node" }' | sort -n
}

check_bind() {
	name="one host, 2 sockets x $1 NUMA x $2 cores, P=$3, map-by=$4"
	bindmap "$@" > "$tmp/want"
	if [ "$(wc -l < "$tmp/want")" -ne "$3" ]; then
		fail=$((fail + 1))
		echo "FAIL: $name: mpirun printed no binding"
		return
	fi
	if model_sockets "$@" > "$tmp/got" && cmp -s "$tmp/got" "$tmp/want"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $name: rank, socket: collective / mpirun"
		paste "$tmp/got" "$tmp/want" | head -n 20
	fi
}

for mapby in node core socket; do
	for p in 2 3 7 12; do
		check_bind 1 6 "$p" "$mapby"
		check_bind 2 3 "$p" "$mapby"
	done
	check_bind 4 2 13 "$mapby"
done

for mapby in core socket node; do
	for p in 2 3 5 8; do
		check 2 4 "$p" "$mapby"
	done
	for p in 5 7 12; do
		check 2 6 "$p" "$mapby"
	done
	# (P = 2 on three hosts costs mpirun five seconds: not run.)
	for p in 5 7 12; do
		check 3 4 "$p" "$mapby"
	done
done
echo "check-ompi-map: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
