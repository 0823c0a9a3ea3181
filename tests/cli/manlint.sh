#!/bin/sh
# manlint.sh VERSION DATE - quality gates of the man pages (man/*.1),
# as Debian's lintian checks them:
#
#   .TH       every page's .TH line is
#             .TH MCASTLAT\-NAME 1 DATE "mcastlat VERSION" "User Commands"
#             with the Makefile's VERSION and DATE (make man-stamp writes
#             it), so that dates and version agree across pages;
#   warnings  `man --warnings` (groff's warnings) prints nothing;
#   width     rendered with MANWIDTH=80, no line is longer than 80
#             characters (examples and tables are not filled, so this is
#             where a wide one shows);
#   files     no page refers to a file that is not installed: the
#             specification (SPEC), the papers' text files, the source
#             tree's src/ and tests/ (scripts/ is named as "in the source
#             tree" by hand).
#
# It needs man-db and groff-base (make deps).
set -u
version=${1:?usage: manlint.sh VERSION DATE}
date=${2:?usage: manlint.sh VERSION DATE}
pass=0
fail=0

bad() {
	fail=$((fail + 1))
	printf 'FAIL: %s\n' "$*"
}

if ! command -v man > /dev/null || ! command -v groff > /dev/null; then
	echo "FAIL: man or groff not found: run 'make deps' (man-db, groff-base)"
	exit 1
fi
export LC_ALL=C.UTF-8 MANPAGER=cat PAGER=cat MANROFFSEQ=

for m in man/*.1; do
	[ -e "$m" ] || continue
	name=$(basename "$m" .1 | tr '[:lower:]' '[:upper:]' | sed 's/-/\\-/g')
	want=".TH $name 1 $date \"mcastlat $version\" \"User Commands\""
	got=$(grep -m 1 '^\.TH' "$m")
	if [ "$got" != "$want" ]; then
		bad "$m: .TH is not '$want' (make man-stamp): $got"
	else
		pass=$((pass + 1))
	fi

	warn=$(MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$m" 2>&1 \
		> /dev/null)
	if [ -n "$warn" ]; then
		bad "$m: groff warnings:"
		printf '%s\n' "$warn" | head -n 10
	else
		pass=$((pass + 1))
	fi

	wide=$(MANWIDTH=80 man -l "$m" 2> /dev/null | grep -n '^.\{81,\}')
	if [ -n "$wide" ]; then
		bad "$m: rendered lines longer than 80 columns (line: text):"
		printf '%s\n' "$wide" | head -n 10
	elif [ -z "$(MANWIDTH=80 man -l "$m" 2> /dev/null)" ]; then
		bad "$m: renders empty"
	else
		pass=$((pass + 1))
	fi

	refs=$(awk '
		/SPEC|papers\/|\.txt|src\/|tests\/|\/work\// {
			print FILENAME ":" FNR ": " $0
		}' "$m")
	if [ -n "$refs" ]; then
		bad "$m: refers to files that are not installed:"
		printf '%s\n' "$refs"
	else
		pass=$((pass + 1))
	fi
done

echo "man pages: $pass passed, $fail failed"
[ $fail -eq 0 ]
