/*
 * test_marl_net.c - the marl placer's networks (algorithms/marl/net.c):
 * gradients of the actor, defer head, critic and both GNN levels against
 * Richardson central differences, for the GNN and the flat ablation and
 * with independent critics; masked anchors get exactly zero probability;
 * the same weights run on T1, T2 and T3 and are equivariant to swapping
 * two servers of one rack; bad topology trees are errors.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "algorithms/marl/net.h"
#include "rng.h"
#include "sb.h"

#define FD_H 1e-4
#define FD_TOL 1e-6

/* Relative error, absolute below 1e-4: the loss sums O(10) terms of
 * order 1 through ~10 layers, so the differences carry rounding noise of
 * about 1e-16 / FD_H = 1e-12, which is 1e-6 of a 1e-6 gradient. */
static double relerr(double a, double b)
{
	double d = fabs(a - b), s = fmax(fabs(a), fabs(b));
	return d / fmax(s, 1e-4);
}

static double urand(struct sb_rng *r) { return 2 * sb_rng_uniform(r) - 1; }

/* a random observation of graph gr; owner: the caller (free_obs) */
struct tobs {
	struct sb_marl_obs o;
	double *gpu, *free, job[SB_MARL_JF], crit[SB_MARL_CF];
	unsigned char *mask;
};

static void rand_obs(struct tobs *t, const struct sb_marl_graph *gr, struct sb_rng *r, int agent)
{
	int S = gr->nserv, i;

	t->gpu = SB_NEW(double, (size_t)S * gr->ngpu * SB_MARL_GF);
	t->free = SB_NEW(double, S);
	t->mask = SB_NEW(unsigned char, S + 1);
	for (i = 0; i < S * gr->ngpu * SB_MARL_GF; i++)
		t->gpu[i] = sb_rng_uniform(r);
	for (i = 0; i < S; i++) {
		t->free[i] = sb_rng_uniform(r);
		t->mask[i] = sb_rng_bernoulli(r, 0.7);
	}
	t->mask[0] = 1;
	t->mask[S] = 1;
	for (i = 0; i < SB_MARL_JF; i++)
		t->job[i] = sb_rng_uniform(r);
	for (i = 0; i < SB_MARL_CF; i++)
		t->crit[i] = sb_rng_uniform(r);
	t->o.gpu = t->gpu;
	t->o.free = t->free;
	t->o.job = t->job;
	t->o.crit = t->crit;
	t->o.mask = t->mask;
	t->o.agent = agent;
}

static void free_obs(struct tobs *t)
{
	sb_free(t->gpu);
	sb_free(t->free);
	sb_free(t->mask);
}

/* L = <c, p> + cv * v: every head and the encoder are on the path */
static double loss(struct sb_marl_net *n, const struct sb_marl_graph *gr,
		   const struct sb_marl_obs *o, const double *c, double cv, int grad)
{
	double v, L = 0, *dz;
	const double *p = sb_marl_forward(n, gr, o, &v);
	int j, k = gr->nserv + 1;

	for (j = 0; j < k; j++)
		L += c[j] * p[j];
	L += cv * v;
	if (grad) {
		dz = SB_NEW(double, k);
		sb_nn_softmax_backward(p, c, dz, 1, k);
		sb_marl_net_zero_grad(n);
		sb_marl_backward(n, dz, cv);
		sb_free(dz);
	}
	return L;
}

/* ReLU activation pattern of every net and the readout's winners */
static uint64_t pattern(const struct sb_marl_net *n)
{
	uint64_t h = 1469598103934665603ULL;
	const struct sb_marl_graph *gr = n->gr;
	int k, l;
	size_t i;

	for (k = 0; k < n->npol + n->nval; k++) {
		const struct sb_nn *nn = k < n->npol ? n->pol[k] : n->val[k - n->npol];
		for (l = 0; l < nn->nlayers; l++)
			if (nn->act[l] == SB_NN_RELU)
				for (i = 0; i < (size_t)nn->rows * nn->size[l + 1]; i++)
					h = (h ^ (uint64_t)(nn->a[l + 1][i] > 0)) * 1099511628211ULL;
	}
	if (n->arch == SB_MARL_ARCH_GNN)
		for (i = 0; i < (size_t)gr->nserv * SB_MARL_H1; i++)
			h = (h ^ (uint64_t)(n->arg[i] + 1)) * 1099511628211ULL;
	return h;
}

