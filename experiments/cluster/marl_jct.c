/*
 * marl_jct.c - figure marl-F1 (spec marl.md §8): average JCT of every
 * heuristic on T1 at load 0.7 over held-out synthetic Philly-like traces
 * (mean and 95% CI over traces in the summary). The learned MARL
 * scheduler's series is added by its own branch. All [O], our design: the
 * paper is abstract-only; its ">20%" claim is tested against these.
 */
#include "marl_common.h"

static const struct sb_param params[] = {
	{ "jobs", 200, 10, 1e5, 1, "jobs per trace" },
	{ "reps", 20, 1, 1000, 1, "test traces" },
	{ "load", 0.7, 0.05, 2, 0, "offered load rho" },
	{ "pred_epochs", 60, 0, 1000, 1, "training epochs of the slowdown model S^" },
	SB_MARL_TRAIN_PARAMS,
	{ "trace", 0, 0, 1, 1, "1: the trace-derived workload (Philly arrivals, GPU counts, run times)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = { SB_MARL_EXP_COLS, { NULL, 0, NULL } };
static const struct sb_col tcols[] = { SB_CLUSTER_EXP_TIMING_COLS, { NULL, 0, NULL } };

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	int rc = sb_marl_exp_setup_state(c, "T1", (int)sb_opts_get(&c->opts, "reps"), err);
	if (!rc && sb_opts_get(&c->opts, "trace") > 0)
		rc = sb_marl_exp_trace_inputs(c, err);
	if (!rc)
		rc = sb_marl_exp_learn(c, c->state, sb_marl_exp_learned, err);
	return rc;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_marl_exp *m = c->state;
	struct sb_jobset js;
	double load = sb_opts_get(&c->opts, "load");
	const char *wl;
	int k, rc = 0;

	/* key 1: test traces (training traces of h-marl2 use other keys) */
	if ((rc = sb_marl_exp_workload(c, m, sb_opts_get(&c->opts, "trace") > 0,
				       (int)sb_opts_get(&c->opts, "jobs"), load, 1, point, &js, &wl,
				       err)) != 0)
		return rc;
	for (k = 0; sb_marl_exp_schemes[k] && !rc; k++)
		rc = sb_marl_exp_run(c, m, &js, wl, sb_marl_exp_schemes[k], 1, point, load, out,
				     timing, NULL, err);
	sb_jobset_release(&js);
	return rc;
}


const struct sb_experiment sb_experiment_marl_jct = {
	.name = "marl_jct",
	.after = "marl_train", /* its trained weights */
	.desc = "average JCT per heuristic on T1 at load 0.7, topology and interference mode",
	.figure = "marl-F1",
	.family = "cluster",
	.params = params,
	.quick_set = "jobs=100 reps=4 pred_epochs=15 " SB_MARL_TRAIN_QUICK,
	.cols = cols,
	.timing_cols = tcols,
	.summary_by = "policy",
	.summary_of = "jct_mean interf_slowdown queue_mean",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_marl_exp_teardown,
};
