/*
 * alloc_bounds.c - figures gadget-F6 and pslocality-F7 (gadget.md §7-8,
 * pslocality.md §7-8): every alloc policy against the GLPK models on small
 * seeded instances. Ring-all-reduce instances (3 jobs, 2 servers x 4 GPUs,
 * 4 slots, every job needing the whole horizon on 4 workers) under EXC,
 * ENE and FAIR in turn against the GADGET configuration ILP (an upper
 * bound: every checked run's utility is at most it); PS instances (3
 * jobs, 2 servers x 8 GPUs, 6 slots) under JCT against the PS-locality
 * ILP (a lower bound on flow slots). gap = |bound - value| in the
 * objective's units (>= 0 by construction: the claim checks it); ratio =
 * value / bound for the positive objectives (EXC, ENE when positive,
 * JCT), the LP relaxation's bound and lp_slack = how much weaker it is
 * (>= 0), and whether the ILP was proven optimal within the node limit
 * (the GADGET ILP in its slot-pattern form, core/alloc/pattern.c).
 * Instances ours [O].
 */
#include "alloc/alloc.h"
#include "alloc/bound.h"
#include "exp.h"
#include "workloads/alloc/alloc_wl.h"

#include <math.h>
#include <stdio.h>

static const struct sb_param params[] = {
	{ "reps", 50, 1, 1000, 1, "instances per model" },
	{ "node_limit", 1000, 1, 1e7, 1, "branch-and-bound nodes of each ILP" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "model", SB_COL_STR, "" },
	{ "util", SB_COL_STR, "" },
	{ "rep", SB_COL_INT, "" },
	{ "policy", SB_COL_STR, "" },
	{ "value", SB_COL_DBL, "utility or flow slots" },
	{ "bound", SB_COL_DBL, "utility or flow slots" },
	{ "lp", SB_COL_DBL, "utility or flow slots" },
	{ "optimal", SB_COL_INT, "" },
	{ "gap", SB_COL_DBL, "utility or flow slots" },
	{ "ratio", SB_COL_DBL, "" },
	{ "lp_slack", SB_COL_DBL, "utility or flow slots" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = 2 * (int)sb_opts_get(&c->opts, "reps");
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: small instances from the built-in DL2 job types");
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int reps = (int)sb_opts_get(&c->opts, "reps"), ps = point >= reps, rep = point % reps;
	long nodes = (long)sb_opts_get(&c->opts, "node_limit");
	struct sb_alloc_genp g;
	struct sb_alloc_types ty;
	struct sb_alloc_inst in;
	struct sb_alloc_bound ilp, lp;
	struct sb_rng gen = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_INSTANCE);
	int np, i, rc;
	const struct sb_alloc_policy *const *p = sb_alloc_policies(&np);

	(void)timing;
	sb_alloc_types_builtin(&ty);
	sb_alloc_genp_defaults(&g, ps ? SB_ALLOC_PS : SB_ALLOC_RAR);
	g.njob = 3;
	g.nserver = 2;
	g.gpus = ps ? 8 : 4;
	g.cpus = 4 * g.gpus;
	g.nslot = ps ? 6 : 4;
	g.kmax = g.pmax = 4;
	g.util = ps ? SB_ALLOC_JCT : rep % 3;
	g.small_slots = ps ? 0 : g.nslot;
	sb_alloc_gen_small(&in, &g, &ty, &gen);
	if ((rc = sb_alloc_bound_nodes(&in, 0, nodes, &ilp, err)) ||
	    (rc = sb_alloc_bound(&in, 1, &lp, err)))
		goto out;
	for (i = 0; i < np && !rc; i++) {
		struct sb_opts o;
		struct sb_alloc_result r;
		struct sb_rng rng = sb_rng_stream(c->seed, (uint64_t)point, 0,
						  SB_RNG_POLICY ^ sb_hash_str(p[i]->name));
		double v;
		size_t row;
		if (!sb_alloc_policy_fits(p[i], &in))
			continue;
		sb_opts_defaults(&o, p[i]->params);
		if ((rc = sb_alloc_run(&in, p[i], &o, &rng, &r, err)))
			break;
		v = ps ? r.flow_slots : r.utility;
		row = sb_table_add(out);
		sb_table_set_str(out, row, "model", ps ? "pslocality" : "gadget");
		sb_table_set_str(out, row, "util", sb_alloc_util_name(in.util));
		sb_table_set_int(out, row, "rep", rep);
		sb_table_set_str(out, row, "policy", p[i]->name);
		sb_table_set_dbl(out, row, "value", v);
		sb_table_set_dbl(out, row, "bound", ilp.bound);
		sb_table_set_dbl(out, row, "lp", lp.bound);
		sb_table_set_int(out, row, "optimal", ilp.optimal);
		sb_table_set_dbl(out, row, "gap", ps ? v - ilp.bound : ilp.bound - v);
		sb_table_set_dbl(out, row, "ratio", ilp.bound > 0 && v > 0 ? v / ilp.bound : NAN);
		/* the LP relaxation is the weaker bound: >= 0 */
		sb_table_set_dbl(out, row, "lp_slack", ps ? ilp.bound - lp.bound : lp.bound - ilp.bound);
		sb_alloc_result_release(&r);
	}
out:
	sb_alloc_inst_release(&in);
	return rc;
}

const struct sb_experiment sb_experiment_alloc_bounds = {
	.name = "alloc_bounds",
	.desc = "every alloc policy against the GADGET configuration ILP and the PS-locality ILP",
	.figure = "gadget-F6",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=6",
	.cols = cols,
	.summary_by = "model util policy",
	.summary_of = "gap",
	.setup = setup,
	.run_point = run_point,
};
