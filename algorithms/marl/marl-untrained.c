/*
 * marl-untrained.c - reference of table T1: the scheduler's networks
 * as seeded (the same initial weights marl.c starts training from), with
 * no training episode, acting greedily like every learned placer; shows
 * what training changes.
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
	return sb_marl_place("marl-untrained", s, j, o, rng, gpus);
}

static int load_weights(const char *path, struct sb_err *err)
{
	return sb_marl_variant_load("marl-untrained", path, err);
}

const struct sb_cluster_policy sb_cluster_policy_marl_untrained = {
	.name = "marl-untrained",
	.cite = "Zhao, Wu, Large-scale ML Cluster Scheduling via Multi-agent Graph RL, IEEE TNSM 2022",
	.desc = "reference: the scheduler's seeded initial networks, no training",
	.provenance = "reconstructed",
	.topo = 1,
	.params = sb_marl_placer_params,
	.place = place,
	.load_weights = load_weights,
};
