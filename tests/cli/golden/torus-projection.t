$ mcastlat torus --k 16 --group 256 --algorithm mu --r 8,16,32 --precision 7 --columns r,h,latency
 r   h  latency[us]
 8  38     7793.532
16  30     6153.628
32  38     7793.532
