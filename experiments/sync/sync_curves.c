/*
 * sync_curves.c - adsp-F2: the main comparison as curves (adsp.md §6.2,
 * the authors' four CIFAR-10 panels [V, code: cifar_rst.py]): global test
 * loss against simulated time, convergence time per scheme, total steps
 * against time, and loss against steps, for BSP, SSP, Fixed ADACOMM,
 * ADACOMM, ADSP and ASP [O: ASP is ours]. Every run lasts the whole
 * horizon (no stop at convergence), so the curves can be compared past
 * each scheme's convergence. Rows of kind "curve" are one check each;
 * rows of kind "scheme" are a run's totals. Substitutes and departures:
 * experiments/sync/common.h.
 */
#include "experiments/sync/common.h"

static const struct sb_param params[] = {
	{ "reps", 1, 1, 100, 1, "seeds" },
	SB_SYNC_EXP_SYSTEM,
	SB_SYNC_EXP_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "rep", SB_COL_INT, "" },
	SB_SYNC_EXP_CURVE_COLS,
	SB_SYNC_EXP_COLS,
	{ NULL, 0, NULL },
};

const struct sb_experiment sb_experiment_sync_curves = {
	.name = "sync_curves",
	.desc = "loss against time and steps, steps against time, per scheme",
	.figure = "adsp-F2",
	.family = "sync",
	.params = params,
	.quick_set = "workers=6 mlp=0 horizon=1800",
	.cols = cols,
	.setup = sb_sync_exp_f1_setup,
	.run_point = sb_sync_exp_curves_point,
	.teardown = sb_sync_exp_teardown,
};
