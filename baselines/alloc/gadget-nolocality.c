/*
 * gadget-nolocality.c - GADGET-R without embedding: the same greedy with
 * every rate taken across servers (B_out) and workers dealt to the least
 * used server, to isolate the value of ring embedding. Ours [O],
 * gadget.md §4 (ablation of the reconstructed GADGET-R).
 */
#include "algorithms/gadget/gadget.h"

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	sb_gadget_greedy(v, pl, rng, 1);
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_gadget_nolocality = {
	.name = "gadget-nolocality",
	.cite = "ablation of GADGET-R (gadget.md §4)",
	.desc = "GADGET-R's greedy with every ring assumed spread, no embedding",
	.provenance = "ours",
	.allocate = allocate,
};
