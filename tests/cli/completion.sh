#!/bin/bash
# completion.sh BINARY SCRIPT - the bash completion (issue 15).  SCRIPT
# is what `BINARY completion bash` prints (make builds it) and bash can
# source it; what it offers in a few situations is what the man pages
# say (the lists below are copied from man/*.1, not from the program);
# the options offered for each command are exactly those `mcastlat help
# COMMAND` lists, with the same choices; every column of a CSV header is
# offered to --columns and --value.  When installed: file names through
# bash-completion's helper, and the same script in zsh through
# bashcompinit.
set -u
. "$(dirname "$0")/testlib.sh"
script=${2:-build/completion/mcastlat}

# same WHAT WANT GOT
same() {
	if [ "$2" = "$3" ]; then
		pass=$((pass + 1))
	else
		bad "$1"
		printf '  want: %s\n  got:  %s\n' "$2" "$3"
	fi
}

# sorted WORD...: the words sorted, on one line
sorted() {
	printf '%s\n' "$@" | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//'
}

# The script and the binary agree, and bash loads it.
"$bin" completion bash > "$tmp/now" || bad "mcastlat completion bash: exit $?"
cmp -s "$tmp/now" "$script" || bad "$script is not what mcastlat completion bash prints"
# Its header names the version --version prints (one place: the header).
same "the script's version" "$("$bin" --version)" \
	"$(sed -n 's/^# Written by .*(\(mcastlat [^)]*\)).*/\1/p' "$script")"
out=$(bash -c 'source "$1" && complete -p mcastlat' sh "$script" 2>&1)
same "bash -c 'source SCRIPT; complete -p mcastlat'" \
	"complete -F _mcastlat mcastlat" "$out"

# shellcheck source=/dev/null # generated
source "$script"

# comp WORD...: the sorted offers with the cursor at the end of the last
# WORD; the words split as bash splits a line (--opt=value is three
# words, --opt = value, with '=' in COMP_WORDBREAKS).
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_mcastlat
	sorted "${COMPREPLY[@]}"
}

# expect "WANT..." WORD...: the offers are the words of WANT
expect() {
	local want=$1
	shift
	# shellcheck disable=SC2086 # WANT is a word list
	same "completion at the end of: $*" "$(sorted $want)" "$(comp "$@")"
}

# mcastlat(1): the commands, and help, list, completion.
cmds="cluster collective hypercube kbinomial simulate torus"
expect "$cmds completion fit help list -h --help -V --version" mcastlat ''
expect "torus" mcastlat to
expect "simulate" mcastlat help s
expect "$cmds fit" mcastlat help ''
# mcastlat-fit(1): fit MODEL, then the model's options and fit's own
expect "cluster collective hypercube kbinomial torus -h --help" mcastlat fit ''
expect "--free" mcastlat fit cluster --fr
expect "auto ts tr tns tnr tprop" mcastlat fit kbinomial --free ''
expect "ts,latency-fixed ts,latency-per-byte" mcastlat fit cluster --free ts,l
expect "auto avg min max" mcastlat fit torus --stat ''
expect "relative log absolute" mcastlat fit hypercube --weight ''
# shellcheck disable=SC2046 # one word per option
same "every option of fit cluster" \
	"$(sorted $("$bin" help cluster | sed -n 's/^  \(--[a-z0-9-]*\).*/\1/p' |
		grep -v -e '^--columns$' -e '^--value$' -e '^--input$' \
		-e '^--jobs$' -e '^--shard$' -e '^--keep$' -e '^--all-columns$' \
		-e '^--dry-run$' -e '^--progress$' -e '^--version$' \
		-e '^--no-progress$' -e '^--format$' -e '^--precision$' \
		-e '^--no-header$' -e '^--unit$' -e '^--output$' -e '^--help$') \
		--data --emit --format --free --help --holdout --jobs \
		--no-header --no-progress --output --precision --progress \
		--residuals --robust --skip-bad --stat --unit --weight)" \
	"$(comp mcastlat fit cluster --)"
