/*
 * greedy.c - post the lowest price L: every buyer that fits is served,
 * first come, first served. Ours; its ratio is unbounded as U/L grows
 * (low-value buyers fill the capacity before high-value ones arrive).
 * K = 2: the same rule (price L per unit of the bundle).
 */
#include "online/online.h"

static int decide(void *ctx, const struct sb_online_game *g, int comp, int t, int c, int d,
		  double *price, double *prob)
{
	price[0] = g->L;
	prob[0] = 1;
	return 1;
}

const struct sb_online_policy sb_online_policy_greedy = {
	.name = "greedy",
	.cite = "first come, first served",
	.desc = "price L: serve every buyer that fits",
	.provenance = "ours",
	.reset = sb_online_reset_markov,
	.decide = decide,
};
