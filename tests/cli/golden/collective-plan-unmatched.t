$ mcastlat collective --data tests/cli/golden/collective_data.csv --plan --among binomial,ompi --ppn 4 --sockets 2 --nodes 8 --map-by core --budget 8 2>&1
mcastlat: warning: collective: no measured cell has the placement asked for, so the plan is the fixed design; the first has --nodes 4 (asked: 8)
algorithm,ranks,map_by,msg,ppn,sockets,nodes
ompi,2,core,1,4,2,8
binomial,2,core,1,4,2,8
ompi,2,core,1048576,4,2,8
binomial,2,core,1048576,4,2,8
ompi,32,core,1,4,2,8
binomial,32,core,1,4,2,8
ompi,32,core,1048576,4,2,8
binomial,32,core,1048576,4,2,8
