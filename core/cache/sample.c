/*
 * sample.c - training sets, fan-outs, the node-wise neighbour sampler and
 * the feature-request traces of the cache family (cache.h).
 *
 * The sampler draws, for every frontier node, fanout[l] neighbours
 * uniformly with replacement [V, code: BGL's GraphSAGE scripts use DGL 0.5's
 * sample_neighbors(replace=True)]; the next frontier is every distinct node
 * reached so far, as DGL's to_block makes the destination nodes the first
 * sources [V, code: DGL 0.5 NeighborSampler]. Distinct inputs are found
 * with a bitmap (1 bit per node, cleared from the output list afterwards)
 * rather than a hash set: |V| / 8 bytes stay in the CPU cache where a
 * stamp array of |V| words would not (spec §9.3 asks for an array, not a
 * hash map). Batches, machines and GPUs as cache.h says [O].
 */
#include "cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int32_t *sb_cache_train_uniform(const struct sb_cache_graph *g, double frac, uint64_t seed,
				int32_t *ntrain)
{
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_INSTANCE ^ sb_hash_str("cache-train"));
	int32_t *t = SB_NEW(int32_t, g->n), v, n = 0;
	for (v = 0; v < g->n; v++)
		if (sb_rng_uniform(&r) < frac)
			t[n++] = v;
	if (n == 0)
		t[n++] = (int32_t)sb_rng_below(&r, (uint32_t)g->n);
	*ntrain = n;
	return t;
}

int sb_cache_fanouts_parse(const char *text, struct sb_cache_sampler *s, struct sb_err *err)
{
	const char *p = text;
	int n = 0;
	for (;;) {
		char *end;
		long f = strtol(p, &end, 10);
		if (end == p || (*end && *end != ','))
			return sb_err_set(err, SB_EXIT_INPUT, "fan-outs '%s': fan-out %d is not an "
					  "integer", text, n + 1);
		if (f <= 0 || f > 1000)
			return sb_err_set(err, SB_EXIT_INPUT, "fan-outs '%s': fan-out %d is %ld: "
					  "expected 1..1000", text, n + 1, f);
		if (n == SB_CACHE_MAX_LAYERS)
			return sb_err_set(err, SB_EXIT_INPUT, "fan-outs '%s': more than %d layers",
					  text, SB_CACHE_MAX_LAYERS);
		s->fanout[n++] = (int)f;
		if (!*end)
			break;
		p = end + 1;
	}
	s->nlayers = n;
	return 0;
}

void sb_cache_fanouts_format(const struct sb_cache_sampler *s, char *buf, size_t len)
{
	size_t w = 0;
	int l;
	buf[0] = '\0';
	for (l = 0; l < s->nlayers && w < len; l++)
		w += (size_t)snprintf(buf + w, len - w, "%s%d", l ? "," : "", s->fanout[l]);
}

