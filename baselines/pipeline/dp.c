/*
 * dp.c - pure data parallelism with gradient accumulation; the gradients
 * are all-reduced after the last backward (DAPPLE's "DP, no overlap").
 *
 * Baseline of S. Fan et al., "DAPPLE: a pipelined data parallel approach
 * for training large models", PPoPP 2021 (spec dapple.md §4 [V, code: the
 * DP variants of DAPPLE's analysis]; pipeplan.md §4 "Pure DP":
 * T = C(GBS/N) + AR(W, N)).
 *
 * Algorithm: every GPU holds the whole model and trains on batch / N
 * samples per iteration in M microbatches, the smallest M whose microbatch
 * fits the GPU's memory; then one ring all-reduce of all gradients over
 * all N GPUs. The representation (one stage on all GPUs) and the rule for
 * M are ours [O]; dp_common.c explains both.
 */
#include "dp_common.h"

static int plan(const struct sb_pipeline_problem *pb, const struct sb_opts *o,
		struct sb_pipeline_plan *out, struct sb_err *err)
{
	(void)o;
	return sb_dp_plan(pb, 0, "dp", out, err);
}

const struct sb_pipeline_planner sb_pipeline_planner_dp = {
	.name = "dp",
	.cite = "Fan et al., DAPPLE: a pipelined data parallel approach for training large "
		"models, PPoPP 2021 (DP baseline)",
	.desc = "pure data parallelism, gradient accumulation, all-reduce after backward",
	.provenance = "published baseline",
	.params = NULL,
	.schedule = "1f1b",
	.plan = plan,
};
