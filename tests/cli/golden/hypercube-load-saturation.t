$ mcastlat hypercube --saturation --dim 6:8 --beta 0.01,0.02 --load paper,tree --columns dim,beta,load,lambda_sat
   dim        beta  load   lambda_sat
     6        0.01  paper  0.02093078
     6        0.01  tree   0.01949984
     6        0.02  paper  0.01943327
     6        0.02  tree   0.01710571
     7        0.01  paper  0.01956038
     7        0.01  tree    0.0174217
     7        0.02  paper   0.0173669
     7        0.02  tree   0.01426389
     8        0.01  paper  0.01760983
     8        0.01  tree   0.01469884
     8        0.02  paper  0.01465934
     8        0.02  tree   0.01103124
