/*
 * variant.c - the recipes of the trained marl placers, training one in
 * this process, and the text their stored weights are keyed by (see
 * variant.h). Reconstructed [O], marl.md §3, §4.
 *
 * Family: cluster (core/cluster/).
 */
#include "algorithms/marl/variant.h"
#include "algorithms/marl/placer.h"
#include "algorithms/marl/store.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct sb_marl_variant variants[] = {
	{ "marl", "the scheduler: two-level GNN, 2 agents, centralised critic, PPO, rewards from S^",
	  SB_MARL_PPO, SB_MARL_ARCH_GNN, 1, SB_MARL_REWARD_PREDICTED, 2, 1.0, 0, 0 },
	{ "marl-a2c", "the scheduler trained with A2C instead of PPO",
	  SB_MARL_A2C, SB_MARL_ARCH_GNN, 1, SB_MARL_REWARD_PREDICTED, 2, 1.0, 0, 0 },
	{ "marl-single", "single-agent DRL: the same networks, one agent serving every job",
	  SB_MARL_PPO, SB_MARL_ARCH_GNN, 1, SB_MARL_REWARD_PREDICTED, 1, 1.0, 0, 0 },
	{ "marl-flat", "ablation: one MLP over the concatenated server features, no GNN",
	  SB_MARL_PPO, SB_MARL_ARCH_FLAT, 1, SB_MARL_REWARD_PREDICTED, 2, 1.0, 0, 0 },
	{ "marl-indep", "ablation: one critic per agent (same inputs) instead of one shared critic",
	  SB_MARL_PPO, SB_MARL_ARCH_GNN, SB_MARL_MAXAG, SB_MARL_REWARD_PREDICTED, 2, 1.0, 0, 0 },
	{ "marl-true", "ablation: rewards from the true slowdowns (no model error)",
	  SB_MARL_PPO, SB_MARL_ARCH_GNN, 1, SB_MARL_REWARD_TRUE, 2, 1.0, 0, 0 },
	{ "marl-blind", "ablation: rewards with S = 1 (interference-blind training)",
	  SB_MARL_PPO, SB_MARL_ARCH_GNN, 1, SB_MARL_REWARD_NONE, 2, 1.0, 0, 0 },
	{ "marl-gae95", "setting: the spec's GAE lambda = 0.95 over decision epochs (marl.md 3.9)",
	  SB_MARL_PPO, SB_MARL_ARCH_GNN, 1, SB_MARL_REWARD_PREDICTED, 2, 0.95, 0, 0 },
	{ "marl-nodefer", "ablation: no defer action (places whenever an anchor fits)",
	  SB_MARL_PPO, SB_MARL_ARCH_GNN, 1, SB_MARL_REWARD_PREDICTED, 2, 1.0, 1, 0 },
	{ "marl-untrained", "reference: the scheduler's seeded initial networks, no training",
	  SB_MARL_PPO, SB_MARL_ARCH_GNN, 1, SB_MARL_REWARD_PREDICTED, 2, 1.0, 0, 1 },
};

const struct sb_marl_variant *sb_marl_variants(int *n)
{
	*n = (int)(sizeof variants / sizeof variants[0]);
	return variants;
}

const struct sb_marl_variant *sb_marl_variant_find(const char *name)
{
	size_t k;

	for (k = 0; k < sizeof variants / sizeof variants[0]; k++)
		if (!strcmp(variants[k].name, name))
			return &variants[k];
	return NULL;
}

void sb_marl_variant_cfg(const struct sb_marl_variant *v, int episodes, uint64_t seed,
			 struct sb_marl_cfg *cfg)
{
	sb_marl_cfg_defaults(cfg);
	cfg->algo = v->algo;
	cfg->lambda = v->lambda;
	cfg->episodes = v->untrained ? 0 : episodes;
	cfg->seed = seed;
	if (v->algo == SB_MARL_A2C) {
		/* one plain policy-gradient step per batch is on-policy only
		 * for the batch it was sampled from: step after each episode,
		 * with a larger rate since there is one step per episode
		 * instead of PPO's 4 epochs of minibatches */
		cfg->batch = 1;
		cfg->lr_actor = 1e-3;
	}
}

/* ------------------------------------------------------------ the text */

struct text {
	char *buf;
	size_t len, at;
};

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->at >= t->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->at, t->len - t->at, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->at += (size_t)n;
}

