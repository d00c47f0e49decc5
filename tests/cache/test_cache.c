/*
 * test_cache.c - the cache family: the sampler against a reference, the
 * trace builder's permutation check, the checker rejecting each kind of
 * broken replay, every registered policy checked and never above Belady's
 * MIN on seeded random setups, static policies never above the optimal
 * static content, the ILP equal to MIN on tiny traces, and FIFO with room
 * for everything missing only once per node.
 */
#include "tests/testutil.h"

#include "cache/cache.h"
#include "lp.h"
#include "workloads/cache/graphs.h"

static struct sb_cache_graph rmat(int scale, uint64_t seed)
{
	struct sb_cache_graph g;
	struct sb_err err;
	cr_assert_eq(sb_cache_gen_rmat(&g, scale, 8, 0.57, 0.19, 0.19, seed, &err), 0, "%s",
		     err.msg);
	return g;
}

static void setup(struct sb_cache_setup *s, const struct sb_cache_graph *g, int P, int k,
		  int64_t C, int32_t *train, int32_t ntrain, int epochs, uint64_t seed)
{
	struct sb_err err;
	memset(s, 0, sizeof *s);
	s->g = g;
	s->P = P;
	s->k = k;
	s->capacity = C;
	cr_assert_eq(sb_cache_fanouts_parse("3,4", &s->smp, &err), 0);
	s->smp.batch = 16;
	s->train = train;
	s->ntrain = ntrain;
	s->epochs = epochs;
	s->seed = seed;
	s->order = sb_cache_order_find("shuffle");
	cr_assert_not_null(s->order);
}

Test(cache, fanouts_parse)
{
	struct sb_cache_sampler s;
	struct sb_err err;
	char buf[64];
	cr_assert_eq(sb_cache_fanouts_parse("5,10,15", &s, &err), 0);
	cr_assert_eq(s.nlayers, 3);
	cr_assert_eq(s.fanout[2], 15);
	sb_cache_fanouts_format(&s, buf, sizeof buf);
	cr_assert_str_eq(buf, "5,10,15");
	cr_assert_eq(sb_cache_fanouts_parse("5,0", &s, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "fan-out 2 is 0"), "%s", err.msg);
	cr_assert_eq(sb_cache_fanouts_parse("-3", &s, &err), SB_EXIT_INPUT);
	cr_assert_eq(sb_cache_fanouts_parse("5,x", &s, &err), SB_EXIT_INPUT);
	cr_assert_eq(sb_cache_fanouts_parse("", &s, &err), SB_EXIT_INPUT);
	cr_assert_eq(sb_cache_fanouts_parse("1,1,1,1,1,1,1,1,1", &s, &err), SB_EXIT_INPUT);
}

/* the sampler's distinct input list equals a plain reference: the seeds,
 * then every neighbour the same draws reach, once */