static void grad_check(enum sb_marl_arch arch, int ncritic, int agent, uint64_t seed)
{
	struct sb_marl_graph gr;
	struct sb_err err;
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_TEST);
	struct sb_marl_net *n;
	struct tobs t;
	double *c, cv = 0.7, *g;
	int k, checked = 0, skipped = 0, per_net[16] = { 0 };
	uint64_t pat;
	size_t j, np, base;

	/* a small T1-shaped cluster: 2 pods x 1 rack x 2 servers of 4 GPUs */
	cr_assert_eq(sb_marl_graph_regular(&gr, 2, 1, 2, 2, 1, 2, &err), 0, "%s", err.msg);
	n = sb_marl_net_new(arch, ncritic, gr.nserv, &err);
	cr_assert_not_null(n, "%s", err.msg);
	sb_marl_net_init(n, &r);
	/* random biases: zero ones put units whose inputs are zero on a kink */
	np = sb_marl_net_nparams(n);
	g = SB_NEW(double, np);
	sb_marl_net_get(n, g);
	for (j = 0; j < np; j++)
		g[j] += 0.1 * urand(&r);
	sb_marl_net_set(n, g);
	rand_obs(&t, &gr, &r, agent);
	c = SB_NEW(double, gr.nserv + 1);
	for (k = 0; k <= gr.nserv; k++)
		c[k] = urand(&r);
	loss(n, &gr, &t.o, c, cv, 1);
	pat = pattern(n);
	base = 0;
	for (k = 0; k < n->npol + n->nval; k++) {
		struct sb_nn *nn = k < n->npol ? n->pol[k] : n->val[k - n->npol];
		double *gk = SB_NEW(double, nn->nparams);
		/* every parameter of the small nets, a seeded sample of the
		 * large ones (the flat encoder has ~10^4) */
		size_t stride = nn->nparams > 1500 ? nn->nparams / 1500 : 1;
		memcpy(gk, nn->g, nn->nparams * sizeof *gk);
		for (j = (size_t)sb_rng_below(&r, stride); j < nn->nparams; j += stride) {
			static const double step[4] = { FD_H, -FD_H, 2 * FD_H, -2 * FD_H };
			double w0 = nn->w[j], f[4], num;
			int s, ok = 1;
			for (s = 0; s < 4; s++) {
				nn->w[j] = w0 + step[s];
				f[s] = loss(n, &gr, &t.o, c, cv, 0);
				ok &= pattern(n) == pat;
			}
			nn->w[j] = w0;
			if (!ok) {
				skipped++;
				continue;
			}
			num = (8 * (f[0] - f[1]) - (f[2] - f[3])) / (12 * FD_H);
			cr_assert_leq(relerr(gk[j], num), FD_TOL,
				      "net %d param %zu: backprop %.12g, fd %.12g", k, j, gk[j], num);
			checked++;
			per_net[k]++;
		}
		base += nn->nparams;
		sb_free(gk);
	}
	for (k = 0; k < n->npol + n->nval; k++)
		cr_assert_gt(per_net[k], 0, "net %d: no parameter checked", k);
	cr_assert_leq(skipped, checked / 20, "%d parameters on a kink, %d checked", skipped,
		      checked);
	/* the parameter vector round-trips */
	sb_marl_net_get(n, g);
	cr_assert_eq(base, np);
	sb_free(g);
	sb_free(c);
	free_obs(&t);
	sb_marl_net_free(n);
	sb_marl_graph_release(&gr);
}

Test(marl_net, gnn_actor_critic_gradients, .timeout = 120)
{
	grad_check(SB_MARL_ARCH_GNN, 1, 1, 1);
}

Test(marl_net, independent_critics_gradients, .timeout = 120)
{
	grad_check(SB_MARL_ARCH_GNN, SB_MARL_MAXAG, 3, 2);
}

Test(marl_net, flat_ablation_gradients, .timeout = 120)
{
	grad_check(SB_MARL_ARCH_FLAT, 1, 0, 3);
}

Test(marl_net, masked_anchors_have_zero_probability)
{
	struct sb_marl_graph gr;
	struct sb_err err;
	struct sb_rng r = sb_rng_stream(9, 0, 0, SB_RNG_TEST);
	struct sb_marl_net *n;
	struct tobs t;
	const double *p;
	double s = 0;
	int j;

	cr_assert_eq(sb_marl_graph_regular(&gr, 2, 2, 4, 2, 1, 2, &err), 0);
	n = sb_marl_net_new(SB_MARL_ARCH_GNN, 1, gr.nserv, &err);
	sb_marl_net_init(n, &r);
	rand_obs(&t, &gr, &r, 0);
	p = sb_marl_forward(n, &gr, &t.o, NULL);
	for (j = 0; j <= gr.nserv; j++) {
		if (!t.mask[j])
			cr_assert_eq(p[j], 0.0, "masked anchor %d has probability %g", j, p[j]);
		else
			cr_assert_gt(p[j], 0.0);
		s += p[j];
	}
	cr_assert_float_eq(s, 1.0, 1e-12);
	/* defer masked too: only anchors remain */
	t.mask[gr.nserv] = 0;
	p = sb_marl_forward(n, &gr, &t.o, NULL);
	cr_assert_eq(p[gr.nserv], 0.0);
	free_obs(&t);
	sb_marl_net_free(n);
	sb_marl_graph_release(&gr);
}

