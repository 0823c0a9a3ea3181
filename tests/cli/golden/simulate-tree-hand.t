$ mcastlat simulate --topology mesh --k 4 --multicast tree --trace tests/cli/traces/tree-4x4.csv --format csv --columns multicast,multicast_latency,multicast_latency_dest,branches,channels,prunings,status
multicast,multicast_latency,multicast_latency_dest,branches,channels,prunings,status
tree,25,17.5,3,6,0,ok
