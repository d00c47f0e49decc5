/*
 * random.c - random GPU placement: g_j free GPUs drawn uniformly from all
 * free GPUs of the cluster (spec asrpt.md §5, ablation (a) [O]).
 */
#include "cluster/util.h"

static int place(const struct sb_csim *s, int j, const struct sb_opts *o,
		 struct sb_rng *rng, int *gpus)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	const unsigned char *fg = sb_cluster_sim_gpu_free(s);
	int g = sb_cluster_sim_job(s, j)->gpus, N = cl->nserver * cl->gpus, x, k = 0, v;
	int *free_list;

	(void)o;
	if (sb_cluster_sim_free(s) < g)
		return -1;
	free_list = SB_NEW(int, sb_cluster_sim_free(s));
	for (x = 0; x < N; x++)
		if (fg[x])
			free_list[k++] = x;
	/* partial Fisher-Yates: the first g of a uniform permutation */
	for (v = 0; v < g; v++) {
		int r = v + (int)sb_rng_below(rng, (uint32_t)(k - v)), t = free_list[r];
		free_list[r] = free_list[v];
		free_list[v] = t;
		gpus[v] = t;
	}
	sb_free(free_list);
	return 0;
}

const struct sb_cluster_policy sb_cluster_policy_random = {
	.name = "random",
	.cite = "random placement (ablation of Luo et al., arXiv 2501.05563, 2025)",
	.desc = "uniformly random free GPUs, communication ignored",
	.provenance = "ours",
	.place = place,
};
