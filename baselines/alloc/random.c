/*
 * random.c - fixed worker counts on random servers: jobs in arrival order,
 * each with its requested workers, every worker on a server drawn
 * uniformly among those with room; all or nothing. Ours [O], gadget.md §4
 * and pslocality.md §4.
 */
#include "alloc/alloc.h"

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	int i;
	for (i = 0; i < v->nactive; i++)
		sb_alloc_place_k(pl, v->active[i], v->in->job[v->active[i]].req_workers,
				 SB_ALLOC_RANDOM, rng);
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_random = {
	.name = "random",
	.cite = "random placement with the requested worker count (gadget.md §4)",
	.desc = "arrival order, requested workers, each on a random server with room",
	.provenance = "ours",
	.allocate = allocate,
};
