/*
 * test_marl_train.c - the marl trainer (algorithms/marl/train.c) on a
 * small contextual placement task whose best action is known: PPO and A2C
 * both lower the cost they are trained on; the same seed gives
 * bit-identical weights and training curves, another seed does not.
 *
 * The task (a test fixture, not the cluster simulator; see
 * test_marl_placer.c for training on the simulator): each decision
 * shows a cluster of 4 servers x 4 GPUs with random busy GPUs; placing on
 * a server costs its busy fraction, deferring costs 0.6, and a job that
 * needs a whole free server masks the servers with any busy GPU.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "algorithms/marl/train.h"
#include "rng.h"
#include "sb.h"

#define NS 4
#define NG 4
#define STEPS 16

struct toy {
	struct sb_marl_graph gr;
	struct sb_rng r;
	int t;
	double busy[NS];
	double gpu[NS * NG * SB_MARL_GF], free[NS], job[SB_MARL_JF], crit[SB_MARL_CF];
	unsigned char mask[NS + 1];
};

/* one decision's view: random busy GPUs, sometimes a whole-server job */
static void toy_obs(struct toy *e, struct sb_marl_obs *o)
{
	int s, g, whole = sb_rng_bernoulli(&e->r, 0.25);

	memset(e->gpu, 0, sizeof e->gpu);
	for (s = 0; s < NS; s++) {
		int nb = 0;
		for (g = 0; g < NG; g++) {
			int b = sb_rng_bernoulli(&e->r, 0.5);
			e->gpu[(s * NG + g) * SB_MARL_GF] = b;
			nb += b;
		}
		e->busy[s] = (double)nb / NG;
		e->free[s] = (double)(NG - nb) / 8;
		e->mask[s] = !whole || nb == 0;
	}
	e->mask[NS] = 1;
	memset(e->job, 0, sizeof e->job);
	e->job[8] = whole ? 0.5 : 0.125;
	memset(e->crit, 0, sizeof e->crit);
	o->gpu = e->gpu;
	o->free = e->free;
	o->job = e->job;
	o->crit = e->crit;
	o->mask = e->mask;
	o->agent = e->t % 2;
}

static int toy_episode(void *ctx, uint64_t seed, int ep, double load, struct sb_marl_agent *ag,
		       double *score, struct sb_err *err)
{
	struct toy *e = ctx;
	struct sb_marl_obs o;
	double cost = 0;

	e->r = sb_rng_stream(seed, (uint64_t)ep, 0, SB_RNG_INSTANCE);
	for (e->t = 0; e->t < STEPS; e->t++) {
		int a;
		double c;
		toy_obs(e, &o);
		a = sb_marl_decide(ag, &o);
		c = a == NS ? 0.6 : e->busy[a];
		sb_marl_reward(ag, e->t, -c);
		cost += c;
	}
	*score = cost / STEPS;
	return 0;
}

static struct sb_marl_task toy_env(struct toy *e)
{
	struct sb_err err;
	struct sb_marl_task env;

	memset(e, 0, sizeof *e);
	cr_assert_eq(sb_marl_graph_regular(&e->gr, 1, 2, 2, 2, 1, 2, &err), 0);
	env.gr = &e->gr;
	env.ctx = e;
	env.episode = toy_episode;
	return env;
}

static struct sb_marl_net *train(enum sb_marl_algo algo, int episodes, uint64_t seed,
				 struct sb_marl_curve *curve)
{
	struct toy e;
	struct sb_marl_task env = toy_env(&e);
	struct sb_marl_cfg cfg;
	struct sb_err err;
	struct sb_marl_net *n = sb_marl_net_new(SB_MARL_ARCH_GNN, 1, 0, &err);
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_POLICY);

	sb_marl_cfg_defaults(&cfg);
	cfg.algo = algo;
	cfg.episodes = episodes;
	cfg.seed = seed;
	cfg.minibatch = 32;
	if (algo == SB_MARL_A2C)
		cfg.batch = 1; /* one on-policy step per episode */
	cfg.lr_actor = 3e-3;
	cfg.lr_critic = 3e-3;
	sb_marl_net_init(n, &r);
	cr_assert_eq(sb_marl_train(n, &env, &cfg, curve, &err), 0, "%s", err.msg);
	sb_marl_graph_release(&e.gr);
	return n;
}

static double mean_score(const struct sb_marl_curve *c, int from, int to)
{
	double s = 0;
	int i;

	for (i = from; i < to; i++)
		s += c[i].score;
	return s / (to - from);
}

