#!/bin/sh
# run.sh BINARY - CLI golden tests, run from the top of the tree.
#
# tests/cli/golden/*.t   first line "$ mcastlat ARGS" (shell words), the
#                        rest the exact expected stdout; exit status 0.
# tests/cli/bad_inputs.txt
#                        one command per line ("mcastlat ..."); each must
#                        exit 2 with exactly one line on stderr and nothing
#                        on stdout.
# The man pages' examples are golden tests of their own, with their output
# in the page (manex.sh); the tests here are those the pages do not show.
# MCASTLAT_WRAP, when set, is put before the binary (make valgrind).
set -u
. "$(dirname "$0")/testlib.sh"
wrap=${MCASTLAT_WRAP:-}

mcastlat() {
	# shellcheck disable=SC2086 # $wrap is a command with its options
	$wrap "$bin" "$@"
}

for t in tests/cli/golden/*.t; do
	[ -e "$t" ] || continue
	cmd=$(head -n 1 "$t")
	case $cmd in
	'$ mcastlat'*) ;;
	*) bad "$t: first line must start with '\$ mcastlat'"; continue ;;
	esac
	tail -n +2 "$t" > "$tmp/want"
	eval "${cmd#\$ }" > "$tmp/got" 2> "$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "$t: exit $rc: $(head -n 3 "$tmp/err")"
	elif ! cmp -s "$tmp/want" "$tmp/got"; then
		bad "$t: output differs"
		diff "$tmp/want" "$tmp/got" | head -n 10
	else
		pass=$((pass + 1))
	fi
done

if [ -f tests/cli/bad_inputs.txt ]; then
	while IFS= read -r line; do
		case $line in '' | '#'*) continue ;; esac
		eval "$line" > "$tmp/out" 2> "$tmp/err" < /dev/null
		rc=$?
		nerr=$(wc -l < "$tmp/err")
		if [ $rc -ne 2 ]; then
			bad "exit $rc, not 2: $line"
		elif [ "$nerr" -ne 1 ]; then
			bad "$nerr stderr lines, not 1: $line"
		elif [ -s "$tmp/out" ]; then
			bad "stdout not empty: $line"
		elif ! grep -q '^mcastlat: ' "$tmp/err"; then
			bad "message does not start with 'mcastlat: ': $line"
		else
			pass=$((pass + 1))
		fi
	done < tests/cli/bad_inputs.txt
fi

finish "cli"
