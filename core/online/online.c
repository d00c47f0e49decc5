/*
 * online.c - the online family's game, simulator (exact per-round DP and
 * sampled episodes) and offline optimum (knapsack DP; GLPK ILP and LP).
 * See online.h for the model [O, reconstructed instantiation of
 * advlearn.md §2].
 */
#include "online.h"
#include "lp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- game */

double sb_online_level(double L, double U, int n, int m)
{
	if (m <= 0)
		return L;
	if (m >= n - 1)
		return U;
	return L * pow(U / L, (double)m / (n - 1));
}

int sb_online_game_init(struct sb_online_game *g, int T, int C, int D, int M, double L,
			double U, struct sb_err *err)
{
	return sb_online_game_init_k(g, T, 1, &C, D, M, L, U, err);
}

int sb_online_game_init_k(struct sb_online_game *g, int T, int K, const int *C, int D, int M,
			  double L, double U, struct sb_err *err)
{
	int m, k, cmin;
	double S = 1, ND = 1;

	memset(g, 0, sizeof *g);
	if (T < 1 || T > SB_ONLINE_MAXT)
		return sb_err_set(err, SB_EXIT_INPUT, "field 'T': %d rounds out of range [1, %d]",
				  T, SB_ONLINE_MAXT);
	if (K < 1 || K > SB_ONLINE_MAXK)
		return sb_err_set(err, SB_EXIT_INPUT, "field 'K': %d resource types out of range "
				  "[1, %d]", K, SB_ONLINE_MAXK);
	cmin = C[0];
	for (k = 0; k < K; k++) {
		if (C[k] < 1 || C[k] > SB_ONLINE_MAXC)
			/* K = 1 names 'C'; K = 2 'C1', 'C2' (%.0d prints 0 as nothing) */
			return sb_err_set(err, SB_EXIT_INPUT, "field 'C%.0d': capacity %d out of "
					  "range [1, %d]", K == 1 ? 0 : k + 1, C[k], SB_ONLINE_MAXC);
		cmin = C[k] < cmin ? C[k] : cmin;
		S *= C[k] + 1;
		ND *= D > 0 ? D : 1;
	}
	if (K > 1 && S > SB_ONLINE_MAXS)
		return sb_err_set(err, SB_EXIT_INPUT, "field 'C2': %g capacity states (C1 + 1)"
				  "(C2 + 1) above %d", S, SB_ONLINE_MAXS);
	if (D < 1 || D > cmin)
		return sb_err_set(err, SB_EXIT_INPUT, "field 'D': largest demand %d out of range "
				  "[1, C = %d]", D, cmin);
	if (M < 2 || M > SB_ONLINE_MAXM)
		return sb_err_set(err, SB_EXIT_INPUT, "field 'M': %d price levels out of range "
				  "[2, %d]", M, SB_ONLINE_MAXM);
	if (!(L > 0) || !isfinite(L) || !(U > L) || !isfinite(U) || U / L > SB_ONLINE_MAXRATIO)
		return sb_err_set(err, SB_EXIT_INPUT, "field 'U/L': values [%g, %g] need "
				  "0 < L < U and U/L <= %g", L, U, SB_ONLINE_MAXRATIO);
	g->T = T;
	g->C = C[0];
	g->D = D;
	g->K = K;
	g->S = (int)S;
	g->ND = (int)ND;
	for (k = K - 1; k >= 0; k--) {
		g->Ck[k] = C[k];
		g->stride[k] = k == K - 1 ? 1 : g->stride[k + 1] * (C[k + 1] + 1);
		g->dpow[k] = k == K - 1 ? 1 : g->dpow[k + 1] * D;
	}
	g->M = M;
	g->L = L;
	g->U = U;
	for (m = 0; m < M; m++)
		g->price[m] = sb_online_level(L, U, M, m);
	return 0;
}

double sb_online_util_max(const struct sb_online_game *g, int s)
{
	double z = 0;
	int k;

	for (k = 0; k < g->K; k++)
		z = sb_max(z, (double)(g->Ck[k] - sb_online_left(g, s, k)) / g->Ck[k]);
	return z;
}

/* ----------------------------------------------------------- instances */

void sb_online_inst_alloc(struct sb_online_inst *in, int T)
{
	in->T = T;
	in->d = SB_NEW(int, T);
	in->v = SB_NEW(double, T);
}

