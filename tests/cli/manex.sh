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
	awk -v dir="$tmp/ex" -v page="$1" -v sep="$sep" '
	function unescape(s,   out, c, n) {
		out = ""
		while ((n = index(s, "\\")) > 0) {
			out = out substr(s, 1, n - 1)
			c = substr(s, n + 1, 1)
			s = substr(s, n + 2)
			if (c == "-") out = out "-"
			else if (c == "e") out = out "\\"
			else if (c == "&") out = out ""
			else if (c == "(") {
				c = substr(s, 1, 2)
				s = substr(s, 3)
				if (c == "aq") out = out "\047"
				else if (c == "dq") out = out "\""
				else if (c == "ga") out = out "`"
				else if (c == "ti") out = out "~"
				else if (c == "ha") out = out "^"
				else if (c == "rs") out = out "\\"
				else bad("unknown escape \\(" c)
			} else bad("unknown escape \\" c)
		}
		return out s
	}
	function bad(msg) {
		printf "error: %s:%d: %s\n", page, NR, msg
	}
	function finish(   i, line, incmd, n) {
		if (nb == 0 || substr(blk[1], 1, 2) != "$ ") {
			for (i = 2; i <= nb; i++)
				if (substr(blk[i], 1, 2) == "$ ")
					bad("block of line " start " has a command " \
					    "after its first line")
			nb = 0
			return
		}
		n = ++count
		sh = dir "/" n ".sh"; want = dir "/" n ".want"
		printf "%s:%d: %s\n", page, start + 1, blk[1] > (dir "/" n ".where")
		printf "" > want
		incmd = 0
		for (i = 1; i <= nb; i++) {
			line = blk[i]
			if (!incmd && substr(line, 1, 2) == "$ ") {
				if (i > 1)
					print sep > want
				line = substr(line, 3)
				incmd = 1
			} else if (!incmd) {
				print line > want
				continue
			}
			print line > sh
			if (line !~ /\\$/) {
				print "manex_rc=$?; [ $manex_rc -eq 0 ] || exit $manex_rc" > sh
				printf "echo \"%s\"\n", sep > sh
				incmd = 0
			}
		}
		if (incmd)
			bad("example ends inside a command")
		print sep > want
		close(sh); close(want); close(dir "/" n ".where")
		nb = 0
	}
	/^\.(nf|EX)([ \t]|$)/ { inblk = 1; nb = 0; start = NR; next }
	/^\.(fi|EE)([ \t]|$)/ { if (inblk) finish(); inblk = 0; next }
	inblk && /^[.\047]/ {
		if (nb > 0 && substr(blk[1], 1, 2) == "$ ")
			bad("request inside an example: " $0)
		next
	}
	inblk { blk[++nb] = unescape($0); next }
	/^\$ / { bad("example outside a .nf/.EX block: " $0) }
	' "$1"
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
