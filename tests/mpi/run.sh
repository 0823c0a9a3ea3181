#!/bin/sh
# run.sh MCASTLAT BUILDDIR - make check-mpi: every tests/mpi/check-*.sh in
# turn, each given the binary under test and a build directory of its own
# (BUILDDIR/NAME) for the MPI programs it compiles.
#
# A script is named check-LIBRARY.sh or check-LIBRARY-WHAT.sh, LIBRARY
# the MPI library it needs (ompi: Open MPI; mpich).  It exits 0 (passed),
# 77 (skipped: its library is not installed; it says so on one line) or
# anything else (failed).  MCASTLAT_REQUIRE_MPI, a comma-separated list of
# libraries (ompi,mpich) or "all", turns their scripts' skips into
# failures: CI sets it, so a missing library cannot pass unseen.
# MCASTLAT_MPI_REQUIRE=1 (check-mpich.sh's own switch) means all.
set -u
bin=${1:-./mcastlat}
build=${2:-build/mpi}
require=${MCASTLAT_REQUIRE_MPI:-}
[ "${MCASTLAT_MPI_REQUIRE:-0}" = 1 ] && require=all
dir=$(dirname "$0")
passed=0 skipped=0 failed=0

required() {
	case ",$require," in
	*",all,"* | *",$1,"*) return 0 ;;
	esac
	return 1
}

for script in "$dir"/check-*.sh; do
	[ -e "$script" ] || continue
	name=$(basename "$script" .sh)
	name=${name#check-}
	library=${name%%-*}
	start=$(date +%s)
	sh "$script" "$bin" "$build/$name"
	status=$?
	took=$(($(date +%s) - start))
	if [ "$status" -eq 0 ]; then
		passed=$((passed + 1))
		echo "check-mpi: $name passed (${took}s)"
	elif [ "$status" -eq 77 ] && ! required "$library"; then
		skipped=$((skipped + 1))
	elif [ "$status" -eq 77 ]; then
		failed=$((failed + 1))
		echo "check-mpi: $name skipped, but MCASTLAT_REQUIRE_MPI" \
			"requires $library: FAIL"
	else
		failed=$((failed + 1))
		echo "check-mpi: $name FAILED (exit $status)"
	fi
done
echo "check-mpi: $passed passed, $skipped skipped, $failed failed"
[ "$failed" -eq 0 ]
