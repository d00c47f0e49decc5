/*
 * cluster_mech.c - figure asrpt-F11 (issue #11; our design [O]): where the
 * capacity of the cluster goes under each reading of A-SRPT's step D, W1
 * at load 0.8 on 128 GPUs. Per run: average JCT; the offered load
 * (sum g_j n_j tau_ref_j / (N x arrival span)) against the load the
 * cluster really carried (busy GPU-seconds / (N x span), slowdowns of
 * scattered placements included); GPU-seconds left idle while a waiting
 * job had as many GPUs free as it needs (the scheduler's choice); and the
 * share of GPU-seconds on more servers than the job needs. The strict
 * virtual-completion list (asrpt-strict; asrpt-oracle with dispatch=1)
 * idles GPUs while its head waits, then starts the head on scattered GPUs;
 * when the carried load passes 1 the queue never drains. Every policy on
 * the same jobs (common random numbers); the first 20% warm the
 * predictors up and are left out of JCT. A-SRPT is our reconstruction
 * (see algorithms/asrpt/asrpt.h).
 */
#include "common.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "jobs", 1000, 20, 1e6, 1, "jobs per workload" },
	{ "reps", 10, 1, 100, 1, "workloads (seeds)" },
	{ "load", 0.8, 0.05, 2, 0, "offered load" },
	{ "warmup", 0.2, 0, 0.9, 0, "share of the first jobs left out of the metrics" },
	{ NULL, 0, 0, 0, 0, NULL },
};

/* Each reading of step D with the random forest and with exact
 * predictions, the compact-placement rule off and on, and references. */
static const char *const labels[] = {
	"asrpt-strict", "asrpt-oracle", "asrpt", "asrpt-oracle", "asrpt", "asrpt-oracle",
	"asrpt-bf", "fifo", "fifo-bf", "srpt-oracle", NULL,
};
static const char *const sets[] = {
	NULL, "dispatch=1", "compact=0", "compact=0", NULL, NULL,
	NULL, NULL, NULL, NULL, NULL,
};

static const struct sb_col cols[] = {
	SB_CLUSTER_EXP_COLS,
	{ "load", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = { SB_CLUSTER_EXP_TIMING_COLS, { NULL, 0, NULL } };

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	/* one point per workload: the swept quantity is the workload itself */
	int rc = sb_cluster_exp_sweep_setup(c, "reps", "sim128", labels, err);
	struct sb_cluster_exp_sweep *s = c->state;
	s->nval = 1;
	c->npoints = s->reps;
	return rc;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_cluster_exp_sweep *s = c->state;
	return sb_cluster_exp_w1_point(c, &s->cl, s->jobs, s->load, s->warmup, (uint64_t)point,
				       point, "load", s->load, (const char *const *)s->labels, sets,
				       out, timing, err);
}

const struct sb_experiment sb_experiment_cluster_mech = {
	.name = "cluster_mech",
	.desc = "where capacity goes under each reading of A-SRPT's dispatch (idle GPUs, scattered "
		"placements, carried load), W1 at load 0.8",
	.figure = "asrpt-F11",
	.family = "cluster",
	.params = params,
	.quick_set = "jobs=1000 reps=3",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "policy",
	.summary_of = "jct_mean load_ref load_eff idle_fit spread slowdown",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_cluster_exp_sweep_teardown,
};
