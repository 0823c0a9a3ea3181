$ mcastlat torus --k 4 --group 4,16 --algorithm all --precision 7 --columns algorithm,group,h,L_i,latency
algorithm  group   h  L_i[us]  latency[us]
sep            4   3   10.988       32.964
u              4   2  632.988     1269.964
s              4   2  268.988      541.964
md             4   1  209.988      213.976
mu             4   2  204.988      413.964
sep           16  15   10.988       164.82
u             16   4  632.988      2535.94
s             16  14  268.988      3769.82
md            16   4  209.988       843.94
mu            16   6  204.988     1233.916
