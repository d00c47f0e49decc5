/*
 * adversary.c - the cache family's hook for `sb adversary cache` (see
 * core/adversary.h) [O, issue #14 item 7; our benchmark design, not
 * BGL's]: tiny graphs whose sampling traces feed the per-GPU feature
 * caches. Genes: the chords of a graph on n nodes (every pair not on the
 * backbone path 0-1-...-(n-1), present or not: the path keeps every node
 * reachable and the graph non-empty), the cache slots per GPU (1 .. n/2),
 * the GPUs (1 or 2, one machine), the fan-out of the one sampling hop (1,
 * 2 or 3) and the seeds per mini-batch (1 or 2). Every node trains, in
 * the `shuffle` order, for `epochs` epochs; the trace comes from the
 * family's sampler with a fixed seed, so a gene vector is one trace.
 *
 * The reference is Belady's MIN per cache instance (one GPU's shard or
 * copy, on the policy's routing), batched and allowed to bypass, cold for
 * dynamic caches and warm (any C nodes before the first request) for
 * caches filled before it (sb_cache_bound): the exact optimum of the
 * family's caching problem, which the tests check against the caching ILP
 * of spec §10.1. Ratio = the policy's misses / MIN's misses over the
 * trace's requests (the cost of paging's competitive analysis: finite for
 * a policy that caches nothing, where a ratio of hits is infinite; 1 when
 * both miss nothing, INFINITY when only MIN does). Every run goes through
 * the simulator with its independent checker; a policy with more hits
 * than MIN is an error.
 */
#include "cache.h"
#include "graph.h"
#include "adversary.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXN 10

static const struct sb_param params[] = {
	{ "n", 7, 3, MAXN, 1, "graph nodes" },
	{ "epochs", 2, 1, 4, 1, "training epochs in the trace" },
	{ NULL, 0, 0, 0, 0, NULL },
};

/* genes after the chords */
#define G_CAP 0
#define G_GPUS 1
#define G_FAN 2
#define G_BATCH 3
#define G_TAIL 4

struct ctx {
	const struct sb_cache_policy *p, *q;   /* q: versus, NULL for MIN */
	struct sb_opts po, qo;
	int n, nchord, epochs;
	int cu[MAXN * MAXN], cv[MAXN * MAXN];   /* the chords */
};

static int find(const char *name, const struct sb_cache_policy **p, struct sb_err *err)
{
	if (!(*p = sb_cache_policy_find(name)))
		return sb_err_set(err, SB_EXIT_INPUT, "cache: unknown cache policy '%s' "
				  "(sb list cache)", name);
	return 0;
}

static int open_(const char *policy, const char *versus, const struct sb_opts *o, void **out,
		 struct sb_adversary_space *sp, struct sb_err *err)
{
	struct ctx *c = SB_NEW(struct ctx, 1);
	int rc, u, v, k;

	memset(c, 0, sizeof *c);
	if ((rc = find(policy, &c->p, err)) || (versus && (rc = find(versus, &c->q, err)))) {
		sb_free(c);
		return rc;
	}
	sb_opts_defaults(&c->po, c->p->params);
	if (c->q)
		sb_opts_defaults(&c->qo, c->q->params);
	c->n = (int)sb_opts_get(o, "n");
	c->epochs = (int)sb_opts_get(o, "epochs");
	for (u = 0; u < c->n; u++)
		for (v = u + 2; v < c->n; v++) {
			c->cu[c->nchord] = u;
			c->cv[c->nchord++] = v;
		}
	if (c->nchord + G_TAIL > SB_ADV_MAXGENES)
		SB_BUG("cache adversary: %d nodes need too many genes", c->n);
	sp->ngenes = c->nchord + G_TAIL;
	for (k = 0; k < c->nchord; k++)
		sp->hi[k] = 2;
	sp->hi[c->nchord + G_CAP] = c->n / 2;
	sp->hi[c->nchord + G_GPUS] = 2;
	sp->hi[c->nchord + G_FAN] = 3;
	sp->hi[c->nchord + G_BATCH] = 2;
	*out = c;
	return 0;
}

/* The graph, training set and setup coded by gene. Owner: the caller
 * (graph released, train freed). */
int sb_cache_adversary_decode(void *ctx, const int *gene, struct sb_cache_graph *g,
			      int32_t *train, struct sb_cache_setup *s, struct sb_err *err)
{
	const struct ctx *c = ctx;
	int32_t u[MAXN * MAXN], v[MAXN * MAXN];
	const int *t = gene + c->nchord;
	int64_t m = 0;
	int k, rc;

	for (k = 0; k + 1 < c->n; k++) {
		u[m] = k;
		v[m++] = k + 1;
	}
	for (k = 0; k < c->nchord; k++)
		if (gene[k]) {
			u[m] = c->cu[k];
			v[m++] = c->cv[k];
		}
	if ((rc = sb_cache_graph_from_arrays(g, c->n, m, u, v, err)))
		return rc;
	snprintf(g->name, sizeof g->name, "adversary-%d", c->n);
	for (k = 0; k < c->n; k++)
		train[k] = k;
	memset(s, 0, sizeof *s);
	s->g = g;
	s->P = 1;
	s->k = 1 + t[G_GPUS];
	s->capacity = 1 + t[G_CAP];
	s->smp.nlayers = 1;
	s->smp.fanout[0] = 1 + t[G_FAN];
	s->smp.batch = 1 + t[G_BATCH];
	s->train = train;
	s->ntrain = c->n;
	s->epochs = c->epochs;
	s->seed = 1;
	s->order = sb_cache_order_find("shuffle");
	if (!s->order)
		SB_BUG("cache adversary: no order 'shuffle'");
	return sb_cache_setup_check(s, err);
}