Test(cache, sampler_matches_reference)
{
	struct sb_cache_graph g = rmat(10, 3);
	struct sb_cache_sampler s;
	struct sb_cache_batch b;
	struct sb_err err;
	uint64_t *seen = SB_NEW(uint64_t, (g.n + 63) / 64);
	int32_t *out = SB_NEW(int32_t, g.n), seeds[50], i;
	unsigned char *ref = SB_NEW(unsigned char, g.n);
	int64_t n, j, reach = 0;
	struct sb_rng r = sb_rng_stream(1, 2, 3, SB_RNG_TEST), r2 = r;
	cr_assert_eq(sb_cache_fanouts_parse("5,10", &s, &err), 0);
	for (i = 0; i < 50; i++)
		seeds[i] = i * 7;
	n = sb_cache_sample_batch(&g, &s, seeds, 50, &r, seen, out, &b);
	for (i = 0; i < (g.n + 63) / 64; i++)
		cr_assert_eq(seen[i], 0, "bitmap not cleared");
	for (j = 0; j < n; j++) {
		cr_assert_eq(ref[out[j]], 0, "node %d twice", out[j]);
		ref[out[j]] = 1;
	}
	for (i = 0; i < 50; i++)
		cr_assert_eq(out[i], seeds[i]);
	/* every input is a seed or a neighbour of an earlier input */
	for (j = 50; j < n; j++) {
		int64_t q, e;
		int found = 0;
		for (q = 0; q < j && !found; q++)
			for (e = g.off[out[q]]; e < g.off[out[q] + 1]; e++)
				if (g.adj[e] == out[j])
					found = 1;
		cr_assert(found, "input %d reached from nothing", out[j]);
	}
	cr_assert_eq(b.hop_dst[0], 50);
	cr_assert_eq(b.hop_dst[1], n - (n - b.hop_dst[1]));
	for (i = 0; i < 2; i++)
		reach += b.hop_edges[i];
	cr_assert_eq(reach, b.sampled_edges);
	/* same stream, same batch */
	{
		int32_t *out2 = SB_NEW(int32_t, g.n);
		struct sb_cache_batch b2;
		cr_assert_eq(sb_cache_sample_batch(&g, &s, seeds, 50, &r2, seen, out2, &b2), n);
		cr_assert_eq(memcmp(out, out2, (size_t)n * sizeof *out), 0);
		sb_free(out2);
	}
	sb_free(seen);
	sb_free(out);
	sb_free(ref);
	sb_cache_graph_release(&g);
}

/* the plain sampler the pipelined one must equal draw for draw: each
 * frontier node in turn, its fan-out positions drawn by Lemire's
 * multiply-shift rejection at the moment its row is read */
static uint32_t ref_below(struct sb_rng *r, uint32_t d)
{
	uint32_t reject = (uint32_t)(-d) % d;
	for (;;) {
		uint64_t m = (uint64_t)sb_rng_u32(r) * d;
		if ((uint32_t)m >= reject)
			return (uint32_t)(m >> 32);
	}
}

static int64_t ref_sample(const struct sb_cache_graph *g, const struct sb_cache_sampler *s,
			  const int32_t *seeds, int32_t nseeds, struct sb_rng *r,
			  unsigned char *in, int32_t *out, int64_t *hop_edges)
{
	int64_t len = 0, j, fr;
	int l, f;
	memset(in, 0, (size_t)g->n);
	for (j = 0; j < nseeds; j++)
		if (!in[seeds[j]]) {
			in[seeds[j]] = 1;
			out[len++] = seeds[j];
		}
	for (l = 0; l < s->nlayers; l++)
		for (fr = len, hop_edges[l] = 0, j = 0; j < fr; j++) {
			int64_t lo = g->off[out[j]], d = g->off[out[j] + 1] - lo;
			for (f = 0; d && f < s->fanout[l]; f++, hop_edges[l]++) {
				int32_t y = g->adj[lo + ref_below(r, (uint32_t)d)];
				if (!in[y]) {
					in[y] = 1;
					out[len++] = y;
				}
			}
		}
	return len;
}

/* the sampler draws ahead of its reads (a software pipeline over the
 * frontier); its inputs, hop counts and RNG state after the batch are
 * those of the plain in-order sampler, with isolated nodes, fan-outs up
 * to the limit of 1000, many layers and a batch that reaches every node */
