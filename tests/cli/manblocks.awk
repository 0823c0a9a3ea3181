# manblocks.awk - the examples of a man page, for manex.sh and fitex.sh:
# each no-fill block (.nf ... .fi or .EX ... .EE) whose first line starts
# with the prompt (awk -v prompt="$ " or "% ") is written to dir/N.sh
# (its commands, each followed by a line echoing sep), dir/N.want (their
# outputs, separated alike) and dir/N.where ("PAGE:LINE: first command").
# A command continues while its line ends in a backslash.  The groff
# escapes a block may use are unescaped (\- \e \& \(aq \(dq \(ga
# \(ti \(ha \(rs); any other, a request inside an example, a prompt
# line after a block's first line or outside a block print "error: ..."
# lines.  Variables: dir, page, sep, prompt, rc (the shell variable
# holding a command's status).
function unescape(s,   out, c, n) {
	out = ""
	while ((n = index(s, "\\")) > 0) {
		out = out substr(s, 1, n - 1)
		c = substr(s, n + 1, 1)
		s = substr(s, n + 2)
		if (c == "-") out = out "-"
		else if (c == "e") out = out "\\"
		else if (c == "&") out = out ""
		else if (c == "(") {
			c = substr(s, 1, 2)
			s = substr(s, 3)
			if (c == "aq") out = out "\047"
			else if (c == "dq") out = out "\""
			else if (c == "ga") out = out "`"
			else if (c == "ti") out = out "~"
			else if (c == "ha") out = out "^"
			else if (c == "rs") out = out "\\"
			else bad("unknown escape \\(" c)
		} else bad("unknown escape \\" c)
	}
	return out s
}
function bad(msg) {
	printf "error: %s:%d: %s\n", page, NR, msg
}
function finish(   i, line, incmd, n) {
	if (nb == 0 || substr(blk[1], 1, 2) != prompt) {
		for (i = 2; i <= nb; i++)
			if (substr(blk[i], 1, 2) == prompt)
				bad("block of line " start " has a command " \
				    "after its first line")
		nb = 0
		return
	}
	n = ++count
	sh = dir "/" n ".sh"; want = dir "/" n ".want"
	printf "%s:%d: %s\n", page, start + 1, blk[1] > (dir "/" n ".where")
	printf "" > want
	incmd = 0
	for (i = 1; i <= nb; i++) {
		line = blk[i]
		if (!incmd && substr(line, 1, 2) == prompt) {
			if (i > 1)
				print sep > want
			line = substr(line, 3)
			incmd = 1
		} else if (!incmd) {
			print line > want
			continue
		}
		print line > sh
		if (line !~ /\\$/) {
			print rc "=$?; [ $" rc " -eq 0 ] || exit $" rc > sh
			printf "echo \"%s\"\n", sep > sh
			incmd = 0
		}
	}
	if (incmd)
		bad("example ends inside a command")
	print sep > want
	close(sh); close(want); close(dir "/" n ".where")
	nb = 0
}
/^\.(nf|EX)([ \t]|$)/ { inblk = 1; nb = 0; start = NR; next }
/^\.(fi|EE)([ \t]|$)/ { if (inblk) finish(); inblk = 0; next }
inblk && /^[.\047]/ {
	if (nb > 0 && substr(blk[1], 1, 2) == prompt)
		bad("request inside an example: " $0)
	next
}
inblk { blk[++nb] = unescape($0); next }
substr($0, 1, 2) == prompt { bad("example outside a .nf/.EX block: " $0) }
