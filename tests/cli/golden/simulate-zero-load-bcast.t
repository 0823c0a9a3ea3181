$ mcastlat simulate --topology hypercube --dims 3 --flits 8 --ports 1,all --delta 0,2 --trace tests/cli/traces/bcast-cube3.csv --format csv --columns ports,delta,multicast_latency,multicast_latency_dest,messages,status
ports,delta,multicast_latency,multicast_latency_dest,messages,status
1,0,27,21.142857142857142,1,ok
1,2,33,26,1,ok
all,0,27,16.142857142857142,1,ok
all,2,33,19.571428571428573,1,ok
