/*
 * bgl-released.c - BGL's block partitioner as released: T. Liu et al.,
 * "BGL: GPU-Efficient GNN Training by Optimizing Graph Data I/O and
 * Preprocessing", NSDI 2023 [V, code: BGL's partition_codes/
 * BDGPartitioner.tpp and GMiner's BPartitioner.tpp, as restated in spec
 * bgl.md §6]. Voronoi blocks by multi-round multi-source BFS, then blocks
 * in decreasing size onto the machine with the most neighbour-block mass
 * weighted by sqrt(1 - load/cap). The 2-hop term and the training-node
 * balance term are off, as shipped. The load factor is floating point by
 * default (the release divides integers: intdiv=1). The algorithm is in
 * bpart.c.
 *
 * Family: cache (core/cache/).
 */
#include "algorithms/bgl/bpart.h"

static int partition(const struct sb_cache_graph *g, const uint8_t *train,
		     const struct sb_opts *o, struct sb_rng *rng, struct sb_cache_part *pt,
		     struct sb_err *err)
{
	return sb_bgl_bpart(g, train, o, rng, 0, pt, err);
}

const struct sb_cache_partitioner sb_cache_partitioner_bgl_released = {
	.name = "bgl-released",
	.cite = "Liu et al., BGL: GPU-Efficient GNN Training by Optimizing Graph Data I/O and Preprocessing, NSDI 2023",
	.desc = "BGL block partitioner, released flags (no 2-hop, no label term)",
	.provenance = "verified: code",
	.params = sb_bgl_bpart_params,
	.partition = partition,
};
