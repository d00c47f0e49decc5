/*
 * test_sbp.c - the sbp family: boxing costs against hand-computed tables
 * (1-D, different placements, penalty policies, the 2-D rule), signature
 * tables, the legality checker, every planner checked and never below the
 * ILP optimum, DP = ILP = elimination on chains, the analytic DP/TP
 * crossover, and bad input.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "lp.h"
#include "sbp/sbp.h"
#include "tests/testutil.h"
#include "workloads/sbp/models.h"

#define MiB (1024.0 * 1024.0)

static struct sb_sbp S(int a) { struct sb_sbp x = { SB_SBP_S, (signed char)a }; return x; }
static const struct sb_sbp B = { SB_SBP_B, 0 }, P = { SB_SBP_P, 0 };
static const struct sb_sbp_net net = { 5e-6, 25e9 };

static struct sb_sbp_nd nd(struct sb_sbp a, struct sb_sbp b)
{
	struct sb_sbp_nd x;
	x.d[0] = a;
	x.d[1] = b;
	return x;
}

/* ------------------------------------------------------------------ */
/* Boxing                                                              */
/* ------------------------------------------------------------------ */

Test(sbp, boxing_1d_p4_one_mib)
{
	double T = MiB;
	cr_assert_eq(sb_sbp_box_1d(P, B, T, 4, 4, 1, 2), 6 * MiB);   /* the example */
	cr_assert_eq(sb_sbp_box_1d(S(0), B, T, 4, 4, 1, 2), 3 * MiB);
	cr_assert_eq(sb_sbp_box_1d(P, S(1), T, 4, 4, 1, 2), 3 * MiB);
	cr_assert_eq(sb_sbp_box_1d(S(0), S(1), T, 4, 4, 1, 2), 0.75 * MiB);
	cr_assert_eq(sb_sbp_box_1d(B, S(0), T, 4, 4, 1, 2), 1);
	cr_assert_eq(sb_sbp_box_1d(S(1), S(1), T, 4, 4, 1, 2), 0);
	cr_assert_eq(sb_sbp_box_1d(P, P, T, 4, 4, 1, 2), 0);
	cr_assert_eq(sb_sbp_box_1d(B, B, T, 4, 4, 1, 2), 0);
	/* any -> P: the penalty policies */
	cr_assert_eq(sb_sbp_box_1d(B, P, T, 4, 4, 1, 2), 32 * MiB);
	cr_assert_eq(sb_sbp_box_1d(S(0), P, T, 4, 4, 1, 1), 1);
	cr_assert_geq(sb_sbp_box_1d(S(0), P, T, 4, 4, 1, 3), SB_SBP_INF);
}

Test(sbp, boxing_1d_every_p)
{
	int p;
	double T = 3e6;
	for (p = 2; p <= 8; p++) {
		cr_assert_float_eq(sb_sbp_box_1d(P, B, T, p, p, 1, 2), 2.0 * (p - 1) * T, 1e-6);
		cr_assert_float_eq(sb_sbp_box_1d(S(0), B, T, p, p, 1, 2), (p - 1) * T, 1e-6);
		cr_assert_float_eq(sb_sbp_box_1d(P, S(0), T, p, p, 1, 2), (p - 1) * T, 1e-6);
		cr_assert_float_eq(sb_sbp_box_1d(S(1), S(0), T, p, p, 1, 2), (p - 1) * T / p, 1e-6);
		cr_assert_float_eq(sb_sbp_box_1d(S(1), P, T, p, p, 1, 2), 8.0 * p * T, 1e-6);
	}
}

