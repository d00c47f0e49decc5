/*
 * lru.c - least recently used, sharded like BGL's engine and admitting
 * every miss: the dynamic baseline of spec bgl.md §8 (BGL's engine keeps
 * an LRU alternative as commented-out code, lru.h [V, code]; the details
 * here are ours). An intrusive doubly linked list over the shard's local
 * ids (spec §9.4): a hit moves the node to the front, a full cache evicts
 * the tail. Hits within a batch refresh recency in request order; misses
 * enter after the batch's lookups.
 */
#include "cache/cache.h"

struct lru {
	int32_t *prev, *next;   /* nloc + 1 entries: the last is the list head */
	uint64_t *in;
	int32_t head;
	int64_t cap, n, ops;
};

static int init(const struct sb_cache_shard *sh, const struct sb_opts *o, void **ctx,
		struct sb_err *err)
{
	struct lru *l = SB_NEW(struct lru, 1);
	l->prev = SB_NEW(int32_t, sh->nloc + 1);
	l->next = SB_NEW(int32_t, sh->nloc + 1);
	l->in = SB_NEW(uint64_t, (sh->nloc + 63) / 64);
	l->head = (int32_t)sh->nloc;
	l->prev[l->head] = l->next[l->head] = l->head;
	l->cap = sh->capacity;
	*ctx = l;
	return 0;
}

static void unlink_node(struct lru *l, int32_t v)
{
	l->next[l->prev[v]] = l->next[v];
	l->prev[l->next[v]] = l->prev[v];
}

static void push_front(struct lru *l, int32_t v)
{
	l->next[v] = l->next[l->head];
	l->prev[v] = l->head;
	l->prev[l->next[l->head]] = v;
	l->next[l->head] = v;
}

static int lookup(void *ctx, int32_t v)
{
	struct lru *l = ctx;
	if (!(l->in[v >> 6] >> (v & 63) & 1))
		return 0;
	unlink_node(l, v);
	push_front(l, v);
	l->ops++;
	return 1;
}

static int32_t insert(void *ctx, int32_t v)
{
	struct lru *l = ctx;
	int32_t victim = SB_CACHE_NO_VICTIM;
	if (l->n == l->cap) {
		victim = l->prev[l->head];
		unlink_node(l, victim);
		l->in[victim >> 6] &= ~((uint64_t)1 << (victim & 63));
		l->n--;
		l->ops++;
	}
	push_front(l, v);
	l->in[v >> 6] |= (uint64_t)1 << (v & 63);
	l->n++;
	l->ops++;
	return victim;
}

static int64_t meta_ops(void *ctx)
{
	return ((const struct lru *)ctx)->ops;
}

static void release(void *ctx)
{
	struct lru *l = ctx;
	sb_free(l->prev);
	sb_free(l->next);
	sb_free(l->in);
	sb_free(l);
}

const struct sb_cache_policy sb_cache_policy_lru = {
	.name = "lru",
	.cite = "least recently used (BGL keeps it as a commented-out alternative, lru.h)",
	.desc = "LRU, admit every miss, sharded v mod kg (linked list over node ids)",
	.provenance = "ours",
	.replicated = 0,
	.meta_ns = 30,
	.init = init,
	.lookup = lookup,
	.insert = insert,
	.meta_ops = meta_ops,
	.release = release,
};