Test(marl_net, same_weights_on_t1_t2_t3)
{
	static const int shape[3][6] = {
		{ 2, 2, 4, 2, 1, 2 }, /* T1: 64 GPUs, 4-GPU servers */
		{ 1, 4, 2, 2, 2, 2 }, /* T2: 64 GPUs, 8-GPU servers */
		{ 2, 4, 4, 2, 1, 2 }, /* T3: 128 GPUs */
	};
	struct sb_err err;
	struct sb_rng r = sb_rng_stream(10, 0, 0, SB_RNG_TEST);
	struct sb_marl_net *n = sb_marl_net_new(SB_MARL_ARCH_GNN, 1, 0, &err);
	size_t np = sb_marl_net_nparams(n);
	int k, j;

	sb_marl_net_init(n, &r);
	for (k = 0; k < 3; k++) {
		struct sb_marl_graph gr;
		struct tobs t;
		const double *p;
		double s = 0, v, p1, p2, pa[64];
		int S;

		cr_assert_eq(sb_marl_graph_regular(&gr, shape[k][0], shape[k][1], shape[k][2],
						   shape[k][3], shape[k][4], shape[k][5], &err), 0);
		S = gr.nserv;
		cr_assert_eq(gr.nserv * gr.ngpu, k == 2 ? 128 : 64);
		rand_obs(&t, &gr, &r, k);
		memset(t.mask, 1, (size_t)S + 1);
		p = sb_marl_forward(n, &gr, &t.o, &v);
		for (j = 0; j <= S; j++)
			s += p[j];
		cr_assert_float_eq(s, 1.0, 1e-12, "topology T%d", k + 1);
		cr_assert(isfinite(v));
		memcpy(pa, p, (size_t)(S + 1) * sizeof *pa);
		/* swap servers 0 and 1 (same rack): their probabilities swap */
		for (j = 0; j < gr.ngpu * SB_MARL_GF; j++) {
			double x = t.gpu[j];
			t.gpu[j] = t.gpu[gr.ngpu * SB_MARL_GF + j];
			t.gpu[gr.ngpu * SB_MARL_GF + j] = x;
		}
		v = t.free[0];
		t.free[0] = t.free[1];
		t.free[1] = v;
		p = sb_marl_forward(n, &gr, &t.o, NULL);
		p1 = p[0];
		p2 = p[1];
		cr_assert_float_eq(p1, pa[1], 1e-12);
		cr_assert_float_eq(p2, pa[0], 1e-12);
		cr_assert_float_eq(p[S], pa[S], 1e-12);
		free_obs(&t);
		sb_marl_graph_release(&gr);
	}
	cr_assert_eq(sb_marl_net_nparams(n), np);
	sb_marl_net_free(n);
}

Test(marl_net, parameter_budget)
{
	struct sb_err err;
	struct sb_marl_net *n = sb_marl_net_new(SB_MARL_ARCH_GNN, 1, 0, &err);
	size_t np = sb_marl_net_nparams(n);

	/* marl.md §3: about 20k parameters */
	cr_assert(np > 15000 && np < 25000, "%zu parameters", np);
	sb_marl_net_free(n);
}

Test(marl_net, bad_trees_are_errors)
{
	struct sb_marl_graph gr;
	struct sb_err err;
	int sp_cycle[] = { 2, 2, 3, 2 };       /* 2 -> 3 -> 2 */
	int sp_gpu_parent[] = { 2, 0, -1 };    /* GPU 0 has a child */
	int sp_ok[] = { 2, 2, -1 }, dp_cycle[] = { 2, 2, 3, 2 };

	cr_assert_eq(sb_marl_graph_build(&gr, 4, 2, sp_cycle, 2, 2, dp_cycle, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "server tree"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "cycle"), "%s", err.msg);
	cr_assert_eq(sb_marl_graph_build(&gr, 3, 2, sp_gpu_parent, 2, 2, dp_cycle, &err),
		     SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "GPU node 0"), "%s", err.msg);
	cr_assert_eq(sb_marl_graph_build(&gr, 3, 2, sp_ok, 2, 2, dp_cycle, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "data-centre tree"), "%s", err.msg);
	cr_assert_eq(sb_marl_graph_regular(&gr, 0, 2, 4, 2, 1, 2, &err), SB_EXIT_INPUT);
}
