# ompi_setup.sh - what the checks against Open MPI's pml monitoring share
# (check-ompi.sh, check-ompi-han.sh source it; not a check of its own:
# run.sh runs check-*.sh only).
#
# ompi_setup NAME: finds Open MPI's mpicc and mpirun (MPICC, MPIRUN),
# skips (exit 77, one line) when they or the monitoring component are
# missing, makes $build and a temporary $tmp (removed at exit) and
# compiles bcast_cases.c into $prog.  Needs $here and $build.

# Debian names Open MPI's wrappers *.openmpi beside the alternatives,
# which may point at MPICH.
ompi_pick() {
	if command -v "$1.openmpi" >/dev/null 2>&1; then
		echo "$1.openmpi"
	elif command -v "$1" >/dev/null 2>&1; then
		echo "$1"
	fi
}

ompi_setup() {
	ompi_name=$1
	MPICC=${MPICC:-$(ompi_pick mpicc)}
	MPIRUN=${MPIRUN:-$(ompi_pick mpirun)}
	[ -n "$MPICC" ] && [ -n "$MPIRUN" ] || ompi_skip "no mpicc or mpirun"
	"$MPIRUN" --version 2>/dev/null | grep -q -e 'Open MPI' -e OpenRTE ||
		ompi_skip "$MPIRUN is not Open MPI's"
	ompi_info 2>/dev/null | grep -q 'MCA pml: monitoring' ||
		ompi_skip "Open MPI has no pml monitoring component"
	mkdir -p "$build" || exit 1
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
	prog=$build/bcast_cases
	"$MPICC" -std=c11 -O2 -Wall -Wextra -Werror -o "$prog" \
		"$here/bcast_cases.c" || {
		echo "$ompi_name: mpicc failed"
		exit 1
	}
}

ompi_skip() {
	echo "$ompi_name: skipped: $* (Debian: apt-get install openmpi-bin" \
		"libopenmpi-dev)"
	exit 77
}
