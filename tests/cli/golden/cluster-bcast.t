$ mcastlat cluster --op bcast
# os_fixed=1us os_per_byte=0us gs_fixed=2us gs_per_byte=0us gr_fixed=2us gr_per_byte=0us latency_fixed=4us latency_per_byte=0us or_fixed=1.5us or_per_byte=0us ur=0.5us ctm_per_byte=0us mtu=1500 msg=0 nodes=16 op=bcast
packets  h  latency[us]  formula  full_duplex  status
      1  4           28  2.8      no           ok