void sb_online_inst_release(struct sb_online_inst *in)
{
	sb_free(in->d);
	sb_free(in->v);
	memset(in, 0, sizeof *in);
}

int sb_online_inst_check(const struct sb_online_game *g, const struct sb_online_inst *in,
			 struct sb_err *err)
{
	int t;

	if (in->T != g->T)
		return sb_err_set(err, SB_EXIT_INPUT, "field 'T': instance has %d rounds, the "
				  "game %d", in->T, g->T);
	for (t = 0; t < in->T; t++) {
		if (in->d[t] < 1 || in->d[t] > g->ND)
			return sb_err_set(err, SB_EXIT_INPUT, "round %d: field 'd': demand %s %d "
					  "out of range [1, %d]", t, g->K == 1 ? "" : "code",
					  in->d[t], g->ND);
		if (!(in->v[t] >= g->L && in->v[t] <= g->U))
			return sb_err_set(err, SB_EXIT_INPUT, "round %d: field 'v': value %g out "
					  "of range [%g, %g]", t, in->v[t], g->L, g->U);
	}
	return 0;
}

/* ------------------------------------------------------------ tabulate */

int sb_online_reset_markov(const struct sb_online_game *g, const struct sb_online_inst *in,
			   const struct sb_opts *o, void **ctx, int *ncomp, double *weight,
			   struct sb_err *err)
{
	*ctx = (void *)o;
	*ncomp = 1;
	weight[0] = 1;
	return 0;
}

void sb_online_table_release(struct sb_online_table *tb)
{
	sb_free(tb->start);
	sb_free(tb->n);
	sb_free(tb->price);
	sb_free(tb->prob);
	memset(tb, 0, sizeof *tb);
}

static size_t cell(const struct sb_online_table *tb, int k, int t, int c)
{
	return ((size_t)k * tb->T + (size_t)t) * (size_t)tb->S + (size_t)c;
}

int sb_online_tabulate(const struct sb_online_game *g, const struct sb_online_inst *in,
		       const struct sb_online_policy *p, const struct sb_opts *o,
		       struct sb_online_table *tb, struct sb_err *err)
{
	void *ctx = NULL;
	int k, t, c, rc;
	double wsum = 0;

	memset(tb, 0, sizeof *tb);
	rc = p->reset(g, p->offline ? in : NULL, o, &ctx, &tb->ncomp, tb->weight, err);
	if (rc)
		return rc;
	if (tb->ncomp < 1 || tb->ncomp > SB_ONLINE_MAXCOMP) {
		rc = sb_err_set(err, SB_EXIT_RUN, "policy %s: %d components out of range [1, %d]",
				p->name, tb->ncomp, SB_ONLINE_MAXCOMP);
		goto out;
	}
	for (k = 0; k < tb->ncomp; k++)
		wsum += tb->weight[k];
	if (fabs(wsum - 1) > 1e-9) {
		rc = sb_err_set(err, SB_EXIT_RUN, "policy %s: component weights sum to %.12g",
				p->name, wsum);
		goto out;
	}
	tb->T = g->T;
	tb->S = g->S;
	tb->start = SB_NEW(int, (size_t)tb->ncomp * g->T * g->S);
	tb->n = SB_NEW(int, (size_t)tb->ncomp * g->T * g->S);
	tb->cap = (size_t)tb->ncomp * g->T * g->S;
	tb->price = SB_NEW(double, tb->cap);
	tb->prob = SB_NEW(double, tb->cap);
	for (k = 0; k < tb->ncomp; k++)
		for (t = 0; t < g->T; t++)
			for (c = 0; c < g->S; c++) {
				size_t i = cell(tb, k, t, c);
				int n;
				if (tb->len + SB_ONLINE_MAXM > tb->cap) {
					tb->cap = 2 * tb->cap + SB_ONLINE_MAXM;
					tb->price = sb_xrealloc(tb->price, tb->cap * sizeof *tb->price);
					tb->prob = sb_xrealloc(tb->prob, tb->cap * sizeof *tb->prob);
				}
				n = p->decide(ctx, g, k, t, c, in->d[t], tb->price + tb->len,
					      tb->prob + tb->len);
				if (n < 1 || n > SB_ONLINE_MAXM) {
					rc = sb_err_set(err, SB_EXIT_RUN, "policy %s: round %d, "
							"capacity %d: %d prices out of range [1, %d]",
							p->name, t, c, n, SB_ONLINE_MAXM);
					goto out;
				}
				tb->start[i] = (int)tb->len;
				tb->n[i] = n;
				tb->len += (size_t)n;
			}
out:
	if (p->release)
		p->release(ctx);
	if (rc)
		sb_online_table_release(tb);
	return rc;
}

