#!/bin/sh
# rules.sh MCASTLAT - collective --rules writes a file Open MPI reads to
# the choices `best` printed.  The reader here is our own, written from
# Open MPI's parser (coll_tuned_dynamic_file.c, 4.1.0-5.0.6 format) and
# its matching (coll_tuned_dynamic_rules.c): integers read one after
# another, "#" to the end of the line skipped, other characters skipped;
# the communicator rule is the last with size <= P (the first when none
# is), the message rule the last with size <= M; the first message size
# of each communicator rule must be 0.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*" >&2; fail=$((fail + 1)); }

# lookup RULES P M: the algorithm id Open MPI would run.
lookup() {
	awk -v P="$2" -v M="$3" '
	{ sub(/#.*/, ""); gsub(/[^0-9]+/, " ")
	  n = split($0, f, " "); for (i = 1; i <= n; i++) tok[++nt] = f[i] + 0 }
	END {
		k = 1; ncoll = tok[k++]
		if (ncoll != 1) { print "bad-ncoll"; exit }
		if (tok[k++] != 7) { print "bad-id"; exit }
		ncs = tok[k++]; best = -1
		for (c = 1; c <= ncs; c++) {
			cs = tok[k++]; nms = tok[k++]
			for (m = 1; m <= nms; m++) {
				ms[c, m] = tok[k++]; alg[c, m] = tok[k++]
				k += 2 # topo, segsize
			}
			n_ms[c] = nms; csz[c] = cs
			if (ms[c, 1] != 0) { print "bad-first-msgsize"; exit }
			if (cs <= P) best = c
		}
		if (k - 1 != nt) { print "trailing-tokens"; exit }
		if (best < 0) best = 1
		pick = 1
		for (m = 1; m <= n_ms[best]; m++) if (ms[best, m] <= M) pick = m
		print alg[best, pick]
	}' "$1"
}

id_of() {
	case $1 in
	ompi) echo 0 ;; linear) echo 1 ;; chain) echo 2 ;; pipeline) echo 3 ;;
	split-binary) echo 4 ;; binary) echo 5 ;; binomial) echo 6 ;;
	knomial) echo 7 ;; scatter-allgather) echo 8 ;;
	scatter-allgather-ring) echo 9 ;; *) echo "?" ;;
	esac
}

# Two machines, sweeps that change their choice within a row.
check_sweep() {
	"$bin" collective --algorithm best --format csv --columns ranks,msg,best \
		--rules "$tmp/rules.txt" "$@" > "$tmp/best.csv" 2> "$tmp/sweep.err" ||
		{ bad "collective --rules $*: exit $?"; return; }
	[ -s "$tmp/rules.txt" ] || { bad "no rules file: $*"; return; }
	[ -e "$tmp/rules.txt.tmp" ] && bad "temporary file left: $*"
	tail -n +2 "$tmp/best.csv" > "$tmp/rows"
	[ -s "$tmp/rows" ] || { bad "no rows: $*"; return; }
	while IFS=, read -r p m b; do
		got=$(lookup "$tmp/rules.txt" "$p" "$m")
		want=$(id_of "$b")
		[ "$got" = "$want" ] && ok ||
			bad "$*: P=$p M=$m best=$b ($want), rules give $got"
	done < "$tmp/rows"
}
check_sweep --ranks 2,3,7,16,64,130 --msg 1:1MiB:*4 --ppn 24 --sockets 2
check_sweep --ranks 4:64:12 --msg 1,100,4096,65536,1000000 --ppn 4 \
	--map-by node --nodes 16 --overhead 1 --segment 8192
# Without an error model best is the plain fastest (concrete algorithms);
# with the default machine's, Open MPI's decision (0) is kept at most
# points: both read back as best printed them.
check_sweep --ranks 2,3,7,16,64,130 --msg 1:1MiB:*4 --ppn 24 --sockets 2 \
	--err-ranks 0
check_sweep --ranks 4:64:12 --msg 1,100,4096,65536,1000000 --ppn 4 \
	--map-by node --nodes 16 --overhead 1 --segment 8192 --err-ranks 0
"$bin" collective --algorithm best --ranks 64,256 --msg 1,64 --ppn 128 \
	--sockets 2 --rules "$tmp/zero.txt" > /dev/null 2> "$tmp/err"
grep -q '^0 0 0 0 # ompi' "$tmp/zero.txt" && ok ||
	bad "default machine: no algorithm-0 rule: $(cat "$tmp/zero.txt")"
grep -q '^# Not fitted' "$tmp/zero.txt" && ok || bad "no not-fitted comment"
[ "$(grep -c 'not fitted' "$tmp/err")" -eq 1 ] && ok ||
	bad "default machine: no warning on stderr: $(cat "$tmp/err")"
"$bin" collective --algorithm best --ranks 64 --msg 1 --err-ranks 32 \
	--rules "$tmp/fit.txt" > /dev/null 2> "$tmp/err"
[ ! -s "$tmp/err" ] && ! grep -q 'Not fitted' "$tmp/fit.txt" && ok ||
	bad "a machine with an error model of its own warned: $(cat "$tmp/err")"

# The machine from --input (a fitted machine, as fit --emit writes):
# the rules follow it, not the defaults.
printf 'lat_net,byte_net,overhead,nic_gap\n0.5,0.0002,0.8,0.3\n' > "$tmp/fitted.csv"
check_sweep --input "$tmp/fitted.csv" --ranks 2,5,16,40 --msg 1:1MiB:*8 \
	--ppn 4 --map-by node --nodes 10

