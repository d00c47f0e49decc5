/*
 * tiresias-gittins.c - discretised two-dimensional Gittins index of
 * Tiresias: J. Gu, M. Chowdhury, K. G. Shin, Y. Zhu, M. Jeon, J. Qian,
 * H. Liu, C. Guo, "Tiresias: a GPU cluster manager for distributed deep
 * learning", USENIX NSDI 2019; the variant for when the distribution of
 * job sizes is known.
 *
 * The queues of 2D-LAS (tiresias.c: thresholds on attained GPU-seconds,
 * lower queue first, preemptive at every event); inside a queue the job of
 * highest Gittins index of its attained service goes first, ties to the
 * earlier arrival. The index is the one Tiresias' public simulator
 * computes (run_sim.py, schedule "dlas-gpu-gittins"; tiresias.h gives its
 * formula) [V, code] over a distribution of GPU-seconds: the job set's
 * history (sb eval cluster --history, e.g. the simulator's own
 * yarn-gput1000.csv) when it has one, else the GPU-seconds of the jobs
 * completed so far in the run, rebuilt as they grow by 10% [O] (before the
 * first completion every index is 0: 2D-LAS order). The simulator's
 * schedule named "gittins" fails at its first event (its distribution is
 * never stored where the index reads it), so "dlas-gpu-gittins" is the one
 * reproduced. delta is its fixed quantum (jobs.py gittins_delta, 3250).
 * The index departs from the textbook Gittins index E[min(S - a, delta) |
 * S > a] in using S, not S - a, in the expectation; kept as published.
 */
#include "cluster/util.h"
#include "tiresias.h"

static const struct sb_param params[] = {
	SB_TIRESIAS_PARAMS,
	{ "delta", 3250, 1, 1e9, 0, "the service quantum of the Gittins index (GPU-s)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	(void)rng;
	return sb_tiresias_init(s, o, 1);
}

const struct sb_cluster_policy sb_cluster_policy_tiresias_gittins = {
	.name = "tiresias-gittins",
	.cite = "Gu et al., Tiresias: a GPU cluster manager for distributed deep learning, "
		"NSDI 2019 (2D-Gittins index as in its public simulator)",
	.desc = "discretised 2D-Gittins index: LAS queues, Gittins index order inside a queue",
	.params = params,
	.init = init,
	SB_TIRESIAS_COMMON,
};
