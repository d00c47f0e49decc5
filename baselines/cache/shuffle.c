/*
 * shuffle.c - the training-node order of DGL, Euler and PyG: a uniform
 * random permutation per epoch (seeded Fisher-Yates), the baseline of
 * BGL's proximity-aware ordering (spec bgl.md §8, §9.2 [O]). Ours.
 */
#include "cache/cache.h"

#include <string.h>

static int order(const struct sb_cache_graph *g, const int32_t *train, int32_t ntrain,
		 const struct sb_opts *o, struct sb_rng *rng, int32_t *out, struct sb_err *err)
{
	int32_t i;
	memcpy(out, train, (size_t)ntrain * sizeof *out);
	for (i = ntrain - 1; i > 0; i--) {
		int32_t j = (int32_t)sb_rng_below(rng, (uint32_t)i + 1), t = out[i];
		out[i] = out[j];
		out[j] = t;
	}
	return 0;
}

const struct sb_cache_order sb_cache_order_shuffle = {
	.name = "shuffle",
	.cite = "uniform shuffle per epoch (DGL, Euler, PyG loaders)",
	.desc = "seeded Fisher-Yates permutation of the training nodes, new each epoch",
	.provenance = "ours",
	.order = order,
};
