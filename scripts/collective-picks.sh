#!/bin/sh
# collective-picks.sh - how good is the algorithm `mcastlat collective`
# picks, and how far do its prediction intervals hold, judged by what
# was measured (issues 26 and 33, SPEC 10.4 and 10.5)?
#
#   scripts/collective-picks.sh [DATADIR]
#
# DATADIR holds the CSVs of scripts/orfeo-to-csv.sh (default
# examples/real), each as NAME.csv or gzip'd as NAME.csv.gz (decompressed
# into a temporary directory).  A dataset is one machine and placement
# with several broadcast algorithms measured, Open MPI's default among
# them (algorithm 'ompi', coll_tuned_bcast_algorithm 0):
#   epyc_node    EPYC, --map-by node: pipeline, binomial,
#                scatter-allgather-ring, ompi (P = 2..254)
#   thin_node    THIN, --map-by node: the same four (P = 2..48)
#   pl_MAP       THIN, --map-by core, socket, node (the thinpl_MAP
#                files): binary, binomial, chain, linear, pipeline
#                (core; socket P <= 30), ompi
# and any other: every PREFIX_ompi.csv beside one or more PREFIX_ALG.csv
# (ALG a forced algorithm; PREFIX_ALG_p256 and the like, a P kept apart,
# are not read) and the ping-pong files pp_MACHINE_{net,socket,node}.csv
# that exist, MACHINE the prefix's first word less a trailing "pl"
# (orfeo-to-csv.sh's names: measurements of another cluster named so
# are judged as they are, in a row named by their prefix).
# Per dataset the model is fitted (`mcastlat fit collective --stat avg`,
# every option at its default, --free auto) on the ping-pong files and
# every measured algorithm's broadcasts, the default's included, at
# P <= HOLD (default 32), and emits the fitted machine with its error
# model (--emit).  `mcastlat collective --input fitted.csv` then
#   - picks, at each measured (P, M), with --algorithm best --among the
#     measured forced algorithms and ompi --objective latency_avg (OSU's
#     Avg, the statistic the data measure): the tool's own rule, which
#     keeps ompi unless a gain exceeds the error model's;
#   - predicts every measured algorithm's latency_avg with its 90 %
#     interval (latency_avg_lo, _hi).
# Printed per dataset, for the held-out points (P > HOLD) and for all:
# the points (P, M) where the default and two or more forced algorithms
# were measured; hit%, how often the pick is the measured fastest of
# the candidates (the default among them); the geometric means of
# measured(pick)/measured(fastest), measured(pick)/measured(default)
# and measured(default)/measured(fastest) (the baseline a pick must
# beat); the pick's worst ratio to the fastest; dflt%, how often the
# pick is the default; then over every measured run (each run one
# measurement) of every algorithm at those P: cover%, how many lie in
# their 90 % interval, and width, the geometric mean of hi/lo.  The
# measured values are medians over the runs.  Nothing is tuned to the
# held-out points.  A third row per dataset, "dmac", judges over all
# points the picks of the default machine (no fit, its own error model)
# and the coverage of its intervals.  After the table, each dataset's
# held-out cover% per algorithm (the pooled value hides how far apart
# they are).
#
# Env: MCASTLAT (the binary; else the tree's, else mcastlat on PATH),
# HOLD (default 32), VERBOSE (1: every point's pick on stderr, the
# fitted machine's and the default's), FITARGS
# (more options for fit, e.g. to try a model option), DMACARGS (options
# for the dmac rows: another machine than the default, or its rule at
# another --level), DMAC (only: the dmac rows alone, no fit: seconds),
# JOBS (the fit's threads, default the online cores; the same output on
# any count).
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
tmp=$(mktemp -d "${TMPDIR:-/tmp}/collpick.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/in"

# csvin NAME: $tmp/in/NAME.csv from $dir (common.sh)
csvin() { ml_csvin "$dir" "$1" "$tmp/in"; }

# medians FILE...: common.sh's ml_medians.
medians() { ml_medians "$@"; }

# One dataset: $1 its name, $2 the ping-pong files (space-separated),
# $3 the broadcast files' prefix, $4 the forced algorithms (space-
# separated); the default is $3_ompi.
dataset() {
	name=$1 pp=$2 pre=$3 algs=$4
	fit="--stat avg ${FITARGS:-}"
	for f in $pp; do
		csvin "$f"
		fit="$fit --data $tmp/in/$f.csv"
	done
	files=
	for a in $algs ompi; do
		csvin "${pre}_$a"
		# The rows at P <= HOLD only: held out without being
		# evaluated by the fit (the prediction below scores them).
		awk -F, -v hold="$hold" '/^#/ { print; next }
		!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; print; next }
		$c["ranks"] + 0 <= hold' "$tmp/in/${pre}_$a.csv" \
			> "$tmp/in/${pre}_$a.fit.csv"
		fit="$fit --data $tmp/in/${pre}_$a.fit.csv"
		files="$files $tmp/in/${pre}_$a.csv"
	done
	# DMAC=only: no fit; the default machine stands in for it (its rows
	# alone are printed).
	if [ "${DMAC:-}" = only ]; then
		echo "op" > "$tmp/fitted.csv"
		echo "bcast" >> "$tmp/fitted.csv"
	else
		# shellcheck disable=SC2086
		"$bin" fit collective --jobs "$ml_jobs" $fit \
			--emit "$tmp/fitted.csv" > "$tmp/fit.out" 2>&1 || {
			cat "$tmp/fit.out" >&2
			exit 1
		}
	fi
	# shellcheck disable=SC2086
	medians $files > "$tmp/med.csv"
	# The placement, and the swept P and M, from the files (the binding
	# as the fit reads it: core and 1 NUMA domain where not stated).
	# shellcheck disable=SC2046,SC2086
	set -- $(awk -F, '/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{ b = ("bind_to" in c) && $c["bind_to"] != "" ? $c["bind_to"] : "core"
	  u = ("numa" in c) && $c["numa"] != "" ? $c["numa"] : 1
	  print $c["ppn"], $c["sockets"], $c["nodes"], $c["map_by"], b, u
	  exit }' "$tmp/in/${pre}_ompi.csv")
	ppn=$1 sockets=$2 nodes=$3 map=$4 bind=$5 numa=$6
	ranks=$(awk -F, '!s[$2]++ { printf "%s%s", n++ ? "," : "", $2 }' \
		"$tmp/med.csv")
	msgs=$(awk -F, '!s[$3]++ { printf "%s%s", n++ ? "," : "", $3 }' \
		"$tmp/med.csv")
	alist=$(echo "$algs" | tr ' ' ',')
	"$bin" collective --input "$tmp/fitted.csv" --algorithm "$alist,ompi" \
		--ranks "$ranks" --msg "$msgs" --ppn "$ppn" \
		--sockets "$sockets" --nodes "$nodes" --map-by "$map" \
		--bind-to "$bind" --numa "$numa" \
		--format csv --precision 9 \
		--columns algorithm,ranks,msg,latency_avg,latency_avg_lo,latency_avg_hi,status \
		> "$tmp/pred.csv"
	# shellcheck disable=SC2086
	"$bin" collective ${DMACARGS:-} --algorithm "$alist,ompi" \
		--ranks "$ranks" --msg "$msgs" --ppn "$ppn" \
		--sockets "$sockets" --nodes "$nodes" --map-by "$map" \
		--bind-to "$bind" --numa "$numa" \
		--format csv --precision 9 \
		--columns algorithm,ranks,msg,latency_avg,latency_avg_lo,latency_avg_hi,status \
		> "$tmp/predd.csv" 2> /dev/null ||
		echo algorithm,ranks,msg > "$tmp/predd.csv"
	# (a machine without an error model has no interval: no coverage)
	"$bin" collective --input "$tmp/fitted.csv" --algorithm best \
		--among "$alist,ompi" --objective latency_avg \
		--ranks "$ranks" --msg "$msgs" --ppn "$ppn" \
		--sockets "$sockets" --nodes "$nodes" --map-by "$map" \
		--bind-to "$bind" --numa "$numa" \
		--format csv --columns ranks,msg,best,status > "$tmp/pick.csv"
	# The default machine's picks (no fit), judged on every point.
	# shellcheck disable=SC2086
	"$bin" collective ${DMACARGS:-} --algorithm best \
		--among "$alist,ompi" --objective latency_avg \
		--ranks "$ranks" --msg "$msgs" --ppn "$ppn" \
		--sockets "$sockets" --nodes "$nodes" --map-by "$map" \
		--bind-to "$bind" --numa "$numa" \
		--format csv --columns ranks,msg,best,status > "$tmp/pickd.csv"
	# shellcheck disable=SC2086
	awk -F, -v name="$name" -v hold="$hold" -v verbose="${VERBOSE:-0}" '
	FNR == 1 { f = f == "" ? 0 : f + 1 }
	f == 1 && FNR > 1 {
		if ($7 != "ok") { bad++; next }
		k = $1 "," $2 "," $3
		lo[k] = $5; hi[k] = $6; next
	}
	f == 0 && FNR > 1 {
		if ($7 != "ok") { bad++; next }
		k = $1 "," $2 "," $3
		lod[k] = $5; hid[k] = $6; next
	}
	f == 2 && FNR > 1 {
		if ($4 != "ok") { bad++; next }
		pk[$1 "," $2] = $3; next
	}
	f == 3 && FNR > 1 {
		if ($4 != "ok") { bad++; next }
		pd[$1 "," $2] = $3; next
	}
	f == 4 {
		k = $2 "," $3
		if ($1 == "ompi") dft[k] = $4
		else { al[k] = al[k] " " $1 }
		me[$1 "," k] = $4
		if (!(k in seen)) { seen[k] = 1; pt[++np] = k }
		next
	}
	/^#/ { next }
	!h[f] { for (i = 1; i <= NF; i++) c[f, $i] = i; h[f] = 1; next }
	{
		x = $c[f, "algorithm"] "," $c[f, "ranks"] "," $c[f, "msg"]
		if (!(x in lo)) next
		s = $c[f, "ranks"] + 0 > hold ? 1 : 2
		y = $c[f, "latency_avg"] + 0
		for (t = s; t <= 2; t++) {
			nr[t]++; inr[t] += (y >= lo[x] && y <= hi[x])
			lw[t] += log(hi[x] / lo[x])
		}
		if (s == 1) {
			a1 = $c[f, "algorithm"]
			if (!(a1 in na1)) ao[++nao] = a1
			na1[a1]++; in1[a1] += (y >= lo[x] && y <= hi[x])
		}
		if (x in lod) {
			nr[3]++; inr[3] += (y >= lod[x] && y <= hid[x])
			lw[3] += log(hid[x] / lod[x])
		}
	}
	END {
		if (bad) printf "%s: %d predictions not ok\n", name, bad > "/dev/stderr"
		for (i = 1; i <= np; i++) {
			k = pt[i]
			na = split(al[k], a, " ")
			if (!(k in dft) || na < 2 || !(k in pk)) continue
			bm = "ompi"
			for (j = 1; j <= na; j++)
				if (me[a[j] "," k] < me[bm "," k]) bm = a[j]
			split(k, q, ",")
			for (s = 1; s <= 3; s++) {
				if (s == 1 && q[1] + 0 <= hold) continue
				bp = s == 3 ? pd[k] : pk[k]
				if (!((bp "," k) in me)) continue
				r1 = me[bp "," k] / me[bm "," k]
				r2 = me[bp "," k] / dft[k]
				r3 = dft[k] / me[bm "," k]
				if (verbose && s >= 2)
					printf "%s %s %s %s pick %s best %s %.3f dflt %.3f\n",
					    name, s == 2 ? "fit" : "dmac", q[1], q[2],
					    bp, bm, r1, r2 > "/dev/stderr"
				n[s]++; hit[s] += bp == bm; kd[s] += bp == "ompi"
				l1[s] += log(r1); l2[s] += log(r2); l3[s] += log(r3)
				if (r1 > mx[s]) mx[s] = r1
			}
		}
		for (s = 1; s <= 3; s++) {
			if (!n[s] || (dmaconly && s < 3)) continue
			printf "%-" nw "s %-4s %4d %5.1f %6.3f %6.3f %6.3f %5.2f %5.1f %5.1f %5.2f\n",
			    name, s == 1 ? "P>" hold : s == 2 ? "all" : "dmac", n[s],
			    100 * hit[s] / n[s], exp(l1[s] / n[s]),
			    exp(l2[s] / n[s]), exp(l3[s] / n[s]), mx[s],
			    100 * kd[s] / n[s],
			    nr[s] ? 100 * inr[s] / nr[s] : 0,
			    nr[s] ? exp(lw[s] / nr[s]) : 0
		}
		for (i = 1; i <= nao && !dmaconly; i++)
			printf "%-" nw "s %-23s %6d %5.1f\n", name, ao[i],
			    na1[ao[i]], 100 * in1[ao[i]] / na1[ao[i]] \
			    >> byalg
	}' byalg="$tmp/byalg" nw="$nw" dmaconly="$([ "${DMAC:-}" = only ] &&
		echo 1 || echo 0)" "$tmp/predd.csv" "$tmp/pred.csv" \
		"$tmp/pick.csv" "$tmp/pickd.csv" "$tmp/med.csv" $files
}

