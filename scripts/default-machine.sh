#!/bin/sh
# default-machine.sh - the default machine of `mcastlat collective` and
# its error model (issue 37), from the public measurements:
#
#   scripts/default-machine.sh [DATADIR]
#
# DATADIR holds the CSVs of scripts/orfeo-to-csv.sh (default
# examples/real, NAME.csv or NAME.csv.gz).  The default machine is a fit
# (`mcastlat fit collective --stat avg`, --free auto, every option at its
# default) of the THIN nodes' data, the one dataset with all three
# channels measured: the three ping-pong files and every broadcast file
# of THIN (--map-by node: binomial, pipeline, scatter-allgather-ring and
# Open MPI's default, P = 2..48; --map-by core, socket and node: binary,
# binomial, chain, linear, pipeline and the default).  Its error model
# is the larger, term by term, of the fit's own (forward validation) and
# of how far it predicts another cluster: the THIN machine judged on
# every EPYC broadcast (--map-by node, 2 x 128 cores, P = 2..254), per
# message class the rms of ln(measured / predicted) over the runs, and
# per algorithm the rms of the difference of its ln error and the
# default's (medians over the runs) at each measured point.  With
# REVERSE=1 the reverse too (EPYC's fit, on its network ping-pong and
# every EPYC broadcast, judged on THIN's --map-by node broadcasts), for
# the record: a fit of EPYC's 62000 runs takes long.
#
# The eager copies (--eager-byte-*) are held at 0: the THIN fit keeps
# them (its own forward validation is better with them), but the THIN
# machine with them predicts EPYC worse (rms ln error 1.63, 1.04, 0.53
# per class against 1.37, 0.63, 0.49; an algorithm against the default
# 1.34 against 0.70), and the default machine is for clusters it was not
# fitted on.  EAGER=1 frees them, for the record.
#
# Prints the machine and the error model as the #defines of
# src/models/collective.c and src/cli/commands/cmd_collective.c, and the
# cross-cluster errors on # lines.  Takes a few minutes (the fit's
# forward validation refits 94000 points three times).
#
# Env: MCASTLAT (the binary; else the tree's, else mcastlat on PATH),
# REVERSE (1: the reverse judgement as well), EAGER (1: the eager
# copies freed).
set -eu
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"

