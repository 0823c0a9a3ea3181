$ mcastlat torus --k 4 --group 16
# k=4 dims=2 group=16 msg=128 model=paper variant=default
algorithm  r  o[us]  t_process[us]  L_i[us]   h  h_plain  h_serial  hop_depth  latency[us]  note  status
sep        4  1.994              7   10.988  15      nan       nan        nan       164.82  -     ok
u          4  1.994            629  632.988   4      nan       nan        nan      2535.94  -     ok
s          4  1.994            265  268.988  14      nan       nan        nan      3769.82  -     ok
md         4  1.994            206  209.988   4      nan       nan        nan       843.94  -     ok
mu         4  1.994            201  204.988   6      nan       nan        nan     1233.916  -     ok
