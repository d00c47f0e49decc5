/*
 * fifo-bf.c - FIFO with first-fit backfilling: jobs are tried in arrival
 * order and every job that can be placed starts, so a large job at the
 * head does not block smaller ones behind it (no reservation, so the head
 * may starve under sustained small-job load). Non-preemptive (spec
 * asrpt.md §5 baseline 2 [O]).
 */
#include "cluster/util.h"

static void schedule(void *ctx, struct sb_csim *s)
{
	sb_cluster_dispatch_list(s, ctx, 0);
}

const struct sb_cluster_policy sb_cluster_policy_fifo_bf = {
	.name = "fifo-bf",
	.cite = "FIFO with backfilling (baseline of Luo et al., arXiv 2501.05563, 2025)",
	.desc = "arrival order, every job that fits starts, non-preemptive",
	.provenance = "ours",
	.init = sb_clq_hook_init,
	.release = sb_clq_hook_release,
	.on_arrival = sb_clq_hook_arrival,
	.schedule = schedule,
	.default_place = "packed",
};
