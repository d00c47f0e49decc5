/*
 * hash.c - hash partitioning as in Euler and DGL's random-free default:
 * node v lives on machine v mod P (the identity hash of integer ids).
 * Spec bgl.md §8 (Euler row) [O]. Exactly balanced in node count, blind to
 * the graph: the comparator every locality-aware partitioner must beat.
 */
#include "cache/part.h"

static int partition(const struct sb_cache_graph *g, const uint8_t *train,
		     const struct sb_opts *o, struct sb_rng *rng, struct sb_cache_part *pt,
		     struct sb_err *err)
{
	int32_t v;

	(void)train, (void)o, (void)rng, (void)err;
	for (v = 0; v < g->n; v++)
		pt->part[v] = v % pt->P;
	pt->eps = 0;
	return 0;
}

const struct sb_cache_partitioner sb_cache_partitioner_hash = {
	.name = "hash",
	.cite = "Euler (Alibaba); hash(v) mod P",
	.desc = "node v on machine v mod P",
	.provenance = "ours",
	.partition = partition,
};
