#!/bin/sh
# platform.sh - a SimGrid platform (XML, DTD 4.1) matching mcastlat
# collective's --ppn 1 machine: P hosts h0 .. h(P-1), one rank each,
# each host with its own private link (split-duplex: one direction out,
# one in, each shared by nothing else) of bandwidth 1/G bytes/us and
# latency L/2; no backbone, so a message from h_i to h_j crosses h_i's
# link up and h_j's link down: latency L, bandwidth 1/G, and it shares
# bandwidth only with other messages leaving h_i or entering h_j (the
# NICs of SPEC 10.2).  Hosts run at 1 Gflop/s (bcast.c relies on it).
#
#   scripts/simgrid/platform.sh P L G > platform.xml
#   scripts/simgrid/platform.sh -h       this text
#
# L in microseconds, G in microseconds per byte (mcastlat's --lat-net
# and --byte-net); also writes nothing else.  The hostfile is one host
# name a line: h0 .. h(P-1).
set -eu
case ${1-} in -h | --help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
[ $# -eq 3 ] || { echo "${0##*/}: usage: ${0##*/} P L G (see -h)" >&2; exit 2; }
awk -v P="$1" -v L="$2" -v G="$3" 'BEGIN {
	if (P !~ /^[0-9]+$/ || P < 2 || !(L > 0) || !(G > 0)) {
		print "platform.sh: P >= 2, L > 0 and G > 0 expected" > "/dev/stderr"
		exit 2
	}
	print "<?xml version=\"1.0\"?>"
	print "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">"
	print "<platform version=\"4.1\">"
	printf "  <!-- mcastlat collective --ppn 1: L = %s us, G = %s us/byte -->\n", L, G
	printf "  <cluster id=\"c\" prefix=\"h\" suffix=\"\" radical=\"0-%d\" speed=\"1Gf\"\n", P - 1
	printf "           bw=\"%.17gBps\" lat=\"%.17gs\" sharing_policy=\"SPLITDUPLEX\"/>\n", 1e6 / G, L / 2 * 1e-6
	print "</platform>"
}'
