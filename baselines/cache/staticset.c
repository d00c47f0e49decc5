/*
 * staticset.c - static cache content (staticset.h). Ours.
 */
#include "staticset.h"

#include <string.h>

struct staticset {
	int64_t n;
	int32_t *list;
	uint64_t *bits;
};

int sb_cache_static_init(const struct sb_cache_shard *sh, uint64_t *key, void **ctx)
{
	struct staticset *s = SB_NEW(struct staticset, 1);
	int64_t i;
	s->list = SB_NEW(int32_t, sh->capacity);
	s->bits = SB_NEW(uint64_t, (sh->nloc + 63) / 64);
	s->n = sb_cache_top(key, sh->nloc, sh->capacity, s->list);
	for (i = 0; i < s->n; i++)
		s->bits[s->list[i] >> 6] |= (uint64_t)1 << (s->list[i] & 63);
	sb_free(key);
	*ctx = s;
	return 0;
}

int sb_cache_static_by_degree(const struct sb_cache_shard *sh, const struct sb_opts *o, void **ctx,
			      struct sb_err *err)
{
	uint64_t *key = SB_NEW(uint64_t, sh->nloc);
	int64_t i;
	for (i = 0; i < sh->nloc; i++)
		key[i] = (uint64_t)sb_cache_degree(sh->g, (int32_t)(i * sh->stride + sh->base));
	return sb_cache_static_init(sh, key, ctx);
}

int64_t sb_cache_static_contents(void *ctx, int32_t *out)
{
	struct staticset *s = ctx;
	memcpy(out, s->list, (size_t)s->n * sizeof *out);
	return s->n;
}

int sb_cache_static_lookup(void *ctx, int32_t v)
{
	const struct staticset *s = ctx;
	return (int)(s->bits[v >> 6] >> (v & 63) & 1);
}

void sb_cache_static_release(void *ctx)
{
	struct staticset *s = ctx;
	sb_free(s->list);
	sb_free(s->bits);
	sb_free(s);
}
