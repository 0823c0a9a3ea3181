#!/bin/sh
# orfeo-to-csv.sh - turn the public ORFEO measurements (shared/data/real,
# kept byte for byte as their repositories hold them) into mcastlat fit
# CSV: one file per dataset, one row per run (repeated runs are data:
# every repeat is kept, none is averaged).
#
#   scripts/orfeo-to-csv.sh [DATADIR [OUTDIR]]
#       DATADIR  the folder holding orfeo_epyc_thin_mapbynode/ and
#                orfeo_thin_placements/ (default: ../shared/data/real
#                beside the tree)
#       OUTDIR   where the CSV go, made if missing (default: examples/real
#                of the tree)
#   scripts/orfeo-to-csv.sh -h|--help      this text
#
# Ping-pong, osu_latency (one way, us), columns op,channel,msg,latency:
#   pp_thin_socket.csv  THIN, both cores on one socket (132 core pairs)
#   pp_thin_node.csv    THIN, cores on the two sockets of a node (144 pairs)
#                       (orfeo_thin_placements latency_data_single_node.csv;
#                       cores 0-11 are socket 0, 12-23 socket 1)
#   pp_thin_net.csv     THIN, one rank on each of two nodes, 20 runs
#   pp_epyc_net.csv     EPYC, the same (orfeo_epyc_thin_mapbynode naive/)
#   (latency_data_two_nodes.csv is not converted: both ranks ran on one
#   node, see its PROVENANCE.md.)
# Broadcasts, osu_bcast, columns
#   op,algorithm,ranks,ppn,sockets,nodes,map_by,bind_to,numa,msg,
#   latency_avg[,latency]
# with latency_avg = OSU's Avg (mean over ranks) and latency = OSU's Max
# where the file has it (-f), in us; nodes = the 2 allocated; bind_to
# default (no run gave mpirun --bind-to: it binds to a NUMA domain for
# P > 2, which decides the socket of a rank mapped by node); numa, the
# NUMA domains a socket: 1 on THIN (lstopo, orfeo_thin_placements'
# PROVENANCE.md), 4 on EPYC, where it is not recorded (NPS1 or NPS4):
# fitted on P <= 16 and judged on 17..32 (scripts/collective-numa.sh,
# mcastlat-collective(1)), 4 predicts best (14.4 % rms
# against 16.9 for 1, 18.2 for 2):
#   epyc_node_ALG.csv       EPYC (ppn 128, 2 sockets), --map-by node,
#                           P = 2..254 step 6, 20 runs a point
#   epyc_node_ALG_p256.csv  the same at P = 256 (Size/ files: both nodes
#                           full; keep apart from the sweep, see README)
#   thin_node_ALG.csv       THIN (ppn 24, 2 sockets), --map-by node,
#                           P = 2..48, 20 runs a point (19 for ompi and
#                           pipeline: the 20th column of those files is
#                           an artefact, detected and dropped, with a note)
#   thin_node_ALG_p48.csv   the same at P = 48 (Size/ files)
#     ALG: ompi (Open MPI's default, "base"), pipeline, binomial,
#     scatter-allgather-ring ("ring")
#   thinpl_MAP_ALG.csv      THIN, --map-by MAP (core, socket, node), one
#                           run a point (orfeo_thin_placements results/):
#                           binomial (Avg, P = 2..48, Open MPI 4.1.5 icc),
#                           ompi, binary, chain, linear (Avg and Max,
#                           P = 2..48 step 2, 4.1.6 gnu), pipeline (Avg;
#                           core P = 2..48, socket 2..30)
# Each file starts with '#' lines naming its source (repository, commit,
# path) and what was done.  A malformed source line (field count, a size
# that is not 1..1 MiB, a latency that is not a positive number) is an
# error, exit 2, naming FILE:LINE.  POSIX sh and awk only.  Takes a
# second or two; the whole output is about 8 MB.
set -eu

