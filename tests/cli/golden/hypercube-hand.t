$ mcastlat hypercube --dims 2 --flits 4 --beta 0.5 --rate 0.0272727272727 --columns dims,rate,latency,S_b,S_u,rho
dims        rate  latency[cycles]  S_b[cycles]  S_u[cycles]        rho
   2  0.02727273         12.23022     4.003614     5.337023  0.1122122
