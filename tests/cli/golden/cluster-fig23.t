$ mcastlat cluster --op bcast --columns nodes,h,packets,latency,formula,full_duplex
 nodes       h  packets     latency  formula  full_duplex
    16       4        1          28  2.8      no
