/*
 * graph.h - the cache family's graphs: undirected, in CSR with 32-bit node
 * ids, as GNN samplers read them (spec bgl.md §9.1 [O]).
 *
 * Normalisation (documented, never silent): every input edge {u, v} is
 * stored in both directions (symmetrised), an edge given more than once is
 * kept once (deduplicated), self-loops are dropped; the counts of dropped
 * self-loops and duplicates are kept in the graph and printed by the
 * loaders. Each row of the CSR is sorted by neighbour id.
 *
 * Memory: 8 bytes per undirected edge (two int32 entries) plus 8 bytes per
 * node for the offsets; the builder reads its edges twice from a callback
 * (count, then fill), so generators need no edge list in memory: an R-MAT
 * graph of scale 22 (4 M nodes, 64 M edges drawn) peaks at about 0.6 GB.
 */
#ifndef SB_CACHE_GRAPH_H
#define SB_CACHE_GRAPH_H

#include "sb.h"

#include <stdint.h>

struct sb_cache_graph {
	int32_t n;           /* nodes 0..n-1 */
	int64_t m;           /* undirected edges after normalisation */
	int64_t *off;        /* n+1 row offsets into adj (owned) */
	int32_t *adj;        /* 2m neighbour ids, each row sorted (owned) */
	int32_t *label;      /* community of each node (SBM generator) or NULL */
	int32_t nlabel;      /* number of communities (0 without labels) */
	int64_t *ext_id;     /* original id of each node (loaded graphs) or NULL */
	int64_t in_edges;    /* edges read or drawn, before normalisation */
	int64_t self_loops;  /* of those, self-loops dropped */
	int64_t duplicates;  /* of those, repeats of an edge already kept */
	char name[96];       /* "cora", "rmat-18", "sbm-...", file base name */
};

/* An edge source the builder calls twice; it must hand the same edges to
 * sink both times (generators re-seed their stream), in chunks of n edges
 * u[i] - v[i] (chunks let the builder prefetch: it waits on memory). Ids
 * must be < n. */
typedef void (*sb_cache_edge_sink)(void *acc, const uint32_t *u, const uint32_t *v, size_t n);
typedef void (*sb_cache_edge_source)(void *src, sb_cache_edge_sink sink, void *acc);
#define SB_CACHE_EDGE_CHUNK 4096

/* Build g over n nodes from the edges of `each`: symmetrise, deduplicate,
 * drop self-loops (counted). 0, or SB_EXIT_INPUT with err when the result
 * has no edge, or SB_EXIT_RUN when out of memory. g's name is left empty. */
int sb_cache_graph_build(struct sb_cache_graph *g, int32_t n, sb_cache_edge_source each,
			 void *src, struct sb_err *err);
/* The same from two arrays of m endpoints (each < n). */
int sb_cache_graph_from_arrays(struct sb_cache_graph *g, int32_t n, int64_t m,
			       const int32_t *u, const int32_t *v, struct sb_err *err);
void sb_cache_graph_release(struct sb_cache_graph *g);

static inline int64_t sb_cache_degree(const struct sb_cache_graph *g, int32_t v)
{
	return g->off[v + 1] - g->off[v];
}

/* CSR invariants (offsets monotone, ids in range, rows sorted without
 * repeats or self-loops, every edge present in both directions): 0, or 1
 * with why[] filled. For tests and for graphs built by hand. */
int sb_cache_graph_check(const struct sb_cache_graph *g, char *why, size_t len);

/* "note: graph NAME: N self-loops and M duplicate edges dropped" on
 * stderr when either count is non-zero (the documented normalisation). */
void sb_cache_graph_note(const struct sb_cache_graph *g);

#endif
