$ mcastlat kbinomial --nodes 8 --packets 3 --tree binomial --schedule --format csv --columns nodes,packets,k,L1,steps,sim_steps
nodes,packets,k,L1,steps,sim_steps
8,3,3,3,9,9
