/*
 * collective_opts.h - the indices of `mcastlat collective`'s options
 * and result columns, and its tables (collective_opts.c), shared by
 * cmd_collective.c and the files of its parts.
 */
#ifndef MCASTLAT_CLI_COLLECTIVE_OPTS_H
#define MCASTLAT_CLI_COLLECTIVE_OPTS_H

#include <stdbool.h>

#include "cli/cmd.h"
#include "mcastlat/collective.h"

/* Indices of ml_collective_alg_names: --algorithm's words. */
#define ALG_BINOMIAL 5
#define ALG_MPICH_SRD 9 /* then ring, smp */
#define ALG_OMPI 12
#define ALG_BEST 13
#define ALG_MPICH 14
#define ALG_DEFAULT 15
#define ALG_HAN 16 /* Open MPI's coll/han, not among "all" */
#define ALG_CONCRETE 12 /* what "all" lists: both libraries' */

enum {
	O_OP,
	O_LIBRARY,
	O_ALGORITHM,
	O_RANKS,
	O_MSG,
	O_SEGMENT,
	O_FANOUT,
	O_RADIX,
	O_ROOT,
	O_OMPI_VERSION,
	O_HAN_SEGMENT,
	O_HAN_SIMPLE,
	O_PPN,
	O_SOCKETS,
	O_NODES,
	O_MAP_BY,
	O_BIND_TO,
	O_NUMA,
	O_CHANNEL,
	O_LAT_SOCKET,
	O_LAT_NODE,
	O_LAT_NET,
	O_BYTE_SOCKET,
	O_BYTE_NODE,
	O_BYTE_NET,
	O_OVERHEAD,
	O_NIC_GAP,
	O_EBYTE_SOCKET,
	O_EBYTE_NODE,
	O_EBYTE_NET,
	O_EAGER,
	O_SCHEDULE,
	O_RULES,
	O_AMONG,
	O_OBJECTIVE,
	O_LEVEL,
	O_ERR_RANKS,
	O_ERR_SD_SMALL,
	O_ERR_SD_MEDIUM,
	O_ERR_SD_LARGE,
	O_ERR_GROWTH_SMALL,
	O_ERR_GROWTH_MEDIUM,
	O_ERR_GROWTH_LARGE,
	O_ERR_DIFF,
	O_ERR_DIFF_GROWTH,
	O_ERR_DIFF_ALG, /* then one per Open MPI algorithm, 1-9 in order */
	O_ERR_SOCKET_RANKS = O_ERR_DIFF_ALG + ML_COLL_NALG,
	O_ERR_LAST = O_ERR_SOCKET_RANKS, /* the error model ends here */
	O_PLAN,
	O_BUDGET,
	O_OSU_BARRIER,
	O_DATA, /* measured broadcasts (SPEC 10.7) */
	O_MEASURED,
	NOPTS
};

enum {
	C_LATENCY,
	C_LATENCY_LO,
	C_LATENCY_HI,
	C_LATENCY_AVG,
	C_LATENCY_AVG_LO,
	C_LATENCY_AVG_HI,
	C_LATENCY_MIN,
	C_MESSAGES,
	C_SEGMENTS,
	C_CHOSEN,
	C_BEST,
	C_MARGIN,
	C_VS_OMPI,
	NCOLS
};

/* collective_opts.c: the tables; alg_names in --algorithm's order. */
extern const char *const ml_collective_alg_names[];
extern const struct ml_opt ml_collective_opts[NOPTS];
extern const struct ml_col ml_collective_cols[NCOLS];

/* The interval columns exist when the machine has an error model. */
bool ml_collective_has_errmodel(const union ml_val *base);

#endif
