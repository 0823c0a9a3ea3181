$ mcastlat torus --model structural --k 16 --dims 3 --group 1000 --placement random --seed 42 --algorithm all --precision 9 --columns algorithm,h,hop_depth,latency
algorithm    h  hop_depth  latency[us]
sep        999          1    10977.012
u           10          9     6333.868
s          998        999   268454.012
md          12         12     2523.844
mu          76         16    15583.076
