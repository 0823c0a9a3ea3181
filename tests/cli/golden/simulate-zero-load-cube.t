$ mcastlat simulate --topology hypercube --dims 4 --flits 16 --router-cycles 0,2 --trace tests/cli/traces/unicast-0-15.csv --format csv --columns topology,router_cycles,latency,hops,messages,status
topology,router_cycles,latency,hops,messages,status
hypercube,0,20,4,1,ok
hypercube,2,30,4,1,ok
