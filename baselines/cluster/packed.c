/*
 * packed.c - consolidating placement without refinement: the fewest
 * servers (best-fitting single server, else the servers with the most free
 * GPUs first), workers filled in vertex order so that tensor-parallel
 * groups, then pipeline stages, stay together (spec asrpt.md §3 steps E.1
 * and E.2 [R]; also the placement of the Tiresias baseline, §5).
 */
#include "cluster/util.h"

static int place(const struct sb_csim *s, int j, const struct sb_opts *o,
		 struct sb_rng *rng, int *gpus)
{
	int g = sb_cluster_sim_job(s, j)->gpus, k;
	int *srv = SB_NEW(int, sb_cluster_sim_cluster(s)->nserver);

	(void)o;
	(void)rng;
	k = sb_cluster_pick_servers(s, g, srv);
	if (k > 0)
		sb_cluster_fill(s, srv, k, g, gpus);
	sb_free(srv);
	return k > 0 ? 0 : -1;
}

const struct sb_cluster_policy sb_cluster_policy_packed = {
	.name = "packed",
	.cite = "Luo et al., Prediction-Assisted Online Distributed DL Workload Scheduling "
		"in GPU Clusters, arXiv 2501.05563, 2025 (step E without refinement)",
	.desc = "fewest servers, workers in tensor/stage order, no refinement",
	.provenance = "reconstructed",
	.place = place,
};
