#!/bin/sh
# usability.sh BINARY - the behaviours of issue 12 that a golden test
# (stdout of a successful run) cannot show: exit statuses, stderr lines,
# files written by -o, also under a killed process.
set -u
. "$(dirname "$0")/testlib.sh"

# expect RC STDOUT STDERR -- ARGS...: exit status, exact stdout and exact
# stderr (each given as printf text).
expect() {
	want_rc=$1 want_out=$2 want_err=$3
	shift 4
	"$bin" "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
	rc=$?
	printf "$want_out" > "$tmp/wout"
	printf "$want_err" > "$tmp/werr"
	if [ $rc -ne "$want_rc" ]; then
		bad "exit $rc, not $want_rc: mcastlat $*"
	elif ! cmp -s "$tmp/out" "$tmp/wout"; then
		bad "stdout differs: mcastlat $*"
		diff "$tmp/wout" "$tmp/out" | head -n 5
	elif ! cmp -s "$tmp/err" "$tmp/werr"; then
		bad "stderr differs: mcastlat $*"
		diff "$tmp/werr" "$tmp/err" | head -n 5
	else
		pass=$((pass + 1))
	fi
}

# --value: one bare value per row; a row not ok prints nothing, one line
# on stderr, exit 3.  kbinomial --nodes 1000: 12.5 + 10 (3 + 0 + 2) +
# 12.5 = 75 (k = 10, L1 = 10 steps, see mcastlat-kbinomial(1)).
expect 0 '75\n' '' -- kbinomial --nodes 1000 --value latency
expect 0 '30\n35\n' '' -- kbinomial --nodes 2,3 --value latency
expect 0 'optimal\n' '' -- kbinomial --value tree
# hypercube (defaults) saturates at rate 0.0209 (--saturation: lambda_sat)
expect 3 '' 'mcastlat: hypercube: --value latency: point 1 is saturated: no value\n' \
	-- hypercube --rate 0.05 --value latency
"$bin" hypercube --rate 0.01,0.05,0.02 --value latency > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -ne 3 ] || [ "$(wc -l < "$tmp/out")" -ne 2 ] ||
   [ "$(cat "$tmp/err")" != "mcastlat: hypercube: --value latency: point 2 is saturated: no value" ]; then
	bad "--value with a saturated row between two ok ones: exit $rc"
else
	pass=$((pass + 1))
fi
expect 2 '' "mcastlat: kbinomial: --value: 'latenc' is not a column (did you mean latency?)\n" \
	-- kbinomial --value latenc
expect 2 '' 'mcastlat: kbinomial: --value: names one column (see --columns for more)\n' \
	-- kbinomial --value latency,k
expect 2 '' 'mcastlat: kbinomial: --value: cannot be combined with --format or --columns\n' \
	-- kbinomial --value latency --format json

# first:step:last is an error that shows the rule.
expect 2 '' "mcastlat: hypercube: --rate: '0:0.001:0.02' has a step larger than its range (one point); ranges are first:last:step\n" \
	-- hypercube --rate 0:0.001:0.02
expect 2 '' "mcastlat: kbinomial: --nodes: '4:8:*16' has a factor larger than its range (one point); ranges are first:last:*factor\n" \
	-- kbinomial --nodes 4:8:*16

# --dry-run: no evaluation, so even 10^9 points answer at once.
expect 0 'points: 1000000000\nfirst: nodes=1 packets=1\nlast: nodes=1000 packets=1000000\n' '' \
	-- kbinomial --nodes 1:1000 --packets 1:1000000 --dry-run
expect 0 'points: 1\n' '' -- kbinomial --dry-run

# did you mean: edit distance, not only prefixes.
expect 2 '' 'mcastlat: kbinomial: --nodse: unknown option (did you mean --nodes?)\n' \
	-- kbinomial --nodse 4
expect 2 '' 'mcastlat: kbinomial: --formta: unknown option (did you mean --format?)\n' \
	-- kbinomial --formta csv
expect 2 '' 'mcastlat: kbinomial: --zzz: unknown option\n' -- kbinomial --zzz
expect 2 '' "mcastlat: 'torsu' is not a mcastlat command (did you mean torus?)\n" -- torsu
expect 2 '' "mcastlat: kbinomial: --columns: 'latncy' is not a column (did you mean latency?)\n" \
	-- kbinomial --columns nodes,latncy

