/*
 * train.h - training the marl placer: PPO (clipped surrogate, several
 * epochs over each batch of episodes) or A2C (one plain policy-gradient
 * step per batch), generalised advantage estimation over decision epochs,
 * Adam with separate learning rates for the policy side (encoder, actor,
 * defer head) and the critic(s), one global gradient-norm clip per side,
 * a linear entropy schedule and a linear load curriculum.
 *
 * Zhao, Wu, "Large-scale Machine Learning Cluster Scheduling via
 * Multi-agent Graph Reinforcement Learning", IEEE TNSM 2022.
 * Reconstructed [O] (marl.md §3.6, §3.9): the abstract verifies multi-agent
 * RL with a learned reward model; the optimiser and every hyper-parameter
 * are ours.
 *
 * Family: cluster (the environment is the cluster simulator in the placer
 * role; the trainer sees it only through struct sb_marl_task).
 *
 * Determinism: single-threaded; action sampling and minibatch shuffles
 * draw from sb_rng_stream(seed, episode or batch, 0, purpose) and every
 * sum runs in a fixed order, so a seed gives bit-identical weights and
 * curves.
 */
#ifndef SB_MARL_TRAIN_H
#define SB_MARL_TRAIN_H

#include <stdint.h>

#include "algorithms/marl/net.h"

/* The trainer's side of an episode: the environment calls
 * sb_marl_decide at every decision and sb_marl_reward for the reward that
 * each decision's interval earned (the simulator owns the event loop, so
 * the environment pushes decisions to the trainer). */
struct sb_marl_agent;
/* The action (0 .. nserv - 1 anchors that server, nserv defers) for
 * observation o, sampled from the policy and recorded. */
int sb_marl_decide(struct sb_marl_agent *ag, const struct sb_marl_obs *o);
/* Add r to the reward of decision k (0-based, in the order of
 * sb_marl_decide calls of this episode); k out of range is a bug. */
void sb_marl_reward(struct sb_marl_agent *ag, int k, double r);

/* What the trainer drives. All agents share one trajectory of decisions
 * (the agents act in turn within an epoch) and one reward. */
struct sb_marl_task {
	const struct sb_marl_graph *gr;
	void *ctx;
	/* Run episode `episode` at offered load `load` (the trace drawn from
	 * (seed, episode)), deciding through ag; *score gets its score for
	 * the training curve (marl: average JCT in seconds). 0 or an error
	 * code with err. */
	int (*episode)(void *ctx, uint64_t seed, int episode, double load,
		       struct sb_marl_agent *ag, double *score, struct sb_err *err);
};

enum sb_marl_algo { SB_MARL_PPO = 0, SB_MARL_A2C = 1 };

struct sb_marl_cfg {
	enum sb_marl_algo algo;
	int episodes;        /* 400 */
	int batch;           /* episodes per update, 8 (A2C: one step per batch;
			      * batch = 1 steps after every episode) */
	int epochs;          /* PPO passes over a batch, 4 */
	int minibatch;       /* decisions per Adam step within a PPO epoch, 64 */
	double clip;         /* PPO ratio clip, 0.2 */
	double gamma;        /* 1: finite episodes, the return is -sum JCT / T_norm */
	double lambda;       /* GAE, 1 (Monte-Carlo advantages; the spec's 0.95 is
			      * the variant marl-gae95: see train.c) */
	double lr_actor;     /* 3e-4 */
	double lr_critic;    /* 1e-3 */
	double ent0, ent1;   /* entropy coefficient, 0.01 -> 0.001 */
	double gclip;        /* 1.0 */
	double load0, load1; /* curriculum, 0.5 -> 0.9 */
	double vcoef;        /* weight of the value loss in the encoder's gradient, 0.5 */
	uint64_t seed;
};
void sb_marl_cfg_defaults(struct sb_marl_cfg *c);

/* One row per episode of the training curve. */
struct sb_marl_curve {
	int episode;
	double load;
	double ret;          /* sum of rewards */
	double score;        /* env->score() */
	double entropy;      /* mean policy entropy over its decisions */
	int decisions;
};

/* Train net in place on the episodes of env. curve (cfg->episodes rows) may be NULL.
 * Returns 0, or the error of the environment. */
int sb_marl_train(struct sb_marl_net *net, struct sb_marl_task *env,
		  const struct sb_marl_cfg *cfg, struct sb_marl_curve *curve, struct sb_err *err);

/* The greedy (argmax, ties to the lowest index) or sampled action of a
 * forward pass's probabilities over k actions. */
int sb_marl_argmax(const double *p, int k);
int sb_marl_sample(const double *p, int k, struct sb_rng *r);

#endif
