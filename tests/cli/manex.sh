#!/bin/sh
# manex.sh BINARY - every example of the man pages is a regression test
# (OpenBSD's habit): the page itself is the golden file.
#
# An example is a no-fill block of a page (.nf ... .fi or .EX ... .EE)
# whose first line starts with "$ ".  It is a shell session: each line
# starting with "$ " is a command, continued on the next line while it
# ends in a backslash (as the shell reads it, so that long commands fit
# 80 columns); the lines up to the next command or the end of the block
# are that command's exact standard output, all of it: there is no
# elision marker, so an example is chosen to print a few short lines
# (--columns, --precision, few points).  Standard error is not compared
# (a warning an example prints is shown only when it fails); a command
# must exit 0, so an example shows another status with "; echo $?".
#
# Each block runs in sh in an empty directory of its own, with
# mcastlat a function calling BINARY: an example may write its input
# with printf and must not use files of the source tree, which are not
# installed.  The groff escapes a block may use are \- \e \& \(aq \(dq
# \(ga \(ti \(ha and \(rs; any other escape, a request inside an
# example, and a "$ " line outside one fail the test.
#
# MCASTLAT_WRAP, when set, is put before the binary (make valgrind).
set -u
. "$(dirname "$0")/testlib.sh"
wrap=${MCASTLAT_WRAP:-}
# Separates the outputs of the commands of a block in want and got.
sep='=== manex: next command ==='

# extract PAGE: write $tmp/ex/N.sh (the commands, each followed by a
# separator line), N.want (the outputs, separated alike) and N.where
# ("PAGE:LINE: first command line"); print "error: ..." lines for a
# malformed page.
extract() {
	awk -v dir="$tmp/ex" -v page="$1" -v sep="$sep" -v prompt='$ ' \
		-v rc=manex_rc -f "$(dirname "$0")/manblocks.awk" "$1"
}

mkdir "$tmp/ex" || exit 1
for m in man/*.1; do
	[ -e "$m" ] || continue
	rm -f "$tmp"/ex/*
	extract "$m" > "$tmp/errors"
	if [ -s "$tmp/errors" ]; then
		fail=$((fail + $(wc -l < "$tmp/errors")))
		sed 's/^error: /FAIL: /' "$tmp/errors"
	fi
	for s in "$tmp"/ex/*.sh; do
		[ -e "$s" ] || continue
		n=${s%.sh}
		rm -rf "$tmp/run" && mkdir "$tmp/run" || exit 1
		{
			# shellcheck disable=SC2016 # expanded by the example's sh
			printf 'mcastlat() { %s "%s" "$@"; }\n' "$wrap" "$bin"
			cat "$s"
		} > "$tmp/script"
		(cd "$tmp/run" && sh "$tmp/script") > "$tmp/got" 2> "$tmp/err"
		rc=$?
		if [ $rc -ne 0 ]; then
			fail=$((fail + 1))
			printf 'FAIL: %s\n  exit %d: %s\n' "$(cat "$n.where")" $rc \
				"$(head -n 3 "$tmp/err")"
		elif ! cmp -s "$n.want" "$tmp/got"; then
			fail=$((fail + 1))
			printf 'FAIL: %s\n  output differs (- page, + binary):\n' \
				"$(cat "$n.where")"
			diff -u "$n.want" "$tmp/got" | sed -n '3,$p' | head -n 20
		else
			pass=$((pass + 1))
		fi
	done
done

finish "man examples"
