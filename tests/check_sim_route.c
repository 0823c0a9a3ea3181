/*
 * check_sim_route.c - every routing decision of dor and duato on small
 * networks (4x4 mesh, 4x4 torus with its dateline classes, 3-cube)
 * against paths worked out by hand in the comments.  Uses the internal
 * routing function (src/sim/route.c) directly.
 *
 * Node ids: id = x + 4 y on the 4x4 networks.  Ports: 0 = +x, 1 = -x,
 * 2 = +y, 3 = -y; hypercube: port d flips bit d.  Delivery ports follow
 * the network ports (P = 4 on 2-D, 3 on the 3-cube).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mcastlat/sim.h"
#include "sim/simint.h"

struct net {
	struct ml_sim_params p;
	struct topo t;
	struct rcfg rc;
};

static void net_make(struct net *n, enum ml_sim_topology topo, unsigned k,
		     unsigned dims, enum ml_sim_routing r, unsigned vcs)
{
	ml_sim_params_init(&n->p, topo);
	n->p.k = k;
	n->p.dims = dims;
	n->p.routing = r;
	n->p.vcs = vcs;
	n->p.ports = 1;
	ck_assert_int_eq(ml_topo_init(&n->t, &n->p), 0);
	ml_route_config(&n->rc, &n->t, r, vcs);
}

/* One hop of a dor walk: port and first VC of the single candidate. */
struct hop {
	unsigned port, vc0, nvc;
};

/* Walk a dor header from src to dst and compare every hop, then the
 * delivery. */
static void walk(struct net *n, unsigned src, unsigned dst,
		 const struct hop *want, unsigned nwant)
{
	struct cand c[SIM_MAX_CAND];
	unsigned node = src, wrapped = 0, i, nc;

	for (i = 0; i < nwant; i++) {
		nc = ml_route_cands(&n->t, &n->rc, node, dst, wrapped, c);
		ck_assert_uint_eq(nc, 1);
		ck_assert_msg(c[0].port == want[i].port &&
				  c[0].vc0 == want[i].vc0 &&
				  c[0].nvc == want[i].nvc,
			      "%u->%u hop %u at node %u: got port %u vc %u+%u, "
			      "want port %u vc %u+%u",
			      src, dst, i, node, c[0].port, c[0].vc0, c[0].nvc,
			      want[i].port, want[i].vc0, want[i].nvc);
		if (n->t.wrap[node * n->t.P + c[0].port])
			wrapped |= 1u << ml_topo_port_dim(&n->t, c[0].port);
		node = n->t.nbr[node * n->t.P + c[0].port];
		ck_assert_uint_ne(node, SIM_NONE);
	}
	ck_assert_uint_eq(node, dst);
	nc = ml_route_cands(&n->t, &n->rc, node, dst, wrapped, c);
	ck_assert_uint_eq(nc, 1); /* one delivery channel */
	ck_assert_uint_eq(c[0].port, n->t.P);
}

