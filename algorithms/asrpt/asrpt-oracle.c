/*
 * asrpt-oracle.c - A-SRPT (reconstructed) with true iteration counts
 * (ablation (c)), or with a log-normal error of sigma = noise (figure F6).
 *
 * Z. Luo, J. Liu, M. Lee, N. B. Shroff, "Prediction-Assisted Online
 * Distributed Deep Learning Workload Scheduling in GPU Clusters", arXiv
 * 2501.05563, 2025. A-SRPT as reconstructed here (see asrpt.h: the
 * abstract is verified, the method's details are ours).
 *
 * Dispatch D0 like asrpt. With dispatch=1 (the strict list, asrpt-strict's
 * reading) and noise = 0 every run checks our Lemma 2 per job
 * (asrpt_engine.c).
 *
 * Family: cluster (core/cluster/).
 */
#include "asrpt.h"

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	return sb_asrpt_init(s, o, rng, SB_ASRPT_D0, SB_ASRPT_ORACLE);
}

const struct sb_cluster_policy sb_cluster_policy_asrpt_oracle = {
	.name = "asrpt-oracle",
	.desc = "A-SRPT (reconstructed) ablation: oracle predictions (noise: log-normal error)",
	.clairvoyant = 1,
	.init = init,
	SB_ASRPT_COMMON,
};
