#!/bin/sh
# statuses.sh - every status a command's rows can have is documented
# where it can occur, the same in --help and in the man page.
#
#   statuses.sh MCASTLAT
#
# For each command of `mcastlat list`: the words of the "Statuses:" list
# of `mcastlat CMD --help` (generated from the command's table) must be
# those of the .TP entries of the STATUS section of man/mcastlat-CMD.1,
# in the same order; each is a status word the library spells.  And no
# line of `mcastlat --help` or of any command's --help is wider than 80
# columns.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*" >&2; fail=$((fail + 1)); }

known=' ok invalid saturated no-convergence no-memory overflow deadlock unidentifiable '
"$bin" --help > "$tmp/main" || bad "mcastlat --help failed"
awk 'length > 80 { print NR ": " length " columns" }' "$tmp/main" > "$tmp/wide"
[ -s "$tmp/wide" ] && bad "mcastlat --help: $(head -n 1 "$tmp/wide")" || ok
for cmd in $("$bin" list | awk '{ print $1 }'); do
	"$bin" "$cmd" --help > "$tmp/help" || { bad "$cmd --help failed"; continue; }
	awk 'length > 80 { print NR ": " length " columns" }' "$tmp/help" \
		> "$tmp/wide"
	[ -s "$tmp/wide" ] && bad "$cmd --help: $(head -n 1 "$tmp/wide")" || ok
	awk '/^Statuses:$/ { on = 1; next } on && /^$/ { exit }
		on && /^  [a-z]/ { print $1 }' "$tmp/help" > "$tmp/h"
	page=man/mcastlat-$cmd.1
	if [ ! -f "$page" ]; then
		bad "$cmd: no man page $page"
		continue
	fi
	awk '/^\.SH / { on = ($0 == ".SH STATUS"); next }
		on && prev == ".TP" && /^\.B / { w = $2; gsub(/\\-/, "-", w); print w }
		{ prev = $0 }' "$page" > "$tmp/m"
	[ -s "$tmp/h" ] || bad "$cmd --help lists no statuses"
	[ -s "$tmp/m" ] || bad "$page: no STATUS section with .TP entries"
	if cmp -s "$tmp/h" "$tmp/m"; then
		ok
	else
		bad "$cmd: --help statuses ($(tr '\n' ' ' < "$tmp/h")) differ" \
			"from $page ($(tr '\n' ' ' < "$tmp/m"))"
	fi
	for w in $(cat "$tmp/h"); do
		case $known in
		*" $w "*) ok ;;
		*) bad "$cmd: '$w' is not a status word" ;;
		esac
	done
	grep -qx ok "$tmp/h" && ok || bad "$cmd: ok is not listed"
done
echo "statuses: $pass passed, $fail failed"
[ $fail = 0 ]
