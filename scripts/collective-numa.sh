#!/bin/sh
# collective-numa.sh - how mpirun bound a --map-by node dataset's ranks,
# when its files do not say (bind_to, numa: mcastlat-collective(1), The
# machine), chosen by forward validation inside the fitted range, as the
# DISCUSSION chose EPYC's NUMA domains a socket.
#
#   scripts/collective-numa.sh [DATADIR [PREFIX]]
#
# PREFIX_binomial.csv (default epyc_node, in DATADIR, default
# examples/real, .csv or .csv.gz) and its machine's ping-pong files
# (pp_MACHINE_*.csv, as collective-validate.sh finds them), with the
# broadcasts cut to P <= HOLD (default 32), are fitted on P <= HOLD / 2
# and judged on the rest, once per placement: bind_to core (a node's
# ranks fill its cores), then bind_to default (mpirun's own) with numa =
# each of 1, 2, 4, 8 that divides a socket's cores.  Printed per
# placement: the collective model's row of collective-validate.sh (fit%,
# held, hold%, mean%).  The placement with the lowest hold% is the one
# the data inside P <= HOLD choose; no point above HOLD is read.
#
# Env: MCASTLAT (the binary, see common.sh), HOLD (default 32).
set -eu
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"

dir=${1:-examples/real}
pre=${2:-epyc_node}
hold=${HOLD:-32}
case $hold in '' | *[!0-9]*) ml_bad_usage "HOLD=$hold is not a count" ;; esac
[ "$hold" -ge 4 ] || ml_bad_usage "HOLD=$hold: at least 4"
ml_need gzip gzip
ml_has "$dir" "${pre}_binomial" || ml_die "$dir/${pre}_binomial.csv: missing"
mach=$(ml_machine "$pre")
pps=$(ml_ppfiles "$dir" "$mach")
case $pps in pp_"$mach"_net*) ;; *) ml_die "$dir/pp_${mach}_net.csv: missing" ;; esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/collnuma.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/in"
ml_csvin "$dir" "${pre}_binomial" "$tmp/in"
for f in $pps; do ml_csvin "$dir" "$f" "$tmp/in"; done

# A socket's cores, from the first broadcast row.
cps=$(awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i
	h = 1; next } { print $c["ppn"] / $c["sockets"]; exit }' \
	"$tmp/in/${pre}_binomial.csv")
[ -n "$cps" ] || ml_die "${pre}_binomial.csv: no broadcast row"

# try LABEL BIND NUMA: the collective row of collective-validate.sh on
# the cut file with bind_to and numa set (columns added when missing).
try() {
	label=$1
	shift
	rm -rf "$tmp/d"
	mkdir "$tmp/d"
	for f in $pps; do
		cp "$tmp/in/$f.csv" "$tmp/d/pp_x_${f#pp_"$mach"_}.csv"
	done
	awk -F, -v OFS=, -v bind="$1" -v numa="$2" -v hold="$hold" '
	/^#/ { print; next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i
	     add = !("bind_to" in c) || !("numa" in c)
	     print $0 (add ? ",bind_to,numa" : ""); h = 1; next }
	$c["ranks"] + 0 > hold { next }
	add { print $0, bind, numa; next }
	{ $c["bind_to"] = bind; $c["numa"] = numa; print }' \
		"$tmp/in/${pre}_binomial.csv" > "$tmp/d/x_node_binomial.csv"
	HOLD=$((hold / 2)) MCASTLAT=$mcastlat sh "$here/collective-validate.sh" \
		"$tmp/d" | awk -v l="$label" '$1 == "collective" {
		printf "%-18s %5s %5s %5s %5s\n", l, $2, $3, $4, $5; exit }'
}

echo "# $pre binomial: fit ping-pong + P <= $((hold / 2)), judge P = $((hold / 2 + 1))..$hold"
printf '%-18s %5s %5s %5s %5s\n' placement fit% held hold% mean%
try "bind_to core" core 1
for d in 1 2 4 8; do
	[ $((cps % d)) -eq 0 ] || continue
	try "default, numa $d" default "$d"
done
