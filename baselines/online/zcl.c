/*
 * zcl.c - ZCL threshold pricing: post the unit price psi(z) of the
 * utilisation z before the buyer, psi(z) = L for z <= 1/(1 + ln(U/L)),
 * else (L/e) (U e / L)^z.
 *
 * Y. Zhou, D. Chakrabarty, R. Lukose, "Budget Constrained Bidding in Keyword
 * Auctions and Online Knapsack Problems", WINE 2008. The threshold function
 * and its ratio 1 + ln(U/L) for items small relative to the capacity are
 * the published ones [V, the paper; advlearn.md §4]; turning the threshold
 * into a posted price (the buyer takes its units iff v >= psi) and rounding
 * it up to the game's price grid (round=1, the default, for a comparison on
 * equal terms with the learned table) are ours.
 *
 * K = 2 [O, ours]: one bundle price per unit, psi of the bottleneck type's
 * utilisation max_k z_k. Why the bottleneck: a sale can be refused only
 * for lack of the scarcest type, so that type's utilisation is the one
 * whose threshold protects the remaining capacity; per-type prices summed
 * over the bundle are zlw's K = 2 rule, so the two baselines cover both
 * multi-type pricings of advlearn.md §4. No ratio is proven for K = 2
 * (proven_ratio 0).
 */
#include "online/online.h"

#include <math.h>

static const struct sb_param params[] = {
	{ "round", 1, 0, 1, 1, "1: round psi(z) up to the price grid; 0: post psi(z) itself" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static double ratio(const struct sb_online_game *g, const struct sb_opts *o)
{
	return g->K == 1 ? 1 + log(g->U / g->L) : 0;
}

static int decide(void *ctx, const struct sb_online_game *g, int comp, int t, int c, int d,
		  double *price, double *prob)
{
	const struct sb_opts *o = ctx;
	double p = sb_online_psi(g, g->K == 1 ? (double)(g->C - c) / g->C :
				 sb_online_util_max(g, c));

	price[0] = sb_opts_get(o, "round") ? sb_online_round_up(g, p) : p;
	prob[0] = 1;
	return 1;
}

const struct sb_online_policy sb_online_policy_zcl = {
	.name = "zcl",
	.cite = "Zhou, Chakrabarty, Lukose, Budget Constrained Bidding in Keyword Auctions and Online Knapsack Problems, WINE 2008",
	.desc = "threshold price psi(utilisation), rounded up to the price grid",
	.provenance = "verified: psi and its ratio (paper); posted-price use ours",
	.params = params,
	.proven_ratio = ratio,
	.reset = sb_online_reset_markov,
	.decide = decide,
};
