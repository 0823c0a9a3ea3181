$ mcastlat hypercube --dim 2 --flits 4 --beta 0.5 --rate 0.0272727272727 --columns dim,rate,latency,S_b,S_u,rho
   dim          rate       latency           S_b           S_u           rho
     2     0.0272727       12.2302       4.00361       5.33702      0.112212
