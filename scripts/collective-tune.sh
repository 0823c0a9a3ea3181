#!/bin/sh
# collective-tune.sh - `mcastlat collective`'s picks as a cluster's tuner
# would use them: fed only the broadcasts a measurement plan names,
# judged on every measured cell by what was measured, beside the naive
# tuner that reads the same measurements (issue 46, SPEC 10.7).
#
#   scripts/collective-tune.sh [DATADIR]
#
# DATADIR (default examples/real) holds fit CSVs named as
# scripts/orfeo-to-csv.sh names them (NAME.csv or NAME.csv.gz): every
# PREFIX_ompi.csv (Open MPI's default) with one or more PREFIX_ALG.csv
# beside it (ALG a forced algorithm; PREFIX_ALG_p256 and the like are
# not read) and the ping-pong files pp_MACHINE_{net,socket,node}.csv
# (common.sh: ml_prefixes, ml_algs, ml_machine, ml_ppfiles) is one
# dataset: one machine and one placement.  Per dataset and plan:
#   probe   the probe's default plan: the largest measured P and the
#           measured P nearest its half, x the measured sizes nearest
#           1 B, 16 B, 256 B, 4 KiB, 64 KiB, 1 MiB (probe.c), every
#           algorithm;
#   sparse  the measured P nearest 2, 10, 22, 46, 94, 254, x every other
#           measured size (the smallest first), every algorithm (about
#           5 % of a 64 x 21 grid);
#   plan    the rows of `mcastlat collective --plan` for the placement
#           (its --ppn, --sockets, --nodes, --map-by), --among the
#           measured algorithms and ompi, --ranks and --msg the
#           measured lists, at the sparse plan's budget (its number of
#           broadcasts: run it after sparse); skipped, with a note on
#           stderr, when the binary has no --plan.
#   shifted the sparse plan's design moved, never looked at while the
#           tool was built: the measured P nearest 4, 14, 30, 62, 126,
#           250 x the other half of the sizes (the second smallest
#           first), every algorithm: a check that best's rules are not
#           fitted to the sparse plan's points;
#   low     every measured P up to 62, every size and algorithm
#           (issue 46's forward test): judged on the cells beyond it
#           only (P > 62), its intervals' cover and width there too;
#   adaptive two rounds within the sparse plan's budget: `collective
#           --plan` at half of it, fitted; then `collective --plan
#           --input` that machine for the rest (the next rows, where
#           best's pick is least certain), fitted on both rounds.
# The model is fitted (`mcastlat fit collective --stat avg --emit`, every
# option at its default) on the ping-pong files and the planned
# broadcasts only; then, on the emitted machine, at every measured
# (P, M) where the default and a forced algorithm were measured,
# `collective --algorithm best --among ALGS,ompi --objective
# latency_avg` picks, and `--algorithm ALGS,ompi` predicts each
# algorithm's latency_avg with its 90 % interval.  The emitted machine
# carries the planned broadcasts (fit --emit's "# measured: " lines),
# which collective --input reads as its measurements (SPEC 10.7);
# TUNEDATA=0 judges the machine without them (the model and its error
# model alone: the "before" of mcastlat-collective(1)).  Printed per
# dataset and plan:
#   pts%     the planned broadcasts' share of the measured ones
#   cells    the (P, M) judged
#   p/dflt   geometric mean of measured(pick) / measured(default)
#   p/best   ... measured(pick) / measured(fastest candidate)
#   nv/dflt  the naive tuner's pick (at each cell: the candidate
#            measured fastest at the planned P nearest below, else the
#            smallest planned P, and the planned size nearest in log,
#            among the planned broadcasts there) against the default
#   nv/best  ... against the fastest
#   b/dflt   measured(fastest) / measured(default): the best possible
#   cover    % of the runs of unplanned broadcasts inside their 90 %
#            interval; width: the median hi/lo over those broadcasts
#   cov_in   the same over those whose P lies between two planned P
#            (the plan measured the P on each side); wid_in their width
#   cov_nb   the same over those next to a planned P (the measured P
#            just below or above theirs in the data was planned: the
#            plan measured their neighbouring P); wid_nb their width
# Measured values are medians over a point's runs.  Nothing here is
# tuned to the judged points.  Last, a "# done:" line counts the rows
# that meet issue 46's bars: p/dflt at most 1.00 and nv/dflt; cov_in
# within 80-98 %; wid_in under 2; and the same two bars next to a planned
# P (cov_nb, wid_nb).
#
# Env: SINGLE (k: each cell's k-th run only, its first where it has
# fewer: multi-run data judged as if measured once, as most of the
# EPYC sets were), MCASTLAT (the binary), PLANS (default "probe sparse plan"; add
# adaptive to judge it too: it gained nothing on the shared data; low
# for the forward test),
# ONLY (a space-separated list of prefixes to judge; default every
# one), FITARGS (more options for fit), TUNEARGS (more options for
# the picks and predictions), JOBS (the fit's threads), VERBOSE (1:
# each cell's picks on stderr), KEEP (a directory: each fit's
# machine, planned broadcasts and predictions, pred.csv, kept
# there), REUSE (such a
# directory: its machines instead of fitting again, where its plan.txt
# names the same points).
set -eu
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"

