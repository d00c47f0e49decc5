/*
 * learned-reinforce.c - ablation of the learned policy: trained against
 * the same adversary and hall of fame, but with vanilla REINFORCE on
 * sampled actions (one episode per instance, moving-average baseline)
 * instead of the per-round update. Reads its trained table like `learned`.
 *
 * advlearn.md §4 item 6 [O, our ablation; reconstructed].
 */
#include "online/ptable.h"

static int reset(const struct sb_online_game *g, const struct sb_online_inst *in,
		 const struct sb_opts *o, void **ctx, int *ncomp, double *weight,
		 struct sb_err *err)
{
	return sb_online_ptable_reset("learned-reinforce", g, ctx, ncomp, weight, err);
}

const struct sb_online_policy sb_online_policy_learned_reinforce = {
	.name = "learned-reinforce",
	.cite = "Williams, Simple Statistical Gradient-Following Algorithms for Connectionist RL, Machine Learning 1992",
	.desc = "ablation: learned price table trained by vanilla REINFORCE on sampled actions",
	.provenance = "reconstructed",
	.stored = 1,
	.reset = reset,
	.decide = sb_online_ptable_decide,
};
