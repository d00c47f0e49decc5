/*
 * marl_ablate.c - table marl-T1 (spec marl.md §8, §4.6-4.7): average JCT
 * on T1 at load 0.7 over held-out synthetic Philly-like traces of every
 * learned placer (the scheduler with PPO and A2C, single-agent DRL, and
 * the ablations without GNN, without the centralised critic, trained on
 * true slowdowns and trained interference-blind), beside the
 * interference-aware greedy (the strongest heuristic of the spec) on the
 * same traces. Weights from marl_train (or trained here when its inputs
 * differ). All [O]: our reconstruction (the paper is abstract-only).
 */
#include "marl_common.h"
#include "algorithms/marl/variant.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "jobs", 200, 10, 1e5, 1, "jobs per trace" },
	{ "reps", 20, 1, 1000, 1, "test traces" },
	{ "load", 0.7, 0.05, 2, 0, "offered load rho" },
	{ "pred_epochs", 60, 0, 1000, 1, "training epochs of the slowdown model S^" },
	SB_MARL_TRAIN_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const char *const learned[] = { "marl", "marl-a2c", "marl-single", "marl-flat",
				       "marl-indep", "marl-true", "marl-blind", "marl-gae95",
				       "marl-nodefer", "marl-untrained", NULL };

static const struct sb_col cols[] = { SB_MARL_EXP_COLS, { NULL, 0, NULL } };
static const struct sb_col tcols[] = { SB_CLUSTER_EXP_TIMING_COLS, { NULL, 0, NULL } };

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	int rc = sb_marl_exp_setup_state(c, "T1", (int)sb_opts_get(&c->opts, "reps"), err);
	return rc ? rc : sb_marl_exp_learn(c, c->state, learned, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_marl_exp *m = c->state;
	struct sb_jobset js;
	double load = sb_opts_get(&c->opts, "load");
	char label[64], set[32];
	int k, rc;

	/* key 1: the test traces of marl_jct */
	sb_marl_exp_jobs(c, m, (int)sb_opts_get(&c->opts, "jobs"), load, 1, point, &js);
	rc = sb_marl_exp_run(c, m, &js, "philly-like", "agents+greedy-interf", 1, point, load, out,
			     timing, NULL, err);
	for (k = 0; learned[k] && !rc; k++) {
		/* each runs under the number of agents it was trained with */
		snprintf(label, sizeof label, "agents+%s", learned[k]);
		snprintf(set, sizeof set, "agents=%d", sb_marl_variant_find(learned[k])->agents);
		rc = sb_marl_exp_run_set(c, m, &js, "philly-like", label, set, label, 1, point, load,
					 out, timing, NULL, err);
	}
	/* the scheduler sampling its actions instead of acting greedily
	 * (algorithms/marl/placer.c: why both are reported) */
	if (!rc)
		rc = sb_marl_exp_run_set(c, m, &js, "philly-like", "agents+marl", "agents=2,greedy=0",
					 "agents+marl:sampled", 1, point, load, out, timing, NULL,
					 err);
	sb_jobset_release(&js);
	return rc;
}

const struct sb_experiment sb_experiment_marl_ablate = {
	.name = "marl_ablate",
	.after = "marl_train", /* its trained weights */
	.desc = "ablation table: average JCT of every learned marl placer and greedy-interf, T1, load 0.7",
	.figure = "marl-T1",
	.family = "cluster",
	.params = params,
	.quick_set = "jobs=100 reps=2 pred_epochs=15 " SB_MARL_TRAIN_QUICK,
	.cols = cols,
	.timing_cols = tcols,
	.summary_by = "policy",
	.summary_of = "jct_mean interf_slowdown queue_mean",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_marl_exp_teardown,
};
