$ mcastlat cluster --op p2p,xchg --nodes 1 --format csv --columns op,nodes,latency,status
op,nodes,latency,status
p2p,1,7,ok
xchg,1,7,ok
