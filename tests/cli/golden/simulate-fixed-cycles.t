$ mcastlat simulate --k 4 --dims 1 --flits 8 --rate 0.01,0.04 --beta 0.1 --cycles 20000 --warmup 2000 --precision 4 --columns rate,latency,latency_ci,unicast_latency_ci,multicast_latency_ci,accepted_min,accepted_max,ci_on,status
rate  latency[cycles]  latency_ci[cycles]  unicast_latency_ci[cycles]  multicast_latency_ci[cycles]  accepted_min  accepted_max  ci_on  status
0.01            18.09                 nan                      0.6775                           nan        0.1029        0.1116  all    ok
0.04            93.91                32.6                         nan                           nan        0.3908        0.3958  all    ok
