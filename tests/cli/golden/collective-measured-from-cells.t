$ mcastlat collective --data tests/cli/golden/collective_data.csv --measured --objective latency_avg 2>&1 | head -7
# the measured cells' cross-validation at level 0.9 (collective(1), MEASUREMENTS)
# the measured cells' placement: --ppn 4 --sockets 2 --nodes 4 --bind-to core --numa 1
map_by            core
cells                4  measured cells (algorithm, P, M) of the placement
algorithms           2  algorithms measured
ranks_min           16  least measured P
ranks_max           16  largest measured P
