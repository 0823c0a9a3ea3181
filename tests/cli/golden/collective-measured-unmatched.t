$ mcastlat collective --data tests/cli/golden/collective_data.csv --measured --ppn 8 --sockets 2 --nodes 2 --map-by node --objective latency_avg 2>&1 >/dev/null
mcastlat: warning: collective: --measured: no measured cell has the placement asked for; the first has --ppn 4 (asked: 8) --nodes 4 (asked: 2) --map-by core (asked: node)
