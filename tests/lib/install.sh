#!/bin/sh
# install.sh - `make install` as a packager runs it, and the installed
# library as a user builds against it.
#
#   CC=cc STATIC=-static VERSION=0.1.0 SOVERSION=0 install.sh DIR
#
# Installs into the fresh DESTDIR DIR with PREFIX=/usr and compares the
# files with tests/install-manifest.txt; builds examples/predict.c with
# the installed pkg-config file (PKG_CONFIG_SYSROOT_DIR points its paths
# into DIR), statically (when STATIC is set: not under the sanitizers)
# and against the shared library, and checks each line it prints against
# the installed CLI's --value for the same point, as examples/predict.py
# (when python3 is present); then `make uninstall` must leave no file.
set -eu
CC=${CC:-cc}
MAKE=${MAKE:-make}
STATIC=${STATIC-}
dest=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$dest/root
lib=$root/usr/lib

fail() {
	echo "install: $*" >&2
	exit 1
}

rm -rf "$dest"
mkdir -p "$root"
# The parent make's command-line variables (BUILD, SANITIZE) reach this
# one through MAKEFLAGS; the directories are set here, so that a
# `make check LIBDIR=...` still installs the layout of the manifest.
dirs="PREFIX=/usr BINDIR=/usr/bin LIBDIR=/usr/lib INCDIR=/usr/include
	DATADIR=/usr/share MANDIR=/usr/share/man
	PKGCONFIGDIR=/usr/lib/pkgconfig
	COMPLETIONDIR=/usr/share/bash-completion/completions"
# shellcheck disable=SC2086 # $dirs is a list of words
$MAKE -s --no-print-directory install DESTDIR="$root" $dirs \
	> "$dest/install.log" 2>&1 ||
	{ cat "$dest/install.log" >&2; fail "make install failed"; }

# The tree against the manifest.
(cd "$root" && find . -type f -o -type l) | sed 's|^\.||' | sort \
	> "$dest/tree"
grep -v '^#' tests/install-manifest.txt |
	sed -e "s/@VERSION@/$VERSION/" -e "s/@SOVERSION@/$SOVERSION/" |
	sort > "$dest/manifest"
diff -u "$dest/manifest" "$dest/tree" ||
	fail "installed files differ from tests/install-manifest.txt"
if [ "$(readlink "$lib/libmcastlat.so")" != "libmcastlat.so.$SOVERSION" ] ||
	[ "$(readlink "$lib/libmcastlat.so.$SOVERSION")" != \
		"libmcastlat.so.$VERSION" ]; then
	fail "the shared library's links are wrong"
fi
for f in "$lib/libmcastlat.so.$VERSION" "$lib/libmcastlat.a" \
	"$root/usr/include/mcastlat.h"; do
	[ "$(stat -c %a "$f")" = 644 ] || fail "$f is not mode 644"
done

# pkg-config, as a user's build calls it.
export PKG_CONFIG_PATH="$lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$root"
[ "$(pkg-config --modversion mcastlat)" = "$VERSION" ] ||
	fail "pkg-config --modversion is not $VERSION"
cflags=$(pkg-config --cflags mcastlat)
libs=$(pkg-config --libs mcastlat)
echo "install: pkg-config: $cflags $libs"
# The .pc writes libdir and includedir under ${prefix}, so that
# --define-prefix (the prefix from the file's place) finds the tree too.
dp=$(PKG_CONFIG_SYSROOT_DIR='' pkg-config --define-prefix --cflags \
	--libs mcastlat | tr -s ' ')
[ "$dp" = "$(echo "$cflags $libs" | tr -s ' ')" ] ||
	fail "pkg-config --define-prefix gives '$dp'"

# The CLI's value for each point predict.c evaluates (same order).
cli="$root/usr/bin/mcastlat"
"$cli" --version | grep -qx "mcastlat $VERSION" ||
	fail "mcastlat --version is not $VERSION"
{
	echo "cluster $("$cli" cluster --op bcast --msg 6000 --nodes 64 --value latency)"
	echo "kbinomial $("$cli" kbinomial --nodes 256 --packets 8 --value latency)"
	echo "hypercube $("$cli" hypercube --dims 7 --rate 0.002 --value latency)"
	echo "torus $("$cli" torus --algorithm mu --k 8 --group 64 --value latency)"
	echo "simulate $("$cli" simulate --topology mesh --k 4 --rate 0.01 \
		--warmup 1000 --ci 0.05 --value latency)"
} > "$dest/cli"

# Each "model value ..." line of $1 against the CLI's value (predict.c
# prints 10 significant digits); $2 names the variant.
compare() {
	grep -qx "libmcastlat $VERSION" "$1" ||
		fail "$2: does not report libmcastlat $VERSION"
	grep -v '^libmcastlat ' "$1" | awk -v what="$2" '
		NR == FNR { want[$1] = $2; next }
		{
			seen++
			if (!($1 in want)) { print what ": unknown model " $1; bad = 1; next }
			w = want[$1]; d = $2 - w; if (d < 0) d = -d
			if (d > 1e-9 * (w < 0 ? -w : w)) {
				print what ": " $1 " " $2 ", the CLI says " w; bad = 1
			}
		}
		END { if (seen != 5) { print what ": " seen " lines, not 5"; bad = 1 }
		      exit bad }' "$dest/cli" - >&2 || fail "$2: values differ"
}

