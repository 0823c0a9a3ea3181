#!/bin/sh
# collective-barrier.sh - the benchmark's own barrier (SPEC 10.7, issue
# 46): how much Open MPI's barrier before each osu_bcast shows in the
# measured broadcasts, and the held-out error of `fit collective`
# without and with the barrier modelled (collective --osu-barrier).
#
#   scripts/collective-barrier.sh [DATADIR]
#
# DATADIR (default examples/real) holds scripts/orfeo-barrier-to-csv.sh's
# files: epycpl_MAP_ALG.csv[.gz] and epycpl2_MAP_ALG.csv[.gz] (osu_bcast
# Avg, one run a point, ALG ompi linear chain binary; P = 256 apart in
# ..._p256), barrier_epycpl*.csv[.gz] (osu_barrier) and
# pp_epyc_net.csv[.gz].
#
# Part 1, measured: per set, placement and algorithm, the 1-byte
# broadcast at P = 60-62 and 64-66 (recursive doubling -> Bruck, the
# barrier's switch at 64) and at P = 252-254 and 256 (Bruck -> tree),
# beside osu_barrier of Open MPI's choice at the same P.
#
# Part 2, held out: per set and placement, `fit collective --stat avg`
# on the ping-pong and every algorithm's broadcasts at P <= HOLD
# (default 62: the fits see only the recursive-doubling and linear
# barriers), once with --osu-barrier none (the plain model) and once
# with --osu-barrier ompi; each fitted machine predicts every measured
# point at P > HOLD with its own --osu-barrier.  Printed: the points
# (medians of the runs), and the rms of ln(predicted / measured) at
# HOLD < P < 256 and at P = 256, and over the picks: how often the
# measured fastest of the four algorithms is predicted fastest (hit%).
#
# Env: MCASTLAT, HOLD, JOBS (the fits' threads, default the online
# cores; the same output on any count), SETS (e.g. "epycpl_core
# epycpl_node": those only), BARRIERS (default "none ompi-tree ompi").
set -eu
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"

dir=${1:-examples/real}
bin=$mcastlat
hold=${HOLD:-62}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/collbar.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
ml_need gzip gzip
algs="ompi linear chain binary"

# The sets and placements there are (epycpl: core, socket, node;
# epycpl2: core, socket).
sets=
for s in epycpl epycpl2; do
	for m in core socket node; do
		ml_has "$dir" "${s}_${m}_ompi" && sets="$sets ${s}_$m"
	done
done
[ -z "${SETS:-}" ] || sets=$SETS
[ -n "$sets" ] || ml_die "$dir: no epycpl*_MAP_ompi.csv (make them with" \
	"scripts/orfeo-barrier-to-csv.sh)"
ml_csvin "$dir" pp_epyc_net "$tmp"
for s in epycpl epycpl2; do
	ml_has "$dir" "barrier_$s" && ml_csvin "$dir" "barrier_$s" "$tmp"
done
for sm in $sets; do
	for a in $algs; do
		ml_csvin "$dir" "${sm}_$a" "$tmp"
		if ml_has "$dir" "${sm}_${a}_p256"; then
			ml_csvin "$dir" "${sm}_${a}_p256" "$tmp"
		fi
	done
done

# medians FILE...: common.sh's ml_medians.
medians() { ml_medians "$@"; }

