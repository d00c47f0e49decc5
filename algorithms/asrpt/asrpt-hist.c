/*
 * asrpt-hist.c - asrpt (asrpt.c) with the histogram speed variant of its
 * random forest: the same scheduler, its forest computed faster.
 *
 * Z. Luo, J. Liu, M. Lee, N. B. Shroff, "Prediction-Assisted Online
 * Distributed Deep Learning Workload Scheduling in GPU Clusters", arXiv
 * 2501.05563, 2025. A-SRPT as reconstructed here (asrpt.h).
 *
 * [O] The forest splits on quantile bins of each feature and each tree
 * sees a smaller bootstrap sample (rf.h; the settings are in
 * sb_asrpt_forest_params). Predictions differ from the exact forest's, so
 * schedules differ; the accuracy of the two forests is compared by
 * cluster_pred (MAPE per history size) and the speed and mean JCT by
 * `make bench` (README, "Speed of the cluster schedulers"). `asrpt` stays
 * the reference; experiments' lists of every scheduler leave this out.
 *
 * Family: cluster (core/cluster/).
 */
#include "asrpt.h"

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	return sb_asrpt_init_forest(s, o, rng, SB_ASRPT_D0, SB_ASRPT_RF, SB_ASRPT_HIST);
}

const struct sb_cluster_policy sb_cluster_policy_asrpt_hist = {
	.name = "asrpt-hist",
	.desc = "asrpt with a histogram random forest (faster; predictions differ slightly)",
	.init = init,
	.speed_variant_of = "asrpt",
	SB_ASRPT_COMMON,
};