expect "bash" mcastlat completion ''
expect "" mcastlat list ''
# an option before the command is an error (a command comes first)
expect "" mcastlat --format ''
# mcastlat-torus(1): --algorithm sep|u|s|md|mu|all, a list
expect "--algorithm" mcastlat torus --alg
expect "sep u s md mu all" mcastlat torus --algorithm ''
expect "sep u s md mu all" mcastlat torus --algorithm =
expect "md mu" mcastlat torus --algorithm = m
expect "sep,md sep,mu" mcastlat torus --algorithm sep,m
expect "sep,md sep,mu" mcastlat torus --algorithm = sep,m
# without '=' in COMP_WORDBREAKS --opt=value is one word
expect "--algorithm=md --algorithm=mu" mcastlat torus --algorithm=m
# mcastlat-simulate(1): --topology mesh|torus|hypercube
expect "mesh torus hypercube" mcastlat simulate --topology ''
expect "hypercube" mcastlat simulate --topology = h
# mcastlat(1): --format table|csv|tsv|json; --unit ns, us, ms or s, and
# cycles for hypercube and simulate
expect "table csv tsv json" mcastlat torus --format ''
expect "json" mcastlat kbinomial --format = j
expect "ns us ms s" mcastlat cluster --unit ''
expect "cycles" mcastlat simulate --unit ''
expect "cycles" mcastlat hypercube --unit ''
# numbers and free text: nothing (no file names, no options)
expect "" mcastlat torus --k ''
expect "" mcastlat torus --k = ''
expect "" mcastlat torus --members ''
expect "" mcastlat hypercube --rate 0.0
expect "" mcastlat simulate -j ''
expect "" mcastlat torus --shard ''
# a flag takes no value: the options again; an operand: nothing
expect "--full" mcastlat torus --full --fu
expect "" mcastlat torus --full = ''
expect "" mcastlat torus x
expect "--dim --dims" mcastlat hypercube --di

# File names after --input, -o/--output and simulate --trace.
mkdir -p "$tmp/files/sub"
: > "$tmp/files/ab.csv"
: > "$tmp/files/a b.csv"
f=$tmp/files
comp mcastlat simulate --trace "$f/a" > /dev/null
same "a file name with a space is one offer" "2:$f/a b.csv:$f/ab.csv" \
	"${#COMPREPLY[@]}:$(printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort |
		tr '\n' : | sed 's/:$//')"
expect "$f/ab.csv" mcastlat torus -o "$f/ab"
expect "$f/ab.csv" mcastlat torus --output "$f/ab"
expect "$f/ab.csv" mcastlat kbinomial --input = "$f/ab"
expect "$f/sub" mcastlat kbinomial --input "$f/s"
expect "--trace=$f/ab.csv" mcastlat simulate --trace="$f/ab"

# The same with bash-completion loaded (its _filedir), when installed.
bc=/usr/share/bash-completion/bash_completion
if [ -f "$bc" ]; then
	out=$(bash -c 'source "$1" && source "$2" || exit 1
		COMP_WORDS=(mcastlat simulate --trace "$3/a")
		COMP_CWORD=3
		_mcastlat
		printf "%s\n" "${COMPREPLY[@]}" | LC_ALL=C sort | tr "\n" :
		COMP_WORDS=(mcastlat torus -o "$3/s")
		_mcastlat
		printf "%s\n" "${COMPREPLY[@]}"' sh "$bc" "$script" "$f" 2>&1)
	same "file names through bash-completion's _filedir" \
		"$f/a b.csv:$f/ab.csv:$f/sub" "$out"
else
	echo "completion.sh: bash-completion not installed, its check skipped"
fi

# Every option of every command, as `mcastlat help COMMAND` lists it
# (help.c prints the same tables another way), is offered, and nothing
# else; every choice list of the help ("--op p2p|xchg|bcast|all") is
# what the option's value completes to.
for c in $("$bin" list | cut -d' ' -f1); do
	"$bin" help "$c" > "$tmp/help" || bad "mcastlat help $c: exit $?"
	# The options are the entries that open a help line, up to their
	# description ("  --k N", "  --progress, --no-progress"), and the
	# aliases the descriptions declare ("(alias --dim)"); not every
	# --word of a description ("as hypercube --load").
	{
		sed -n 's/^  \(-[^ ].*\)/\1/p' "$tmp/help" | sed 's/  .*//'
		grep -o -- '(alias --[a-z0-9-]*' "$tmp/help"
	} > "$tmp/entries"
	# shellcheck disable=SC2046 # one word per option
	same "every option of $c" \
		"$(sorted $(grep -o -- '--[a-z][a-z0-9-]*' "$tmp/entries"))" \
		"$(comp mcastlat "$c" --)"
	sed -n 's/^  \(-[a-zA-Z], \)\{0,1\}\(--[a-z0-9-]*\) \([a-z0-9._|-]*|[a-zA-Z0-9._|-]*\).*/\2 \3/p' \
		"$tmp/help" > "$tmp/choices"
	[ -s "$tmp/choices" ] || bad "$c: no choice option found in its help"
	while read -r opt list; do
		case $list in FILE* | *[A-Z]?*) continue ;; esac
		# "all|N": a number or all; the number is not offered
		# shellcheck disable=SC2046,SC2001
		same "$c $opt: the choices of its help" \
			"$(sorted $(echo "$list" | tr '|' '\n' | grep -vx N))" \
			"$(comp mcastlat "$c" "$opt" '')"
	done < "$tmp/choices"