echo "1-byte osu_bcast Avg (us), and osu_barrier of Open MPI's choice"
printf '%-15s %-7s %6s %6s %6s %6s %6s\n' set alg P60-62 P64-66 P252-4 P256 "256/254"
for sm in $sets; do
	s=${sm%%_*} m=${sm#*_}
	for a in $algs barrier; do
		if [ $a = barrier ]; then
			[ -r "$tmp/barrier_$s.csv" ] || continue
			awk -F, -v m="$m" '/^#/ { next }
			!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
			$c["algorithm"] == "ompi" && $c["map_by"] == m {
				print "ompi," $c["ranks"] ",1," $c["latency_avg"] }' \
				"$tmp/barrier_$s.csv" > "$tmp/one"
		else
			f="$tmp/${sm}_$a.csv"
			[ -r "$tmp/${sm}_${a}_p256.csv" ] &&
				f="$f $tmp/${sm}_${a}_p256.csv"
			# shellcheck disable=SC2086
			medians $f | awk -F, '$3 == 1' > "$tmp/one"
		fi
		awk -F, -v sm="$sm" -v a="$a" '
		function mean(lo, hi,   p, s, n) {
			for (p = lo; p <= hi; p++)
				if (p in t) { s += t[p]; n++ }
			return n ? sprintf("%.2f", s / n) : "-"
		}
		{ t[$2] = $4 }
		END {
			x = mean(252, 254); y = mean(256, 256)
			printf "%-15s %-7s %6s %6s %6s %6s %6s\n", sm, a,
				mean(60, 62), mean(64, 66), x, y,
				x != "-" && y != "-" ? sprintf("%.2f", y / x) : "-"
		}' "$tmp/one"
	done
done

echo
echo "held out: fitted at P <= $hold, judged above (rms ln(pred/meas))"
printf '%-15s %-7s %5s %8s %6s %8s %6s %5s\n' set barrier n "P<256" "" "P=256" "" hit%
for sm in $sets; do
	med="$tmp/$sm.med"
	files=
	fit="--stat avg --data $tmp/pp_epyc_net.csv"
	for a in $algs; do
		awk -F, -v hold="$hold" '/^#/ { print; next }
		!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; print; next }
		$c["ranks"] + 0 <= hold' "$tmp/${sm}_$a.csv" \
			> "$tmp/${sm}_$a.fit.csv"
		fit="$fit --data $tmp/${sm}_$a.fit.csv"
		files="$files $tmp/${sm}_$a.csv"
		[ -r "$tmp/${sm}_${a}_p256.csv" ] &&
			files="$files $tmp/${sm}_${a}_p256.csv"
	done
	# shellcheck disable=SC2086
	medians $files | awk -F, -v hold="$hold" '$2 > hold' > "$med"
	# shellcheck disable=SC2046,SC2086
	set -- $(awk -F, '/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{ print $c["ppn"], $c["sockets"], $c["nodes"], $c["map_by"]; exit }' \
		"$tmp/${sm}_ompi.csv")
	place="--ppn $1 --sockets $2 --nodes $3 --map-by $4"
	ranks=$(awk -F, '!s[$2]++ { printf "%s%s", n++ ? "," : "", $2 }' "$med")
	msgs=$(awk -F, '!s[$3]++ { printf "%s%s", n++ ? "," : "", $3 }' "$med")
	for b in ${BARRIERS:-none ompi-tree ompi}; do
		# shellcheck disable=SC2086
		"$bin" fit collective --jobs "$ml_jobs" $fit --osu-barrier $b \
			--emit "$tmp/m.csv" > "$tmp/fit.out" 2>&1 || {
			cat "$tmp/fit.out" >&2
			exit 1
		}
		# shellcheck disable=SC2086
		"$bin" collective --input "$tmp/m.csv" --osu-barrier $b \
			--algorithm ompi,linear,chain,binary --ranks "$ranks" \
			--msg "$msgs" $place --format csv --precision 9 \
			--columns algorithm,ranks,msg,latency_avg \
			> "$tmp/pred.csv"
		awk -F, -v sm="$sm" -v b="$b" '
		FNR == 1 { f++ }
		f == 1 { m[$1 "," $2 "," $3] = $4; next }
		FNR > 1 && ($1 "," $2 "," $3) in m {
			k = $1 "," $2 "," $3
			e = log($4 / m[k])
			if ($2 == 256) { s2 += e * e; n2++ } else { s1 += e * e; n1++ }
			c = $2 "," $3
			if (!(c in pm) || $4 < pm[c]) { pm[c] = $4; pa[c] = $1 }
			if (!(c in mm) || m[k] < mm[c]) { mm[c] = m[k]; ma[c] = $1 }
		}
		END {
			for (c in pm) { nc++; hit += pa[c] == ma[c] }
			printf "%-15s %-7s %5d %8.3f %6s %8.3f %6s %5.0f\n", sm, b,
				n1 + n2, sqrt(s1 / n1), "(" n1 ")",
				n2 ? sqrt(s2 / n2) : 0, "(" n2 ")", 100 * hit / nc
		}' "$med" "$tmp/pred.csv"
	done
done
