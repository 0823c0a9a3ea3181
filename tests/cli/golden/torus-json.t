$ mcastlat torus --algorithm md --group 16 --format json
{"algorithm":"md","k":4,"dims":2,"group":16,"msg":128,"model":"paper","variant":"default","r":4,"o":1.994,"t_process":206,"L_i":209.988,"h":4,"h_plain":null,"h_serial":null,"hop_depth":null,"latency":843.94,"note":"","status":"ok"}