Test(cache, sampler_equals_in_order_draws)
{
	static const char *const fans[] = { "5,10", "3,1000", "1000", "2,2,2,2,2,2,2,2", "25,10" };
	struct sb_cache_graph g = rmat(10, 5);
	uint64_t *seen = SB_NEW(uint64_t, (g.n + 63) / 64);
	int32_t *out = SB_NEW(int32_t, g.n), *ref = SB_NEW(int32_t, g.n), seeds[200];
	unsigned char *in = SB_NEW(unsigned char, g.n);
	int32_t i, isolated = 0;
	size_t c;
	for (i = 0; i < g.n; i++)
		isolated += sb_cache_degree(&g, i) == 0;
	cr_assert_gt(isolated, 0, "the graph should have isolated nodes");
	for (i = 0; i < 200; i++)
		seeds[i] = (int32_t)((i * 37) % g.n);
	for (c = 0; c < sizeof fans / sizeof *fans; c++) {
		struct sb_cache_sampler s;
		struct sb_cache_batch b;
		struct sb_err err;
		int64_t hop_edges[SB_CACHE_MAX_LAYERS], n, nref, edges = 0;
		struct sb_rng r = sb_rng_stream(7, c, 1, SB_RNG_TEST), r2 = r;
		int l;
		cr_assert_eq(sb_cache_fanouts_parse(fans[c], &s, &err), 0);
		n = sb_cache_sample_batch(&g, &s, seeds, 200, &r, seen, out, &b);
		nref = ref_sample(&g, &s, seeds, 200, &r2, in, ref, hop_edges);
		cr_assert_eq(n, nref, "fan-outs %s: %lld inputs, reference %lld", fans[c],
			     (long long)n, (long long)nref);
		cr_assert_eq(memcmp(out, ref, (size_t)n * sizeof *out), 0, "fan-outs %s: inputs "
			     "differ from the in-order draws", fans[c]);
		cr_assert_eq(memcmp(&r, &r2, sizeof r), 0, "fan-outs %s: rng state differs",
			     fans[c]);
		for (l = 0; l < s.nlayers; l++) {
			cr_assert_eq(b.hop_edges[l], hop_edges[l], "fan-outs %s: hop %d", fans[c], l);
			edges += hop_edges[l];
		}
		cr_assert_eq(b.sampled_edges, edges);
		for (i = 0; i < (g.n + 63) / 64; i++)
			cr_assert_eq(seen[i], 0, "bitmap not cleared");
	}
	sb_free(seen);
	sb_free(out);
	sb_free(ref);
	sb_free(in);
	sb_cache_graph_release(&g);
}

static int bad_order(const struct sb_cache_graph *g, const int32_t *train, int32_t ntrain,
		     const struct sb_opts *o, struct sb_rng *rng, int32_t *out, struct sb_err *err)
{
	int32_t i;
	for (i = 0; i < ntrain; i++)
		out[i] = train[i];
	out[ntrain - 1] = train[0];
	return 0;
}

Test(cache, trace_rejects_an_order_that_is_no_permutation)
{
	struct sb_cache_graph g = rmat(8, 1);
	struct sb_cache_order o = { .name = "bad", .order = bad_order };
	struct sb_cache_setup s;
	struct sb_cache_trace t;
	struct sb_err err;
	int32_t ntrain, *train = sb_cache_train_uniform(&g, 0.2, 1, &ntrain);
	setup(&s, &g, 1, 1, 10, train, ntrain, 1, 1);
	s.order = &o;
	cr_assert_eq(sb_cache_trace_build(&s, 0, 1, &t, &err), SB_EXIT_RUN);
	cr_assert(strstr(err.msg, "repeated"), "%s", err.msg);
	sb_free(train);
	sb_cache_graph_release(&g);
}

Test(cache, setup_rejects_a_cache_larger_than_the_graph)
{
	struct sb_cache_graph g = rmat(6, 1);
	struct sb_cache_setup s;
	struct sb_err err;
	int32_t ntrain, *train = sb_cache_train_uniform(&g, 0.2, 1, &ntrain);
	setup(&s, &g, 1, 1, g.n + 1, train, ntrain, 1, 1);
	cr_assert_eq(sb_cache_setup_check(&s, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "cache of"), "%s", err.msg);
	s.capacity = g.n;
	cr_assert_eq(sb_cache_setup_check(&s, &err), 0, "%s", err.msg);
	s.smp.fanout[1] = 0;
	cr_assert_eq(sb_cache_setup_check(&s, &err), SB_EXIT_INPUT);
	sb_free(train);
	sb_cache_graph_release(&g);
}

/* every policy, random setups: checked, hits <= Belady of its routing;
 * static ones <= the optimal static content */
