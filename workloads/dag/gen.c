/*
 * gen.c - seeded instance generators of the dag family.
 *
 * sb_gen_layered and sb_gen_devices follow the generators of Mayer, Mayer,
 * Laich, "The TensorFlow Partitioning and Scheduling Problem: It's the
 * Critical Path!", DIDL 2017, as read from their public code
 * (github.com/mayerrn/tensorflowPartitioningAndScheduling,
 * Code/Connected_DAG_Generator and DeviceGenerator; spec tfpart.md,
 * section 7). Verified from that description: 100 levels of U{1..80}
 * nodes, edges to levels 1..4 back with probability p, ceil(0.1 m)
 * long-range attempts, colocation group counts floor((n/5)U 2^-i), U{1..100}
 * costs, 1% CPU-only and 1% GPU-only ops; devices with U{10..100} speeds,
 * 60% CPUs, RAM = floor(maxRAM * minOps / ops) as in the committed device
 * files, U{10..60} rates. Our design: the order of the random draws (PCG32
 * streams, not Java's generator), geometric skipping over candidate
 * parents so the time is O(n + m), colocation members drawn among ops not
 * yet grouped (so group sizes are as drawn), sb_gen_small and the exact
 * redraw order of sb_gen_relations.
 */
#include "load.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Uniform integer in [ceil(lo), floor(hi)], as a double. */
static double unif_int(struct sb_rng *r, double lo, double hi)
{
	double a = ceil(lo), b = floor(hi);

	SB_ASSERT(a <= b && b - a < 4294967295.0 && a >= -9e15 && b <= 9e15);
	return (double)sb_rng_int(r, (int64_t)a, (int64_t)b);
}

/* Growable edge list. */
struct edges {
	int *u, *v;
	size_t n, cap;
};

static void edges_add(struct edges *e, int u, int v)
{
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 1024;
		e->u = sb_xrealloc(e->u, e->cap * sizeof *e->u);
		e->v = sb_xrealloc(e->v, e->cap * sizeof *e->v);
	}
	e->u[e->n] = u;
	e->v[e->n++] = v;
}

static void edges_release(struct edges *e)
{
	sb_free(e->u);
	sb_free(e->v);
	memset(e, 0, sizeof *e);
}

/* ------------------------------------------------------------------ */
/* Edge set (open addressing) for the long-range phase                 */
/* ------------------------------------------------------------------ */

#define EMPTY_KEY UINT64_MAX /* ids are < 2^31, so no edge has this key */

struct edge_set {
	uint64_t *key;
	size_t mask;
};

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void edge_set_init(struct edge_set *s, size_t want)
{
	size_t cap = 64, i;

	while (cap < 2 * want)
		cap *= 2;
	s->key = sb_xmalloc(cap * sizeof *s->key);
	for (i = 0; i < cap; i++)
		s->key[i] = EMPTY_KEY;
	s->mask = cap - 1;
}

