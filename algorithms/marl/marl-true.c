/*
 * marl-true.c - ablation, upper reference (marl.md §4.7): trained with rewards from the
 * ground-truth slowdowns instead of the learned model S^, showing the
 * cost of the model's error (table T1).
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
	return sb_marl_place("marl-true", s, j, o, rng, gpus);
}

static int load_weights(const char *path, struct sb_err *err)
{
	return sb_marl_variant_load("marl-true", path, err);
}

const struct sb_cluster_policy sb_cluster_policy_marl_true = {
	.name = "marl-true",
	.cite = "Zhao, Wu, Large-scale ML Cluster Scheduling via Multi-agent Graph RL, IEEE TNSM 2022",
	.desc = "ablation: trained on ground-truth slowdowns (no model error)",
	.provenance = "reconstructed",
	.topo = 1,
	.params = sb_marl_placer_params,
	.place = place,
	.load_weights = load_weights,
};
