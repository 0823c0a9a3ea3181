$ mcastlat simulate --topology mesh,torus --k 2,4 --vcs 1 --flits 16 --trace tests/cli/traces/unicast-0-15.csv --format csv --columns topology,k,vcs,latency,note,status
topology,k,vcs,latency,note,status
mesh,2,1,nan,--trace: tests/cli/traces/unicast-0-15.csv:2: node 15 is not in the 4-node network,invalid
mesh,4,1,36,,ok
torus,2,1,nan,--trace: tests/cli/traces/unicast-0-15.csv:2: node 15 is not in the 4-node network,invalid
torus,4,1,nan,"--vcs: dor on a torus needs 2 virtual channels (dateline), got 1",invalid
