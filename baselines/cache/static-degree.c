/*
 * static-degree.c - a static cache of the highest-degree nodes, sharded
 * like BGL's engine: each GPU of an NVLink group holds the C nodes of
 * highest degree among those it owns (v mod kg), filled once, never
 * evicted.
 *
 * The degree heuristic is PaGraph's (Lin et al., "PaGraph: Scaling GNN
 * Training on Large Graphs via Computation-aware Caching", SoCC 2020)
 * [V, code: zhiqi-0/PaGraph partition/partition.py, top nodes by
 * out-degree]; PaGraph replicates it on every GPU (static-degree-rep);
 * this sharded variant is ours (spec bgl.md §9.4 [O]). Ties: smaller id.
 */
#include "staticset.h"

const struct sb_cache_policy sb_cache_policy_static_degree = {
	.name = "static-degree",
	.cite = "Lin et al., PaGraph, SoCC 2020 (degree heuristic); sharding: ours",
	.desc = "static top-C by degree per GPU, sharded v mod kg in an NVLink group",
	.provenance = "ours",
	.replicated = 0,
	.meta_ns = 2,
	.init = sb_cache_static_by_degree,
	.contents = sb_cache_static_contents,
	.lookup = sb_cache_static_lookup,
	.release = sb_cache_static_release,
};
