$ mcastlat torus --algorithm u --group 10 --variant default,literal,e,h --precision 7 --columns algorithm,variant,h,latency
algorithm  variant           h     latency
u          default           4     2535.94
u          literal           6    3801.916
u          e               4.5    2852.434
u          h               4.5    2852.434
