$ mcastlat cluster --op bcast --msg 6000 --gs-fixed 1 --gr-fixed 1 --formula auto,2.8 --format csv --columns formula,latency
formula,latency
2.9,43
2.8,40
