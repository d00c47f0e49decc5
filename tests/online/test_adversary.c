/*
 * test_adversary.c - the exhaustive enumeration of the online family
 * against a plain loop over every instance, and the engine's annealing
 * search against exhaustive search on spaces small enough to enumerate
 * (the online, dag and cluster hooks), and the cluster hook's ratios
 * against its exact optimum for every flat scheduler.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "adversary.h"
#include "cluster/cluster.h"
#include "dag/dag.h"
#include "online/online.h"
#include "workloads/online/gen.h"

/* The depth-first enumeration carries E[ALG] and OPT forward; a loop over
 * every code through sb_online_run (backward DP, checkers) must find the
 * same worst ratio, and the worst code must replay to it. */
Test(online_adversary, exhaust_equals_a_loop_over_every_instance)
{
	struct sb_online_game g;
	struct sb_err err;
	int np, i, nv = 3;
	const struct sb_online_policy *const *p = sb_online_policies(&np);

	cr_assert_eq(sb_online_game_init(&g, 3, 3, 2, 8, 1, 5, &err), 0);
	for (i = 0; i < np; i++) {
		struct sb_opts o;
		unsigned long long code, count, k, n = 216;   /* (3 x 2)^3 */
		double worst, loop = 0, at = 0;
		if (p[i]->offline || p[i]->stored)
			continue;
		sb_opts_defaults(&o, p[i]->params);
		cr_assert_eq(sb_online_exhaust(&g, p[i], &o, nv, &worst, &code, &count, &err), 0,
			     "%s: %s", p[i]->name, err.msg);
		cr_assert_eq(count, n);
		for (k = 0; k < n; k++) {
			struct sb_online_inst in;
			struct sb_online_result r;
			struct sb_rng rng = sb_rng_stream(1, 0, k, SB_RNG_TEST);
			double q;
			sb_online_gen_enum(&g, &in, nv, k);
			cr_assert_eq(sb_online_run(&g, &in, p[i], &o, &rng, &r, &err), 0, "%s",
				     err.msg);
			q = sb_online_opt(&g, &in, NULL) / r.ealg;
			loop = sb_max(loop, q);
			if (k == code)
				at = q;
			sb_online_result_release(&r);
			sb_online_inst_release(&in);
		}
		/* infinite when the policy sells nothing (zlw on large items) */
		cr_assert(worst == loop || fabs(worst - loop) <= 1e-9 * loop,
			  "%s: enumeration %.12g, loop %.12g",
			  p[i]->name, worst, loop);
		cr_assert(at == loop || fabs(at - loop) <= 1e-9 * loop, "%s: code %llu replays to %.12g",
			  p[i]->name, code, at);
	}
}

Test(online_adversary, exhaust_refuses_offline_and_huge_spaces)
{
	struct sb_online_game g;
	struct sb_opts o;
	struct sb_err err;
	unsigned long long code, count;
	double w;

	cr_assert_eq(sb_online_game_init(&g, 9, 3, 2, 8, 1, 5, &err), 0);
	sb_opts_defaults(&o, NULL);
	cr_assert_eq(sb_online_exhaust(&g, sb_online_policy_find("greedy"), &o, 4, &w, &code,
				       &count, &err), SB_EXIT_INPUT);
	cr_assert_eq(sb_online_exhaust(&g, sb_online_policy_find("hindsight"), &o, 4, &w, &code,
				       &count, &err), SB_EXIT_INPUT);
}

/* With a fixed budget, annealing reaches the exhaustive worst on a space
 * small enough to enumerate; the same seed gives the same search. */
