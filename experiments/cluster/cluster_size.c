/*
 * cluster_size.c - figure asrpt-F4 (spec asrpt.md §10): average JCT against the
 * cluster size (32 to 512 GPUs, servers of 8) on W1 (synthetic recurring
 * families) at load 0.8, every registered scheduler with its default
 * placer. The first 20% of the jobs warm up the predictors and are left
 * out of the metrics; LB1 covers all. A-SRPT is our reconstruction (see
 * algorithms/asrpt/asrpt.h).
 */
#include "common.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "jobs", 1000, 20, 1e6, 1, "jobs per workload" },
	{ "reps", 5, 1, 100, 1, "workloads (seeds) per load" },
	{ "sizes", 5, 1, 5, 1, "how many of the sizes 32, 64, 128, 256, 512 GPUs" },
	{ "load", 0.8, 0.05, 2, 0, "offered load" },
	{ "warmup", 0.2, 0, 0.9, 0, "share of the first jobs left out of the metrics" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const int servers[5] = { 4, 8, 16, 32, 64 };

static const struct sb_col cols[] = {
	SB_CLUSTER_EXP_COLS,
	{ "cluster_gpus", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = { SB_CLUSTER_EXP_TIMING_COLS, { NULL, 0, NULL } };

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	return sb_cluster_exp_sweep_setup(c, "sizes", "sim128", NULL, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_cluster_exp_sweep *s = c->state;
	struct sb_cluster cl = s->cl;
	cl.nserver = servers[point / s->reps];
	snprintf(cl.name, sizeof cl.name, "%dx%d", cl.nserver, cl.gpus);
	return sb_cluster_exp_w1_point(c, &cl, s->jobs, s->load, s->warmup, (uint64_t)point,
				 point % s->reps, "cluster_gpus", cl.nserver * cl.gpus,
				 (const char *const *)s->labels, NULL, out, timing, err);
}

const struct sb_experiment sb_experiment_cluster_size = {
	.name = "cluster_size",
	.desc = "average JCT vs cluster size (32-512 GPUs), W1 at load 0.8, every scheduler",
	.figure = "asrpt-F4",
	.family = "cluster",
	.params = params,
	.quick_set = "jobs=150 reps=2 sizes=3",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "cluster_gpus policy",
	.summary_of = "jct_mean jct_p95 ratio_lb1 util slowdown",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_cluster_exp_sweep_teardown,
};
