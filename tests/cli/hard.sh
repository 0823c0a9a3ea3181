#!/bin/sh
# hard.sh BINARY - hard inputs for every command, table-driven.
#
# The commands come from `BINARY list`, their options from
# `BINARY COMMAND --help` (the "Model options" section: "--name N" is an
# integer, "X" a real, "T" a time, "a|b|c" a choice, "TEXT" a text, no
# word a flag).  Each numeric option is fed every class of bad value;
# each must be a usage error: exit 2, exactly one stderr line starting
# "mcastlat: COMMAND: ", nothing on stdout.  Batch files (--input) with
# malformed rows must print the good rows exactly as a file of only the
# good rows does, exit 1 and give one stderr line per bad row naming
# FILE:LINE; a file with a UTF-8 BOM and CRLF line ends must be accepted.
#
# MCASTLAT_WRAP, when set, is put before the binary (make valgrind).
# Every class of bad value goes to one representative option of each
# kind per command, and a few to every other option; HARD_ALL=1 feeds
# every class to every option.
set -u
. "$(dirname "$0")/testlib.sh"
wrap=${MCASTLAT_WRAP:-}
all=${HARD_ALL:-0}

# Sizes that must be positive by their meaning (a zero MTU, node count,
# dimension, message or packet size means nothing).  Every command needs
# at least one entry, so a new command cannot slip through untested.
positive='
cluster mtu
cluster nodes
hypercube dims
hypercube vcs
hypercube flits
collective msg
collective ppn
collective sockets
kbinomial nodes
kbinomial packets
kbinomial packet-size
simulate k
simulate dims
simulate buffer
simulate flits
simulate unicast-flits
simulate aux
simulate prune-wait
simulate max-cycles
simulate max-queue
simulate replications
torus k
torus dims
torus group
torus msg
torus r
'

# Options that keep a command's batch runs short (a simulation with its
# defaults runs for seconds): "COMMAND ARGS...", added to every batch run.
quick='
simulate --warmup 0 --max-cycles 2000
'

run() {
	# shellcheck disable=SC2086 # $wrap is a command with its options
	$wrap "$bin" "$@"
}

# usage CMD ARG... : must be a usage error of CMD.
usage() {
	want=${prefix-"mcastlat: $1: "}
	run "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
	rc=$?
	nerr=$(wc -l < "$tmp/err")
	if [ $rc -ne 2 ]; then
		bad "exit $rc, not 2: mcastlat $*"
	elif [ "$nerr" -ne 1 ]; then
		bad "$nerr stderr lines, not 1: mcastlat $*: $(head -n 3 "$tmp/err")"
	elif [ -s "$tmp/out" ]; then
		bad "stdout not empty: mcastlat $*"
	elif [ "$(head -c ${#want} "$tmp/err")" != "$want" ]; then
		bad "message does not start with '$want': mcastlat $*: $(cat "$tmp/err")"
	else
		pass=$((pass + 1))
	fi
}

# The options of a command, one "name kind default" line each; kind is
# int, real, time, choice, text or flag; default "-" when there is none.
options() {
	# --help wraps at 80 columns: continuation lines (indented 27) are
	# joined to their option first.
	run "$1" --help | sed -n '/^Model options/,/^$/p' |
	awk '/^                          / { sub(/^ +/, ""); line = line " " $0; next }
	     { if (NR > 1) print line; line = $0 } END { print line }' |
	sed -n '
		s/^  --\([a-z0-9-]*\) \([^ ][^ ]*\) .*(default \([^)]*\))$/\1 \2 \3/p
		t
		s/^  --\([a-z0-9-]*\) \([^ ][^ ]*\) .*/\1 \2 -/p
		t
		s/^  --\([a-z0-9-]*\)  .*/\1 flag -/p' |
	while read -r name spec def; do
		case $spec in
		N) kind='int' ;;
		X) kind='real' ;;
		T) kind='time' ;;
		TEXT | FILE) kind='text' ;;
		flag) kind='flag' ;;
		*'|'* | WORD) kind='choice' ;;
		*) kind='unknown' ;;
		esac
		[ "$def" = auto ] && def=-
		def=${def%% *} # "12.5 us": the default in its unit
		echo "$name $kind $def"
	done
}

