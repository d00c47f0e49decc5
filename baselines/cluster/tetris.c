/*
 * tetris.c - Tetris-like alignment (spec marl.md §4.4; after Grandl et al.,
 * "Multi-resource Packing for Cluster Schedulers", SIGCOMM 2014; [O], our
 * adaptation): each server has a free-resource vector (free GPUs / G, and
 * per intensity dimension 1 - the busy GPUs' summed intensity / G), the job
 * a demand vector on each server its fill uses (its GPUs there / G, and
 * its intensity times the same share), and the anchor with the highest
 * sum of dot products wins; ties to the lower index. On a flat cluster it
 * places like `packed`.
 */
#include "cluster/topoplace.h"

static double score(const struct sb_csim *s, int j, int anchor, const int *gpus, void *ctx)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	const struct sb_interf *m = cl->interf;
	const double *load = ctx;   /* per server: summed intensity of busy GPUs */
	const struct sb_job *job = sb_cluster_sim_job(s, j);
	int w = job->gpus, u, v, d, G = cl->gpus;
	double dot = 0;
	(void)anchor;
	for (u = 0; u < w; u++) {
		int srv = gpus[u] / G, first = 1;
		double share;
		for (v = 0; v < u; v++)
			first &= gpus[v] / G != srv;
		if (!first)
			continue;
		share = 0;
		for (v = 0; v < w; v++)
			share += gpus[v] / G == srv;
		share /= G;
		dot += (double)sb_cluster_sim_free_per_server(s)[srv] / G * share;
		for (d = 0; d < SB_INTERF_NRES; d++)
			dot += (1 - load[srv * SB_INTERF_NRES + d] / G) * m->type[job->model].r[d] *
			       share;
	}
	return -dot;
}

static int place(const struct sb_csim *s, int j, const struct sb_opts *o, struct sb_rng *rng,
		 int *gpus)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	double *load = SB_NEW(double, (size_t)cl->nserver * SB_INTERF_NRES);
	int nr, i, v, d, rc;
	const int *run = sb_cluster_sim_running(s, &nr);
	(void)o;
	(void)rng;
	if (cl->interf)
		for (i = 0; i < nr; i++) {
			const struct sb_job *job = sb_cluster_sim_job(s, run[i]);
			const int *g = sb_cluster_sim_gpus(s, run[i]);
			for (v = 0; v < job->gpus; v++)
				for (d = 0; d < SB_INTERF_NRES; d++)
					load[(g[v] / cl->gpus) * SB_INTERF_NRES + d] +=
						cl->interf->type[job->model].r[d];
		}
	rc = sb_cluster_topo_place(s, j, score, load, gpus) >= 0 ? 0 : -1;
	sb_free(load);
	return rc;
}

const struct sb_cluster_policy sb_cluster_policy_tetris = {
	.name = "tetris",
	.cite = "Grandl et al., Multi-resource Packing for Cluster Schedulers, SIGCOMM 2014 "
		"(Tetris-like baseline of Zhao & Wu, IEEE TNSM 2022; adaptation ours)",
	.desc = "anchor maximising free-resource x demand, intensity as a pseudo-resource",
	.provenance = "ours",
	.topo = 1,
	.place = place,
};
