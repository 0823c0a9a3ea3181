#!/bin/sh
# layers.sh - the shape of src/ (issues 21 and 27): each file stands above
# what it uses, so a newcomer reads from main.c down to the leaves.
#
#   layers.sh [SRCDIR]        (default src)
#   layers.sh --self-test     a made-up tree with each fault: each found
#
# Fails on
#   - a file under SRCDIR longer than 1000 lines (cut it where its
#     concerns part);
#   - a .c file directly in SRCDIR/cli other than main.c (each file lives
#     in a room: engine/, meta/, commands/, fit/);
#   - a circle of includes: header A includes B which (through others)
#     includes A;
#   - a circle of calls between files: file A calls a function defined in
#     B, and B (through others) calls one of A's;
#   - an upward call between rooms: the rooms stand in layers, the
#     programs (cli/, probe/) over fit/ over models/ (the library's
#     fronts: params in, result out) over the engines (collective/,
#     sim/); a file may call into its own room, a lower one, and the
#     leaves every layer shares (models/status.c, models/version.c),
#     never into a higher room (the collective engine calling the
#     front's ml_collective_best, issue 48).
#
# A function is a file's when the file defines it with external linkage
# (a line that starts with its type, not `static`, and holds "name(");
# a call is "name(" in another .c file, comments left out.  A function
# reached through a table of pointers (a command's eval, a reader, a
# multicast mechanism's hooks) is no call: the table is how a lower file
# is driven by a higher one without naming it.
set -u
if [ "${1-}" = --self-test ]; then
	t=$(mktemp -d)
	trap 'rm -rf "$t"' EXIT
	mkdir -p "$t/src/cli/engine" "$t/src/lib"
	printf '#include "lib/b.h"\nint ml_a(void);\n' > "$t/src/lib/a.h"
	printf '#include "lib/a.h"\nint ml_b(void);\n' > "$t/src/lib/b.h"
	printf '#include "lib/a.h"\nint ml_a(void)\n{\n\treturn ml_b();\n}\n' > "$t/src/lib/a.c"
	printf '/* ml_a() in a comment is no call */\nint ml_b(void)\n{\n\treturn ml_a();\n}\n' > "$t/src/lib/b.c"
	printf 'int ml_c(void)\n{\n\treturn 0;\n}\n' > "$t/src/cli/engine/c.c"
	printf 'int ml_d(void)\n{\n\treturn ml_c();\n}\n' > "$t/src/cli/stray.c"
	seq 1001 | sed 's|^|/* |; s|$| */|' > "$t/src/lib/long.c"
	mkdir -p "$t/src/models" "$t/src/collective"
	printf 'int ml_front(void)\n{\n\treturn 1;\n}\n' > "$t/src/models/front.c"
	printf 'int ml_status_str(void)\n{\n\treturn 0;\n}\n' > "$t/src/models/status.c"
	printf 'int ml_engine(void)\n{\n\treturn ml_front() + ml_status_str();\n}\n' > "$t/src/collective/engine.c"
	self=$(cd "$(dirname "$0")" && pwd)/${0##*/}
	out=$(cd "$t" && sh "$self" src 2>&1)
	n=0
	for want in 'src/lib/long.c: 1001 lines' 'src/cli/stray.c: not in a room' \
		'include circle: src/lib/.\.h -> src/lib/.\.h -> src/lib/.\.h' \
		'call circle: src/lib/.\.c -> src/lib/.\.c -> src/lib/.\.c' \
		'upward call: src/collective/engine.c -> src/models/front.c'; do
		if printf '%s\n' "$out" | grep -q "$want"; then
			n=$((n + 1))
		else
			echo "layers --self-test: not found: $want" >&2
		fi
	done
	printf '%s\n' "$out" | grep -q 'stray.c -> src/cli/engine/c.c' &&
		echo "layers --self-test: a call down reported as a circle" >&2 && n=0
	printf '%s\n' "$out" | grep -q 'upward call: .*status.c' &&
		echo "layers --self-test: a call to a shared leaf reported" >&2 && n=0
	echo "layers --self-test: $n of 5 faults found"
	[ $n = 5 ]
	exit
fi
dir=${1:-src}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

bad() {
	echo "FAIL: $*" >&2
	fail=$((fail + 1))
}

find "$dir" -name '*.[ch]' | LC_ALL=C sort > "$tmp/files"
grep '\.c$' "$tmp/files" > "$tmp/cfiles"

# 1. Length.
nlong=0
while read -r f; do
	n=$(wc -l < "$f")
	if [ "$n" -gt 1000 ]; then
		bad "$f: $n lines (at most 1000)"
		nlong=$((nlong + 1))
	fi
done < "$tmp/files"

# 2. Rooms.
for f in "$dir"/cli/*.c; do
	[ -e "$f" ] || continue
	case ${f##*/} in
	main.c) ;;
	cmd_*.c) bad "$f: not in a room (a command goes in $dir/cli/commands/)" ;;
	*) bad "$f: not in a room (engine/, meta/, commands/ or fit/)" ;;
	esac