# A single point: one communicator rule whose only message rule is 0.
"$bin" collective --algorithm best --ranks 8 --msg 100 --rules "$tmp/one.txt" \
	> /dev/null && [ "$(grep -c '^[0-9]' "$tmp/one.txt")" -eq 6 ] && ok ||
	bad "one point: $(cat "$tmp/one.txt")"

# Errors: not best, a swept machine option, an unwritable path.
for args in "--algorithm binomial --rules $tmp/x" \
	"--algorithm best --ppn 1,2 --rules $tmp/x" \
	"--algorithm best --rules $tmp/no/such/dir/x"; do
	# shellcheck disable=SC2086
	"$bin" collective $args > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] &&
		ok || bad "$args: exit $rc, $(cat "$tmp/err")"
done
[ -e "$tmp/x" ] && bad "rules file written on error"

# The picks run on --jobs threads (issue 36): the same files as one
# thread, both libraries; a grid with bad points reports the first in
# order, as one thread does, and leaves no file.
for lib in openmpi mpich; do
	for j in 1 3; do
		"$bin" collective --library $lib --algorithm best --jobs $j \
			--ranks 2:40:3 --msg 1:1MiB:*4 --rules "$tmp/j$j.txt" \
			> /dev/null 2>&1 || bad "$lib --jobs $j: exit $?"
		"$bin" collective --library $lib --algorithm best --jobs $j \
			--ranks 2:16,40,9 --msg 1,100 --ppn 4 --nodes 2 \
			--rules "$tmp/bad$j.txt" > /dev/null 2> "$tmp/bad$j.err"
	done
	cmp -s "$tmp/j1.txt" "$tmp/j3.txt" && ok ||
		bad "$lib: --jobs 3 wrote another rules file than --jobs 1"
	cmp -s "$tmp/bad1.err" "$tmp/bad3.err" &&
		grep -q 'cannot hold 9 ranks' "$tmp/bad3.err" &&
		[ ! -e "$tmp/bad3.txt" ] && ok ||
		bad "$lib: --jobs 3 on bad points: $(cat "$tmp/bad3.err")"
done

# A path that is not a regular file is written in place, never renamed
# over (that would replace the device): /dev/full fails with one line
# and stays a device, for both libraries.
if [ -c /dev/full ]; then
	for lib in openmpi mpich; do
		"$bin" collective --library $lib --algorithm best --ranks 4,8 \
			--msg 1,1024 --rules /dev/full > /dev/null 2> "$tmp/full.err"
		rc=$?
		[ $rc -eq 2 ] && grep -q 'write failed' "$tmp/full.err" &&
			[ -c /dev/full ] && [ ! -e /dev/full.tmp ] && ok ||
			bad "$lib --rules /dev/full: exit $rc, $(cat "$tmp/full.err")"
	done
fi

# han (issue 47) is no tuned rule: where it is the pick the file holds
# algorithm 0 (tuned's fixed decision) with a comment, and one warning
# says what a han user sets; under --ompi-version 5.0 a comment says
# tuned's rules run inside han where han takes the broadcast.
"$bin" collective --algorithm best --among han --ranks 4 --ppn 2 \
	--msg 1,100 --ompi-version 5.0 --rules "$tmp/han.txt" \
	> /dev/null 2> "$tmp/han.err"
rc=$?
[ $rc -eq 0 ] && grep -q '^0 0 0 0 # han: ' "$tmp/han.txt" &&
	grep -q 'han is the pick at 2 points' "$tmp/han.txt" &&
	grep -q 'coll_han_priority 0' "$tmp/han.txt" &&
	grep -q 'coll_han_priority 100' "$tmp/han.err" && ok ||
	bad "--among han --rules: exit $rc, $(cat "$tmp/han.err")"
# The rows printed after the file come from the picks the file was
# written from (evaluated once, issue 48): every column, both libraries,
# on 1 and 3 threads, equal to the same sweep without --rules (which
# evaluates each row afresh), and with an --input machine of two rows.
for lib in openmpi mpich; do
	for j in 1 3; do
		set -- --library $lib --algorithm best --ranks 2,5,16,33,64 \
			--msg 1,100,4KiB,64KiB,1MiB --ppn 8 --sockets 2 \
			--format csv --all-columns --jobs $j
		"$bin" collective "$@" > "$tmp/plain.csv" 2> /dev/null
		"$bin" collective "$@" --rules "$tmp/once" > "$tmp/once.csv" \
			2> /dev/null
		[ -s "$tmp/plain.csv" ] && cmp -s "$tmp/plain.csv" "$tmp/once.csv" &&
			ok || bad "$lib --jobs $j: the rows after --rules differ"
	done
done
printf 'lat_net,byte_net\n2,0.001\n3,0.002\n' > "$tmp/two.csv"
set -- --input "$tmp/two.csv" --algorithm best --ranks 4,16,64 \
	--msg 1,1KiB,1MiB --ppn 8 --sockets 2 --format csv
"$bin" collective "$@" > "$tmp/plain.csv" 2> /dev/null
"$bin" collective "$@" --rules "$tmp/once" > "$tmp/once.csv" 2> /dev/null
[ -s "$tmp/plain.csv" ] && cmp -s "$tmp/plain.csv" "$tmp/once.csv" && ok ||
	bad "--input of two machines: the rows after --rules differ"

echo "rules.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
