# testlib.sh - the start every CLI test script shares; source it after
# `set -u` with the script's arguments ( . "$(dirname "$0")/testlib.sh" ).
#
# Sets bin (the binary under test, $1 or ./mcastlat, made absolute so a
# test may cd), tmp (a directory removed on exit) and the counters pass
# and fail; defines bad MESSAGE (a failure, said on stdout), ok (a pass)
# and finish NAME (the summary line, then the script's exit status).
bin=${1:-./mcastlat}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

bad() {
	fail=$((fail + 1))
	printf 'FAIL: %s\n' "$*"
}

ok() {
	pass=$((pass + 1))
}

finish() {
	echo "$1: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
