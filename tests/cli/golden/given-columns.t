$ mcastlat kbinomial --nodes 1000 --msg 1k,4k --tree binomial --format csv --columns nodes,msg,packets,steps
nodes,msg,packets,steps
1000,1000,16,160
1000,4000,63,630
