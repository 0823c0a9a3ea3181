#!/bin/sh
# orfeo-barrier-to-csv.sh - turn the two ORFEO EPYC sets that measured
# osu_barrier beside osu_bcast (shared/data/real/orfeo_epyc_barrier_*,
# kept byte for byte) into mcastlat fit CSV, as orfeo-to-csv.sh does for
# the others.
#
#   scripts/orfeo-barrier-to-csv.sh [DATADIR [OUTDIR]]
#       DATADIR  the folder holding orfeo_epyc_barrier_valentinis/ and
#                orfeo_epyc_barrier_zappi/ (default: ../shared/data/real
#                beside the tree)
#       OUTDIR   where the CSV go (default: examples/real of the tree)
#   scripts/orfeo-barrier-to-csv.sh -h|--help      this text
#
# Broadcasts (osu_bcast, OSU's Avg, one run a point, Open MPI 4.1.5 on
# two EPYC nodes: ppn 128, 2 sockets, 4 NUMA domains a socket as
# orfeo-to-csv.sh assumes, mpirun's default binding), columns
#   op,algorithm,ranks,ppn,sockets,nodes,map_by,bind_to,numa,msg,latency_avg
#   epycpl_MAP_ALG.csv      Valentinis' set: MAP core, socket, node; every
#                           P = 2..255; 1 B - 2 KiB (12 sizes)
#   epycpl2_MAP_ALG.csv     Zappi's set: MAP core, socket; P = 2..254 step
#                           4; 1 B - 128 KiB (18 sizes)
#   ..._p256.csv            the same at P = 256 (both nodes full: kept
#                           apart, as the README of the data says)
#     ALG: ompi (coll_tuned_bcast_algorithm 0), linear (1), chain (2,
#     Open MPI's default fan-out 4), binary (5).
# Barriers (osu_barrier, OSU's Avg, us), columns
#   op,algorithm,ranks,ppn,sockets,nodes,map_by,bind_to,numa,latency_avg
# with op=barrier and algorithm ompi (the default decision, 0), linear (1),
# double-ring (2), bruck (4), tree (6; Zappi's only), map_by per row:
#   barrier_epycpl.csv, barrier_epycpl2.csv (every P, 256 included).
# Rows whose MessageSize is not a number (Zappi's captured OSU headers)
# are skipped; any other malformed row is an error, exit 2, FILE:LINE.
set -eu

