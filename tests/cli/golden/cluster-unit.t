$ mcastlat cluster --op p2p --msg 3000 --unit ns --columns latency --format csv --no-header
9000
