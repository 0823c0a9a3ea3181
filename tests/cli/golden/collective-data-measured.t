$ mcastlat collective --data tests/cli/golden/collective_data.csv --algorithm binomial,ompi --msg 64 --ranks 16 --ppn 4 --sockets 2 --nodes 4 --map-by core --format csv --columns algorithm,msg,latency_avg
algorithm,msg,latency_avg
binomial,64,5
ompi,64,10
