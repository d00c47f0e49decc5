/*
 * bpart.c - BGL's block partitioner: T. Liu et al., "BGL:
 * GPU-Efficient GNN Training by Optimizing Graph Data I/O and
 * Preprocessing", NSDI 2023; spec bgl.md §6.
 *
 * Phase 1, blocks [V, code: GMiner partition/BPartitioner.tpp, defaults in
 * BGlobal.cpp]: rounds of multi-source BFS. Each uncoloured node becomes a
 * seed with probability p (its colour is its id); colours spread to
 * uncoloured neighbours, first come first served, for at most max_hop
 * supersteps; cells above max_vcsize are uncoloured again; p *= factor.
 * The rounds stop when the uncoloured fraction left by a round exceeds
 * stop_ratio of the one before, or p exceeds max_rate; the leftover nodes
 * form one block per connected component (HashMin: the smallest id).
 * Ours [R]: the supersteps run as one FIFO multi-source BFS (seeds in id
 * order), so "first come" is the BFS discovery order; a round that draws
 * no seed does not count for the stop ratio (it says nothing about
 * progress, and on small graphs p starts far below 1/|V|).
 *
 * Phase 2, greedy block assignment [V, code: BGL examples/pytorch/
 * graphsage/experimental/partition_codes/BDGPartitioner.tpp::partition]:
 * blocks by decreasing size; block B goes to the feasible machine j
 * (assigned_j + |B| <= cap, cap = (1+eps)|V|/P) of largest
 *     prio_j = (N1 + N2) * (1 - assigned_j/cap)^0.5   when N1 + N2 > 0,
 *     1 when assigned_j < 0.01 cap (cold start), else 0,
 * N1 the sizes of B's neighbour blocks on j, N2 the same for 2-hop
 * neighbour blocks (0 as released: its update loop is commented out);
 * ties to the smaller j; the least-loaded machine when none is feasible.
 * The paper variant [M] also multiplies by (1 - (label_j + label_B) /
 * label_cap), label_cap = (1+eps)|Train|/P. The released code divides
 * integers in the load factor (1 until a machine is full); intdiv=1
 * reproduces it, floating point is the default.
 *
 * Family: cache (core/cache/).
 */
#include "algorithms/bgl/bpart.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const struct sb_param sb_bgl_bpart_params[] = {
	{ "eps", 0.1, 0, 1, 0, "machine capacity (1+eps)|V|/P (released: 0.1)" },
	{ "p0", 1e-4, 1e-9, 1, 0, "initial seed probability (GMiner: 1e-4)" },
	{ "factor", 2, 1.01, 100, 0, "seed probability growth per round (Blogel: 2)" },
	{ "stop_ratio", 0.9, 0, 1, 0, "stop when uncoloured(after)/uncoloured(before) exceeds it" },
	{ "max_rate", 0.1, 1e-9, 1, 0, "stop when the seed probability exceeds it" },
	{ "max_hop", 0, 0, 1e9, 1, "supersteps per round (0: unbounded)" },
	{ "max_vcsize", 0, 0, 2e9, 1, "largest cell kept (0: unbounded)" },
	{ "intdiv", 0, 0, 1, 1, "1: integer load factor assigned/cap as released" },
	{ NULL, 0, 0, 0, 0, NULL },
};

/* ------------------------------------------------------------------ */
/* Phase 1: blocks                                                     */
/* ------------------------------------------------------------------ */

static int32_t hashmin_root(int32_t *up, int32_t v)
{
	while (up[v] != v) {
		up[v] = up[up[v]];
		v = up[v];
	}
	return v;
}

