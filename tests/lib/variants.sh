#!/bin/sh
# variants.sh - no variant build writes the default build's artefacts.
#
#   MAKE=make variants.sh
#
# Every make command of .ci/run that builds a variant (its own BUILD,
# SANITIZE, check-clang), and the fuzz and valgrind builds, is run with
# -n -B (every recipe printed, none run, recursive makes too): none may
# write ./mcastlat or ./libmcastlat.a, which `make install` takes.  And
# .ci/run itself must not remove or rebuild them.
set -eu
MAKE=${MAKE:-make}
# make -n runs this line (it names $(MAKE)): not again from within.
[ -z "${MCASTLAT_VARIANTS-}" ] || exit 0
export MCASTLAT_VARIANTS=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

# The default artefacts as the target of a compiler, cp, ar or rm.
writes='(-o|cp [^ ]+|ar [a-z]+|rcs|rm -f( [^ ]+)*) (\./)?(mcastlat|libmcastlat\.a)( |;|$)'

if grep -Eq "$writes" .ci/run; then
	echo "variants: .ci/run writes or removes ./mcastlat or ./libmcastlat.a" >&2
	fail=1
fi

# The CI's make commands (continuation lines joined), variants only.
sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' .ci/run |
	sed -n 's/^[A-Z_]*=[^ ]* *//; s/^[A-Z_]*=[^ ]* *//; s/^[[:space:]]*make //p' |
	grep -E 'BUILD=|SANITIZE=|check-clang' > "$tmp/cmds" || :
[ -s "$tmp/cmds" ] || { echo "variants: no variant build in .ci/run" >&2; exit 1; }
{
	cat "$tmp/cmds"
	echo "FUZZ_SECONDS=1 fuzz"
	echo "valgrind"
} > "$tmp/all"
while read -r args; do
	n=$((n + 1))
	# Not the calling make's flags or variables (BUILD, SANITIZE).
	# shellcheck disable=SC2086 # args is a list of words
	if ! MAKEFLAGS= MAKELEVEL= $MAKE --no-print-directory -n -B \
		$(echo "$args" | sed 's/-j[0-9]*//') > "$tmp/out" 2>&1; then
		echo "variants: make -n $args failed:" >&2
		tail -n 5 "$tmp/out" >&2
		fail=1
		continue
	fi
	if grep -Eq "$writes" "$tmp/out"; then
		echo "variants: make $args writes the default build's files:" >&2
		grep -E "$writes" "$tmp/out" | cut -c1-160 >&2
		fail=1
	fi
done < "$tmp/all"
[ $fail = 0 ] && echo "variants: $n variant builds leave ./mcastlat and" \
	"./libmcastlat.a alone"
exit $fail