# Short options and the version.
expect 0 'mcastlat 0.1.0\n' '' -- kbinomial --version
expect 0 'mcastlat 0.1.0\n' '' -- kbinomial -V
"$bin" kbinomial -h > "$tmp/out" 2>&1 && grep -q '^usage: mcastlat kbinomial' "$tmp/out" &&
	pass=$((pass + 1)) || bad "kbinomial -h"
expect 0 '30\n35\n' '' -- kbinomial -j 2 --nodes 2,3 --value latency

# Help fits 80 columns.
for c in $("$bin" list | awk '{ print $1 }'); do
	w=$("$bin" "$c" --help | awk '{ if (length($0) > m) m = length($0) } END { print m }')
	[ "$w" -le 80 ] && pass=$((pass + 1)) || bad "$c --help is $w columns wide"
done

# collective's default table fits 120 columns (issue 48): Open MPI's
# algorithms on EPYC, and MPICH's compositions on 4 nodes, whose chosen
# (beta/binomial+scatter_recursive_doubling_allgather) the table shortens
# (beta/binomial+scatter_rd) while CSV keeps MPICH's name.
for args in "--algorithm all --ranks 256 --ppn 128 --sockets 2 --map-by core --msg 1:1MiB:*64" \
	"--library mpich --nodes 4 --ppn 8 --ranks 8:32:8 --msg 1:1MiB:*4" \
	"--library mpich --algorithm best --nodes 4 --ppn 8 --ranks 32 --msg 1:1MiB:*4"; do
	# shellcheck disable=SC2086 # $args is a list of options
	w=$("$bin" collective $args | awk '{ if (length($0) > m) m = length($0) } END { print m }')
	[ "$w" -le 120 ] && pass=$((pass + 1)) || bad "collective $args: $w columns wide"
done
expect 0 'chosen\nbeta/binomial+scatter_rd\n' '' -- collective --library mpich \
	--nodes 4 --ppn 8 --ranks 32 --msg 65536 --columns chosen
expect 0 'chosen\nbeta/binomial+scatter_recursive_doubling_allgather\n' '' -- \
	collective --library mpich --nodes 4 --ppn 8 --ranks 32 --msg 65536 \
	--columns chosen --format csv

# The CSV a command prints is valid --input for it, and reading it back
# prints it again, byte for byte (results recomputed, echo columns such
# as kbinomial packets and torus r read back, flags given again).
roundtrip() {
	flags=$1
	shift
	# shellcheck disable=SC2086 # $flags: words
	"$bin" "$@" $flags --format csv > "$tmp/a.csv" 2> /dev/null
	# shellcheck disable=SC2086
	"$bin" "$1" $flags --input "$tmp/a.csv" --format csv > "$tmp/b.csv" 2> "$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] || ! cmp -s "$tmp/a.csv" "$tmp/b.csv" ||
	   [ "$(wc -l < "$tmp/a.csv")" -lt 2 ]; then
		bad "round trip (exit $rc): mcastlat $* $flags: $(head -n 1 "$tmp/err")"
	else
		pass=$((pass + 1))
	fi
}
roundtrip "" kbinomial --nodes 2:40 --packets 1,8 --tree optimal,binomial,3
roundtrip "" kbinomial --nodes 2:40 --msg 1k,4k --packet-size 100,1KiB
roundtrip "--schedule" kbinomial --nodes 10 --packets 1:3
roundtrip "" cluster --op all --msg 0:5000:1000 --nodes 4,16
roundtrip "" cluster --op bcast --formula 2.8,auto --gs-per-byte 0,0.01
roundtrip "" hypercube --rate 0:0.02:0.005 --dims 4,6 --vcs 2,4
roundtrip "--saturation" hypercube --dims 4,6
roundtrip "" torus --k 4,8 --group 4:16 --o 1,2
roundtrip "" torus --k 4,8 --group 4:16 --algorithm md,mu --r 2,4
roundtrip "--full" torus --model structural --k 8 --group 20 --placement random --seed 1,2 --lp 10ns,14ns
roundtrip "--unit ms" kbinomial --nodes 4:8 --ts 10,12.5
roundtrip "--unit ns" torus --k 4 --group 4:6 --tprocess 100,200
roundtrip "--trace tests/cli/traces/unicast-0-15.csv" simulate --topology mesh --k 4 --flits 16 --router-cycles 0,2

