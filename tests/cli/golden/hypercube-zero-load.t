$ mcastlat hypercube --dim 6 --vcs 2 --flits 32 --beta 0.01 --rate 0
   dim     vcs   flits        beta        rate       delta  load      latency         S_b         S_u         W_c         W_s        Vbar         rho  status
     6       2      32        0.01           0           1  paper         198          32    35.04762           0           0           1           0  ok
