/*
 * marl_load.c - figure marl-F3 (spec marl.md §8): average JCT of every
 * heuristic against the offered load (0.5, 0.7, 0.9) on T1. Common random
 * numbers: replicate r is the same trace shape at every load (the same
 * instance stream; only the arrival rate differs). All [O], our design.
 */
#include "marl_common.h"

static const double loads[] = { 0.5, 0.7, 0.9 };
#define NLOAD 3

static const struct sb_param params[] = {
	{ "jobs", 200, 10, 1e5, 1, "jobs per trace" },
	{ "reps", 10, 1, 1000, 1, "traces per load" },
	{ "pred_epochs", 60, 0, 1000, 1, "training epochs of the slowdown model S^" },
	SB_MARL_TRAIN_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = { SB_MARL_EXP_COLS, { NULL, 0, NULL } };

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	int rc = sb_marl_exp_setup_state(c, "T1", NLOAD * (int)sb_opts_get(&c->opts, "reps"), err);
	return rc ? rc : sb_marl_exp_learn(c, c->state, sb_marl_exp_learned, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_marl_exp *m = c->state;
	struct sb_jobset js;
	double load = loads[point % NLOAD];
	int rep = point / NLOAD, k, rc = 0;

	(void)timing;
	sb_marl_exp_jobs(c, m, (int)sb_opts_get(&c->opts, "jobs"), load, 3, rep, &js);
	for (k = 0; sb_marl_exp_schemes[k] && !rc; k++)
		rc = sb_marl_exp_run(c, m, &js, "philly-like", sb_marl_exp_schemes[k], 3, rep, load,
				     out, NULL, NULL, err);
	sb_jobset_release(&js);
	return rc;
}


const struct sb_experiment sb_experiment_marl_load = {
	.name = "marl_load",
	.after = "marl_train", /* its trained weights */
	.desc = "average JCT of every heuristic against load (0.5, 0.7, 0.9), T1",
	.figure = "marl-F3",
	.family = "cluster",
	.params = params,
	.quick_set = "jobs=100 reps=3 pred_epochs=15 " SB_MARL_TRAIN_QUICK,
	.cols = cols,
	.summary_by = "policy load",
	.summary_of = "jct_mean interf_slowdown",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_marl_exp_teardown,
};
