$ mcastlat cluster --op bcast
  os-fixed  os-per-byte    gs-fixed  gs-per-byte    gr-fixed  gr-per-byte  latency-fixed  latency-per-byte    or-fixed  or-per-byte          ur  ctm-per-byte     mtu     msg   nodes  op     packets       h     latency  formula  full_duplex  status
         1            0           2            0           2            0              4                 0         1.5            0         0.5             0    1500       0      16  bcast        1       4          28  2.8      no           ok
