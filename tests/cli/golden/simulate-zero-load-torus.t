$ mcastlat simulate --topology torus --k 4 --flits 16 --router-cycles 0,2 --trace tests/cli/traces/unicast-0-15.csv --format csv --columns topology,router_cycles,latency,hops,messages,status
topology,router_cycles,latency,hops,messages,status
torus,0,18,2,1,ok
torus,2,24,2,1,ok
