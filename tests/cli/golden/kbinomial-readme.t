$ mcastlat kbinomial --nodes 64 --packets 1:16
 nodes  tree      tie               ts          tr         tns         tnr       tprop  packets       k      L1   steps     latency  binomial_steps  binomial_latency     speedup  status
    64  optimal   largest         12.5        12.5           3           2           0        1       6       6       6          55               6                55           1  ok
    64  optimal   largest         12.5        12.5           3           2           0        2       3       7      10          75              12                85    1.133333  ok
    64  optimal   largest         12.5        12.5           3           2           0        3       2       8      12          85              18               115    1.352941  ok
    64  optimal   largest         12.5        12.5           3           2           0        4       2       8      14          95              24               145    1.526316  ok
    64  optimal   largest         12.5        12.5           3           2           0        5       2       8      16         105              30               175    1.666667  ok
    64  optimal   largest         12.5        12.5           3           2           0        6       2       8      18         115              36               205    1.782609  ok
    64  optimal   largest         12.5        12.5           3           2           0        7       2       8      20         125              42               235        1.88  ok
    64  optimal   largest         12.5        12.5           3           2           0        8       2       8      22         135              48               265    1.962963  ok
    64  optimal   largest         12.5        12.5           3           2           0        9       2       8      24         145              54               295    2.034483  ok
    64  optimal   largest         12.5        12.5           3           2           0       10       2       8      26         155              60               325    2.096774  ok
    64  optimal   largest         12.5        12.5           3           2           0       11       2       8      28         165              66               355    2.151515  ok
    64  optimal   largest         12.5        12.5           3           2           0       12       2       8      30         175              72               385         2.2  ok
    64  optimal   largest         12.5        12.5           3           2           0       13       2       8      32         185              78               415    2.243243  ok
    64  optimal   largest         12.5        12.5           3           2           0       14       2       8      34         195              84               445    2.282051  ok
    64  optimal   largest         12.5        12.5           3           2           0       15       2       8      36         205              90               475    2.317073  ok
    64  optimal   largest         12.5        12.5           3           2           0       16       2       8      38         215              96               505    2.348837  ok
