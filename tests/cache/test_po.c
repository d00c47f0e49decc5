/*
 * test_po.c - BGL's proximity-aware ordering PO-K (algorithms/bgl/po.c):
 * every pass and the deduplicated order are permutations of the training
 * set (also on graphs with isolated nodes and several components), the
 * dedup equals a reference that materialises the released N*K array and
 * filters it through a hash set, K = 1 is the BFS sequence itself, a BFS
 * pass lists nodes by non-decreasing distance from its root, and the
 * order is a function of the seed.
 */
#include "tests/testutil.h"

#include "algorithms/bgl/po.h"
#include "cache/cache.h"
#include "workloads/cache/graphs.h"

/* A reference set: open addressing on ids + 1 (0 marks an empty slot). */
struct hset {
	uint32_t cap;
	uint32_t *slot;
};

static int hset_add(struct hset *h, int32_t v)
{
	uint32_t i = ((uint32_t)v * 2654435761u) & (h->cap - 1);
	while (h->slot[i]) {
		if (h->slot[i] == (uint32_t)v + 1)
			return 0;
		i = (i + 1) & (h->cap - 1);
	}
	h->slot[i] = (uint32_t)v + 1;
	return 1;
}

static int32_t *random_train(int32_t n, double frac, uint64_t seed, int32_t *N)
{
	struct sb_rng r = sb_rng_stream(seed, 1, 0, 0);
	int32_t *t = malloc(sizeof *t * (size_t)n), v;
	*N = 0;
	for (v = 0; v < n; v++)
		if (sb_rng_uniform(&r) < frac)
			t[(*N)++] = v;
	return t;
}

static void assert_perm(const int32_t *a, const int32_t *train, int32_t N, int32_t n)
{
	uint8_t *in = calloc((size_t)n, 1), *hit = calloc((size_t)n, 1);
	int32_t j;
	for (j = 0; j < N; j++)
		in[train[j]] = 1;
	for (j = 0; j < N; j++) {
		cr_assert(a[j] >= 0 && a[j] < n, "entry %d out of range", j);
		cr_assert(in[a[j]], "node %d is not a training node", a[j]);
		cr_assert(!hit[a[j]], "node %d twice", a[j]);
		hit[a[j]] = 1;
	}
	free(in);
	free(hit);
}

Test(cache_po, permutation_and_reference_dedup)
{
	int Ks[] = { 1, 2, 4, 8, 16, 64 }, k, gi;
	for (gi = 0; gi < 2; gi++) {
		struct sb_cache_graph g;
		struct sb_err err;
		int32_t N, *train;
		/* gi = 1: sparse SBM, so some nodes are isolated and BFS restarts */
		cr_assert_eq(sb_cache_gen_sbm(&g, 3000, 24, gi ? 1.2 : 12, 0.1, 40 + gi, &err), 0,
			     "%s", err.msg);
		train = random_train(g.n, 0.08, gi, &N);
		cr_assert_gt(N, 100);
		for (k = 0; k < 6; k++) {
			int K = Ks[k], i;
			int32_t *out = malloc(sizeof *out * (size_t)N);
			int32_t *seq = malloc(sizeof *seq * (size_t)N * K), *ref = malloc(sizeof *ref * (size_t)N);
			struct sb_rng r1 = sb_rng_stream(9, K, 0, 0), r2 = r1;
			struct hset h = { 1u << 14, calloc(1u << 14, sizeof(uint32_t)) };
			int32_t off = N / K, c = 0;
			int64_t x;
			cr_assert_eq(sb_bgl_po(&g, train, N, K, &r1, out, &err), 0, "%s", err.msg);
			assert_perm(out, train, N, g.n);
			cr_assert_eq(sb_bgl_po_sequences(&g, train, N, K, &r2, seq, &err), 0);
			for (i = 0; i < K; i++)
				assert_perm(seq + (size_t)i * N, train, N, g.n);
			/* the released array, N*K entries, then first appearances */
			for (x = 0; x < (int64_t)N * K; x++) {
				int64_t jj = x / K, ii = x % K;
				int32_t v = seq[ii * N + (jj + ii * off) % N];
				if (hset_add(&h, v))
					ref[c++] = v;
			}
			cr_assert_eq(c, N);
			cr_assert_eq(memcmp(ref, out, sizeof *out * (size_t)N), 0, "K=%d differs", K);
			if (K == 1)
				cr_assert_eq(memcmp(seq, out, sizeof *out * (size_t)N), 0);
			free(out);
			free(seq);
			free(ref);
			free(h.slot);
		}
		free(train);
		sb_cache_graph_release(&g);
	}
}

