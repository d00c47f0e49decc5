/*
 * exhaust.c - the worst OPT/E[ALG] of an online policy over every instance
 * of a small type grid (advlearn.md §5: "exhaustive enumeration over the
 * type grid for T <= 6") [O].
 *
 * Instances are the sequences of sb_online_gen_enum (code = sum_t k_t
 * base^t, base = nv ND; ND = D^K demand vectors). A depth-first search over rounds shares prefixes:
 * both E[ALG] and OPT can be carried forward round by round, so a leaf
 * costs O(S) (capacity states) instead of a whole DP. E[ALG] is the forward form of the
 * per-round DP: rho_t(c), the probability of reaching round t with c units
 * left, is fixed by the prefix, and round t adds rho_t(c) acc_t(c) v_t d_t.
 * OPT is the knapsack DP over capacity, one item per round. The caller
 * replays the worst code through sb_online_run, whose checkers and backward
 * DP must give the same ratio.
 */
#include "online.h"

#include <math.h>
#include <string.h>

struct ex {
	const struct sb_online_game *g;
	int nv, ncomp, base;
	const double *weight;
	double *vlev;        /* value levels */
	double *acc;         /* [k][t][s][d-1][j]: acceptance probability */
	double *rho;         /* [t][k][s] reach probabilities, t = 0..T */
	double *best;        /* [t][s] knapsack optimum of rounds < t within s */
	double *ealg;        /* [t] expected welfare of rounds < t */
	int *digit;
	double worst;
	unsigned long long code, count;
};

static double *acc_at(struct ex *s, int k, int t, int c, int d)
{
	const struct sb_online_game *g = s->g;

	return s->acc + ((((size_t)k * g->T + (size_t)t) * (size_t)g->S + (size_t)c) *
			 (size_t)g->ND + (size_t)(d - 1)) * (size_t)s->nv;
}

static void dfs(struct ex *s, int t)
{
	const struct sb_online_game *g = s->g;
	size_t W = (size_t)g->S, RK = (size_t)s->ncomp * W;
	int j, d, k, c;

	if (t == g->T) {
		double opt = s->best[(size_t)t * W + (size_t)(g->S - 1)], r;
		unsigned long long code = 0;
		r = s->ealg[t] > 0 ? opt / s->ealg[t] : INFINITY;
		s->count++;
		if (r > s->worst) {
			for (k = g->T - 1; k >= 0; k--)
				code = code * (unsigned long long)s->base + (unsigned long long)s->digit[k];
			s->worst = r;
			s->code = code;
		}
		return;
	}
	for (d = 1; d <= g->ND; d++)
		for (j = 0; j < s->nv; j++) {
			const double *rho = s->rho + (size_t)t * RK, *b = s->best + (size_t)t * W;
			double *rn = s->rho + (size_t)(t + 1) * RK, *bn = s->best + (size_t)(t + 1) * W;
			double v = s->vlev[j], gain = v * sb_online_size(g, d), e = 0;
			int off = sb_online_off(g, d);
			s->digit[t] = (j * g->ND) + (d - 1);
			memset(rn, 0, RK * sizeof *rn);
			for (k = 0; k < s->ncomp; k++)
				for (c = 0; c < g->S; c++) {
					double r = rho[(size_t)k * W + (size_t)c], a;
					if (r == 0)
						continue;
					a = sb_online_fits(g, c, d) ? acc_at(s, k, t, c, d)[j] : 0;
					e += s->weight[k] * r * a * gain;
					if (a > 0)
						rn[(size_t)k * W + (size_t)(c - off)] += r * a;
					rn[(size_t)k * W + (size_t)c] += r * (1 - a);
				}
			s->ealg[t + 1] = s->ealg[t] + e;
			for (c = 0; c < g->S; c++)
				bn[c] = sb_online_fits(g, c, d) && b[c - off] + gain > b[c] ?
					b[c - off] + gain : b[c];
			dfs(s, t + 1);
		}
}

int sb_online_exhaust(const struct sb_online_game *g, const struct sb_online_policy *p,
		      const struct sb_opts *o, int nv, double *worst, unsigned long long *code,
		      unsigned long long *count, struct sb_err *err)
{
	struct ex s;
	void *ctx = NULL;
	double weight[SB_ONLINE_MAXCOMP], price[SB_ONLINE_MAXM], prob[SB_ONLINE_MAXM];
	size_t W = (size_t)g->S;
	int k, t, c, d, j, a, n, rc;

	memset(&s, 0, sizeof s);
	if (p->offline)
		return sb_err_set(err, SB_EXIT_INPUT, "policy %s is offline: it sees the instance, "
				  "so it has no decisions to enumerate", p->name);
	if (nv < 2 || nv > SB_ONLINE_MAXM)
		return sb_err_set(err, SB_EXIT_INPUT, "field 'nv': %d value levels out of range "
				  "[2, %d]", nv, SB_ONLINE_MAXM);
	if (g->T > SB_ONLINE_EXHAUST_MAXT || pow((double)nv * g->ND, g->T) > 1e9)
		return sb_err_set(err, SB_EXIT_INPUT, "field 'T': (%d levels x %d demands)^%d "
				  "instances is too many to enumerate (T <= %d, at most 1e9)",
				  nv, g->ND, g->T, SB_ONLINE_EXHAUST_MAXT);
	if ((rc = p->reset(g, NULL, o, &ctx, &s.ncomp, weight, err)))
		return rc;
	s.g = g;
	s.nv = nv;
	s.base = nv * g->ND;
	s.weight = weight;
	s.vlev = SB_NEW(double, nv);
	for (j = 0; j < nv; j++)
		s.vlev[j] = sb_online_level(g->L, g->U, nv, j);
	s.acc = SB_NEW(double, (size_t)s.ncomp * g->T * W * g->ND * nv);
	/* the decisions depend only on (comp, t, c, d): ask each once */
	for (k = 0; k < s.ncomp; k++)
		for (t = 0; t < g->T; t++)
			for (c = 0; c < g->S; c++)
				for (d = 1; d <= g->ND; d++) {
					double *ac = acc_at(&s, k, t, c, d);
					n = p->decide(ctx, g, k, t, c, d, price, prob);
					if (n < 1 || n > SB_ONLINE_MAXM) {
						rc = sb_err_set(err, SB_EXIT_RUN, "policy %s: %d prices "
								"out of range", p->name, n);
						goto out;
					}
					for (j = 0; j < nv; j++)
						for (a = 0; a < n; a++)
							if (s.vlev[j] >= price[a])
								ac[j] += prob[a];
				}
	s.rho = SB_NEW(double, (size_t)(g->T + 1) * s.ncomp * W);
	s.best = SB_NEW(double, (size_t)(g->T + 1) * W);
	s.ealg = SB_NEW(double, (size_t)g->T + 1);
	s.digit = SB_NEW(int, g->T);
	for (k = 0; k < s.ncomp; k++)
		s.rho[(size_t)k * W + (size_t)(g->S - 1)] = 1;
	s.worst = -1;
	dfs(&s, 0);
	*worst = s.worst;
	*code = s.code;
	*count = s.count;
out:
	if (p->release)
		p->release(ctx);
	sb_free(s.vlev);
	sb_free(s.acc);
	sb_free(s.rho);
	sb_free(s.best);
	sb_free(s.ealg);
	sb_free(s.digit);
	return rc;
}
