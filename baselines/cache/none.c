/*
 * none.c - no feature cache: every input row is gathered from host memory
 * (DGL 0.5 pulls from its KVStore; spec bgl.md §8). The floor of every
 * hit-ratio figure. Ours.
 */
#include "cache/cache.h"

static int init(const struct sb_cache_shard *sh, const struct sb_opts *o, void **ctx,
		struct sb_err *err)
{
	*ctx = NULL;
	return 0;
}

static int lookup(void *ctx, int32_t v)
{
	return 0;
}

const struct sb_cache_policy sb_cache_policy_none = {
	.name = "none",
	.cite = "no cache (DGL 0.5 KVStore pulls)",
	.desc = "no GPU feature cache: every request is a miss",
	.provenance = "ours",
	.replicated = 1,
	.meta_ns = 0,
	.init = init,
	.lookup = lookup,
};
