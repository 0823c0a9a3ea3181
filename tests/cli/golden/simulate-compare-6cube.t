$ mcastlat simulate --topology hypercube --dims 6 --beta 0.01 --rate 0.002,0.005 --delta 1 --compare --precision 4 --columns rate,multicast_latency,multicast_latency_ci,model_latency,error_pct,error_pct_ci,status
 rate  multicast_latency[cycles]  multicast_latency_ci[cycles]  model_latency[cycles]  error_pct  error_pct_ci  status
0.002                      217.9                         3.465                  214.1     -1.768         1.562  ok
0.005                      232.4                         3.414                    237      1.984         1.498  ok
