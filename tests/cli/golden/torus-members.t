$ mcastlat torus --model structural --algorithm s --group 4 --members 0,5,10,15 --full --precision 7 --columns h,hp,hf,hs,t_network,latency
h  hp  hf  hs  t_network[us]  latency[us]
2   6   0   3          2.094      544.058
