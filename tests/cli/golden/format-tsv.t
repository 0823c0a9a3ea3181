$ mcastlat kbinomial --nodes 2,1000 --packets 1,8 --tree binomial --format tsv
nodes	tree	tie	ts	tr	tns	tnr	tprop	packets	k	L1	steps	latency	binomial_steps	binomial_latency	speedup	status
2	binomial	largest	12.5	12.5	3	2	0	1	1	1	1	30	1	30	1	ok
2	binomial	largest	12.5	12.5	3	2	0	8	1	1	8	65	8	65	1	ok
1000	binomial	largest	12.5	12.5	3	2	0	1	10	10	10	75	10	75	1	ok
1000	binomial	largest	12.5	12.5	3	2	0	8	10	10	80	425	80	425	1	ok
