/*
 * asrpt-median.c - A-SRPT (reconstructed) without learned predictions: the
 * fallback of step A (median of completed jobs of the same model) only;
 * ablation (b) of the spec.
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
	return sb_asrpt_init(s, o, rng, SB_ASRPT_D0, SB_ASRPT_MEDIAN);
}

const struct sb_cluster_policy sb_cluster_policy_asrpt_median = {
	.name = "asrpt-median",
	.desc = "A-SRPT (reconstructed) ablation: median predictions instead of the RF",
	.init = init,
	SB_ASRPT_COMMON,
};
