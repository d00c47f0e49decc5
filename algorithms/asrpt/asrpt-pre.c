/*
 * asrpt-pre.c - A-SRPT (reconstructed), preemptive: jobs ranked by virtual
 * remaining work (D2).
 *
 * Z. Luo, J. Liu, M. Lee, N. B. Shroff, "Prediction-Assisted Online
 * Distributed Deep Learning Workload Scheduling in GPU Clusters", arXiv
 * 2501.05563, 2025. A-SRPT as reconstructed here (see asrpt.h: the
 * abstract is verified, the method's details are ours).
 *
 * Family: cluster (core/cluster/).
 */
#include "asrpt.h"

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	return sb_asrpt_init(s, o, rng, SB_ASRPT_D2, SB_ASRPT_RF);
}

const struct sb_cluster_policy sb_cluster_policy_asrpt_pre = {
	.name = "asrpt-pre",
	.desc = "A-SRPT (reconstructed), D2: preemptive priority by virtual remaining work",
	.init = init,
	SB_ASRPT_COMMON,
};
