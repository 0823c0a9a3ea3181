# common.sh - sourced by the scripts of scripts/ so that each runs from
# any directory:
#
#   here=${0%/*}; [ "$here" != "$0" ] || here=.
#   . "$here/common.sh"
#   ml_need gnuplot gnuplot-nox
#
# Sets mcastlat to the binary, an absolute path: $MCASTLAT when set, else
# the tree's own mcastlat (the parent of this directory: a build tree),
# else mcastlat on PATH; none of them is a one-line error, exit 2.  Files
# a script reads (its .gp) are found through $here; what it writes goes
# where the caller says, relative to the caller's directory (no script
# changes directory before it has its arguments).  Only shell builtins
# run before ml_need, so that a missing program is reported first.

# The sourcing script sets here and reads mcastlat:
# shellcheck shell=sh disable=SC2034,SC2154

ml_script=${0##*/}

# ml_die MESSAGE: "SCRIPT: MESSAGE" on stderr, exit 2.
ml_die() {
	echo "$ml_script: $*" >&2
	exit 2
}

# ml_need PROGRAM PACKAGE: exit 2, naming the Debian package, when
# PROGRAM is not on PATH.
ml_need() {
	command -v "$1" >/dev/null 2>&1 ||
		ml_die "needs $1 (Debian: apt-get install $2)"
}

if [ -n "${MCASTLAT:-}" ]; then
	command -v "$MCASTLAT" >/dev/null 2>&1 ||
		ml_die "MCASTLAT=$MCASTLAT is not an executable"
	case $MCASTLAT in
	/*) mcastlat=$MCASTLAT ;;
	*/*) mcastlat=$(pwd)/$MCASTLAT ;;
	*) mcastlat=$(command -v "$MCASTLAT") ;;
	esac
elif [ -f "$here/../mcastlat" ] && [ -x "$here/../mcastlat" ]; then
	mcastlat=$(cd "$here/.." && pwd)/mcastlat
elif command -v mcastlat >/dev/null 2>&1; then
	mcastlat=$(command -v mcastlat)
else
	ml_die "cannot find mcastlat (not built in $here/.., not on PATH; run make or set MCASTLAT)"
fi
