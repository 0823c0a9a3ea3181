$ mcastlat simulate --topology hypercube --dims 6 --beta 0.01 --rate 0.002,0.005 --delta 1 --compare --precision 4 --columns rate,multicast_latency,multicast_latency_ci,model_latency,error_pct,error_pct_ci,status
 rate  multicast_latency[cycles]  multicast_latency_ci[cycles]  model_latency[cycles]  error_pct  error_pct_ci  status
0.002                      217.7                         1.412                  214.1      -1.66        0.6379  ok
0.005                      232.9                         5.797                    237      1.731         2.532  ok
