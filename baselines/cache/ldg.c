/*
 * ldg.c - Linear Deterministic Greedy streaming partitioning: I. Stanton,
 * G. Kliot, "Streaming Graph Partitioning for Large Distributed Graphs",
 * KDD 2012. Nodes arrive one at a time; node v goes to the machine i that
 * maximises |N(v) ∩ V_i| * (1 - |V_i| / C), C the machine capacity, ties
 * to the least loaded (then the smallest index). The heuristic is as
 * published [V, paper's definition as restated in the BGL spec §6/§8];
 * the stream order (seeded random, one of the paper's orders) and the hard
 * cap C = ceil((1+eps)|V|/P) are our choices [O]. BGL's block greedy
 * (algorithms/bgl/) applies the same weighting to blocks instead of nodes.
 */
#include "cache/part.h"

static const struct sb_param params[] = {
	{ "eps", 0.1, 0, 1, 0, "node balance: capacity ceil((1+eps)|V|/P)" },
	{ "idorder", 0, 0, 1, 1, "1: stream in id order instead of a seeded random order" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static int partition(const struct sb_cache_graph *g, const uint8_t *train,
		     const struct sb_opts *o, struct sb_rng *rng, struct sb_cache_part *pt,
		     struct sb_err *err)
{
	double eps = sb_opts_get(o, "eps");
	int64_t cap = sb_cache_part_cap(g->n, pt->P, eps), load[SB_CACHE_PART_MAX] = { 0 };
	int64_t cnt[SB_CACHE_PART_MAX], e;
	int32_t *order = sb_malloc(sizeof *order * (size_t)g->n), i;
	int q;

	(void)train;
	if (!order)
		return sb_err_set(err, SB_EXIT_RUN, "out of memory");
	for (i = 0; i < g->n; i++)
		order[i] = i;
	if (!sb_opts_get(o, "idorder"))
		sb_rng_shuffle_int(rng, order, (size_t)g->n);
	for (i = 0; i < g->n; i++) {
		int32_t v = order[i];
		double best = -1;
		int pick = -1;
		for (q = 0; q < pt->P; q++)
			cnt[q] = 0;
		for (e = g->off[v]; e < g->off[v + 1]; e++)
			if (pt->part[g->adj[e]] >= 0)
				cnt[pt->part[g->adj[e]]]++;
		for (q = 0; q < pt->P; q++) {
			double s;
			if (load[q] >= cap)
				continue;
			s = (double)cnt[q] * (1.0 - (double)load[q] / (double)cap);
			if (pick < 0 || s > best || (s == best && load[q] < load[pick])) {
				best = s;
				pick = q;
			}
		}
		pt->part[v] = pick;
		load[pick]++;
	}
	pt->eps = eps;
	sb_free(order);
	return 0;
}

const struct sb_cache_partitioner sb_cache_partitioner_ldg = {
	.name = "ldg",
	.cite = "Stanton, Kliot, Streaming Graph Partitioning for Large Distributed Graphs, KDD 2012",
	.desc = "linear deterministic greedy streaming, capacity (1+eps)|V|/P",
	.provenance = "verified: paper",  /* stream order and cap: ours */
	.params = params,
	.partition = partition,
};
