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
	int t, left = g->C;
	double w = 0;

	for (t = 0; t < in->T; t++) {
		int fits = in->d[t] <= left, buys = in->v[t] >= price[t];
		if (!(price[t] > 0) || !isfinite(price[t])) {
			snprintf(why, len, "round %d: posted price %g is not a positive number", t,
				 price[t]);
			return 1;
		}
		if (x[t] && !fits) {
			snprintf(why, len, "round %d: %d units sold with %d left", t, in->d[t], left);
			return 1;
		}
		if (x[t] != (fits && buys)) {
			snprintf(why, len, "round %d: buyer with value %g at price %g %s", t,
				 in->v[t], price[t], x[t] ? "served although it refuses" :
				 "refused although it buys and fits");
			return 1;
		}
		if (x[t]) {
			left -= in->d[t];
			w += in->v[t] * in->d[t];
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
	double *rho = SB_NEW(double, g->C + 1), *nrho = SB_NEW(double, g->C + 1), e = 0;
	int k, t, c, a, bad = 0;

	for (k = 0; k < tb->ncomp && !bad; k++) {
		memset(rho, 0, (size_t)(g->C + 1) * sizeof *rho);
		rho[g->C] = tb->weight[k];
		for (t = 0; t < in->T && !bad; t++) {
			memset(nrho, 0, (size_t)(g->C + 1) * sizeof *nrho);
			for (c = 0; c <= g->C && !bad; c++) {
				size_t i = ((size_t)k * tb->T + (size_t)t) * (size_t)(tb->C + 1) + (size_t)c;
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
				if (in->d[t] > c)
					take = 0;
				nrho[c] += rho[c] * (1 - take);
				if (take > 0) {
					nrho[c - in->d[t]] += rho[c] * take;
					e += rho[c] * take * in->v[t] * in->d[t];
				}
			}
			memcpy(rho, nrho, (size_t)(g->C + 1) * sizeof *rho);
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
