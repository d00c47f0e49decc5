/*
 * graphs.h - the cache family's graph inputs: a loader for SNAP-style edge
 * lists (Cora's cora.cites is one) and the R-MAT and SBM generators of
 * spec bgl.md §9.1 [O]. Every graph comes out normalised as graph.h says
 * (symmetrised, deduplicated, self-loops dropped and counted).
 */
#ifndef SB_WORKLOADS_CACHE_GRAPHS_H
#define SB_WORKLOADS_CACHE_GRAPHS_H

#include "cache/graph.h"
#include "rng.h"

/*
 * An edge list: one edge per line, two non-negative integer ids separated
 * by blanks (spaces or tabs); lines starting with '#' and blank lines are
 * skipped (SNAP headers). Ids may be sparse and are remapped to 0..n-1 in
 * increasing order of the original id (kept in g->ext_id); an id must be
 * below 2^31. Cora's cora.cites (`cited<TAB>citing`) has this layout.
 * Errors name file, line and field ('from' or 'to'): a non-numeric or
 * negative id, an id of 2^31 or more, a line without exactly two ids, an
 * empty graph. `what` names the file kind in messages ("graph", "cora").
 * Returns 0, SB_EXIT_INPUT or SB_EXIT_RUN (out of memory) with err.
 */
int sb_cache_load_edgelist(struct sb_cache_graph *g, const char *what, const char *path,
			   struct sb_err *err);

/* The largest node id an edge list may hold (2^31 - 1): ids are int32. */
#define SB_CACHE_MAX_ID 2147483647L

/*
 * R-MAT (Chakrabarti, Zhan, Faloutsos, SDM 2004) with the Graph500
 * parameters (a, b, c) = (0.57, 0.19, 0.19), d = 1 - a - b - c: 2^scale
 * nodes, edgefactor * 2^scale edges drawn, each by `scale` quadrant
 * choices; the quadrant probabilities are quantised to 1/65536 (four
 * levels per 64-bit draw). Node ids are then relabelled by a seeded random
 * permutation, as Graph500's generator does, so that a node's id says
 * nothing about its degree (owner = id mod k must not pick the hubs).
 * Graph500's per-level parameter noise is not applied. Deterministic for
 * (seed, scale, edgefactor, a, b, c). scale in 1..26, edgefactor 1..64.
 */
int sb_cache_gen_rmat(struct sb_cache_graph *g, int scale, int edgefactor, double a,
		      double b, double c, uint64_t seed, struct sb_err *err);

/*
 * A stochastic block model with `blocks` equal communities (labels kept in
 * g->label): n * mean_degree / 2 edges, each from a uniform node u to a
 * node drawn uniformly from u's own community with probability 1 - mix,
 * else uniformly from the other communities. This edge-count form
 * approximates the Bernoulli SBM with p_in / p_out set by mix (the mixing
 * ratio: the expected fraction of edges between communities, before
 * deduplication). Node ids are shuffled so communities are not id ranges.
 * n >= 2 * blocks, blocks >= 1, mean_degree in (0, n), mix in [0, 1].
 */
int sb_cache_gen_sbm(struct sb_cache_graph *g, int32_t n, int32_t blocks, double mean_degree,
		     double mix, uint64_t seed, struct sb_err *err);

#endif
