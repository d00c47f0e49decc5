/*
 * asrpt-strict.c - A-SRPT (reconstructed), the strict reading of step D
 * (D1): a job joins a list only when the virtual SRPT machine completes
 * it, and the list starts in that order with head-of-line blocking,
 * non-preemptively. Until issue #11 this was the headline "asrpt".
 *
 * Z. Luo, J. Liu, M. Lee, N. B. Shroff, "Prediction-Assisted Online
 * Distributed Deep Learning Workload Scheduling in GPU Clusters", arXiv
 * 2501.05563, 2025. A-SRPT as reconstructed here (see asrpt.h: the
 * abstract is verified, the method's details are ours).
 *
 * Kept as a labelled variant because it is the textbook conversion of a
 * single-machine schedule that our own competitive bound (spec asrpt.md §4)
 * is proved for, not because it schedules well: GPUs stay idle while the
 * list head waits for room and while arrived jobs wait for their virtual
 * completion, and a head that finally starts takes whatever scattered GPUs
 * are free (experiment cluster_mech measures both).
 *
 * Family: cluster (core/cluster/).
 */
#include "asrpt.h"

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	return sb_asrpt_init(s, o, rng, SB_ASRPT_D1, SB_ASRPT_RF);
}

const struct sb_cluster_policy sb_cluster_policy_asrpt_strict = {
	.name = "asrpt-strict",
	.desc = "A-SRPT (reconstructed), D1: strict virtual-completion list (the old headline)",
	.init = init,
	SB_ASRPT_COMMON,
};
