#!/bin/sh
# realdata.sh BINARY - the real-data scripts (collective-validate.sh,
# collective-picks.sh) find their datasets by the files' names
# (common.sh: ml_prefixes, ml_algs, ml_ppfiles), so that another
# cluster's measurements named as scripts/orfeo-to-csv.sh names them are
# judged without editing a script.  The fixture is a small cut of the
# shared EPYC data (P <= 26, four sizes, held out above P = 14; the
# dataset the man page's tables name epyc_node, run as known), once
# under its own names and once renamed (zz_node_*, pp_zz_net): the
# renamed copy must give the same rows, to the digit, as the original
# (an independent check: the same numbers under another name); a
# directory with the renamed copy alone must run; one with neither must
# fail with one line and exit 2.

# ok always succeeds, so "test && ok || bad" is an if-else:
# shellcheck disable=SC2015
set -u
. "$(dirname "$0")/testlib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
real=$root/examples/real

mkdir "$tmp/both" "$tmp/zz" "$tmp/none"
# cut NAME: rows at P <= 26 and M in {1, 64, 4096, 65536} of a broadcast
# file (the header and # lines kept)
cut_bcast() {
	gzip -dc "$real/$1.csv.gz" | awk -F, '/^#/ { print; next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; print; next }
	$c["ranks"] + 0 <= 26 && ($c["msg"] == 1 || $c["msg"] == 64 ||
	    $c["msg"] == 4096 || $c["msg"] == 65536)'
}
for a in binomial pipeline scatter-allgather-ring ompi; do
	cut_bcast "epyc_node_$a" > "$tmp/both/epyc_node_$a.csv"
	cp "$tmp/both/epyc_node_$a.csv" "$tmp/both/zz_node_$a.csv"
	cp "$tmp/both/epyc_node_$a.csv" "$tmp/zz/zz_node_$a.csv"
done
# a point kept apart (_p256 style) is not an algorithm
cp "$tmp/both/epyc_node_binomial.csv" "$tmp/zz/zz_node_binomial_p256.csv"
gzip -dc "$real/pp_epyc_net.csv.gz" > "$tmp/both/pp_epyc_net.csv"
cp "$tmp/both/pp_epyc_net.csv" "$tmp/both/pp_zz_net.csv"
cp "$tmp/both/pp_epyc_net.csv" "$tmp/zz/pp_zz_net.csv"

# run SCRIPT DIR: HOLD=14, its stdout, stderr and status in $tmp/o, e, rc
run() {
	HOLD=14 MCASTLAT=$bin sh "$root/scripts/$1" "$2" > "$tmp/o" 2> "$tmp/e"
	echo $? > "$tmp/rc"
}

# picks: a row per set for each prefix; zz_node's equal epyc_node's
run collective-picks.sh "$tmp/both"
if [ "$(cat "$tmp/rc")" != 0 ]; then
	bad "collective-picks.sh on the fixture: exit $(cat "$tmp/rc")"
	cat "$tmp/e"
else
	ok
fi
# the table's rows (P>HOLD, all, dmac), then each algorithm's cover
grep -E '^epyc_node (P>|all|dmac)' "$tmp/o" | cut -c10- > "$tmp/epyc"
grep -E '^zz_node   (P>|all|dmac)' "$tmp/o" | cut -c10- > "$tmp/zz.rows"
grep -E '^epyc_node [a-z]' "$tmp/o" | grep -Ev '^epyc_node (all|dmac)' |
	cut -c10- > "$tmp/epyc.alg"
grep -E '^zz_node   [a-z]' "$tmp/o" | grep -Ev '^zz_node   (all|dmac)' |
	cut -c10- > "$tmp/zz.alg"
[ "$(wc -l < "$tmp/epyc")" -eq 3 ] && ok ||
	bad "picks: epyc_node has $(wc -l < "$tmp/epyc") rows, not 3 (P>14, all, dmac)"
[ -s "$tmp/epyc" ] && cmp -s "$tmp/epyc" "$tmp/zz.rows" && ok ||
	bad "picks: zz_node's rows differ from epyc_node's: $(cat "$tmp/zz.rows")"
# each algorithm's held-out runs: P in {20, 26} x 4 sizes x 20 runs,
# the same for the renamed copy (which lists its algorithms in the
# order of their files' names)
[ "$(awk '$2 == 160 { n++ } END { print n + 0 }' "$tmp/epyc.alg")" -eq 4 ] &&
	[ "$(sort "$tmp/epyc.alg")" = "$(sort "$tmp/zz.alg")" ] && ok ||
	bad "picks: not 4 algorithms of 160 runs each: $(cat "$tmp/epyc.alg")"
# the judged points: P in {20, 26} x 4 sizes held out, 20 in all
awk '$1 == "P>14" && $2 == 8 || $1 == "all" && $2 == 20 { n++ }
	END { exit n != 2 }' "$tmp/epyc" && ok ||
	bad "picks: not 8 held-out and 20 points in all: $(cat "$tmp/epyc")"

