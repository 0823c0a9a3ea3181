$ mcastlat collective --input tests/cli/traces/machine-lat2.csv --algorithm linear --ranks 2 --msg 1 --err-ranks 0 --lat-net 5us --value latency 2>&1 >/dev/null; mcastlat collective --input tests/cli/traces/machine-lat2.csv --algorithm linear --ranks 2 --msg 1 --err-ranks 0 --lat-net 5us --value latency 2>/dev/null
mcastlat: warning: collective: --lat-net given on the command line was not used: every row of tests/cli/traces/machine-lat2.csv sets it
2.001