Test(cache, every_policy_checked_and_not_above_belady)
{
	int np, i, rep;
	const struct sb_cache_policy *const *p = sb_cache_policies(&np);
	cr_assert_geq(np, 8);
	for (rep = 0; rep < 12; rep++) {
		struct sb_rng r = sb_rng_stream(11, (uint64_t)rep, 0, SB_RNG_TEST);
		struct sb_cache_graph g = rmat(8 + rep % 3, (uint64_t)rep);
		int P = 1 + (int)sb_rng_below(&r, 2), k = 1 + (int)sb_rng_below(&r, 6);
		int64_t C = 1 + sb_rng_below(&r, (uint32_t)(g.n / 8));
		int32_t ntrain, *train = sb_cache_train_uniform(&g, 0.15, (uint64_t)rep, &ntrain);
		struct sb_cache_setup s;
		struct sb_cache_trace t;
		struct sb_cache_cost cost;
		struct sb_err err;
		int64_t cold[2], coldn[2], warm[2], sopt[2];
		setup(&s, &g, P, k, C, train, ntrain, 2, (uint64_t)rep);
		cr_assert_eq(sb_cache_setup_check(&s, &err), 0, "%s", err.msg);
		cr_assert_eq(sb_cache_trace_build(&s, 0, 2, &t, &err), 0, "%s", err.msg);
		sb_cache_cost_defaults(&cost);
		for (i = 0; i < 2; i++) {
			cr_assert_eq(sb_cache_belady(&s, &t, i, SB_CACHE_MIN_BYPASS, &cold[i], &err), 0);
			cr_assert_eq(sb_cache_belady(&s, &t, i, 0, &coldn[i], &err), 0);
			cr_assert_eq(sb_cache_belady(&s, &t, i, SB_CACHE_MIN_BYPASS | SB_CACHE_MIN_WARM,
						     &warm[i], &err), 0);
			cr_assert_eq(sb_cache_static_opt(&s, &t, i, &sopt[i], &err), 0);
			cr_assert_leq(coldn[i], cold[i]);
			cr_assert_leq(cold[i], warm[i]);
			cr_assert_leq(sopt[i], warm[i], "static optimum %lld above warm MIN %lld",
				      (long long)sopt[i], (long long)warm[i]);
		}
		for (i = 0; i < np; i++) {
			struct sb_opts o;
			struct sb_cache_stats st;
			int rp = p[i]->replicated;
			int64_t bound;
			sb_opts_defaults(&o, p[i]->params);
			cr_assert_eq(sb_cache_run(&s, &t, p[i], &o, &cost, 1, &st, &err), 0,
				     "%s: %s", p[i]->name, err.msg);
			cr_assert_eq(sb_cache_bound(&s, &t, p[i], &bound, &err), 0);
			cr_assert_eq(bound, p[i]->contents ? warm[rp] : cold[rp]);
			cr_assert_eq(st.requests, t.nreq);
			cr_assert_leq(sb_cache_hits(&st), bound, "%s: %lld hits above Belady %lld "
				      "(P %d k %d C %lld)", p[i]->name, (long long)sb_cache_hits(&st),
				      (long long)bound, P, k, (long long)C);
			if (!p[i]->insert)
				cr_assert_leq(sb_cache_hits(&st), sopt[rp], "%s above the static optimum",
					      p[i]->name);
			cr_assert_gt(st.t_epoch, 0);
			if (rp || k == 1)
				cr_assert_eq(st.hit_peer, 0, "%s", p[i]->name);
			if (P == 1)
				cr_assert_eq(st.miss_remote, 0);
		}
		sb_cache_trace_release(&t);
		sb_free(train);
		sb_cache_graph_release(&g);
	}
}