# Statically, as from libmcastlat.a.
if [ -n "$STATIC" ]; then
	# shellcheck disable=SC2046,SC2086 # word splitting is the point
	$CC -std=c99 -Wall -Wextra -pedantic -Werror -o "$dest/predict-static" \
		examples/predict.c $cflags $STATIC \
		$(pkg-config --static --libs mcastlat)
	readelf -d "$dest/predict-static" 2>/dev/null | grep -q NEEDED &&
		fail "predict-static is dynamically linked"
	"$dest/predict-static" > "$dest/static.out"
	compare "$dest/static.out" "static predict.c"
	echo "install: static predict.c agrees with the CLI"
else
	echo "install: static predict.c skipped (STATIC is empty)"
fi

# Against the shared library, found by the soname.
# shellcheck disable=SC2086
$CC -std=c99 -Wall -Wextra -pedantic -Werror -o "$dest/predict-shared" \
	examples/predict.c $cflags $libs
readelf -d "$dest/predict-shared" |
	grep -q "(NEEDED).*\[libmcastlat.so.$SOVERSION\]" ||
	fail "predict-shared does not need libmcastlat.so.$SOVERSION"
LD_LIBRARY_PATH=$lib "$dest/predict-shared" > "$dest/shared.out"
compare "$dest/shared.out" "shared predict.c"
echo "install: shared predict.c agrees with the CLI"

# The README's example: 4 packets to 64 nodes on the optimal tree, k = 2:
# L1(64,2) = 8 (N(7,2) = 54 < 64 <= N(8,2) = 88), plus (4 - 1) x 2 = 14
# steps of t_ns + t_nr = 5 us: 12.5 + 70 + 12.5 = 95 us.
# shellcheck disable=SC2016 # sed addresses, not shell
sed -n '/^```c$/,/^```$/p' README.md | sed '1d;$d' > "$dest/readme.c"
# shellcheck disable=SC2086
$CC -std=c99 -Wall -Wextra -pedantic -Werror -o "$dest/readme" \
	"$dest/readme.c" $cflags $libs
[ "$(LD_LIBRARY_PATH=$lib "$dest/readme")" = "95 us" ] ||
	fail "the README's example does not print 95 us"

if command -v python3 > /dev/null 2>&1; then
	python3 examples/predict.py "$lib/libmcastlat.so.$SOVERSION" \
		> "$dest/py.out"
	grep -v '^libmcastlat ' "$dest/py.out" | awk '
		NR == FNR { want[$1] = $2; next }
		{ seen++; w = want[$1]; d = $2 - w; if (d < 0) d = -d
		  if (!($1 in want) || d > 1e-9 * w) {
			print "predict.py: " $0 ", the CLI says " w; bad = 1 } }
		END { exit bad || !seen }' "$dest/cli" - >&2 ||
		fail "predict.py differs from the CLI"
	echo "install: predict.py ($(grep -vc '^libmcastlat ' "$dest/py.out") models) agrees with the CLI"
else
	echo "install: predict.py skipped: no python3"
fi

# The README's recipe for a prefix that is not a system directory, run
# as written (the block after its "tests/lib/install.sh runs this block"
# comment) with HOME in DIR, in a directory of its own that holds the
# README's example as prog.c; make is this tree's.  The program must find
# libmcastlat.so.0 through its rpath alone, predict.py through
# LD_LIBRARY_PATH; examples/predict.py without the library prints its
# usage, not a traceback.
repo=$PWD
work=$dest/recipe
mkdir -p "$work/home"
cp "$dest/readme.c" "$work/prog.c"
ln -s "$repo/examples" "$work/examples"
sed -n '/tests\/lib\/install.sh runs this block/,/^```$/p' README.md |
	sed '1,2d;$d' > "$work/recipe.sh"
grep -q 'rpath' "$work/recipe.sh" || fail "no prefix recipe in README.md"
(
	cd "$work"
	unset PKG_CONFIG_SYSROOT_DIR LD_LIBRARY_PATH
	HOME=$work/home
	make() { command $MAKE -C "$repo" -s --no-print-directory "$@"; }
	if ! command -v python3 > /dev/null 2>&1; then
		python3() { :; }
	fi
	# shellcheck disable=SC1091
	. ./recipe.sh
) > "$work/out" 2> "$work/err" ||
	{ cat "$work/err" >&2; fail "the README's prefix recipe failed"; }
grep -qx '95 us' "$work/out" ||
	fail "the README's prefix recipe does not print 95 us: $(cat "$work/out")"
(unset LD_LIBRARY_PATH; "$work/prog") > /dev/null ||
	fail "prog does not run without LD_LIBRARY_PATH (no rpath)"
echo "install: the README's recipe under a home prefix runs"
# shellcheck disable=SC2086
$MAKE -s --no-print-directory uninstall PREFIX="$work/home/.local" \
	> /dev/null 2>&1 || fail "make uninstall PREFIX=... failed"
if command -v python3 > /dev/null 2>&1; then
	rc=0
	(unset LD_LIBRARY_PATH; python3 examples/predict.py) \
		> /dev/null 2> "$work/err" || rc=$?
	[ $rc = 2 ] && grep -q '^usage: predict.py' "$work/err" &&
		! grep -q Traceback "$work/err" ||
		fail "predict.py without its library: $(cat "$work/err")"
fi

# shellcheck disable=SC2086
$MAKE -s --no-print-directory uninstall DESTDIR="$root" $dirs \
	> "$dest/uninstall.log" 2>&1 ||
	{ cat "$dest/uninstall.log" >&2; fail "make uninstall failed"; }
left=$(cd "$root" && find . -type f -o -type l)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "install: $(wc -l < "$dest/tree") files installed as listed," \
	"none left by uninstall"
rm -rf "$dest"
