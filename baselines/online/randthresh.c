/*
 * randthresh.c - randomised single threshold: draw one price log-uniformly
 * on [L, U] before the first buyer and post it in every round. The draw is
 * over the k = ceil(log2(U/L)) value classes [L 2^i, L 2^(i+1)): threshold
 * L 2^i with probability 1/k ("classify and randomly select").
 *
 * Awerbuch, Azar, Fiat, Leighton, "Making Commitments in the Face of
 * Uncertainty", STOC 1996: O(log(U/L))-competitive for values in [L, U];
 * listed as a baseline in advlearn.md §4 [O]. Classes of ratio 2 are the
 * textbook choice; a draw over the 16-level price grid instead would give
 * the lowest class only 1/16 of the mass and a ratio of 16 on an all-L
 * input whatever U/L. Its expectation is exact: one DP per threshold,
 * averaged. K = 2 [O]: the same threshold, posted as the per-unit bundle
 * price (a buyer takes its bundle iff its per-unit value reaches it).
 */
#include "online/online.h"

#include <math.h>

static int reset(const struct sb_online_game *g, const struct sb_online_inst *in,
		 const struct sb_opts *o, void **ctx, int *ncomp, double *weight,
		 struct sb_err *err)
{
	int k = (int)ceil(log2(g->U / g->L) - 1e-12), m;

	if (k < 1)
		k = 1;
	if (k > SB_ONLINE_MAXCOMP)
		return sb_err_set(err, SB_EXIT_INPUT, "randthresh: U/L = %g gives %d classes, more "
				  "than %d", g->U / g->L, k, SB_ONLINE_MAXCOMP);
	*ctx = NULL;
	*ncomp = k;
	for (m = 0; m < k; m++)
		weight[m] = 1.0 / k;
	return 0;
}

static int decide(void *ctx, const struct sb_online_game *g, int comp, int t, int c, int d,
		  double *price, double *prob)
{
	price[0] = g->L * ldexp(1.0, comp);
	prob[0] = 1;
	return 1;
}

const struct sb_online_policy sb_online_policy_randthresh = {
	.name = "randthresh",
	.cite = "Awerbuch, Azar, Fiat, Leighton, Making Commitments in the Face of Uncertainty, STOC 1996",
	.desc = "one price L 2^i, i uniform over the ceil(log2(U/L)) classes, posted throughout",
	.provenance = "ours",
	.reset = reset,
	.decide = decide,
};
