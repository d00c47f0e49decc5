/*
 * part.c - running a partitioner: the registry accessors, the run (hook,
 * then the independent checker, then the metrics) and the metrics of spec
 * bgl.md §11 [O]. The traffic metrics are the exact expectations of the
 * tree model described in part.h.
 */
#include "cache/part.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SB_REGISTRY_ACCESSORS(cache_partitioner, sb_cache_partitioners)

void sb_cache_part_release(struct sb_cache_part *pt)
{
	sb_free(pt->part);
	sb_free(pt->copies);
	pt->part = NULL;
	pt->copies = NULL;
}

int64_t sb_cache_part_cap(int64_t n, int P, double eps)
{
	/* the small slack absorbs (1+eps)*n/P landing a hair above an integer */
	return (int64_t)ceil((1.0 + eps) * (double)n / P - 1e-9);
}

void sb_cache_walk_step(const struct sb_cache_graph *g, int fanout, const double *x, double *y)
{
	int32_t u;
	int64_t e;

	memset(y, 0, sizeof *y * (size_t)g->n);
	for (u = 0; u < g->n; u++) {
		int64_t d = sb_cache_degree(g, u);
		double share;
		if (x[u] == 0 || d == 0)
			continue;
		share = x[u] * fanout / (double)d;
		for (e = g->off[u]; e < g->off[u + 1]; e++)
			y[g->adj[e]] += share;
	}
}

static int stores(const struct sb_cache_part *pt, int32_t v, int q)
{
	return pt->copies ? (int)((pt->copies[v] >> q) & 1) : pt->part[v] == q;
}

/* Expected expansions and input rows of the seeds homed on machine q, by
 * propagating the expected count vector one hop at a time (x_{h+1}[w] =
 * fanout_{h+1} * sum over neighbours u of w of x_h[u] / deg(u)). */
static void traffic(const struct sb_cache_graph *g, const uint8_t *train,
		    const struct sb_cache_part *pt, const struct sb_cache_sampler *fan, int q,
		    double *x, double *y, struct sb_cache_part_metrics *m)
{
	int32_t n = g->n, u;
	int h;

	for (u = 0; u < n; u++)
		x[u] = train[u] && pt->part[u] == q;
	for (h = 0; h <= fan->nlayers; h++) {
		double all = 0, remote = 0;
		for (u = 0; u < n; u++) {
			all += x[u];
			if (x[u] != 0 && !stores(pt, u, q))
				remote += x[u];
		}
		m->rows += all;
		m->remote_rows += remote;
		if (h == fan->nlayers)
			break;
		m->expand += all;
		m->remote_expand += remote;
		sb_cache_walk_step(g, fan->fanout[h], x, y);
		memcpy(x, y, sizeof *x * (size_t)n);
	}
}

void sb_cache_part_metrics(const struct sb_cache_graph *g, const uint8_t *train,
			   const struct sb_cache_part *pt, const struct sb_cache_sampler *fan,
			   struct sb_cache_part_metrics *m)
{
	int64_t nodes[SB_CACHE_PART_MAX] = { 0 }, edges[SB_CACHE_PART_MAX] = { 0 };
	int64_t tr[SB_CACHE_PART_MAX] = { 0 }, copies = 0, ntrain = 0, sum_edges = 0, e;
	int32_t v;
	int P = pt->P, q;

	memset(m, 0, sizeof *m);
	m->P = P;
	for (v = 0; v < g->n; v++) {
		int64_t d = sb_cache_degree(g, v);
		for (q = 0; q < P; q++)
			if (stores(pt, v, q)) {
				nodes[q]++;
				edges[q] += d;
				sum_edges += d;
				copies++;
			}
		if (train[v]) {
			tr[pt->part[v]]++;
			ntrain++;
		}
		for (e = g->off[v]; e < g->off[v + 1]; e++)
			if (g->adj[e] > v && pt->part[g->adj[e]] != pt->part[v])
				m->cut_edges++;
	}
	for (q = 0; q < P; q++) {
		if (nodes[q] > m->max_nodes)
			m->max_nodes = nodes[q];
		if (edges[q] > m->max_edges)
			m->max_edges = edges[q];
		if (tr[q] > m->max_train)
			m->max_train = tr[q];
	}
	m->cut_frac = g->m ? (double)m->cut_edges / (double)g->m : 0;
	m->repl = g->n ? (double)copies / g->n : 1;
	m->bal_nodes = copies ? (double)m->max_nodes * P / (double)copies : 1;
	m->bal_edges = sum_edges ? (double)m->max_edges * P / (double)sum_edges : 1;
	m->bal_train = ntrain ? (double)m->max_train * P / (double)ntrain : 1;
	if (fan && fan->nlayers > 0) {
		double *x = sb_xmalloc(sizeof *x * (size_t)g->n);
		double *y = sb_xmalloc(sizeof *y * (size_t)g->n);
		for (q = 0; q < P; q++)
			traffic(g, train, pt, fan, q, x, y, m);
		sb_free(x);
		sb_free(y);
	}
}

int sb_cache_part_run(const struct sb_cache_graph *g, const uint8_t *train, int P,
		      const struct sb_cache_partitioner *p, const struct sb_opts *o,
		      struct sb_rng *rng, const struct sb_cache_sampler *fan, struct sb_cache_part *pt,
		      struct sb_cache_part_metrics *m, struct sb_err *err)
{
	struct sb_cache_part_metrics own;
	char why[256];
	int32_t v;
	int rc;

	if (P < 1 || P > SB_CACHE_PART_MAX)
		return sb_err_set(err, SB_EXIT_INPUT, "partitions: %d, expected 1..%d", P,
				  SB_CACHE_PART_MAX);
	if (P > g->n)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "partitions: %d machines for a graph of %d nodes", P, (int)g->n);
	memset(pt, 0, sizeof *pt);
	pt->P = P;
	pt->eps = -1;
	pt->part = sb_malloc(sizeof *pt->part * (size_t)g->n);
	if (p->replicates)
		pt->copies = sb_calloc((size_t)g->n, sizeof *pt->copies);
	if (!pt->part || (p->replicates && !pt->copies)) {
		sb_cache_part_release(pt);
		return sb_err_set(err, SB_EXIT_RUN, "partitioner %s: out of memory", p->name);
	}
	/* a hook that forgets a node leaves -1, which the checker rejects */
	for (v = 0; v < g->n; v++)
		pt->part[v] = -1;
	rc = p->partition(g, train, o, rng, pt, err);
	if (rc) {
		sb_err_prefix(err, "partitioner %s: ", p->name);
		sb_cache_part_release(pt);
		return rc;
	}
	if (!m)
		m = &own;
	if (sb_cache_part_check(g, train, pt, NULL, why, sizeof why)) {
		sb_cache_part_release(pt);
		return sb_err_set(err, SB_EXIT_RUN, "partitioner %s: invalid partition: %s", p->name,
				  why);
	}
	sb_cache_part_metrics(g, train, pt, fan, m);
	if (sb_cache_part_check(g, train, pt, m, why, sizeof why)) {
		sb_cache_part_release(pt);
		return sb_err_set(err, SB_EXIT_RUN, "partitioner %s: metrics rejected: %s", p->name,
				  why);
	}
	return 0;
}
