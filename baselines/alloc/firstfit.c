/*
 * firstfit.c - fixed worker counts, first fit: jobs in arrival order, each
 * with the workers it requested (from the trace, or 4) placed one by one on
 * a server it already uses or the first with room; all or nothing, a job
 * that does not fit is skipped. Also the Fixed-(w, p) comparator of
 * smd.md §4 (PS jobs get a PS per worker). Ours [O], gadget.md §4.
 */
#include "alloc/alloc.h"

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	int i;
	for (i = 0; i < v->nactive; i++)
		sb_alloc_place_k(pl, v->active[i], v->in->job[v->active[i]].req_workers,
				 SB_ALLOC_PACK, rng);
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_firstfit = {
	.name = "firstfit",
	.cite = "first fit with the requested worker count (gadget.md §4, smd.md §4 Fixed-(w,p))",
	.desc = "arrival order, requested workers, first servers with room, all or nothing",
	.provenance = "ours",
	.allocate = allocate,
};