int32_t sb_bgl_blocks(const struct sb_cache_graph *g, const struct sb_opts *o, struct sb_rng *rng,
		      int32_t *blk)
{
	int32_t n = g->n, *queue = sb_malloc(sizeof(int32_t) * (size_t)n);
	int32_t *hop = sb_malloc(sizeof(int32_t) * (size_t)n), *size = NULL, v, nb = 0;
	double p = sb_opts_get(o, "p0"), factor = sb_opts_get(o, "factor");
	double stop = sb_opts_get(o, "stop_ratio"), max_rate = sb_opts_get(o, "max_rate");
	long max_hop = (long)sb_opts_get(o, "max_hop"), max_vc = (long)sb_opts_get(o, "max_vcsize");
	int64_t last = n, e;

	if (!queue || !hop)
		goto fail;
	for (v = 0; v < n; v++)
		blk[v] = -1;
	for (;;) {
		int32_t head = 0, tail = 0;
		int64_t left = 0;
		for (v = 0; v < n; v++)
			if (blk[v] < 0 && sb_rng_uniform(rng) < p) {
				blk[v] = v;
				hop[v] = 0;
				queue[tail++] = v;
			}
		while (head < tail) {
			int32_t u = queue[head++];
			if (max_hop && hop[u] >= max_hop)
				continue;
			for (e = g->off[u]; e < g->off[u + 1]; e++) {
				int32_t w = g->adj[e];
				if (blk[w] < 0) {
					blk[w] = blk[u];
					hop[w] = hop[u] + 1;
					queue[tail++] = w;
				}
			}
		}
		if (max_vc && tail) {
			/* cell sizes indexed by the seed id (a cell's colour) */
			if (!size && !(size = sb_calloc((size_t)n, sizeof *size)))
				goto fail;
			for (v = 0; v < n; v++)
				if (blk[v] >= 0)
					size[blk[v]]++;
			for (v = 0; v < n; v++)
				if (blk[v] >= 0 && size[blk[v]] > max_vc)
					blk[v] = -2;
			for (v = 0; v < n; v++) {
				if (blk[v] >= 0)
					size[blk[v]] = 0;
				if (blk[v] == -2)
					blk[v] = -1;
			}
		}
		for (v = 0; v < n; v++)
			left += blk[v] < 0;
		if (!left)
			break;
		if (tail) {
			if ((double)left / (double)last > stop)
				break;
			last = left;
		}
		p *= factor;
		if (p > max_rate)
			break;
	}
	/* leftovers: one block per component, labelled by its smallest id */
	for (v = 0; v < n; v++)
		hop[v] = v;
	for (v = 0; v < n; v++)
		if (blk[v] < 0)
			for (e = g->off[v]; e < g->off[v + 1]; e++)
				if (blk[g->adj[e]] < 0) {
					int32_t a = hashmin_root(hop, v), b = hashmin_root(hop, g->adj[e]);
					if (a < b)
						hop[b] = a;
					else
						hop[a] = b;
				}
	for (v = 0; v < n; v++)
		if (blk[v] < 0)
			blk[v] = -2 - hashmin_root(hop, v);
	/* dense ids in order of first node; queue maps colour -> dense id
	 * (colours are node ids v >= 0 or -2 - v for leftover roots) */
	for (v = 0; v < n; v++)
		queue[v] = -1, hop[v] = -1;
	for (v = 0; v < n; v++) {
		int32_t c = blk[v], *slot = c >= 0 ? &queue[c] : &hop[-2 - c];
		if (*slot < 0)
			*slot = nb++;
		blk[v] = *slot;
	}
	sb_free(queue);
	sb_free(hop);
	sb_free(size);
	return nb;
fail:
	sb_free(queue);
	sb_free(hop);
	sb_free(size);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Phase 2: greedy block assignment                                    */
/* ------------------------------------------------------------------ */

struct blocks {
	int32_t nb;
	int64_t *size, *label;
	int64_t *off;          /* neighbour blocks in CSR, nb + 1 offsets */
	int32_t *adj;
};

static int cmp_pair(const void *a, const void *b)
{
	const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Block sizes, training counts and the distinct neighbour blocks. */
static int block_graph(const struct sb_cache_graph *g, const uint8_t *train, const int32_t *blk,
		       int32_t nb, struct blocks *B)
{
	int64_t npair = 0, k, e, j = 0;
	int64_t *pair = NULL;
	int32_t v;

	B->nb = nb;
	B->size = sb_calloc((size_t)nb, sizeof *B->size);
	B->label = sb_calloc((size_t)nb, sizeof *B->label);
	B->off = sb_calloc((size_t)nb + 1, sizeof *B->off);
	for (v = 0; v < g->n; v++)
		for (e = g->off[v]; e < g->off[v + 1]; e++)
			npair += blk[g->adj[e]] != blk[v];
	pair = sb_malloc(sizeof *pair * (size_t)(npair ? npair : 1));
	B->adj = sb_malloc(sizeof *B->adj * (size_t)(npair ? npair : 1));
	if (!B->size || !B->label || !B->off || !pair || !B->adj) {
		sb_free(pair);
		return -1;
	}
	for (v = 0; v < g->n; v++) {
		B->size[blk[v]]++;
		B->label[blk[v]] += train[v] != 0;
		for (e = g->off[v]; e < g->off[v + 1]; e++)
			if (blk[g->adj[e]] != blk[v])
				pair[j++] = (int64_t)blk[v] << 32 | (uint32_t)blk[g->adj[e]];
	}
	qsort(pair, (size_t)npair, sizeof *pair, cmp_pair);
	for (k = 0, j = 0; k < npair; k++)
		if (k == 0 || pair[k] != pair[k - 1]) {
			B->off[(pair[k] >> 32) + 1]++;
			B->adj[j++] = (int32_t)(pair[k] & 0xffffffff);
		}
	for (k = 0; k < nb; k++)
		B->off[k + 1] += B->off[k];
	sb_free(pair);
	return 0;
}

static void blocks_release(struct blocks *B)
{
	sb_free(B->size);
	sb_free(B->label);
	sb_free(B->off);
	sb_free(B->adj);
}

int sb_bgl_bpart(const struct sb_cache_graph *g, const uint8_t *train, const struct sb_opts *o,
		 struct sb_rng *rng, int paper, struct sb_cache_part *pt, struct sb_err *err)
{
	int P = pt->P, q, intdiv = (int)sb_opts_get(o, "intdiv");
	double eps = sb_opts_get(o, "eps"), cap = (1.0 + eps) * g->n / P, label_cap;
	int64_t assigned[SB_CACHE_PART_MAX] = { 0 }, lab[SB_CACHE_PART_MAX] = { 0 }, ntrain = 0;
	int64_t cap_int = (int64_t)cap;
	struct blocks B = { 0 };
	int32_t *blk = sb_malloc(sizeof *blk * (size_t)g->n), *where = NULL;
	int64_t *ord = NULL;
	double *n1 = NULL, *n2 = NULL;
	int32_t nb, i, v;
	int rc = 0;
	int64_t k, k2;

	if (!blk || (nb = sb_bgl_blocks(g, o, rng, blk)) < 0 ||
	    block_graph(g, train, blk, nb, &B) ||
	    !(ord = sb_malloc(sizeof *ord * (size_t)nb)) ||
	    !(where = sb_malloc(sizeof *where * (size_t)nb)) ||
	    !(n1 = sb_calloc((size_t)nb * P, sizeof *n1)) ||
	    (paper && !(n2 = sb_calloc((size_t)nb * P, sizeof *n2)))) {
		rc = sb_err_set(err, SB_EXIT_RUN, "out of memory");
		goto out;
	}
	for (v = 0; v < g->n; v++)
		ntrain += train[v] != 0;
	label_cap = (1.0 + eps) * (double)ntrain / P;
	/* decreasing size, ties by block id: one key per block */
	for (i = 0; i < nb; i++)
		ord[i] = (int64_t)(INT32_MAX - B.size[i]) << 32 | i;
	qsort(ord, (size_t)nb, sizeof *ord, cmp_pair);
	for (i = 0; i < nb; i++) {
		int32_t b = (int32_t)(ord[i] & 0xffffffff);
		double best = 0;
		int pick = -1;
		for (q = 0; q < P; q++) {
			double near = n1[(int64_t)b * P + q] + (paper ? n2[(int64_t)b * P + q] : 0);
			double load = intdiv ? (double)(assigned[q] / (cap_int ? cap_int : 1))
					     : assigned[q] / cap, prio;
			if ((double)(assigned[q] + B.size[b]) > cap)
				continue;
			if (near > 0) {
				prio = near * sqrt(load < 1 ? 1 - load : 0);
				if (paper && label_cap > 0)
					prio *= 1.0 - (double)(lab[q] + B.label[b]) / label_cap;
			} else if (assigned[q] < 0.01 * cap) {
				prio = 1;
			} else {
				prio = 0;
			}
			if (pick < 0 || prio > best) {
				best = prio;
				pick = q;
			}
		}
		if (pick < 0)
			for (q = 0, pick = 0; q < P; q++)
				if (assigned[q] < assigned[pick])
					pick = q;
		where[b] = pick;
		assigned[pick] += B.size[b];
		lab[pick] += B.label[b];
		for (k = B.off[b]; k < B.off[b + 1]; k++) {
			int32_t x = B.adj[k];
			n1[(int64_t)x * P + pick] += (double)B.size[b];
			if (paper)
				for (k2 = B.off[x]; k2 < B.off[x + 1]; k2++)
					if (B.adj[k2] != b)
						n2[(int64_t)B.adj[k2] * P + pick] += (double)B.size[b];
		}
	}
	for (v = 0; v < g->n; v++)
		pt->part[v] = where[blk[v]];
out:
	blocks_release(&B);
	sb_free(blk);
	sb_free(ord);
	sb_free(where);
	sb_free(n1);
	sb_free(n2);
	return rc;
}
