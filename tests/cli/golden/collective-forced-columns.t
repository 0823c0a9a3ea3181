$ mcastlat collective --algorithm linear --ranks 2 --msg 1 --err-ranks 0
# machine=default (THIN fit) op=bcast algorithm=linear ranks=2 msg=1 ppn=1 sockets=1 map_by=core err_ranks=0
latency[us]  latency_avg[us]  messages  status
   1.550768        0.7758407         1  ok
