$ mcastlat collective --input tests/cli/traces/machine-lat2.csv --algorithm linear --ranks 2 --msg 1 --err-ranks 0 --lat-socket 0.2us
# machine=tests/cli/traces/machine-lat2.csv op=bcast algorithm=linear ranks=2 msg=1 ppn=1 sockets=1 map_by=core lat_socket=0.2us err_ranks=0
latency[us]  latency_avg[us]  messages  status
      2.001         1.001407         1  ok