/* On a connected graph with every node training, pass 1 is a BFS: the
 * distance from its first node never decreases along the sequence. */
Test(cache_po, bfs_order_by_distance)
{
	struct sb_cache_graph g;
	struct sb_err err;
	int32_t *train, *seq, *dist, *q, v, head = 0, tail = 0;
	struct sb_rng r = sb_rng_stream(3, 0, 0, 0);
	int64_t e;
	cr_assert_eq(sb_cache_gen_sbm(&g, 400, 4, 20, 0.2, 5, &err), 0, "%s", err.msg);
	train = malloc(sizeof *train * (size_t)g.n);
	seq = malloc(sizeof *seq * (size_t)g.n);
	dist = malloc(sizeof *dist * (size_t)g.n);
	q = malloc(sizeof *q * (size_t)g.n);
	for (v = 0; v < g.n; v++) {
		train[v] = v;
		dist[v] = -1;
	}
	cr_assert_eq(sb_bgl_po_sequences(&g, train, g.n, 1, &r, seq, &err), 0, "%s", err.msg);
	dist[seq[0]] = 0;
	q[tail++] = seq[0];
	while (head < tail)
		for (v = q[head++], e = g.off[v]; e < g.off[v + 1]; e++)
			if (dist[g.adj[e]] < 0) {
				dist[g.adj[e]] = dist[v] + 1;
				q[tail++] = g.adj[e];
			}
	cr_assert_eq(tail, g.n, "SBM not connected: pick another seed");
	for (v = 1; v < g.n; v++)
		cr_assert_geq(dist[seq[v]], dist[seq[v - 1]], "position %d", v);
	free(train);
	free(seq);
	free(dist);
	free(q);
	sb_cache_graph_release(&g);
}

Test(cache_po, seeded)
{
	struct sb_cache_graph g;
	struct sb_err err;
	int32_t N, *train, *a, *b;
	struct sb_rng r1 = sb_rng_stream(1, 0, 0, 0), r2 = r1, r3 = sb_rng_stream(2, 0, 0, 0);
	cr_assert_eq(sb_cache_gen_sbm(&g, 2000, 16, 10, 0.1, 8, &err), 0, "%s", err.msg);
	train = random_train(g.n, 0.1, 3, &N);
	a = malloc(sizeof *a * (size_t)N);
	b = malloc(sizeof *b * (size_t)N);
	cr_assert_eq(sb_bgl_po(&g, train, N, 4, &r1, a, &err), 0);
	cr_assert_eq(sb_bgl_po(&g, train, N, 4, &r2, b, &err), 0);
	cr_assert_eq(memcmp(a, b, sizeof *a * (size_t)N), 0);
	cr_assert_eq(sb_bgl_po(&g, train, N, 4, &r3, b, &err), 0);
	cr_assert_neq(memcmp(a, b, sizeof *a * (size_t)N), 0, "other seed, same roots");
	free(train);
	free(a);
	free(b);
	sb_cache_graph_release(&g);
}

/* PO-K as the sampler's order: the trace builder checks every epoch's
 * order is a permutation of the training set, so a build is the test. */
Test(cache_po, drives_the_sampler)
{
	struct sb_cache_graph g;
	struct sb_err err;
	struct sb_cache_setup s;
	struct sb_cache_trace t;
	struct sb_opts o;
	const struct sb_cache_order *po = sb_cache_order_find("po");
	cr_assert_not_null(po);
	cr_assert_eq(sb_cache_gen_sbm(&g, 3000, 24, 10, 0.1, 4, &err), 0, "%s", err.msg);
	memset(&s, 0, sizeof s);
	s.g = &g;
	s.P = 2;
	s.k = 2;
	s.capacity = 100;
	cr_assert_eq(sb_cache_fanouts_parse("5,10", &s.smp, &err), 0);
	s.smp.batch = 16;
	s.train = sb_cache_train_uniform(&g, 0.08, 1, &s.ntrain);
	s.epochs = 2;
	s.seed = 3;
	s.order = po;
	sb_opts_defaults(&o, po->params);
	cr_assert_eq(sb_opts_set(&o, po->params, "k=8", "test", &err), 0, "%s", err.msg);
	s.order_opts = &o;
	cr_assert_eq(sb_cache_setup_check(&s, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_cache_trace_build(&s, 0, 2, &t, &err), 0, "%s", err.msg);
	cr_assert_gt(t.nreq, 0);
	sb_cache_trace_release(&t);
	sb_free((void *)s.train);
	sb_cache_graph_release(&g);
}
