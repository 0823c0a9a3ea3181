$ mcastlat kbinomial --nodes 9 --tie largest,smallest --format csv --columns nodes,tie,k,L1,steps
nodes,tie,k,L1,steps
9,largest,4,4,4
9,smallest,2,4,4
