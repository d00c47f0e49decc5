/*
 * learned.c - the adversarially learned posted-price policy: posts a price
 * drawn from its trained table pi(. | t, c, d), read from the results of
 * `sb run online_learn` (sb eval online --table FILE.h5).
 *
 * Du, Huang, Wu, "Adversarial Deep Learning for Online Resource
 * Allocation", ACM TOMPECS 2021. Reconstructed [O]: the paper's verified
 * ideas (algorithm vs adversary networks, per-round update) on our
 * posted-price online knapsack; see algorithms/advlearn/train.h.
 *
 * Family: online (core/online/).
 */
#include "online/ptable.h"

static int reset(const struct sb_online_game *g, const struct sb_online_inst *in,
		 const struct sb_opts *o, void **ctx, int *ncomp, double *weight,
		 struct sb_err *err)
{
	return sb_online_ptable_reset("learned", g, ctx, ncomp, weight, err);
}

const struct sb_online_policy sb_online_policy_learned = {
	.name = "learned",
	.cite = "Du, Huang, Wu, Adversarial Deep Learning for Online Resource Allocation, ACM TOMPECS 2021",
	.desc = "trained price table (per-round update against an adversary network + hall of fame)",
	.provenance = "reconstructed",
	.stored = 1,
	.reset = reset,
	.decide = sb_online_ptable_decide,
};