void sb_marl_variant_text(const struct sb_marl_variant *v, const struct sb_marl_cfg *cfg,
			  int njobs, const struct sb_marl_env *env, const char *extra, char *buf,
			  size_t len)
{
	const struct sb_cluster_tree *tp = &env->topo;
	const struct sb_interf *m = &env->interf;
	struct text t = { buf, len, 0 };
	struct sb_marl_gen g;
	uint64_t h = SB_HASH_INIT;
	int k;

	buf[0] = 0;
	put(&t, "%s; variant %s algo %d arch %d ncritic %d reward %s agents %d nodefer %d; ",
	    SB_MARL_TRAIN_VERSION, v->name, (int)v->algo, (int)v->arch, v->ncritic,
	    sb_marl_reward_src_name(v->reward), v->agents, v->nodefer);
	put(&t, "cfg %d %d %d %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g "
	    "%.17g seed %llu; jobs %d; ", cfg->episodes, cfg->batch, cfg->epochs, cfg->minibatch,
	    cfg->clip, cfg->gamma, cfg->lambda, cfg->lr_actor, cfg->lr_critic, cfg->ent0, cfg->ent1,
	    cfg->gclip, cfg->load0, cfg->load1, cfg->vcoef, (unsigned long long)cfg->seed, njobs);
	/* the topology's shape (the name alone may be a user's file) */
	h = sb_hash_bytes(h, tp->parent, (size_t)tp->nnode * sizeof *tp->parent);
	h = sb_hash_bytes(h, tp->level, (size_t)tp->nnode);
	h = sb_hash_bytes(h, tp->bw, sizeof tp->bw);
	put(&t, "topo %s nodes %d servers %d x %d tree %016llx; ", tp->name, tp->nnode, tp->nserver,
	    tp->gpus, (unsigned long long)h);
	put(&t, "interf on %d lambda %.17g %.17g %.17g gamma %.17g eps %.17g noise %llu tor %d; ",
	    m->on, m->lambda[0], m->lambda[1], m->lambda[2], m->gamma, m->eps,
	    (unsigned long long)m->noise_seed, m->tor_share);
	for (k = 0; k < m->ntype; k++)
		put(&t, "type %s %.17g %.17g %.17g %.17g %.17g; ", m->type[k].name, m->type[k].t_comp,
		    m->type[k].size_mb, m->type[k].r[0], m->type[k].r[1], m->type[k].r[2]);
	sb_marl_gen_defaults(&g);
	put(&t, "gen %.17g %.17g %.17g %.17g %.17g %.17g; ", g.dur_min, g.dur_max, g.wmix[0],
	    g.wmix[1], g.wmix[2], g.wmix[3]);
	if (v->reward == SB_MARL_REWARD_PREDICTED && m->pred) {
		size_t n;
		const double *w = sb_interf_pred_weights(m->pred, &n);
		put(&t, "pred %zu %016llx; ", n,
		    (unsigned long long)sb_hash_bytes(SB_HASH_INIT, w, n * sizeof *w));
	}
	put(&t, "%s", extra ? extra : "");
}

/* ------------------------------------------------------------ training */

int sb_marl_variant_train(const struct sb_marl_variant *v, struct sb_marl_env *env,
			  const struct sb_marl_cfg *cfg, int njobs, struct sb_marl_net **out,
			  struct sb_marl_curve *curve, struct sb_err *err)
{
	struct sb_marl_cluster_task tk;
	struct sb_marl_net *net = NULL;
	/* an untrained variant starts from the scheduler's own initial nets */
	struct sb_rng r = sb_rng_stream(cfg->seed, 0, 0, SB_RNG_POLICY ^
					sb_hash_str(v->untrained ? "marl" : v->name));
	int rc, on = env->interf.on, use_pred = env->interf.use_pred, migrate = env->interf.migrate;
	char combo[64];

	*out = NULL;
	if (v->reward == SB_MARL_REWARD_PREDICTED && !env->interf.pred)
		return sb_err_set(err, SB_EXIT_INPUT, "placer '%s': training rewards come from the "
				  "learned slowdown model, and none was trained (pred_epochs = 0)",
				  v->name);
	snprintf(combo, sizeof combo, "agents+%s", v->name);
	if ((rc = sb_marl_cluster_task_init(&tk, env, combo, v->agents, njobs, err)))
		return rc;
	if (!(net = sb_marl_net_new(v->arch, v->ncritic, env->topo.nserver, err))) {
		rc = SB_EXIT_RUN;
		goto out;
	}
	sb_marl_net_init(net, &r);
	env->interf.use_pred = v->reward == SB_MARL_REWARD_PREDICTED;
	env->interf.on = on && v->reward != SB_MARL_REWARD_NONE;
	env->interf.migrate = 0;
	rc = sb_marl_train(net, &tk.task, cfg, curve, err);
	env->interf.use_pred = use_pred;
	env->interf.on = on;
	env->interf.migrate = migrate;
	if (rc)
		goto out;
	*out = net;
	net = NULL;
out:
	sb_marl_net_free(net);
	sb_marl_cluster_task_release(&tk);
	return rc;
}

int sb_marl_variant_load(const char *name, const char *path, struct sb_err *err)
{
	struct sb_marl_net *net = NULL;
	int rc = sb_marl_store_load(path, name, NULL, &net, err);

	if (rc)
		return rc;
	if ((rc = sb_marl_nets_put(name, net, err)))
		sb_marl_net_free(net);
	return rc;
}
