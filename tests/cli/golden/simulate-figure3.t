$ mcastlat simulate --topology mesh --k 4 --multicast tree --pruning on,off --trace tests/cli/traces/figure3.csv --format csv --columns pruning,prunings,messages,status
pruning,prunings,messages,status
on,1,2,ok
off,nan,0,deadlock