[ $# -le 1 ] || ml_bad_usage "takes at most DATADIR"
ml_need gzip gzip
dir=${1:-examples/real}
bin=$mcastlat
plans=${PLANS:-probe sparse plan}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/colltune.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/in"
hasplan=
"$bin" collective --help 2>/dev/null | grep -q -- '--plan' && hasplan=1
hasdata=
if [ "${TUNEDATA:-1}" = 1 ] &&
	"$bin" collective --help 2>/dev/null | grep -q -- '--data '; then
	hasdata=1
fi

csvin() { ml_csvin "$dir" "$1" "$tmp/in"; }

# medians FILE...: common.sh's ml_medians (with each point's runs).
medians() { ml_medians -r "$@"; }

# planof NAME: the planned "algorithm,ranks,msg" lines of plan NAME on
# the dataset's grid ($tmp/med.csv), into $tmp/plan.txt; 1 when the plan
# cannot be made (the reason on stderr).
planof() {
	case $1 in
	probe | sparse | shifted | low)
		awk -F, -v plan="$1" -v cands="$alist,ompi" '
		function near(t, v, n,   i, b, d, e) {
			b = v[1]; d = 1e300
			for (i = 1; i <= n; i++) {
				e = log(v[i] / t); if (e < 0) e = -e
				if (e < d - 1e-12) { d = e; b = v[i] }
			}
			return b
		}
		function sort(v, n,   i, j, t) {
			for (i = 2; i <= n; i++) {
				t = v[i]
				for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]
				v[j + 1] = t
			}
		}
		{
			if (!($2 in sp)) { sp[$2] = 1; P[++np] = $2 + 0 }
			if (!($3 in sm)) { sm[$3] = 1; M[++nm] = $3 + 0 }
			has[$1 "," $2 "," $3] = 1
		}
		END {
			sort(P, np); sort(M, nm)
			if (plan == "probe") {
				pp[P[np]] = 1; pp[near(P[np] / 2, P, np)] = 1
				for (t = 1; t <= 1048576; t *= 16)
					pm[near(t, M, nm)] = 1
			} else if (plan == "low") {
				for (i = 1; i <= np; i++)
					if (P[i] <= 62) pp[P[i]] = 1
				for (i = 1; i <= nm; i++) pm[M[i]] = 1
			} else if (plan == "shifted") {
				split("4 14 30 62 126 250", tp, " ")
				for (i = 1; i <= 6; i++) pp[near(tp[i], P, np)] = 1
				for (i = 2; i <= nm; i += 2) pm[M[i]] = 1
			} else {
				split("2 10 22 46 94 254", tp, " ")
				for (i = 1; i <= 6; i++) pp[near(tp[i], P, np)] = 1
				for (i = 1; i <= nm; i += 2) pm[M[i]] = 1
			}
			na = split(cands, a, ",")
			for (i = 1; i <= np; i++) for (j = 1; j <= nm; j++) {
				if (!(P[i] in pp) || !(M[j] in pm)) continue
				for (k = 1; k <= na; k++)
					if ((a[k] "," P[i] "," M[j]) in has)
						print a[k] "," P[i] "," M[j]
			}
		}' "$tmp/med.csv" > "$tmp/plan.txt"
		;;
	adaptive)
		if [ -z "$hasplan" ] || [ -z "$hasdata" ]; then
			echo "$ml_script: $name: adaptive skipped ($bin has no" \
				"collective --plan or --data)" >&2
			return 1
		fi
		# Two rounds within the sparse plan's budget: the fixed
		# design at half of it, fitted; then the rest where the
		# fitted machine's picks are least certain, fitted on both.
		if [ ! -r "$tmp/plan_sparse.txt" ]; then
			planof sparse || return 1
			cp "$tmp/plan.txt" "$tmp/plan_sparse.txt"
		fi
		total=$(wc -l < "$tmp/plan_sparse.txt")
		planof plan $((total / 2)) || return 1
		cp "$tmp/plan.txt" "$tmp/plan_round1.txt"
		fitplan "$tmp/plan_round1.txt" "$tmp/fitted1.csv" || return 1
		rest=$((total - $(wc -l < "$tmp/plan_round1.txt")))
		planof plan "$rest" "$tmp/fitted1.csv" || return 1
		cat "$tmp/plan_round1.txt" "$tmp/plan.txt" > "$tmp/plan.tmp"
		mv "$tmp/plan.tmp" "$tmp/plan.txt"
		;;
	plan)
		if [ -z "$hasplan" ]; then
			echo "$ml_script: $name: plan skipped ($bin has no" \
				"collective --plan)" >&2
			return 1
		fi
		budget=${2:-$(wc -l < "$tmp/plan_sparse.txt")}
		# shellcheck disable=SC2046
		"$bin" collective --plan --budget "$budget" \
			$([ -n "${3:-}" ] && echo "--input $3") \
			--ranks "$ranks" --msg "$msgs" \
			--among "$alist,ompi" --ppn "$ppn" --sockets "$sockets" \
			--nodes "$nodes" --map-by "$map" --bind-to "$bind" \
			--numa "$numa" --format csv \
			> "$tmp/planout.csv" 2> "$tmp/plan.err" || {
			echo "$ml_script: $name: plan skipped (collective" \
				"--plan: $(head -n 1 "$tmp/plan.err"))" >&2
			return 1
		}
		# Each row snapped to the nearest measured P and size (the
		# plan chose among them: --ranks and --msg lists).
		awk -F, '
		function near(t, v, n,   i, b, d, e) {
			b = v[1]; d = 1e300
			for (i = 1; i <= n; i++) {
				e = log(v[i] / t); if (e < 0) e = -e
				if (e < d - 1e-12) { d = e; b = v[i] }
			}
			return b
		}
		FNR == 1 { f++ }
		f == 1 {
			if (!($2 in sp)) { sp[$2] = 1; P[++np] = $2 + 0 }
			if (!($3 in sm)) { sm[$3] = 1; M[++nm] = $3 + 0 }
			has[$1 "," $2 "," $3] = 1; next
		}
		/^#/ { next }
		!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
		{
			k = $c["algorithm"] "," near($c["ranks"], P, np) "," \
			    near($c["msg"], M, nm)
			if ((k in has) && !(k in out)) { out[k] = 1; print k }
		}' "$tmp/med.csv" "$tmp/planout.csv" > "$tmp/plan.txt"
		;;
	*) ml_die "PLANS: '$1' is not a plan (probe, sparse, shifted, plan, low, adaptive)" ;;
	esac
	[ -s "$tmp/plan.txt" ] || {
		echo "$ml_script: $name: plan $1 names no measured point" >&2
		return 1
	}
}

