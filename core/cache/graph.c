/*
 * graph.c - CSR construction with the cache family's normalisation
 * (graph.h): two passes over an edge source (degrees, then fill), rows
 * sorted and deduplicated in place, self-loops counted and dropped. Ours.
 */
#include "graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_cache_graph_release(struct sb_cache_graph *g)
{
	sb_free(g->off);
	sb_free(g->adj);
	sb_free(g->label);
	sb_free(g->ext_id);
	memset(g, 0, sizeof *g);
}

/* ------------------------------------------------------------------ */
/* Two passes                                                          */
/* ------------------------------------------------------------------ */

struct build {
	int64_t *cur;        /* pass 1: degree of each node; pass 2: next free slot */
	int32_t *adj;
	int64_t edges, loops;
};

/* how far ahead the builder prefetches, in edges */
#define AHEAD 16

static void count_sink(void *acc, const uint32_t *u, const uint32_t *v, size_t n)
{
	struct build *b = acc;
	size_t i;
	for (i = 0; i < n; i++) {
		if (i + AHEAD < n) {
			__builtin_prefetch(&b->cur[u[i + AHEAD]], 1);
			__builtin_prefetch(&b->cur[v[i + AHEAD]], 1);
		}
		if (u[i] == v[i]) {
			b->loops++;
			continue;
		}
		b->cur[u[i]]++;
		b->cur[v[i]]++;
	}
	b->edges += (int64_t)n;
}