ml_script=${0##*/}
here=${0%/*}
[ "$here" != "$0" ] || here=.

ml_die() {
	echo "$ml_script: $*" >&2
	exit 2
}

# The header comment of this script, from its second line to the first
# line that is not a comment, without the "# " (as scripts/common.sh).
ml_usage() {
	{
		IFS= read -r ml_line
		while IFS= read -r ml_line; do
			case $ml_line in
			'#'*) ml_line=${ml_line#'#'}; printf '%s\n' "${ml_line# }" ;;
			*) break ;;
			esac
		done
	} < "$0"
}

case ${1-} in
-h | --help) ml_usage; exit 0 ;;
-*) ml_die "unknown option '$1' (see $ml_script --help)" ;;
esac
[ $# -le 2 ] || ml_die "takes at most DATADIR and OUTDIR (see $ml_script --help)"
command -v awk >/dev/null 2>&1 || ml_die "needs awk (Debian: apt-get install mawk)"

data=${1:-$here/../../shared/data/real}
out=${2:-$here/../examples/real}
cab=$data/orfeo_epyc_thin_mapbynode
zam=$data/orfeo_thin_placements
[ -d "$cab/repo_files" ] || ml_die "$cab/repo_files: not a directory (DATADIR is the folder of the README of the real data)"
[ -d "$zam/repo_files" ] || ml_die "$zam/repo_files: not a directory"
mkdir -p "$out" || ml_die "$out: cannot make the directory"

# The "# repo OWNER/NAME commit SHA" of a MANIFEST, as "OWNER/NAME@SHA".
origin() {
	awk 'NR == 1 && $2 == "repo" && $4 == "commit" { print $3 "@" $5; f = 1 }
	     END { if (!f) print "unknown" }' "$1"
}
cab_src=$(origin "$cab/MANIFEST_repo_files.tsv")
zam_src=$(origin "$zam/MANIFEST_repo_files.tsv")
cab_ex="$cab/repo_files/Exercise 1"
zam_ex="$zam/repo_files/Excercise_1"

# The run-matrix files of orfeo_epyc_thin_mapbynode: no header, 21 rows
# (size, then the 20 runs).  awk -v: head (the first '#' lines and the
# CSV header, given as one string with \n), pre (the row's fixed columns
# before the ranks, or up to map_by when there is no P column to fill),
# mid (after the ranks, up to map_by) and pfile, a list of FILE<TAB>P
# lines giving each file's P ("" when pre holds it).  The last column is dropped
# when it repeats the previous run's 1 MiB value in every row (the
# output_elaborator.py artefact of PROVENANCE.md).
# shellcheck disable=SC2016 # an awk program: its $ are awk's
matrix_awk='
function bad(msg) {
	printf "%s: %s:%d: %s\n", script, FILENAME, FNR, msg > "/dev/stderr"
	exit 2
}
function num(s) {
	return s ~ /^[ \t]*[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?[ \t]*$/ && s + 0 > 0
}
function flush(   i, j, drop, n, p) {
	if (nrow == 0)
		return
	if (nrow != 21)
		bad("has " nrow " rows, not the 21 sizes 1 .. 1048576")
	drop = 1
	for (i = 1; i <= nrow; i++)
		if (v[i, ncol] != v[nrow, ncol - 1])
			drop = 0
	n = drop ? ncol - 1 : ncol
	if (!headed++) {
		# The comment lines, a note when the first file has the
		# artefact, then the column header (the last line of head).
		k = length(head)
		while (k > 0 && substr(head, k, 1) != "\n")
			k--
		if (drop)
			printf "%s\n# note: in these files the last run repeats the 1 MiB value of the run before it at every size (output_elaborator.py artefact): dropped, %d runs a point\n%s\n", substr(head, 1, k - 1), n - 1, substr(head, k + 1)
		else
			printf "%s\n", head
	}
	nfile++
	if (drop && !ndrop++)
		first = file
	if (drop)
		last = file
	p = (pfile != "") ? P[file] mid : ""
	for (i = 1; i <= nrow; i++)
		for (j = 2; j <= n; j++)
			printf "%s%s%d,%s\n", pre, p, v[i, 1], v[i, j]
	nrow = 0
}
BEGIN {
	if (pfile != "")
		while ((getline line < pfile) > 0) {
			k = index(line, "\t")
			P[substr(line, 1, k - 1)] = substr(line, k + 1)
		}
}
FNR == 1 { flush(); file = FILENAME }
{
	sub(/\r$/, "")
	nf = split($0, f, ",")
	if (nf != 21)
		bad("has " nf " fields, not a size and 20 runs")
	if (!num(f[1]) || f[1] + 0 != 2 ^ FNR / 2)
		bad("size \"" f[1] "\" is not " 2 ^ FNR / 2)
	for (j = 2; j <= nf; j++)
		if (!num(f[j]))
			bad("run " j - 1 ": \"" f[j] "\" is not a positive number")
	nrow++
	ncol = nf
	for (j = 1; j <= nf; j++) {
		t = f[j]
		gsub(/[ \t]/, "", t)
		v[nrow, j] = (j == 1) ? t + 0 : t
	}
}
END {
	flush()
	if (ndrop)
		printf "%s: note: %d of %d files (%s%s): the last run repeats the 1 MiB value of the run before it at every size: dropped, %d runs kept\n", script, ndrop, nfile, first, (ndrop > 1 ? " .. " last : ""), ncol - 2 > "/dev/stderr"
}'

# ml_matrix OUT HEAD PRE MID PFILE FILE...: the rows of FILE... into OUT.
ml_matrix() {
	ml_o=$1 ml_h=$2 ml_p=$3 ml_m=$4 ml_pf=$5
	shift 5
	awk -v script="$ml_script" -v head="$ml_h" -v pre="$ml_p" -v mid="$ml_m" -v pfile="$ml_pf" \
		"$matrix_awk" "$@" > "$out/$ml_o.tmp" || { rm -f "$out/$ml_o.tmp"; exit 2; }
	mv "$out/$ml_o.tmp" "$out/$ml_o"
}

nl='
'
conv="# converted by scripts/orfeo-to-csv.sh: one row per run, latency in us (OSU's output)"
pphead="op,channel,msg,latency"
bchead="op,algorithm,ranks,ppn,sockets,nodes,map_by,bind_to,numa,msg,latency_avg"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# ------------------------------------------------------------------
# Ping-pong between nodes (naive/): one rank per node, 20 runs.
for cl in THIN EPYC; do
	lc=$(echo "$cl" | tr '[:upper:]' '[:lower:]')
	f="$cab_ex/naive/naive_$cl.csv"
	[ -f "$f" ] || ml_die "$f: missing"
	ml_matrix "pp_${lc}_net.csv" \
		"# source: $cab_src, Exercise 1/naive/naive_$cl.csv (osu_latency, two nodes, --map-by node, 20 runs)$nl$conv$nl$pphead" \
		"p2p,net," "" "" "$f"
done

# Ping-pong inside a THIN node: every core pair, by socket (12 cores each).
f="$zam_ex/latency/latency_data_single_node.csv"
[ -f "$f" ] || ml_die "$f: missing"
awk -v script="$ml_script" -v out="$out" -v src="$zam_src" -v conv="$conv" \
    -v head="$pphead" '
function bad(msg) {
	printf "%s: %s:%d: %s\n", script, FILENAME, FNR, msg > "/dev/stderr"
	exit 2
}
BEGIN {
	for (c = 0; c < 2; c++) {
		ch = c ? "node" : "socket"
		o[ch] = out "/pp_thin_" ch ".csv.tmp"
		printf "# source: %s, Excercise_1/latency/latency_data_single_node.csv (osu_latency, both ranks on one THIN node, --cpu-list i,j)\n", src > o[ch]
		printf "# channel: %s (cores 0-11 are socket 0, 12-23 socket 1); one row per core pair and size\n", c ? "the two cores on different sockets" : "both cores on one socket" > o[ch]
		printf "%s\n%s\n", conv, head > o[ch]
	}
}
{ sub(/\r$/, "") }
FNR == 1 {
	if ($0 != "Core 1,Core 2,Message Size,Latency")
		bad("not the header Core 1,Core 2,Message Size,Latency")
	next
}
{
	if (split($0, f, ",") != 4 || f[1] !~ /^[0-9]+$/ || f[2] !~ /^[0-9]+$/ ||
	    f[1] + 0 > 23 || f[2] + 0 > 23 || f[3] !~ /^[0-9]+$/ ||
	    f[4] !~ /^[0-9]+(\.[0-9]*)?$/ || f[4] + 0 <= 0)
		bad("malformed row")
	if (f[1] == f[2])
		bad("both ranks on one core")
	ch = (int(f[1] / 12) == int(f[2] / 12)) ? "socket" : "node"
	printf "p2p,%s,%d,%s\n", ch, f[3], f[4] > o[ch]
}' "$f" || exit 2
for ch in socket node; do
	mv "$out/pp_thin_$ch.csv.tmp" "$out/pp_thin_$ch.csv"
done

# ------------------------------------------------------------------
# Broadcasts --map-by node, P swept (Cores/) and all cores (Size/).
for cl in EPYC THIN; do
	lc=$(echo "$cl" | tr '[:upper:]' '[:lower:]')
	if [ "$cl" = EPYC ]; then
		ppn=128 kmax=44 full=256 numa=4
	else
		ppn=24 kmax=48 full=48 numa=1
	fi
	for a in base pipeline binomial ring; do
		case $a in
		base) alg=ompi id=0 ;;
		pipeline) alg=pipeline id=3 ;;
		binomial) alg=binomial id=6 ;;
		ring) alg=scatter-allgather-ring id=9 ;;
		esac
		d="$cab_ex/bcast/$cl/Cores/$a"
		: > "$tmp/pmap"
		set --
		k=2
		while [ "$k" -le "$kmax" ]; do
			f="$d/${a}_$k.csv"
			[ -f "$f" ] || ml_die "$f: missing"
			if [ "$cl" = EPYC ]; then p=$((2 + 6 * (k - 2))); else p=$k; fi
			printf '%s\t%s\n' "$f" "$p" >> "$tmp/pmap"
			set -- "$@" "$f"
			k=$((k + 1))
		done
		note="# source: $cab_src, Exercise 1/bcast/$cl/Cores/$a/${a}_K.csv (osu_bcast, Open MPI coll_tuned_bcast_algorithm $id, --map-by node on 2 nodes, 20 runs; OSU's Avg only)"
		if [ "$cl" = EPYC ]; then
			note="$note$nl# ranks: P = 2 + 6 (K - 2), K = 2..44 (times.ipynb); ppn 128 = 2 sockets x 64 cores (EPYC 7H12)"
		else
			note="$note$nl# ranks: P = K = 2..48; ppn 24 = 2 sockets x 12 cores (Xeon Gold 6126)"
		fi
		ml_matrix "${lc}_node_$alg.csv" "$note$nl$conv$nl$bchead" \
			"bcast,$alg," ",$ppn,2,2,node,default,$numa," "$tmp/pmap" "$@"
		f="$cab_ex/bcast/$cl/Size/$a.csv"
		[ -f "$f" ] || ml_die "$f: missing"
		ml_matrix "${lc}_node_${alg}_p$full.csv" \
			"# source: $cab_src, Exercise 1/bcast/$cl/Size/$a.csv (osu_bcast, Open MPI coll_tuned_bcast_algorithm $id, --map-by node, P = $full: every core of both nodes, 20 runs; OSU's Avg only)$nl$conv$nl$bchead" \
			"bcast,$alg,$full,$ppn,2,2,node,default,$numa," "" "" "$f"
	done
done

# ------------------------------------------------------------------
# Broadcasts on THIN by placement (results/bcast_*.csv): header
# Algorithm,Allocation,Processes,MessageSize,Latency[,MinLatency,MaxLatency].
for a in binomial default binarytree chain linear pipeline; do
	f="$zam_ex/bcast/results/bcast_$a.csv"
	[ -f "$f" ] || ml_die "$f: missing"
	case $a in
	binomial) info="Open MPI 4.1.5 icc, osu_bcast -x 1000 -i 10000 (script of commit e10444e)" ;;
	default | binarytree | chain | linear) info="Open MPI 4.1.6 gnu, OSU 7.3, osu_bcast -x 1000 -i 10000 -f (scripts at HEAD)" ;;
	pipeline) info="no script in the repository: build, options and date not recorded" ;;
	esac
	awk -v script="$ml_script" -v out="$out" -v src="$zam_src" -v conv="$conv" \
	    -v info="$info" -v head="$bchead" -v path="Excercise_1/bcast/results/bcast_$a.csv" '
function bad(msg) {
	printf "%s: %s:%d: %s\n", script, FILENAME, FNR, msg > "/dev/stderr"
	exit 2
}
function num(s) {
	return s ~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ && s + 0 > 0
}
{ sub(/\r$/, "") }
FNR == 1 {
	n = split($0, h, ",")
	for (i = 1; i <= n; i++) {
		gsub(/^[ \t]+|[ \t]+$/, "", h[i])
		col[h[i]] = i
	}
	if (!("Algorithm" in col) || !("Allocation" in col) || !("Processes" in col) ||
	    !("MessageSize" in col) || !("Latency" in col))
		bad("header lacks Algorithm, Allocation, Processes, MessageSize or Latency")
	hasmax = ("MaxLatency" in col)
	next
}
{
	if (split($0, f, ",") != n)
		bad("has " split($0, f, ",") " fields, the header " n)
	for (i = 1; i <= n; i++)
		gsub(/^[ \t]+|[ \t]+$/, "", f[i])
	a = f[col["Algorithm"]]
	if (a == "Binomial") alg = "binomial"
	else if (a == "Default") alg = "ompi"
	else if (a == "BinaryTree") alg = "binary"
	else if (a == "Chain") alg = "chain"
	else if (a == "Linear") alg = "linear"
	else if (a == "Pipeline") alg = "pipeline"
	else bad("unknown algorithm \"" a "\"")
	map = f[col["Allocation"]]
	if (map != "core" && map != "socket" && map != "node")
		bad("unknown allocation \"" map "\"")
	p = f[col["Processes"]]; m = f[col["MessageSize"]]
	if (p !~ /^[0-9]+$/ || p < 2 || p > 48)
		bad("processes \"" p "\" not in 2..48")
	if (m !~ /^[0-9]+$/ || m < 1)
		bad("message size \"" m "\" not a positive integer")
	avg = f[col["Latency"]]
	if (!num(avg))
		bad("latency \"" avg "\" is not a positive number")
	if (hasmax && !num(f[col["MaxLatency"]]))
		bad("max latency \"" f[col["MaxLatency"]] "\" is not a positive number")
	o = out "/thinpl_" map "_" alg ".csv.tmp"
	if (!(o in seen)) {
		seen[o] = 1
		printf "# source: %s, %s (osu_bcast on THIN, %s; coll_tuned_bcast_algorithm forced; --map-by %s on 2 nodes; one run a point)\n", src, path, info, map > o
		printf "# latency_avg: OSU Avg (Latency)%s; ppn 24 = 2 sockets x 12 cores\n", hasmax ? ", latency: OSU Max (MaxLatency); MinLatency not kept" : "" > o
		printf "%s\n%s%s\n", conv, head, hasmax ? ",latency" : "" > o
		files[++nf] = o
	}
	printf "bcast,%s,%d,24,2,2,%s,default,1,%d,%s%s\n", alg, p, map, m, avg, hasmax ? "," f[col["MaxLatency"]] : "" > o
}
END {
	for (i = 1; i <= nf; i++)
		print files[i]
}' "$f" > "$tmp/list" || exit 2
	while IFS= read -r o; do
		close_o=${o%.tmp}
		mv "$o" "$close_o"
	done < "$tmp/list"
done
