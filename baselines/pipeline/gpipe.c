/*
 * gpipe.c - the GPipe schedule: every forward of the iteration first, in
 * microbatch order, then every backward, last microbatch first; then the
 * flush (all-reduce) and a synchronous update.
 *
 * Y. Huang et al., "GPipe: efficient training of giant neural networks
 * using pipeline parallelism", NeurIPS 2019 (spec pipeplan.md §4). With
 * balanced stages and free transfers an iteration lasts (M + S - 1)(F + B);
 * every stage holds all M microbatches' activations (re-computation, a
 * plan option, trades them for a second forward).
 */
#include "pipeline/pipeline.h"

static int pick(const struct sb_pipeline_view *v, const struct sb_pipeline_task *ready, int n,
		const struct sb_opts *o)
{
	int i, best = -1;
	(void)o;
	if (v->fdone < v->plan->M) {
		/* forwards only, in order; wait for the next one's input */
		for (i = 0; i < n; i++)
			if (ready[i].kind == SB_PIPELINE_F && (best < 0 || ready[i].mb < ready[best].mb))
				best = i;
		return best;
	}
	for (i = 0; i < n; i++)
		if (ready[i].kind == SB_PIPELINE_B && (best < 0 || ready[i].mb > ready[best].mb))
			best = i;
	return best;
}

const struct sb_pipeline_schedule sb_pipeline_schedule_gpipe = {
	.name = "gpipe",
	.cite = "Huang et al., GPipe: efficient training of giant neural networks using "
		"pipeline parallelism, NeurIPS 2019",
	.desc = "all forwards, then all backwards (last microbatch first), flush",
	.provenance = "published algorithm",
	.pick = pick,
};
