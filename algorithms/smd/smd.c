/*
 * smd.c - SMD: per slot, the round's multiple-choice multi-dimensional
 * knapsack over (workers, PSs) of every queued PS job, solved by the
 * Lagrangian inner allocation and greedy outer selection of smd_round.c,
 * with the layered (wait-free back-propagation) step-time model.
 * Reconstructed [R] from smd.md §3. M. Yu, C. Wu, B. Ji, J. Liu, "A
 * Sum-of-Ratios Multi-Dimensional-Knapsack Decomposition for DNN Resource
 * Scheduling", IEEE INFOCOM 2021.
 *
 * Family: alloc (core/alloc/).
 */
#include "smd_policy.h"

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	return sb_smd_allocate(v, pl, -1, 0, err);
}

const struct sb_alloc_policy sb_alloc_policy_smd = {
	.name = "smd",
	.cite = "Yu, Wu, Ji, Liu, A Sum-of-Ratios Multi-Dimensional-Knapsack Decomposition for DNN Resource Scheduling, INFOCOM 2021",
	.desc = "per-round MMKP of (workers, PSs): Lagrangian inner choice, greedy outer selection",
	.provenance = "reconstructed",
	.modes = 1u << SB_ALLOC_PS,
	.allocate = allocate,
};
