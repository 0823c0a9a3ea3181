$ mcastlat cluster --op bcast --nodes 2:16:*2 --format json --columns nodes,h,latency,formula
{"nodes":2,"h":1,"latency":7,"formula":"2.8"}
{"nodes":4,"h":2,"latency":14,"formula":"2.8"}
{"nodes":8,"h":3,"latency":21,"formula":"2.8"}
{"nodes":16,"h":4,"latency":28,"formula":"2.8"}
