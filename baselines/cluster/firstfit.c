/*
 * firstfit.c - first-fit GPU placement: the lowest-numbered free GPUs,
 * whatever servers they are on (spec asrpt.md §5, ablation (a) [O]).
 * Ignores the job's communication: the reference for what placement buys.
 */
#include "cluster/util.h"

static int place(const struct sb_csim *s, int j, const struct sb_opts *o,
		 struct sb_rng *rng, int *gpus)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	const unsigned char *fg = sb_cluster_sim_gpu_free(s);
	int g = sb_cluster_sim_job(s, j)->gpus, N = cl->nserver * cl->gpus, x, v = 0;

	(void)o;
	(void)rng;
	if (sb_cluster_sim_free(s) < g)
		return -1;
	for (x = 0; x < N && v < g; x++)
		if (fg[x])
			gpus[v++] = x;
	return 0;
}

const struct sb_cluster_policy sb_cluster_policy_firstfit = {
	.name = "firstfit",
	.cite = "first-fit placement (ablation of Luo et al., arXiv 2501.05563, 2025)",
	.desc = "lowest-numbered free GPUs, communication ignored",
	.provenance = "ours",
	.place = place,
};