Test(sbp, boxing_different_placements)
{
	double T = MiB;
	/* producer on 2 devices, consumer on 4 */
	cr_assert_eq(sb_sbp_box_1d(S(0), S(0), T, 2, 4, 0, 2), T);
	cr_assert_eq(sb_sbp_box_1d(B, S(1), T, 2, 4, 0, 2), T);
	cr_assert_eq(sb_sbp_box_1d(S(0), B, T, 2, 4, 0, 2), 4 * T);
	cr_assert_eq(sb_sbp_box_1d(B, B, T, 2, 4, 0, 2), 4 * T);
	cr_assert_eq(sb_sbp_box_1d(P, S(0), T, 2, 4, 0, 2), 2 * T);
	cr_assert_eq(sb_sbp_box_1d(P, B, T, 2, 4, 0, 2), 5 * T);
	cr_assert_eq(sb_sbp_box_1d(S(0), P, T, 2, 4, 0, 1), T + 1);
	cr_assert_eq(sb_sbp_box_1d(P, P, T, 2, 4, 0, 2), 2 * T + 4 * T * 6);
}

Test(sbp, boxing_2d_rule)
{
	struct sb_sbp_place pl;
	struct sb_sbp_nd a, b;
	struct sb_err err;
	double T = MiB;
	cr_assert_eq(sb_sbp_place_parse(&pl, "2x4", 8, "h", &err), 0, "%s", err.msg);
	/* shared axis 0 split: the 1-D cost on axis 1 (p = 4), |T| unscaled */
	a = nd(S(0), B), b = nd(S(0), S(1));
	cr_assert_eq(sb_sbp_box(&a, &b, T, &pl, 2), 1);
	a = nd(S(0), P), b = nd(S(0), B);
	cr_assert_eq(sb_sbp_box(&a, &b, T, &pl, 2), 6 * T);
	/* shared axis 0 not split: |T| times its size (2) */
	a = nd(B, P), b = nd(B, B);
	cr_assert_eq(sb_sbp_box(&a, &b, T, &pl, 2), 12 * T);
	/* shared axis 1 split: axis 0 changes on groups of 2 */
	a = nd(P, S(0)), b = nd(B, S(0));
	cr_assert_eq(sb_sbp_box(&a, &b, T, &pl, 2), 2 * T);
	/* both axes differ: the two-step path, 8|T| + 12|T| either way */
	a = nd(P, P), b = nd(B, B);
	cr_assert_eq(sb_sbp_box(&a, &b, T, &pl, 2), 20 * T);
	cr_assert_eq(sb_sbp_box(&a, &a, T, &pl, 2), 0);
	/* p not matching the hierarchy is an error */
	cr_assert_eq(sb_sbp_place_parse(&pl, "2x4", 4, "--hierarchy", &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "p = 4"));
	cr_assert_eq(sb_sbp_place_parse(&pl, "2xq", 0, "--hierarchy", &err), SB_EXIT_INPUT);
}

Test(sbp, boxing_time_alpha_beta)
{
	struct sb_sbp_place pl;
	struct sb_sbp_nd a = nd(P, B), b = nd(B, B), c = nd(S(0), B);
	double T = 8e6;
	sb_sbp_place_1d(&pl, 4);
	cr_assert_float_eq(sb_sbp_box_time(&a, &b, T, &pl, &net), 6 * (5e-6 + T / 4 / 25e9), 1e-15);
	cr_assert_float_eq(sb_sbp_box_time(&c, &b, T, &pl, &net), 3 * (5e-6 + T / 4 / 25e9), 1e-15);
	cr_assert_eq(sb_sbp_box_time(&b, &c, T, &pl, &net), 0);
}

/* ------------------------------------------------------------------ */
/* Signature tables                                                    */
/* ------------------------------------------------------------------ */

static int has_sig(const struct sb_sbp_op *op, struct sb_sbp a, struct sb_sbp b, struct sb_sbp y)
{
	int s;
	for (s = 0; s < op->nsig; s++) {
		const struct sb_sbp_sig *g = &op->sig[s];
		if (sb_sbp_nd_eq(&g->in[0], &(struct sb_sbp_nd){ { a, B } }, 1) &&
		    (op->nin < 2 || sb_sbp_nd_eq(&g->in[1], &(struct sb_sbp_nd){ { b, B } }, 1)) &&
		    sb_sbp_nd_eq(&g->out, &(struct sb_sbp_nd){ { y, B } }, 1))
			return 1;
	}
	return 0;
}

