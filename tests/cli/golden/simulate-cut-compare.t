$ mcastlat simulate --topology hypercube --dims 4 --beta 0.1 --rate 0.01 --ci 0.001 --max-cycles 300000 --compare --precision 4 --columns multicast_latency,multicast_latency_ci,model_latency,error_pct,error_pct_ci,messages,status
multicast_latency[cycles]  multicast_latency_ci[cycles]  model_latency[cycles]  error_pct  error_pct_ci  messages  status
                    178.3                         3.597                  195.7      9.745         2.214     17805  no-convergence
