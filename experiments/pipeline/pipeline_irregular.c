/*
 * pipeline_irregular.c - figure pipeplan-F2 (spec pipeplan.md §10, F-A2): seeded
 * random irregular topologies of 8 to 64 GPUs (NVLink islands, PCIe,
 * Ethernet/InfiniBand of random speeds; workloads/topo.c), BERT-48 and
 * GNMT-16 at M = 16, every registered planner; replicates are independent
 * topologies. Simulated.
 */
#include "common.h"

#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "sizes", 4, 1, 4, 1, "how many of 8, 16, 32, 64 GPUs" },
	{ "reps", 5, 1, 100, 1, "random topologies per size" },
	{ "M", 16, 1, 256, 1, "microbatches per iteration" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const char *const model_names[] = { "bert-48", "gnmt-16" };
static const double batch[] = { 256, 2048 };
static const int sizes[] = { 8, 16, 32, 64 };

static const struct sb_col cols[] = {
	SB_PIPELINE_EXP_COLS,
	{ "rep", SB_COL_INT, "" },
	{ NULL, 0, NULL },
};
static const struct sb_col timing_cols[] = { SB_PIPELINE_EXP_TIMING_COLS, { NULL, 0, NULL } };

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	int ns = (int)sb_opts_get(&c->opts, "sizes"), reps = (int)sb_opts_get(&c->opts, "reps");
	int M = (int)sb_opts_get(&c->opts, "M"), k, j, r;
	struct sb_pipeline_exp_state *s;
	char topo[32];
	int rc = sb_pipeline_exp_setup(c, model_names, 2, err);
	if (rc)
		return rc;
	s = c->state;
	s->labels = sb_pipeline_exp_planners(NULL);
	for (j = 0; j < ns; j++)
		for (r = 0; r < reps; r++)
			for (k = 0; k < s->nmodel; k++) {
				snprintf(topo, sizeof topo, "random-%d", sizes[j]);
				/* the same topology for both models: key by size */
				sb_pipeline_exp_add(s, k, topo, (uint64_t)j, batch[k], M, r);
			}
	c->npoints = s->npt;
	return 0;
}

const struct sb_experiment sb_experiment_pipeline_irregular = {
	.name = "pipeline_irregular",
	.desc = "random irregular topologies of 8-64 GPUs, BERT-48 and GNMT-16, every planner",
	.figure = "pipeplan-F2",
	.family = "pipeline",
	.params = params,
	.quick_set = "sizes=2 reps=1",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "gpus model planner",
	.summary_of = "iter_time speedup",
	.setup = setup,
	.run_point = sb_pipeline_exp_run_point,
	.teardown = sb_pipeline_exp_teardown,
};
