/*
 * lfu.c - least frequently used, sharded like BGL's engine and admitting
 * every miss: the dynamic baseline of spec bgl.md §8 (BGL's engine keeps
 * an LFU alternative as commented-out code, lfu.h [V, code]; the details
 * here are ours). In-cache frequency: a node enters with count 1, each hit
 * adds 1, the count is forgotten on eviction. Victim: the smallest count,
 * ties to the least recently used (a global request tick), from an
 * indexed binary min-heap updated on every hit (the metadata cost BGL's
 * FIFO avoids).
 */
#include "cache/cache.h"

struct lfu {
	uint64_t *key;   /* heap: count << 40 | last tick */
	int32_t *node;   /* heap: local id */
	int32_t *pos;    /* heap position of each local id, -1 if absent */
	int64_t cap, n, ops;
	uint64_t tick;
};

static void swap(struct lfu *h, int64_t a, int64_t b)
{
	uint64_t k = h->key[a];
	int32_t v = h->node[a];
	h->key[a] = h->key[b];
	h->node[a] = h->node[b];
	h->key[b] = k;
	h->node[b] = v;
	h->pos[h->node[a]] = (int32_t)a;
	h->pos[h->node[b]] = (int32_t)b;
	h->ops++;
}

static void down(struct lfu *h, int64_t i)
{
	for (;;) {
		int64_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->n && h->key[l] < h->key[m])
			m = l;
		if (r < h->n && h->key[r] < h->key[m])
			m = r;
		if (m == i)
			return;
		swap(h, i, m);
		i = m;
	}
}

static void up(struct lfu *h, int64_t i)
{
	while (i > 0 && h->key[(i - 1) / 2] > h->key[i]) {
		swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static int init(const struct sb_cache_shard *sh, const struct sb_opts *o, void **ctx,
		struct sb_err *err)
{
	struct lfu *h = SB_NEW(struct lfu, 1);
	int64_t i;
	h->key = SB_NEW(uint64_t, sh->capacity);
	h->node = SB_NEW(int32_t, sh->capacity);
	h->pos = SB_NEW(int32_t, sh->nloc);
	for (i = 0; i < sh->nloc; i++)
		h->pos[i] = -1;
	h->cap = sh->capacity;
	*ctx = h;
	return 0;
}

#define TICK_BITS 40

static int lookup(void *ctx, int32_t v)
{
	struct lfu *h = ctx;
	int64_t p = h->pos[v];
	h->tick++;
	if (p < 0)
		return 0;
	h->key[p] = ((h->key[p] >> TICK_BITS) + 1) << TICK_BITS | h->tick;
	h->ops++;
	down(h, p);
	return 1;
}

static int32_t insert(void *ctx, int32_t v)
{
	struct lfu *h = ctx;
	int32_t victim = SB_CACHE_NO_VICTIM;
	if (h->n == h->cap) {
		victim = h->node[0];
		h->pos[victim] = -1;
		h->n--;
		if (h->n > 0) {
			h->key[0] = h->key[h->n];
			h->node[0] = h->node[h->n];
			h->pos[h->node[0]] = 0;
			down(h, 0);
		}
		h->ops++;
	}
	h->key[h->n] = (uint64_t)1 << TICK_BITS | h->tick;
	h->node[h->n] = v;
	h->pos[v] = (int32_t)h->n;
	up(h, h->n++);
	h->ops++;
	return victim;
}

static int64_t meta_ops(void *ctx)
{
	return ((const struct lfu *)ctx)->ops;
}

static void release(void *ctx)
{
	struct lfu *h = ctx;
	sb_free(h->key);
	sb_free(h->node);
	sb_free(h->pos);
	sb_free(h);
}

const struct sb_cache_policy sb_cache_policy_lfu = {
	.name = "lfu",
	.cite = "least frequently used (BGL keeps it as a commented-out alternative, lfu.h)",
	.desc = "in-cache LFU (ties LRU), admit every miss, sharded v mod kg (indexed heap)",
	.provenance = "ours",
	.replicated = 0,
	.meta_ns = 80,
	.init = init,
	.lookup = lookup,
	.insert = insert,
	.meta_ops = meta_ops,
	.release = release,
};
