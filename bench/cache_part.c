/*
 * cache_part.c - `make bench` for the cache family's partitioners and
 * ordering (issue #16 item 7): the wall time of every registered
 * partitioner on one R-MAT graph (Graph500 parameters, edge factor 16,
 * 8% training nodes, P = 4), and the throughput of BGL's proximity-aware
 * ordering PO-K (dedup) for K = 1, 4, 16, 64 on the same graph (K BFS
 * passes over the whole graph each). A separate part from the cache
 * simulator's bench (bench/cache.c). Wall clock, printed, never asserted.
 */
#include "algorithms/bgl/po.h"
#include "bench.h"
#include "cache/part.h"
#include "workloads/cache/graphs.h"

#include <stdio.h>
#include <time.h>

#define SCALE 17

static const struct sb_col cols[] = {
	{ "what", SB_COL_STR, "" },
	{ "name", SB_COL_STR, "" },
	{ "nodes", SB_COL_INT, "" },
	{ "edges", SB_COL_INT, "undirected" },
	{ "seconds", SB_COL_DBL, "s" },
	{ "rate", SB_COL_DBL, "nodes/s" },
	{ NULL, 0, NULL },
};

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void row(struct sb_table *t, const char *what, const char *name,
		const struct sb_cache_graph *g, double sec, double items)
{
	size_t r = sb_table_add(t);
	sb_table_set_str(t, r, "what", what);
	sb_table_set_str(t, r, "name", name);
	sb_table_set_int(t, r, "nodes", g->n);
	sb_table_set_int(t, r, "edges", g->m);
	sb_table_set_dbl(t, r, "seconds", sec);
	sb_table_set_dbl(t, r, "rate", sec > 0 ? items / sec : 0);
	printf("%-10s %-14s %8d nodes %9lld edges %9.3f s %12.4g nodes/s\n", what, name, (int)g->n,
	       (long long)g->m, sec, sec > 0 ? items / sec : 0);
}

static void run(struct sb_table *t, const char *data)
{
	struct sb_cache_graph g;
	struct sb_err err;
	struct sb_rng tr = sb_rng_stream(1, 0, 0, SB_RNG_INSTANCE);
	const struct sb_cache_partitioner *const *ps;
	static const int Ks[] = { 1, 4, 16, 64 };
	uint8_t *train;
	int32_t *ids, *out, N = 0, v;
	int np, i;

	(void)data;
	if (sb_cache_gen_rmat(&g, SCALE, 16, 0.57, 0.19, 0.19, 1, &err)) {
		sb_err_print(&err);
		return;
	}
	train = sb_xmalloc((size_t)g.n);
	ids = sb_xmalloc(sizeof *ids * (size_t)g.n);
	out = sb_xmalloc(sizeof *out * (size_t)g.n);
	for (v = 0; v < g.n; v++)
		if ((train[v] = sb_rng_uniform(&tr) < 0.08))
			ids[N++] = v;
	ps = sb_cache_partitioners(&np);
	for (i = 0; i < np; i++) {
		struct sb_cache_part pt;
		struct sb_opts o;
		struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_POLICY);
		double t0;
		sb_opts_defaults(&o, ps[i]->params);
		t0 = now();
		if (sb_cache_part_run(&g, train, 4, ps[i], &o, &r, NULL, &pt, NULL, &err)) {
			sb_err_print(&err);
			continue;
		}
		row(t, "partition", ps[i]->name, &g, now() - t0, g.n);
		sb_cache_part_release(&pt);
	}
	for (i = 0; i < 4; i++) {
		struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_POLICY);
		char name[16];
		double t0 = now();
		snprintf(name, sizeof name, "po-%d", Ks[i]);
		if (sb_bgl_po(&g, ids, N, Ks[i], &r, out, &err)) {
			sb_err_print(&err);
			continue;
		}
		row(t, "order", name, &g, now() - t0, N);
	}
	sb_free(train);
	sb_free(ids);
	sb_free(out);
	sb_cache_graph_release(&g);
}

const struct sb_bench sb_bench_cache_part = {
	.name = "cache_part",
	.desc = "partition time per partitioner (R-MAT scale 17, P = 4); PO-K ordering throughput",
	.cols = cols,
	.run = run,
};
