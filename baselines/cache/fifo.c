/*
 * fifo.c - jobs in the order they are listed (index order): the simplest
 * comparator of the cache family. Ours.
 */
#include "cache/cache.h"

static int order(const struct sb_cache_inst *in, const struct sb_opts *o, struct sb_rng *rng,
		 int *out, struct sb_err *err)
{
	int j;
	for (j = 0; j < in->n; j++)
		out[j] = j;
	return 0;
}

const struct sb_cache_policy sb_cache_policy_fifo = {
	.name = "fifo",
	.cite = "first in, first out",
	.desc = "jobs in index order",
	.provenance = "ours",
	.order = order,
};