[ $# -le 1 ] || ml_bad_usage "takes at most DATADIR"
ml_need gzip gzip
dir=${1:-examples/real}
bin=$mcastlat
tmp=$(mktemp -d "${TMPDIR:-/tmp}/defmach.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/in"
csvin() { ml_csvin "$dir" "$1" "$tmp/in"; }

thin="pp_thin_net pp_thin_socket pp_thin_node thin_node_binomial
thin_node_pipeline thin_node_scatter-allgather-ring thin_node_ompi"
for m in core socket node; do
	for a in binary binomial chain linear pipeline ompi; do
		[ "$m/$a" = node/pipeline ] || thin="$thin thinpl_${m}_$a"
	done
done
epyc="epyc_node_binomial epyc_node_pipeline
epyc_node_scatter-allgather-ring epyc_node_ompi"
args=
for f in $thin $epyc pp_epyc_net; do
	csvin "$f"
done
for f in $thin; do args="$args --data $tmp/in/$f.csv"; done
[ "${EAGER:-0}" = 1 ] ||
	args="$args --eager-byte-socket 0 --eager-byte-node 0 --eager-byte-net 0"
# shellcheck disable=SC2086
"$bin" fit collective --stat avg $args --emit "$tmp/thin.csv" \
	> "$tmp/thin.out" 2>&1 || { cat "$tmp/thin.out" >&2; exit 1; }
if [ "${REVERSE:-0}" = 1 ]; then
	args="--data $tmp/in/pp_epyc_net.csv"
	for f in $epyc; do args="$args --data $tmp/in/$f.csv"; done
	# shellcheck disable=SC2086
	"$bin" fit collective --stat avg $args --emit "$tmp/epyc.csv" \
		> "$tmp/epyc.out" 2>&1 || { cat "$tmp/epyc.out" >&2; exit 1; }
fi

# cross MACHINE PREFIX ALGS PPN SOCKETS NODES MAP: per class the rms of
# ln(measured / predicted) over the runs, per algorithm the rms of its
# difference to the default's (medians), as "class K RMS N" and
# "diff ALG RMS N" lines.
cross() {
	mach=$1 pre=$2 algs=$3 ppn=$4 sockets=$5 nodes=$6 map=$7
	files=
	for a in $algs; do files="$files $tmp/in/${pre}_$a.csv"; done
	# shellcheck disable=SC2086
	ranks=$(awk -F, 'FNR == 1 { h = 0 } /^#/ { next } !h { for (i = 1; i <= NF; i++)
		c[$i] = i; h = 1; next } !s[$c["ranks"]]++ {
		printf "%s%s", n++ ? "," : "", $c["ranks"] }' $files)
	# shellcheck disable=SC2086
	msgs=$(awk -F, 'FNR == 1 { h = 0 } /^#/ { next } !h { for (i = 1; i <= NF; i++)
		c[$i] = i; h = 1; next } !s[$c["msg"]]++ {
		printf "%s%s", n++ ? "," : "", $c["msg"] }' $files)
	"$bin" collective --input "$mach" \
		--algorithm "$(echo "$algs" | tr ' ' ',')" --ranks "$ranks" \
		--msg "$msgs" --ppn "$ppn" --sockets "$sockets" \
		--nodes "$nodes" --map-by "$map" --format csv --precision 9 \
		--columns algorithm,ranks,msg,latency_avg,status \
		> "$tmp/cross.csv"
	# shellcheck disable=SC2086
	awk -F, '
	function med(s,   n, a, i, j, t) {
		n = split(s, a, " ")
		for (i = 2; i <= n; i++) {
			t = a[i] + 0
			for (j = i - 1; j >= 1 && a[j] + 0 > t; j--)
				a[j + 1] = a[j]
			a[j + 1] = t
		}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	FNR == 1 { f++ }
	f == 1 { if (FNR > 1 && $5 == "ok") pr[$1 "," $2 "," $3] = $4; next }
	FNR == 1 { h[f] = 0 }
	/^#/ { next }
	!h[f] { for (i = 1; i <= NF; i++) c[f, $i] = i; h[f] = 1; next }
	{
		a = $c[f, "algorithm"]; k = $c[f, "ranks"] "," $c[f, "msg"]
		x = a "," k
		if (!(x in pr)) next
		y = $c[f, "latency_avg"] + 0
		m = $c[f, "msg"] + 0
		cl = m <= 4096 ? 0 : m <= 65536 ? 1 : 2
		d = log(y / pr[x]); n[cl]++; s2[cl] += d * d
		v[x] = v[x] " " y; al[k] = al[k] " " a
	}
	END {
		for (cl = 0; cl < 3; cl++)
			printf "class %d %.6g %d\n", cl, sqrt(s2[cl] / n[cl]), n[cl]
		for (x in v) {
			split(x, q, ",")
			if (q[1] == "ompi") continue
			o = "ompi," q[2] "," q[3]
			if (!(o in v)) continue
			dd = log(med(v[x]) / pr[x]) - log(med(v[o]) / pr[o])
			dn[q[1]]++; ds[q[1]] += dd * dd
		}
		for (a in dn)
			printf "diff %s %.6g %d\n", a, sqrt(ds[a] / dn[a]), dn[a]
	}' "$tmp/cross.csv" $files
}

cross "$tmp/thin.csv" epyc_node \
	"binomial pipeline scatter-allgather-ring ompi" 128 2 2 node \
	> "$tmp/thin-on-epyc"
[ "${REVERSE:-0}" != 1 ] || cross "$tmp/epyc.csv" thin_node \
	"binomial pipeline scatter-allgather-ring ompi" 24 2 2 node \
	> "$tmp/epyc-on-thin"

awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
NR == 2 { for (i = 1; i <= NF; i++) print h[i], $i }' "$tmp/thin.csv" \
	> "$tmp/thin.vals"
echo "# THIN machine on EPYC's broadcasts (class: rms of ln error, runs;"
echo "# diff: rms of an algorithm's ln error less the default's, points):"
sed 's/^/#   /' "$tmp/thin-on-epyc"
if [ "${REVERSE:-0}" = 1 ]; then
	echo "# EPYC machine on THIN's --map-by node broadcasts:"
	sed 's/^/#   /' "$tmp/epyc-on-thin"
fi
echo "# the THIN fit's own error model (forward validation):"
grep -A6 '^# error model' "$tmp/thin.out" | sed -n '/^# error/,/^# [a-z]/p' |
	grep -v '^# predict' | sed 's/^# /#   /'
awk -v cross="$tmp/thin-on-epyc" '
function up(name) { name = toupper(name); gsub(/-/, "_", name); return name }
BEGIN {
	while ((getline l < cross) > 0) {
		split(l, f, " ")
		if (f[1] == "class") cl[f[2]] = f[3]
		else df[f[2]] = f[3]
	}
	name[0] = "small"; name[1] = "medium"; name[2] = "large"
}
{ v[$1] = $2 }
END {
	for (o in v) if (o !~ /^err-/ && o != "eager")
		printf "#define DEF_%s %.6g\n", up(o), v[o]
	printf "#define DEF_ERR_RANKS \"%d\"\n", v["err-ranks"]
	for (k = 0; k < 3; k++) {
		s = v["err-sd-" name[k]]
		if (cl[k] > s) s = cl[k]
		printf "#define DEF_ERR_SD_%s \"%.3g\"\n", up(name[k]), s
		printf "#define DEF_ERR_GROWTH_%s \"%.3g\"\n", up(name[k]),
		    v["err-growth-" name[k]]
	}
	d = v["err-diff"]
	for (a in df) if (df[a] > d) d = df[a]
	printf "#define DEF_ERR_DIFF \"%.3g\"\n", d
	printf "#define DEF_ERR_DIFF_GROWTH \"%.3g\"\n", v["err-diff-growth"]
	for (o in v) if (o ~ /^err-diff-/ && o != "err-diff-growth") {
		a = substr(o, 10); s = v[o]
		if (a in df && df[a] > s) s = df[a]
		printf "#define DEF_%s \"%.3g\"\n", up(o), s
	}
}' "$tmp/thin.vals" | sort
