$ mcastlat simulate --k 4 --dims 1 --flits 8 --rate 0.02 --saturation --cycles 20000 --warmup 2000 --sat-resolution 0.05 --columns sat_rate,sat_rate_lo,sat_rate_hi,sat_throughput,status
sat_rate  sat_rate_lo  sat_rate_hi  sat_throughput  status
 0.05125         0.05       0.0525        0.402475  ok
