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

static void add_ratio(void *arg, int trial, const struct sb_rr_stats *st)
{
	double *sum = arg;
	(void)trial;
	sum[0] += st->flow / sum[1];
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int reps = (int)sb_opts_get(&c->opts, "reps"), size = point / reps, rep = point % reps;
	int trials = (int)sb_opts_get(&c->opts, "trials"), rc;
	struct sb_alloc_exp_pslp x;
	struct sb_alloc_bound ilp;
	double t0, secs, sum[2] = { 0, 0 };   /* sum of ratios, LP optimum */
	size_t row;

	if ((rc = sb_alloc_exp_ps_lp(c, point, 3 + 2 * size, 2 + size / 2, 6 + 2 * size, &x, &secs,
				     err)))
		return rc;
	time_row(timing, size, rep, sb_lp_ncols(x.m.lp), "lp", secs);
	sum[1] = x.lp;
	t0 = sb_now();
	sb_alloc_exp_ps_rounds(c, point, &x, 1.5, 0, trials, add_ratio, sum);
	time_row(timing, size, rep, sb_lp_ncols(x.m.lp), "rounding", sb_now() - t0);
	if ((rc = sb_alloc_bound_nodes(&x.in, 0, (long)sb_opts_get(&c->opts, "node_limit"), &ilp,
				       err)))
		goto out;
	time_row(timing, size, rep, sb_lp_ncols(x.m.lp), "ilp", ilp.seconds);
	row = sb_table_add(out);
	sb_table_set_int(out, row, "size", size);
	sb_table_set_int(out, row, "rep", rep);
	sb_table_set_int(out, row, "jobs", x.in.njob);
	sb_table_set_int(out, row, "servers", x.in.nserver);
	sb_table_set_int(out, row, "slots", x.in.nslot);
	sb_table_set_int(out, row, "cols", ilp.ncols);
	sb_table_set_int(out, row, "rows", ilp.nrows);
	sb_table_set_dbl(out, row, "lp", x.lp);
	sb_table_set_dbl(out, row, "ilp_bound", ilp.bound);
	sb_table_set_int(out, row, "ilp_optimal", ilp.optimal);
	sb_table_set_int(out, row, "ilp_nodes", ilp.nodes);
	sb_table_set_dbl(out, row, "round_ratio", sum[0] / trials);
out:
	sb_alloc_exp_ps_lp_release(&x);
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
