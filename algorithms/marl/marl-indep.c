/*
 * marl-indep.c - ablation without centralised training (marl.md §4.7): one critic per
 * agent instead of one critic shared by the agents. Deviation, ours: the
 * placer sees the simulator, not the agents' queues, so each agent's
 * critic reads the same view; only the sharing differs (table T1).
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
	return sb_marl_place("marl-indep", s, j, o, rng, gpus);
}

static int load_weights(const char *path, struct sb_err *err)
{
	return sb_marl_variant_load("marl-indep", path, err);
}

const struct sb_cluster_policy sb_cluster_policy_marl_indep = {
	.name = "marl-indep",
	.cite = "Zhao, Wu, Large-scale ML Cluster Scheduling via Multi-agent Graph RL, IEEE TNSM 2022",
	.desc = "ablation: one critic per agent instead of the centralised critic",
	.provenance = "reconstructed",
	.topo = 1,
	.params = sb_marl_placer_params,
	.place = place,
	.load_weights = load_weights,
};
