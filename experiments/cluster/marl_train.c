/*
 * marl_train.c - figure marl-F6 (spec marl.md §8) and the weights every
 * other marl experiment runs from: trains each learned placer of
 * algorithms/marl/variant.c on T1 (the scheduler with PPO and with A2C,
 * single-agent DRL, the four ablations of §4.7), and the scheduler again
 * on T2 and T3 (the "retrained" series of F5), single-threaded from seeded
 * streams, on synthetic Philly-like episodes at the curriculum's load
 * (0.5 -> 0.9), with rewards from the learned slowdown model S^ (or the
 * ground truth, or none, as the variant says). One point per training
 * run; its rows are the training curve (kind "curve": episode, load,
 * average JCT, return, entropy), and its trained weights go to the
 * `weights` detail dataset (one row per parameter, keyed by the inputs
 * hash; algorithms/marl/store.h).
 * Training CPU seconds go to `timing`. Every episode passes the family's
 * checker (placer.c). All [O]: our reconstruction (the paper is
 * abstract-only).
 */
#include "marl_common.h"
#include "algorithms/marl/placer.h"
#include "algorithms/marl/store.h"
#include "algorithms/marl/variant.h"

#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "pred_epochs", 60, 1, 1000, 1, "training epochs of the slowdown model S^" },
	SB_MARL_TRAIN_PARAMS,
	{ "only", -1, -1, 100, 1, "train only this run (its point index); -1: every run" },
	{ NULL, 0, 0, 0, 0, NULL },
};

#define EXTRA_RUNS 2   /* marl retrained on T2 and T3 */
static const char *const extra_topo[EXTRA_RUNS] = { "T2", "T3" };

static const struct sb_col cols[] = {
	{ "kind", SB_COL_STR, "curve" },
	{ "variant", SB_COL_STR, "placer, @topology when not trained on T1" },
	{ "inputs", SB_COL_STR, "hash of the training inputs" },
	{ "arch", SB_COL_INT, "0 GNN, 1 flat" },
	{ "ncritic", SB_COL_INT, "" },
	{ "nserv", SB_COL_INT, "servers of the flat encoder" },
	{ "topo", SB_COL_STR, "training topology" },
	{ "algo", SB_COL_STR, "" },
	{ "episode", SB_COL_INT, "" },
	{ "load", SB_COL_DBL, "offered load of the episode (curriculum)" },
	{ "jct_mean", SB_COL_DBL, "s, average JCT of the episode (training slowdowns)" },
	{ "ret", SB_COL_DBL, "sum of rewards" },
	{ "entropy", SB_COL_DBL, "mean policy entropy" },
	{ "decisions", SB_COL_INT, "" },
	{ "provenance", SB_COL_STR, "" },
	{ NULL, 0, NULL },
};

static const struct sb_col tcols[] = {
	{ "variant", SB_COL_STR, "" },
	{ "episodes", SB_COL_INT, "" },
	{ "decisions", SB_COL_INT, "" },
	{ "cpu_seconds", SB_COL_DBL, "s (CPU time of the training, this process)" },
	{ NULL, 0, NULL },
};

/* the trained weights, one row per parameter (algorithms/marl/store.h) */
static const struct sb_exp_dataset details[] = {
	{ SB_MARL_STORE_DATASET, sb_marl_store_schema },
	{ NULL, NULL },
};

static int nvariants(void)
{
	int n;
	sb_marl_variants(&n);
	return n;
}

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	int only = (int)sb_opts_get(&c->opts, "only");

	if (only >= nvariants() + EXTRA_RUNS)
		return sb_err_set(err, SB_EXIT_INPUT, "marl_train: parameter 'only': %d is not a "
				  "training run (0 .. %d)", only, nvariants() + EXTRA_RUNS - 1);
	return sb_marl_exp_setup_state(c, "T1", only >= 0 ? 1 : nvariants() + EXTRA_RUNS, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_marl_exp *m = c->state, other;
	struct sb_marl_env *env = &m->env;
	const struct sb_marl_variant *v;
	struct sb_marl_cfg cfg;
	struct sb_marl_curve *cv = NULL;
	struct sb_marl_net *net = NULL;
	char key[SB_STR_LEN], hash[SB_MARL_HASH_LEN];
	int nv = nvariants(), rc, k, own = 0;
	long dec = 0;
	double t0;

	if (sb_opts_get(&c->opts, "only") >= 0)
		point = (int)sb_opts_get(&c->opts, "only");
	if (point < nv) {
		v = &sb_marl_variants(&k)[point];
		snprintf(key, sizeof key, "%s", v->name);
	} else {
		v = sb_marl_variant_find("marl");
		snprintf(key, sizeof key, "marl@%s", extra_topo[point - nv]);
		if ((rc = sb_marl_exp_train_env(c, m, extra_topo[point - nv], &other, err)))
			return rc;
		own = 1;
		env = &other.env;
	}
	sb_marl_variant_cfg(v, (int)sb_opts_get(&c->opts, "train_episodes"), c->seed, &cfg);
	sb_marl_exp_net_hash(c, env, v->name, hash);
	cv = SB_NEW(struct sb_marl_curve, cfg.episodes);
	t0 = sb_cpu_now();
	if ((rc = sb_marl_variant_train(v, env, &cfg, (int)sb_opts_get(&c->opts, "train_jobs"),
					&net, cv, err)))
		goto out;
	for (k = 0; k < cfg.episodes; k++) {
		size_t r = sb_table_add(out);
		sb_table_set_str(out, r, "kind", "curve");
		sb_table_set_str(out, r, "variant", key);
		sb_table_set_str(out, r, "inputs", hash);
		sb_table_set_int(out, r, "arch", net->arch);
		sb_table_set_int(out, r, "ncritic", net->ncritic);
		sb_table_set_int(out, r, "nserv", net->flat_nserv);
		sb_table_set_str(out, r, "topo", env->topo.name);
		sb_table_set_str(out, r, "algo", v->algo == SB_MARL_A2C ? "a2c" : "ppo");
		sb_table_set_int(out, r, "episode", cv[k].episode);
		sb_table_set_dbl(out, r, "load", cv[k].load);
		sb_table_set_dbl(out, r, "jct_mean", cv[k].score);
		sb_table_set_dbl(out, r, "ret", cv[k].ret);
		sb_table_set_dbl(out, r, "entropy", cv[k].entropy);
		sb_table_set_int(out, r, "decisions", cv[k].decisions);
		sb_table_set_str(out, r, "provenance", "reconstructed:training");
		dec += cv[k].decisions;
	}
	sb_marl_store_put(&c->detail[0], key, hash, net);
	if (timing) {
		size_t r = sb_table_add(timing);
		sb_table_set_str(timing, r, "variant", key);
		sb_table_set_int(timing, r, "episodes", cfg.episodes);
		sb_table_set_int(timing, r, "decisions", dec);
		sb_table_set_dbl(timing, r, "cpu_seconds", sb_cpu_now() - t0);
	}
out:
	sb_marl_net_free(net);
	sb_free(cv);
	if (own)
		sb_marl_exp_release(&other);
	return rc;
}

const struct sb_experiment sb_experiment_marl_train = {
	.name = "marl_train",
	.desc = "training curves (PPO, A2C) and stored weights of every learned marl placer, T1 (and marl on T2, T3)",
	.figure = "marl-F6",
	.family = "cluster",
	.params = params,
	.quick_set = "pred_epochs=15 " SB_MARL_TRAIN_QUICK,
	.cols = cols,
	.timing_cols = tcols,
	.details = details,
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_marl_exp_teardown,
};