echo "# fit: ping-pong + every measured algorithm at P <= $hold (fit"
echo "# collective --stat avg); pick: best --among them and ompi"
echo "# --objective latency_avg; judged on measured medians of OSU's Avg;"
echo "# gm = geometric mean over the points; cover%: runs inside their"
echo "# 90 % interval; width: gm of hi/lo; pl_MAP: THIN placements"
# The shared data's datasets, one a line: NAME|PP|PREFIX|ALGS, as the
# table of mcastlat-collective(1) has them (its name, its algorithms in
# that order).
thinpp="pp_thin_net pp_thin_socket pp_thin_node"
shared="epyc_node|pp_epyc_net|epyc_node|pipeline binomial scatter-allgather-ring
thin_node|$thinpp|thin_node|pipeline binomial scatter-allgather-ring
pl_core|$thinpp|thinpl_core|binary binomial chain linear pipeline
pl_socket|$thinpp|thinpl_socket|binary binomial chain linear pipeline
pl_node|$thinpp|thinpl_node|binary binomial chain linear"

# The dataset column: 9 wide, or as wide as the longest prefix of DIR
# printed as itself (not one of the shared datasets).
nw=9
for pre in $(ml_prefixes "$dir" ompi); do
	case "|$(echo "$shared" | cut -d'|' -f3 | tr '\n' '|')" in
	*"|$pre|"*) ;;
	*) [ ${#pre} -le "$nw" ] || nw=${#pre} ;;
	esac
done
printf "%-${nw}s %-4s %4s %5s %6s %6s %6s %5s %5s %5s %5s\n" dataset set \
	pts hit% p/best p/dflt d/best max dflt% cover width
# Each shared dataset where DIR holds every one of its files.
ran=
while IFS='|' read -r name pp pre algs; do
	ok=1
	for f in $pp; do ml_has "$dir" "$f" || ok=; done
	for a in $algs ompi; do ml_has "$dir" "${pre}_$a" || ok=; done
	[ -n "$ok" ] || continue
	dataset "$name" "$pp" "$pre" "$algs" < /dev/null
	ran="$ran $pre "
done <<EOF2
$shared
EOF2
# Every other PREFIX_ompi of DIR with a forced algorithm and ping-pong
# files beside it (common.sh: ml_algs, ml_ppfiles), by its prefix.
for pre in $(ml_prefixes "$dir" ompi); do
	case $ran in *" $pre "*) continue ;; esac
	algs=$(ml_algs "$dir" "$pre")
	pp=$(ml_ppfiles "$dir" "$(ml_machine "$pre")")
	if [ -z "$algs" ] || [ -z "$pp" ]; then
		echo "$ml_script: $pre: skipped (needs ${pre}_ALG.csv and" \
			"pp_$(ml_machine "$pre")_CHANNEL.csv beside" \
			"${pre}_ompi.csv)" >&2
		continue
	fi
	dataset "$pre" "$pp" "$pre" "$algs"
	ran="$ran $pre "
done
[ -n "$ran" ] || ml_die "$dir: no dataset (PREFIX_ompi.csv, PREFIX_ALG.csv" \
	"and pp_MACHINE_CHANNEL.csv, as scripts/orfeo-to-csv.sh names them)"
# The pooled cover% above hides how each algorithm's intervals hold.
if [ -s "$tmp/byalg" ]; then
	echo
	echo "# held out (P > $hold): each algorithm's runs in their 90 %"
	echo "# interval (cover%)"
	printf "%-${nw}s %-23s %6s %5s\n" dataset algorithm runs cover
	cat "$tmp/byalg"
fi
