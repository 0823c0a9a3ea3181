$ mcastlat collective --data tests/cli/golden/collective_data.csv --algorithm ompi,binomial --objective latency_avg --msg 64 --ranks 16 --format csv --columns algorithm,ppn,sockets,nodes,map_by,latency_avg 2>&1
algorithm,ppn,sockets,nodes,map_by,latency_avg
ompi,4,2,4,core,10
binomial,4,2,4,core,5
