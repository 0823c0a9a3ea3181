$ mcastlat cluster --op bcast --nodes 64 --msg 15000 --os-fixed 0.5 --gs-fixed 2 --gr-fixed 0 --latency-fixed 1 --ur 0 --or-fixed 3.45,3.5 --formula auto,thesis --format csv --columns or-fixed,latency,formula
or-fixed,latency,formula
3.45,137.7,2.8
3.45,137.7,2.8
3.5,138,2.8
3.5,84,2.9
