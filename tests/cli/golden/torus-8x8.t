$ mcastlat torus --k 8 --group 64 --algorithm md,mu --r 8 --precision 7 --columns algorithm,r,h,latency
algorithm  r   h  latency[us]
md         8   8     1683.892
mu         8  14      2873.82
