/*
 * check_defaults.c - the models' params_init functions: each field
 * against the paper's value (cited per model), a result at the defaults
 * by hand, and the command run with no options against the library
 * evaluated at params_init, so that the option tables' default strings
 * (src/cli/commands/cmd_<model>.c) and params_init cannot drift apart.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/engine/commands.h"
#include "cli/engine/run.h"
#include "mcastlat.h"
#include "mcastlat/cluster.h"
#include "mcastlat/hypercube.h"
#include "mcastlat/kbinomial.h"
#include "mcastlat/torus.h"

/*
 * The latency the command prints for its default point: "CMD --format
 * csv --columns latency" (plus the words of extra), the first row.  CSV
 * numbers are the shortest text that reads back as the same double, so
 * the comparison with the library can be exact.
 */
static double cli_latency(const char *cmd, const char *extra)
{
	char *argv[8], *text = NULL, *err = NULL, *row, *end, buf[64];
	size_t len = 0, errlen = 0;
	struct ml_ctx ctx = {0};
	int argc = 0, rc;
	double v;

	snprintf(buf, sizeof(buf), "%s", extra);
	argv[argc++] = (char *)cmd;
	argv[argc++] = (char *)"--format";
	argv[argc++] = (char *)"csv";
	argv[argc++] = (char *)"--columns";
	argv[argc++] = (char *)"latency";
	if (buf[0] != '\0')
		argv[argc++] = buf;
	argv[argc] = NULL;
	ctx.in = stdin;
	ctx.out = open_memstream(&text, &len);
	ctx.err = open_memstream(&err, &errlen);
	rc = ml_run(ml_find_command(cmd), argc, argv, &ctx);
	fclose(ctx.out);
	fclose(ctx.err);
	ck_assert_msg(rc == 0, "%s: exit %d: %s", cmd, rc, err);
	row = strchr(text, '\n');
	ck_assert_ptr_nonnull(row);
	v = strtod(row + 1, &end);
	ck_assert_msg(end != row + 1, "%s: no number in '%s'", cmd, text);
	free(text);
	free(err);
	return v;
}

/* Thesis chapter 2.2, Figure 2.3: p = 16, L = 4, g = 2, O_s = 1,
 * O_r = 1.5, U_r = 0.5 us; b = 1500 bytes; p2p, auto. */
START_TEST(test_cluster)
{
	struct ml_cluster_params p;
	struct ml_cluster_result r;

	memset(&p, 0xff, sizeof(p)); /* every field must be written */
	ml_cluster_params_init(&p);
	ck_assert_double_eq(p.os.fixed, 1);
	ck_assert_double_eq(p.gs.fixed, 2);
	ck_assert_double_eq(p.gr.fixed, 2);
	ck_assert_double_eq(p.lat.fixed, 4);
	ck_assert_double_eq(p.orcv.fixed, 1.5);
	ck_assert_double_eq(p.os.per_byte + p.gs.per_byte + p.gr.per_byte +
				p.lat.per_byte + p.orcv.per_byte,
			    0);
	ck_assert_double_eq(p.ur, 0.5);
	ck_assert_double_eq(p.ctm_per_byte, 0);
	ck_assert_double_eq(p.mtu, 1500);
	ck_assert_double_eq(p.msg, 0);
	ck_assert_int_eq(p.nodes, 16);
	ck_assert_int_eq(p.op, ML_CLUSTER_P2P);
	ck_assert_int_eq(p.formula, ML_CLUSTER_AUTO);
	ck_assert_int_eq(ml_cluster_validate(&p, NULL), ML_OK);
	/* Eq 2.6, k = 1: T = O_s + L + O_r + U_r = 1 + 4 + 1.5 + 0.5 = 7. */
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.time, 7, 1e-12);
	ck_assert_double_eq(cli_latency("cluster", ""), r.time);
	/* Figure 2.3's broadcast: B = h (L + O_r + U_r + O_s) = 4 x 7 = 28. */
	p.op = ML_CLUSTER_BCAST;
	ck_assert_int_eq(ml_cluster_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.time, 28, 1e-12);
	ck_assert_double_eq(cli_latency("cluster", "--op=bcast"), r.time);
}
END_TEST

/* Kesavan & Panda, Section 5.2: 64 processors, t_s = t_r = 12.5 us,
 * t_ns = 3.0 us, t_nr = 2.0 us; one packet, the optimal tree. */
START_TEST(test_kbinomial)
{
	struct ml_kbinomial_params p;
	struct ml_kbinomial_result r;

	memset(&p, 0xff, sizeof(p));
	ml_kbinomial_params_init(&p);
	ck_assert_int_eq(p.nodes, 64);
	ck_assert_int_eq(p.packets, 1);
	ck_assert_int_eq(p.tree, ML_KBINOMIAL_OPTIMAL);
	ck_assert_int_eq(p.tie, ML_KBINOMIAL_TIE_LARGEST);
	ck_assert_double_eq(p.ts, 12.5);
	ck_assert_double_eq(p.tr, 12.5);
	ck_assert_double_eq(p.tns, 3.0);
	ck_assert_double_eq(p.tnr, 2.0);
	ck_assert_double_eq(p.tprop, 0);
	ck_assert(!p.schedule);
	/* m = 1: k = ceil(log2 64) = 6, L1 = 6 steps of t_ns + t_nr = 5 us:
	 * 12.5 + 6 x 5 + 12.5 = 55 us. */
	ck_assert_int_eq(ml_kbinomial_eval(&p, &r), ML_OK);
	ck_assert_int_eq(r.k, 6);
	ck_assert_double_eq_tol(r.latency, 55, 1e-12);
	ck_assert_double_eq(cli_latency("kbinomial", ""), r.latency);
}
END_TEST

