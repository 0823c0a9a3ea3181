$ mcastlat kbinomial --nodes 64 --packets 8 --tree 1:7 --schedule --format csv --columns tree,k,L1,steps,sim_steps
tree,k,L1,steps,sim_steps
1,1,63,70,70
2,2,8,22,22
3,3,7,28,28
4,4,7,35,35
5,5,7,42,42
6,6,6,48,48
7,6,6,48,48
