$ mcastlat collective --algorithm ompi,best --among linear,ompi --ranks 2 --msg 1 --err-ranks 0
# machine=default (THIN fit) op=bcast ranks=2 msg=1 ppn=1 sockets=1 map_by=core err_ranks=0
algorithm  latency[us]  latency_avg[us]  messages  chosen    best  status
ompi          1.550768        0.7758407         1  pipeline  -     ok
best          1.550768        0.7758407         1  pipeline  ompi  ok
