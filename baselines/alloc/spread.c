/*
 * spread.c - always distributed: jobs in arrival order, workers (with their
 * PSs) dealt one at a time to the least used server, so a job's layout
 * spans servers whenever it has more than one worker. Ours [O],
 * pslocality.md §4 (locality-only heuristic).
 */
#include "alloc/alloc.h"

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	int i;
	for (i = 0; i < v->nactive; i++) {
		int j = v->active[i];
		while (pl->w[j] < v->in->job[j].max_workers &&
		       sb_alloc_add_unit(pl, j, SB_ALLOC_LEAST, rng) >= 0)
			;
	}
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_spread = {
	.name = "spread",
	.cite = "locality-only heuristic (pslocality.md §4)",
	.desc = "arrival order, each worker on the least used server",
	.provenance = "ours",
	.allocate = allocate,
};
