$ mcastlat cluster --msg 1500,64k,1.5M,64KiB,1MiB,2GB,10B --format csv --columns msg
msg
1500
64000
1500000
65536
1048576
2000000000
10
