$ mcastlat cluster --op p2p,bcast --nodes 2 --msg 3000 --gs-fixed 1 --gr-fixed 1 --ctm-per-byte 0.001 --formula 2.9 --format csv --columns op,nodes,h,latency,formula
op,nodes,h,latency,formula
p2p,2,0,8,2.6
bcast,2,1,11,2.8
