/*
 * cache.c - `make bench` for the cache family (issue #16 targets, printed
 * next to each measurement): on an R-MAT graph of scale 22 (Graph500
 * parameters, 4 M nodes, 64 M edges drawn; SB_BENCH_CACHE_SCALE picks
 * another scale) with 8% training nodes, fan-outs 5,10,15, batches of
 * 1000, one machine with 4 GPUs in one NVLink group and 5% of |V| cached:
 *   - graph generation time and peak memory;
 *   - the sampler's sampled edges per CPU second (target >= 50 M/s), also
 *     on R-MAT 19 (least loaded of 3 builds), whose 64 MB of adjacency
 *     mostly stays in the CPU caches; at scale 22 each draw reads DRAM;
 *   - BGL's FIFO hooks alone, lookups per CPU second (target >= 100 M/s);
 *   - one epoch's trace through every policy with the checker, each and
 *     their sum (target: <= 60 s for every policy);
 *   - Belady's MIN on the first 100 M requests of a trace of as many
 *     epochs as that takes (at most 8), as one cache (target <= 30 s);
 *   - measured cost per request of FIFO, LRU, LFU, CLOCK (median of 3).
 * Wall clock and CPU time both printed: on a shared machine the wall time
 * mostly measures the other load. Each line says whether its target is
 * met on this run's CPU time. Measured, never asserted.
 */
#include "bench.h"
#include "cache/cache.h"
#include "workloads/cache/graphs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sb_col cols[] = {
	{ "what", SB_COL_STR, "" },
	{ "name", SB_COL_STR, "" },
	{ "instance", SB_COL_STR, "" },
	{ "seconds", SB_COL_DBL, "s (wall clock)" },
	{ "cpu_seconds", SB_COL_DBL, "s (CPU time)" },
	{ "count", SB_COL_DBL, "items (edges, lookups, requests)" },
	{ "rate_per_cpu_s", SB_COL_DBL, "1/s (CPU time)" },
	{ "target", SB_COL_STR, "" },
	{ NULL, 0, NULL },
};

/* target: a token without blanks for the dataset (">=50e6/s"), and the
 * sentence printed next to the measurement */
