$ mcastlat torus --model paper,structural --algorithm mu --group 10 --r 4 --columns model,h,h_plain,h_serial,hop_depth,latency
model       h  h_plain  h_serial  hop_depth  latency[us]
paper       5      nan       nan        nan     1028.928
structural  4        3         4          4       823.94