Test(marl_train, ppo_and_a2c_learn_the_task, .timeout = 240)
{
	static struct sb_marl_curve c[400];
	int a;

	for (a = 0; a < 2; a++) {
		int ne = a ? 400 : 160;
		struct sb_marl_net *n = train(a ? SB_MARL_A2C : SB_MARL_PPO, ne, 5, c);
		double first = mean_score(c, 0, 16), last = mean_score(c, ne - 16, ne);
		/* random placement costs about 0.5 per decision; the best
		 * feasible server about 0.2 */
		cr_log_info("%s: cost %.3f -> %.3f\n", a ? "a2c" : "ppo", first, last);
		cr_assert_lt(last, first - 0.05, "%s: cost %.3f -> %.3f", a ? "a2c" : "ppo", first,
			     last);
		cr_assert_lt(c[ne - 1].entropy, c[0].entropy);
		sb_marl_net_free(n);
	}
}

Test(marl_train, bit_identical_for_a_seed, .timeout = 120)
{
	static struct sb_marl_curve c1[24], c2[24], c3[24];
	struct sb_marl_net *a = train(SB_MARL_PPO, 24, 7, c1), *b = train(SB_MARL_PPO, 24, 7, c2);
	struct sb_marl_net *c = train(SB_MARL_PPO, 24, 8, c3);
	size_t np = sb_marl_net_nparams(a);
	double *wa = SB_NEW(double, np), *wb = SB_NEW(double, np), *wc = SB_NEW(double, np);
	int i;

	sb_marl_net_get(a, wa);
	sb_marl_net_get(b, wb);
	sb_marl_net_get(c, wc);
	cr_assert_eq(memcmp(wa, wb, np * sizeof *wa), 0, "same seed, different weights");
	for (i = 0; i < 24; i++)
		cr_assert(c1[i].episode == c2[i].episode && c1[i].load == c2[i].load &&
			  c1[i].ret == c2[i].ret && c1[i].score == c2[i].score &&
			  c1[i].entropy == c2[i].entropy && c1[i].decisions == c2[i].decisions,
			  "same seed, different curves at episode %d", i);
	cr_assert_neq(memcmp(wa, wc, np * sizeof *wa), 0, "another seed, same weights");
	sb_free(wa);
	sb_free(wb);
	sb_free(wc);
	sb_marl_net_free(a);
	sb_marl_net_free(b);
	sb_marl_net_free(c);
}

Test(marl_train, sampling_respects_the_mask)
{
	double p[5] = { 0, 0.5, 0, 0.5, 0 };
	struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_TEST);
	int i, a;

	for (i = 0; i < 1000; i++) {
		a = sb_marl_sample(p, 5, &r);
		cr_assert(a == 1 || a == 3, "sampled masked action %d", a);
	}
	cr_assert_eq(sb_marl_argmax(p, 5), 1);
}

/* A2C, the independent critics and the flat ablation are deterministic
 * too (their update paths differ from PPO's) */
static void same_twice(enum sb_marl_algo algo, enum sb_marl_arch arch, int ncritic)
{
	struct sb_marl_net *n[2];
	double *w[2];
	size_t np = 0;
	int k;

	for (k = 0; k < 2; k++) {
		struct toy e;
		struct sb_marl_task env = toy_env(&e);
		struct sb_marl_cfg cfg;
		struct sb_err err;
		struct sb_rng r = sb_rng_stream(3, 0, 0, SB_RNG_POLICY);

		n[k] = sb_marl_net_new(arch, ncritic, e.gr.nserv, &err);
		sb_marl_cfg_defaults(&cfg);
		cfg.algo = algo;
		cfg.episodes = 10;
		cfg.batch = 4;
		cfg.seed = 3;
		sb_marl_net_init(n[k], &r);
		cr_assert_eq(sb_marl_train(n[k], &env, &cfg, NULL, &err), 0, "%s", err.msg);
		np = sb_marl_net_nparams(n[k]);
		w[k] = SB_NEW(double, np);
		sb_marl_net_get(n[k], w[k]);
		sb_marl_graph_release(&e.gr);
	}
	cr_assert_eq(memcmp(w[0], w[1], np * sizeof *w[0]), 0, "algo %d arch %d critics %d", algo,
		     arch, ncritic);
	for (k = 0; k < 2; k++) {
		sb_free(w[k]);
		sb_marl_net_free(n[k]);
	}
}

Test(marl_train, other_variants_are_deterministic, .timeout = 120)
{
	same_twice(SB_MARL_A2C, SB_MARL_ARCH_GNN, 1);
	same_twice(SB_MARL_PPO, SB_MARL_ARCH_GNN, SB_MARL_MAXAG);
	same_twice(SB_MARL_PPO, SB_MARL_ARCH_FLAT, 1);
}
