/*
 * zlw.c - Zhang-Li-Wu posted prices for a single, non-recycled resource:
 * the exponential-in-utilisation pricing family, charged per unit as the
 * mean of the pricing function over the units the buyer would take.
 *
 * Z. Zhang, Z. Li, C. Wu, "Optimal Posted Prices for Online Cloud Resource
 * Allocation", POMACS/SIGMETRICS 2017 (arXiv 1704.05511). Verified [V,
 * abstract]: prices are functions of the current utilisation, and the
 * design is optimal for a single, non-recycled resource type. Reconstructed
 * [R]: we did not have the paper's constants, so the function is ZCL's psi
 * (the same exponential family with the same ratio for infinitesimal
 * demand); what differs from zcl is that a demand of d units is priced at
 * the mean of psi over [z, z + d/C] (the integral price of the units it
 * takes), not at psi(z). Rounded up to the price grid unless round=0.
 *
 * K = 2: the spec's multi-type rule [O, advlearn.md §4 item 2]: per-type
 * unit prices p_k = the mean of psi over [z_k, z_k + d_k / C_k], and the
 * bundle price sum_k p_k d_k, posted per unit as sum_k p_k d_k / |d| (the
 * buyer accepts iff v |d| >= sum_k p_k d_k), then rounded up to the grid.
 */
#include "online/online.h"

static const struct sb_param params[] = {
	{ "round", 1, 0, 1, 1, "1: round the price up to the price grid; 0: post it as is" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static int decide(void *ctx, const struct sb_online_game *g, int comp, int t, int c, int d,
		  double *price, double *prob)
{
	const struct sb_opts *o = ctx;
	double p = 0;
	int k;

	if (g->K == 1) {
		double z = (double)(g->C - c) / g->C;
		p = sb_online_psi_mean(g, z, sb_min(1.0, z + (double)d / g->C));
	} else {
		for (k = 0; k < g->K; k++) {
			int dk = sb_online_dem(g, d, k);
			double z = (double)(g->Ck[k] - sb_online_left(g, c, k)) / g->Ck[k];
			p += dk * sb_online_psi_mean(g, z, sb_min(1.0, z + (double)dk / g->Ck[k]));
		}
		p /= sb_online_size(g, d);
	}

	price[0] = sb_opts_get(o, "round") ? sb_online_round_up(g, p) : p;
	prob[0] = 1;
	return 1;
}

const struct sb_online_policy sb_online_policy_zlw = {
	.name = "zlw",
	.cite = "Zhang, Li, Wu, Optimal Posted Prices for Online Cloud Resource Allocation, POMACS 2017",
	.desc = "exponential utilisation pricing, integral price over the units taken",
	.provenance = "reconstructed",
	.params = params,
	.reset = sb_online_reset_markov,
	.decide = decide,
};
