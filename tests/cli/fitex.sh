#!/bin/sh
# fitex.sh BINARY - the worked examples of mcastlat-fit(1) and
# mcastlat-collective(1) are regression tests too.  Their blocks start
# with "% " instead of "$ " (so manex.sh, whose examples run in an empty
# directory, leaves them alone): they read the measurement files of
# examples/ (fit: the synthetic *.out; collective: the plain real CSVs
# of examples/real), so they run in a directory holding a copy of
# those, with mcastlat a function calling BINARY.  Commands and outputs
# are read as manex.sh reads them, by the same manblocks.awk (a command
# continues while its line ends in a backslash; the output is exact and
# complete).
set -u
. "$(dirname "$0")/testlib.sh"
sep='=== fitex: next command ==='

# pagetest PAGE: run PAGE's "% " blocks, at least two.
pagetest() {
	page=$1
	rm -rf "$tmp/ex" "$tmp/run" && mkdir "$tmp/ex" "$tmp/run" || exit 1
	awk -v dir="$tmp/ex" -v page="$page" -v sep="$sep" -v prompt='% ' \
		-v rc=rc -f "$(dirname "$0")/manblocks.awk" "$page" > "$tmp/errors"
	while IFS= read -r e; do
		bad "${e#error: }"
	done < "$tmp/errors"

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
