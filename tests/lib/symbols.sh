#!/bin/sh
# symbols.sh - the library's symbols, as a packager checks them.
#
#   symbols.sh LIB.a LIB.so.X.Y.Z SONAME HEADER...
#
# Every global symbol defined in the static library starts with ml_ (it
# shares the program's namespace); the shared library exports exactly the
# functions (and the objects declared ML_API extern) of the public
# headers, leaves no symbol unresolved, names GSL and libm in its
# NEEDED list and carries SONAME.
set -eu
a=$1 so=$2 soname=$3
shift 3
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bad() {
	echo "symbols: $*" >&2
	fail=1
}

# Sanitizer builds add their own globals (__asan_*, __odr_asan.*); they
# are not ours.
nm -g --defined-only "$a" | awk 'NF == 3 { print $3 }' |
	grep -v -e '^__asan' -e '^__odr_asan' -e '^__ubsan' -e '^__sancov' |
	sort -u > "$tmp/static"
[ -s "$tmp/static" ] || bad "$a: no symbols"
if grep -v '^ml_' "$tmp/static" > "$tmp/unprefixed"; then
	bad "$a: global symbols without the ml_ prefix:" \
		"$(tr '\n' ' ' < "$tmp/unprefixed")"
fi

# The declared interface: every function declared ML_API in the headers
# (declarations may span lines).
cat "$@" | tr '\n' ' ' | grep -o 'ML_API [^;(]*(' |
	grep -o 'ml_[a-z0-9_]*($' | tr -d '(' > "$tmp/functions"
# ... and the objects declared ML_API extern (the fit adapters).
cat "$@" | tr '\n' ' ' | grep -o 'ML_API extern [^;(]*;' |
	grep -o 'ml_[a-z0-9_]*;$' | tr -d ';' > "$tmp/objects" || :
sort -u "$tmp/functions" "$tmp/objects" > "$tmp/declared"
[ "$(wc -l < "$tmp/declared")" -ge 20 ] ||
	bad "only $(wc -l < "$tmp/declared") functions declared ML_API"
nm -D --defined-only "$so" | awk 'NF == 3 { print $3 }' | sort -u \
	> "$tmp/exported"
if ! cmp -s "$tmp/declared" "$tmp/exported"; then
	bad "$so: exports differ from the headers' ML_API functions" \
		"(< declared, > exported):"
	diff "$tmp/declared" "$tmp/exported" | grep '^[<>]' >&2 || :
fi

# Linked with -z defs already; ldd -r shows what the loader would miss.
if ldd -r "$so" 2>&1 | grep -i 'undefined symbol' > "$tmp/undef"; then
	bad "$so: undefined symbols: $(cat "$tmp/undef")"
fi
readelf -d "$so" > "$tmp/dynamic"
grep -q "(SONAME).*\[$soname\]" "$tmp/dynamic" ||
	bad "$so: SONAME is not $soname"
for lib in libgsl.so libm.so; do
	grep -q "(NEEDED).*\[$lib" "$tmp/dynamic" || bad "$so: $lib not NEEDED"
done
grep -q '(TEXTREL)' "$tmp/dynamic" && bad "$so: text relocations"

[ $fail = 0 ] && echo "symbols: $(wc -l < "$tmp/exported") exported," \
	"$(wc -l < "$tmp/static") global in $(basename "$a"), all ml_"
exit $fail
