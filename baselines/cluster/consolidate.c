/*
 * consolidate.c - locality first (spec marl.md §4.2; [O], baseline of our
 * reconstruction of Zhao & Wu, IEEE TNSM 2022): best fit, the anchor whose
 * fill spans the lowest topology level; ties to the fewest free GPUs left
 * on the anchor server, then to the lower index. On a flat cluster it
 * places like `packed`.
 */
#include "cluster/topoplace.h"

static double score(const struct sb_csim *s, int j, int anchor, const int *gpus, void *ctx)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	int w = sb_cluster_sim_job(s, j)->gpus;
	(void)ctx;
	return 1000.0 * sb_cluster_tree_spread(cl->interf->topo, gpus, w) +
	       sb_cluster_topo_left(s, anchor, gpus, w);
}

static int place(const struct sb_csim *s, int j, const struct sb_opts *o, struct sb_rng *rng,
		 int *gpus)
{
	(void)o;
	(void)rng;
	return sb_cluster_topo_place(s, j, score, NULL, gpus) >= 0 ? 0 : -1;
}

const struct sb_cluster_policy sb_cluster_policy_consolidate = {
	.name = "consolidate",
	.cite = "locality-first best fit (baseline of Zhao & Wu, IEEE TNSM 2022; ours)",
	.desc = "anchor spanning the lowest topology level, then fewest free GPUs left",
	.provenance = "ours",
	.topo = 1,
	.place = place,
};
