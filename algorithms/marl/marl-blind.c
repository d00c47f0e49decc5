/*
 * marl-blind.c - ablation (marl.md §4.7): trained with S = 1, interference-blind, so
 * only locality and queueing shape its rewards (table T1); evaluated, like
 * every scheme, on the ground truth.
 *
 * Zhao, Wu, "Large-scale Machine Learning Cluster Scheduling via
 * Multi-agent Graph Reinforcement Learning", IEEE TNSM 2022.
 * Reconstructed [O] (marl.md §3, §4): the recipe is a row of
 * algorithms/marl/variant.c; weights from a marl_train run.
 *
 * Family: cluster (core/cluster/).
 */
#include "algorithms/marl/placer.h"
#include "algorithms/marl/variant.h"

static int place(const struct sb_csim *s, int j, const struct sb_opts *o, struct sb_rng *rng,
		 int *gpus)
{
	return sb_marl_place("marl-blind", s, j, o, rng, gpus);
}

static int load_weights(const char *path, struct sb_err *err)
{
	return sb_marl_variant_load("marl-blind", path, err);
}

const struct sb_cluster_policy sb_cluster_policy_marl_blind = {
	.name = "marl-blind",
	.cite = "Zhao, Wu, Large-scale ML Cluster Scheduling via Multi-agent Graph RL, IEEE TNSM 2022",
	.desc = "ablation: trained interference-blind (S = 1 in training)",
	.provenance = "reconstructed",
	.topo = 1,
	.params = sb_marl_placer_params,
	.place = place,
	.load_weights = load_weights,
};
