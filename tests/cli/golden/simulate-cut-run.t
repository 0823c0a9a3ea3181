$ mcastlat simulate --k 4 --flits 8 --rate 0.03 --ci 0.001 --max-cycles 200000 --precision 4 --columns latency,latency_ci,accepted,messages,cycles,status
latency[cycles]  latency_ci[cycles]  accepted  messages  cycles  status
          29.97              0.7461    0.2387     65536  200000  no-convergence