# planned PLANFILE: the planned broadcasts, as measured (every run), a
# file per algorithm (their columns need not agree), $tmp/planned_ALG.csv;
# $fit the fit's options on them and the ping-pong files, $pdata the
# files (comma-separated).
planned() {
	fit="--stat avg ${FITARGS:-}"
	rm -f "$tmp"/planned_*.csv
	pdata=
	for a in $algs ompi; do
		awk -F, 'FNR == 1 { f++ }
		f == 1 { want[$0] = 1; next }
		/^#/ { next }
		!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; print; next }
		($c["algorithm"] "," $c["ranks"] "," $c["msg"]) in want' \
			"$1" "$tmp/in/${name}_$a.csv" > "$tmp/planned_$a.csv"
		[ "$(wc -l < "$tmp/planned_$a.csv")" -gt 1 ] || continue
		fit="$fit --data $tmp/planned_$a.csv"
		pdata="$pdata${pdata:+,}$tmp/planned_$a.csv"
	done
	for f in $pp; do fit="$fit --data $tmp/in/$f.csv"; done
}

# fitplan PLANFILE OUT: fit on the planned broadcasts of PLANFILE (and the
# ping-pong files), the machine into OUT; 1 when the fit fails.
fitplan() {
	planned "$1"
	# shellcheck disable=SC2086
	"$bin" fit collective --jobs "$ml_jobs" --no-progress $fit \
		--emit "$2" > "$tmp/fit.out" 2>&1 || {
		echo "$ml_script: $name $plan: the fit failed:" >&2
		tail -n 3 "$tmp/fit.out" >&2
		return 1
	}
}