Test(cache, fifo_with_room_for_all_misses_each_node_once)
{
	struct sb_cache_graph g = rmat(9, 4);
	struct sb_cache_setup s;
	struct sb_cache_trace t;
	struct sb_cache_cost cost;
	struct sb_cache_stats st;
	struct sb_opts o;
	struct sb_err err;
	int32_t ntrain, *train = sb_cache_train_uniform(&g, 0.1, 4, &ntrain);
	unsigned char *seen = SB_NEW(unsigned char, g.n);
	int64_t distinct = 0, i;
	setup(&s, &g, 1, 3, g.n, train, ntrain, 3, 4);
	cr_assert_eq(sb_cache_trace_build(&s, 0, 3, &t, &err), 0);
	for (i = 0; i < t.nreq; i++)
		if (!seen[t.req[i]]++)
			distinct++;
	sb_cache_cost_defaults(&cost);
	sb_opts_defaults(&o, NULL);
	cr_assert_eq(sb_cache_run(&s, &t, sb_cache_policy_find("fifo"), &o, &cost, 1, &st, &err),
		     0, "%s", err.msg);
	cr_assert_eq(st.miss_host, distinct);
	cr_assert_eq(st.evictions, 0);
	sb_free(seen);
	sb_cache_trace_release(&t);
	sb_free(train);
	sb_cache_graph_release(&g);
}

/* ------------------------------------------------------------------ */
/* The checker against broken policies                                 */
/* ------------------------------------------------------------------ */

struct liar {
	int mode;
	int64_t n;
	int32_t last;
};
static int liar_mode;

static int liar_init(const struct sb_cache_shard *sh, const struct sb_opts *o, void **ctx,
		     struct sb_err *err)
{
	struct liar *l = SB_NEW(struct liar, 1);
	l->mode = liar_mode;
	l->last = -1;
	*ctx = l;
	return 0;
}

static int liar_lookup(void *ctx, int32_t v)
{
	struct liar *l = ctx;
	/* mode 0: claims every node, even before anything was admitted */
	return l->mode == 0 ? 1 : v == l->last;
}

static int32_t liar_insert(void *ctx, int32_t v)
{
	struct liar *l = ctx;
	int32_t prev = l->last;
	l->n++;
	l->last = v;
	if (l->mode == 1)
		return SB_CACHE_NO_VICTIM;      /* never evicts: grows past C */
	if (l->mode == 2)
		return prev >= 0 ? prev + 1 : SB_CACHE_NO_VICTIM;   /* wrong victim */
	return prev >= 0 ? prev : SB_CACHE_NO_VICTIM;
}

static void liar_release(void *ctx)
{
	sb_free(ctx);
}

static int64_t bad_contents(void *ctx, int32_t *out)
{
	out[0] = 1;
	out[1] = 1;
	return 2;
}

Test(cache, checker_rejects_broken_policies)
{
	struct sb_cache_graph g = rmat(8, 2);
	struct sb_cache_policy lp = { .name = "liar", .init = liar_init, .lookup = liar_lookup,
				      .insert = liar_insert, .release = liar_release };
	struct sb_cache_setup s;
	struct sb_cache_trace t;
	struct sb_cache_cost cost;
	struct sb_cache_stats st;
	struct sb_opts o;
	struct sb_err err;
	int32_t ntrain, *train = sb_cache_train_uniform(&g, 0.3, 2, &ntrain);
	const char *want[] = { "does not hold", "above its capacity", "does not hold" };
	int mode;
	setup(&s, &g, 1, 1, 1, train, ntrain, 1, 2);
	cr_assert_eq(sb_cache_trace_build(&s, 0, 1, &t, &err), 0);
	sb_cache_cost_defaults(&cost);
	sb_opts_defaults(&o, NULL);
	/* the honest liar (C = 1, mode 3: a correct one-slot cache) passes */
	liar_mode = 3;
	cr_assert_eq(sb_cache_run(&s, &t, &lp, &o, &cost, 1, &st, &err), 0, "%s", err.msg);
	for (mode = 0; mode < 3; mode++) {
		liar_mode = mode;
		cr_assert_eq(sb_cache_run(&s, &t, &lp, &o, &cost, 1, &st, &err), SB_EXIT_RUN,
			     "mode %d accepted", mode);
		cr_assert(strstr(err.msg, want[mode]), "mode %d: %s", mode, err.msg);
		cr_assert_eq(st.requests, 0, "a rejected run leaves no result");
	}
	lp.contents = bad_contents;
	s.capacity = 2;
	liar_mode = 3;
	cr_assert_eq(sb_cache_run(&s, &t, &lp, &o, &cost, 1, &st, &err), SB_EXIT_RUN);
	cr_assert(strstr(err.msg, "twice"), "%s", err.msg);
	sb_cache_trace_release(&t);
	sb_free(train);
	sb_cache_graph_release(&g);
}