ml_script=${0##*/}
here=${0%/*}
[ "$here" != "$0" ] || here=.

ml_die() {
	echo "$ml_script: $*" >&2
	exit 2
}

case ${1-} in
-h | --help)
	sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"
	exit 0
	;;
-*) ml_die "unknown option '$1' (see $ml_script --help)" ;;
esac
[ $# -le 2 ] || ml_die "takes at most DATADIR and OUTDIR (see $ml_script --help)"

data=${1:-$here/../../shared/data/real}
out=${2:-$here/../examples/real}
val=$data/orfeo_epyc_barrier_valentinis
zap=$data/orfeo_epyc_barrier_zappi
[ -d "$val/repo_files" ] || ml_die "$val/repo_files: not a directory"
[ -d "$zap/repo_files" ] || ml_die "$zap/repo_files: not a directory"
mkdir -p "$out" || ml_die "$out: cannot make the directory"
valdir=$val/repo_files/exercise1/results_def
zapdir=$zap/repo_files/exercise1/Solution

# conv PREFIX SOURCE FILE...: one OSU CSV (header Algorithm, Allocation
# or Mapping, Processes, [MessageSize,] a latency) into the files above.
# shellcheck disable=SC2016 # an awk program: its $ are awk's
conv_awk='
function bad(msg) {
	printf "%s: %s:%d: %s\n", script, FILENAME, FNR, msg > "/dev/stderr"
	exit 2
}
function num(s) {
	return s ~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ && s + 0 > 0
}
function name(a) {
	a = tolower(a)
	gsub(/[^a-z]/, "", a)
	if (a == "default" || a == "def") return "ompi"
	if (a == "linear" || a == "basiclinear") return "linear"
	if (a == "chain") return "chain"
	if (a == "bintree" || a == "binarytree") return "binary"
	if (a == "bruck") return "bruck"
	if (a == "ring" || a == "doublering") return "double-ring"
	if (a == "tree") return "tree"
	bad("unknown algorithm \"" a "\"")
}
{ sub(/\r$/, "") }
FNR == 1 {
	delete col
	n = split($0, h, ",")
	for (i = 1; i <= n; i++) {
		gsub(/^[ \t]+|[ \t]+$/, "", h[i])
		if (h[i] ~ /Latency/) h[i] = "Latency"
		if (h[i] == "Mapping") h[i] = "Allocation"
		col[h[i]] = i
	}
	if (!("Algorithm" in col) || !("Allocation" in col) ||
	    !("Processes" in col) || !("Latency" in col))
		bad("header lacks Algorithm, Allocation/Mapping, Processes or a latency")
	bar = !("MessageSize" in col)
	next
}
{
	if (split($0, f, ",") != n)
		bad("has " split($0, f, ",") " fields, the header " n)
	for (i = 1; i <= n; i++)
		gsub(/^[ \t]+|[ \t]+$/, "", f[i])
	if (!bar && f[col["MessageSize"]] !~ /^[0-9]+$/)
		next	# an OSU header line captured with the data
	alg = name(f[col["Algorithm"]])
	map = f[col["Allocation"]]
	if (map != "core" && map != "socket" && map != "node")
		bad("unknown mapping \"" map "\"")
	p = f[col["Processes"]]
	if (p !~ /^[0-9]+$/ || p < 2 || p > 256)
		bad("processes \"" p "\" not in 2..256")
	lat = f[col["Latency"]]
	if (!num(lat))
		bad("latency \"" lat "\" is not a positive number")
	if (bar) {
		o = out "/barrier_" prefix ".csv.tmp"
		row = sprintf("barrier,%s,%d,128,2,2,%s,default,4,%s", alg, p, map, lat)
		hd = "op,algorithm,ranks,ppn,sockets,nodes,map_by,bind_to,numa,latency_avg"
		what = "osu_barrier"
	} else {
		m = f[col["MessageSize"]]
		if (m < 1)
			bad("message size \"" m "\" is not positive")
		o = out "/" prefix "_" map "_" alg (p == 256 ? "_p256" : "") ".csv.tmp"
		row = sprintf("bcast,%s,%d,128,2,2,%s,default,4,%d,%s", alg, p, map, m, lat)
		hd = "op,algorithm,ranks,ppn,sockets,nodes,map_by,bind_to,numa,msg,latency_avg"
		what = "osu_bcast"
	}
	if (!(o in seen)) {
		seen[o] = 1
		printf "# source: %s (%s, Open MPI 4.1.5 on 2 EPYC nodes, coll_tuned forced, --map-by %s; one run a point; OSU Avg)\n", src, what, bar ? "as map_by says" : map > o
		printf "# converted by scripts/orfeo-barrier-to-csv.sh: latency in us (OSU output); ppn 128 = 2 sockets x 64 cores\n%s\n", hd > o
		files[++nf] = o
	}
	print row > o
}
END {
	for (i = 1; i <= nf; i++)
		print files[i]
}'

# The "# repo OWNER/NAME commit SHA" of a MANIFEST, or the PROVENANCE's
# repo line, as OWNER/NAME.
origin() {
	sed -n 's/^repo: github.com\/\([^ ]*\).*/\1/p' "$1/PROVENANCE.md" | head -n 1
}

conv() {
	prefix=$1 src=$2
	shift 2
	awk -v script="$ml_script" -v out="$out" -v prefix="$prefix" \
		-v src="$src" "$conv_awk" "$@" > "$out/.list" || {
		rm -f "$out"/*.csv.tmp "$out/.list"
		exit 2
	}
	while IFS= read -r o; do
		mv "$o" "${o%.tmp}"
	done < "$out/.list"
	rm -f "$out/.list"
}

set --
for a in def linear chain bintree; do
	for m in core socket node; do
		set -- "$@" "$valdir/bcast_${a}_results_wu_$m.csv"
	done
done
conv epycpl "$(origin "$val"), exercise1/results_def/bcast_*_results_wu_MAP.csv" "$@"
set --
for a in default linear ring bruck; do
	for m in core socket node; do
		set -- "$@" "$valdir/barrier_${a}_results_wu_$m.csv"
	done
done
conv epycpl "$(origin "$val"), exercise1/results_def/barrier_*_results_wu_MAP.csv" "$@"
conv epycpl2 "$(origin "$zap"), exercise1/Solution/bcast/bcast_*.csv" \
	"$zapdir"/bcast/bcast_default.csv "$zapdir"/bcast/bcast_basiclinear.csv \
	"$zapdir"/bcast/bcast_chain.csv "$zapdir"/bcast/bcast_binarytree.csv
conv epycpl2 "$(origin "$zap"), exercise1/Solution/barrier/barrier_*.csv" \
	"$zapdir"/barrier/barrier_default.csv "$zapdir"/barrier/barrier_linear.csv \
	"$zapdir"/barrier/barrier_doublering.csv "$zapdir"/barrier/barrier_bruck.csv \
	"$zapdir"/barrier/barrier_tree.csv