# validate: the known EPYC dataset, then zz_node found by its name
run collective-validate.sh "$tmp/both"
if [ "$(cat "$tmp/rc")" != 0 ]; then
	bad "collective-validate.sh on the fixture: exit $(cat "$tmp/rc")"
	cat "$tmp/e"
else
	ok
fi
awk '/^# EPYC/ { s = 1 } /^# zz_node, binomial/ { s = 2 }
	/^(collective|cluster) / { print s, $0 }' "$tmp/o" > "$tmp/v"
[ "$(grep -c '^1 ' "$tmp/v")" -eq 2 ] && ok ||
	bad "validate: no EPYC rows: $(cat "$tmp/o")"
[ "$(grep '^1 ' "$tmp/v" | cut -c3-)" = "$(grep '^2 ' "$tmp/v" | cut -c3-)" ] &&
	ok || bad "validate: zz_node's rows differ from EPYC's: $(cat "$tmp/v")"
# 160 held-out rows: P in {20, 26} x 4 sizes x 20 runs
awk '$1 == 1 && $2 == "collective" { exit $4 != 160 }' "$tmp/v" && ok ||
	bad "validate: not 160 held-out rows: $(cat "$tmp/v")"

# the renamed copy alone: found, its _p256 file not taken for an
# algorithm
run collective-picks.sh "$tmp/zz"
[ "$(cat "$tmp/rc")" = 0 ] &&
	[ "$(grep -cE '^zz_node   (P>|all|dmac)' "$tmp/o")" -eq 3 ] &&
	ok || bad "picks on zz alone: exit $(cat "$tmp/rc"), $(cat "$tmp/o" "$tmp/e")"
run collective-validate.sh "$tmp/zz"
[ "$(cat "$tmp/rc")" = 0 ] && grep -q '^# zz_node, binomial' "$tmp/o" && ok ||
	bad "validate on zz alone: exit $(cat "$tmp/rc"), $(cat "$tmp/e")"

# a prefix without ping-pong: skipped with a note; nothing at all: exit 2
rm "$tmp/zz/pp_zz_net.csv"
for s in collective-picks.sh collective-validate.sh; do
	run "$s" "$tmp/zz"
	[ "$(cat "$tmp/rc")" = 2 ] && [ "$(wc -l < "$tmp/e")" -eq 2 ] &&
		grep -q 'zz_node: skipped' "$tmp/e" &&
		grep -q 'no dataset' "$tmp/e" && ok ||
		bad "$s without ping-pong: exit $(cat "$tmp/rc"), $(cat "$tmp/e")"
	run "$s" "$tmp/none"
	[ "$(cat "$tmp/rc")" = 2 ] && [ "$(wc -l < "$tmp/e")" -eq 1 ] && ok ||
		bad "$s on an empty directory: exit $(cat "$tmp/rc"), $(cat "$tmp/e")"
done

# collective-numa.sh recovers the binding of data drawn from a known
# one: the model's own broadcasts (--bind-to default --numa D, a machine
# whose sockets differ) and ping-pongs as measurements; the row of the
# true D must fit and predict them exactly, and best.
M="--lat-socket 0.2 --lat-node 1.5 --lat-net 2.5 --byte-socket 1e-4
--byte-node 3e-4 --byte-net 2e-4 --overhead 0 --nic-gap 0"
for D in 2 4; do
	mkdir "$tmp/syn$D"
	# shellcheck disable=SC2086 # M is a word list
	"$bin" collective --algorithm binomial --ranks 2:32:2 \
		--msg 1,64,4096,65536 --ppn 16 --sockets 2 --nodes 2 \
		--map-by node --bind-to default --numa "$D" $M --format csv \
		--columns op,algorithm,ranks,ppn,sockets,nodes,map_by,bind_to,numa,msg,latency_avg \
		> "$tmp/syn$D/syn_node_binomial.csv"
	for c in net socket node; do
		# shellcheck disable=SC2086
		"$bin" collective --op p2p --channel "$c" --msg 1,64,4096,65536 \
			$M --format csv --columns op,channel,msg,latency \
			> "$tmp/syn$D/pp_syn_$c.csv"
	done
	MCASTLAT=$bin sh "$root/scripts/collective-numa.sh" "$tmp/syn$D" \
		syn_node > "$tmp/o" 2> "$tmp/e"
	awk -v D="$D" '$1 == "default," { h[$3] = $6 }
		END { if (!(D in h) || h[D] > 0.5) exit 1
		      for (d in h) if (d != D && h[d] <= h[D]) exit 1 }' \
		"$tmp/o" && ok ||
		bad "collective-numa.sh: numa $D not recovered: $(cat "$tmp/o" "$tmp/e")"
done

finish realdata
