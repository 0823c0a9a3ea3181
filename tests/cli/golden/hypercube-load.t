$ mcastlat hypercube --load paper,tree --rate 0,0.01 --columns load,rate,latency,W_s,rho
load         rate     latency         W_s         rho
paper           0         198           0           0
paper        0.01    273.4903    1.434683   0.1954051
tree            0         198           0           0
tree         0.01    280.6957    1.734148   0.2112436
