/*
 * sync_schemes.c - adsp-F1: convergence time of every scheme with its
 * computation / blocked / communication split (the authors' motivation
 * study, adsp.md §6.1: BSP 30,336 s > SSP 16,308 s > Fixed ADACOMM 4,901 s
 * > ADACOMM 3,579 s > ADSP 2,449 s, ADSP with zero blocked time [V, code]).
 * We compare rankings only, never seconds: our clock, model and data are
 * substitutes [O] (departures from adsp.md §7: experiments/sync/common.h).
 * Each point is one seed; n_faster / n_slower count the schemes strictly
 * faster / slower to converge at that seed (a scheme that never converges
 * within the horizon is slower than any that does). digits=1 runs the
 * same comparison on the scikit-learn digits when DATA_DIR has them.
 */
#include "experiments/sync/common.h"

static const struct sb_param params[] = {
	{ "reps", 3, 1, 100, 1, "seeds" },
	SB_SYNC_EXP_SYSTEM,
	SB_SYNC_EXP_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

const struct sb_experiment sb_experiment_sync_schemes = {
	.name = "sync_schemes",
	.desc = "convergence time and computation/blocked/communication per scheme",
	.figure = "adsp-F1",
	.family = "sync",
	.params = params,
	.quick_set = "reps=2 workers=6 mlp=0 horizon=2400",
	.cols = sb_sync_exp_f1_cols,
	.summary_by = "policy",
	.summary_of = "conv_eff compute blocked comm",
	.setup = sb_sync_exp_f1_setup,
	.run_point = sb_sync_exp_f1_point,
	.teardown = sb_sync_exp_teardown,
};
