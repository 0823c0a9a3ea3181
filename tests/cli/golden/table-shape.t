$ mcastlat kbinomial --nodes 2,1000 --tree binomial
# tree=binomial tie=largest ts=12.5us tr=12.5us tns=3us tnr=2us tprop=0us
nodes  packets   k  L1  steps  latency[us]  binomial_steps  binomial_latency[us]  speedup  status
    2        1   1   1      1           30               1                    30        1  ok
 1000        1  10  10     10           75              10                    75        1  ok