# --input: result columns and status ignored, both spellings, trimmed
# header cells, an alias; unknown columns an error unless --keep, which
# copies them through (first, in file order).  kbinomial --msg 1000 with
# 100-byte packets: m = 10.
printf ' nodes , packet_size ,msg, latency ,status\n2,100,1000,1,bogus\n' > "$tmp/in.csv"
expect 0 'nodes,msg,packet_size,packets\n2,1000,100,10\n' '' -- \
	kbinomial --input "$tmp/in.csv" --format csv --columns nodes,msg,packet-size,packets
printf 'dim\n4\n' > "$tmp/dim.csv"
expect 0 'dims\n4\n' '' -- hypercube --input "$tmp/dim.csv" --format csv --columns dims
printf 'id,nodes,label\nA,2,"x, y"\nB,1000,z\n' > "$tmp/keep.csv"
expect 0 'id,label,nodes,latency\nA,"x, y",2,30\nB,z,1000,75\n' '' -- \
	kbinomial --input "$tmp/keep.csv" --keep --tree binomial --format csv \
	--columns id,label,nodes,latency
expect 2 '' "mcastlat: kbinomial: --input: $tmp/keep.csv: 'id' is not an option or a result of kbinomial (--keep copies such columns)\n" \
	-- kbinomial --input "$tmp/keep.csv"
expect 2 '' 'mcastlat: kbinomial: --keep: copies columns of an --input file: give one\n' \
	-- kbinomial --keep

# --input, table (issue 27): a column the same on every row goes on the
# "# name=value" line, as a single value on the command line does; one
# that differs, a list (that row sweeps it) or empty cells (the command
# line's value) stay columns; a pipe, which cannot be read twice, keeps
# every column; --format csv is unchanged.  kbinomial nodes 2 / 1000
# with the binomial tree: 30 / 75 us.
c='  packets   k  L1  steps  latency[us]  binomial_steps  binomial_latency[us]  speedup  status'
r2='        1   1   1      1           30               1                    30        1  ok'
r1000='        1  10  10     10           75              10                    75        1  ok'
printf 'ts,nodes,tree,packet_size\n12.5,2,binomial,\n12.5,1000,binomial,\n' > "$tmp/const.csv"
expect 0 "# tree=binomial tie=largest ts=12.5us tr=12.5us tns=3us tnr=2us tprop=0us\nnodes  packet_size$c\n    2         auto$r2\n 1000         auto$r1000\n" '' -- \
	kbinomial --input "$tmp/const.csv"
printf 'ts,nodes\n12.5,"2,1000"\n' > "$tmp/list.csv"
expect 0 "# tree=binomial tie=largest ts=12.5us tr=12.5us tns=3us tnr=2us tprop=0us\nnodes$c\n    2$r2\n 1000$r1000\n" '' -- \
	kbinomial --input "$tmp/list.csv" --tree binomial
printf 'ts,nodes\n12.5,2\n13,2\n' > "$tmp/differ.csv"
expect 0 "# nodes=2 tree=binomial tie=largest tr=12.5us tns=3us tnr=2us tprop=0us\nts[us]  packets  k  L1  steps  latency[us]  binomial_steps  binomial_latency[us]  speedup  status\n  12.5        1  1   1      1           30               1                    30        1  ok\n    13        1  1   1      1         30.5               1                  30.5        1  ok\n" '' -- \
	kbinomial --input "$tmp/differ.csv" --tree binomial
"$bin" kbinomial --input - < "$tmp/const.csv" > "$tmp/file.out"
cat "$tmp/const.csv" | "$bin" kbinomial --input - > "$tmp/pipe.out"
"$bin" kbinomial --input "$tmp/const.csv" --format csv > "$tmp/csv.out"
if head -n 1 "$tmp/file.out" | grep -q ' ts=12.5us ' &&
	head -n 1 "$tmp/pipe.out" | grep -q -v ' ts=' &&
	sed -n 2p "$tmp/pipe.out" | grep -q '  ts\[us\]' &&
	head -n 1 "$tmp/csv.out" | grep -q '^nodes,packet_size,tree,tie,ts,'; then
	pass=$((pass + 1))
