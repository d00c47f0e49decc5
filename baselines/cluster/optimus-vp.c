/*
 * optimus-vp.c - the Optimus-like baseline (optimus.c: Y. Peng, Y. Bao,
 * Y. Chen, C. Wu, C. Guo, "Optimus: an efficient dynamic resource
 * scheduler for deep learning clusters", EuroSys 2018) with its loss-curve
 * fit computed by variable projection instead of GSL's Levenberg-Marquardt.
 *
 * Same model l(k) = 1 / (b0 k + b1) + b2, same samples, same relative
 * residuals, same starting point and same checks (sb_optimus_fit_vp in
 * optimus.c): for a fixed ratio b0/b1 the loss is linear in (1/b1, b2) and
 * solved in closed form, and the remaining one-dimensional cost is
 * minimised by Brent's method. Both solvers look for a local minimum of
 * the same cost from the same start, so they agree wherever that minimum
 * is interior and well defined; they may differ on degenerate sample sets
 * (a flat or nearly straight curve) where one of them gives up. The
 * variant exists for speed (issue #11 item 7): the reference spends its
 * time in GSL's solver. `optimus` stays the reference policy; how often
 * and how far the two fits differ on the cluster experiments is measured
 * (README, cluster section). Reconstructed, as optimus.
 */
#include "optimus.h"

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	return sb_optimus_init(s, o, rng, sb_optimus_fit_vp);
}

const struct sb_cluster_policy sb_cluster_policy_optimus_vp = {
	.name = "optimus-vp",
	.cite = "Peng et al., Optimus: an efficient dynamic resource scheduler for deep "
		"learning clusters, EuroSys 2018 (fixed GPU counts; fit by variable projection)",
	.desc = "optimus with its loss-curve fit by variable projection (faster; same model)",
	.init = init,
	.speed_variant_of = "optimus",
	SB_OPTIMUS_COMMON,
};