/* Insert u->v; returns 1 if it was new. */
static int edge_set_add(struct edge_set *s, int u, int v)
{
	uint64_t k = (uint64_t)(uint32_t)u << 32 | (uint32_t)v;
	size_t i = (size_t)mix64(k) & s->mask;

	while (s->key[i] != EMPTY_KEY) {
		if (s->key[i] == k)
			return 0;
		i = (i + 1) & s->mask;
	}
	s->key[i] = k;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Layered DAGs                                                        */
/* ------------------------------------------------------------------ */

void sb_layered_defaults(struct sb_layered_params *p)
{
	*p = (struct sb_layered_params){
		.levels = 100,
		.min_width = 1,
		.max_width = 80,
		.p = 0.05,
		.max_dist = 4,
		.long_range_frac = 0.1,
		.coloc = 1,
		.ops_lo = 1, .ops_hi = 100,
		.out_lo = 1, .out_hi = 100,
		.ram_lo = 1, .ram_hi = 100,
		.p_cpu_only = 0.01,
		.p_gpu_only = 0.01,
	};
}

/* Draw colocation groups into pairs (first member, other member). */
static void draw_groups(const struct sb_dag *g, struct sb_rng *r,
			struct edges *pairs)
{
	int n = g->n, i, k;
	char *grouped = SB_NEW(char, n);
	int *mem = NULL;
	double base = n / 5.0;

	for (i = 2; i <= n && base * ldexp(1.0, -i) >= 1.0; i++) {
		long cnt = (long)floor(base * sb_rng_uniform(r) * ldexp(1.0, -i));
		long c;
		mem = sb_xrealloc(mem, (size_t)i * sizeof *mem);
		for (c = 0; c < cnt; c++) {
			int size = 0, type = SB_DC_ANY;
			while (size < i) {
				int tries, x = -1;
				/* Bounded rejection: if ops are scarce the group ends
				 * smaller (or is dropped below 2 members). */
				for (tries = 0; tries < 64; tries++) {
					int y = (int)sb_rng_below(r, (uint32_t)n);
					if (grouped[y])
						continue;
					if (g->dc[y] != SB_DC_ANY && type != SB_DC_ANY &&
					    g->dc[y] != type)
						continue;
					x = y;
					break;
				}
				if (x < 0)
					break;
				grouped[x] = 1;
				if (g->dc[x] != SB_DC_ANY)
					type = g->dc[x];
				mem[size++] = x;
			}
			if (size < 2) {
				for (k = 0; k < size; k++)
					grouped[mem[k]] = 0;
				continue;
			}
			for (k = 1; k < size; k++)
				edges_add(pairs, mem[0], mem[k]);
		}
	}
	sb_free(mem);
	sb_free(grouped);
}

void sb_gen_layered(struct sb_dag *g, const struct sb_layered_params *p,
		    struct sb_rng *r)
{
	int L = p->levels, i, v, n;
	int *start, *lev;
	struct edges e = { 0 }, pairs = { 0 };
	struct edge_set set;
	struct sb_err err;
	size_t m1, k;
	long attempts, a;
	double lq = p->p > 0 && p->p < 1 ? log1p(-p->p) : 0;

	SB_ASSERT(L >= 1 && p->min_width >= 1 && p->min_width <= p->max_width);
	SB_ASSERT(p->max_dist >= 1 && p->p >= 0);
	SB_ASSERT(p->long_range_frac >= 0 && p->long_range_frac <= 100);
	SB_ASSERT(p->p_cpu_only >= 0 && p->p_gpu_only >= 0 &&
		  p->p_cpu_only + p->p_gpu_only <= 1);

	/* Level sizes; nodes are numbered level by level. */
	start = SB_NEW(int, (size_t)L + 1);
	for (i = 0; i < L; i++) {
		int w = (int)unif_int(r, p->min_width, p->max_width);
		SB_ASSERT(start[i] <= INT_MAX - w);
		start[i + 1] = start[i] + w;
	}
	n = start[L];
	lev = SB_NEW(int, n);
	for (i = 0; i < L; i++)
		for (v = start[i]; v < start[i + 1]; v++)
			lev[v] = i;

	/* Candidate parents of a node of level i form the contiguous range
	 * [start[i - max_dist], start[i]); jump between the chosen ones with
	 * geometric gaps, which draws exactly the Bernoulli(p) subset. */
	for (i = 1; i < L && p->p > 0; i++) {
		int lo = start[i > p->max_dist ? i - p->max_dist : 0], hi = start[i];
		for (v = start[i]; v < start[i + 1]; v++) {
			int x;
			if (p->p >= 1) {
				for (x = lo; x < hi; x++)
					edges_add(&e, x, v);
				continue;
			}
			x = lo - 1;
			for (;;) {
				double gap = floor(log(sb_rng_uniform_pos(r)) / lq);
				if ((double)x + 1.0 + gap >= (double)hi)
					break;
				x += 1 + (int)gap;
				edges_add(&e, x, v);
			}
		}
	}

	/* Long-range edges between any two levels. */
	m1 = e.n;
	attempts = (long)ceil(p->long_range_frac * (double)m1);
	edge_set_init(&set, m1 + (size_t)attempts);
	for (k = 0; k < m1; k++)
		edge_set_add(&set, e.u[k], e.v[k]);
	for (a = 0; a < attempts; a++) {
		int x = (int)sb_rng_below(r, (uint32_t)n);
		int y = (int)sb_rng_below(r, (uint32_t)n);
		if (lev[x] == lev[y])
			continue;
		if (x > y) {
			int t = x;
			x = y;
			y = t;
		}
		if (edge_set_add(&set, x, y))
			edges_add(&e, x, y);
	}
	sb_free(set.key);

	/* Costs and constraints, node by node. */
	sb_dag_alloc(g, n);
	for (v = 0; v < n; v++) {
		double u;
		g->ops[v] = unif_int(r, p->ops_lo, p->ops_hi);
		g->out[v] = unif_int(r, p->out_lo, p->out_hi);
		g->ram[v] = unif_int(r, p->ram_lo, p->ram_hi);
		u = sb_rng_uniform(r);
		g->dc[v] = u < p->p_cpu_only ? SB_DEV_CPU
			: u < p->p_cpu_only + p->p_gpu_only ? SB_DEV_GPU : SB_DC_ANY;
	}
	if (p->coloc)
		draw_groups(g, r, &pairs);

	SB_ASSERT(e.n < INT_MAX && pairs.n < INT_MAX);
	if (sb_dag_finish(g, (int)e.n, e.u, e.v, NULL, (int)pairs.n, pairs.u,
			  pairs.v, &err))
		SB_BUG("layered generator built a bad graph: %s", err.msg);
	edges_release(&e);
	edges_release(&pairs);
	sb_free(start);
	sb_free(lev);
}

/* ------------------------------------------------------------------ */
/* Devices                                                             */
/* ------------------------------------------------------------------ */

void sb_devgen_defaults(struct sb_devgen_params *p)
{
	*p = (struct sb_devgen_params){
		.n = 50,
		.s_lo = 10, .s_hi = 100,
		.p_cpu = 0.6,
		.mem_num = 1e8,
		.r_lo = 10, .r_hi = 60,
	};
}

void sb_gen_devices(struct sb_devices *d, const struct sb_devgen_params *p,
		    struct sb_rng *r)
{
	int n = p->n, i, j;

	SB_ASSERT(n >= 1 && n <= 65536 && p->s_lo > 0 && p->r_lo > 0);
	sb_devices_alloc(d, n);
	for (i = 0; i < n; i++) {
		d->speed[i] = unif_int(r, p->s_lo, p->s_hi);
		d->type[i] = sb_rng_uniform(r) < p->p_cpu ? SB_DEV_CPU : SB_DEV_GPU;
		d->mem[i] = floor(p->mem_num * p->s_lo / d->speed[i]);
	}
	for (i = 0; i < n; i++) {
		d->rate[(size_t)i * n + i] = 0;
		for (j = i + 1; j < n; j++) {
			double x = unif_int(r, p->r_lo, p->r_hi);
			d->rate[(size_t)i * n + j] = x;
			d->rate[(size_t)j * n + i] = x;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Small instances for exact optima                                    */
/* ------------------------------------------------------------------ */

void sb_gen_small(struct sb_dag_inst *in, int n, int ndev, double edge_p,
		  struct sb_rng *r)
{
	struct edges e = { 0 };
	struct sb_err err;
	double rate, total = 0;
	char buf[160];
	int i, j;

	SB_ASSERT(n >= 1 && n <= 100000 && ndev >= 1 && ndev <= 4096);
	memset(in, 0, sizeof *in);
	sb_dag_alloc(&in->g, n);
	for (i = 0; i < n; i++) {
		in->g.ops[i] = unif_int(r, 1, 20);
		in->g.out[i] = unif_int(r, 1, 10);
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (sb_rng_uniform(r) < edge_p)
				edges_add(&e, i, j);
	if (sb_dag_finish(&in->g, (int)e.n, e.u, e.v, NULL, 0, NULL, NULL, &err))
		SB_BUG("small generator built a bad graph: %s", err.msg);
	edges_release(&e);

	rate = unif_int(r, 1, 5);
	for (i = 0; i < n; i++)
		total += sb_dag_mem(in, i);
	sb_devices_alloc(&in->dev, ndev);
	for (i = 0; i < ndev; i++) {
		in->dev.speed[i] = i < (ndev + 1) / 2 ? 1 : 2;
		in->dev.mem[i] = total;
		in->dev.type[i] = SB_DEV_CPU;
		for (j = 0; j < ndev; j++)
			in->dev.rate[(size_t)i * ndev + j] = i == j ? 0 : rate;
	}
	in->send_ops = 1;
	snprintf(buf, sizeof buf, "small-n%d-d%d", n, ndev);
	in->name = sb_xstrdup(buf);
	snprintf(buf, sizeof buf, "gen_small n=%d ndev=%d edge_p=%g", n, ndev,
		 edge_p);
	in->source = sb_xstrdup(buf);
}

/* ------------------------------------------------------------------ */
/* Communication-intensity variant                                     */
/* ------------------------------------------------------------------ */

void sb_gen_relations(struct sb_dag *g, double f, struct sb_rng *r)
{
	int v, k;

	SB_ASSERT(f >= 0 && isfinite(f));
	for (v = 0; v < g->n; v++) {
		g->out[v] = unif_int(r, 100, 1000);
		g->ops[v] = unif_int(r, 100, 1000) * f;
	}
	for (v = 0; v < g->n; v++)
		for (k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
			g->succ_size[k] = g->out[v];
}
