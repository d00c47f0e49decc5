/*
 * test_nn_graph.c - the graph pieces of the NN kernel (core/nn.c: CSR
 * mean and max aggregation, the [mean || max] readout, one GNN round) and
 * the generic RL pieces (core/rl.c): backpropagated gradients against
 * Richardson central differences (relative error <= 1e-6), GAE against a
 * direct sum, the PPO clip, masked entropy gradients with exact zeros on
 * masked actions, tree-to-CSR conversion and its bad inputs.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "nn.h"
#include "rl.h"
#include "rng.h"
#include "sb.h"

#define FD_H 1e-4
#define FD_TOL 1e-6

static double relerr(double a, double b)
{
	double d = fabs(a - b), s = fmax(fabs(a), fabs(b));
	return s < 1e-7 ? d / 1e-7 : d / s;
}

static double urand(struct sb_rng *r) { return 2 * sb_rng_uniform(r) - 1; }

/* ------------------------------------------------------------- CSR */

Test(nn_graph, csr_from_parents_order_and_errors)
{
	/* 0 is the root; 1, 2 its children; 3 child of 1 */
	int parent[] = { -1, 0, 0, 1 }, *ptr, *idx;
	int want_ptr[] = { 0, 2, 4, 5, 6 }, want_idx[] = { 1, 2, 0, 3, 0, 1 };
	int cyc[] = { 1, 2, 0 }, bad[] = { -1, 7 }, self[] = { 0 };
	struct sb_err err;

	cr_assert_eq(sb_nn_csr_from_parents(parent, 4, &ptr, &idx, &err), 0);
	cr_assert_eq(memcmp(ptr, want_ptr, sizeof want_ptr), 0);
	cr_assert_eq(memcmp(idx, want_idx, sizeof want_idx), 0);
	sb_free(ptr);
	sb_free(idx);
	cr_assert_eq(sb_nn_csr_from_parents(cyc, 3, &ptr, &idx, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "cycle"), "%s", err.msg);
	cr_assert_null(ptr);
	cr_assert_eq(sb_nn_csr_from_parents(bad, 2, &ptr, &idx, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "node 1"), "%s", err.msg);
	cr_assert_eq(sb_nn_csr_from_parents(self, 1, &ptr, &idx, &err), SB_EXIT_INPUT);
}

Test(nn_graph, mean_max_values)
{
	int ptr[] = { 0, 2, 2, 5 }, idx[] = { 0, 1, 2, 1, 0 }, arg[6];
	double h[] = { 1, -4, 3, 2, 5, 2 }, m[6], x[6], ro[12];

	sb_nn_csr_mean(ptr, idx, 3, h, 2, m);
	cr_assert_float_eq(m[0], 2.0, 1e-15);
	cr_assert_float_eq(m[1], -1.0, 1e-15);
	cr_assert_eq(m[2], 0.0);
	cr_assert_eq(m[3], 0.0);
	cr_assert_float_eq(m[4], 3.0, 1e-15);
	cr_assert_float_eq(m[5], 0.0, 1e-15);
	sb_nn_csr_max(ptr, idx, 3, h, 2, x, arg);
	cr_assert_eq(x[0], 3.0);
	cr_assert_eq(x[1], 2.0);
	cr_assert_eq(arg[2], -1);
	cr_assert_eq(x[4], 5.0);
	cr_assert_eq(arg[4], 2);
	cr_assert_eq(x[5], 2.0);
	cr_assert_eq(arg[5], 2, "ties go to the first maximal row in list order");
	sb_nn_readout(ptr, idx, 3, h, 2, ro, arg);
	cr_assert_eq(ro[0], m[0]);
	cr_assert_eq(ro[2], x[0]);
	cr_assert_eq(ro[11], x[5]);
}

/* ---------------------------------------- two GNN rounds and a readout */

struct gcase {
	int n, d0, d1, d2, ngroups;
	int *ptr, *idx, *gptr, *gidx;
	struct sb_gnn *l1, *l2;
	double *h0, *c;
	int *arg;
};

