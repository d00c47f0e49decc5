/*
 * marl.c - the multi-agent graph RL placer: the two-level GNN encoder,
 * the shared actor with a defer logit over feasible anchors, a
 * centralised critic, trained by PPO with rewards from the learned
 * slowdown model S^ (marl.md §3), acting greedily (argmax) in evaluation.
 *
 * Zhao, Wu, "Large-scale Machine Learning Cluster Scheduling via
 * Multi-agent Graph Reinforcement Learning", IEEE TNSM 2022.
 * Reconstructed [O] (marl.md §3): the verified ideas are kept, the
 * networks and training are ours. Weights: from a marl training run
 * (algorithms/marl/placer.h).
 *
 * Family: cluster (core/cluster/).
 */
#include "algorithms/marl/placer.h"
#include "algorithms/marl/variant.h"

static int place(const struct sb_csim *s, int j, const struct sb_opts *o, struct sb_rng *rng,
		 int *gpus)
{
	return sb_marl_place("marl", s, j, o, rng, gpus);
}

static int load_weights(const char *path, struct sb_err *err)
{
	return sb_marl_variant_load("marl", path, err);
}

const struct sb_cluster_policy sb_cluster_policy_marl = {
	.name = "marl",
	.cite = "Zhao, Wu, Large-scale ML Cluster Scheduling via Multi-agent Graph RL, IEEE TNSM 2022",
	.desc = "learned placer: two-level GNN, shared actor, centralised critic, PPO on predicted slowdowns",
	.provenance = "reconstructed",
	.topo = 1,
	.params = sb_marl_placer_params,
	.place = place,
	.load_weights = load_weights,
};
