/*
 * presampled.c - a static cache filled with the C nodes each GPU's shard
 * served most often in one separate pre-sampling epoch (its own seeded
 * order and batches), never evicted. Top-C by count is the optimal static
 * content for the trace it was counted on (spec bgl.md §8, §10.2 [O]);
 * on the measured epochs it is an estimate of that optimum. Ours.
 */
#include "staticset.h"

static int init(const struct sb_cache_shard *sh, const struct sb_opts *o, void **ctx,
		struct sb_err *err)
{
	uint64_t *key = SB_NEW(uint64_t, sh->nloc);
	int64_t i;
	for (i = 0; i < sh->nloc; i++)
		key[i] = sh->presample[i];
	return sb_cache_static_init(sh, key, ctx);
}

const struct sb_cache_policy sb_cache_policy_presampled = {
	.name = "presampled",
	.cite = "pre-sampled static cache (spec bgl.md §8)",
	.desc = "static top-C by access count in a pre-sampling epoch, sharded",
	.provenance = "ours",
	.replicated = 0,
	.presample = 1,
	.meta_ns = 2,
	.init = init,
	.contents = sb_cache_static_contents,
	.lookup = sb_cache_static_lookup,
	.release = sb_cache_static_release,
};
