$ mcastlat kbinomial --nodes 1000 --packets 1,8 --tree 2 --value speedup
0.7894736842105263
2.5757575757575757
