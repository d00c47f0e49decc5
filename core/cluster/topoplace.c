/*
 * topoplace.c - the anchor loop and the co-location state shared by the
 * placers of the topology-and-interference mode (spec marl.md §3.4, §4;
 * [O], our design).
 */
#include "cluster/topoplace.h"
#include "cluster/util.h"

int sb_cluster_topo_state(const struct sb_csim *s, struct sb_interf_job *out)
{
	int nr, i;
	const int *run = sb_cluster_sim_running(s, &nr);
	for (i = 0; i < nr; i++) {
		const struct sb_job *job = sb_cluster_sim_job(s, run[i]);
		out[i].id = run[i];
		out[i].type = job->model;
		out[i].w = job->gpus;
		out[i].gpus = sb_cluster_sim_gpus(s, run[i]);
	}
	return nr;
}

int sb_cluster_topo_left(const struct sb_csim *s, int srv, const int *gpus, int w)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	int v, left = sb_cluster_sim_free_per_server(s)[srv];
	for (v = 0; v < w; v++)
		left -= gpus[v] / cl->gpus == srv;
	return left;
}

int sb_cluster_topo_place(const struct sb_csim *s, int j, sb_cluster_anchor_score score,
			  void *ctx, int *gpus)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	int w = sb_cluster_sim_job(s, j)->gpus, a, best = -1, v;
	double best_score = 0;
	unsigned char *mask;
	int *try;

	if (sb_cluster_sim_free(s) < w)
		return -1;
	if (!cl->interf) {
		int *srv = SB_NEW(int, cl->nserver), k = sb_cluster_pick_servers(s, w, srv);
		if (k > 0)
			sb_cluster_fill(s, srv, k, w, gpus);
		sb_free(srv);
		return k > 0 ? 0 : -1;
	}
	mask = SB_NEW(unsigned char, cl->nserver);
	try = SB_NEW(int, w);
	if (sb_cluster_tree_anchor_mask(cl->interf->topo, sb_cluster_sim_free_per_server(s), w, mask) > 0)
		for (a = 0; a < cl->nserver; a++) {
			double sc;
			if (!mask[a])
				continue;
			if (sb_cluster_tree_fill(cl->interf->topo, sb_cluster_sim_gpu_free(s), a, w, try))
				SB_BUG("anchor %d is in the mask but the fill rule finds no room", a);
			sc = score(s, j, a, try, ctx);
			if (best < 0 || sc < best_score) {
				best = a;
				best_score = sc;
				for (v = 0; v < w; v++)
					gpus[v] = try[v];
			}
		}
	sb_free(mask);
	sb_free(try);
	return best;
}
