$ mcastlat kbinomial --nodes 2,1000 --tree binomial --all-columns
nodes  tree      tie      ts[us]  tr[us]  tns[us]  tnr[us]  tprop[us]  packets   k  L1  steps  latency[us]  binomial_steps  binomial_latency[us]  speedup  status
    2  binomial  largest    12.5    12.5        3        2          0        1   1   1      1           30               1                    30        1  ok
 1000  binomial  largest    12.5    12.5        3        2          0        1  10  10     10           75              10                    75        1  ok
