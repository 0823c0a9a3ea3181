$ mcastlat simulate --topology hypercube --dims 4 --vcs 3 --flits 16 --beta 0.2 --rate 0.004 --delta 1 --warmup 500 --ci 0.05 --compare --model-load paper,tree --columns model_load,model_latency,model_unicast_latency,model_unicast_latency_vbar,model_status,status
model_load  model_latency[cycles]  model_unicast_latency[cycles]  model_unicast_latency_vbar[cycles]  model_status  status
paper                    77.84441                       19.51775                            21.86483  ok            ok
tree                     81.34936                       19.68249                             22.8301  ok            ok
