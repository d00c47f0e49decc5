/*
 * random.c - a uniformly random balanced partition: a seeded Fisher-Yates
 * shuffle of the nodes dealt round-robin over the machines. Ours (spec
 * bgl.md §9.7 [O]). Unlike hash it carries no structure of the id order
 * (R-MAT ids concentrate the hubs at small ids), so the two bracket the
 * graph-blind partitions.
 */
#include "cache/part.h"

static int partition(const struct sb_cache_graph *g, const uint8_t *train,
		     const struct sb_opts *o, struct sb_rng *rng, struct sb_cache_part *pt,
		     struct sb_err *err)
{
	int32_t *perm = sb_malloc(sizeof *perm * (size_t)g->n), v;

	(void)train, (void)o;
	if (!perm)
		return sb_err_set(err, SB_EXIT_RUN, "out of memory");
	for (v = 0; v < g->n; v++)
		perm[v] = v;
	sb_rng_shuffle_int(rng, perm, (size_t)g->n);
	for (v = 0; v < g->n; v++)
		pt->part[perm[v]] = v % pt->P;
	pt->eps = 0;
	sb_free(perm);
	return 0;
}

const struct sb_cache_partitioner sb_cache_partitioner_random = {
	.name = "random",
	.cite = "uniform random balanced assignment",
	.desc = "seeded shuffle of the nodes dealt round-robin",
	.provenance = "ours",
	.partition = partition,
};
