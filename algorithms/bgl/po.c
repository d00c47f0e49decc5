/*
 * po.c - proximity-aware ordering PO-K: T. Liu et al., "BGL: GPU-Efficient
 * GNN Training by Optimizing Graph Data I/O and Preprocessing", NSDI 2023
 * [V, code: BGL_NSDI2023 src/graph/graph_traversal.cc and
 * python/dgl/traversal.py::multiple_bfs_node_generator_with_mask, as
 * restated in spec bgl.md §4].
 *
 * K passes; pass i runs BFS over the whole graph from root r_i (FIFO,
 * neighbours in CSR order) and lists the training nodes in discovery
 * order; when the queue empties it restarts at the next unvisited id after
 * r_i (cyclically), so every pass is a permutation of the training set.
 * The K sequences are interleaved with staggered offsets, so a mini-batch
 * holds K locality-preserving runs from K distant regions and consecutive
 * batches continue the same runs: the temporal locality a FIFO cache
 * needs, traded against randomness by K.
 *
 * Ours [O, spec §4]: the released array holds every node K times and the
 * trainer that consumes it is not released, so PO-K keeps each node's
 * first appearance (dedup) and yields an exact permutation. Ours [R]: the
 * roots are training nodes drawn uniformly (with replacement) from rng.
 *
 * Family: cache (core/cache/).
 */
#include "algorithms/bgl/po.h"
#include "cache/cache.h"

#include <string.h>

int sb_bgl_po_sequences(const struct sb_cache_graph *g, const int32_t *train, int32_t N, int K,
			struct sb_rng *rng, int32_t *seq, struct sb_err *err)
{
	int32_t n = g->n, *queue = sb_malloc(sizeof *queue * (size_t)(n ? n : 1));
	uint8_t *seen = sb_malloc((size_t)(n ? n : 1)), *is_train = sb_calloc((size_t)(n ? n : 1), 1);
	int32_t i, j;
	int rc = 0;

	if (!queue || !seen || !is_train) {
		rc = sb_err_set(err, SB_EXIT_RUN, "proximity-aware ordering: out of memory");
		goto out;
	}
	for (j = 0; j < N; j++)
		is_train[train[j]] = 1;
	for (i = 0; i < K; i++) {
		int32_t *s = seq + (size_t)i * N, root = train[sb_rng_below(rng, (uint32_t)N)];
		int32_t cur = root, len = 0, done = 0;
		memset(seen, 0, (size_t)n);
		/* each restart scans on from the last one: ids passed are visited */
		while (len < N && done < n) {
			int32_t head = 0, tail = 0;
			while (seen[cur])
				cur = cur + 1 == n ? 0 : cur + 1;
			seen[cur] = 1;
			queue[tail++] = cur;
			while (head < tail) {
				int32_t u = queue[head++];
				int64_t e;
				done++;
				if (is_train[u])
					s[len++] = u;
				for (e = g->off[u]; e < g->off[u + 1]; e++)
					if (!seen[g->adj[e]]) {
						seen[g->adj[e]] = 1;
						queue[tail++] = g->adj[e];
					}
			}
		}
		if (len != N) {
			rc = sb_err_set(err, SB_EXIT_INPUT,
					"proximity-aware ordering: %d of %d training nodes reached "
					"(repeated or out-of-range training ids)", (int)len, (int)N);
			goto out;
		}
	}
out:
	sb_free(queue);
	sb_free(seen);
	sb_free(is_train);
	return rc;
}

int sb_bgl_po(const struct sb_cache_graph *g, const int32_t *train, int32_t N, int K,
	      struct sb_rng *rng, int32_t *out, struct sb_err *err)
{
	int32_t *seq = sb_malloc(sizeof *seq * (size_t)N * (size_t)K), off = N / K, j, c = 0;
	uint8_t *used = sb_calloc((size_t)(g->n ? g->n : 1), 1);
	int rc, i;

	if (!seq || !used) {
		rc = sb_err_set(err, SB_EXIT_RUN, "proximity-aware ordering: out of memory");
		goto out;
	}
	if ((rc = sb_bgl_po_sequences(g, train, N, K, rng, seq, err)))
		goto out;
	for (j = 0; j < N && c < N; j++)
		for (i = 0; i < K; i++) {
			int32_t v = seq[(size_t)i * N + (int32_t)(((int64_t)j + (int64_t)i * off) % N)];
			if (!used[v]) {
				used[v] = 1;
				out[c++] = v;
			}
		}
out:
	sb_free(seq);
	sb_free(used);
	return rc;
}

static const struct sb_param params[] = {
	{ "k", 4, 1, 1024, 1, "K: BFS passes interleaved (1: pure BFS order; large: near random)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static int order(const struct sb_cache_graph *g, const int32_t *train, int32_t ntrain,
		 const struct sb_opts *o, struct sb_rng *rng, int32_t *out, struct sb_err *err)
{
	return sb_bgl_po(g, train, ntrain, (int)sb_opts_get(o, "k"), rng, out, err);
}

const struct sb_cache_order sb_cache_order_po = {
	.name = "po",
	.cite = "Liu et al., BGL: GPU-Efficient GNN Training by Optimizing Graph Data I/O and Preprocessing, NSDI 2023",
	.desc = "proximity-aware ordering PO-K: K interleaved BFS sequences, deduplicated",
	.provenance = "verified: code",  /* dedup and roots: ours */
	.params = params,
	.order = order,
};