# single FILE: FILE with the SINGLE-th run of each cell (algorithm,
# ranks, msg) only, its first where it has fewer (in place).
single() {
	awk -F, -v k="$SINGLE" '/^#/ { print; next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; print; next }
	{ key = $c["algorithm"] "," $c["ranks"] "," $c["msg"]
	  if (!(key in first)) { first[key] = $0; order[++n] = key }
	  if (++seen[key] == k) print }
	END { for (i = 1; i <= n; i++) if (seen[order[i]] < k) print first[order[i]] }' \
		"$1" > "$1.single" && mv "$1.single" "$1"
}

# One dataset: $1 its name (prefix), $2 the ping-pong files, $3 the
# forced algorithms (space-separated).
dataset() {
	name=$1 pp=$2 algs=$3
	rm -f "$tmp/plan_sparse.txt"
	files=
	for a in $algs ompi; do
		csvin "${name}_$a"
		[ -n "${SINGLE:-}" ] && single "$tmp/in/${name}_$a.csv"
		files="$files $tmp/in/${name}_$a.csv"
	done
	for f in $pp; do csvin "$f"; done
	# shellcheck disable=SC2086
	medians $files > "$tmp/med.csv"
	# shellcheck disable=SC2046,SC2086
	set -- $(awk -F, '/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{ print $c["ppn"], $c["sockets"], $c["nodes"], $c["map_by"],
	    ("bind_to" in c) ? $c["bind_to"] : "core",
	    ("numa" in c) ? $c["numa"] : 1; exit }' \
		"$tmp/in/${name}_ompi.csv")
	ppn=$1 sockets=$2 nodes=$3 map=$4 bind=$5 numa=$6
	alist=$(echo "$algs" | tr ' ' ',')
	ranks=$(awk -F, '!s[$2]++ { printf "%s%s", n++ ? "," : "", $2 }' \
		"$tmp/med.csv")
	msgs=$(awk -F, '!s[$3]++ { printf "%s%s", n++ ? "," : "", $3 }' \
		"$tmp/med.csv")
	for plan in $plans; do
		planof "$plan" || continue
		cp "$tmp/plan.txt" "$tmp/plan_$plan.txt"
		# A kept fit is reused only for the same planned points (the
		# adaptive plan's second round depends on the predictor).
		if [ -n "${REUSE:-}" ] && [ -r "$REUSE/$name.$plan/fitted.csv" ] &&
			cmp -s "$REUSE/$name.$plan/plan.txt" "$tmp/plan.txt"; then
			planned "$tmp/plan.txt"
			cp "$REUSE/$name.$plan/fitted.csv" "$tmp/fitted.csv"
		elif ! fitplan "$tmp/plan.txt" "$tmp/fitted.csv"; then
			continue
		fi
		if [ -n "${KEEP:-}" ]; then
			mkdir -p "$KEEP/$name.$plan"
			cp "$tmp"/planned_*.csv "$tmp/fitted.csv" "$tmp/med.csv" \
				"$tmp/plan.txt" "$KEEP/$name.$plan/"
		fi
		extra=${TUNEARGS:-}
		# The machine carries the planned broadcasts (fit --emit's
		# "# measured: " lines, read by --input); an older one does
		# not: the files.  TUNEDATA=0: the machine without them.
		if [ -z "$hasdata" ]; then
			grep -v '^# measured: ' "$tmp/fitted.csv" \
				> "$tmp/fitted.tmp"
			mv "$tmp/fitted.tmp" "$tmp/fitted.csv"
		elif ! grep -q '^# measured: ' "$tmp/fitted.csv"; then
			extra="$extra --data $pdata"
		fi
		common="--ranks $ranks --msg $msgs --ppn $ppn --sockets $sockets
			--nodes $nodes --map-by $map --bind-to $bind --numa $numa
			--format csv $extra"
		# shellcheck disable=SC2086
		"$bin" collective --input "$tmp/fitted.csv" \
			--algorithm "$alist,ompi" --objective latency_avg $common \
			--precision 9 \
			--columns algorithm,ranks,msg,latency_avg,latency_avg_lo,latency_avg_hi,status \
			> "$tmp/pred.csv"
		[ -z "${KEEP:-}" ] || cp "$tmp/pred.csv" "$KEEP/$name.$plan/"
		# shellcheck disable=SC2086
		"$bin" collective --input "$tmp/fitted.csv" --algorithm best \
			--among "$alist,ompi" --objective latency_avg $common \
			--columns ranks,msg,best,status > "$tmp/pick.csv"
		# shellcheck disable=SC2086
		awk -F, -v name="$name" -v plan="$plan" -v nw="$nw" \
			-v verbose="${VERBOSE:-0}" '
		function sort(v, n,   i, j, t) {
			for (i = 2; i <= n; i++) {
				t = v[i]
				for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]
				v[j + 1] = t
			}
		}
		function median(v, n) {
			sort(v, n)
			return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		}
		FNR == 1 { f++ }
		f == 1 {
			split($0, q, ","); pl[$0] = 1; npl++
			pc[q[2] "," q[3]] = 1
			if (!(q[2] in spp)) { spp[q[2]] = 1; PP[++npp] = q[2] + 0 }
			next
		}
		f == 2 {
			me[$1 "," $2 "," $3] = $4; nmed++
			k = $2 "," $3
			if ($1 != "ompi") al[k] = al[k] " " $1
			if (!(k in seen)) { seen[k] = 1; pt[++np] = k }
			if (!($3 in sm)) { sm[$3] = 1; M[++nm] = $3 + 0 }
			if (!($2 in sap)) { sap[$2] = 1; AP[++nap] = $2 + 0 }
			next
		}
		f == 3 && FNR > 1 {
			if ($7 != "ok") { bad++; next }
			k = $1 "," $2 "," $3; lo[k] = $5; hi[k] = $6; next
		}
		f == 4 && FNR > 1 {
			if ($4 != "ok") { bad++; next }
			pk[$1 "," $2] = $3; next
		}
		f <= 4 { next }
		/^#/ { next }
		!h[f] { for (i = 1; i <= NF; i++) c[f, $i] = i; h[f] = 1; next }
		{
			x = $c[f, "algorithm"] "," $c[f, "ranks"] "," $c[f, "msg"]
			if ((x in pl) || !(x in lo)) next
			y = $c[f, "latency_avg"] + 0
			inn = y >= lo[x] && y <= hi[x]
			nr++; cov += inn
			split(x, q, ",")
			mid = q[2] + 0 >= PP[1] && q[2] + 0 <= PP[npp]
			if (mid) { nri++; covi += inn }
			if (!nbset) {
				# the measured P next to a planned one
				sort(AP, nap)
				for (i = 1; i <= nap; i++)
					if ((i > 1 && (AP[i - 1] in spp)) ||
					    (i < nap && (AP[i + 1] in spp)))
						nb[AP[i]] = 1
				nbset = 1
			}
			near = (q[2] + 0) in nb
			if (near) { nrn++; covn += inn }
			if (!(x in wseen)) {
				wseen[x] = 1; W[++nwd] = hi[x] / lo[x]
				if (mid) WI[++nwi] = hi[x] / lo[x]
				if (near) WN[++nwn] = hi[x] / lo[x]
			}
		}
		# The naive tuner at cell (p, m): the candidate measured
		# fastest among the planned broadcasts at the planned P
		# nearest below p (else the smallest) and the planned size
		# nearest m in log there.
		function naive(p, m,   i, bp, bm, d, e, k, a, n, j, b, t) {
			bp = -1
			for (i = 1; i <= npp; i++)
				if (PP[i] <= p + 0 && PP[i] > bp) bp = PP[i]
			if (bp < 0) bp = PP[1]
			d = 1e300
			for (i = 1; i <= nm; i++) {
				if (!((bp "," M[i]) in pc)) continue
				e = log(M[i] / m); if (e < 0) e = -e
				if (e < d - 1e-12) { d = e; bm = M[i] }
			}
			n = split(cands, a, ",")
			b = ""
			for (j = 1; j <= n; j++) {
				k = a[j] "," bp "," bm
				if (!(k in pl) || !(k in me)) continue
				if (b == "" || me[k] + 0 < t) { b = a[j]; t = me[k] + 0 }
			}
			return b
		}
		END {
			sort(PP, npp); sort(M, nm)
			cands = "ompi"
			for (i = 1; i <= np; i++) {
				k = pt[i]
				na = split(al[k], a, " ")
				if (!(("ompi," k) in me) || na < 1 || !(k in pk)) continue
				split(k, q, ",")
				bm = "ompi"
				for (j = 1; j <= na; j++) {
					if (me[a[j] "," k] + 0 < me[bm "," k] + 0) bm = a[j]
					if (index("," cands ",", "," a[j] ",") == 0)
						cands = cands "," a[j]
				}
			}
			for (i = 1; i <= np; i++) {
				k = pt[i]
				na = split(al[k], a, " ")
				if (!(("ompi," k) in me) || na < 1 || !(k in pk)) continue
				split(k, q, ",")
				# low: judged beyond the planned P only
				if (plan == "low" && q[1] + 0 <= PP[npp]) continue
				bm = "ompi"
				for (j = 1; j <= na; j++)
					if (me[a[j] "," k] + 0 < me[bm "," k] + 0) bm = a[j]
				d = me["ompi," k]; b = me[bm "," k]
				p = pk[k]
				if (!((p "," k) in me)) { miss++; continue }
				nv = naive(q[1], q[2])
				if (nv == "" || !((nv "," k) in me)) nv = "ompi"
				y = me[p "," k]; z = me[nv "," k]
				if (verbose)
					printf "%s %s %s %s pick %s %.3f naive %s %.3f best %s %.3f\n",
					    name, plan, q[1], q[2], p, y / d, nv, z / d,
					    bm, b / d > "/dev/stderr"
				n++
				l1 += log(y / d); l2 += log(y / b)
				l3 += log(z / d); l4 += log(z / b); l5 += log(b / d)
			}
			if (bad + miss)
				printf "%s %s: %d predictions not ok, %d picks not measured\n",
				    name, plan, bad, miss > "/dev/stderr"
			if (!n) { printf "%s %s: no cell judged\n", name, plan > "/dev/stderr"; exit }
			printf "%-" nw "s %-8s %5.1f %5d %7.3f %6.3f %7.3f %7.3f %6.3f %5.1f %5.2f %6s %6s %6s %6s\n",
			    name, plan, 100 * npl / nmed, n, exp(l1 / n), exp(l2 / n),
			    exp(l3 / n), exp(l4 / n), exp(l5 / n),
			    nr ? 100 * cov / nr : 0, nwd ? median(W, nwd) : 0,
			    nri ? sprintf("%5.1f", 100 * covi / nri) : "-",
			    nwi ? sprintf("%5.2f", median(WI, nwi)) : "-",
			    nrn ? sprintf("%5.1f", 100 * covn / nrn) : "-",
			    nwn ? sprintf("%5.2f", median(WN, nwn)) : "-"
		}' "$tmp/plan.txt" "$tmp/med.csv" "$tmp/pred.csv" "$tmp/pick.csv" \
			$files | tee -a "$tmp/rows"
	done
}