/* Admissions straight through the checker's API: only a node that missed
 * in the same batch may enter, on its owner GPU (k = 4: owner v mod 4,
 * local id v / 4), and a victim must be held. */
Test(cache, checker_admits_only_this_batchs_misses)
{
	struct sb_cache_graph g = rmat(8, 2);
	struct sb_cache_setup s;
	struct sb_cache_trace t = { 0 };
	struct sb_cache_stats st = { 0 };
	struct sb_cache_checker *c;
	char why[512];
	int32_t ntrain, *train = sb_cache_train_uniform(&g, 0.3, 2, &ntrain);
	setup(&s, &g, 1, 4, 2, train, ntrain, 1, 2);

	/* node 9 misses in batch 0 and enters GPU 1 (9 mod 4) in batch 0: fine;
	 * node 13 (also GPU 1) evicts it in batch 1 */
	c = sb_cache_checker_new(&s, 0);
	sb_cache_check_request(c, 0, 0, 2, 9, 0);
	sb_cache_check_insert(c, 0, 0, 2, 9, SB_CACHE_NO_VICTIM);
	sb_cache_check_request(c, 1, 0, 3, 9, 1);
	sb_cache_check_request(c, 1, 0, 3, 13, 0);
	sb_cache_check_insert(c, 1, 0, 3, 13, 9 / 4);
	sb_cache_check_request(c, 2, 0, 0, 13, 1);
	st.requests = 4;
	st.hit_peer = 2;
	st.miss_host = 2;
	st.inserts = 2;
	st.evictions = 1;
	t.nreq = 4;
	cr_assert_eq(sb_cache_check_finish(c, &t, &st, why, sizeof why), 0, "%s", why);
	sb_cache_checker_free(c);

	/* a miss of batch 0 admitted after batch 1 began */
	c = sb_cache_checker_new(&s, 0);
	sb_cache_check_request(c, 0, 0, 0, 9, 0);
	sb_cache_check_request(c, 1, 0, 0, 5, 0);
	sb_cache_check_insert(c, 0, 0, 0, 9, SB_CACHE_NO_VICTIM);
	cr_assert_eq(sb_cache_check_finish(c, &t, &st, why, sizeof why), 1);
	cr_assert(strstr(why, "without a miss in this batch"), "%s", why);
	sb_cache_checker_free(c);

	/* a node that hit (or was never requested) admitted */
	c = sb_cache_checker_new(&s, 0);
	sb_cache_check_request(c, 0, 0, 0, 9, 0);
	sb_cache_check_insert(c, 0, 0, 0, 10, SB_CACHE_NO_VICTIM);
	cr_assert_eq(sb_cache_check_finish(c, &t, &st, why, sizeof why), 1);
	cr_assert(strstr(why, "without a miss in this batch"), "%s", why);
	sb_cache_checker_free(c);

	/* a victim its GPU does not hold (13 is on GPU 1, 12 on GPU 0) */
	c = sb_cache_checker_new(&s, 0);
	sb_cache_check_request(c, 0, 0, 0, 12, 0);
	sb_cache_check_insert(c, 0, 0, 0, 12, SB_CACHE_NO_VICTIM);
	sb_cache_check_request(c, 1, 0, 0, 13, 0);
	sb_cache_check_insert(c, 1, 0, 0, 13, 12 / 4);
	cr_assert_eq(sb_cache_check_finish(c, &t, &st, why, sizeof why), 1);
	cr_assert(strstr(why, "does not hold"), "%s", why);
	sb_cache_checker_free(c);
	sb_free(train);
	sb_cache_graph_release(&g);
}

/* ------------------------------------------------------------------ */
/* Optima                                                              */
/* ------------------------------------------------------------------ */

