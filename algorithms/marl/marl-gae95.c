/*
 * marl-gae95.c - the scheduler of marl.c trained with the spec's GAE
 * lambda = 0.95 over decision epochs (marl.md §3.9) instead of lambda = 1:
 * a labelled setting of table T1. lambda discounts per decision, and a
 * deferral adds decisions before its cost is paid, so this recipe learns
 * to defer (algorithms/marl/train.c says what was measured).
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
	return sb_marl_place("marl-gae95", s, j, o, rng, gpus);
}

static int load_weights(const char *path, struct sb_err *err)
{
	return sb_marl_variant_load("marl-gae95", path, err);
}

const struct sb_cluster_policy sb_cluster_policy_marl_gae95 = {
	.name = "marl-gae95",
	.cite = "Zhao, Wu, Large-scale ML Cluster Scheduling via Multi-agent Graph RL, IEEE TNSM 2022",
	.desc = "setting: the scheduler trained with the spec's GAE lambda = 0.95 over decisions",
	.provenance = "reconstructed",
	.topo = 1,
	.params = sb_marl_placer_params,
	.place = place,
	.load_weights = load_weights,
};