/* L = sum c * readout(gnn2(gnn1(h0))) */
static double gloss(struct gcase *g, double *dh0)
{
	const double *h1, *h2;
	double *ro = sb_xcalloc((size_t)g->ngroups * 2 * g->d2, sizeof *ro), L = 0;
	size_t i, n = (size_t)g->ngroups * 2 * g->d2;
	double *h1c;

	h1 = sb_gnn_forward(g->l1, g->ptr, g->idx, g->n, g->h0);
	h1c = sb_xcalloc((size_t)g->n * g->d1, sizeof *h1c);
	memcpy(h1c, h1, (size_t)g->n * g->d1 * sizeof *h1c);
	h2 = sb_gnn_forward(g->l2, g->ptr, g->idx, g->n, h1c);
	sb_nn_readout(g->gptr, g->gidx, g->ngroups, h2, g->d2, ro, g->arg);
	for (i = 0; i < n; i++)
		L += g->c[i] * ro[i];
	if (dh0) {
		double *dh2 = sb_xcalloc((size_t)g->n * g->d2, sizeof *dh2);
		double *dh1 = sb_xcalloc((size_t)g->n * g->d1, sizeof *dh1);
		sb_nn_zero_grad(g->l1->lin);
		sb_nn_zero_grad(g->l2->lin);
		sb_nn_readout_backward(g->gptr, g->gidx, g->arg, g->ngroups, g->c, g->d2, dh2);
		sb_gnn_backward(g->l2, dh2, dh1);
		memset(dh0, 0, (size_t)g->n * g->d0 * sizeof *dh0);
		sb_gnn_backward(g->l1, dh1, dh0);
		sb_free(dh2);
		sb_free(dh1);
	}
	sb_free(h1c);
	sb_free(ro);
	return L;
}

/* activation pattern and max winners: a difference across either is not
 * a derivative */
static uint64_t gpattern(const struct gcase *g)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < (size_t)g->n * g->d1; i++)
		h = (h ^ (uint64_t)(g->l1->lin->a[1][i] > 0)) * 1099511628211ULL;
	for (i = 0; i < (size_t)g->n * g->d2; i++)
		h = (h ^ (uint64_t)(g->l2->lin->a[1][i] > 0)) * 1099511628211ULL;
	for (i = 0; i < (size_t)g->ngroups * g->d2; i++)
		h = (h ^ (uint64_t)(g->arg[i] + 1)) * 1099511628211ULL;
	return h;
}

static int gfd(struct gcase *g, double *v, uint64_t pat, double *out)
{
	static const double step[4] = { FD_H, -FD_H, 2 * FD_H, -2 * FD_H };
	double v0 = *v, f[4];
	int s, ok = 1;

	for (s = 0; s < 4; s++) {
		*v = v0 + step[s];
		f[s] = gloss(g, NULL);
		ok &= gpattern(g) == pat;
	}
	*v = v0;
	*out = (8 * (f[0] - f[1]) - (f[2] - f[3])) / (12 * FD_H);
	return ok;
}

