#!/bin/sh
# nosanitizer.sh - `make install` installs the default build: a binary
# and archives without sanitizer runtimes, whatever variant builds (CI's
# clang and sanitizer runs) came before.
#
#   MAKE=make nosanitizer.sh [DIR]
#
# Installs into the fresh DESTDIR DIR (default build/nosan-check) and
# looks for the sanitizers' symbols in what it installed.
set -eu
MAKE=${MAKE:-make}
dest=${1:-build/nosan-check}
case $dest in /*) ;; *) dest=$PWD/$dest ;; esac
rm -rf "$dest"
mkdir -p "$dest"
# Not the parent make's BUILD or SANITIZE: the plain `make install`.
MAKEFLAGS= $MAKE -s --no-print-directory install DESTDIR="$dest" \
	PREFIX=/usr BUILD=build SANITIZE= > "$dest.log" 2>&1 ||
	{ cat "$dest.log" >&2; echo "nosanitizer: make install failed" >&2; exit 1; }
bad=
for f in "$dest/usr/bin/mcastlat" "$dest/usr/lib/libmcastlat.a"; do
	[ -f "$f" ] || { bad="$bad $f (missing)"; continue; }
	if nm -a "$f" 2>/dev/null | grep -q -e '__asan_' -e '__ubsan_' \
		-e '__tsan_' -e '__msan_' -e '__sanitizer_'; then
		bad="$bad $f"
	fi
done
rm -rf "$dest" "$dest.log"
if [ -n "$bad" ]; then
	echo "nosanitizer: sanitizer symbols in:$bad" >&2
	exit 1
fi
echo "nosanitizer: the installed binary and archive carry no sanitizer"