cmds=$(run list | awk '{ print $1 }')
[ -n "$cmds" ] || bad "'mcastlat list' printed no command"

# Program-level usage errors (no command to prefix the message).
for args in "" "nosuchcommand" "--nosuchoption" "list extra"; do
	# shellcheck disable=SC2086 # word splitting wanted
	run $args > "$tmp/out" 2> "$tmp/err" < /dev/null
	rc=$?
	if [ $rc -ne 2 ] || [ "$(wc -l < "$tmp/err")" -ne 1 ] ||
	   [ -s "$tmp/out" ]; then
		bad "not a clean usage error: mcastlat $args"
	else
		pass=$((pass + 1))
	fi
done

for cmd in $cmds; do
	options "$cmd" > "$tmp/opts"
	if [ ! -s "$tmp/opts" ]; then
		bad "$cmd: no options read from --help"
		continue
	fi
	if grep -q ' unknown ' "$tmp/opts"; then
		bad "$cmd: option of unknown kind: $(grep ' unknown ' "$tmp/opts")"
	fi

	# Every class of bad value on every numeric option, then the
	# values only integers reject, then choices.
	seen=
	while read -r name kind def; do
		case " $seen " in
		*" $kind "*)
			if [ "$all" != 1 ]; then
				# Not the first of its kind: a few classes.
				case $kind in int | real | time | choice)
					usage "$cmd" "--$name" abc
					usage "$cmd" "--$name" -1e400
					usage "$cmd" "--$name"
				esac
				continue
			fi
			;;
		esac
		seen="$seen $kind"
		case $kind in
		int | real | time)
			for v in '' abc 12abc 1.5.5 0x10 nan inf -inf -1 1e400 \
				-1e400 10:1 1:10:0 1:10:-2 1:2:3:4 1,,2 '1,' \
				1:10:*1 1:2:3x; do
				usage "$cmd" "--$name" "$v"
			done
			usage "$cmd" "--$name=nan"
			usage "$cmd" "--$name"
			;;
		choice)
			for v in '' nosuchchoice 1,,2 -1; do
				usage "$cmd" "--$name" "$v"
			done
			usage "$cmd" "--$name"
			;;
		text)
			usage "$cmd" "--$name" ''
			usage "$cmd" "--$name"
			;;
		flag)
			usage "$cmd" "--$name=1"
			;;
		esac
		case $kind in
		int)
			for v in 99999999999999999999 -99999999999999999999 2.5 \
				1e300 0:2000000000 1:9223372036854775807 \
				1:1000000000000:*1; do
				usage "$cmd" "--$name" "$v"
			done
			;;
		real | time)
			usage "$cmd" "--$name" 0:1:1e-10
			usage "$cmd" "--$name" 1e-300:1e300:*1.0000001
			;;
		esac
		case $kind in
		time)
			usage "$cmd" "--$name" 1parsec
			usage "$cmd" "--$name" ns
			;;
		esac
	done < "$tmp/opts"

	# Zero where a positive size is required.
	found=no
	for name in $(echo "$positive" | awk -v c="$cmd" '$1 == c { print $2 }'); do
		found=yes
		if grep -q "^$name " "$tmp/opts"; then
			usage "$cmd" "--$name" 0
			usage "$cmd" "--$name" 0:4
		else
			bad "$cmd: --$name in the positive table is not an option"
		fi
	done
	[ $found = yes ] || bad "$cmd: no option in the table of positive sizes"

	# Two sweeps of 10^5 points each: 10^10 points in all.
	# shellcheck disable=SC2046 # option names are single words
	set -- $(awk '$2 == "real" || $2 == "time" { print $1 }' "$tmp/opts")
	if [ $# -ge 2 ]; then
		usage "$cmd" "--$1" 0.5:1:0.000005 "--$2" 0.5:1:0.000005
	else
		# shellcheck disable=SC2046
		set -- $(awk '$2 == "int" { print $1 }' "$tmp/opts")
		[ $# -ge 2 ] && usage "$cmd" "--$1" 1:100000 "--$2" 1:100000
	fi

	# Unknown options, abbreviations, stray words, bad global options.
	first=$(awk 'NR == 1 { print $1 }' "$tmp/opts")
	for args in "--no-such-option" "--no-such-option=1" "-x" "-" "extra" \
		"--format xml" "--format" "--precision 0" "--precision 18" \
		"--precision abc" "--jobs 0" "--jobs 257" "--jobs 1.5" \
		"--shard 0/1" "--shard 2/1" "--shard 1/0" "--shard 1" \
		"--shard 1/2/3" "--unit parsec" "--unit" "--columns nosuch" \
		"--columns" "--input" "--input $tmp/nonexistent" \
		"--input - --shard 1/2" "--$first 1 --$first"; do
		# shellcheck disable=SC2086 # word splitting wanted
		usage "$cmd" $args
	done
	abbrev=$(echo "$first" | sed 's/.$//')
	# (an alias, such as hypercube --dim for --dims, is no abbreviation)
	if [ -n "$abbrev" ] && ! grep -q "^$abbrev " "$tmp/opts" &&
	   ! run "$cmd" --help | grep -q -- "(alias --$abbrev)"; then
		usage "$cmd" "--$abbrev" 1
	fi

	# Batch files.  Two numeric options with a default: good rows are
	# the defaults, bad rows are each malformed in one way.
	# shellcheck disable=SC2046
	set -- $(awk '($2 == "int" || $2 == "real" || $2 == "time") &&
		$3 != "-" { print $1, $3 }' "$tmp/opts")
	if [ $# -lt 4 ]; then
		bad "$cmd: fewer than two numeric options with defaults"
		continue
	fi
	a=$1 da=$2 b=$3 db=$4
	q=$(echo "$quick" | awk -v c="$cmd" '$1 == c { $1 = ""; print }')
	printf '%s,%s\n%s,%s\n%s,%s\n' "$a" "$b" "$da" "$db" "$da" "$db" \
		> "$tmp/good.csv"
	{
		printf '%s,%s\n' "$a" "$b"   # 1
		printf '%s,%s\n' "$da" "$db" # 2 good
		printf 'abc,%s\n' "$db"      # 3 not a number
		printf '%s,%s,1\n' "$da" "$db" # 4 a field too many
		printf '%s\n' "$da"          # 5 a field too few
		printf '"%s,%s\n' "$da" "$db" # 6 unterminated quote
		printf -- '-1,%s\n' "$db"    # 7 negative
		printf '1e400,%s\n' "$db"    # 8 out of range
		printf '%s,12abc\n' "$da"    # 9 trailing garbage
		printf '%s,1X2\n' "$da" | tr X '\000' # 10 NUL byte
		printf '%s,10:1\n' "$da"     # 11 reversed range
		printf '%s,%s\n' "$da" "$db" # 12 good
	} > "$tmp/bad.csv"
	# shellcheck disable=SC2086 # $q is a list of words
	run "$cmd" $q --format csv --input "$tmp/good.csv" > "$tmp/want" \
		2> "$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then
		bad "$cmd: good batch file: exit $rc: $(head -n 2 "$tmp/err")"
	else
		pass=$((pass + 1))
	fi
	# shellcheck disable=SC2086
	run "$cmd" $q --format csv --input "$tmp/bad.csv" > "$tmp/got" \
		2> "$tmp/err"
	rc=$?
	n=0
	for line in 3 4 5 6 7 8 9 10 11; do
		n=$((n + 1))
		got=$(sed -n "${n}p" "$tmp/err")
		case $got in
		"mcastlat: $tmp/bad.csv:$line: "*) ;;
		*) bad "$cmd: bad row $line: stderr line $n is '$got'" ;;
		esac
	done
	if [ $rc -ne 1 ]; then
		bad "$cmd: batch file with bad rows: exit $rc, not 1"
	elif [ "$(wc -l < "$tmp/err")" -ne 9 ]; then
		bad "$cmd: batch file with 9 bad rows: $(wc -l < "$tmp/err") stderr lines"
	elif ! cmp -s "$tmp/want" "$tmp/got"; then
		bad "$cmd: batch file with bad rows: good rows not printed as alone"
	else
		pass=$((pass + 1))
	fi

	# UTF-8 byte order mark and CRLF line ends: accepted, same output.
	printf '\357\273\277%s,%s\r\n%s,%s\r\n"%s","%s"\r\n' "$a" "$b" \
		"$da" "$db" "$da" "$db" > "$tmp/bom.csv"
	# shellcheck disable=SC2086
	run "$cmd" $q --format csv --input "$tmp/bom.csv" > "$tmp/got" \
		2> "$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then
		bad "$cmd: BOM/CRLF batch file: exit $rc: $(head -n 2 "$tmp/err")"
	elif ! cmp -s "$tmp/want" "$tmp/got"; then
		bad "$cmd: BOM/CRLF batch file: output differs from the plain file"
	else
		pass=$((pass + 1))
	fi
	# The same through standard input.
	# shellcheck disable=SC2086
	$wrap "$bin" "$cmd" $q --format csv --input - < "$tmp/bom.csv" \
		> "$tmp/got" 2> "$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] || ! cmp -s "$tmp/want" "$tmp/got"; then
		bad "$cmd: BOM/CRLF on standard input: exit $rc"
	else
		pass=$((pass + 1))
	fi

	# Batch files that are wrong as a whole: usage errors, whose one
	# line may name the file and line instead of the command.
	prefix="mcastlat: "
	: > "$tmp/empty.csv"
	printf '\n\n# only a comment\n' > "$tmp/blank.csv"
	printf 'nosuchoption\n1\n' > "$tmp/header.csv"
	printf '"%s\n1\n' "$a" > "$tmp/quote.csv"
	printf '%s\0\n1\n' "$a" > "$tmp/nul.csv"
	printf '%s,%s\n1,1\n' "$a" "$a" > "$tmp/twice.csv"
	head -c 70000 /dev/zero | tr '\000' 1 > "$tmp/long.csv"
	for f in empty blank header quote nul twice long; do
		usage "$cmd" --input "$tmp/$f.csv"
	done
	unset prefix
done

# The table of cases with exact expectations (tests/cli/hard_cases.txt):
# exit status, start of the first stderr line, exact stdout.
cases=$(dirname "$0")/hard_cases.txt
export MCASTLAT_BIN="$bin" MCASTLAT_WRAP="$wrap"
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	want_rc=${line%% | *}
	rest=${line#* | }
	want_err=${rest%% | *}
	rest=${rest#* | }
	want_out=${rest%% | *}
	cmdline=${rest#* | }
	# shellcheck disable=SC2016 # expanded by the inner shell
	sh -c 'mcastlat() { $MCASTLAT_WRAP "$MCASTLAT_BIN" "$@"; }
		'"$cmdline" > "$tmp/out" 2> "$tmp/err" < /dev/null
	rc=$?
	if [ "$want_out" = - ]; then
		: > "$tmp/want"
	else
		printf '%b\n' "$want_out" > "$tmp/want"
	fi
	first=$(head -n 1 "$tmp/err")
	if [ $rc -ne "$want_rc" ]; then
		bad "exit $rc, not $want_rc: $cmdline: $first"
	elif [ "$want_err" = - ] && [ -s "$tmp/err" ]; then
		bad "stderr not empty: $cmdline: $first"
	elif [ "$want_err" != - ] &&
	     [ "$(printf '%s' "$first" | head -c ${#want_err})" != "$want_err" ]; then
		bad "stderr does not start with '$want_err': $cmdline: $first"
	elif [ "$want_rc" -eq 2 ] && [ "$(wc -l < "$tmp/err")" -ne 1 ]; then
		bad "$(wc -l < "$tmp/err") stderr lines, not 1: $cmdline"
	elif ! cmp -s "$tmp/want" "$tmp/out"; then
		bad "stdout differs: $cmdline: $(head -c 200 "$tmp/out")"
	else
		pass=$((pass + 1))
	fi
done < "$cases"

finish "hard"
