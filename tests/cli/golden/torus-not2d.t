$ mcastlat torus --dims 3 --group 16 --algorithm md --columns dims,latency,note
dims  latency[us]  note
   3       843.94  2-D closed form used for N != 2