START_TEST(test_mesh_dor)
{
	struct net n;
	/* (0,0) -> (3,2): x first: +x +x +x, then +y +y; one VC class */
	const struct hop a[] = {
	    {0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {2, 0, 1}, {2, 0, 1}};
	/* (3,3) = 15 -> (1,0) = 1: -x -x, then -y -y -y */
	const struct hop b[] = {
	    {1, 0, 1}, {1, 0, 1}, {3, 0, 1}, {3, 0, 1}, {3, 0, 1}};
	/* (2,1) = 6 -> (2,3) = 14: x done, +y +y */
	const struct hop c[] = {{2, 0, 1}, {2, 0, 1}};
	/* 2 VCs: both usable (one class) */
	const struct hop d[] = {{1, 0, 2}, {3, 0, 2}};

	net_make(&n, ML_SIM_MESH, 4, 2, ML_SIM_DOR, 1);
	walk(&n, 0, 11, a, 5);
	walk(&n, 15, 1, b, 5);
	walk(&n, 6, 14, c, 2);
	ml_topo_free(&n.t);
	net_make(&n, ML_SIM_MESH, 4, 2, ML_SIM_DOR, 2);
	walk(&n, 5, 0, d, 2);
	ml_topo_free(&n.t);
}
END_TEST

START_TEST(test_torus_dor_dateline)
{
	struct net n;
	/* V = 2: class 0 = VC 0, class 1 = VC 1.
	 * (3,0) = 3 -> (1,0) = 1: offset (1 - 3) mod 4 = 2, a tie: +x.
	 * (3,0) -> (0,0) is the wraparound: class 1; (0,0) -> (1,0) stays
	 * class 1 (already wrapped in x). */
	const struct hop a[] = {{0, 1, 1}, {0, 1, 1}};
	/* (1,1) = 5 -> (0,3) = 12: x offset 3 > 2: -x, (1,1) -> (0,1) no
	 * wrap: class 0; y offset 2, tie: +y (0,1)->(0,2)->(0,3), class 0. */
	const struct hop b[] = {{1, 0, 1}, {2, 0, 1}, {2, 0, 1}};
	/* (0,2) = 8 -> (3,1) = 7: x offset 3: -x, (0,2) -> (3,2) is the
	 * wraparound: class 1; then y offset 3: -y (3,2) -> (3,1): a new
	 * dimension, class 0. */
	const struct hop c[] = {{1, 1, 1}, {3, 0, 1}};
	/* (2,3) = 14 -> (1,0) = 1: x offset 3: -x (2,3)->(1,3) class 0;
	 * y offset (0 - 3) mod 4 = 1: +y (1,3) -> (1,0) wraps: class 1. */
	const struct hop d[] = {{1, 0, 1}, {2, 1, 1}};
	/* V = 4: class 0 = VCs 0, 1; class 1 = VCs 2, 3; V = 3: class 0 =
	 * VCs 0, 1, class 1 = VC 2 (the extra VC goes to class 0). */
	const struct hop e[] = {{0, 2, 2}, {0, 2, 2}};
	const struct hop f[] = {{1, 0, 2}, {2, 0, 2}, {2, 0, 2}};
	const struct hop g[] = {{0, 2, 1}, {0, 2, 1}};

	net_make(&n, ML_SIM_TORUS, 4, 2, ML_SIM_DOR, 2);
	walk(&n, 3, 1, a, 2);
	walk(&n, 5, 12, b, 3);
	walk(&n, 8, 7, c, 2);
	walk(&n, 14, 1, d, 2);
	ml_topo_free(&n.t);
	net_make(&n, ML_SIM_TORUS, 4, 2, ML_SIM_DOR, 4);
	walk(&n, 3, 1, e, 2);
	walk(&n, 5, 12, f, 3);
	ml_topo_free(&n.t);
	net_make(&n, ML_SIM_TORUS, 4, 2, ML_SIM_DOR, 3);
	walk(&n, 3, 1, g, 2);
	ml_topo_free(&n.t);
}
END_TEST

START_TEST(test_cube_dor)
{
	struct net n;
	/* 3-cube, 6 = 110 -> 1 = 001: bits 0, 1, 2 all differ: ports 0,
	 * 1, 2 in order (nodes 6 -> 7 -> 5 -> 1). */
	const struct hop a[] = {{0, 0, 2}, {1, 0, 2}, {2, 0, 2}};
	/* 2 = 010 -> 6 = 110: only bit 2 */
	const struct hop b[] = {{2, 0, 2}};

	net_make(&n, ML_SIM_HYPERCUBE, 2, 3, ML_SIM_DOR, 2);
	walk(&n, 6, 1, a, 3);
	walk(&n, 2, 6, b, 1);
	ml_topo_free(&n.t);
}
END_TEST

/* Duato: candidate list = adaptive sets (in dimension order, + before
 * - on a torus tie), then the escape VC. */
static void expect(struct net *n, unsigned node, unsigned dst, unsigned wrapped,
		   const struct cand *want, unsigned nwant)
{
	struct cand c[SIM_MAX_CAND];
	unsigned nc = ml_route_cands(&n->t, &n->rc, node, dst, wrapped, c), i;

	ck_assert_uint_eq(nc, nwant);
	for (i = 0; i < nc; i++)
		ck_assert_msg(c[i].port == want[i].port &&
				  c[i].vc0 == want[i].vc0 &&
				  c[i].nvc == want[i].nvc &&
				  c[i].escape == want[i].escape,
			      "%u->%u cand %u: got %u/%u+%u/%u", node, dst, i,
			      c[i].port, c[i].vc0, c[i].nvc, c[i].escape);
}

START_TEST(test_duato)
{
	struct net n;
	/* 3-cube V = 2: VC 1 adaptive, VC 0 escape.
	 * 0 -> 7: adaptive on ports 0, 1, 2; escape port 0. */
	const struct cand a[] = {
	    {0, 1, 1, 0}, {1, 1, 1, 0}, {2, 1, 1, 0}, {0, 0, 1, 1}};
	/* 5 = 101 -> 6 = 110: bits 0 and 1; escape port 0 */
	const struct cand b[] = {{0, 1, 1, 0}, {1, 1, 1, 0}, {0, 0, 1, 1}};
	/* 4 -> 6 = bit 1 only, V = 4: adaptive VCs 1..3 */
	const struct cand c[] = {{1, 1, 3, 0}, {1, 0, 1, 1}};
	/* 4x4 mesh V = 2: (1,1) = 5 -> (3,0) = 3: +x and -y adaptive;
	 * escape +x (dor) */
	const struct cand d[] = {{0, 1, 1, 0}, {3, 1, 1, 0}, {0, 0, 1, 1}};
	/* 4x4 torus V = 3: VCs 0, 1 escape (dateline classes), VC 2
	 * adaptive.  (0,0) -> (2,1) = 6: x offset 2 is a tie: both +x and
	 * -x are minimal; y +1; escape +x class 0 (no wrap at x = 0 going
	 * +). */
	const struct cand e[] = {
	    {0, 2, 1, 0}, {1, 2, 1, 0}, {2, 2, 1, 0}, {0, 0, 1, 1}};
	/* (3,0) = 3 -> (1,0) = 1: tie, both ways adaptive; escape +x is the
	 * wraparound: class 1 = VC 1 */
	const struct cand f[] = {{0, 2, 1, 0}, {1, 2, 1, 0}, {0, 1, 1, 1}};
	/* (0,1) = 4 -> (1,1) = 5 for a header that came from (3,1) over
	 * the x wraparound (wrapped bit 0 set): escape +x, class 1 */
	const struct cand g[] = {{0, 2, 1, 0}, {0, 1, 1, 1}};
	/* same without the wrap bit: class 0 */
	const struct cand h[] = {{0, 2, 1, 0}, {0, 0, 1, 1}};
	/* at the destination: the delivery channel */
	const struct cand i[] = {{4, 0, 1, 0}};

	net_make(&n, ML_SIM_HYPERCUBE, 2, 3, ML_SIM_DUATO, 2);
	expect(&n, 0, 7, 0, a, 4);
	expect(&n, 5, 6, 0, b, 3);
	ml_topo_free(&n.t);
	net_make(&n, ML_SIM_HYPERCUBE, 2, 3, ML_SIM_DUATO, 4);
	expect(&n, 4, 6, 0, c, 2);
	ml_topo_free(&n.t);
	net_make(&n, ML_SIM_MESH, 4, 2, ML_SIM_DUATO, 2);
	expect(&n, 5, 3, 0, d, 3);
	ml_topo_free(&n.t);
	net_make(&n, ML_SIM_TORUS, 4, 2, ML_SIM_DUATO, 3);
	expect(&n, 0, 6, 0, e, 4);
	expect(&n, 3, 1, 0, f, 3);
	expect(&n, 4, 5, 1, g, 2);
	expect(&n, 4, 5, 0, h, 2);
	expect(&n, 9, 9, 0, i, 1);
	ml_topo_free(&n.t);
}
END_TEST

START_TEST(test_topology)
{
	struct net n;

	/* 4x4 torus: (0,0) and (2,2) are 4 apart, the diameter */
	net_make(&n, ML_SIM_TORUS, 4, 2, ML_SIM_DOR, 2);
	ck_assert_uint_eq(ml_topo_distance(&n.t, 0, 10), 4);
	ck_assert_uint_eq(ml_topo_distance(&n.t, 0, 15), 2);
	ck_assert_uint_eq(n.t.diameter, 4);
	/* (3,y) +x wraps to (0,y) */
	ck_assert_uint_eq(n.t.nbr[7 * 4 + 0], 4);
	ck_assert(n.t.wrap[7 * 4 + 0]);
	ck_assert(!n.t.wrap[6 * 4 + 0]);
	ml_topo_free(&n.t);
	net_make(&n, ML_SIM_MESH, 4, 2, ML_SIM_DOR, 1);
	ck_assert_uint_eq(ml_topo_distance(&n.t, 0, 15), 6);
	ck_assert_uint_eq(n.t.nbr[3 * 4 + 0], SIM_NONE); /* east edge */
	ck_assert_uint_eq(n.t.diameter, 6);
	/* dimension order: dim 0 most significant: (1,0) = 1 is 5th */
	ck_assert_uint_eq(n.t.rank[1], 4);
	ck_assert_uint_eq(n.t.sorted[4], 1);
	ml_topo_free(&n.t);
	net_make(&n, ML_SIM_HYPERCUBE, 2, 3, ML_SIM_DUATO, 2);
	ck_assert_uint_eq(ml_topo_distance(&n.t, 3, 4), 3);
	ck_assert_uint_eq(n.t.nbr[5 * 3 + 1], 7);
	ml_topo_free(&n.t);
}
END_TEST

/* The selection function on a 3-cube, V = 3 (VC 0 escape, 1-2
 * adaptive), from node 0 to 3 (ports 0 and 1 minimal, escape port 0):
 * a random free adaptive VC, all four about equally often; only the
 * escape VC when every adaptive one is taken; none when that is taken
 * too.  Dor: the first free VC of the candidate range. */
START_TEST(test_select)
{
	struct net n;
	struct sim s;
	struct cand c[SIM_MAX_CAND];
	unsigned nc, i, hits[12] = {0};
	uint32_t o;

	net_make(&n, ML_SIM_HYPERCUBE, 2, 3, ML_SIM_DUATO, 3);
	memset(&s, 0, sizeof(s));
	s.t = n.t;
	s.rc = n.rc;
	s.V = 3;
	s.nvc_node = (n.t.P + n.t.L) * 3; /* 4 ports (3 + 1 delivery) */
	s.rng = gsl_rng_alloc(gsl_rng_mt19937);
	s.ov = calloc((size_t)n.t.N * s.nvc_node, sizeof(*s.ov));
	for (i = 0; i < n.t.N * s.nvc_node; i++)
		s.ov[i].owner = SIM_NONE;
	nc = ml_route_cands(&n.t, &n.rc, 0, 3, 0, c);
	ck_assert_uint_eq(nc, 3);
	for (i = 0; i < 4000; i++) {
		o = ml_net_select(&s, 0, c, nc);
		ck_assert_uint_lt(o, 12);
		hits[o]++;
	}
	/* port 0 VCs 1, 2 = ids 1, 2; port 1 VCs 1, 2 = ids 4, 5 */
	ck_assert(hits[1] > 800 && hits[2] > 800 && hits[4] > 800 &&
		  hits[5] > 800);
	ck_assert_uint_eq(hits[0] + hits[3], 0);
	s.ov[1].owner = s.ov[2].owner = s.ov[4].owner = 7;
	ck_assert_uint_eq(ml_net_select(&s, 0, c, nc), 5);
	s.ov[5].owner = 7;
	ck_assert_uint_eq(ml_net_select(&s, 0, c, nc), 0); /* escape */
	s.ov[0].owner = 7;
	ck_assert_uint_eq(ml_net_select(&s, 0, c, nc), SIM_NONE);
	/* dor: candidate port 0, VCs 0..2, first free */
	s.rc.routing = ML_SIM_DOR;
	ml_route_config(&s.rc, &n.t, ML_SIM_DOR, 3);
	nc = ml_route_cands(&n.t, &s.rc, 0, 3, 0, c);
	ck_assert_uint_eq(nc, 1);
	s.ov[0].owner = s.ov[1].owner = SIM_NONE;
	ck_assert_uint_eq(ml_net_select(&s, 0, c, nc), 0);
	s.ov[0].owner = 7;
	ck_assert_uint_eq(ml_net_select(&s, 0, c, nc), 1);
	free(s.ov);
	gsl_rng_free(s.rng);
	ml_topo_free(&n.t);
}
END_TEST

Suite *suite_sim_route(void);

Suite *suite_sim_route(void)
{
	Suite *s = suite_create("sim_route");
	TCase *tc = tcase_create("route");

	tcase_add_test(tc, test_mesh_dor);
	tcase_add_test(tc, test_torus_dor_dateline);
	tcase_add_test(tc, test_cube_dor);
	tcase_add_test(tc, test_duato);
	tcase_add_test(tc, test_topology);
	tcase_add_test(tc, test_select);
	suite_add_tcase(s, tc);
	return s;
}
