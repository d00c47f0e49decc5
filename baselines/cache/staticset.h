/*
 * staticset.h - the content of a static cache (filled once, never
 * evicted), shared by the static policies of the cache family: the top-C
 * local ids of a shard by a key (degree, pre-sampled count), a bit per
 * node for the lookups. Ours.
 */
#ifndef SB_BASELINES_CACHE_STATICSET_H
#define SB_BASELINES_CACHE_STATICSET_H

#include "cache/cache.h"

/* Fill *ctx with the top-C of sh by key[local id] (owned key array, freed
 * here). Always 0. */
int sb_cache_static_init(const struct sb_cache_shard *sh, uint64_t *key, void **ctx);
/* The same with the key of each node its degree (the static-degree
 * policies' init hook). */
int sb_cache_static_by_degree(const struct sb_cache_shard *sh, const struct sb_opts *o, void **ctx,
			      struct sb_err *err);
int64_t sb_cache_static_contents(void *ctx, int32_t *out);
int sb_cache_static_lookup(void *ctx, int32_t v);
void sb_cache_static_release(void *ctx);

#endif