Test(sbp, signature_tables)
{
	struct sb_sbp_graph g;
	struct sb_sbp_place pl;
	struct sb_err err;
	int mm, ge, sm;
	sb_sbp_place_1d(&pl, 2);
	sb_sbp_graph_init(&g, "t");
	sb_sbp_build_mlp(&g, 1, 64, 32, 0);
	cr_assert_eq(sb_sbp_graph_finish(&g, &pl, &err), 0, "%s", err.msg);
	mm = 2, ge = 3;
	cr_assert_eq(g.op[mm].kind, SB_OP_MATMUL);
	cr_assert_eq(g.op[mm].nsig, 6);
	cr_assert(has_sig(&g.op[mm], S(0), B, S(0)));
	cr_assert(has_sig(&g.op[mm], B, S(1), S(1)));
	cr_assert(has_sig(&g.op[mm], S(1), S(0), P));
	cr_assert(has_sig(&g.op[mm], P, B, P));
	cr_assert(has_sig(&g.op[mm], B, P, P));
	cr_assert(has_sig(&g.op[mm], B, B, B));
	cr_assert_eq(g.op[ge].nsig, 3);   /* S(0), S(1), B: no P -> P */
	cr_assert(!has_sig(&g.op[ge], P, B, P));
	/* matmul compute: 2 |A| n, divided when A or B is split */
	cr_assert_float_eq(g.op[mm].sig[0].flops, 2.0 * 64 * 32 * 32 / 2, 1e-6);
	sb_sbp_graph_release(&g);

	/* 2-D: the Cartesian product; softmax has no S on its last axis */
	sb_sbp_place_parse(&pl, "2x2", 4, "h", &err);
	sb_sbp_graph_init(&g, "t");
	sb_sbp_build_gpt(&g, 1, 4, 8, 32, 4, 0);
	cr_assert_eq(sb_sbp_graph_finish(&g, &pl, &err), 0, "%s", err.msg);
	for (sm = 0; g.op[sm].kind != SB_OP_SOFTMAX; sm++)
		;
	cr_assert_eq(g.op[sm].nsig, 16);   /* (S0, S1, S2, B)^2 */
	cr_assert_eq(g.op[2].kind, SB_OP_VARIABLE);
	sb_sbp_graph_release(&g);

	/* the shape filter: 1 token cannot be split */
	sb_sbp_place_1d(&pl, 2);
	sb_sbp_graph_init(&g, "t");
	sb_sbp_build_mlp(&g, 1, 1, 32, 0);
	cr_assert_eq(sb_sbp_graph_finish(&g, &pl, &err), 0, "%s", err.msg);
	cr_assert_eq(g.op[2].nsig, 5);
	cr_assert_eq(g.op[2].nall, 6);
	sb_sbp_graph_release(&g);
}

/* ------------------------------------------------------------------ */
/* The checker                                                         */
/* ------------------------------------------------------------------ */

Test(sbp, checker_rejects_broken_plans)
{
	struct sb_sbp_graph g;
	struct sb_sbp_place pl;
	struct sb_sbp_plan p;
	struct sb_err err;
	struct sb_opts o;
	const struct sb_sbp_planner *dp = sb_sbp_planner_find("data-parallel");
	char why[512];
	int b;

	sb_sbp_place_1d(&pl, 4);
	sb_sbp_graph_init(&g, "t");
	sb_sbp_build_mlp(&g, 2, 256, 64, 1);
	cr_assert_eq(sb_sbp_graph_finish(&g, &pl, &err), 0, "%s", err.msg);
	sb_opts_defaults(&o, dp->params);
	cr_assert_eq(sb_sbp_run(&g, dp, &o, &net, &p, &err), 0, "%s", err.msg);
	cr_assert_gt(p.nbox, 0);
	cr_assert_eq(sb_sbp_check(&g, &p, why, sizeof why), 0, "%s", why);
	/* a missing boxing op */
	p.nbox--;
	cr_assert_eq(sb_sbp_check(&g, &p, why, sizeof why), -1);
	cr_assert(strstr(why, "no boxing op"), "%s", why);
	p.nbox++;
	/* a boxing op at the wrong price */
	p.box[0].bytes *= 0.5;
	cr_assert_eq(sb_sbp_check(&g, &p, why, sizeof why), -1);
	p.box[0].bytes *= 2;
	/* a wrong total */
	p.cost += 1;
	cr_assert_eq(sb_sbp_check(&g, &p, why, sizeof why), -1);
	p.cost -= 1;
	cr_assert_eq(sb_sbp_check(&g, &p, why, sizeof why), 0, "%s", why);
	/* an op whose SBPs are no signature of its kind (gelu with P) */
	for (b = 0; g.op[b].kind != SB_OP_GELU; b++)
		;
	g.op[b].sig[p.sig[b]].out.d[0] = P;
	g.op[b].sig[p.sig[b]].in[0].d[0] = P;
	cr_assert_eq(sb_sbp_check(&g, &p, why, sizeof why), -1);
	cr_assert(strstr(why, "not a signature"), "%s", why);
	sb_sbp_plan_release(&p);
	sb_sbp_graph_release(&g);
}

