/*
 * asrpt-pre-hist.c - asrpt-pre (asrpt-pre.c, preemptive D2) with the
 * histogram speed variant of its random forest.
 *
 * Z. Luo, J. Liu, M. Lee, N. B. Shroff, "Prediction-Assisted Online
 * Distributed Deep Learning Workload Scheduling in GPU Clusters", arXiv
 * 2501.05563, 2025. A-SRPT as reconstructed here (asrpt.h).
 *
 * [O] As asrpt-hist.c: quantile-binned splits and smaller bootstrap
 * samples (rf.h, sb_asrpt_forest_params); `asrpt-pre` stays the reference
 * and experiments' lists of every scheduler leave this out.
 *
 * Family: cluster (core/cluster/).
 */
#include "asrpt.h"

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	return sb_asrpt_init_forest(s, o, rng, SB_ASRPT_D2, SB_ASRPT_RF, SB_ASRPT_HIST);
}

const struct sb_cluster_policy sb_cluster_policy_asrpt_pre_hist = {
	.name = "asrpt-pre-hist",
	.desc = "asrpt-pre with a histogram random forest (faster; predictions differ slightly)",
	.init = init,
	.speed_variant_of = "asrpt-pre",
	SB_ASRPT_COMMON,
};