else
	bad "--input: constant columns from a redirected file, a pipe, CSV"
	head -n 2 "$tmp/file.out" "$tmp/pipe.out" "$tmp/csv.out"
fi

# An option the point's mechanism or pattern ignores (issue 27): one
# warning per option per run, naming the points' values that ignore it;
# the rows as without it; none when every point uses it.  A sweep over
# mechanisms stays legal; an --input row says so too.
sim='simulate --topology mesh --k 4 --max-cycles 1000 --format csv'
expect 0 'multicast,rate\nunicast,0.01\nunicast,0.02\ntree,0.01\ntree,0.02\n' \
	'mcastlat: warning: simulate: --prune-wait: ignored by the points with --multicast unicast (used by --multicast tree only)\nmcastlat: warning: simulate: --hotspot: ignored by the points with --pattern uniform (used by --pattern hotspot only)\n' -- \
	$sim --multicast unicast,tree --rate 0.01,0.02 --prune-wait 5 --hotspot 3 --columns multicast,rate
expect 0 'multicast,pattern\ntree,hotspot\n' '' -- \
	$sim --multicast tree --pattern hotspot --prune-wait 5 --aux 31 --pruning off --hotspot 3 --hotspot-fraction 0.2 --columns multicast,pattern
expect 0 'multicast\nbinomial\ntree\n' \
	'mcastlat: warning: simulate: --prep-cycles: ignored by the points with --multicast binomial,tree (used by --multicast dual-path,pm only)\n' -- \
	$sim --multicast binomial,tree --prep-cycles 2 --columns multicast
"$bin" $sim --multicast unicast --warmup 50 --rate 0.02 --prune-wait 5 \
	--columns multicast,latency,messages,cycles > "$tmp/with" 2> /dev/null
"$bin" $sim --multicast unicast --warmup 50 --rate 0.02 \
	--columns multicast,latency,messages,cycles > "$tmp/without" 2> /dev/null
grep -q '^unicast,[0-9n]' "$tmp/with" && cmp -s "$tmp/with" "$tmp/without" &&
	ok || bad "--prune-wait ignored: the rows differ"
printf 'multicast,pruning\ntree,on\nunicast,off\n' > "$tmp/mech.csv"
expect 0 'multicast,pruning\ntree,on\nunicast,off\n' \
	'mcastlat: warning: simulate: --pruning: ignored by the points with --multicast unicast (used by --multicast tree only)\n' -- \
	$sim --input "$tmp/mech.csv" --columns multicast,pruning

# -o: written whole, replaced only on success.
cd "$tmp" || exit 1
"$bin" kbinomial --nodes 2:5 --format csv -o out.csv > stdout.txt
"$bin" kbinomial --nodes 2:5 --format csv > want.csv
if cmp -s out.csv want.csv && [ ! -s stdout.txt ]; then
	pass=$((pass + 1))
else
	bad "-o out.csv differs from stdout"
fi
echo 'old content' > keep.csv
"$bin" kbinomial --nodes 0 --format csv -o keep.csv 2> /dev/null
[ "$(cat keep.csv)" = 'old content' ] && pass=$((pass + 1)) ||
	bad "a usage error replaced the -o file"
# A sweep killed half way (SIGKILL: no handler runs; SIGTERM: the handler
# removes its temporary file) leaves the old file whole.
for sig in KILL TERM INT; do
	"$bin" kbinomial --nodes 2:1000000000 --format csv -o keep.csv &
	pid=$!
	sleep 0.3
	kill -s $sig $pid
	wait $pid 2> /dev/null
	if [ "$(cat keep.csv)" != 'old content' ]; then
		bad "SIG$sig during -o changed the file"
	else
		pass=$((pass + 1))
	fi
	if [ $sig != KILL ]; then
		if ls -A | grep -q '^\.keep\.csv\.'; then
			bad "SIG$sig left a temporary file"
		else
			pass=$((pass + 1))
		fi
	fi
	rm -f .keep.csv.*
done
# Progress goes to stderr only: stdout is the same with it forced on.
"$bin" kbinomial --nodes 2:200 --format csv --progress > p1.csv 2> /dev/null
cmp -s p1.csv "$(printf '%s' p1.csv)" && "$bin" kbinomial --nodes 2:200 \
	--format csv --no-progress | cmp -s - p1.csv && pass=$((pass + 1)) ||
	bad "--progress changed stdout"

finish "usability"
