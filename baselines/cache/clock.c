/*
 * clock.c - CLOCK (second chance; Corbato 1968), sharded like BGL's engine
 * and admitting every miss: a ring of slots with a reference bit set by a
 * hit; on a full cache the hand clears set bits until it finds a clear
 * one and evicts that slot's node. A new node enters with its bit clear,
 * so only a hit earns a second chance (with the bit set on entry, every
 * sweep over a cache filled by misses would clear them all and CLOCK would
 * be FIFO with extra steps). Spec bgl.md §9.4 lists it as optional. Ours.
 */
#include "cache/cache.h"

#include <string.h>

struct clk {
	int32_t *slot;     /* slot of each local id, -1 if absent */
	int32_t *node;     /* node in each slot */
	unsigned char *ref;
	int64_t cap, n, hand, ops;
};

static int init(const struct sb_cache_shard *sh, const struct sb_opts *o, void **ctx,
		struct sb_err *err)
{
	struct clk *c = SB_NEW(struct clk, 1);
	c->slot = SB_NEW(int32_t, sh->nloc);
	memset(c->slot, 0xff, (size_t)sh->nloc * sizeof *c->slot);
	c->node = SB_NEW(int32_t, sh->capacity);
	c->ref = SB_NEW(unsigned char, sh->capacity);
	c->cap = sh->capacity;
	*ctx = c;
	return 0;
}

static int lookup(void *ctx, int32_t v)
{
	struct clk *c = ctx;
	int32_t s = c->slot[v];
	if (s < 0)
		return 0;
	c->ref[s] = 1;
	c->ops++;
	return 1;
}

static int32_t insert(void *ctx, int32_t v)
{
	struct clk *c = ctx;
	int32_t victim = SB_CACHE_NO_VICTIM;
	int64_t s;
	if (c->n < c->cap) {
		s = c->n++;
	} else {
		while (c->ref[c->hand]) {
			c->ref[c->hand] = 0;
			c->hand = c->hand + 1 == c->cap ? 0 : c->hand + 1;
			c->ops++;
		}
		s = c->hand;
		victim = c->node[s];
		c->slot[victim] = -1;
		c->hand = c->hand + 1 == c->cap ? 0 : c->hand + 1;
		c->ops++;
	}
	c->node[s] = v;
	c->ref[s] = 0;
	c->slot[v] = (int32_t)s;
	c->ops++;
	return victim;
}

static int64_t meta_ops(void *ctx)
{
	return ((const struct clk *)ctx)->ops;
}

static void release(void *ctx)
{
	struct clk *c = ctx;
	sb_free(c->slot);
	sb_free(c->node);
	sb_free(c->ref);
	sb_free(c);
}

const struct sb_cache_policy sb_cache_policy_clock = {
	.name = "clock",
	.cite = "F. J. Corbato, A Paging Experiment with the Multics System, MIT Project MAC, 1968",
	.desc = "CLOCK (second chance), admit every miss, sharded v mod kg",
	.provenance = "ours",
	.replicated = 0,
	.meta_ns = 10,
	.init = init,
	.lookup = lookup,
	.insert = insert,
	.meta_ops = meta_ops,
	.release = release,
};