Test(nn_graph, gnn_rounds_and_readout_match_finite_differences)
{
	struct sb_rng r = sb_rng_stream(17, 0, 0, SB_RNG_TEST);
	int trial;

	for (trial = 0; trial < 12; trial++) {
		struct gcase g;
		struct sb_err err;
		int *parent, v, checked = 0, skipped = 0, k;
		struct sb_nn *nets[2];
		double *dh0, *gw[2];
		uint64_t pat;
		size_t j;

		memset(&g, 0, sizeof g);
		g.n = 3 + (int)sb_rng_below(&r, 10);
		g.d0 = 1 + (int)sb_rng_below(&r, 5);
		g.d1 = 1 + (int)sb_rng_below(&r, 5);
		g.d2 = 1 + (int)sb_rng_below(&r, 4);
		/* a random forest (some trials have several roots) */
		parent = sb_xcalloc((size_t)g.n, sizeof *parent);
		for (v = 0; v < g.n; v++)
			parent[v] = v == 0 || sb_rng_bernoulli(&r, 0.1) ? -1 : (int)sb_rng_below(&r, (uint64_t)v);
		cr_assert_eq(sb_nn_csr_from_parents(parent, g.n, &g.ptr, &g.idx, &err), 0);
		/* two readout groups: even and odd nodes */
		g.ngroups = 2;
		g.gptr = sb_xcalloc(3, sizeof *g.gptr);
		g.gidx = sb_xcalloc((size_t)g.n, sizeof *g.gidx);
		for (k = 0, v = 0; v < g.n; v += 2)
			g.gidx[k++] = v;
		g.gptr[1] = k;
		for (v = 1; v < g.n; v += 2)
			g.gidx[k++] = v;
		g.gptr[2] = k;
		g.l1 = sb_gnn_new(g.d0, g.d1, &err);
		g.l2 = sb_gnn_new(g.d1, g.d2, &err);
		cr_assert(g.l1 && g.l2);
		sb_gnn_init(g.l1, &r);
		sb_gnn_init(g.l2, &r);
		nets[0] = g.l1->lin;
		nets[1] = g.l2->lin;
		for (k = 0; k < 2; k++)
			for (j = 0; j < nets[k]->nparams; j++)
				nets[k]->w[j] += 0.2 * sb_rng_uniform(&r) - 0.1;
		g.h0 = sb_xcalloc((size_t)g.n * g.d0, sizeof *g.h0);
		g.c = sb_xcalloc((size_t)2 * 2 * g.d2, sizeof *g.c);
		g.arg = sb_xcalloc((size_t)2 * g.d2, sizeof *g.arg);
		for (j = 0; j < (size_t)g.n * g.d0; j++)
			g.h0[j] = urand(&r);
		for (j = 0; j < (size_t)4 * g.d2; j++)
			g.c[j] = urand(&r);
		dh0 = sb_xcalloc((size_t)g.n * g.d0, sizeof *dh0);
		gloss(&g, dh0);
		pat = gpattern(&g);
		for (k = 0; k < 2; k++) {
			gw[k] = sb_xcalloc(nets[k]->nparams, sizeof *gw[k]);
			memcpy(gw[k], nets[k]->g, nets[k]->nparams * sizeof *gw[k]);
		}
		for (k = 0; k < 2; k++)
			for (j = 0; j < nets[k]->nparams; j++) {
				double num;
				if (!gfd(&g, &nets[k]->w[j], pat, &num)) {
					skipped++;
					continue;
				}
				cr_assert_leq(relerr(gw[k][j], num), FD_TOL,
					      "trial %d layer %d param %zu: %.12g vs fd %.12g",
					      trial, k, j, gw[k][j], num);
				checked++;
			}
		for (j = 0; j < (size_t)g.n * g.d0; j++) {
			double num;
			if (!gfd(&g, &g.h0[j], pat, &num))
				continue;
			cr_assert_leq(relerr(dh0[j], num), FD_TOL, "trial %d input %zu: %.12g vs %.12g",
				      trial, j, dh0[j], num);
		}
		cr_assert_gt(checked, 0);
		cr_assert_leq(skipped, checked / 10 + 1, "trial %d: %d skipped, %d checked", trial,
			      skipped, checked);
		for (k = 0; k < 2; k++)
			sb_free(gw[k]);
		sb_free(dh0);
		sb_free(g.h0);
		sb_free(g.c);
		sb_free(g.arg);
		sb_free(g.ptr);
		sb_free(g.idx);
		sb_free(g.gptr);
		sb_free(g.gidx);
		sb_free(parent);
		sb_gnn_free(g.l1);
		sb_gnn_free(g.l2);
	}
}

