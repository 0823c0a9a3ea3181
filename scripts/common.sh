# common.sh - sourced by the scripts of scripts/ so that each runs from
# any directory:
#
#   here=${0%/*}; [ "$here" != "$0" ] || here=.
#   . "$here/common.sh"
#   ml_need gnuplot gnuplot-nox
#
# Sets mcastlat to the binary, an absolute path: $MCASTLAT when set, else
# the tree's own mcastlat (the parent of this directory: a build tree),
# else mcastlat on PATH; none of them is a one-line error, exit 2.  Files
# a script reads (its .gp) are found through $here; what it writes goes
# where the caller says, relative to the caller's directory (no script
# changes directory before it has its arguments).  Only shell builtins
# run before ml_need, so that a missing program is reported first.

#
# Arguments, one convention for every script (README, "Figures"):
#
#   SCRIPT -h|--help               the usage: the script's header comment
#   SCRIPT [-o DIR] [FIGURE...]    a figure script (it sets ml_figures to
#                                  the words it takes, "" for none, before
#                                  sourcing this): the output directory
#                                  (default $FIGDIR, else figures, from
#                                  the current directory) and the figures
#                                  to draw (default: all)
#
# Here the figure script's options are taken off its arguments, which
# are left as the FIGURE words (each checked), and out is set.

# The sourcing script sets here and ml_figures and reads mcastlat, out:
# shellcheck shell=sh disable=SC2034,SC2154

ml_script=${0##*/}

# ml_die MESSAGE: "SCRIPT: MESSAGE" on stderr, exit 2.
ml_die() {
	echo "$ml_script: $*" >&2
	exit 2
}

# ml_usage: the header comment of the script, from its second line to
# the first line that is not a comment, without the "# ".
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

# ml_bad_usage MESSAGE: a usage error, exit 2.
ml_bad_usage() {
	ml_die "$* (see $ml_script --help)"
}

case ${1-} in
-h | --help)
	ml_usage
	exit 0
	;;
esac
if [ -n "${ml_figures+set}" ]; then
	out=${FIGDIR:-figures}
	ml_sel=
	while [ $# -gt 0 ]; do
		case $1 in
		-h | --help) ml_usage; exit 0 ;;
		-o | --output)
			[ $# -ge 2 ] && [ -n "$2" ] || ml_bad_usage "$1 needs a directory"
			out=$2
			shift
			;;
		--output=?*) out=${1#--output=} ;;
		--) shift; ml_sel="$ml_sel $*"; break ;;
		-*) ml_bad_usage "unknown option '$1'" ;;
		*) ml_sel="$ml_sel $1" ;;
		esac
		shift
	done
	for ml_w in $ml_sel; do
		case " $ml_figures all " in
		*" $ml_w "*) [ -n "$ml_figures" ] || ml_bad_usage \
			"takes no figure name: '$ml_w' (the output directory is -o DIR)" ;;
		*) if [ -n "$ml_figures" ]; then
			ml_bad_usage "'$ml_w' is not a figure of this script (one of: $ml_figures, all; the output directory is -o DIR)"
		   else
			ml_bad_usage "takes no figure name: '$ml_w' (the output directory is -o DIR)"
		   fi ;;
		esac
	done
	# shellcheck disable=SC2086 # the words, split
	set -- $ml_sel
fi

# ml_jobs: the threads of a script's collective fits (fit --jobs: the
# same output on any count): $JOBS, else the machine's online cores.
ml_jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $ml_jobs in
'' | *[!0-9]*) ml_die "JOBS: '$ml_jobs' is not a count of threads" ;;
esac
[ "$ml_jobs" -ge 1 ] || ml_jobs=1
[ "$ml_jobs" -le 256 ] || ml_jobs=256

# ml_need PROGRAM PACKAGE: exit 2, naming the Debian package, when
# PROGRAM is not on PATH.
ml_need() {
	command -v "$1" >/dev/null 2>&1 ||
		ml_die "needs $1 (Debian: apt-get install $2)"
}

