/*@next (printed by make new-baseline, not copied)
 * fill in its hooks, then 'make && bin/sb list cache' shows it;
 * 'bin/sb eval cache --rmat 14 --k 4 --policy @NAME@ --bound' tries it
 * against Belady's MIN, and 'make test' replays it through the checker
 * and against Belady on random setups.
 */
/*
 * @NAME@.c - <one line: what this cache policy does>.
 *
 * <Authors, "Title", Venue Year.>
 * <The policy in a few sentences. Say what is verified from a public
 *  source and what is your own choice.>
 *
 * Contract (core/cache/cache.h, struct sb_cache_policy): one instance per
 * GPU shard over local ids 0..nloc-1; lookup() says hit or miss, insert()
 * is called after the batch's lookups for each miss and names its victim.
 * The checker replays every event; the simulator owns the loop.
 */
#include "cache/cache.h"

struct state {
	int64_t cap;
};

static int init(const struct sb_cache_shard *sh, const struct sb_opts *o, void **ctx,
		struct sb_err *err)
{
	struct state *s = SB_NEW(struct state, 1);
	s->cap = sh->capacity;
	*ctx = s;
	return 0;
}

static int lookup(void *ctx, int32_t v)
{
	return 0;
}

static int32_t insert(void *ctx, int32_t v)
{
	return SB_CACHE_BYPASS;
}

static void release(void *ctx)
{
	sb_free(ctx);
}

const struct sb_cache_policy sb_cache_policy_@IDENT@ = {
	.name = "@NAME@",
	.cite = "<Authors, Title, Venue Year>",
	.desc = "<one line>",
	.provenance = "ours",
	.replicated = 0,
	.meta_ns = 5,
	.init = init,
	.lookup = lookup,
	.insert = insert,
	.release = release,
};
