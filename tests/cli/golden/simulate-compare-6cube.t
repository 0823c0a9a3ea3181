$ mcastlat simulate --topology hypercube --dims 6 --beta 0.01 --rate 0.002,0.005 --delta 1 --compare --precision 4 --columns rate,multicast_latency,model_latency,error_pct,latency_ci,status
 rate  multicast_latency[cycles]  model_latency[cycles]  error_pct  latency_ci[cycles]  status
0.002                      220.7                  214.1     -2.973              0.7887  ok
0.005                      233.3                    237      1.584              0.8733  ok
