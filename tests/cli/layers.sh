#!/bin/sh
# layers.sh - the engine of src/cli reads top-down: every call from one
# file to a function of another goes down the layers below, never up or
# across, so the files form layers a newcomer reads from main and run
# down to the leaves (issue 21).
#
#   layers.sh [SRCDIR]        (default src/cli)
#
# A function is a file's when the file defines it (a line starting with
# its type and "ml_name("); a call is "ml_name(" anywhere else in another
# file.  A file not in the table is reported and left unchecked (a new
# file is placed here when it comes).
set -u
dir=${1:-src/cli}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Layer of each file, from the top.
layer() {
	case $1 in
	main.c) echo 0 ;;
	commands.c | completion.c) echo 1 ;;
	run.c | fit_cmd.c) echo 2 ;;
	help.c | batch.c) echo 3 ;;
	args.c) echo 4 ;;
	sweep.c) echo 5 ;;
	columns.c) echo 6 ;;
	cmd_*.c | fit_out.c) echo 7 ;;
	table.c | progress.c | outfile.c | trace.c) echo 8 ;;
	fitdata.c | read_*.c) echo 8 ;;
	output.c) echo 9 ;;
	parse.c | suggest.c | shortest.c | csvline.c) echo 10 ;;
	msg.c) echo 11 ;;
	*) echo - ;;
	esac
}

pass=0 fail=0
for f in $(find "$dir" -name "*.c" | sort); do
	b=${f##*/}
	grep -o '^[a-z][a-z0-9_ *]*[ *]ml_[a-z0-9_]*(' "$f" |
		grep -o 'ml_[a-z0-9_]*' | sed "s|\$| $b|"
done | sort -u > "$tmp/defs"
for f in $(find "$dir" -name "*.c" | sort); do
	b=${f##*/}
	lf=$(layer "$b")
	if [ "$lf" = - ]; then
		echo "layers: $b is not placed in tests/cli/layers.sh (not checked)" >&2
		continue
	fi
	while read -r fn owner; do
		[ "$owner" = "$b" ] && continue
		grep -q "\\b$fn(" "$f" || continue
		lo=$(layer "$owner")
		[ "$lo" = - ] && continue
		if [ "$lo" -gt "$lf" ]; then
			pass=$((pass + 1))
		else
			echo "FAIL: $b (layer $lf) calls $fn of $owner (layer $lo): up or across" >&2
			fail=$((fail + 1))
		fi
	done < "$tmp/defs"
done
echo "layers: $pass calls down, $fail up or across"
[ $fail = 0 ] && [ $pass -gt 50 ]
