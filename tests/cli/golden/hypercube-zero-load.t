$ mcastlat hypercube --dims 6 --vcs 2 --flits 32 --beta 0.01 --rate 0
# dims=6 vcs=2 flits=32 beta=0.01 rate=0 delta=1 load=paper
latency[cycles]  S_b[cycles]  S_u[cycles]  W_c[cycles]  W_s[cycles]  Vbar  rho  status
            198           32     35.04762            0            0     1    0  ok