# ml_csvin DIR NAME OUT: DIR/NAME.csv when readable, else DIR/NAME.csv.gz
# decompressed, as OUT/NAME.csv (once: an existing one is kept); the
# real-data scripts' inputs (examples/real, scripts/orfeo-to-csv.sh).
ml_csvin() {
	[ -r "$3/$2.csv" ] && return 0
	if [ -r "$1/$2.csv" ]; then
		cp "$1/$2.csv" "$3/$2.csv"
	elif [ -r "$1/$2.csv.gz" ]; then
		gzip -dc "$1/$2.csv.gz" > "$3/$2.csv" ||
			ml_die "$1/$2.csv.gz: cannot decompress"
	else
		ml_die "$1/$2.csv: not readable, nor $2.csv.gz (make it" \
			"with scripts/orfeo-to-csv.sh)"
	fi
}

# The real-data scripts' datasets, found by their files' names
# (scripts/orfeo-to-csv.sh's: PREFIX_ALG.csv[.gz], PREFIX = MACHINE_MAP
# or MACHINEpl_MAP, and pp_MACHINE_CHANNEL.csv[.gz]), so that other
# measurements named the same way are judged without editing a script.

# ml_has DIR NAME: DIR/NAME.csv or DIR/NAME.csv.gz is readable.
ml_has() {
	[ -r "$1/$2.csv" ] || [ -r "$1/$2.csv.gz" ]
}

# ml_prefixes DIR ALG: every PREFIX with a DIR/PREFIX_ALG.csv[.gz], once
# each, sorted, one a line.
ml_prefixes() {
	for f in "$1"/*_"$2".csv "$1"/*_"$2".csv.gz; do
		[ -r "$f" ] || continue
		f=${f##*/}
		f=${f%.gz}
		printf '%s\n' "${f%_"$2".csv}"
	done | sort -u
}

# ml_algs DIR PREFIX: the algorithms of DIR/PREFIX_ALG.csv[.gz] but ompi
# (Open MPI's default) and names with a '_' (PREFIX_ALG_p256: one P
# kept apart), space-separated, sorted.
ml_algs() {
	for f in "$1/$2"_*.csv "$1/$2"_*.csv.gz; do
		[ -r "$f" ] || continue
		f=${f##*/}
		f=${f%.gz}
		f=${f%.csv}
		f=${f#"$2"_}
		case $f in ompi | *_*) ;; *) printf '%s\n' "$f" ;; esac
	done | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# ml_machine PREFIX: its machine, the first word less a trailing digit
# (a second set of one machine), then less a trailing "pl" (thinpl_core:
# thin; epycpl2_core: epyc).
ml_machine() {
	m=${1%%_*}
	m=${m%[0-9]}
	printf '%s\n' "${m%pl}"
}

# ml_ppfiles DIR MACHINE: its ping-pong files, pp_MACHINE_net first, then
# _socket and _node where they exist, space-separated.
ml_ppfiles() {
	for c in net socket node; do
		ml_has "$1" "pp_$2_$c" && printf '%s ' "pp_$2_$c"
	done | sed 's/ $//'
}

if [ -n "${MCASTLAT:-}" ]; then
	command -v "$MCASTLAT" >/dev/null 2>&1 ||
		ml_die "MCASTLAT=$MCASTLAT is not an executable"
	case $MCASTLAT in
	/*) mcastlat=$MCASTLAT ;;
	*/*) mcastlat=$(pwd)/$MCASTLAT ;;
	*) mcastlat=$(command -v "$MCASTLAT") ;;
	esac
elif [ -f "$here/../mcastlat" ] && [ -x "$here/../mcastlat" ]; then
	mcastlat=$(cd "$here/.." && pwd)/mcastlat
elif command -v mcastlat >/dev/null 2>&1; then
	mcastlat=$(command -v mcastlat)
else
	ml_die "cannot find mcastlat (not built in $here/.., not on PATH; run make or set MCASTLAT)"
fi

# ml_medians [-r] FILE...: per (algorithm, ranks, msg) of the broadcast
# CSV files (fit's columns, '#' lines skipped), in first-seen order,
# "algorithm,ranks,msg,median" of latency_avg over its runs; -r appends
# ",runs", how many.
ml_medians() {
	ml_runs=0
	if [ "${1-}" = -r ]; then
		ml_runs=1
		shift
	fi
	awk -F, -v runs="$ml_runs" '
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
	FNR == 1 { h = 0 }
	/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{
		k = $c["algorithm"] "," $c["ranks"] "," $c["msg"]
		if (!(k in v)) o[++n] = k
		v[k] = v[k] " " $c["latency_avg"]; r[k]++
	}
	END {
		for (i = 1; i <= n; i++)
			print o[i] "," med(v[o[i]]) (runs ? "," r[o[i]] : "")
	}' "$@"
}
