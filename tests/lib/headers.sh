#!/bin/sh
# headers.sh - the public headers, as a program of someone else's sees
# them: each compiles on its own in strict C99 (self-contained, no C11
# or GNU dialect needed), and <mcastlat.h> in C++ gives C linkage (the
# extern "C" guards): the calls in an object compiled by $CXX refer to
# the plain names, not to mangled ones.
#
#   CC=cc CXX=g++ headers.sh include/mcastlat.h include/mcastlat/*.h
set -eu
CC=${CC:-cc}
CXX=${CXX:-g++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

for h in "$@"; do
	name=${h#include/}
	printf '#include <%s>\nint ml_headers_check;\n' "$name" > "$tmp/t.c"
	$CC -std=c99 -pedantic -Wall -Wextra -Werror -Iinclude -fsyntax-only \
		"$tmp/t.c" || { echo "headers: $name is not C99-clean" >&2; exit 1; }
	n=$((n + 1))
done

if ! command -v "$CXX" > /dev/null 2>&1; then
	echo "headers: $n headers C99-clean; C++ check skipped: no $CXX"
	exit 0
fi
cat > "$tmp/t.cc" <<'CC'
#include <mcastlat.h>

int main()
{
	struct ml_kbinomial_params p;
	struct ml_kbinomial_result r;

	ml_kbinomial_params_init(&p);
	return ml_kbinomial_eval(&p, &r) == ML_OK && ml_version() ? 0 : 1;
}
CC
$CXX -std=c++11 -pedantic -Wall -Wextra -Werror -Iinclude -c \
	-o "$tmp/t.o" "$tmp/t.cc"
nm -u "$tmp/t.o" | awk '{ print $2 }' > "$tmp/undef"
for f in ml_kbinomial_params_init ml_kbinomial_eval ml_version; do
	grep -qx "$f" "$tmp/undef" || {
		echo "headers: $f has C++ linkage in C++ (extern \"C\" missing):" \
			"$(tr '\n' ' ' < "$tmp/undef")" >&2
		exit 1
	}
done
echo "headers: $n headers C99-clean, C linkage from $CXX"