static void anneal_reaches(const struct sb_adversary *h, const char *policy,
			   const char *const *sets, long iters)
{
	struct sb_adversary_space sp;
	struct sb_adversary_found ex, sa, again;
	struct sb_opts o;
	struct sb_err err;
	void *ctx;
	int k;

	sb_opts_defaults(&o, h->params);
	for (k = 0; sets[k]; k++)
		cr_assert_eq(sb_opts_set(&o, h->params, sets[k], "test", &err), 0, "%s", err.msg);
	cr_assert_eq(h->open(policy, NULL, &o, &ctx, &sp, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_adversary_exhaust(h, ctx, &sp, 1e6, &ex, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_adversary_anneal(h, ctx, &sp, iters, 7, 0, &sa, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_adversary_anneal(h, ctx, &sp, iters, 7, 0, &again, &err), 0);
	h->close(ctx);
	cr_assert(ex.worst >= 1 - 1e-12, "%s: worst %g below the optimum", policy, ex.worst);
	cr_assert(sa.worst <= ex.worst, "%s: annealing %.12g above exhaustive %.12g", policy,
		  sa.worst, ex.worst);
	cr_assert(sa.worst >= ex.worst * (1 - 1e-12), "%s: annealing %.12g after %ld, "
		  "exhaustive %.12g over %.0f instances", policy, sa.worst, iters, ex.worst,
		  sb_adversary_size(&sp));
	cr_assert(again.worst == sa.worst && again.found_at == sa.found_at);
}

Test(online_adversary, anneal_reaches_the_exhaustive_worst_online)
{
	static const char *const sets[] = { "T=4", "C=3", "D=2", "nv=3", NULL };
	static const char *const pol[] = { "zcl", "greedy", "randthresh" };
	size_t i;

	/* 6^4 = 1296 instances, 600 proposals. Not zlw: its worst instance
	 * is a needle (every buyer (2, L), all rejected: an infinite ratio)
	 * behind a deep local optimum of 5.47 that 600 proposals do not leave;
	 * a known limit of the search, reported with it. */
	for (i = 0; i < sizeof pol / sizeof pol[0]; i++)
		anneal_reaches(&sb_online_adversary, pol[i], sets, 600);
}

Test(online_adversary, anneal_reaches_the_exhaustive_worst_dag)
{
	static const char *const sets[] = { "n=3", "devices=2", "levels=2", NULL };
	static const char *const pol[] = { "cp+pct", "hash", "heft", "random" };
	size_t i;

	/* 2^6 x 2^3 x 3^2 x 5 = 23,040 instances, 2,000 proposals */
	for (i = 0; i < sizeof pol / sizeof pol[0]; i++)
		anneal_reaches(&sb_dag_adversary, pol[i], sets, 2000);
}

Test(online_adversary, anneal_reaches_the_exhaustive_worst_cluster)
{
	static const char *const sets[] = { "jobs=2", NULL };
	static const char *const pol[] = { "fifo", "srpt-oracle", "asrpt", "tiresias-gittins" };
	size_t i;

	/* (8 kinds x 3 arrivals x 4 lengths)^2 = 9,216 instances, 2,000
	 * proposals */
	for (i = 0; i < sizeof pol / sizeof pol[0]; i++)
		anneal_reaches(&sb_cluster_adversary, pol[i], sets, 2000);
}

/* Every flat scheduler on seeded random instances of the default space (4
 * jobs on 2 x 2 GPUs): the hook's ratio is >= 1 (the hook itself fails a
 * run below OPT_np), the reference is proven on every instance, and only
 * runs that preempt are declined. */
Test(online_adversary, cluster_no_policy_below_the_exact_optimum)
{
	const struct sb_adversary *h = &sb_cluster_adversary;
	struct sb_adversary_space sp;
	struct sb_opts o;
	struct sb_err err;
	const char *name;
	int i, k, scored = 0;

	sb_opts_defaults(&o, h->params);
	for (i = 0; (name = h->policy(i)); i++) {
		struct sb_rng r = sb_rng_stream(11, (uint64_t)i, 0, SB_RNG_INSTANCE);
		void *ctx;
		int n, gene[SB_ADV_MAXGENES];
		cr_assert_eq(h->open(name, NULL, &o, &ctx, &sp, &err), 0, "%s: %s", name, err.msg);
		for (n = 0; n < 40; n++) {
			double q;
			for (k = 0; k < sp.ngenes; k++)
				gene[k] = (int)sb_rng_below(&r, (uint32_t)sp.hi[k]);
			cr_assert_eq(h->ratio(ctx, gene, &q, &err), 0, "%s: %s", name, err.msg);
			cr_assert(q == 0 || q >= 1 - 1e-9, "%s: ratio %.12g", name, q);
			scored += q > 0;
		}
		if (strcmp(name, "tiresias-gittins"))
			cr_assert_eq(h->rejected(ctx), 0, "%s declined %ld instances", name,
				     h->rejected(ctx));
		h->close(ctx);
	}
	cr_assert_gt(i, 10);
	cr_assert_gt(scored, 400);
}

Test(online_adversary, cluster_bad_input)
{
	const struct sb_adversary *h = &sb_cluster_adversary;
	struct sb_adversary_space sp;
	struct sb_opts o;
	struct sb_err err;
	void *ctx;

	sb_opts_defaults(&o, h->params);
	cr_assert_eq(h->open("nosuch", NULL, &o, &ctx, &sp, &err), SB_EXIT_INPUT);
	cr_assert_eq(h->open("agents", NULL, &o, &ctx, &sp, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "topology") != NULL, "%s", err.msg);
	cr_assert_eq(sb_opts_set(&o, h->params, "jobs=6", "test", &err), SB_EXIT_INPUT);
	cr_assert_eq(sb_opts_set(&o, h->params, "servers=4", "test", &err), SB_EXIT_INPUT);
}
