/*
 * 1f1b.c - one-forward-one-backward with a flush (PipeDream-Flush, the
 * schedule of Megatron-LM and of DAPPLE's runtime): stage s of S (from 0)
 * runs min(S - s - 1, M) warm-up forwards, then alternates one forward and
 * one backward, then drains the backwards; at most S - s microbatches are
 * in flight on stage s, so activation memory is bounded by the depth, not
 * by M.
 *
 * D. Narayanan et al., "Memory-efficient pipeline-parallel DNN training",
 * ICML 2021 (PipeDream-Flush); spec pipeplan.md §4. Same iteration time as
 * GPipe for balanced stages: (M + S - 1)(F + B).
 */
#include "pipeline/pipeline.h"

static int cap(const struct sb_pipeline_view *v, const struct sb_opts *o)
{
	(void)o;
	return v->plan->S - v->stage;
}

/* A ready backward first (lowest microbatch), else the next forward. */
static int pick(const struct sb_pipeline_view *v, const struct sb_pipeline_task *ready, int n,
		const struct sb_opts *o)
{
	int i, best = -1;
	(void)v;
	(void)o;
	for (i = 0; i < n; i++) {
		if (best < 0 || ready[i].kind > ready[best].kind ||
		    (ready[i].kind == ready[best].kind && ready[i].mb < ready[best].mb))
			best = i;
	}
	return best;
}

const struct sb_pipeline_schedule sb_pipeline_schedule_1f1b = {
	.name = "1f1b",
	.cite = "Narayanan et al., Memory-efficient pipeline-parallel DNN training "
		"(PipeDream-Flush), ICML 2021",
	.desc = "warm-up S-s forwards, then one forward one backward, flush",
	.provenance = "published algorithm",
	.cap = cap,
	.pick = pick,
};
