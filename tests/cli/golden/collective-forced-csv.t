$ mcastlat collective --algorithm linear --ranks 2 --msg 1 --err-ranks 0 --format csv --precision 10
op,algorithm,ranks,msg,segment,fanout,radix,ppn,sockets,nodes,map_by,bind_to,numa,lat_socket,lat_node,lat_net,byte_socket,byte_node,byte_net,overhead,nic_gap,eager_byte_socket,eager_byte_node,eager_byte_net,eager,err_ranks,latency,latency_avg,latency_min,messages,segments,status
bcast,linear,2,1,0,4,4,1,1,auto,core,core,1,0.227281,0.522963,1.55067,8.60893e-05,8.3014e-05,9.81964e-05,0.000814965,0.0694796,0,0,0,4096,0,1.550768196,0.7758406789,0.0009131614,1,1,ok
