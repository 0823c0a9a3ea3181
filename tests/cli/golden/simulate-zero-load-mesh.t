$ mcastlat simulate --topology mesh --k 4 --flits 16 --router-cycles 0,2 --trace tests/cli/traces/unicast-0-15.csv --format csv --columns topology,router_cycles,latency,hops,messages,status
topology,router_cycles,latency,hops,messages,status
mesh,0,22,6,1,ok
mesh,2,36,6,1,ok
