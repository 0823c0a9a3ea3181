$ mcastlat torus --algorithm u --group 10 --variant default,steps,e,h --precision 7 --columns algorithm,variant,h,latency
algorithm  variant    h  latency[us]
u          default    6     3801.916
u          steps      4      2535.94
u          e        4.5     2852.434
u          h        4.5     2852.434
