/*
 * marl_seeds.c - figure marl-S (ours, beside marl.md §8): how much of a
 * learned placer's result is its training run. The scheduler's recipe
 * with GAE lambda = 1 (marl) and with the spec's lambda = 0.95
 * (marl-gae95) is trained with several training seeds on T1 (the first
 * seed is the experiment's, as in marl_train), and each net runs on
 * marl_jct's held-out traces at load 0.7, acting greedily and sampling
 * its actions; tiresias+consolidate and agents+greedy-interf run on the
 * same traces for reference (point 0). One point per (recipe, seed); its
 * rows carry the recipe's lambda, the training seed and the action rule.
 * Nets are trained here, not stored. All [O]: our reconstruction (the
 * paper is abstract-only).
 */
#include "marl_common.h"
#include "algorithms/marl/placer.h"
#include "algorithms/marl/variant.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "seeds", 5, 1, 100, 1, "training seeds per recipe" },
	{ "jobs", 200, 10, 1e5, 1, "jobs per test trace" },
	{ "reps", 20, 1, 1000, 1, "test traces" },
	{ "load", 0.7, 0.05, 2, 0, "offered load rho" },
	{ "pred_epochs", 60, 1, 1000, 1, "training epochs of the slowdown model S^" },
	SB_MARL_TRAIN_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

#define NRECIPE 2
static const char *const recipe[NRECIPE] = { "marl", "marl-gae95" };

static const struct sb_col cols[] = {
	SB_MARL_EXP_COLS,
	{ "lambda", SB_COL_DBL, "GAE lambda of the recipe (-1: a heuristic)" },
	{ "train_seed", SB_COL_INT, "training seed (-1: a heuristic)" },
	{ "act", SB_COL_STR, "greedy, sampled, or - for a heuristic" },
	{ NULL, 0, NULL },
};
static const struct sb_col tcols[] = { SB_CLUSTER_EXP_TIMING_COLS, { NULL, 0, NULL } };

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	return sb_marl_exp_setup_state(c, "T1", NRECIPE * (int)sb_opts_get(&c->opts, "seeds"),
				       err);
}

/* Label the rows appended since row `from`. */
static void label(struct sb_table *out, size_t from, double lambda, int seed, const char *act)
{
	for (; from < out->nrow; from++) {
		sb_table_set_dbl(out, from, "lambda", lambda);
		sb_table_set_int(out, from, "train_seed", seed);
		sb_table_set_str(out, from, "act", act);
	}
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	static const char *const refs[] = { "tiresias+consolidate", "agents+greedy-interf", NULL };
	struct sb_marl_exp *m = c->state;
	const struct sb_marl_variant *v = sb_marl_variant_find(recipe[point % NRECIPE]);
	int s = point / NRECIPE, reps = (int)sb_opts_get(&c->opts, "reps"), r, k, rc;
	uint64_t seed = c->seed + (uint64_t)s;
	double load = sb_opts_get(&c->opts, "load");
	struct sb_marl_cfg cfg;
	struct sb_marl_net *net = NULL;
	char lab[64], set[48];

	SB_ASSERT(v);
	sb_marl_variant_cfg(v, (int)sb_opts_get(&c->opts, "train_episodes"), seed, &cfg);
	if ((rc = sb_marl_variant_train(v, &m->env, &cfg, (int)sb_opts_get(&c->opts, "train_jobs"),
					&net, NULL, err)))
		return rc;
	if ((rc = sb_marl_nets_put(v->name, net, err))) {
		sb_marl_net_free(net);
		return rc;
	}
	snprintf(lab, sizeof lab, "agents+%s", v->name);
	for (r = 0; r < reps && !rc; r++) {
		struct sb_jobset js;
		size_t from;

		/* key 1: marl_jct's test traces */
		sb_marl_exp_jobs(c, m, (int)sb_opts_get(&c->opts, "jobs"), load, 1, r, &js);
		for (k = 0; k < 2 && !rc; k++) {
			from = out->nrow;
			snprintf(set, sizeof set, "agents=%d,greedy=%d", v->agents, !k);
			rc = sb_marl_exp_run_set(c, m, &js, "philly-like", lab, set, lab, 1, r, load, out,
						 timing, NULL, err);
			label(out, from, cfg.lambda, (int)seed, k ? "sampled" : "greedy");
		}
		for (k = 0; point == 0 && refs[k] && !rc; k++) {
			from = out->nrow;
			rc = sb_marl_exp_run(c, m, &js, "philly-like", refs[k], 1, r, load, out, timing,
					     NULL, err);
			label(out, from, -1, -1, "-");
		}
		sb_jobset_release(&js);
	}
	sb_marl_nets_clear();
	return rc;
}

const struct sb_experiment sb_experiment_marl_seeds = {
	.name = "marl_seeds",
	.desc = "the scheduler (GAE lambda 1 and 0.95) trained with several seeds, greedy and sampled, T1, load 0.7",
	.figure = "marl-S",
	.family = "cluster",
	.params = params,
	.quick_set = "seeds=2 jobs=60 reps=2 pred_epochs=15 " SB_MARL_TRAIN_QUICK,
	.cols = cols,
	.timing_cols = tcols,
	.summary_by = "policy act train_seed",
	.summary_of = "jct_mean queue_mean",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_marl_exp_teardown,
};
