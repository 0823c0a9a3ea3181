/*
 * tree.c - tree-based multicast with pruning (Malumbres & Duato, paper
 * 004 sections 2 to 4; SPEC section 8; notes/multicast_mechanisms.md
 * section 3): the worm layout [d_1, data, d_2 .. d_n] of 004 Figure 1.
 * Every branch created on the way keeps that layout: its opening address,
 * the D data flits (replayed from the auxiliary buffer), then the
 * addresses that follow it.
 */
#include "sim/mcast.h"

size_t ml_tree_layout(const unsigned *dests, size_t n, unsigned data,
		      struct ml_mc_flit *out)
{
	size_t f = 0;

	if (n == 0)
		return 0;
	out[f].kind = ML_MC_ADDR, out[f++].dest = dests[0];
	for (unsigned j = 0; j < data; j++)
		out[f].kind = ML_MC_DATA, out[f++].dest = j;
	for (size_t i = 1; i < n; i++)
		out[f].kind = ML_MC_ADDR, out[f++].dest = dests[i];
	return f;
}
