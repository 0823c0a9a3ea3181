#!/bin/sh
# fitex.sh BINARY - the worked examples of mcastlat-fit(1) and
# mcastlat-collective(1) are regression tests too.  Their blocks start
# with "% " instead of "$ " (so manex.sh, whose examples run in an empty
# directory, leaves them alone): they read the measurement files of
# examples/ (fit: the synthetic *.out; collective: the plain real CSVs
# of examples/real), so they run in a directory holding a copy of
# those, with mcastlat a function calling BINARY.  Commands and outputs are read as manex.sh reads them
# (a command continues while its line ends in a backslash; the output is
# exact and complete).
set -u
. "$(dirname "$0")/testlib.sh"
sep='=== fitex: next command ==='

# pagetest PAGE: run PAGE's "% " blocks, at least two.
pagetest() {
	page=$1
	rm -rf "$tmp/ex" "$tmp/run" && mkdir "$tmp/ex" "$tmp/run" || exit 1
	awk -v dir="$tmp/ex" -v sep="$sep" '
	function unescape(s,   out, c, n) {
		out = ""
		while ((n = index(s, "\\")) > 0) {
			out = out substr(s, 1, n - 1)
			c = substr(s, n + 1, 1)
			s = substr(s, n + 2)
			if (c == "-") out = out "-"
			else if (c == "e") out = out "\\"
			else if (c == "(") {
				c = substr(s, 1, 2)
				s = substr(s, 3)
				if (c == "aq") out = out "\047"
				else out = out "?"
			} else out = out "?"
		}
		return out s
}
/^\.nf/ { inblk = 1; nb = 0; next }
/^\.fi/ {
	if (inblk && nb > 0 && substr(blk[1], 1, 2) == "% ") {
		n++
		sh = dir "/" n ".sh"; want = dir "/" n ".want"
		printf "" > want
		incmd = 0
		for (i = 1; i <= nb; i++) {
			line = blk[i]
			if (!incmd && substr(line, 1, 2) == "% ") {
				if (i > 1) print sep > want
				line = substr(line, 3); incmd = 1
			} else if (!incmd) { print line > want; continue }
			print line > sh
			if (line !~ /\\$/) {
				print "rc=$?; [ $rc -eq 0 ] || exit $rc" > sh
				printf "echo \"%s\"\n", sep > sh
				incmd = 0
			}
		}
		print sep > want
		close(sh); close(want)
	}
	inblk = 0; next
}
inblk && /^[.\047]/ { next }
inblk { blk[++nb] = unescape($0) }
' "$page"

# One directory for the page: a block may read what an earlier block
# of the page wrote (collective's fitted.csv).
count=0
rm -rf "$tmp/run" && mkdir -p "$tmp/run/examples/real" || exit 1
cp examples/*.out "$tmp/run/examples/" || exit 1
cp examples/real/*.csv "$tmp/run/examples/real/" || exit 1
while [ -e "$tmp/ex/$((count + 1)).sh" ]; do
	count=$((count + 1))
	n=$tmp/ex/$count
	s=$n.sh
	{
		# shellcheck disable=SC2016 # expanded by the example's sh
		printf 'mcastlat() { "%s" "$@"; }\n' "$bin"
		cat "$s"
	} > "$tmp/script"
	(cd "$tmp/run" && sh "$tmp/script") > "$tmp/got" 2> "$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "$page: worked example $count: exit $rc: $(head -n 3 "$tmp/err")"
	elif ! cmp -s "$n.want" "$tmp/got"; then
		bad "$page: worked example $count: output differs (- page, + binary)"
		diff -u "$n.want" "$tmp/got" | sed -n '3,$p' | head -n 20
	else
		ok
	fi
done
[ "$count" -ge 2 ] || bad "$page: fewer than two worked-example blocks"
}

pagetest man/mcastlat-fit.1
pagetest man/mcastlat-collective.1
finish "worked examples (fit, collective)"