void sb_cache_trace_release(struct sb_cache_trace *t)
{
	sb_free(t->req);
	sb_free(t->b);
	memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------------ */
/* One batch                                                           */
/* ------------------------------------------------------------------ */

/* Lemire's multiply-shift draw in [0, d): unbiased, and without the two
 * divisions of a modulo draw on the sampler's hot path */
static inline uint32_t draw_below(struct sb_rng *r, uint32_t d)
{
	uint64_t m = (uint64_t)sb_rng_u32(r) * d;
	if ((uint32_t)m < d) {
		uint32_t t = (uint32_t)(-d) % d;
		while ((uint32_t)m < t)
			m = (uint64_t)sb_rng_u32(r) * d;
	}
	return (uint32_t)(m >> 32);
}

#define BIT(s, v) ((s)[(uint32_t)(v) >> 6] >> ((uint32_t)(v) & 63) & 1)
#define SETBIT(s, v) ((s)[(uint32_t)(v) >> 6] |= (uint64_t)1 << ((uint32_t)(v) & 63))

/* A two-stage software pipeline over the frontier, so that one core
 * keeps many independent DRAM misses in flight instead of waiting on one
 * row at a time: the row offsets of node j + AHEAD_OFF are prefetched;
 * node j + AHEAD_DRAW has its offsets read, its fan-out positions drawn
 * and the adjacency lines they fall on prefetched (each line once when
 * consecutive draws share it); node j is then read from the cache. The
 * RNG is still consumed node by node in frontier order, so the samples
 * are the same bit for bit as drawing at the time of reading (a test
 * compares with a plain in-order sampler). */
#define RING 16                 /* nodes in flight, a power of two */
#define AHEAD_DRAW 10           /* nodes drawn ahead of the one read */
#define AHEAD_OFF 28            /* nodes whose offsets load ahead */
#define MAX_FAN 1000            /* sb_cache_fanouts_parse's limit */

struct pipe {
	int64_t lo[RING];       /* row start */
	int n[RING];            /* draws (0 for an isolated node) */
	uint32_t r[RING * MAX_FAN];     /* positions in the row, fan per slot */
};

static inline void draw_node(const struct sb_cache_graph *g, int32_t x, int fan,
			     struct sb_rng *rng, struct pipe *q, int slot)
{
	int64_t lo = g->off[x], line, last = -1;
	uint32_t d = (uint32_t)(g->off[x + 1] - lo), *r = q->r + slot * fan;
	int f;
	q->lo[slot] = lo;
	q->n[slot] = d ? fan : 0;
	for (f = 0; f < q->n[slot]; f++) {
		r[f] = draw_below(rng, d);
		/* 16 entries of 4 bytes per 64-byte line */
		line = (lo + r[f]) >> 4;
		if (line != last)
			__builtin_prefetch(&g->adj[lo + r[f]]);
		last = line;
	}
}

/* P > 1: count expansions of nodes on other machines (part, or v mod P
 * when part is NULL) */
static int64_t sample(const struct sb_cache_graph *g, const struct sb_cache_sampler *s,
		      const int32_t *part, int P, int32_t machine, const int32_t *seeds,
		      int32_t nseeds, struct sb_rng *rng, uint64_t *seen, int32_t *out,
		      struct sb_cache_batch *b)
{
	static _Thread_local struct pipe q;
	int64_t len = 0, j;
	int32_t i;
	int l;

	b->nseeds = nseeds;
	b->sampled_edges = b->remote_sample_nodes = 0;
	b->remote_sample_msgs = 0;
	for (i = 0; i < nseeds; i++)
		if (!BIT(seen, seeds[i])) {
			SETBIT(seen, seeds[i]);
			out[len++] = seeds[i];
		}
	for (l = 0; l < s->nlayers; l++) {
		int64_t fr = len, edges = 0;
		uint64_t remote = 0;
		int f, fan = s->fanout[l];
		for (j = 0; j < fr && j < AHEAD_OFF; j++)
			__builtin_prefetch(&g->off[out[j]]);
		for (j = 0; j < fr && j < AHEAD_DRAW; j++)
			draw_node(g, out[j], fan, rng, &q, (int)(j & (RING - 1)));
		for (j = 0; j < fr; j++) {
			int32_t x = out[j];
			int slot = (int)(j & (RING - 1)), n = q.n[slot];
			const uint32_t *r = q.r + slot * fan;
			const int32_t *row = g->adj + q.lo[slot];
			if (j + AHEAD_OFF < fr)
				__builtin_prefetch(&g->off[out[j + AHEAD_OFF]]);
			if (j + AHEAD_DRAW < fr)
				draw_node(g, out[j + AHEAD_DRAW], fan, rng, &q,
					  (int)((j + AHEAD_DRAW) & (RING - 1)));
			if (P > 1) {
				int32_t mx = part ? part[x] : x % P;
				if (mx != machine) {
					remote |= (uint64_t)1 << mx;
					b->remote_sample_nodes++;
				}
			}
			/* branch-free: whether a neighbour is new is a coin
			 * toss the branch predictor cannot learn. Every draw
			 * is written at out[len] and kept only when new, so
			 * there must be room for n more (out holds |V|). */
			if (len + n <= g->n)
				for (f = 0; f < n; f++) {
					uint32_t y = (uint32_t)row[r[f]];
					uint64_t w = seen[y >> 6], bit = w >> (y & 63) & 1;
					seen[y >> 6] = w | (uint64_t)1 << (y & 63);
					out[len] = (int32_t)y;
					len += (int64_t)(bit ^ 1);
				}
			else
				for (f = 0; f < n; f++) {
					int32_t y = row[r[f]];
					if (!BIT(seen, y)) {
						SETBIT(seen, y);
						out[len++] = y;
					}
				}
			edges += n;
		}
		b->hop_dst[l] = (int32_t)fr;
		b->hop_edges[l] = edges;
		b->sampled_edges += edges;
		b->remote_sample_msgs += __builtin_popcountll(remote);
	}
	for (l = s->nlayers; l < SB_CACHE_MAX_LAYERS; l++) {
		b->hop_dst[l] = 0;
		b->hop_edges[l] = 0;
	}
	for (j = 0; j < len; j++)
		seen[(uint32_t)out[j] >> 6] = 0;
	return len;
}

int64_t sb_cache_sample_batch(const struct sb_cache_graph *g, const struct sb_cache_sampler *s,
			      const int32_t *seeds, int32_t nseeds, struct sb_rng *rng,
			      uint64_t *seen, int32_t *out, struct sb_cache_batch *b)
{
	return sample(g, s, NULL, 1, 0, seeds, nseeds, rng, seen, out, b);
}

/* ------------------------------------------------------------------ */
/* Setups and traces                                                   */
/* ------------------------------------------------------------------ */

int sb_cache_setup_check(const struct sb_cache_setup *s, struct sb_err *err)
{
	int32_t i;
	const struct sb_cache_graph *g = s->g;
	if (s->P < 1 || s->P > SB_CACHE_MAX_MACHINES)
		return sb_err_set(err, SB_EXIT_INPUT, "machines P = %d: expected 1..%d", s->P,
				  SB_CACHE_MAX_MACHINES);
	if (s->k < 1 || s->k > SB_CACHE_MAX_GPUS)
		return sb_err_set(err, SB_EXIT_INPUT, "GPUs per machine k = %d: expected 1..%d",
				  s->k, SB_CACHE_MAX_GPUS);
	if (s->capacity < 1 || s->capacity > g->n)
		return sb_err_set(err, SB_EXIT_INPUT, "cache of %lld nodes per GPU: expected "
				  "1..%d (the graph has %d nodes; a larger cache holds the whole "
				  "graph)", (long long)s->capacity, g->n, g->n);
	if (s->smp.nlayers < 1 || s->smp.nlayers > SB_CACHE_MAX_LAYERS || s->smp.batch < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "sampler: %d layers, batch %d: expected "
				  "at least one of each", s->smp.nlayers, s->smp.batch);
	for (i = 0; i < s->smp.nlayers; i++)
		if (s->smp.fanout[i] < 1 || s->smp.fanout[i] > 1000)
			return sb_err_set(err, SB_EXIT_INPUT, "fan-out %d of layer %d: expected 1..1000",
					  s->smp.fanout[i], i + 1);
	if (s->epochs < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "epochs %d: expected >= 1", s->epochs);
	if (s->ntrain < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "no training node");
	for (i = 0; i < s->ntrain; i++)
		if (s->train[i] < 0 || s->train[i] >= g->n)
			return sb_err_set(err, SB_EXIT_INPUT, "training node %d out of 0..%d",
					  s->train[i], g->n - 1);
	if (s->part)
		for (i = 0; i < g->n; i++)
			if (s->part[i] < 0 || s->part[i] >= s->P)
				return sb_err_set(err, SB_EXIT_INPUT, "node %d on machine %d of %d",
						  i, s->part[i], s->P);
	return 0;
}

static int machine_of(const struct sb_cache_setup *s, int32_t v)
{
	return s->part ? s->part[v] : (int)(v % s->P);
}

int sb_cache_trace_build(const struct sb_cache_setup *s, int first_epoch, int epochs,
			 struct sb_cache_trace *t, struct sb_err *err)
{
	const struct sb_cache_graph *g = s->g;
	int32_t n = g->n, i, P = s->P, k = s->k, B = s->smp.batch;
	size_t words = ((size_t)n + 63) / 64;
	uint64_t *seen = SB_NEW(uint64_t, words), *istrain = SB_NEW(uint64_t, words);
	int32_t *ord = SB_NEW(int32_t, s->ntrain), *seq = SB_NEW(int32_t, s->ntrain);
	int64_t *start = SB_NEW(int64_t, P + 1), *fill = SB_NEW(int64_t, P);
	size_t rcap = 0, bcap = 0;
	int e, rc = 0;

	memset(t, 0, sizeof *t);
	for (i = 0; i < s->ntrain; i++)
		SETBIT(istrain, s->train[i]);
	for (e = 0; e < epochs && !rc; e++) {
		int ep = first_epoch + e;
		struct sb_rng orng = sb_rng_stream(s->seed, (uint64_t)(int64_t)ep, 0,
						   SB_RNG_POLICY ^ sb_hash_str(s->order->name));
		int32_t maxnb = 0, r;
		int64_t nbe = 0;        /* batches per epoch, the same every epoch */
		int p;
		if ((rc = s->order->order(g, s->train, s->ntrain, s->order_opts, &orng, ord, err)))
			break;
		/* the order must be a permutation of the training set */
		for (i = 0; i < s->ntrain && !rc; i++) {
			int32_t v = ord[i];
			if (v < 0 || v >= n || !BIT(istrain, v) || BIT(seen, v))
				rc = sb_err_set(err, SB_EXIT_RUN, "order %s, epoch %d: position %d "
						"(node %d) is %s", s->order->name, ep, i, v,
						v < 0 || v >= n ? "out of range" :
						!BIT(istrain, v) ? "not a training node" : "repeated");
			else
				SETBIT(seen, v);
		}
		memset(seen, 0, words * sizeof *seen);
		if (rc)
			break;
		/* each machine's training nodes, in the order's relative order */
		memset(start, 0, (size_t)(P + 1) * sizeof *start);
		for (i = 0; i < s->ntrain; i++)
			start[machine_of(s, ord[i]) + 1]++;
		for (p = 0; p < P; p++) {
			start[p + 1] += start[p];
			fill[p] = start[p];
		}
		for (i = 0; i < s->ntrain; i++)
			seq[fill[machine_of(s, ord[i])]++] = ord[i];
		for (p = 0; p < P; p++) {
			int32_t nb = (int32_t)((start[p + 1] - start[p] + B - 1) / B);
			if (nb > maxnb)
				maxnb = nb;
			nbe += nb;
		}
		for (r = 0; r * k < maxnb; r++)
			for (p = 0; p < P; p++) {
				int w;
				for (w = 0; w < k; w++) {
					int32_t j = r * k + w;
					int64_t lo = start[p] + (int64_t)j * B, cnt;
					struct sb_rng brng;
					struct sb_cache_batch *b;
					if (lo >= start[p + 1])
						break;
					cnt = sb_min((double)B, (double)(start[p + 1] - lo));
					brng = sb_rng_stream(s->seed, (uint64_t)(int64_t)ep,
							     (uint64_t)p << 32 | (uint32_t)j,
							     SB_RNG_INSTANCE ^ sb_hash_str("cache-sample"));
					if ((size_t)t->nbatch + 1 > bcap) {
						bcap = bcap ? 2 * bcap : 256;
						t->b = sb_xrealloc(t->b, bcap * sizeof *t->b);
					}
					b = &t->b[t->nbatch++];
					b->epoch = ep;
					b->machine = p;
					b->gpu = w;
					/* sampled straight into the trace: room for a
					 * batch of every node. Grown once to the
					 * requests of the batches so far, scaled to
					 * every batch of the run, plus 10% and a
					 * batch: growing by doubling copied the trace
					 * and faulted in its pages several times */
					if ((size_t)t->nreq + (size_t)n > rcap) {
						double want = sb_max(2.0 * (double)rcap,
								     (double)t->nreq + n);
						if (t->nbatch > 1)
							want = sb_max(want, 1.1 * (double)t->nreq /
								      (t->nbatch - 1) * nbe * epochs +
								      n);
						rcap = (size_t)want;
						t->req = sb_xrealloc(t->req, rcap * sizeof *t->req);
						sb_mem_huge(t->req, rcap * sizeof *t->req);
					}
					b->count = sample(g, &s->smp, s->part, P, p, seq + lo,
							  (int32_t)cnt, &brng, seen, t->req + t->nreq, b);
					b->first = t->nreq;
					t->nreq += b->count;
					t->sampled_edges += b->sampled_edges;
				}
			}
	}
	if (rc)
		sb_cache_trace_release(t);
	else if (rcap > (size_t)t->nreq && t->nreq > 0)
		t->req = sb_xrealloc(t->req, (size_t)t->nreq * sizeof *t->req);
	sb_free(seen);
	sb_free(istrain);
	sb_free(ord);
	sb_free(seq);
	sb_free(start);
	sb_free(fill);
	return rc;
}
