/*
 * cluster_load.c - figure asrpt-F3 (spec asrpt.md §10): average JCT against the
 * offered load on W1 (synthetic recurring families, 128 GPUs), every
 * registered scheduler with its default placer. The first 20% of the jobs
 * warm up the predictors and are left out of the metrics; LB1 covers all.
 *
 * Common random numbers across loads: replicate r is one W1 workload (the
 * same jobs and the same exponential inter-arrival draws) whose arrivals
 * are scaled to each load, so a curve compares a policy with itself on
 * the same jobs. Until issue #11 each (load, replicate) drew its own
 * workload; with five of them and W1's heavy-tailed family sizes the mean
 * at one load could fall below the mean at a lower one.
 * A-SRPT is our reconstruction (see algorithms/asrpt/asrpt.h).
 */
#include "common.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "jobs", 1000, 20, 1e6, 1, "jobs per workload" },
	{ "reps", 10, 1, 100, 1, "workloads (seeds), each run at every load" },
	{ "loads", 6, 1, 6, 1, "how many of the loads 0.3, 0.5, 0.7, 0.8, 0.9, 0.95" },
	{ "warmup", 0.2, 0, 0.9, 0, "share of the first jobs left out of the metrics" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const double loads[6] = { 0.3, 0.5, 0.7, 0.8, 0.9, 0.95 };

static const struct sb_col cols[] = {
	SB_CLUSTER_EXP_COLS,
	{ "load", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = { SB_CLUSTER_EXP_TIMING_COLS, { NULL, 0, NULL } };

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	return sb_cluster_exp_sweep_setup(c, "loads", "sim128", NULL, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_cluster_exp_sweep *s = c->state;
	double load = loads[point / s->reps];
	int rep = point % s->reps;
	return sb_cluster_exp_w1_point(c, &s->cl, s->jobs, load, s->warmup, (uint64_t)rep, rep,
				 "load", load, (const char *const *)s->labels, NULL, out, timing,
				 err);
}

const struct sb_experiment sb_experiment_cluster_load = {
	.name = "cluster_load",
	.desc = "average JCT vs offered load, W1 on 128 GPUs, every scheduler",
	.figure = "asrpt-F3",
	.family = "cluster",
	.params = params,
	.quick_set = "jobs=150 reps=3 loads=4",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "load policy",
	.summary_of = "jct_mean jct_p95 ratio_lb1 util slowdown load_eff idle_fit spread",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_cluster_exp_sweep_teardown,
};
