/*
 * pipeline_dapple.c - figures dapple-F1 and dapple-F2 and table dapple-T3 (spec
 * dapple.md §7): per model and hardware configuration (DAPPLE's Config
 * A/B/C, 16 GPUs), speed-up over one GPU against the global batch size of
 * pure data parallelism (with and without overlap), DAPPLE's planner (as
 * described for the paper, and as released) and PipeDream's planner run
 * synchronously under DAPPLE's schedule; every plan simulated with the
 * project's pipeline model and DAPPLE's cost constants (its bandwidths and
 * 16 GB GPUs). Simulated: not comparable with the paper's testbed numbers.
 */
#include "common.h"


static const struct sb_param params[] = {
	{ "models", 5, 1, 5, 1, "how many of vgg19, bert-48, gnmt-16, xlnet-36, amoeba-36" },
	{ "configs", 3, 1, 3, 1, "how many of config-a, config-b, config-c" },
	{ "batches", 6, 1, 6, 1, "global batch sizes per model (from the smallest, x2 each)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const char *const planners[] = { "dp", "dp-overlap", "dapple", "dapple-hpgo",
					"pipedream+early-backward", NULL };

static const struct sb_col cols[] = { SB_PIPELINE_EXP_COLS, { NULL, 0, NULL } };
static const struct sb_col timing_cols[] = { SB_PIPELINE_EXP_TIMING_COLS, { NULL, 0, NULL } };

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	return sb_pipeline_exp_dapple_grid(c, (int)sb_opts_get(&c->opts, "models"),
				     (int)sb_opts_get(&c->opts, "configs"), (int)sb_opts_get(&c->opts, "batches"), 2, planners, err);
}

const struct sb_experiment sb_experiment_pipeline_dapple = {
	.name = "pipeline_dapple",
	.desc = "speed-up vs global batch: DP, DP+overlap, DAPPLE (paper, released), "
		"PipeDream run synchronously; Config A/B/C",
	.figure = "dapple-F1",
	.family = "pipeline",
	.params = params,
	.quick_set = "models=2 configs=1 batches=3",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = NULL,
	.summary_of = NULL,
	.setup = setup,
	.run_point = sb_pipeline_exp_run_point,
	.teardown = sb_pipeline_exp_teardown,
};
