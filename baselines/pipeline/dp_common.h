/*
 * dp_common.h - pure data parallelism, shared by the dp and dp-overlap
 * planners (they differ only in whether the gradient all-reduce overlaps
 * the backward). Not a planner: it registers nothing.
 */
#ifndef SB_DP_COMMON_H
#define SB_DP_COMMON_H

#include "pipeline/pipeline.h"

/*
 * Plan pure data parallelism for pb into out (initialised here; the caller
 * releases it): one stage holding every layer on all N GPUs, with
 * gradient accumulation over M microbatches; overlap (0/1) goes to
 * out->overlap, planner names the plan. 0; SB_EXIT_RUN when even the
 * smallest microbatch does not fit one GPU; SB_EXIT_INPUT when the batch
 * (or pb->M) leaves a GPU less than one sample per microbatch.
 */
int sb_dp_plan(const struct sb_pipeline_problem *pb, int overlap, const char *planner,
	       struct sb_pipeline_plan *out, struct sb_err *err);

#endif
