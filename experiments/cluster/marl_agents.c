/*
 * marl_agents.c - figure marl-F4 (spec marl.md §8): average JCT and
 * per-decision wall time against the number of agents (1, 2, 4) on T1 at
 * load 0.7: the learned scheduler (trained with 2 agents) and the
 * single-agent DRL baseline (trained with 1) each run under 1, 2 and 4
 * agents, greedy-interf beside them. Per-decision time is the placer's
 * wall-clock time per decision (`timing`, not deterministic); the agents
 * act in turn in our simulator, so it measures one agent's decision cost,
 * not a parallel deployment's latency. All [O]: our reconstruction (the
 * paper is abstract-only).
 */
#include "marl_common.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "jobs", 200, 10, 1e5, 1, "jobs per trace" },
	{ "reps", 10, 1, 1000, 1, "test traces per agent count" },
	{ "load", 0.7, 0.05, 2, 0, "offered load rho" },
	{ "pred_epochs", 60, 0, 1000, 1, "training epochs of the slowdown model S^" },
	SB_MARL_TRAIN_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

#define NAG 3
static const int nagents[NAG] = { 1, 2, 4 };
static const char *const schemes[] = { "agents+marl", "agents+marl-single",
				       "agents+greedy-interf", NULL };
static const char *const learned[] = { "marl", "marl-single", NULL };

static const struct sb_col cols[] = {
	SB_MARL_EXP_COLS,
	{ "agents", SB_COL_INT, "agents placing jobs" },
	{ NULL, 0, NULL },
};
static const struct sb_col tcols[] = {
	SB_CLUSTER_EXP_TIMING_COLS,
	{ "agents", SB_COL_INT, "" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	int rc = sb_marl_exp_setup_state(c, "T1", NAG * (int)sb_opts_get(&c->opts, "reps"), err);
	return rc ? rc : sb_marl_exp_learn(c, c->state, learned, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_marl_exp *m = c->state;
	struct sb_jobset js;
	double load = sb_opts_get(&c->opts, "load");
	int na = nagents[point % NAG], rep = point / NAG, k, rc = 0;
	char set[32];

	/* key 1: the test traces of marl_jct, the same at every agent count */
	sb_marl_exp_jobs(c, m, (int)sb_opts_get(&c->opts, "jobs"), load, 1, rep, &js);
	snprintf(set, sizeof set, "agents=%d", na);
	for (k = 0; schemes[k] && !rc; k++) {
		rc = sb_marl_exp_run_set(c, m, &js, "philly-like", schemes[k], set, schemes[k], 1, rep,
					 load, out, timing, NULL, err);
		if (rc)
			break;
		sb_table_set_int(out, out->nrow - 1, "agents", na);
		if (timing && timing->nrow)
			sb_table_set_int(timing, timing->nrow - 1, "agents", na);
	}
	sb_jobset_release(&js);
	return rc;
}

const struct sb_experiment sb_experiment_marl_agents = {
	.name = "marl_agents",
	.after = "marl_train", /* its trained weights */
	.desc = "average JCT and per-decision time against the number of agents (1, 2, 4), T1, load 0.7",
	.figure = "marl-F4",
	.family = "cluster",
	.params = params,
	.quick_set = "jobs=100 reps=2 pred_epochs=15 " SB_MARL_TRAIN_QUICK,
	.cols = cols,
	.timing_cols = tcols,
	.summary_by = "agents policy",
	.summary_of = "jct_mean queue_mean",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_marl_exp_teardown,
};