Test(nn_graph, gnn_weights_are_size_independent)
{
	/* one layer, the same weights, on a 3-node path and on a 6-node
	 * graph made of two copies of it: the copies' outputs equal the
	 * small graph's, bit for bit */
	int p3[] = { -1, 0, 1 }, p6[] = { -1, 0, 1, -1, 3, 4 };
	int *a, *ai, *b, *bi;
	double h3[6] = { 0.3, -1, 2, 0.5, -0.2, 0.1 }, h6[12], o3[9];
	struct sb_err err;
	struct sb_gnn *l = sb_gnn_new(2, 3, &err);
	struct sb_rng r = sb_rng_stream(3, 0, 0, SB_RNG_TEST);
	const double *o;

	sb_gnn_init(l, &r);
	cr_assert_eq(sb_nn_csr_from_parents(p3, 3, &a, &ai, &err), 0);
	cr_assert_eq(sb_nn_csr_from_parents(p6, 6, &b, &bi, &err), 0);
	memcpy(h6, h3, sizeof h3);
	memcpy(h6 + 6, h3, sizeof h3);
	o = sb_gnn_forward(l, a, ai, 3, h3);
	memcpy(o3, o, sizeof o3);
	o = sb_gnn_forward(l, b, bi, 6, h6);
	cr_assert_eq(memcmp(o, o3, 9 * sizeof *o), 0);
	cr_assert_eq(memcmp(o + 9, o3, 9 * sizeof *o), 0);
	sb_free(a);
	sb_free(ai);
	sb_free(b);
	sb_free(bi);
	sb_gnn_free(l);
}

Test(nn_graph, clip_grads_uses_one_global_norm)
{
	int size[] = { 1, 1 };
	enum sb_nn_act act[] = { SB_NN_LINEAR };
	struct sb_err err;
	struct sb_nn *a = sb_nn_new(1, size, act, &err), *b = sb_nn_new(1, size, act, &err);
	struct sb_nn *both[2];

	both[0] = a;
	both[1] = b;
	a->g[0] = 3;
	a->g[1] = 0;
	b->g[0] = 0;
	b->g[1] = 4;
	cr_assert_float_eq(sb_nn_clip_grads(both, 2, 1.0), 5.0, 1e-15);
	cr_assert_float_eq(a->g[0], 0.6, 1e-15);
	cr_assert_float_eq(b->g[1], 0.8, 1e-15);
	sb_nn_free(a);
	sb_nn_free(b);
}

/* ------------------------------------------------------------------ RL */

Test(rl, gae_matches_direct_sum)
{
	double r[5] = { 1, -0.5, 2, 0.25, -1 }, v[5] = { 0.3, -0.2, 1.1, 0.4, 0.05 };
	double adv[5], ret[5], gamma = 0.97, lambda = 0.95;
	int t, k;

	sb_rl_gae(r, v, 5, gamma, lambda, adv, ret);
	for (t = 0; t < 5; t++) {
		double s = 0, w = 1;
		for (k = t; k < 5; k++) {
			double delta = r[k] + gamma * (k + 1 < 5 ? v[k + 1] : 0) - v[k];
			s += w * delta;
			w *= gamma * lambda;
		}
		cr_assert_float_eq(adv[t], s, 1e-12, "t=%d", t);
		cr_assert_float_eq(ret[t], s + v[t], 1e-12);
	}
	/* lambda = gamma = 1: the return is the reward-to-go, whatever v */
	sb_rl_gae(r, v, 5, 1, 1, adv, ret);
	cr_assert_float_eq(ret[0], 1.75, 1e-12);
	cr_assert_float_eq(ret[4], -1.0, 1e-12);
}

Test(rl, normalise)
{
	double x[4] = { 1, 2, 3, 4 }, c[3] = { 5, 5, 5 };

	sb_rl_normalise(x, 4);
	cr_assert_float_eq(x[0] + x[1] + x[2] + x[3], 0.0, 1e-12);
	cr_assert_float_eq(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3], 4.0, 1e-12);
	sb_rl_normalise(c, 3);
	cr_assert_eq(c[0], 0.0);
	cr_assert_eq(c[2], 0.0);
}

/* L(z) = dlogp * log p_a + dent * H(p), p = masked softmax(z) */
static double pol_obj(const double *z, const unsigned char *m, int k, int a, double dlogp,
		      double dent)
{
	double p[8];
	sb_nn_softmax(z, p, 1, k, m);
	return dlogp * log(p[a]) + dent * sb_rl_entropy(p, k);
}

