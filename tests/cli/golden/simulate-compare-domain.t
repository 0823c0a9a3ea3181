$ mcastlat simulate --compare --topology hypercube --dims 6 --delta 1 --beta 0.01 --rate 1e-9 --max-cycles 100 --routing duato,dor --ports all,1 --router-cycles 0,2 --format csv --columns routing,ports,router_cycles,model_latency,model_unicast_latency,model_status,note
routing,ports,router_cycles,model_latency,model_unicast_latency,model_status,note
duato,all,0,198.00000825120935,36.047619178672235,ok,
duato,all,2,nan,nan,,compare: the model assumes --router-cycles 0
duato,1,0,nan,nan,,compare: the model covers --ports all only
duato,1,2,nan,nan,,compare: the model covers --ports all only
dor,all,0,nan,nan,,compare: the model covers --routing duato only
dor,all,2,nan,nan,,compare: the model covers --routing duato only
dor,1,0,nan,nan,,compare: the model covers --routing duato only
dor,1,2,nan,nan,,compare: the model covers --routing duato only
