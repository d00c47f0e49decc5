/*
 * dp-overlap.c - pure data parallelism with gradient accumulation whose
 * all-reduce runs layer by layer behind the last backward (DAPPLE's "DP +
 * normal overlap": only what the backward cannot hide, at least the first
 * layer's gradients, is left after it).
 *
 * Baseline of S. Fan et al., "DAPPLE: a pipelined data parallel approach
 * for training large models", PPoPP 2021 (spec dapple.md §4 [V, code];
 * pipeplan.md §4 "Pure DP": T = C(GBS/N) + max(0, AR(W, N) - overlap)).
 *
 * Algorithm: the plan of dp (dp_common.c) with plan.overlap = 1; the cost
 * model (pipeline/cost.c) reduces each layer's gradients as soon as the
 * last backward has produced them, in a ring over all N GPUs [O].
 */
#include "dp_common.h"

static int plan(const struct sb_pipeline_problem *pb, const struct sb_opts *o,
		struct sb_pipeline_plan *out, struct sb_err *err)
{
	(void)o;
	return sb_dp_plan(pb, 1, "dp-overlap", out, err);
}

const struct sb_pipeline_planner sb_pipeline_planner_dp_overlap = {
	.name = "dp-overlap",
	.cite = "Fan et al., DAPPLE: a pipelined data parallel approach for training large "
		"models, PPoPP 2021 (DP + normal overlap baseline)",
	.desc = "pure data parallelism, gradient accumulation, all-reduce overlapped with "
		"the backward",
	.provenance = "published baseline",
	.params = NULL,
	.schedule = "1f1b",
	.plan = plan,
};
