/*
 * gadget-r.c - GADGET-R: per-slot greedy ring embedding with look-ahead
 * (gadget_engine.c), reconstructed [R] from gadget.md §3.
 * M. Yu, Y. Tian, B. Ji, C. Wu, H. Rajan, J. Liu, "GADGET: Online Resource
 * Optimization for Scheduling Ring-All-Reduce Learning Jobs", INFOCOM 2022.
 *
 * Family: alloc (core/alloc/).
 */
#include "gadget.h"

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	sb_gadget_greedy(v, pl, rng, 0);
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_gadget_r = {
	.name = "gadget-r",
	.cite = "Yu, Tian, Ji, Wu, Rajan, Liu, GADGET: Online Resource Optimization for Scheduling Ring-All-Reduce Learning Jobs, INFOCOM 2022",
	.desc = "per-slot greedy on average utility gain per GPU with ring embedding (look-ahead)",
	.provenance = "reconstructed",
	.allocate = allocate,
};
