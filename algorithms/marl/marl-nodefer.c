/*
 * marl-nodefer.c - ablation of table T1: the scheduler of marl.c with
 * its defer action masked out in training and in evaluation, so it places
 * every job as soon as some anchor fits it; isolates what the learned
 * deferral contributes (or costs) from the learned choice of server.
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
	return sb_marl_place("marl-nodefer", s, j, o, rng, gpus);
}

static int load_weights(const char *path, struct sb_err *err)
{
	return sb_marl_variant_load("marl-nodefer", path, err);
}

const struct sb_cluster_policy sb_cluster_policy_marl_nodefer = {
	.name = "marl-nodefer",
	.cite = "Zhao, Wu, Large-scale ML Cluster Scheduling via Multi-agent Graph RL, IEEE TNSM 2022",
	.desc = "ablation: the scheduler without its defer action (places whenever an anchor fits)",
	.provenance = "reconstructed",
	.topo = 1,
	.params = sb_marl_placer_params,
	.place = place,
	.load_weights = load_weights,
};
