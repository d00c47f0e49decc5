/*
 * fifo.c - first in, first out: jobs start in strict arrival order, each
 * when the placer finds room for it; a job that does not fit blocks the
 * ones behind it. Non-preemptive (spec asrpt.md §5 baseline 1 [O]).
 */
#include "cluster/util.h"

static void schedule(void *ctx, struct sb_csim *s)
{
	sb_cluster_dispatch_list(s, ctx, 1);
}

const struct sb_cluster_policy sb_cluster_policy_fifo = {
	.name = "fifo",
	.cite = "first-in first-out (baseline of Luo et al., arXiv 2501.05563, 2025)",
	.desc = "strict arrival order, non-preemptive, head-of-line blocking",
	.provenance = "ours",
	.init = sb_clq_hook_init,
	.release = sb_clq_hook_release,
	.on_arrival = sb_clq_hook_arrival,
	.schedule = schedule,
	.default_place = "packed",
};