static void fill_sink(void *acc, const uint32_t *u, const uint32_t *v, size_t n)
{
	struct build *b = acc;
	size_t i;
	for (i = 0; i < n; i++) {
		if (i + 2 * AHEAD < n) {
			__builtin_prefetch(&b->cur[u[i + 2 * AHEAD]], 1);
			__builtin_prefetch(&b->cur[v[i + 2 * AHEAD]], 1);
		}
		if (i + AHEAD < n) {
			__builtin_prefetch(&b->adj[b->cur[u[i + AHEAD]]], 1);
			__builtin_prefetch(&b->adj[b->cur[v[i + AHEAD]]], 1);
		}
		if (u[i] == v[i])
			continue;
		b->adj[b->cur[u[i]]++] = (int32_t)v[i];
		b->adj[b->cur[v[i]]++] = (int32_t)u[i];
	}
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* most rows of a power-law graph are short: insertion sort beats qsort's
 * call per comparison there */
static void sort_row(int32_t *a, int64_t n)
{
	int64_t i, j;
	if (n > 24) {
		qsort(a, (size_t)n, sizeof *a, cmp_i32);
		return;
	}
	for (i = 1; i < n; i++) {
		int32_t x = a[i];
		for (j = i; j > 0 && a[j - 1] > x; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

int sb_cache_graph_build(struct sb_cache_graph *g, int32_t n, sb_cache_edge_source each,
			 void *src, struct sb_err *err)
{
	struct build b = { 0 };
	int64_t i, w = 0, total = 0;
	int32_t v;
	int rc = 0;

	memset(g, 0, sizeof *g);
	if (n < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "graph has no node");
	g->n = n;
	g->off = sb_calloc((size_t)n + 1, sizeof *g->off);
	b.cur = sb_calloc((size_t)n, sizeof *b.cur);
	if (!g->off || !b.cur) {
		rc = sb_err_set(err, SB_EXIT_RUN, "out of memory for a graph of %ld nodes", (long)n);
		goto out;
	}
	/* both passes and the sampler read these at random */
	sb_mem_huge(g->off, ((size_t)n + 1) * sizeof *g->off);
	sb_mem_huge(b.cur, (size_t)n * sizeof *b.cur);
	each(src, count_sink, &b);
	for (v = 0; v < n; v++) {
		g->off[v] = total;
		total += b.cur[v];
		b.cur[v] = g->off[v];
	}
	g->off[n] = total;
	g->in_edges = b.edges;
	g->self_loops = b.loops;
	if (total == 0) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "empty graph: no edge%s",
				b.loops ? " left after dropping self-loops" : "");
		goto out;
	}
	if (!(g->adj = sb_malloc((size_t)total * sizeof *g->adj))) {
		rc = sb_err_set(err, SB_EXIT_RUN, "out of memory for %lld adjacency entries",
				(long long)total);
		goto out;
	}
	sb_mem_huge(g->adj, (size_t)total * sizeof *g->adj);
	b.adj = g->adj;
	each(src, fill_sink, &b);
	/* sort and deduplicate each row, compacting leftwards in place */
	for (v = 0; v < n; v++) {
		int64_t lo = g->off[v], hi = g->off[v + 1], start = w;
		sort_row(g->adj + lo, hi - lo);
		for (i = lo; i < hi; i++)
			if (w == start || g->adj[w - 1] != g->adj[i])
				g->adj[w++] = g->adj[i];
		g->off[v] = start;
	}
	g->off[n] = w;
	g->m = w / 2;
	g->duplicates = g->in_edges - g->self_loops - g->m;
	if (w < total) {
		int32_t *p = sb_realloc(g->adj, (size_t)w * sizeof *g->adj);
		if (p)
			g->adj = p;
	}
out:
	sb_free(b.cur);
	if (rc)
		sb_cache_graph_release(g);
	return rc;
}

struct arrays {
	int64_t m;
	const int32_t *u, *v;
};

static void arrays_each(void *src, sb_cache_edge_sink sink, void *acc)
{
	const struct arrays *a = src;
	uint32_t u[SB_CACHE_EDGE_CHUNK], v[SB_CACHE_EDGE_CHUNK];
	int64_t k = 0;
	while (k < a->m) {
		size_t n = 0;
		for (; k < a->m && n < SB_CACHE_EDGE_CHUNK; k++, n++) {
			u[n] = (uint32_t)a->u[k];
			v[n] = (uint32_t)a->v[k];
		}
		sink(acc, u, v, n);
	}
}

int sb_cache_graph_from_arrays(struct sb_cache_graph *g, int32_t n, int64_t m,
			       const int32_t *u, const int32_t *v, struct sb_err *err)
{
	struct arrays a = { m, u, v };
	int64_t k;
	for (k = 0; k < m; k++)
		if (u[k] < 0 || u[k] >= n || v[k] < 0 || v[k] >= n)
			SB_BUG("edge %lld (%d, %d) outside 0..%d", (long long)k, u[k], v[k], n - 1);
	return sb_cache_graph_build(g, n, arrays_each, &a, err);
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */
/* ------------------------------------------------------------------ */

static int has_edge(const struct sb_cache_graph *g, int32_t u, int32_t v)
{
	int64_t lo = g->off[u], hi = g->off[u + 1];
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (g->adj[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->off[u + 1] && g->adj[lo] == v;
}

int sb_cache_graph_check(const struct sb_cache_graph *g, char *why, size_t len)
{
	int32_t v;
	int64_t i;

	if (g->n < 1 || g->off[0] != 0 || g->off[g->n] != 2 * g->m) {
		snprintf(why, len, "offsets: n %d, off[0] %lld, off[n] %lld, 2m %lld", g->n,
			 (long long)(g->n > 0 ? g->off[0] : -1),
			 (long long)(g->n > 0 ? g->off[g->n] : -1), (long long)(2 * g->m));
		return 1;
	}
	for (v = 0; v < g->n; v++) {
		if (g->off[v + 1] < g->off[v]) {
			snprintf(why, len, "row %d: offsets decrease", v);
			return 1;
		}
		for (i = g->off[v]; i < g->off[v + 1]; i++) {
			int32_t u = g->adj[i];
			if (u < 0 || u >= g->n) {
				snprintf(why, len, "row %d: neighbour %d out of range", v, u);
				return 1;
			}
			if (u == v) {
				snprintf(why, len, "row %d: self-loop", v);
				return 1;
			}
			if (i > g->off[v] && g->adj[i - 1] >= u) {
				snprintf(why, len, "row %d: not sorted or repeated at %d", v, u);
				return 1;
			}
			if (!has_edge(g, u, v)) {
				snprintf(why, len, "edge %d-%d only in one direction", v, u);
				return 1;
			}
		}
	}
	return 0;
}

void sb_cache_graph_note(const struct sb_cache_graph *g)
{
	if (g->self_loops || g->duplicates)
		fprintf(stderr, "note: graph %s: %lld self-loops and %lld duplicate edges dropped "
			"(%lld edges read, %lld kept, both directions stored)\n", g->name,
			(long long)g->self_loops, (long long)g->duplicates, (long long)g->in_edges,
			(long long)g->m);
}