nw=7
only=${ONLY:-}
for pre in $(ml_prefixes "$dir" ompi); do
	[ ${#pre} -le "$nw" ] || nw=${#pre}
done
echo "# fit collective --stat avg on ping-pong + the plan's broadcasts;"
echo "# best --among the measured algorithms,ompi --objective latency_avg"
echo "# on every measured cell; gm of measured ratios; naive: the fastest"
echo "# measured at the planned P below and the nearest planned size"
printf "%-${nw}s %-8s %5s %5s %7s %6s %7s %7s %6s %5s %5s %6s %6s %6s %6s\n" \
	dataset plan pts% cells p/dflt p/best nv/dflt nv/best b/dflt \
	cover width cov_in wid_in cov_nb wid_nb
ran=
for pre in $(ml_prefixes "$dir" ompi); do
	if [ -n "$only" ]; then
		case " $only " in *" $pre "*) ;; *) continue ;; esac
	fi
	algs=$(ml_algs "$dir" "$pre")
	pp=$(ml_ppfiles "$dir" "$(ml_machine "$pre")")
	if [ -z "$algs" ] || [ -z "$pp" ]; then
		echo "$ml_script: $pre: skipped (needs ${pre}_ALG.csv and" \
			"pp_$(ml_machine "$pre")_CHANNEL.csv beside" \
			"${pre}_ompi.csv)" >&2
		continue
	fi
	dataset "$pre" "$pp" "$algs" < /dev/null
	ran=1