/* Hits of one checked run of p. */
static int run(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
	       const struct sb_cache_policy *p, const struct sb_opts *o, int64_t *hits,
	       struct sb_err *err)
{
	struct sb_cache_cost cost;
	struct sb_cache_stats st;
	int rc;

	sb_cache_cost_defaults(&cost);
	if ((rc = sb_cache_run(s, t, p, o, &cost, 1, &st, err)))
		return rc;
	if (st.requests != t->nreq)
		SB_BUG("cache adversary: %lld requests replayed of %lld", (long long)st.requests,
		       (long long)t->nreq);
	*hits = sb_cache_hits(&st);
	return 0;
}

static int ratio(void *ctx, const int *gene, double *q, struct sb_err *err)
{
	struct ctx *c = ctx;
	struct sb_cache_graph g;
	struct sb_cache_setup s;
	struct sb_cache_trace t;
	int32_t train[MAXN];
	int64_t h = 0, ref = 0;
	int rc, traced = 0;

	memset(&g, 0, sizeof g);
	if ((rc = sb_cache_adversary_decode(c, gene, &g, train, &s, err)) ||
	    (rc = sb_cache_trace_build(&s, 0, s.epochs, &t, err)))
		goto out;
	traced = 1;
	if ((rc = run(&s, &t, c->p, &c->po, &h, err)))
		goto out;
	if (c->q)
		rc = run(&s, &t, c->q, &c->qo, &ref, err);
	else
		rc = sb_cache_bound(&s, &t, c->p, &ref, err);
	if (rc)
		goto out;
	if (!c->q && h > ref) {
		rc = sb_err_set(err, SB_EXIT_RUN, "cache adversary: %s's %lld hits are above "
				"Belady's MIN %lld", c->p->name, (long long)h, (long long)ref);
		goto out;
	}
	/* misses: the policy's over the reference's */
	*q = h == ref ? 1 : t.nreq > ref ? (double)(t.nreq - h) / (double)(t.nreq - ref) :
		INFINITY;
out:
	if (traced)
		sb_cache_trace_release(&t);
	sb_cache_graph_release(&g);
	if (rc)
		sb_err_prefix(err, "cache adversary: ");
	return rc;
}

static void print(void *ctx, const int *gene, FILE *out)
{
	struct ctx *c = ctx;
	struct sb_cache_graph g;
	struct sb_cache_setup s;
	struct sb_cache_trace t;
	struct sb_err err;
	int32_t train[MAXN], v;
	int64_t e, hits;
	int b;

	memset(&g, 0, sizeof g);
	if (sb_cache_adversary_decode(c, gene, &g, train, &s, &err) ||
	    sb_cache_trace_build(&s, 0, s.epochs, &t, &err)) {
		fprintf(out, "instance: error: %s\n", err.msg);
		sb_cache_graph_release(&g);
		return;
	}
	fprintf(out, "instance: %d nodes, cache %lld per GPU, %d GPUs, fan-out %d, batch %d, "
		"%d epochs\ninstance: edges", c->n, (long long)s.capacity, s.k, s.smp.fanout[0],
		s.smp.batch, s.epochs);
	for (v = 0; v < g.n; v++)
		for (e = g.off[v]; e < g.off[v + 1]; e++)
			if (g.adj[e] > v)
				fprintf(out, " %d-%d", v, g.adj[e]);
	fprintf(out, "\n");
	for (b = 0; b < t.nbatch; b++) {
		fprintf(out, "instance: batch %d gpu %d:", b, t.b[b].gpu);
		for (e = t.b[b].first; e < t.b[b].first + t.b[b].count; e++)
			fprintf(out, " %d", t.req[e]);
		fprintf(out, "\n");
	}
	if (sb_cache_bound(&s, &t, c->p, &hits, &err))
		fprintf(out, "opt: error: %s\n", err.msg);
	else
		fprintf(out, "opt: %lld misses of %lld requests (Belady's MIN, exact)\n",
			(long long)(t.nreq - hits), (long long)t.nreq);
	sb_cache_trace_release(&t);
	sb_cache_graph_release(&g);
}

const struct sb_adversary sb_cache_adversary = {
	.desc = "tiny graphs (chords of a path), cache slots, GPUs, fan-out, batch; reference: "
		"Belady's MIN per cache instance, misses / MIN's misses",
	.params = params,
	.open = open_,
	.ratio = ratio,
	.print = print,
	.policy_type = "cache_policy",   /* every registered one */
	/* no bench space: 20,000 proposals per policy (each a checked run
	 * and an exact optimum) would dominate `make bench`; the Criterion
	 * test compares the search with exhaustive enumeration instead */
	.bench_set = NULL,
};
