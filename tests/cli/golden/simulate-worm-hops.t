$ mcastlat simulate --topology mesh --k 4 --multicast tree,dual-path,pm --ports 2 --trace tests/cli/traces/tree-4x4.csv --format csv --columns multicast,hops,channels,status
multicast,hops,channels,status
tree,3,6,ok
dual-path,4,7,ok
pm,4.5,9,ok
