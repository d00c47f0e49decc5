/*
 * marl-random.c - random anchor (spec marl.md §4.1; [O], baseline of our
 * reconstruction of Zhao & Wu, IEEE TNSM 2022): an anchor drawn uniformly
 * among the feasible ones, workers by the shared fill rule (topo.h). On a
 * flat cluster it places like `packed`.
 */
#include "cluster/topoplace.h"

/* a uniform draw per anchor, smallest wins: uniform over feasible anchors */
static double score(const struct sb_csim *s, int j, int anchor, const int *gpus, void *ctx)
{
	(void)s;
	(void)j;
	(void)anchor;
	(void)gpus;
	return sb_rng_uniform(ctx);
}

static int place(const struct sb_csim *s, int j, const struct sb_opts *o, struct sb_rng *rng,
		 int *gpus)
{
	(void)o;
	return sb_cluster_topo_place(s, j, score, rng, gpus) >= 0 ? 0 : -1;
}

const struct sb_cluster_policy sb_cluster_policy_marl_random = {
	.name = "marl-random",
	.cite = "random anchor (baseline of Zhao & Wu, IEEE TNSM 2022; ours)",
	.desc = "uniformly random feasible anchor server, workers by the fill rule",
	.provenance = "ours",
	.topo = 1,
	.place = place,
};