/* Shahrabi et al., Section 4 and Figure 1: N = 2^6, V = 2, M = 32 flits,
 * beta = 0.01, Delta = 1 cycle; lambda_g = 0.001 (the command's; the
 * paper fixes no rate).  Each field is checked in check_hypercube.c
 * (test_defaults); here, that init fills poisoned memory and agrees
 * with the command. */
START_TEST(test_hypercube)
{
	struct ml_hypercube_params p;
	struct ml_hypercube_result r;

	memset(&p, 0xff, sizeof(p));
	ml_hypercube_params_init(&p);
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
	ck_assert_double_eq(cli_latency("hypercube", ""), r.latency);
	/* Zero load: n (M + Delta) = 6 x 33 = 198 cycles. */
	p.rate = 0;
	ck_assert_int_eq(ml_hypercube_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.latency, 198, 1e-9);
	ck_assert_double_eq(cli_latency("hypercube", "--rate=0"), r.latency);
}
END_TEST

/* Oral & George: the 4 x 4 torus, G = 16, 128-byte messages; o(M) of
 * Figure 8, Table 1's t_process; Lp, Lf, Ls = 14, 60, 670 ns. */
START_TEST(test_torus)
{
	struct ml_torus_params p;
	struct ml_torus_result r;

	memset(&p, 0xff, sizeof(p));
	ml_torus_params_init(&p);
	ck_assert_int_eq(p.alg, ML_TORUS_SEP);
	ck_assert_int_eq(p.model, ML_TORUS_PAPER);
	ck_assert_int_eq(p.variant, ML_TORUS_VAR_DEFAULT);
	ck_assert_uint_eq(p.k, 4);
	ck_assert_uint_eq(p.dims, 2);
	ck_assert_uint_eq(p.group, 16);
	ck_assert_uint_eq(p.msg, 128);
	ck_assert_uint_eq(p.r, 0);
	ck_assert(isnan(p.o));
	ck_assert(isnan(p.tprocess));
	ck_assert_uint_eq(p.root, 0);
	ck_assert_int_eq(p.placement, ML_TORUS_ROWMAJOR);
	ck_assert_uint_eq(p.seed, 1);
	ck_assert_ptr_null(p.members);
	ck_assert_uint_eq(p.nmembers, 0);
	ck_assert(!p.full);
	ck_assert_double_eq(p.lp, 0.014);
	ck_assert_double_eq(p.lf, 0.060);
	ck_assert_double_eq(p.ls, 0.670);
	/* Eq 8: (G - 1)(2 o + t_process) = 15 (2 x 1.994 + 7) = 164.82 us;
	 * sep is the first row of the command's default, all. */
	ck_assert_int_eq(ml_torus_eval(&p, &r), ML_OK);
	ck_assert_double_eq_tol(r.latency, 164.82, 1e-9);
	ck_assert_double_eq(cli_latency("torus", ""), r.latency);
	/* Md-torus as well, through the same defaults. */
	p.alg = ML_TORUS_MD;
	ck_assert_int_eq(ml_torus_eval(&p, &r), ML_OK);
	ck_assert_double_eq(cli_latency("torus", "--algorithm=md"), r.latency);
}
END_TEST

/* One version: the header's macros, ml_version() and the CLI's
 * `COMMAND --version` (the Makefile and `mcastlat --version` are
 * checked against the same by tests/lib/install.sh). */
START_TEST(test_version)
{
	char want[64], *text = NULL, *err = NULL;
	char *argv[] = {(char *)"torus", (char *)"--version", NULL};
	size_t len = 0, errlen = 0;
	struct ml_ctx ctx = {0};

	snprintf(want, sizeof(want), "%d.%d.%d", MCASTLAT_VERSION_MAJOR,
		 MCASTLAT_VERSION_MINOR, MCASTLAT_VERSION_PATCH);
	ck_assert_str_eq(ml_version(), want);
	ctx.in = stdin;
	ctx.out = open_memstream(&text, &len);
	ctx.err = open_memstream(&err, &errlen);
	ck_assert_int_eq(ml_run(ml_find_command("torus"), 2, argv, &ctx), 0);
	fclose(ctx.out);
	fclose(ctx.err);
	snprintf(want, sizeof(want), "mcastlat %s\n", ml_version());
	ck_assert_str_eq(text, want);
	free(text);
	free(err);
}
END_TEST

Suite *suite_defaults(void)
{
	Suite *s = suite_create("defaults");
	TCase *tc = tcase_create("defaults");

	tcase_add_test(tc, test_cluster);
	tcase_add_test(tc, test_kbinomial);
	tcase_add_test(tc, test_hypercube);
	tcase_add_test(tc, test_torus);
	tcase_add_test(tc, test_version);
	suite_add_tcase(s, tc);
	return s;
}
