$ mcastlat hypercube --dim 4 --format csv --columns dims,vcs
dims,vcs
4,2
