$ mcastlat simulate --compare --k 2 --dims 6 --delta 1 --beta 0.01 --rate 1e-9 --max-cycles 100 --topology mesh,hypercube --multicast binomial,unicast --dests all,5 --format csv --columns topology,multicast,dests,model_latency,model_status,note
topology,multicast,dests,model_latency,model_status,note
mesh,binomial,all,nan,,compare: the model covers --topology hypercube only
mesh,binomial,5,nan,,compare: the model covers --topology hypercube only
mesh,unicast,all,nan,,compare: the model covers --topology hypercube only
mesh,unicast,5,nan,,compare: the model covers --topology hypercube only
hypercube,binomial,all,198.00000825120935,ok,
hypercube,binomial,5,nan,,compare: the model covers --dests all only
hypercube,unicast,all,nan,,compare: the model covers --multicast binomial only
hypercube,unicast,5,nan,,compare: the model covers --multicast binomial only
