/*
 * variant.h - the trained placers of the marl family of methods: the
 * scheduler itself (PPO), its A2C twin, the single-agent DRL baseline and
 * the four ablations of marl.md §4.7, each a registered placer file whose
 * training recipe is one row of the table in variant.c; training one of
 * them on the simulator in this process; the canonical text of everything
 * a training run reads, whose hash decides whether stored weights may be
 * reused.
 *
 * Zhao, Wu, "Large-scale Machine Learning Cluster Scheduling via
 * Multi-agent Graph Reinforcement Learning", IEEE TNSM 2022.
 * Reconstructed [O] (marl.md §3, §4): the abstract verifies cooperating
 * agents, a hierarchical GNN and a learned interference model supplying
 * rewards; the variants, their recipes and hyper-parameters are ours.
 *
 * Family: cluster (core/cluster/; the topology-and-interference mode).
 */
#ifndef SB_MARL_VARIANT_H
#define SB_MARL_VARIANT_H

#include "algorithms/marl/features.h"
#include "algorithms/marl/train.h"
#include "workloads/cluster/marl.h"

/* Bump when training code changes what a recipe produces: it is part of
 * the inputs hash, so weights stored by older code are not reused. */
#define SB_MARL_TRAIN_VERSION "marl-train-3"

struct sb_marl_variant {
	const char *name;        /* = the placer's name */
	const char *desc;        /* what it isolates, one line */
	enum sb_marl_algo algo;
	enum sb_marl_arch arch;
	int ncritic;             /* 1 (CTDE) or SB_MARL_MAXAG (independent) */
	enum sb_marl_reward_src reward;
	int agents;              /* agents of the scheduler it trains under */
	double lambda;           /* GAE lambda over decision epochs (1: Monte-Carlo
				  * advantages, the default; see train.h) */
	int nodefer;             /* 1: the defer action is masked out (the policy
				  * places whenever an anchor fits) */
	int untrained;           /* 1: no training episodes (the seeded initial
				  * networks, a reference for what training does) */
};

/* Every variant (n of them), in table order. */
const struct sb_marl_variant *sb_marl_variants(int *n);
const struct sb_marl_variant *sb_marl_variant_find(const char *name);

/* The optimiser settings of v: sb_marl_cfg_defaults with v's algorithm,
 * GAE lambda, `episodes` episodes (0 for an untrained variant) and `seed`.
 * A2C steps after every episode (batch 1, actor lr 1e-3), PPO after every
 * 8. */
void sb_marl_variant_cfg(const struct sb_marl_variant *v, int episodes, uint64_t seed,
			 struct sb_marl_cfg *cfg);

/*
 * The canonical text of a training run of v on env (topology shape,
 * interference model, generator defaults), with cfg, njobs jobs per
 * episode and the caller's `extra` (data files' sha256, the predictor's
 * training parameters), into buf. Hash it with sb_marl_inputs_hash.
 */
void sb_marl_variant_text(const struct sb_marl_variant *v, const struct sb_marl_cfg *cfg,
			  int njobs, const struct sb_marl_env *env, const char *extra, char *buf,
			  size_t len);

/*
 * Train v on env (its topology; rewards from env->interf.pred, the ground
 * truth or none, as v says; evaluation settings restored afterwards):
 * a new net initialised from (cfg->seed, v's name), cfg->episodes episodes
 * of njobs jobs. *out owned by the caller; curve (cfg->episodes rows) may
 * be NULL. 0, SB_EXIT_INPUT (predicted rewards without a predictor, a
 * flat net's topology) or the trainer's error.
 */
int sb_marl_variant_train(const struct sb_marl_variant *v, struct sb_marl_env *env,
			  const struct sb_marl_cfg *cfg, int njobs, struct sb_marl_net **out,
			  struct sb_marl_curve *curve, struct sb_err *err);

/* The load_weights hook of every variant's placer: v's weights from the
 * `points` of results file path (any inputs hash: the user chose the
 * file), into the process's nets. 0 or SB_EXIT_INPUT naming the file. */
int sb_marl_variant_load(const char *name, const char *path, struct sb_err *err);

#endif