done

# Every column a run prints is offered to --columns and --value (the
# headers come from the output module, the offers from the tables).
header() { # COMMAND OPTIONS...: the CSV header of a run
	"$bin" "$@" --all-columns --format csv | head -n 1 | tr ',' ' '
}
for run in "cluster" "hypercube" "hypercube --saturation" "kbinomial" \
	"torus" "torus --model structural --full" \
	"simulate --topology hypercube --dims 2 --compare --warmup 0 --max-cycles 2000" \
	"simulate --topology mesh --k 2 --warmup 0 --max-cycles 2000"; do
	# shellcheck disable=SC2086 # $run is a command line
	set -- $run
	cols=$(comp mcastlat "$1" --value '')
	# shellcheck disable=SC2086
	for col in $(header $run); do
		case " $cols " in
		*" $col "*) pass=$((pass + 1)) ;;
		*) bad "mcastlat $run: column $col is not offered to --value" ;;
		esac
	done
done
expect "latency_0 latency_50 latency_90" mcastlat hypercube --value latency_
expect "L1,latency" mcastlat kbinomial --columns L1,lat

# zsh, through bashcompinit (mcastlat(1), COMPLETION): the same script,
# run as bashcompinit runs it (sh emulation, arrays from 0), and zsh's
# own matching of the offers against the word (compgen ignores it there).
if command -v zsh > /dev/null; then
	cat > "$tmp/z.zsh" <<'EOF'
# -D: no dump file (a -d after it would turn dumping back on, and
# compdump replaces the file it is given: /dev/null itself, as root).
autoload -U +X compinit && compinit -u -D
autoload -U +X bashcompinit && bashcompinit
source "$1" || exit 1
print -r -- "comps: ${_comps[mcastlat]}"
zcomp() {
	emulate -L sh
	setopt kshglob noshglob braceexpand
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_mcastlat
	local w cur=${COMP_WORDS[COMP_CWORD]} out=
	for w in "${COMPREPLY[@]}"; do
		case $w in "$cur"*) out="$out $w" ;; esac
	done
	print -r -- "$*:$out"
}
zcomp mcastlat to
zcomp mcastlat torus --alg
zcomp mcastlat torus --algorithm m
zcomp mcastlat torus --algorithm=m
zcomp mcastlat simulate --topology ''
zcomp mcastlat torus --k ''
zcomp mcastlat simulate --trace "$2/ab"
zcomp mcastlat simulate --trace="$2/ab"
EOF
	zsh -f "$tmp/z.zsh" "$script" "$f" > "$tmp/zout" 2>&1
	cat > "$tmp/zwant" <<EOF
comps: _bash_complete -F _mcastlat
mcastlat to: torus
mcastlat torus --alg: --algorithm
mcastlat torus --algorithm m: md mu
mcastlat torus --algorithm=m: --algorithm=md --algorithm=mu
mcastlat simulate --topology : mesh torus hypercube
mcastlat torus --k :
mcastlat simulate --trace $f/ab: $f/ab.csv
mcastlat simulate --trace=$f/ab: --trace=$f/ab.csv
EOF
	if cmp -s "$tmp/zwant" "$tmp/zout"; then
		pass=$((pass + 1))
	else
		bad "zsh through bashcompinit"
		diff "$tmp/zwant" "$tmp/zout"
	fi
else
	echo "completion.sh: zsh not installed, its check skipped"
fi

finish "completion"
