/*@next (printed by make new-baseline, not copied)
 * edit its decide hook, then 'make && bin/sb list online' shows it;
 * 'bin/sb eval online --policy @NAME@ --bound --gen staircase --T 60' tries it,
 * and 'make test' runs it through the checkers against OPT on random instances.
 */
/*
 * @NAME@.c - <one line: what this online pricing policy does>.
 *
 * <Authors, "Title", Venue Year.>
 * <The algorithm in a few sentences. Say what is verified from a public
 *  source and what is your own choice.>
 *
 * Contract (core/online/online.h, struct sb_online_policy): reset() picks
 * the components of the initial random choice (one for a Markov policy);
 * decide() gives the price distribution from (t, c, d) alone, so that the
 * exact DP can evaluate it. With K = 2 resource types (g->K), c is a
 * capacity state and d a demand code: read them with sb_online_left(g, c, k)
 * and sb_online_dem(g, d, k), and post one price per unit of the bundle.
 */
#include "online/online.h"

static const struct sb_param params[] = {
	/* { "name", default, min, max, integer?, "help" }, */
	{ NULL, 0, 0, 0, 0, NULL },
};

static int decide(void *ctx, const struct sb_online_game *g, int comp, int t, int c, int d,
		  double *price, double *prob)
{
	/* the middle of the grid, whatever the state */
	price[0] = g->price[g->M / 2];
	prob[0] = 1;
	return 1;
}

const struct sb_online_policy sb_online_policy_@IDENT@ = {
	.name = "@NAME@",
	.cite = "<Authors, Title, Venue Year>",
	.desc = "<one line>",
	.provenance = "ours",
	.params = params,
	.reset = sb_online_reset_markov,
	.decide = decide,
};
