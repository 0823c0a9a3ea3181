$ mcastlat torus --algorithm sep --group 2 --msg 64,128,512,1024 --columns msg,o,latency,note
 msg   o[us]  latency[us]  note
  64  1.7924      10.5848  o extrapolated outside 128..512 bytes
 128   1.994       10.988  -
 512  3.2036      13.4072  -
1024  4.8164      16.6328  o extrapolated outside 128..512 bytes
