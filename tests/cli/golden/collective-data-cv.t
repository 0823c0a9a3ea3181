$ mcastlat collective --data tests/cli/golden/collective_data.csv --measured --ppn 4 --sockets 2 --nodes 4 --map-by core,node --objective latency_avg --format csv
map_by,cells,algorithms,ranks_min,ranks_max,left_out,noise,noise_runs,noise_min,noise_max,noise_max_at,run_sd,run_hilo,capped,q_small,q_medium,q_large,qm,qdiff,qalg,qclass,growth,corner_cells,corner_gain
core,4,2,16,16,0,0.0147708579,1,0.0147708579,0.0147708579,,0.0147708579,1.02492372,0,,,,,,,,0.156,0,
node,0,,,,,,,,,,,,,,,,,,,,,,
