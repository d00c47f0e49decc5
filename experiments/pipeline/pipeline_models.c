/*
 * pipeline_models.c - figure pipeplan-F1 (spec pipeplan.md §10, F-A1): per model
 * on the testbed-like topologies T-a (2 servers x 8 V100, NVLink inside,
 * 25 GbE between) and T-b (4 x 4 GPUs, PCIe inside, 10 GbE between), the
 * iteration time of every registered planner (SPP-R, our reconstruction of
 * the INFOCOM'22 planner, and every baseline) at one global batch per model
 * and M = 16 microbatches. Simulated; not comparable with the paper's
 * testbed numbers.
 */
#include "common.h"

#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "models", 6, 1, 6, 1, "how many of bert-48, gnmt-16, vgg19, resnet50, gpt2-xl, "
	  "amoeba-36" },
	{ "topos", 2, 1, 2, 1, "how many of 2x8-nvlink-25gbe, 4x4-pcie-10gbe" },
	{ "M", 16, 1, 256, 1, "microbatches per iteration" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const char *const model_names[] = { "bert-48", "gnmt-16", "vgg19", "resnet50",
					    "gpt2-xl", "amoeba-36" };
/* global batch per model: within DAPPLE's sweeps (dapple.md §5), at least one
 * sample per GPU per microbatch on 16 GPUs at M = 16 so that DP runs */
static const double batch[] = { 256, 1024, 512, 512, 256, 256 };
static const char *const topos[] = { "2x8-nvlink-25gbe", "4x4-pcie-10gbe" };

static const struct sb_col cols[] = { SB_PIPELINE_EXP_COLS, { NULL, 0, NULL } };
static const struct sb_col timing_cols[] = { SB_PIPELINE_EXP_TIMING_COLS, { NULL, 0, NULL } };

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	int nm = (int)sb_opts_get(&c->opts, "models"), nt = (int)sb_opts_get(&c->opts, "topos");
	int M = (int)sb_opts_get(&c->opts, "M"), k, j, i;
	struct sb_pipeline_exp_state *s;
	int rc = sb_pipeline_exp_setup(c, model_names, nm, err);
	if (rc)
		return rc;
	s = c->state;
	s->labels = sb_pipeline_exp_planners(NULL);
	for (k = 0; k < s->nmodel; k++) {
		for (i = 0; strcmp(model_names[i], s->model[k].name); i++)
			;
		for (j = 0; j < nt; j++)
			sb_pipeline_exp_add(s, k, topos[j], 0, batch[i], M, 0);
	}
	c->npoints = s->npt;
	return 0;
}

const struct sb_experiment sb_experiment_pipeline_models = {
	.name = "pipeline_models",
	.desc = "iteration time per model on T-a and T-b, every planner, M = 16",
	.figure = "pipeplan-F1",
	.family = "pipeline",
	.params = params,
	.quick_set = "models=2 topos=1",
	.cols = cols,
	.timing_cols = timing_cols,
	.setup = setup,
	.run_point = sb_pipeline_exp_run_point,
	.teardown = sb_pipeline_exp_teardown,
};