done

# Circles in a graph of "from to" lines ($1): prints one line per edge
# that closes a circle, "a -> b -> ... -> a".
circles() {
	awk '
	{ if (!($1 SUBSEP $2 in seen)) { seen[$1, $2] = 1;
	      adj[$1] = adj[$1] " " $2; } node[$1] = 1; node[$2] = 1 }
	function dfs(u,    i, n, v, k, path) {
		color[u] = 1
		stack[++top] = u
		n = split(adj[u], nb, " ")
		for (i = 1; i <= n; i++) {
			v = nb[i]
			if (color[v] == 1) {
				path = v
				for (k = top; k >= 1 && stack[k] != v; k--)
					;
				for (k = k + 1; k <= top; k++)
					path = path " -> " stack[k]
				print path " -> " v
				found++
			} else if (color[v] == 0) {
				dfs(v)
				n = split(adj[u], nb, " ")
			}
		}
		top--
		color[u] = 2
	}
	END { for (u in node) if (color[u] == 0) dfs(u); exit found > 0 }
	' "$1"
}

# 3. Includes: "x/y.h" is looked for beside the file, in SRCDIR and in
# include/ (as the Makefile's -Isrc -Iinclude).
: > "$tmp/incl"
while read -r f; do
	d=${f%/*}
	sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r h; do
		for c in "$d/$h" "$dir/$h" "src/$h" "include/$h"; do
			if [ -f "$c" ]; then
				echo "$f $c"
				break
			fi
		done
	done >> "$tmp/incl"
done < "$tmp/files"
if ! circles "$tmp/incl" > "$tmp/icirc"; then
	while read -r c; do bad "include circle: $c"; done < "$tmp/icirc"
fi

# 4. Calls.  Comments out (they name functions freely), then each file's
# functions and the names it calls.
mkdir -p "$tmp/nc"
i=0
while read -r f; do
	i=$((i + 1))
	awk '{
		s = $0; out = ""
		while (s != "") {
			if (inc) {
				p = index(s, "*/")
				if (!p) { s = ""; break }
				s = substr(s, p + 2); inc = 0
			} else {
				p = index(s, "/*")
				if (!p) { out = out s; s = ""; break }
				out = out substr(s, 1, p - 1); s = substr(s, p + 2); inc = 1
			}
		}
		print out
	}' "$f" > "$tmp/nc/$i"
	echo "$i $f" >> "$tmp/index"
done < "$tmp/cfiles"
while read -r i f; do
	grep -E '^[a-z][a-z0-9_ *]*[ *][a-z_][a-z0-9_]*\(' "$tmp/nc/$i" |
		grep -v -E '^(static|extern|typedef|return|else|if|for|while|switch|case)\b' |
		grep -v ';[[:space:]]*$' |
		sed -E 's/^[a-z][a-z0-9_ *]*[ *]([a-z_][a-z0-9_]*)\(.*/\1/' |
		sed "s|\$| $f|"
done < "$tmp/index" | LC_ALL=C sort -u > "$tmp/defs"
# a name defined twice (two programs' mains, say) is nobody's
awk '{ n[$1]++; f[$1] = $2 } END { for (k in n) if (n[k] == 1) print k, f[k] }' \
	"$tmp/defs" > "$tmp/owner"
while read -r i f; do
	grep -o -E '[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(' "$tmp/nc/$i" |
		tr -d ' \t(' | LC_ALL=C sort -u | sed "s|^|$f |"
done < "$tmp/index" > "$tmp/uses"
awk 'NR == FNR { own[$1] = $2; next }
     ($2 in own) && own[$2] != $1 { print $1, own[$2] }' \
	"$tmp/owner" "$tmp/uses" | LC_ALL=C sort -u > "$tmp/calls"
if ! circles "$tmp/calls" > "$tmp/ccirc"; then
	while read -r c; do bad "call circle: $c"; done < "$tmp/ccirc"
fi

# 5. Rooms in layers: no call from a lower room into a higher one.
awk -v d="$dir" '
	function rank(f,    r) {
		r = substr(f, length(d) + 2)
		if (r == "models/status.c" || r == "models/version.c")
			return -1
		sub(/\/.*/, "", r)
		if (r == "cli" || r == "probe") return 3
		if (r == "fit") return 2
		if (r == "models") return 1
		if (r == "collective" || r == "sim") return 0
		return ""
	}
	{ a = rank($1); b = rank($2)
	  if (a != "" && b != "" && b > a) print $1 " -> " $2 }
' "$tmp/calls" > "$tmp/up"
while read -r c; do bad "upward call: $c"; done < "$tmp/up"

echo "layers: $(wc -l < "$tmp/files") files, $nlong over 1000 lines," \
	"$(wc -l < "$tmp/incl") includes, $(wc -l < "$tmp/calls") file-to-file" \
	"call edges, $fail problem(s)"
# on the real tree, a handful of edges would mean the scan is broken
[ $fail = 0 ] && { [ "$dir" != src ] || [ "$(wc -l < "$tmp/calls")" -gt 50 ]; }
