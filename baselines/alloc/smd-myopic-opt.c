/*
 * smd-myopic-opt.c - Myopic-OPT (smd.md §4 [O]): SMD with each round's
 * decision replaced by the optimum of the round's multiple-choice
 * multi-dimensional knapsack: exact by dynamic programming over the
 * resources used (core/alloc/mmkp.c) when the demands are whole units, as
 * SMD's are, else GLPK's ILP under the family's deterministic node limit,
 * started from SMD's own choice; never worse than SMD on the round's
 * objective. It separates the two parts of SMD: how well its heuristic
 * solves a round, and how good the round's objective is for mean JCT.
 * Placement as SMD's. Ours [O]; SMD reconstructed [R].
 */
#include "algorithms/smd/smd_policy.h"

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	return sb_smd_allocate(v, pl, -1, 1, err);
}

const struct sb_alloc_policy sb_alloc_policy_smd_myopic_opt = {
	.name = "smd-myopic-opt",
	.cite = "ours: SMD (Yu, Wu, Ji, Liu, INFOCOM 2021) with each round solved exactly",
	.desc = "SMD's layered per-round MMKP solved to its optimum (exact DP), SMD's placement",
	.provenance = "ours",
	.modes = 1u << SB_ALLOC_PS,
	.allocate = allocate,
};
