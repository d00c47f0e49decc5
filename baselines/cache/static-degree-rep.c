/*
 * static-degree-rep.c - PaGraph's cache: the C highest-degree nodes,
 * filled once, never evicted, the same copy on every GPU (Lin et al.,
 * "PaGraph: Scaling GNN Training on Large Graphs via Computation-aware
 * Caching", SoCC 2020) [V, code: zhiqi-0/PaGraph partition/partition.py].
 * PaGraph ranks the nodes of a machine's (self-reliant, replicated)
 * partition; without PaGraph's partitioner every node is a candidate here
 * (the same set when P = 1). Ties: smaller id.
 */
#include "staticset.h"

const struct sb_cache_policy sb_cache_policy_static_degree_rep = {
	.name = "static-degree-rep",
	.cite = "Lin et al., PaGraph: Scaling GNN Training on Large Graphs via Computation-aware Caching, SoCC 2020",
	.desc = "PaGraph-like: static top-C by degree, replicated on every GPU",
	.provenance = "verified: code",
	.replicated = 1,
	.meta_ns = 2,
	.init = sb_cache_static_by_degree,
	.contents = sb_cache_static_contents,
	.lookup = sb_cache_static_lookup,
	.release = sb_cache_static_release,
};