/* ------------------------------------------------------------------ */
/* Planners against the ILP                                            */
/* ------------------------------------------------------------------ */

static double ilp_opt(const struct sb_sbp_graph *g)
{
	struct sb_sbp_ilp_opts io = { 0 };
	struct sb_sbp_ilp_result res;
	struct sb_err err;
	int *sig = SB_NEW(int, g->nop);
	io.node_limit = 100000;
	cr_assert_eq(sb_sbp_ilp(g, &io, sig, &res, &err), 0, "%s", err.msg);
	cr_assert_eq(res.status, 0, "ILP not proven optimal on %s", g->name);
	cr_assert_float_eq(sb_sbp_assign_cost(g, sig), res.obj, 1e-6 * (1 + res.obj));
	sb_free(sig);
	return res.obj;
}

static void every_planner(const struct sb_sbp_graph *g, double opt)
{
	int n, i;
	const struct sb_sbp_planner *const *pl = sb_sbp_planners(&n);
	cr_assert_geq(n, 7);
	for (i = 0; i < n; i++) {
		struct sb_sbp_plan p;
		struct sb_opts o;
		struct sb_err err;
		int rc;
		sb_opts_defaults(&o, pl[i]->params);
		rc = sb_sbp_run(g, pl[i], &o, &net, &p, &err);
		if (pl[i]->trees_only && !sb_sbp_is_tree(g)) {
			cr_assert_eq(rc, SB_EXIT_INPUT, "%s on %s", pl[i]->name, g->name);
			continue;
		}
		cr_assert_eq(rc, 0, "%s on %s: %s", pl[i]->name, g->name, err.msg);
		cr_assert_geq(p.cost, opt * (1 - 1e-9), "%s on %s: %.17g below the optimum %.17g",
			      pl[i]->name, g->name, p.cost, opt);
		sb_sbp_plan_release(&p);
	}
}

Test(sbp, every_planner_legal_and_not_below_the_ilp, .timeout = 120)
{
	static const char *hier[] = { "2", "4", "8", "2x4", "4x2" };
	int k, m;
	for (k = 0; k < 5; k++)
		for (m = 0; m < 3; m++) {
			struct sb_sbp_graph g;
			struct sb_sbp_place pl;
			struct sb_err err;
			sb_sbp_graph_init(&g, "t");
			cr_assert_eq(sb_sbp_place_parse(&pl, hier[k], 0, "h", &err), 0);
			if (m == 0)
				sb_sbp_build_mlp(&g, 3, 1024, 512, 1);
			else if (m == 1)
				sb_sbp_build_gpt(&g, 1, 2, 256, 512, 8, 1);
			else
				sb_sbp_build_gpt(&g, 1, 8, 512, 256, 8, 1);
			cr_assert_eq(sb_sbp_graph_finish(&g, &pl, &err), 0, "%s", err.msg);
			every_planner(&g, ilp_opt(&g));
			sb_sbp_graph_release(&g);
		}
}

