/*
 * asrpt.c - A-SRPT (reconstructed): random-forest predictions, virtual
 * SRPT machine, jobs start in virtual-completion order (D1).
 *
 * Z. Luo, J. Liu, M. Lee, N. B. Shroff, "Prediction-Assisted Online
 * Distributed Deep Learning Workload Scheduling in GPU Clusters", arXiv
 * 2501.05563, 2025. A-SRPT as reconstructed here (see asrpt.h: the
 * abstract is verified, the method's details are ours).
 *
 * The headline variant: a strict list, non-preemptive in the cluster.
 *
 * Family: cluster (core/cluster/).
 */
#include "asrpt.h"

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	return sb_asrpt_init(s, o, rng, SB_ASRPT_D1, SB_ASRPT_RF);
}

const struct sb_cluster_policy sb_cluster_policy_asrpt = {
	.name = "asrpt",
	.desc = "A-SRPT (reconstructed): RF + virtual SRPT, strict virtual-completion list",
	.init = init,
	SB_ASRPT_COMMON,
};
