/*
 * asrpt-bf.c - A-SRPT (reconstructed) with first-fit backfilling over the
 * virtual-completion list (D1b).
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
	return sb_asrpt_init(s, o, rng, SB_ASRPT_D1B, SB_ASRPT_RF);
}

const struct sb_cluster_policy sb_cluster_policy_asrpt_bf = {
	.name = "asrpt-bf",
	.desc = "A-SRPT (reconstructed), D1b: virtual-completion list with backfilling",
	.init = init,
	SB_ASRPT_COMMON,
};