Test(sbp, dp_equals_ilp_equals_elimination_on_chains, .timeout = 120)
{
	static const char *hier[] = { "2", "4", "8", "2x4" };
	const struct sb_sbp_planner *dp = sb_sbp_planner_find("tree-dp");
	const struct sb_sbp_planner *el = sb_sbp_planner_find("elim");
	int k;
	cr_assert(dp && el);
	for (k = 0; k < 40; k++) {
		struct sb_rng r = sb_rng_stream(17, (uint64_t)k, 0, SB_RNG_TEST);
		struct sb_sbp_graph g;
		struct sb_sbp_place pl;
		struct sb_sbp_plan a, b;
		struct sb_opts o1, o2;
		struct sb_err err;
		double opt;
		sb_sbp_graph_init(&g, "chain");
		if (k % 5 == 4)
			sb_sbp_build_mlp(&g, 1 + k % 7, 512, 256, 0);
		else
			sb_sbp_build_chain(&g, 2 + k % 9, &r);
		sb_sbp_place_parse(&pl, hier[k % 4], 0, "h", &err);
		cr_assert_eq(sb_sbp_graph_finish(&g, &pl, &err), 0, "%s", err.msg);
		cr_assert(sb_sbp_is_tree(&g));
		opt = ilp_opt(&g);
		sb_opts_defaults(&o1, dp->params);
		sb_opts_defaults(&o2, el->params);
		cr_assert_eq(sb_sbp_run(&g, dp, &o1, &net, &a, &err), 0, "%s", err.msg);
		cr_assert_eq(sb_sbp_run(&g, el, &o2, &net, &b, &err), 0, "%s", err.msg);
		cr_assert_float_eq(a.cost, opt, 1e-7 * (1 + opt), "%s: DP %.17g, ILP %.17g", g.name,
				   a.cost, opt);
		cr_assert_float_eq(b.cost, opt, 1e-7 * (1 + opt), "%s: elim %.17g, ILP %.17g", g.name,
				   b.cost, opt);
		sb_sbp_plan_release(&a);
		sb_sbp_plan_release(&b);
		sb_sbp_graph_release(&g);
	}
}

/* Per GPT block: data parallel all-reduces 12 h^2 parameters (24 (p-1)
 * h^2 x 4 bytes), Megatron 4 activations of b s h (8 (p-1) b s h x 4). */
Test(sbp, analytic_crossover)
{
	const struct sb_sbp_planner *dp = sb_sbp_planner_find("data-parallel");
	const struct sb_sbp_planner *tp = sb_sbp_planner_find("megatron");
	const struct sb_sbp_planner *il = sb_sbp_planner_find("ilp");
	int64_t h = 1024, T;
	int p = 8;
	for (T = 512; T <= 16384; T *= 2) {
		struct sb_sbp_graph g;
		struct sb_sbp_place pl;
		struct sb_sbp_plan a, b, c;
		struct sb_opts o;
		struct sb_err err;
		double want_dp = 24.0 * (p - 1) * h * h * 4, want_tp = 8.0 * (p - 1) * T * h * 4;
		sb_sbp_graph_init(&g, "gpt");
		sb_sbp_build_gpt(&g, 2, 8, T / 8, h, 8, 1);
		sb_sbp_place_1d(&pl, p);
		cr_assert_eq(sb_sbp_graph_finish(&g, &pl, &err), 0, "%s", err.msg);
		sb_opts_defaults(&o, NULL);
		cr_assert_eq(sb_sbp_run(&g, dp, &o, &net, &a, &err), 0, "%s", err.msg);
		cr_assert_eq(sb_sbp_run(&g, tp, &o, &net, &b, &err), 0, "%s", err.msg);
		sb_opts_defaults(&o, il->params);
		cr_assert_eq(sb_sbp_run(&g, il, &o, &net, &c, &err), 0, "%s", err.msg);
		/* 2 blocks; within a few tie-break bytes */
		cr_assert_float_eq(a.bytes, 2 * want_dp, 64, "DP bytes %.17g", a.bytes);
		/* TP: the blocks' all-reduces, except the first block's input
		 * gradient (no backward all-reduce into the data) */
		cr_assert_float_eq(b.bytes, 2 * want_tp - want_tp / 4, 64 + 1e-9 * want_tp,
				   "TP bytes %.17g (T %lld)", b.bytes, (long long)T);
		/* the ILP: mostly tensor parallel well below 3h, data parallel
		 * well above */
		if (T * 2 < 3 * h)
			cr_assert_gt(c.tp_frac, 0.5, "T %lld: tp %.3f", (long long)T, c.tp_frac);
		if (T > 2 * 3 * h)
			cr_assert_lt(c.tp_frac, 0.5, "T %lld: tp %.3f", (long long)T, c.tp_frac);
		sb_sbp_plan_release(&a);
		sb_sbp_plan_release(&b);
		sb_sbp_plan_release(&c);
		sb_sbp_graph_release(&g);
	}
}

