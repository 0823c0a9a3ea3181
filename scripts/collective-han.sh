#!/bin/sh
# collective-han.sh - what Open MPI 5.0's default broadcast (coll/han)
# would give on ORFEO's EPYC nodes by node, against 4.1's default
# (tuned's fixed decision, what the data measured) and against the
# fastest tuned algorithm: predictions with 90 % intervals (issue 47;
# mcastlat-collective(1), DISCUSSION).
#
#   scripts/collective-han.sh [DATADIR]
#
# DATADIR holds scripts/orfeo-to-csv.sh's CSVs (default examples/real):
# epyc_node_{pipeline,binomial,scatter-allgather-ring,ompi} and
# pp_epyc_net, plain or gzip'd.  The machine is fitted as
# scripts/collective-picks.sh fits it (`mcastlat fit collective --stat
# avg`, the four algorithms' broadcasts at P <= HOLD, default 32, and
# the ping-pong; --emit), or with DMAC=1 the default machine.  Then, at
# the data's placement (2 nodes of 2 x 64 cores, --map-by node, bound to
# NUMA domains) and P in PS (default 8 32 128 254), M in MS (default 1
# 1024 65536 1048576), `mcastlat collective --objective latency_avg`
# predicts OSU's Avg with its 90 % interval for
#   tuned  --algorithm ompi --ompi-version 4.1 (tuned's fixed decision)
#   han    --algorithm ompi --ompi-version 5.0 (han: P even here)
#   best   --algorithm best --among 1,...,9 (the fastest tuned algorithm
#          on the whole communicator; under 5.0 it needs han off)
# and prints one row per (P, M): the three, han/tuned and han/best, and
# the median of the measured runs of tuned's default where measured.
# Env: MCASTLAT (the binary), HOLD, PS, MS, DMAC, JOBS (the fit's
# threads).
set -eu
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"

[ $# -le 1 ] || ml_bad_usage "takes at most DATADIR"
ml_need gzip gzip
dir=${1:-examples/real}
bin=$mcastlat
hold=${HOLD:-32}
ps=${PS:-8 32 128 254}
ms=${MS:-1 1024 65536 1048576}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/collhan.XXXXXX")
trap '[ -z "${KEEP:-}" ] && rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/in"
csvin() { ml_csvin "$dir" "$1" "$tmp/in"; }

algs="pipeline binomial scatter-allgather-ring ompi"
for a in $algs; do
	csvin "epyc_node_$a"
done
csvin pp_epyc_net
machine=
if [ "${DMAC:-0}" != 1 ]; then
	fit="--stat avg --data $tmp/in/pp_epyc_net.csv"
	for a in $algs; do
		awk -F, -v hold="$hold" '/^#/ { print; next }
		!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; print; next }
		$c["ranks"] + 0 <= hold' "$tmp/in/epyc_node_$a.csv" \
			> "$tmp/in/$a.fit.csv"
		fit="$fit --data $tmp/in/$a.fit.csv"
	done
	# shellcheck disable=SC2086
	"$bin" fit collective --jobs "$ml_jobs" $fit --emit "$tmp/fitted.csv" \
		> "$tmp/fit.out" 2>&1 || {
		cat "$tmp/fit.out" >&2
		exit 1
	}
	machine="--input $tmp/fitted.csv"
fi
# The data's placement (every file the same).
# shellcheck disable=SC2046
set -- $(awk -F, '/^#/ { next }
!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
{ print $c["ppn"], $c["sockets"], $c["nodes"], $c["map_by"], $c["bind_to"],
  $c["numa"]; exit }' "$tmp/in/epyc_node_ompi.csv")
place="--ppn $1 --sockets $2 --nodes $3 --map-by $4 --bind-to $5 --numa $6"
ranks=$(echo "$ps" | tr ' ' ',')
msgs=$(echo "$ms" | tr ' ' ',')
cols=ranks,msg,latency_avg,latency_avg_lo,latency_avg_hi
# pred NAME OPTIONS...: NAME's predictions, "P,M,avg,lo,hi[,best]".
pred() {
	n=$1
	shift
	# shellcheck disable=SC2086
	"$bin" collective $machine $place --ranks "$ranks" --msg "$msgs" \
		--objective latency_avg --format csv --precision 6 "$@" \
		> "$tmp/$n.csv"
}
pred tuned --algorithm ompi --ompi-version 4.1 --columns "$cols,chosen"
pred han --algorithm ompi --ompi-version 5.0 --columns "$cols,chosen"
pred best --algorithm best --among 1,2,3,4,5,6,7,8,9 --columns "$cols,best"
# The measured medians of tuned's default.
awk -F, '/^#/ { next }
!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
{ k = $c["ranks"] "," $c["msg"]; v[k] = v[k] " " $c["latency_avg"] }
END {
	for (k in v) {
		n = split(v[k], a, " ")
		for (i = 2; i <= n; i++) {
			t = a[i] + 0
			for (j = i - 1; j >= 1 && a[j] + 0 > t; j--)
				a[j + 1] = a[j]
			a[j + 1] = t
		}
		print k "," (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2)
	}
}' "$tmp/in/epyc_node_ompi.csv" > "$tmp/meas.csv"

if [ -n "$machine" ]; then
	echo "# machine: fitted on P <= $hold as scripts/collective-picks.sh fits it"
else
	echo "# machine: the default machine (DMAC=1)"
fi
echo "# latency_avg (OSU's Avg), us, [90 % interval]; best: the fastest tuned"
echo "# algorithm's id; h/t han over tuned, h/b han over best; meas: tuned's"
echo "# default measured (median of the runs)"
printf '%3s %3s %-17s %-16s %-8s %4s %4s %5s\n' P M "tuned (4.1)" \
	"han (5.0)" best h/t h/b meas
awk -F, '
function v(x) { return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x) }
function iv(x, lo, hi) { return v(x) " [" v(lo) "," v(hi) "]" }
function sz(m) { return m >= 1048576 ? m / 1048576 "M" : m >= 1024 ? m / 1024 "K" : m }
FNR == 1 { f++; next }
f == 1 { k = $1 "," $2; t[k] = iv($3, $4, $5); tv[k] = $3; o[++n] = k; next }
f == 2 { k = $1 "," $2; h[k] = iv($3, $4, $5); hv[k] = $3; next }
f == 3 { k = $1 "," $2; b[k] = v($3) " (" id[$6] ")"; bv[k] = $3; next }
f == 4 { m[$1 "," $2] = $3 }
BEGIN {
	id["linear"] = 1; id["chain"] = 2; id["pipeline"] = 3
	id["split-binary"] = 4; id["binary"] = 5; id["binomial"] = 6
	id["knomial"] = 7; id["scatter-allgather"] = 8
	id["scatter-allgather-ring"] = 9
}
END {
	for (i = 1; i <= n; i++) {
		k = o[i]; split(k, pm, ",")
		printf "%3d %3s %-17s %-16s %-8s %4.2f %4.2f %5s\n", pm[1],
			sz(pm[2]), t[k], h[k], b[k], hv[k] / tv[k], hv[k] / bv[k],
			(k in m) ? v(m[k]) : "-"
	}
}' "$tmp/tuned.csv" "$tmp/han.csv" "$tmp/best.csv" "$tmp/meas.csv"