/* ok: 1 the target is met, 0 it is not, -1 nothing to meet (measured) */
static void row(struct sb_table *t, const char *what, const char *name, const char *inst,
		double s, double cpu, double count, const char *target, const char *say, int ok)
{
	size_t r = sb_table_add(t);
	double rate = cpu > 0 ? count / cpu : NAN;
	sb_table_set_str(t, r, "what", what);
	sb_table_set_str(t, r, "name", name);
	sb_table_set_str(t, r, "instance", inst);
	sb_table_set_dbl(t, r, "seconds", s);
	sb_table_set_dbl(t, r, "cpu_seconds", cpu);
	sb_table_set_dbl(t, r, "count", count);
	sb_table_set_dbl(t, r, "rate_per_cpu_s", rate);
	sb_table_set_str(t, r, "target", target);
	printf("%-9s %-18s %-10s %9.2f s wall %9.2f s cpu %12.4g items %12.4g /cpu-s  target: %s%s\n",
	       what, name, inst, s, cpu, count, rate, say,
	       ok < 0 ? "" : ok ? "  [met]" : "  [NOT MET]");
	fflush(stdout);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* the bench's setup on g: one machine, 4 GPUs, 5% of |V| cached, 8%
 * training nodes, fan-outs 5,10,15, batches of 1000; the training set
 * returned (owned by the caller) */
static int32_t *bench_setup(struct sb_cache_setup *s, const struct sb_cache_graph *g)
{
	int32_t *train;
	memset(s, 0, sizeof *s);
	s->g = g;
	s->P = 1;
	s->k = 4;
	s->capacity = (int64_t)(0.05 * g->n / 4);
	s->smp.nlayers = 3;
	s->smp.fanout[0] = 5;
	s->smp.fanout[1] = 10;
	s->smp.fanout[2] = 15;
	s->smp.batch = 1000;
	s->epochs = 1;
	s->seed = 1;
	s->order = sb_cache_order_find("shuffle");
	train = sb_cache_train_uniform(g, 0.08, 1, &s->ntrain);
	s->train = train;
	return train;
}

/* The sampler on R-MAT 19 too (64 MB of adjacency): at scale 22 (512 MB)
 * nearly every draw is a DRAM miss. Measured on the 2-core development VM
 * with a private micro-benchmark: independent prefetched reads of a 512 MB
 * array level off at 24-27 ns each (about 18 misses in flight, at any
 * prefetch distance from 1 to 64), and the sampler reads 0.840 adjacency
 * lines plus 0.075 offsets per sampled edge at scale 22, so that machine
 * tops out near 44 M edges/s there whatever the code; fewer line reads
 * per edge would change the draws. */
static void sampler_small(struct sb_table *tab, int scale)
{
	struct sb_cache_graph g;
	struct sb_cache_setup s;
	struct sb_cache_trace t;
	struct sb_err err;
	int32_t *train;
	char inst[32];
	double best = -1, wall = 0, edges = 0;
	int r;
	if (sb_cache_gen_rmat(&g, scale, 16, 0.57, 0.19, 0.19, 1, &err)) {
		sb_err_print(&err);
		return;
	}
	snprintf(inst, sizeof inst, "rmat-%d", scale);
	train = bench_setup(&s, &g);
	for (r = 0; r < 3; r++) {       /* the least loaded of 3 */
		double t0 = sb_now(), c0 = sb_cpu_now();
		if (sb_cache_trace_build(&s, 0, 1, &t, &err)) {
			sb_err_print(&err);
			break;
		}
		c0 = sb_cpu_now() - c0;
		if (best < 0 || c0 < best) {
			best = c0;
			wall = sb_now() - t0;
		}
		edges = (double)t.sampled_edges;
		sb_cache_trace_release(&t);
	}
	if (best >= 0)
		row(tab, "sampler", "5,10,15-min3", inst, wall, best, edges, ">=50e6/s",
		    ">= 50 M sampled edges/s", edges >= 50e6 * best);
	sb_free(train);
	sb_cache_graph_release(&g);
}

static void run(struct sb_table *tab, const char *data)
{
	const char *env = getenv("SB_BENCH_CACHE_SCALE");
	int scale = env ? atoi(env) : 22, np, i;
	struct sb_cache_graph g;
	struct sb_cache_setup s;
	struct sb_cache_trace t;
	struct sb_cache_cost cost;
	struct sb_err err;
	int32_t *train;
	char inst[32];
	double t0, c0;
	const struct sb_cache_policy *const *p = sb_cache_policies(&np);
	(void)data;

	if (scale < 10 || scale > 24)
		scale = 22;
	if (scale > 19)
		sampler_small(tab, 19);
	snprintf(inst, sizeof inst, "rmat-%d", scale);
	t0 = sb_now();
	c0 = sb_cpu_now();
	if (sb_cache_gen_rmat(&g, scale, 16, 0.57, 0.19, 0.19, 1, &err)) {
		sb_err_print(&err);
		return;
	}
	row(tab, "graph", "rmat", inst, sb_now() - t0, sb_cpu_now() - c0, (double)g.in_edges,
	    "fast", "fast and memory-lean (32-bit ids)", -1);
	printf("          %d nodes, %lld edges kept, peak RSS %ld MiB\n", g.n, (long long)g.m,
	       sb_peak_rss_kib() / 1024);
	train = bench_setup(&s, &g);
	sb_cache_cost_defaults(&cost);
	t0 = sb_now();
	c0 = sb_cpu_now();
	if (sb_cache_setup_check(&s, &err) || sb_cache_trace_build(&s, 0, 1, &t, &err)) {
		sb_err_print(&err);
		goto out;
	}
	c0 = sb_cpu_now() - c0;
	row(tab, "sampler", "5,10,15", inst, sb_now() - t0, c0, (double)t.sampled_edges,
	    ">=50e6/s", ">= 50 M sampled edges/s", (double)t.sampled_edges >= 50e6 * c0);
	printf("          %d batches, %lld requests, peak RSS %ld MiB\n", t.nbatch,
	       (long long)t.nreq, sb_peak_rss_kib() / 1024);
	{
		double ns[3];
		struct sb_opts o;
		const struct sb_cache_policy *f = sb_cache_policy_find("fifo");
		sb_opts_defaults(&o, f->params);
		t0 = sb_now();
		if (!sb_cache_policy_ns(&s, &t, f, &o, 1, ns, &err))
			row(tab, "replay", "fifo-hooks", inst, sb_now() - t0, ns[0] * 1e-9 * t.nreq,
			    (double)t.nreq, ">=100e6/s", ">= 100 M lookups/s on one core",
			    ns[0] <= 10);
	}
	{
		/* the target is the epoch through every policy: each
		 * policy's run and their sum are printed against it */
		double wall = 0, cpu = 0, d;
		int ran = 0;
		for (i = 0; i < np; i++) {
			struct sb_cache_stats st;
			struct sb_opts o;
			sb_opts_defaults(&o, p[i]->params);
			t0 = sb_now();
			c0 = sb_cpu_now();
			if (sb_cache_run(&s, &t, p[i], &o, &cost, 1, &st, &err)) {
				sb_err_print(&err);
				continue;
			}
			d = sb_cpu_now() - c0;
			wall += sb_now() - t0;
			cpu += d;
			ran++;
			row(tab, "run", p[i]->name, inst, sb_now() - t0, d, (double)t.nreq, "<=60s",
			    "<= 60 s per policy (with the checker)", d <= 60);
		}
		row(tab, "run", "every-policy", inst, wall, cpu, (double)t.nreq * ran, "<=60s-all",
		    "<= 60 s for the epoch through every policy", ran == np && cpu <= 60);
	}
	{
		/* enough epochs for 100 M requests (at most 8), as one cache */
		struct sb_cache_trace bt;
		int ep = (int)(100000000 / (t.nreq > 0 ? t.nreq : 1)) + 1;
		int64_t n, h, j;
		int32_t *bat, b;
		if (ep > 8)
			ep = 8;
		if (sb_cache_trace_build(&s, 0, ep, &bt, &err)) {
			sb_err_print(&err);
			goto meta;
		}
		n = bt.nreq < 100000000 ? bt.nreq : 100000000;
		bat = SB_NEW(int32_t, n);
		for (b = 0; b < bt.nbatch; b++)
			for (j = bt.b[b].first; j < bt.b[b].first + bt.b[b].count && j < n; j++)
				bat[j] = b;
		t0 = sb_now();
		c0 = sb_cpu_now();
		h = sb_cache_belady_stream(bt.req, bat, n, g.n, s.capacity * 4, SB_CACHE_MIN_BYPASS);
		c0 = sb_cpu_now() - c0;
		row(tab, "belady", "min-bypass", inst, sb_now() - t0, c0, (double)n, "<=30s/100e6",
		    "<= 30 s for 100 M requests", n >= 100000000 ? c0 <= 30 : -1);
		printf("          %lld hits of %lld requests (%d epochs, one cache of %lld nodes), "
		       "peak RSS %ld MiB\n", (long long)h, (long long)n, ep, (long long)s.capacity * 4,
		       sb_peak_rss_kib() / 1024);
		sb_free(bat);
		sb_cache_trace_release(&bt);
	}
meta:
	{
		static const char *const meta[] = { "fifo", "clock", "lru", "lfu" };
		for (i = 0; i < 4; i++) {
			const struct sb_cache_policy *q = sb_cache_policy_find(meta[i]);
			struct sb_opts o;
			double ns[3];
			sb_opts_defaults(&o, q->params);
			t0 = sb_now();
			if (sb_cache_policy_ns(&s, &t, q, &o, 3, ns, &err)) {
				sb_err_print(&err);
				continue;
			}
			qsort(ns, 3, sizeof *ns, cmp_dbl);
			row(tab, "meta_ns", q->name, inst, sb_now() - t0, ns[1] * 1e-9 * t.nreq,
			    (double)t.nreq, "measured", "measured (F6); spec assumes FIFO 5, LRU 30, LFU 80 ns",
			    -1);
			printf("          %.2f ns per request (median of 3: %.2f %.2f %.2f)\n", ns[1],
			       ns[0], ns[1], ns[2]);
		}
	}
	sb_cache_trace_release(&t);
out:
	sb_free(train);
	sb_cache_graph_release(&g);
}

const struct sb_bench sb_bench_cache = {
	.name = "cache",
	.desc = "R-MAT scale 22: generation, sampler, FIFO replay, every policy, Belady, metadata cost",
	.cols = cols,
	.run = run,
};