done
[ -n "$ran" ] || ml_die "$dir: no dataset (PREFIX_ompi.csv, PREFIX_ALG.csv" \
	"and pp_MACHINE_CHANNEL.csv, as scripts/orfeo-to-csv.sh names them)"
# The rows against issue 46's Done-means: best's pick/default no worse
# than the naive tuner's and at most 1.00; cov_in within 80-98 %; wid_in
# under 2 (rows without P between planned P are not counted there); the
# same next to a planned P (cov_nb, wid_nb).
awk '{ n++
	if ($5 + 0 <= 1.0005 && $5 + 0 <= $7 + 0.0005) pk++
	if ($12 != "-") { nc++; if ($12 + 0 >= 80 && $12 + 0 <= 98) cv++ }
	if ($13 != "-") { nwi++; if ($13 + 0 < 2) wd++ }
	if ($14 != "-") { ncn++; if ($14 + 0 >= 80 && $14 + 0 <= 98) cvn++ }
	if ($15 != "-") { nwn++; if ($15 + 0 < 2) wdn++ } }
END { if (n) printf "# done: pick <= 1 and <= naive %d of %d; cov_in 80-98 %d" \
	" of %d; wid_in < 2 %d of %d; cov_nb 80-98 %d of %d; wid_nb < 2" \
	" %d of %d\n", pk, n, cv, nc, wd, nwi, cvn, ncn, wdn, nwn }' \
	"$tmp/rows"
