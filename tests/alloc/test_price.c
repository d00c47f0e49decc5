/*
 * test_price.c - the branch-and-price of GADGET's configuration ILP
 * (core/alloc/price.c, ours [O]) against GLPK on the pattern form of the
 * same model (core/alloc/pattern.c): on 50 seeded small instances per size
 * (EXC, ENE and FAIR in turn, capacity binding), every optimum it proves
 * equals GLPK's wherever GLPK proves one too, and lies within GLPK's
 * incumbent and bound elsewhere; every registered policy's checked utility
 * is at most that optimum, and the optimum at most the LP relaxation; the
 * same instance gives the same answer twice; a start is kept.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "alloc/bound.h"
#include "tests/alloc/small.h"

#define NINST 50
#define TOL 1e-6

static double tol(double v)
{
	return TOL * (1 + fabs(v));
}

/* One size: n instances of njob jobs on S servers of G GPUs, T slots, K
 * workers at most; GLPK's pattern form with glpk_nodes. Returns how many
 * GLPK proved optimal too. */
static int against_glpk(int njob, int S, int G, int T, int K, long glpk_nodes, int seed0)
{
	int k, both = 0;
	for (k = 0; k < NINST; k++) {
		struct sb_alloc_inst in;
		struct sb_alloc_bound bp, gl, lp;
		struct sb_err err;
		int u = k % 3;
		sb_test_alloc_small(&in, SB_ALLOC_RAR, u, njob, S, G, T, K, T, seed0 + k);
		cr_assert_eq(sb_alloc_gadget_bound(&in, 0, 0, SB_ALLOC_FORM_PRICE, NULL, &bp, &err), 0,
			     "%s", err.msg);
		cr_assert_eq(sb_alloc_gadget_bound(&in, 0, glpk_nodes, SB_ALLOC_FORM_PATTERN, NULL, &gl,
						   &err), 0, "%s", err.msg);
		cr_assert_eq(sb_alloc_gadget_bound(&in, 1, 0, SB_ALLOC_FORM_PATTERN, NULL, &lp, &err), 0,
			     "%s", err.msg);
		cr_assert(bp.optimal, "%s seed %d: not proven optimal (%s, incumbent %.9g, bound "
			  "%.9g, %ld nodes)", sb_alloc_util_name(u), seed0 + k, bp.status,
			  bp.incumbent, bp.bound, bp.nodes);
		cr_assert_geq(bp.bound, bp.incumbent);
		cr_assert_leq(bp.bound, bp.incumbent + tol(bp.incumbent));
		/* within GLPK's proven interval, equal where GLPK proves it */
		cr_assert_leq(bp.incumbent, gl.bound + tol(gl.bound), "%s seed %d: %.9g above GLPK's "
			      "bound %.9g", sb_alloc_util_name(u), seed0 + k, bp.incumbent, gl.bound);
		/* (GLPK may end without a solution of its own at a low node limit) */
		if (gl.has_incumbent)
			cr_assert_geq(bp.incumbent, gl.incumbent - tol(gl.incumbent), "%s seed %d: "
				      "%.9g below GLPK's solution %.9g", sb_alloc_util_name(u),
				      seed0 + k, bp.incumbent, gl.incumbent);
		if (gl.optimal)
			both++;
		cr_assert_leq(bp.incumbent, lp.bound + tol(lp.bound));
		sb_test_alloc_every_policy(&in, bp.incumbent, 1, sb_alloc_util_name(u));
		sb_alloc_inst_release(&in);
	}
	return both;
}

Test(alloc_price, equals_glpk_optimum_3_jobs)
{
	int both = against_glpk(3, 2, 4, 4, 4, 1000, 9000);
	/* the pattern form proves about 95 % of these within 1,000 nodes */
	cr_assert_geq(both, 40, "GLPK proved only %d of %d", both, NINST);
}

Test(alloc_price, within_glpk_interval_4_jobs)
{
	/* GLPK proves about a third of these within 5,000 nodes (38 CPU s
	 * for 50); at 200 nodes it gives the interval, the test's check */
	against_glpk(4, 2, 4, 5, 4, 200, 9100);
}

/* Two runs, the same numbers to the bit; a start (the best checked
 * policy run) changes the first incumbent, not the optimum. */
Test(alloc_price, deterministic_and_start_kept)
{
	int k;
	for (k = 0; k < 12; k++) {
		struct sb_alloc_inst in;
		struct sb_alloc_bound a, b, c;
		struct sb_alloc_result r;
		struct sb_err err;
		const char *name;
		int u = k % 3;
		sb_test_alloc_small(&in, SB_ALLOC_RAR, u, 4, 2, 4, 5, 4, 5, 9200 + k);
		cr_assert_eq(sb_alloc_gadget_bound(&in, 0, 0, SB_ALLOC_FORM_PRICE, NULL, &a, &err), 0,
			     "%s", err.msg);
		cr_assert_eq(sb_alloc_gadget_bound(&in, 0, 0, SB_ALLOC_FORM_PRICE, NULL, &b, &err), 0,
			     "%s", err.msg);
		cr_assert(a.bound == b.bound && a.incumbent == b.incumbent && a.nodes == b.nodes &&
			  a.optimal == b.optimal && a.ncols == b.ncols,
			  "seed %d: %.17g/%.17g/%ld vs %.17g/%.17g/%ld", 9200 + k, a.bound, a.incumbent,
			  a.nodes, b.bound, b.incumbent, b.nodes);
		cr_assert_eq(sb_alloc_best_run(&in, 5, &r, &name, &err), 0, "%s", err.msg);
		cr_assert_eq(sb_alloc_gadget_bound(&in, 0, 0, SB_ALLOC_FORM_PRICE, &r, &c, &err), 0,
			     "%s", err.msg);
		cr_assert(c.start_used);
		cr_assert(a.optimal && c.optimal);
		cr_assert_float_eq(c.incumbent, a.incumbent, tol(a.incumbent));
		cr_assert_geq(c.incumbent, r.utility - tol(r.utility));
		sb_alloc_result_release(&r);
		sb_alloc_inst_release(&in);
	}
}

/* A node limit that stops the search early leaves a valid interval and
 * never says "optimal" unless it is. */
Test(alloc_price, node_limit_is_honest)
{
	int k;
	for (k = 0; k < 20; k++) {
		struct sb_alloc_inst in;
		struct sb_alloc_bound one, full;
		struct sb_err err;
		sb_test_alloc_small(&in, SB_ALLOC_RAR, k % 3, 4, 2, 4, 5, 4, 5, 9300 + k);
		cr_assert_eq(sb_alloc_gadget_bound(&in, 0, 1, SB_ALLOC_FORM_PRICE, NULL, &one, &err), 0,
			     "%s", err.msg);
		cr_assert_eq(sb_alloc_gadget_bound(&in, 0, 0, SB_ALLOC_FORM_PRICE, NULL, &full, &err),
			     0, "%s", err.msg);
		cr_assert(full.optimal);
		cr_assert_leq(one.nodes, 1);
		cr_assert_geq(one.bound, full.incumbent - tol(full.incumbent));
		if (one.has_incumbent)
			cr_assert_leq(one.incumbent, full.incumbent + tol(full.incumbent));
		if (one.optimal)
			cr_assert_float_eq(one.incumbent, full.incumbent, tol(full.incumbent));
		sb_alloc_inst_release(&in);
	}
}
