/*
 * hindsight.c - the best fixed price in hindsight: the grid price that,
 * posted in every round, gives the most welfare on this very instance.
 * An offline reference (it sees the instance), not an online algorithm;
 * it has no competitive ratio of its own. Ours [O, advlearn.md §4].
 * K = 2: the same fixed per-unit bundle price for every buyer.
 */
#include "online/online.h"

static double fixed_price_welfare(const struct sb_online_game *g,
				  const struct sb_online_inst *in, double p)
{
	int t, c = g->S - 1;
	double w = 0;

	for (t = 0; t < in->T; t++)
		if (in->v[t] >= p && sb_online_fits(g, c, in->d[t])) {
			c -= sb_online_off(g, in->d[t]);
			w += in->v[t] * sb_online_size(g, in->d[t]);
		}
	return w;
}

static int reset(const struct sb_online_game *g, const struct sb_online_inst *in,
		 const struct sb_opts *o, void **ctx, int *ncomp, double *weight,
		 struct sb_err *err)
{
	int m, best = 0;
	double bw = -1;

	for (m = 0; m < g->M; m++) {
		double w = fixed_price_welfare(g, in, g->price[m]);
		if (w > bw) { /* ties: the lowest such price */
			bw = w;
			best = m;
		}
	}
	*ctx = (void *)&g->price[best];
	*ncomp = 1;
	weight[0] = 1;
	return 0;
}

static int decide(void *ctx, const struct sb_online_game *g, int comp, int t, int c, int d,
		  double *price, double *prob)
{
	price[0] = *(const double *)ctx;
	prob[0] = 1;
	return 1;
}

const struct sb_online_policy sb_online_policy_hindsight = {
	.name = "hindsight",
	.cite = "offline reference",
	.desc = "best fixed grid price in hindsight (sees the instance; not online)",
	.provenance = "ours",
	.offline = 1,
	.reset = reset,
	.decide = decide,
};
