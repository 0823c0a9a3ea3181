$ mcastlat torus --model structural --algorithm u --group 8 --full --precision 7 --columns h,h_serial,hop_depth,hp,hf,hs,t_network,latency
h  h_serial  hop_depth  hp  hf  hs  t_network[us]  latency[us]
3         2          3   4   1   0          0.116     1903.068
