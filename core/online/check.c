/*
 * check.c - the online family's independent checkers. They share no code
 * with the simulator: the episode checker replays the acceptance rule, and
 * the expectation checker computes E[ALG] forward (reach probabilities of
 * each remaining capacity) where the simulator computes it backward.
 */
#include "online.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int sb_online_check_episode(const struct sb_online_game *g, const struct sb_online_inst *in,
			    const double *price, const unsigned char *x, double welfare,
			    char *why, size_t len)
{
	int t, k, left[SB_ONLINE_MAXK], dv[SB_ONLINE_MAXK];
	double w = 0;

	for (k = 0; k < g->K; k++)
		left[k] = g->Ck[k];
	for (t = 0; t < in->T; t++) {
		int fits = 1, buys = in->v[t] >= price[t], size = 0, code = in->d[t] - 1;
		/* decode the demand code here, most significant type first */
		for (k = g->K - 1; k >= 0; k--) {
			dv[k] = code % g->D + 1;
			code /= g->D;
		}
		for (k = 0; k < g->K; k++) {
			size += dv[k];
			fits = fits && dv[k] <= left[k];
		}
		if (!(price[t] > 0) || !isfinite(price[t])) {
			snprintf(why, len, "round %d: posted price %g is not a positive number", t,
				 price[t]);
			return 1;
		}
		for (k = 0; k < g->K; k++)
			if (x[t] && dv[k] > left[k]) {
				if (g->K == 1)
					snprintf(why, len, "round %d: %d units sold with %d left", t,
						 dv[k], left[k]);
				else
					snprintf(why, len, "round %d: type %d: %d units sold with %d "
						 "left", t, k + 1, dv[k], left[k]);
				return 1;
			}
		if (x[t] != (fits && buys)) {
			snprintf(why, len, "round %d: buyer with value %g at price %g %s", t,
				 in->v[t], price[t], x[t] ? "served although it refuses" :
				 "refused although it buys and fits");
			return 1;
		}
		if (x[t]) {
			for (k = 0; k < g->K; k++)
				left[k] -= dv[k];
			w += in->v[t] * size;
		}
	}
	if (fabs(w - welfare) > 1e-9 * (1 + w)) {
		snprintf(why, len, "welfare %.12g differs from the recomputed %.12g", welfare, w);
		return 1;
	}
	return 0;
}

int sb_online_check_expect(const struct sb_online_game *g, const struct sb_online_inst *in,
			   const struct sb_online_table *tb, double ealg, char *why, size_t len)
{
	double *rho = SB_NEW(double, g->S), *nrho = SB_NEW(double, g->S), e = 0;
	int k, t, c, a, bad = 0;

	for (k = 0; k < tb->ncomp && !bad; k++) {
		memset(rho, 0, (size_t)g->S * sizeof *rho);
		rho[g->S - 1] = tb->weight[k];
		for (t = 0; t < in->T && !bad; t++) {
			memset(nrho, 0, (size_t)g->S * sizeof *nrho);
			for (c = 0; c < g->S && !bad; c++) {
				size_t i = ((size_t)k * tb->T + (size_t)t) * (size_t)tb->S + (size_t)c;
				const double *pr = tb->price + tb->start[i], *pb = tb->prob + tb->start[i];
				double s = 0, take = 0;
				for (a = 0; a < tb->n[i]; a++) {
					if (!(pb[a] >= 0) || !(pr[a] > 0) || !isfinite(pr[a])) {
						snprintf(why, len, "round %d, capacity %d: price %g with "
							 "probability %g", t, c, pr[a], pb[a]);
						bad = 1;
					}
					s += pb[a];
					if (in->v[t] >= pr[a])
						take += pb[a];
				}
				if (!bad && fabs(s - 1) > 1e-9) {
					snprintf(why, len, "round %d, capacity %d: price probabilities "
						 "sum to %.12g", t, c, s);
					bad = 1;
				}
				if (!sb_online_fits(g, c, in->d[t]))
					take = 0;
				nrho[c] += rho[c] * (1 - take);
				if (take > 0) {
					nrho[c - sb_online_off(g, in->d[t])] += rho[c] * take;
					e += rho[c] * take * in->v[t] * sb_online_size(g, in->d[t]);
				}
			}
			memcpy(rho, nrho, (size_t)g->S * sizeof *rho);
		}
	}
	if (!bad && fabs(e - ealg) > 1e-9 * (1 + fabs(e))) {
		snprintf(why, len, "expected welfare %.12g differs from the forward pass's %.12g",
			 ealg, e);
		bad = 1;
	}
	sb_free(rho);
	sb_free(nrho);
	return bad;
}
