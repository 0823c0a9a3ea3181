$ mcastlat simulate --topology mesh --k 4 --multicast dual-path,pm --ports 2 --trace tests/cli/traces/tree-4x4.csv --format csv --columns multicast,channels,status
multicast,channels,status
dual-path,7,ok
pm,9,ok
