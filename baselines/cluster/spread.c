/*
 * spread.c - interference avoiding (spec marl.md §4.3; [O], baseline of
 * our reconstruction of Zhao & Wu, IEEE TNSM 2022): the anchor whose fill
 * puts the workers next to the lowest summed intensity of co-runners
 * (every running job on a server the fill uses, its intensity vector's
 * sum); ties to the most free GPUs on the anchor, then the lower index.
 * Knows the intensity vectors, not the slowdowns. On a flat cluster it
 * places like `packed`.
 */
#include "cluster/topoplace.h"

static double score(const struct sb_csim *s, int j, int anchor, const int *gpus, void *ctx)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	const struct sb_interf *m = cl->interf;
	const struct sb_interf_job *st = ctx;
	int w = sb_cluster_sim_job(s, j)->gpus, nr, i, v, u, d;
	double inten = 0;
	(void)sb_cluster_sim_running(s, &nr);
	for (i = 0; i < nr; i++) {
		int hit = 0;
		for (v = 0; v < st[i].w && !hit; v++)
			for (u = 0; u < w && !hit; u++)
				hit = st[i].gpus[v] / cl->gpus == gpus[u] / cl->gpus;
		if (hit)
			for (d = 0; d < SB_INTERF_NRES; d++)
				inten += m->type[st[i].type].r[d];
	}
	/* intensity first; among equals, more free GPUs (at most G) first */
	return inten * 1000.0 - sb_cluster_sim_free_per_server(s)[anchor];
}

static int place(const struct sb_csim *s, int j, const struct sb_opts *o, struct sb_rng *rng,
		 int *gpus)
{
	int nr, rc;
	struct sb_interf_job *st;
	(void)o;
	(void)rng;
	(void)sb_cluster_sim_running(s, &nr);
	st = SB_NEW(struct sb_interf_job, nr + 1);
	if (sb_cluster_sim_cluster(s)->interf)
		sb_cluster_topo_state(s, st);
	rc = sb_cluster_topo_place(s, j, score, st, gpus) >= 0 ? 0 : -1;
	sb_free(st);
	return rc;
}

const struct sb_cluster_policy sb_cluster_policy_spread = {
	.name = "spread",
	.cite = "interference-avoiding spread (baseline of Zhao & Wu, IEEE TNSM 2022; ours)",
	.desc = "anchor with the lowest summed co-runner intensity, then most free GPUs",
	.provenance = "ours",
	.topo = 1,
	.place = place,
};
