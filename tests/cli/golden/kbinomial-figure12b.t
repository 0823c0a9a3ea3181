$ mcastlat kbinomial --packets 4,8 --nodes 9,16,32,64 --format csv --columns nodes,packets,k,steps
nodes,packets,k,steps
9,4,2,10
16,4,2,11
32,4,2,12
64,4,2,14
9,8,1,15
16,8,2,19
32,8,2,20
64,8,2,22
