#!/bin/sh
# collective-validate.sh - how far `fit collective` predicts broadcasts it
# was not fitted on, beside `fit cluster` (the thesis model, SPEC 2) on
# the same points (issue 26, SPEC 10.4).
#
#   scripts/collective-validate.sh [DATADIR]
#
# DATADIR holds the CSVs of scripts/orfeo-to-csv.sh (default
# examples/real), each as NAME.csv or gzip'd as NAME.csv.gz (the
# repository's layout; decompressed into a temporary directory): ORFEO's EPYC and THIN nodes, Open MPI, OSU osu_bcast
# (OSU's Avg, one row per run: 20 runs a point in epyc_*/thin_*, one in
# thinpl_*) and osu_latency.  Per dataset, each model is fitted on the
# ping-pong files and the broadcasts at P <= HOLD (default 32, env), and
# predicts the broadcasts at P > HOLD (--holdout).  Printed per dataset
# and model: the fit's rms relative error (every fitted row, ping-pong
# included), the held-out points' count, rms and mean signed relative
# error (< 0: predicted too low), then the held-out rms by message size
# and by process count (M <= 4 KiB, 8-64 KiB, >= 128 KiB; P <= 64,
# 65-128, > 128), and the lack-of-fit line of the collective fit.  The
# table lines are at most 72 columns (mcastlat-collective(1) shows them).
#
# The collective model sees each rank's placement (--ppn, --sockets,
# --map-by, 2 nodes) and the ping-pong of every channel measured; the
# cluster model has one channel and one rank per node, so it gets
# nodes = P and the network ping-pong only (its p2p is the inter-node
# message).  Both fit OSU's Avg: collective against its latency_avg.
# Nothing here is tuned to the held-out points: every option is the
# command's default and --free auto.
#
# Besides the shared data's three datasets (each where its files are),
# every other PREFIX_binomial.csv of DATADIR with its machine's network
# ping-pong pp_MACHINE_net.csv beside it (and pp_MACHINE_socket, _node
# where they exist; MACHINE the prefix's first word less a trailing
# "pl", as orfeo-to-csv.sh names them) is a dataset of its own, titled
# by its prefix: another cluster's measurements named so are judged
# without editing this script.
#
# Env: MCASTLAT (the binary; else the tree's, else mcastlat on PATH),
# HOLD (default 32), FITARGS (more options for both fits, e.g.
# "--weight log"; default none), JOBS (the collective fit's threads,
# default the online cores; the same output on any count).
set -eu
here=${0%/*}
[ "$here" != "$0" ] || here=.
# shellcheck source=scripts/common.sh
. "$here/common.sh"

dir=${1:-examples/real}
bin=$mcastlat
hold=${HOLD:-32}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/collval.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

mkdir "$tmp/in"

# csvin NAME: $tmp/in/NAME.csv from $dir (common.sh)
csvin() { ml_csvin "$dir0" "$1" "$tmp/in"; }
ml_need gzip gzip
dir0=$dir
dir=$tmp/in

# A broadcast file as the cluster model reads it: nodes = ranks.
to_cluster() {
	awk -F, '/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i
	     print "op,nodes,msg," $NF; h = 1; next }
	{ print "bcast," $c["ranks"] "," $c["msg"] "," $NF }' "$1"
}

# Score a --residuals --format csv file: one line of numbers.
#   $1 file, $2 the column of the process count (ranks or nodes)
score() {
	awk -F, -v pcol="$2" '
	/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{
		e = $c["rel_error"] + 0
		if ($c["set"] == "fit") { fs += e * e; fn++; next }
		hs += e * e; hm += e; hn++
		m = $c["msg"] + 0; p = $c[pcol] + 0
		k = m <= 4096 ? 1 : (m <= 65536 ? 2 : 3)
		ms[k] += e * e; mn[k]++
		k = p <= 64 ? 1 : (p <= 128 ? 2 : 3)
		ps[k] += e * e; pn[k]++
	}
	function r(s, n) { return n ? sprintf("%6.1f", 100 * sqrt(s / n)) : "     -" }
	END {
		printf "%5.1f%6d%6.1f%+6.1f%s%s%s%s%s%s\n",
		    100 * sqrt(fs / fn), hn, 100 * sqrt(hs / hn), 100 * hm / hn,
		    r(ms[1], mn[1]), r(ms[2], mn[2]), r(ms[3], mn[3]),
		    r(ps[1], pn[1]), r(ps[2], pn[2]), r(ps[3], pn[3])
	}' "$1"
}

# One dataset: $1 title; $2 the network ping-pong; $3 the intra-node
# ping-pong files (space-separated, may be empty); the rest broadcasts.
dataset() {
	title=$1 ppnet=$2 ppin=$3
	shift 3
	coll="--data $dir/$ppnet.csv"
	for f in $ppin; do coll="$coll --data $dir/$f.csv"; done
	awk -F, '/^#/ { next } !h { print "op,msg,latency"; h = 1; next }
	{ print "p2p," $3 "," $4 }' "$dir/$ppnet.csv" > "$tmp/pp.cluster.csv"
	clus="--data $tmp/pp.cluster.csv"
	for f in "$@"; do
		coll="$coll --data $dir/$f.csv"
		to_cluster "$dir/$f.csv" > "$tmp/$f.cluster.csv"
		clus="$clus --data $tmp/$f.cluster.csv"
	done
	echo
	echo "# $title"
	echo "# fit: ping-pong + P <= $hold; held out: P > $hold"
	printf '%-10s %5s%6s%6s%6s%6s%6s%6s%6s%6s%6s\n' model \
		fit% held hold% mean% 'M<=4K' '<=64K' '>64K' 'P<=64' \
		'<=128' '>128'
	# shellcheck disable=SC2086
	"$bin" fit collective --jobs "$ml_jobs" $coll ${FITARGS:-} \
		--holdout "ranks>$hold" \
		--residuals \
		--format csv > "$tmp/coll.csv" 2> "$tmp/coll.err" || {
		cat "$tmp/coll.err" >&2
		exit 1
	}
	printf '%-10s ' collective
	score "$tmp/coll.csv" ranks
	# shellcheck disable=SC2086
	"$bin" fit cluster $clus ${FITARGS:-} --holdout "nodes>$hold" \
		--residuals \
		--format csv > "$tmp/clus.csv" 2> "$tmp/clus.err" || {
		cat "$tmp/clus.err" >&2
		exit 1
	}
	printf '%-10s ' cluster
	score "$tmp/clus.csv" nodes
	awk '/^# [a-z]/ { on = /^# (free|lack of fit)/ } on && /^#/' \
		"$tmp/coll.csv" | sed 's/^# /# collective: /'
}

# known TITLE PPNET PPIN FILE...: a dataset of the shared data as the
# tables of mcastlat-collective(1) have it, where DIR holds every one of
# its files; else nothing, 1.
ran=
known() {
	for f in "$2" $3; do ml_has "$dir0" "$f" || return 1; done
	t=$1 n=$2 i=$3
	shift 3
	for f in "$@"; do ml_has "$dir0" "$f" || return 1; done
	for f in "$n" $i "$@"; do csvin "$f"; done
	dataset "$t" "$n" "$i" "$@"
	for f in "$@"; do ran="$ran ${f%_binomial} "; done
}
known "EPYC, binomial, --map-by node, 2 nodes x 128 cores (P = 2..254)" \
	pp_epyc_net "" epyc_node_binomial || :
known "THIN, binomial, --map-by node, 2 nodes x 24 cores (P = 2..48)" \
	pp_thin_net "pp_thin_socket pp_thin_node" thin_node_binomial || :
known "THIN placements, binomial, --map-by core, socket and node (P = 2..48)" \
	pp_thin_net "pp_thin_socket pp_thin_node" thinpl_core_binomial \
	thinpl_socket_binomial thinpl_node_binomial || :
# Every other PREFIX_binomial of DIR with its machine's network
# ping-pong beside it (common.sh: ml_ppfiles), by its prefix.
for pre in $(ml_prefixes "$dir0" binomial); do
	case $ran in *" $pre "*) continue ;; esac
	m=$(ml_machine "$pre")
	pp=$(ml_ppfiles "$dir0" "$m")
	case $pp in
	"pp_${m}_net"*) ;;
	*)
		echo "$ml_script: $pre: skipped (needs pp_${m}_net.csv beside" \
			"${pre}_binomial.csv)" >&2
		continue ;;
	esac
	for f in $pp "${pre}_binomial"; do csvin "$f"; done
	dataset "$pre, binomial" "pp_${m}_net" "${pp#pp_"${m}"_net}" \
		"${pre}_binomial"
	ran="$ran $pre "
done
[ -n "$ran" ] || ml_die "$dir0: no dataset (PREFIX_binomial.csv and" \
	"pp_MACHINE_net.csv, as scripts/orfeo-to-csv.sh names them)"