/* -------------------------------------------------------- DP, episodes */

double sb_online_expect(const struct sb_online_game *g, const struct sb_online_inst *in,
			const struct sb_online_table *tb)
{
	double *V = SB_NEW(double, g->S), *W = SB_NEW(double, g->S), e = 0;
	int k, t, c;

	for (k = 0; k < tb->ncomp; k++) {
		memset(V, 0, (size_t)g->S * sizeof *V);
		for (t = g->T - 1; t >= 0; t--) {
			int d = in->d[t], off = sb_online_off(g, d);
			double v = in->v[t], gain = v * sb_online_size(g, d);
			for (c = 0; c < g->S; c++) {
				size_t i = cell(tb, k, t, c);
				const double *pr = tb->price + tb->start[i], *pb = tb->prob + tb->start[i];
				double acc = 0;
				int a;
				if (sb_online_fits(g, c, d))
					for (a = 0; a < tb->n[i]; a++)
						if (v >= pr[a])
							acc += pb[a];
				/* accepted with probability acc, else nothing changes */
				W[c] = acc > 0 ? acc * (gain + V[c - off]) + (1 - acc) * V[c] : V[c];
			}
			memcpy(V, W, (size_t)g->S * sizeof *V);
		}
		e += tb->weight[k] * V[g->S - 1];
	}
	sb_free(V);
	sb_free(W);
	return e;
}

static int draw(struct sb_rng *rng, const double *prob, int n)
{
	double u = sb_rng_uniform(rng), s = 0;
	int a;

	for (a = 0; a < n - 1; a++) {
		s += prob[a];
		if (u < s)
			return a;
	}
	return n - 1;
}

double sb_online_sample(const struct sb_online_game *g, const struct sb_online_inst *in,
			const struct sb_online_table *tb, struct sb_rng *rng, double *price,
			unsigned char *x, int *comp)
{
	int k = tb->ncomp > 1 ? draw(rng, tb->weight, tb->ncomp) : 0, t, c = g->S - 1;
	double w = 0;

	for (t = 0; t < g->T; t++) {
		size_t i = cell(tb, k, t, c);
		int n = tb->n[i], a = n > 1 ? draw(rng, tb->prob + tb->start[i], n) : 0;
		price[t] = tb->price[tb->start[i] + a];
		x[t] = sb_online_fits(g, c, in->d[t]) && in->v[t] >= price[t];
		if (x[t]) {
			c -= sb_online_off(g, in->d[t]);
			w += in->v[t] * sb_online_size(g, in->d[t]);
		}
	}
	*comp = k;
	return w;
}

void sb_online_result_release(struct sb_online_result *r)
{
	sb_free(r->price);
	sb_free(r->x);
	memset(r, 0, sizeof *r);
}

int sb_online_run(const struct sb_online_game *g, const struct sb_online_inst *in,
		  const struct sb_online_policy *p, const struct sb_opts *o, struct sb_rng *rng,
		  struct sb_online_result *r, struct sb_err *err)
{
	struct sb_online_table tb;
	char why[256];
	int rc;

	memset(r, 0, sizeof *r);
	if ((rc = sb_online_inst_check(g, in, err)))
		return rc;
	if ((rc = sb_online_tabulate(g, in, p, o, &tb, err)))
		return rc;
	r->T = g->T;
	r->price = SB_NEW(double, g->T);
	r->x = SB_NEW(unsigned char, g->T);
	r->ealg = sb_online_expect(g, in, &tb);
	r->welfare = sb_online_sample(g, in, &tb, rng, r->price, r->x, &r->comp);
	if (sb_online_check_expect(g, in, &tb, r->ealg, why, sizeof why) ||
	    sb_online_check_episode(g, in, r->price, r->x, r->welfare, why, sizeof why)) {
		sb_online_result_release(r);
		rc = sb_err_set(err, SB_EXIT_RUN, "policy %s: checker rejects the run: %s",
				p->name, why);
	}
	sb_online_table_release(&tb);
	return rc;
}

