$ mcastlat collective --data tests/cli/golden/collective_data.csv --algorithm best --among binomial,ompi --objective latency_avg --msg 64,1024 --ranks 16 --ppn 4 --sockets 2 --nodes 4 --map-by core --format csv --columns ranks,msg,best,latency_avg,vs_ompi
ranks,msg,best,latency_avg,vs_ompi
16,64,binomial,5,2
16,1024,ompi,20,1
