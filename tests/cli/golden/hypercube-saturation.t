$ mcastlat hypercube --saturation --dim 6:8 --vcs 2,4
   dim     vcs   flits        beta        rate       delta  load   lambda_sat   latency_0  latency_50  latency_90  status
     6       2      32        0.01       0.001           1  paper  0.02093078         198    276.9082    354.7907  ok
     6       4      32        0.01       0.001           1  paper  0.02734118         198    350.0035    553.6867  ok
     7       2      32        0.01       0.001           1  paper  0.01956038         231    322.7452    413.0253  ok
     7       4      32        0.01       0.001           1  paper  0.02559203         231    408.0212    645.0563  ok
     8       2      32        0.01       0.001           1  paper  0.01760983         264    370.3285    476.0257  ok
     8       4      32        0.01       0.001           1  paper  0.02299537         264     468.617    745.2928  ok
