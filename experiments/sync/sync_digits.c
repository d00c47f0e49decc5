/*
 * sync_digits.c - adsp-F1 on real data: the same scheme comparison as
 * sync_schemes on the scikit-learn "digits" set (1,797 8x8 images, 10
 * classes; adsp.md §7 data (ii)), read from DATA_DIR/digits/digits.csv
 * (64 pixel columns then the label, no header; scikit-learn ships it
 * gzipped as sklearn/datasets/data/digits.csv.gz, e.g. in Debian's
 * python3-sklearn: gunzip it into DATA_DIR/digits/). Its sha256 goes into
 * the results; without the file the run uses the Gaussian mixture and
 * says so in its inputs. 4/5 of the rows train (sharded over workers),
 * 1/5 test. The clock, speeds and departures: experiments/sync/common.h.
 */
#include "experiments/sync/common.h"

static const struct sb_param params[] = {
	{ "reps", 3, 1, 100, 1, "seeds (data split, initial model, speeds)" },
	SB_SYNC_EXP_SYSTEM,
	SB_SYNC_EXP_PARAMS_D(1),
	{ NULL, 0, 0, 0, 0, NULL },
};

const struct sb_experiment sb_experiment_sync_digits = {
	.name = "sync_digits",
	.desc = "convergence time per scheme on the scikit-learn digits (mixture without them)",
	.figure = "adsp-F1d",
	.family = "sync",
	.params = params,
	.quick_set = "reps=1 workers=6 mlp=0 horizon=2400",
	.cols = sb_sync_exp_f1_cols,
	.summary_by = "policy",
	.summary_of = "conv_eff compute blocked comm",
	.setup = sb_sync_exp_f1_setup,
	.run_point = sb_sync_exp_f1_point,
	.teardown = sb_sync_exp_teardown,
};
