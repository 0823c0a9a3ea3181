$ mcastlat kbinomial --nodes 4 --packets 3 --tree binomial,linear --format csv
nodes,tree,tie,ts,tr,tns,tnr,tprop,packets,k,L1,steps,latency,binomial_steps,binomial_latency,speedup,status
4,binomial,largest,12.5,12.5,3,2,0,3,2,2,6,55,6,55,1,ok
4,linear,largest,12.5,12.5,3,2,0,3,1,3,5,50,6,55,1.1,ok
