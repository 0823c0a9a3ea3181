#!/bin/sh
# usability.sh BINARY - the behaviours of issue 12 that a golden test
# (stdout of a successful run) cannot show: exit statuses, stderr lines,
# files written by -o, also under a killed process.
set -u
bin=${1:-./mcastlat}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

bad() {
	fail=$((fail + 1))
	printf 'FAIL: %s\n' "$*"
}

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
expect 2 '' "mcastlat: kbinomial: --value: 'latenc' is not a column (see --help)\n" \
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

echo "usability: $pass passed, $fail failed"
[ $fail -eq 0 ]
