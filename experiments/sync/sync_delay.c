/*
 * sync_delay.c - adsp-F8 (and §6.9's time breakdown): convergence time and
 * how a worker's time splits into computation, blocking and communication
 * when every commit round trip carries an injected delay of 0, 2, 5 or
 * 10 s (the authors slept 0/1/2.5/5 s in each send and receive and
 * plotted the sum, adsp.md §5 [V, code: vary_network_delay.py,
 * timeDistributionGroupBySys.py]), for BSP, SSP, Fixed ADACOMM, ADACOMM
 * and ADSP. Their expectation: the barrier-based schemes degrade fastest.
 * A run that does not converge within the horizon counts the horizon (a
 * lower bound: conv_eff). Substitutes and departures:
 * experiments/sync/common.h.
 */
#include "experiments/sync/common.h"

static const char *const schemes[] = { "bsp", "ssp", "fixed-adacomm", "adacomm", "adsp" };
#define NS ((int)(sizeof schemes / sizeof schemes[0]))
static const double delays[] = { 0, 2, 5, 10 };
#define ND ((int)(sizeof delays / sizeof delays[0]))

static const struct sb_param params[] = {
	{ "reps", 3, 1, 100, 1, "seeds" },
	SB_SYNC_EXP_SYSTEM,
	SB_SYNC_EXP_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "rep", SB_COL_INT, "" },
	{ "delay", SB_COL_DBL, "s per commit round trip" },
	SB_SYNC_EXP_COLS,
	{ NULL, 0, NULL },
};

static const struct sb_sync_sweep sweep = { SB_SYNC_SWEEP_DELAY, "delay", delays, ND, schemes,
					       NS };

SB_SYNC_SWEEP_HOOKS(sweep)

const struct sb_experiment sb_experiment_sync_delay = {
	.name = "sync_delay",
	.desc = "convergence time and time breakdown against injected delay",
	.figure = "adsp-F8",
	.family = "sync",
	.params = params,
	.quick_set = "reps=1 workers=6 mlp=0 horizon=2400",
	.cols = cols,
	.summary_by = "delay policy",
	.summary_of = "conv_eff compute blocked comm",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_sync_exp_teardown,
};