/* --------------------------------------------------------------- optimum */

double sb_online_opt(const struct sb_online_game *g, const struct sb_online_inst *in,
		     unsigned char *take)
{
	int S = g->S, T = in->T, t, c;
	/* best[t][c]: the best welfare of buyers 0..t-1 within capacity state
	 * c (every type's units at most its count in c: a state index minus a
	 * fitting demand's offset is the state with those units gone); the
	 * whole table is kept only to recover the selection */
	double *best = SB_NEW(double, (size_t)(T + 1) * S), opt;

	for (t = 0; t < T; t++) {
		const double *b = best + (size_t)t * S;
		double *nb = best + (size_t)(t + 1) * S;
		double gain = in->v[t] * sb_online_size(g, in->d[t]);
		int off = sb_online_off(g, in->d[t]);
		for (c = 0; c < S; c++) {
			nb[c] = b[c];
			if (sb_online_fits(g, c, in->d[t]) && b[c - off] + gain > nb[c])
				nb[c] = b[c - off] + gain;
		}
	}
	opt = best[(size_t)T * S + (size_t)(S - 1)];
	if (take) {
		c = S - 1;
		for (t = T - 1; t >= 0; t--) {
			take[t] = best[(size_t)(t + 1) * S + c] != best[(size_t)t * S + c];
			if (take[t])
				c -= sb_online_off(g, in->d[t]);
		}
	}
	sb_free(best);
	return opt;
}

int sb_online_opt_glpk(const struct sb_online_game *g, const struct sb_online_inst *in,
		       double *ilp, double *lp, struct sb_err *err)
{
	struct sb_lp *m = sb_lp_new("knapsack", 0);
	struct sb_lp_params prm = { 0 };
	struct sb_lp_result res = { 0 };
	int *cols = SB_NEW(int, in->T), t, rc = 0, pass, k;
	double *w = SB_NEW(double, in->T);

	for (t = 0; t < in->T; t++)
		cols[t] = sb_lp_add_col(m, NULL, SB_LP_BIN, 0, 1,
					in->v[t] * sb_online_size(g, in->d[t]));
	/* one row per type: sum_t d_{t,k} x_t <= C_k */
	for (k = 0; k < g->K; k++) {
		for (t = 0; t < in->T; t++)
			w[t] = sb_online_dem(g, in->d[t], k);
		sb_lp_add_row(m, k ? "capacity2" : "capacity", -SB_LP_INF, g->Ck[k], in->T, cols,
			      w);
	}
	prm.node_limit = 200000;
	sb_lp_set_params(m, &prm);
	for (pass = 0; pass < 2 && !rc; pass++) {
		/* the time limit is only a safety net; the node limit decides */
		rc = sb_lp_solve(m, pass == 1, 600, 0, &res, err);
		if (!rc && res.status != SB_LP_OPTIMAL)
			rc = sb_err_set(err, SB_EXIT_RUN, "knapsack %s: GLPK status %s (stopped: %s)",
					pass ? "LP" : "ILP", sb_lp_status_name(res.status),
					sb_lp_stop_name(res.stopped));
		if (!rc)
			*(pass ? lp : ilp) = res.obj;
		sb_lp_result_release(&res);
	}
	sb_lp_free(m);
	sb_free(cols);
	sb_free(w);
	return rc;
}

/* ------------------------------------------------- threshold functions */

double sb_online_psi(const struct sb_online_game *g, double z)
{
	double a = 1 + log(g->U / g->L);

	if (z <= 1 / a)
		return g->L;
	return g->L / M_E * exp(a * z);
}

double sb_online_psi_mean(const struct sb_online_game *g, double z0, double z1)
{
	double a = 1 + log(g->U / g->L), cs = 1 / a, s = 0;

	if (z1 <= z0)
		return sb_online_psi(g, z0);
	if (z0 < cs)
		s += g->L * (sb_min(z1, cs) - z0);
	if (z1 > cs) {
		double lo = sb_max(z0, cs);
		s += g->L / M_E * (exp(a * z1) - exp(a * lo)) / a;
	}
	return s / (z1 - z0);
}

double sb_online_round_up(const struct sb_online_game *g, double p)
{
	int m;

	for (m = 0; m < g->M; m++)
		if (g->price[m] >= p * (1 - 1e-12))
			return g->price[m];
	return g->price[g->M - 1];
}
