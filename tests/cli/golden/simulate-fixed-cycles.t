$ mcastlat simulate --k 4 --dims 1 --flits 8 --rate 0.01,0.04 --beta 0.1 --cycles 200000 --warmup 2000 --precision 4 --columns rate,latency,latency_ci,unicast_latency_ci,multicast_latency_ci,accepted_min,accepted_max,ci_on,status
rate  latency[cycles]  latency_ci[cycles]  unicast_latency_ci[cycles]  multicast_latency_ci[cycles]  accepted_min  accepted_max  ci_on  status
0.01            17.53               0.238                      0.1649                        0.7422        0.0938       0.09876  all    ok
0.04            72.18               9.615                       8.217                         64.49        0.3817         0.387  all    ok