Test(rl, masked_logits_gradient)
{
	struct sb_rng r = sb_rng_stream(5, 0, 0, SB_RNG_TEST);
	int trial;

	for (trial = 0; trial < 30; trial++) {
		int k = 2 + (int)sb_rng_below(&r, 6), a, j;
		unsigned char m[8];
		double z[8], p[8], dz[8], dlogp = urand(&r), dent = urand(&r);

		for (j = 0; j < k; j++) {
			z[j] = 3 * urand(&r);
			m[j] = sb_rng_bernoulli(&r, 0.6);
		}
		a = (int)sb_rng_below(&r, (uint64_t)k);
		m[a] = 1;
		sb_nn_softmax(z, p, 1, k, m);
		sb_rl_logits_grad(p, k, a, dlogp, dent, dz);
		for (j = 0; j < k; j++) {
			double zp[8], zm[8], zp2[8], zm2[8], num;
			if (!m[j]) {
				cr_assert_eq(p[j], 0.0, "a masked action has probability %g", p[j]);
				cr_assert_eq(dz[j], 0.0);
				continue;
			}
			memcpy(zp, z, sizeof z);
			memcpy(zm, z, sizeof z);
			memcpy(zp2, z, sizeof z);
			memcpy(zm2, z, sizeof z);
			zp[j] += FD_H;
			zm[j] -= FD_H;
			zp2[j] += 2 * FD_H;
			zm2[j] -= 2 * FD_H;
			num = (8 * (pol_obj(zp, m, k, a, dlogp, dent) - pol_obj(zm, m, k, a, dlogp, dent)) -
			       (pol_obj(zp2, m, k, a, dlogp, dent) - pol_obj(zm2, m, k, a, dlogp, dent))) /
			      (12 * FD_H);
			cr_assert_leq(relerr(dz[j], num), FD_TOL, "trial %d logit %d: %.12g vs %.12g",
				      trial, j, dz[j], num);
		}
	}
}

Test(rl, ppo_clip_and_pg)
{
	double d, L;

	/* inside the clip range: the surrogate is rho A with gradient rho A */
	L = sb_rl_ppo_loss(log(1.1), 0, 2.0, 0.2, &d);
	cr_assert_float_eq(L, -2.2, 1e-12);
	cr_assert_float_eq(d, -2.2, 1e-12);
	/* positive advantage, ratio past 1 + eps: clipped, no gradient */
	L = sb_rl_ppo_loss(log(1.5), 0, 2.0, 0.2, &d);
	cr_assert_float_eq(L, -2.4, 1e-12);
	cr_assert_eq(d, 0.0);
	/* negative advantage, ratio below 1 - eps: clipped */
	L = sb_rl_ppo_loss(log(0.5), 0, -1.0, 0.2, &d);
	cr_assert_float_eq(L, 0.8, 1e-12);
	cr_assert_eq(d, 0.0);
	/* negative advantage, ratio above 1 + eps: the unclipped (worse)
	 * branch is the minimum and keeps its gradient */
	L = sb_rl_ppo_loss(log(1.5), 0, -1.0, 0.2, &d);
	cr_assert_float_eq(L, 1.5, 1e-12);
	cr_assert_float_eq(d, 1.5, 1e-12);
	L = sb_rl_pg_loss(-0.5, 3.0, &d);
	cr_assert_float_eq(L, 1.5, 1e-12);
	cr_assert_eq(d, -3.0);
	L = sb_rl_value_loss(2.0, 0.5, &d);
	cr_assert_float_eq(L, 1.125, 1e-12);
	cr_assert_float_eq(d, 1.5, 1e-12);
	cr_assert_float_eq(sb_rl_linear(0.01, 0.001, 0.5), 0.0055, 1e-15);
	cr_assert_eq(sb_rl_linear(0.5, 0.9, 2), 0.9);
}
