/*
 * pipeline_micro.c - figure pipeplan-F3 (spec pipeplan.md §10, F-A3): the
 * iteration time of every registered planner against the number of
 * microbatches M = 4..64 at a fixed global batch, BERT-48 and GNMT-16 on
 * T-a (2 x 8 V100, NVLink + 25 GbE). Simulated.
 */
#include "common.h"

#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "ms", 5, 1, 5, 1, "how many of M = 4, 8, 16, 32, 64" },
	{ "models", 2, 1, 2, 1, "how many of bert-48, gnmt-16" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const char *const model_names[] = { "bert-48", "gnmt-16" };
static const double batch[] = { 256, 2048 };

static const struct sb_col cols[] = { SB_PIPELINE_EXP_COLS, { NULL, 0, NULL } };
static const struct sb_col timing_cols[] = { SB_PIPELINE_EXP_TIMING_COLS, { NULL, 0, NULL } };

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	int nms = (int)sb_opts_get(&c->opts, "ms"), nm = (int)sb_opts_get(&c->opts, "models");
	int k, j;
	struct sb_pipeline_exp_state *s;
	int rc = sb_pipeline_exp_setup(c, model_names, nm, err);
	if (rc)
		return rc;
	s = c->state;
	s->labels = sb_pipeline_exp_planners(NULL);
	for (k = 0; k < s->nmodel; k++)
		for (j = 0; j < nms; j++)
			sb_pipeline_exp_add(s, k, "2x8-nvlink-25gbe", 0, batch[k], 4 << j, 0);
	c->npoints = s->npt;
	return 0;
}

const struct sb_experiment sb_experiment_pipeline_micro = {
	.name = "pipeline_micro",
	.desc = "iteration time vs microbatches M = 4..64 at a fixed batch, every planner, T-a",
	.figure = "pipeplan-F3",
	.family = "pipeline",
	.params = params,
	.quick_set = "ms=2 models=1",
	.cols = cols,
	.timing_cols = timing_cols,
	.setup = setup,
	.run_point = sb_pipeline_exp_run_point,
	.teardown = sb_pipeline_exp_teardown,
};
