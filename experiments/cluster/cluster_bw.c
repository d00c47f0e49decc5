/*
 * cluster_bw.c - figure asrpt-F5 (spec asrpt.md §10): average JCT against the
 * inter-server bandwidth per server (1.25 to 50 GB/s) on W1 at load 0.8,
 * 128 GPUs: A-SRPT, its preemptive variant and FIFO-BF with each placer
 * (the placement ablation). The first 20% of the jobs warm up the
 * predictors and are left out of the metrics; LB1 covers all. A-SRPT is
 * our reconstruction (see algorithms/asrpt/asrpt.h).
 */
#include "common.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "jobs", 1000, 20, 1e6, 1, "jobs per workload" },
	{ "reps", 5, 1, 100, 1, "workloads (seeds) per load" },
	{ "bws", 5, 1, 5, 1, "how many of 1.25, 3.125, 12.5, 25, 50 GB/s" },
	{ "load", 0.8, 0.05, 2, 0, "offered load" },
	{ "warmup", 0.2, 0, 0.9, 0, "share of the first jobs left out of the metrics" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const double bws[5] = { 1.25, 3.125, 12.5, 25, 50 };

static const char *const labels[] = {
	"asrpt+kl", "asrpt+packed", "asrpt+firstfit", "asrpt+random", "asrpt-pre+kl",
	"asrpt-pre+firstfit", "fifo-bf+kl", "fifo-bf+firstfit", "fifo-bf+random", NULL,
};

static const struct sb_col cols[] = {
	SB_CLUSTER_EXP_COLS,
	{ "b_out_gbps", SB_COL_DBL, "GB/s" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = { SB_CLUSTER_EXP_TIMING_COLS, { NULL, 0, NULL } };

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	return sb_cluster_exp_sweep_setup(c, "bws", "sim128", labels, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_cluster_exp_sweep *s = c->state;
	struct sb_cluster cl = s->cl;
	double bw = bws[point / s->reps];
	/* the same jobs at every bandwidth: sizes come from the 12.5 GB/s
	 * cluster's reference placement, so only their speed changes */
	cl.b_out = bw * 1e9;
	return sb_cluster_exp_w1_point(c, &cl, s->jobs, s->load, s->warmup,
				 (uint64_t)(point % s->reps), point % s->reps, "b_out_gbps", bw,
				 (const char *const *)s->labels, NULL, out, timing, err);
}

const struct sb_experiment sb_experiment_cluster_bw = {
	.name = "cluster_bw",
	.desc = "average JCT vs inter-server bandwidth: placement ablations, W1 at load 0.8",
	.figure = "asrpt-F5",
	.family = "cluster",
	.params = params,
	.quick_set = "jobs=150 reps=2 bws=3",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "b_out_gbps policy",
	.summary_of = "jct_mean jct_p95 ratio_lb1 util slowdown inter_bytes",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_cluster_exp_sweep_teardown,
};
