/*
 * ompi_decide.c - Open MPI's fixed decision for MPI_Bcast
 * (ompi_coll_tuned_bcast_intra_dec_fixed), which the model's default,
 * best's rules and han's sub-communicators (han.c) all run.
 */
#include "collective/coll_int.h"

/*
 * ompi_coll_tuned_bcast_intra_dec_fixed (coll_tuned_decision_fixed.c,
 * identical from 4.1.0 to 4.1.8 and 5.0.0 to 5.0.10): one row per range
 * of P, each a list of (message size bound, algorithm): the first bound
 * above M picks; bound 0 ends a row with its last algorithm.
 */
struct dec_rule {
	long long below; /* M < below; 0: any M */
	enum ml_coll_alg alg;
};

#define R(b, a)                                                                \
	{                                                                      \
		b, ML_COLL_##a                                                 \
	}
static const struct dec_rule dec_p4[] = {
    R(32, PIPELINE),  R(256, BINARY),	 R(512, PIPELINE),
    R(1024, KNOMIAL), R(32768, LINEAR),	 R(131072, BINARY),
    R(262144, CHAIN), R(524288, LINEAR), R(1048576, BINOMIAL),
    R(0, BINARY)};
static const struct dec_rule dec_p8[] = {R(64, BINARY),	     R(128, BINOMIAL),
					 R(2048, BINARY),    R(8192, BINOMIAL),
					 R(1048576, LINEAR), R(0, CHAIN)};
static const struct dec_rule dec_p16[] = {R(8, KNOMIAL),      R(64, BINARY),
					  R(4096, KNOMIAL),   R(16384, BINARY),
					  R(32768, BINOMIAL), R(0, LINEAR)};
static const struct dec_rule dec_p32[] = {
    R(4096, KNOMIAL), R(1048576, BINOMIAL), R(0, SCATTER_ALLGATHER)};
static const struct dec_rule dec_p64[] = {R(2048, BINOMIAL), R(0, KNOMIAL)};
static const struct dec_rule dec_p128[] = {R(0, KNOMIAL)};
static const struct dec_rule dec_p256[] = {R(2, BINOMIAL), R(16384, BINARY),
					   R(32768, LINEAR), R(65536, BINARY),
					   R(0, KNOMIAL)};
static const struct dec_rule dec_p1024[] = {
    R(16384, KNOMIAL), R(32768, SPLIT_BINARY), R(0, KNOMIAL)};
static const struct dec_rule dec_p2048[] = {R(524288, KNOMIAL),
					    R(0, SCATTER_ALLGATHER)};
static const struct dec_rule dec_p4096[] = {R(262144, KNOMIAL),
					    R(0, SCATTER_ALLGATHER)};
static const struct dec_rule dec_big[] = {R(8192, KNOMIAL), R(16384, BINARY),
					  R(262144, KNOMIAL),
					  R(0, SCATTER_ALLGATHER)};
#undef R

static const struct {
	long long below; /* P < below; 0: any P */
	const struct dec_rule *rules;
} dec_rows[] = {{4, dec_p4},	   {8, dec_p8},	      {16, dec_p16},
		{32, dec_p32},	   {64, dec_p64},     {128, dec_p128},
		{256, dec_p256},   {1024, dec_p1024}, {2048, dec_p2048},
		{4096, dec_p4096}, {0, dec_big}};

enum ml_coll_alg ml_collective_ompi_decide(long long ranks, long long msg)
{
	size_t i;
	const struct dec_rule *r;

	for (i = 0; dec_rows[i].below != 0 && ranks >= dec_rows[i].below; i++)
		;
	for (r = dec_rows[i].rules; r->below != 0 && msg >= r->below; r++)
		;
	return r->alg;
}
