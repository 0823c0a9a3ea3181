$ mcastlat kbinomial --nodes 64 --msg 1000 --format json --columns packets,k,steps,latency,speedup
{"packets":16,"k":2,"steps":38,"latency":215,"speedup":2.3488372093023258}
