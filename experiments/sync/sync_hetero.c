/*
 * sync_hetero.c - adsp-F3: convergence time against the heterogeneity
 * H = mean v / min v in {1.45, 2.0, 2.6, 3.2} (the authors' values,
 * adsp.md §5-6.4 [V, code: vary_Hete_degree.py]) for Fixed ADACOMM, ADSP,
 * BSP and SSP. The authors' bars show ADSP's lead over Fixed ADACOMM
 * growing with H; vs_adsp is each scheme's convergence time over ADSP's at
 * the same seed and H. One replicate keeps its data, initial model and
 * bandwidths for every H (common random numbers); only the speeds are
 * stretched. Substitutes and departures: experiments/sync/common.h.
 */
#include "experiments/sync/common.h"

static const char *const schemes[] = { "fixed-adacomm", "adsp", "bsp", "ssp" };
#define NS ((int)(sizeof schemes / sizeof schemes[0]))
static const double hs[] = { 1.45, 2.0, 2.6, 3.2 };
#define NH ((int)(sizeof hs / sizeof hs[0]))

static const struct sb_param params[] = {
	{ "reps", 3, 1, 100, 1, "seeds" },
	{ "workers", 18, 1, 1000, 1, "workers M" },
	SB_SYNC_EXP_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "rep", SB_COL_INT, "" },
	{ "h", SB_COL_DBL, "mean v / min v" },
	SB_SYNC_EXP_COLS,
	{ NULL, 0, NULL },
};

static const struct sb_sync_sweep sweep = { SB_SYNC_SWEEP_H, "h", hs, NH, schemes, NS };

SB_SYNC_SWEEP_HOOKS(sweep)

const struct sb_experiment sb_experiment_sync_hetero = {
	.name = "sync_hetero",
	.desc = "convergence time against heterogeneity H per scheme",
	.figure = "adsp-F3",
	.family = "sync",
	.params = params,
	.quick_set = "reps=1 workers=6 mlp=0 horizon=2400",
	.cols = cols,
	.summary_by = "h policy",
	.summary_of = "conv_eff vs_adsp",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_sync_exp_teardown,
};
