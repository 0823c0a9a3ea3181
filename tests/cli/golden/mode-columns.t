$ mcastlat hypercube --saturation --dims 6 --format csv --precision 7
dims,vcs,flits,beta,delta,load,lambda_sat,latency_0,latency_50,latency_90,status
6,2,32,0.01,1,paper,0.02093078,198,276.9082,354.7907,ok
