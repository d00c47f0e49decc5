/*
 * smd-oblivious.c - SMD deciding with the non-layered step time (compute,
 * then every layer's communication in sequence) while the simulator runs
 * the layered one: the layer-oblivious ablation of smd.md §4 [O].
 *
 * Family: alloc (core/alloc/).
 */
#include "smd_policy.h"

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	return sb_smd_allocate(v, pl, 0, 0, err);
}

const struct sb_alloc_policy sb_alloc_policy_smd_oblivious = {
	.name = "smd-oblivious",
	.cite = "ablation of SMD (smd.md §4): decisions from the non-layered step time",
	.desc = "SMD with the layer-oblivious step-time model",
	.provenance = "ours",
	.modes = 1u << SB_ALLOC_PS,
	.allocate = allocate,
};
