/*
 * alloc_ps_time.c - figure pslocality-F6 (pslocality.md §8, ours [O]):
 * solver runtime against the instance size for the time-indexed PS-locality
 * model: its LP relaxation (GLPK simplex), `trials` randomized roundings of
 * that LP at kappa = 1.5 (algorithms/pslocality/rr.c, what the policy
 * uses), and the ILP (GLPK branch and cut, stopped by the deterministic
 * `node_limit`). Size i has 3 + 2i jobs, 2 + i/2 servers of 8 GPUs and
 * 6 + 2i slots (seeded small instances, every job able to finish).
 * Runtimes are wall-clock, labelled as such, in the `timing` dataset only;
 * `points` keeps what is deterministic: model size, LP optimum, the ILP's
 * bound, status and nodes, and the mean rounded flow / LP.
 */
#include "common.h"

#include "algorithms/pslocality/rr.h"
#include "alloc/bound.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "reps", 3, 1, 1000, 1, "instances per size" },
	{ "sizes", 5, 1, 12, 1, "sizes 0 .. this many - 1" },
	{ "trials", 1000, 1, 1e6, 1, "roundings timed per instance" },
	{ "node_limit", 300, 1, 1e7, 1, "branch-and-bound nodes of the ILP" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "size", SB_COL_INT, "" },
	{ "rep", SB_COL_INT, "" },
	{ "jobs", SB_COL_INT, "" },
	{ "servers", SB_COL_INT, "" },
	{ "slots", SB_COL_INT, "" },
	{ "cols", SB_COL_INT, "" },
	{ "rows", SB_COL_INT, "" },
	{ "lp", SB_COL_DBL, "flow slots" },
	{ "ilp_bound", SB_COL_DBL, "flow slots" },
	{ "ilp_optimal", SB_COL_INT, "" },
	{ "ilp_nodes", SB_COL_INT, "" },
	{ "round_ratio", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = {
	{ "size", SB_COL_INT, "" },
	{ "rep", SB_COL_INT, "" },
	{ "cols", SB_COL_INT, "" },
	{ "method", SB_COL_STR, "" },
	{ "seconds", SB_COL_DBL, "s (wall clock)" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	(void)err;
	c->npoints = (int)sb_opts_get(&c->opts, "sizes") * (int)sb_opts_get(&c->opts, "reps");
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: small PS instances from the built-in DL2 job types");
	return 0;
}

static void time_row(struct sb_table *timing, int size, int rep, int ncols, const char *method,
		     double s)
{
	size_t row;
	if (!timing)
		return;
	row = sb_table_add(timing);
	sb_table_set_int(timing, row, "size", size);
	sb_table_set_int(timing, row, "rep", rep);
	sb_table_set_int(timing, row, "cols", ncols);
	sb_table_set_str(timing, row, "method", method);
	sb_table_set_dbl(timing, row, "seconds", s);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int reps = (int)sb_opts_get(&c->opts, "reps"), size = point / reps, rep = point % reps;
	int trials = (int)sb_opts_get(&c->opts, "trials"), n, rc;
	struct sb_alloc_genp g;
	struct sb_alloc_types ty;
	struct sb_alloc_inst in;
	struct sb_alloc_psmodel m;
	struct sb_alloc_bound ilp;
	struct sb_lp_result res;
	struct sb_rr_plan r;
	struct sb_rng gen = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_INSTANCE);
	double t0, sum = 0, lp;
	size_t row;

	sb_alloc_types_builtin(&ty);
	sb_alloc_genp_defaults(&g, SB_ALLOC_PS);
	g.njob = 3 + 2 * size;
	g.nserver = 2 + size / 2;
	g.nslot = 6 + 2 * size;
	g.kmax = g.pmax = 4;
	sb_alloc_gen_small(&in, &g, &ty, &gen);
	sb_alloc_psmodel_build(&in, NULL, 0, in.nslot, 1, &m);
	t0 = sb_now();
	if ((rc = sb_alloc_psmodel_solve(&m, 1, &res, err)))
		goto out_model;
	time_row(timing, size, rep, sb_lp_ncols(m.lp), "lp", sb_now() - t0);
	if (res.status != SB_LP_OPTIMAL || !res.x) {
		rc = sb_err_set(err, SB_EXIT_RUN, "alloc_ps_time: instance %d: the LP relaxation "
				"ended %s, not optimal", point, sb_lp_status_name(res.status));
		goto out_res;
	}
	lp = res.obj + m.constant;
	sb_rr_plan_init(&r, m.J, m.H, m.T);
	t0 = sb_now();
	for (n = 0; n < trials; n++) {
		struct sb_rng rng = sb_rng_stream(c->seed, (uint64_t)point, (uint64_t)n, SB_RNG_POLICY);
		struct sb_rr_stats st;
		sb_rr_round(&in, &m, res.x, 1.5, &rng, &r);
		sb_rr_stats(&in, &m, &r, &st);
		sum += st.flow / lp;
	}
	time_row(timing, size, rep, sb_lp_ncols(m.lp), "rounding", sb_now() - t0);
	sb_rr_plan_release(&r);
	if ((rc = sb_alloc_bound_nodes(&in, 0, (long)sb_opts_get(&c->opts, "node_limit"), &ilp, err)))
		goto out_res;
	time_row(timing, size, rep, sb_lp_ncols(m.lp), "ilp", ilp.seconds);
	row = sb_table_add(out);
	sb_table_set_int(out, row, "size", size);
	sb_table_set_int(out, row, "rep", rep);
	sb_table_set_int(out, row, "jobs", in.njob);
	sb_table_set_int(out, row, "servers", in.nserver);
	sb_table_set_int(out, row, "slots", in.nslot);
	sb_table_set_int(out, row, "cols", ilp.ncols);
	sb_table_set_int(out, row, "rows", ilp.nrows);
	sb_table_set_dbl(out, row, "lp", lp);
	sb_table_set_dbl(out, row, "ilp_bound", ilp.bound);
	sb_table_set_int(out, row, "ilp_optimal", ilp.optimal);
	sb_table_set_int(out, row, "ilp_nodes", ilp.nodes);
	sb_table_set_dbl(out, row, "round_ratio", sum / trials);
out_res:
	sb_lp_result_release(&res);
out_model:
	sb_alloc_psmodel_release(&m);
	sb_alloc_inst_release(&in);
	return rc;
}

const struct sb_experiment sb_experiment_alloc_ps_time = {
	.name = "alloc_ps_time",
	.desc = "runtime of the PS-locality LP, 1,000 roundings and the node-limited ILP against the instance size (wall clock)",
	.figure = "pslocality-F6",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=1 sizes=3 trials=200",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "size",
	.summary_of = "cols lp ilp_bound ilp_optimal round_ratio",
	.setup = setup,
	.run_point = run_point,
};
