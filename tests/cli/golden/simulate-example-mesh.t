$ mcastlat simulate --topology mesh --k 4 --flits 16 --router-cycles 0,2 --trace tests/cli/traces/unicast-0-15.csv --columns router_cycles,latency,hops,status
router_cycles  latency[cycles]  hops  status
            0               22     6  ok
            2               36     6  ok