/* ------------------------------------------------------------------ */
/* Bad input                                                           */
/* ------------------------------------------------------------------ */

static int load(const char *text, struct sb_err *err)
{
	struct sb_sbp_graph g;
	struct sb_sbp_place pl;
	int rc;
	sb_sbp_place_1d(&pl, 2);
	rc = sb_sbp_load_graph(&g, sb_test_write(text), &pl, err);
	if (!rc)
		sb_sbp_graph_release(&g);
	return rc;
}

Test(sbp, graph_files_and_their_errors)
{
	struct sb_err err;
	cr_assert_eq(load("# an MLP layer\nx input - 64x32\nw variable - 32x16 role=col\n"
			  "y matmul x,w 64x16\nz gelu y 64x16\n", &err), 0, "%s", err.msg);
	cr_assert_eq(load("x input - 64x32\ny conv x 64x32\n", &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "line 2") && strstr(err.msg, "kind") && strstr(err.msg, "conv"),
		  "%s", err.msg);
	cr_assert_eq(load("x input - 64x32\nw variable - 16x16\ny matmul x,w 64x16\n", &err),
		     SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "line 3") && strstr(err.msg, "inner dimensions"), "%s", err.msg);
	cr_assert_eq(load("x input - 64x32\ny gelu x 64x31\n", &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "line 2") && strstr(err.msg, "shape"), "%s", err.msg);
	cr_assert_eq(load("x input - 64x0\n", &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "line 1") && strstr(err.msg, "shape"), "%s", err.msg);
	cr_assert_eq(load("y gelu x 64x32\n", &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "inputs"), "%s", err.msg);
	cr_assert_eq(load("x input - 64x32 role=diagonal\n", &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "role"), "%s", err.msg);
	cr_assert_eq(load("w variable - 4x4 loop=nowhere\n", &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "loop"), "%s", err.msg);
	cr_assert_eq(load("", &err), SB_EXIT_INPUT);
}

/* ------------------------------------------------------------------ */
/* The ILP's per-device memory row                                     */
/* ------------------------------------------------------------------ */

/* Brute force over every assignment of a small graph: the least cost
 * among those whose per-device memory (the sum the plans report) is at
 * most mem (mem < 0: no limit), +inf when none; *mmin gets the least
 * memory of any supported assignment. */
static double brute_force(const struct sb_sbp_graph *g, double mem, double *mmin)
{
	int *sig = SB_NEW(int, g->nop), o;
	double best = INFINITY;
	*mmin = INFINITY;
	for (;;) {
		double c = sb_sbp_assign_cost(g, sig), m = 0;
		for (o = 0; o < g->nop; o++)
			m += g->op[o].sig[sig[o]].mem;
		if (isfinite(c)) {
			if (m < *mmin)
				*mmin = m;
			if ((mem < 0 || m <= mem) && c < best)
				best = c;
		}
		for (o = 0; o < g->nop && ++sig[o] == g->op[o].nsig; o++)
			sig[o] = 0;
		if (o == g->nop)
			break;
	}
	sb_free(sig);
	return best;
}

/* With the memory row, the ILP's optimum equals the brute-force optimum
 * under the same budget, its plan (recomputed by plan_from, as the
 * experiments record it) fits, a budget at the least memory is still
 * feasible and one just below it is proven infeasible. Budgets between
 * the least memory and the unconstrained optimum's force other plans, so
 * the row is seen to bind. */
