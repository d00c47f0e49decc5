/*
 * sync_scale.c - adsp-F4: convergence time at two cluster sizes (the
 * authors' 18 and 36 workers, adsp.md §6.5 [V, code: vary_scale_size.py])
 * for Fixed ADACOMM, ADSP, BSP and SSP at H = 2.6. 36 workers repeat the
 * 18-worker EC2 mix twice. Each worker keeps the same data shard rule
 * (rows i, i + M, ...), so doubling M halves each shard. Substitutes and
 * departures: experiments/sync/common.h.
 */
#include "experiments/sync/common.h"

static const char *const schemes[] = { "fixed-adacomm", "adsp", "bsp", "ssp" };
#define NS ((int)(sizeof schemes / sizeof schemes[0]))
static const double sizes[] = { 1, 2 };   /* multiples of "workers" */

static const struct sb_param params[] = {
	{ "reps", 3, 1, 100, 1, "seeds" },
	{ "workers", 18, 1, 1000, 1, "the smaller size M (the larger is 2M)" },
	{ "h", 2.6, 1, 100, 0, "heterogeneity H = mean v / min v" },
	SB_SYNC_EXP_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "rep", SB_COL_INT, "" },
	{ "workers", SB_COL_INT, "" },
	SB_SYNC_EXP_COLS,
	{ NULL, 0, NULL },
};

static const struct sb_sync_sweep sweep = { SB_SYNC_SWEEP_WORKERS, "workers", sizes, 2, schemes,
					       NS };

SB_SYNC_SWEEP_HOOKS(sweep)

const struct sb_experiment sb_experiment_sync_scale = {
	.name = "sync_scale",
	.desc = "convergence time at M and 2M workers per scheme",
	.figure = "adsp-F4",
	.family = "sync",
	.params = params,
	.quick_set = "reps=1 workers=6 mlp=0 horizon=2400",
	.cols = cols,
	.summary_by = "workers policy",
	.summary_of = "conv_eff vs_adsp",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_sync_exp_teardown,
};
