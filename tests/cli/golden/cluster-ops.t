$ mcastlat cluster --op all --msg 0,3000 --format csv --columns op,msg,packets,latency
op,msg,packets,latency
p2p,0,1,7
p2p,3000,2,9
xchg,0,1,7
xchg,3000,2,9
bcast,0,1,28
bcast,3000,2,36
