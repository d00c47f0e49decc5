/*
 * learned-random.c - ablation of the learned policy: the same price
 * network and per-round update, trained on i.i.d. log-uniform random
 * instances instead of against the adversary (Kong et al., ICLR 2019
 * style). Reads its trained table like `learned`.
 *
 * advlearn.md §4 item 6 [O, our ablation; reconstructed].
 */
#include "online/ptable.h"

static int reset(const struct sb_online_game *g, const struct sb_online_inst *in,
		 const struct sb_opts *o, void **ctx, int *ncomp, double *weight,
		 struct sb_err *err)
{
	return sb_online_ptable_reset("learned-random", g, ctx, ncomp, weight, err);
}

const struct sb_online_policy sb_online_policy_learned_random = {
	.name = "learned-random",
	.cite = "Kong, Liaw, Mehta, Sivakumar, A New Dog Learns Old Tricks: RL Finds Classic Optimization Algorithms, ICLR 2019",
	.desc = "ablation: learned price table trained on random instances, no adversary",
	.provenance = "reconstructed",
	.stored = 1,
	.reset = reset,
	.decide = sb_online_ptable_decide,
};