Test(sbp, ilp_memory_row_equals_brute_force, .timeout = 120)
{
	int k, bound_seen = 0;
	for (k = 0; k < 12; k++) {
		struct sb_rng r = sb_rng_stream(29, (uint64_t)k, 0, SB_RNG_TEST);
		struct sb_sbp_graph g;
		struct sb_sbp_place pl;
		struct sb_err err;
		double space = 1, mmin, free_opt, m0, budgets[4];
		int o, j, *sig;
		sb_sbp_graph_init(&g, "memchain");
		if (k % 4 == 3)
			sb_sbp_build_mlp(&g, 1, 512, 256, 1);
		else
			sb_sbp_build_chain(&g, 1 + k % 3, &r);
		sb_sbp_place_parse(&pl, k % 2 ? "4" : "2", 0, "h", &err);
		cr_assert_eq(sb_sbp_graph_finish(&g, &pl, &err), 0, "%s", err.msg);
		for (o = 0; o < g.nop; o++)
			space *= g.op[o].nsig;
		/* keeps the enumeration honest: a model that grows fails here
		 * rather than running for ever */
		cr_assert_leq(space, 3e6, "graph %d: %g assignments", k, space);
		sig = SB_NEW(int, g.nop);
		{
			/* the unconstrained optimum and its memory */
			struct sb_sbp_ilp_opts io = { 0 };
			struct sb_sbp_ilp_result res;
			io.node_limit = 100000;
			cr_assert_eq(sb_sbp_ilp(&g, &io, sig, &res, &err), 0, "%s", err.msg);
			cr_assert_eq(res.status, SB_LP_OPTIMAL);
			free_opt = res.obj;
			m0 = 0;
			for (o = 0; o < g.nop; o++)
				m0 += g.op[o].sig[sig[o]].mem;
		}
		cr_assert_float_eq(brute_force(&g, -1, &mmin), free_opt, 1e-7 * (1 + free_opt));
		budgets[0] = mmin;
		budgets[1] = mmin + (m0 - mmin) / 3;
		budgets[2] = mmin + 2 * (m0 - mmin) / 3;
		budgets[3] = m0;
		for (j = 0; j < 5; j++) {
			struct sb_sbp_ilp_opts io = { 0 };
			struct sb_sbp_ilp_result res;
			struct sb_sbp_plan plan;
			double want, dummy;
			io.node_limit = 100000;
			/* j = 4: just below the least memory */
			io.mem = j < 4 ? budgets[j] * (1 + 1e-12) : mmin * (1 - 1e-6);
			cr_assert_eq(sb_sbp_ilp(&g, &io, sig, &res, &err), 0, "%s", err.msg);
			if (j == 4) {
				cr_assert_eq(res.status, SB_LP_INFEASIBLE, "graph %d: status %d below "
					     "the least memory %.17g", k, res.status, mmin);
				continue;
			}
			want = brute_force(&g, io.mem, &dummy);
			cr_assert_eq(res.status, SB_LP_OPTIMAL, "graph %d budget %d", k, j);
			cr_assert_float_eq(res.obj, want, 1e-7 * (1 + want),
					   "graph %d budget %.17g: ILP %.17g, brute force %.17g", k,
					   io.mem, res.obj, want);
			cr_assert_eq(sb_sbp_plan_from(&g, sig, "ilp", &net, &plan, &err), 0, "%s",
				     err.msg);
			cr_assert_leq(plan.mem, io.mem * (1 + 1e-9), "graph %d: plan %.17g over %.17g",
				      k, plan.mem, io.mem);
			cr_assert_geq(plan.cost, free_opt * (1 - 1e-9));
			if (plan.cost > free_opt * (1 + 1e-9))
				bound_seen++;
			sb_sbp_plan_release(&plan);
		}
		sb_free(sig);
		sb_sbp_graph_release(&g);
	}
	cr_assert_gt(bound_seen, 0, "no budget made the memory row bind");
}