Test(cache, ilp_equals_belady_on_tiny_traces)
{
	int rep;
	for (rep = 0; rep < 25; rep++) {
		struct sb_rng r = sb_rng_stream(5, (uint64_t)rep, 0, SB_RNG_TEST);
		int64_t nloc = 4 + sb_rng_below(&r, 10), C = 1 + sb_rng_below(&r, 4), n = 0, i;
		int32_t req[200], bat[200], b;
		int64_t hb, hn, hw, hi;
		int status;
		struct sb_err err;
		for (b = 0; b < 8 + (int)sb_rng_below(&r, 12); b++) {
			/* a batch of distinct nodes, skewed toward small ids */
			unsigned char in[16] = { 0 };
			int m = 1 + (int)sb_rng_below(&r, 5), j;
			for (j = 0; j < m; j++) {
				int32_t v = (int32_t)(sb_rng_below(&r, (uint32_t)nloc) *
						      sb_rng_uniform(&r));
				if (!in[v]++) {
					req[n] = v;
					bat[n++] = b;
				}
			}
		}
		hb = sb_cache_belady_stream(req, bat, n, nloc, C, SB_CACHE_MIN_BYPASS);
		hn = sb_cache_belady_stream(req, bat, n, nloc, C, 0);
		hw = sb_cache_belady_stream(req, bat, n, nloc, C,
					    SB_CACHE_MIN_BYPASS | SB_CACHE_MIN_WARM);
		cr_assert_eq(sb_cache_ilp(req, bat, n, nloc, C, 0, 100000, &hi, &status, &err), 0,
			     "%s", err.msg);
		cr_assert_eq(status, SB_LP_OPTIMAL);
		cr_assert_eq(hi, hb, "rep %d: ILP %lld, MIN %lld (n %lld, nloc %lld, C %lld)", rep,
			     (long long)hi, (long long)hb, (long long)n, (long long)nloc, (long long)C);
		cr_assert_eq(sb_cache_ilp(req, bat, n, nloc, C, 1, 100000, &hi, &status, &err), 0,
			     "%s", err.msg);
		cr_assert_eq(status, SB_LP_OPTIMAL);
		cr_assert_eq(hi, hw, "rep %d: warm ILP %lld, warm MIN %lld", rep, (long long)hi,
			     (long long)hw);
		cr_assert_leq(hn, hb);
		cr_assert_leq(hb, hw);
		for (i = 0; i < n; i++)
			cr_assert_lt(req[i], nloc);
	}
}

/* a b c a b c a b c, one request per batch: with C = 2 MIN bypasses c
 * and hits a and b twice each; forced to admit, it hits 3 times (a, c, b);
 * with C = 1 it keeps a and hits it twice */
Test(cache, belady_textbook)
{
	int32_t req[] = { 0, 1, 2, 0, 1, 2, 0, 1, 2 }, bat[9];
	int i;
	for (i = 0; i < 9; i++)
		bat[i] = i;
	cr_assert_eq(sb_cache_belady_stream(req, bat, 9, 3, 2, SB_CACHE_MIN_BYPASS), 4);
	cr_assert_eq(sb_cache_belady_stream(req, bat, 9, 3, 2, 0), 3);
	cr_assert_eq(sb_cache_belady_stream(req, bat, 9, 3, 3, SB_CACHE_MIN_BYPASS), 6);
	cr_assert_eq(sb_cache_belady_stream(req, bat, 9, 3, 1, SB_CACHE_MIN_BYPASS), 2);
	/* warm: a and b held from the start, c always bypassed */
	cr_assert_eq(sb_cache_belady_stream(req, bat, 9, 3, 2,
					    SB_CACHE_MIN_BYPASS | SB_CACHE_MIN_WARM), 6);
	/* one batch of all three: nothing to hit */
	for (i = 0; i < 9; i++)
		bat[i] = i / 3;
	cr_assert_eq(sb_cache_belady_stream(req, bat, 3, 3, 2, SB_CACHE_MIN_BYPASS), 0);
	/* batches {a b c} {a b c} {a b c}, C = 2: two hits per later batch */
	cr_assert_eq(sb_cache_belady_stream(req, bat, 9, 3, 2, SB_CACHE_MIN_BYPASS), 4);
}
