/*
 * cluster_time.c - figure asrpt-F10 (spec asrpt.md §10): decision time (wall
 * clock, the timing dataset) against the mean number of active jobs, W1
 * of 500 to 8000 jobs at load 0.9 on 512 GPUs, every registered scheduler
 * with its default placer. The first 20% of the jobs warm up the
 * predictors and are left out of the metrics. A-SRPT is our
 * reconstruction (see algorithms/asrpt/asrpt.h).
 */
#include "common.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "reps", 1, 1, 100, 1, "workloads (seeds) per size" },
	{ "sizes", 4, 1, 5, 1, "how many of 500, 1000, 2000, 4000, 8000 jobs" },
	{ "load", 0.9, 0.05, 2, 0, "offered load" },
	{ "warmup", 0.2, 0, 0.9, 0, "share of the first jobs left out of the metrics" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const int sizes[5] = { 500, 1000, 2000, 4000, 8000 };

static const struct sb_col cols[] = {
	SB_CLUSTER_EXP_COLS,
	{ "njobs", SB_COL_INT, "" },
	{ "active_mean", SB_COL_DBL, "jobs" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = {
	SB_CLUSTER_EXP_TIMING_COLS,
	{ "active_mean", SB_COL_DBL, "jobs" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	return sb_cluster_exp_sweep_setup(c, "sizes", "sim512", NULL, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_cluster_exp_sweep *s = c->state;
	int n = sizes[point / s->reps], k, rc = 0;
	struct sb_jobset js;
	char wl[64];

	sb_cluster_exp_w1(c, &s->cl, n, s->load, (uint64_t)point, &js);
	snprintf(wl, sizeof wl, "W1-%d-jobs", n);
	for (k = 0; s->labels[k] && !rc; k++) {
		struct sb_cluster_result r;
		rc = sb_cluster_exp_run(c, &s->cl, &js, wl, s->labels[k], NULL, (uint64_t)point,
				  point % s->reps, (int)(s->warmup * n), out, timing, &r, err);
		if (rc)
			break;
		sb_table_set_int(out, out->nrow - 1, "njobs", n);
		sb_table_set_dbl(out, out->nrow - 1, "active_mean", r.active_mean);
		if (timing)
			sb_table_set_dbl(timing, timing->nrow - 1, "active_mean", r.active_mean);
		sb_cluster_result_release(&r);
	}
	sb_jobset_release(&js);
	return rc;
}

const struct sb_experiment sb_experiment_cluster_time = {
	.name = "cluster_time",
	.desc = "decision time vs active jobs, W1 of 500-8000 jobs on 512 GPUs, every scheduler",
	.figure = "asrpt-F10",
	.family = "cluster",
	.params = params,
	.quick_set = "sizes=2",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "njobs policy",
	.summary_of = "active_mean jct_mean ratio_lb1",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_cluster_exp_sweep_teardown,
};
