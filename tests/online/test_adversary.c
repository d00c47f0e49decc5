/*
 * test_adversary.c - the exhaustive enumeration of the online family
 * against a plain loop over every instance, and the engine's annealing
 * search against exhaustive search on spaces small enough to enumerate
 * (the online, dag, cluster, sbp, alloc, cache and pipeline hooks), the
 * cluster, sbp, alloc, cache and pipeline hooks' ratios against their exact optima for every
 * policy they judge, and each of those optima against a brute force or a
 * second formulation.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "adversary.h"
#include "alloc/bound.h"
#include "cache/cache.h"
#include "cache/graph.h"
#include "cluster/cluster.h"
#include "dag/dag.h"
#include "online/online.h"
#include "pipeline/bound.h"
#include "sbp/sbp.h"
#include "workloads/online/gen.h"
#include "workloads/sbp/models.h"

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
	sb_adversary_close(h, ctx);
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

/* Every policy the hook judges on seeded random instances of its space
 * (sizes `sets`): each scored ratio is >= 1 (the hook itself fails a run
 * that beats its optimum) and no instance is declined, except for the
 * policies of the NULL-terminated may_decline (NULL: none). Returns the
 * instances scored. */
static int none_beats_the_optimum(const struct sb_adversary *h, const char *const *sets,
				  int per_policy, const char *const *may_decline, uint64_t seed)
{
	struct sb_adversary_space sp;
	struct sb_opts o;
	struct sb_err err;
	const char *name;
	int i, k, scored = 0;

	sb_opts_defaults(&o, h->params);
	for (k = 0; sets && sets[k]; k++)
		cr_assert_eq(sb_opts_set(&o, h->params, sets[k], "test", &err), 0, "%s", err.msg);
	for (i = 0; (name = sb_adversary_policy(h, i)); i++) {
		struct sb_rng r = sb_rng_stream(seed, (uint64_t)i, 0, SB_RNG_TEST);
		void *ctx;
		int n, rc, gene[SB_ADV_MAXGENES];
		long declined = 0;
		cr_assert_eq(h->open(name, NULL, &o, &ctx, &sp, &err), 0, "%s: %s", name, err.msg);
		for (n = 0; n < per_policy; n++) {
			double q = 0;
			for (k = 0; k < sp.ngenes; k++)
				gene[k] = (int)sb_rng_below(&r, (uint32_t)sp.hi[k]);
			rc = h->ratio(ctx, gene, &q, &err);
			cr_assert(rc == 0 || rc == SB_ADV_DECLINED, "%s: %s", name, err.msg);
			if (rc == SB_ADV_DECLINED) {
				declined++;
				continue;
			}
			cr_assert(q == 0 || q >= 1 - 1e-9, "%s: ratio %.12g", name, q);
			scored += q > 0;
		}
		for (k = 0; may_decline && may_decline[k] && strcmp(name, may_decline[k]); k++)
			;
		if (!(may_decline && may_decline[k]))
			cr_assert_eq(declined, 0, "%s declined %ld instances", name, declined);
		sb_adversary_close(h, ctx);
	}
	cr_assert_gt(i, 2);
	return scored;
}

/* Every flat scheduler on seeded random instances of the default space (4
 * jobs on 2 x 2 GPUs): the hook's ratio is >= 1 (the hook itself fails a
 * run below OPT_np), the reference is proven on every instance, and only
 * runs that preempt (Tiresias with the Gittins index) are declined. */
Test(online_adversary, cluster_no_policy_below_the_exact_optimum)
{
	static const char *const preempts[] = { "tiresias-gittins", NULL };

	cr_assert_gt(none_beats_the_optimum(&sb_cluster_adversary, NULL, 40, preempts, 11), 400);
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

/* ------------------------------------------------------------------ */
/* sbp, alloc and cache hooks                                          */
/* ------------------------------------------------------------------ */

/* The ILP optimum of one finished graph against a brute force over every
 * assignment of signatures; 0 when there are more than max assignments. */
static int ilp_equals_brute_force(struct sb_sbp_graph *g, double max)
{
	struct sb_sbp_ilp_opts io = { 100000, 600, 0, NULL };
	struct sb_sbp_ilp_result res;
	struct sb_err err;
	int sig[64], best[64], o;
	double n = 1, brute = INFINITY;

	cr_assert_leq(g->nop, 64);
	for (o = 0; o < g->nop; o++)
		n *= g->op[o].nsig;
	if (n > max)
		return 0;
	/* every assignment, odometer order */
	memset(sig, 0, sizeof sig);
	for (;;) {
		double c = sb_sbp_assign_cost(g, sig);
		if (c < brute)
			brute = c;
		for (o = 0; o < g->nop && ++sig[o] == g->op[o].nsig; o++)
			sig[o] = 0;
		if (o == g->nop)
			break;
	}
	cr_assert_eq(sb_sbp_ilp(g, &io, best, &res, &err), 0, "%s", err.msg);
	cr_assert_eq(res.status, SB_LP_OPTIMAL);
	cr_assert(fabs(sb_sbp_assign_cost(g, best) - brute) <= 1e-9 * brute,
		  "%s on %d devices: ILP %.12g, brute force %.12g over %.0f assignments", g->name,
		  g->pl.p, sb_sbp_assign_cost(g, best), brute, n);
	return 1;
}

/* The sbp hook's reference, the assignment ILP, equals a brute force over
 * every assignment of signatures on graphs small enough to enumerate (one
 * or two layers with their backward ops, so a linear layer closes a cycle
 * through its weight's loop edge), and no planner beats it on the default
 * space (three layers, backward or not). */
Test(online_adversary, sbp_ilp_equals_brute_force_and_no_planner_beats_it, .timeout = 600)
{
	static const char *const places[] = { "2", "4" };
	static const int64_t sizes[] = { 64, 1024 };
	int L, pi, ti, hi_, k, done = 0, tried = 0;

	for (L = 1; L <= 2; L++)
		for (pi = 0; pi < 2; pi++)
			for (ti = 0; ti < 2; ti++)
				for (hi_ = 0; hi_ < 2; hi_++)
					for (k = 0; k < (L == 1 ? 8 : 16); k++) {
		struct sb_sbp_graph g;
		struct sb_sbp_place pl;
		struct sb_err err;
		int kind[2];
		int64_t h2[2];
		if (L == 1) {   /* kinds 0..3, a linear layer's width 64 or 1024 */
			kind[0] = k % 4;
			h2[0] = sizes[k / 4];
			if (kind[0] && k / 4)
				continue;
		} else {        /* every pair of kinds, width 256 */
			kind[0] = k % 4;
			kind[1] = k / 4;
			h2[0] = h2[1] = 256;
		}
		sb_sbp_graph_init(&g, "t");
		sb_sbp_build_net(&g, L, sizes[ti], sizes[hi_], kind, h2, 1);
		cr_assert_eq(sb_sbp_place_parse(&pl, places[pi], 0, "p", &err), 0);
		cr_assert_eq(sb_sbp_graph_finish(&g, &pl, &err), 0, "%s", err.msg);
		done += ilp_equals_brute_force(&g, 2e5);
		tried++;
		sb_sbp_graph_release(&g);
	}
	cr_assert_geq(done, 150, "only %d of %d graphs small enough to enumerate", done, tried);
	cr_assert_gt(none_beats_the_optimum(&sb_sbp_adversary, NULL, 6, NULL, 12), 30);
}

/* The alloc hook's reference: the configuration ILP's two exact forms
 * (the slot-pattern and the compact model) agree on the hook's instances
 * where both are proven, and no ring-all-reduce policy beats it. */
Test(online_adversary, alloc_two_forms_agree_and_no_policy_beats_the_optimum, .timeout = 600)
{
	const struct sb_adversary *h = &sb_alloc_adversary;
	static const char *const sets[] = { "jobs=2", NULL };
	struct sb_adversary_space sp;
	struct sb_opts o;
	struct sb_err err;
	void *ctx;
	int n, k, both = 0;

	sb_opts_defaults(&o, h->params);
	cr_assert_eq(sb_opts_set(&o, h->params, sets[0], "test", &err), 0);
	cr_assert_eq(h->open("fifo", NULL, &o, &ctx, &sp, &err), 0, "%s", err.msg);
	for (n = 0; n < 30; n++) {
		struct sb_rng r = sb_rng_stream(13, (uint64_t)n, 0, SB_RNG_TEST);
		struct sb_alloc_inst in;
		struct sb_alloc_bound a, b;
		int gene[SB_ADV_MAXGENES];
		for (k = 0; k < sp.ngenes; k++)
			gene[k] = (int)sb_rng_below(&r, (uint32_t)sp.hi[k]);
		sb_alloc_adversary_decode(ctx, gene, &in);
		cr_assert_eq(sb_alloc_gadget_bound(&in, 0, 20000, SB_ALLOC_FORM_PATTERN, NULL, &a, &err), 0,
			     "%s", err.msg);
		cr_assert_eq(sb_alloc_gadget_bound(&in, 0, 20000, SB_ALLOC_FORM_COMPACT, NULL, &b, &err), 0,
			     "%s", err.msg);
		if (a.optimal && b.optimal) {
			cr_assert(fabs(a.bound - b.bound) <= 1e-6 * (1 + fabs(a.bound)),
				  "instance %d: pattern %.12g, compact %.12g", n, a.bound, b.bound);
			both++;
		}
		sb_alloc_inst_release(&in);
	}
	sb_adversary_close(h, ctx);
	cr_assert_geq(both, 20, "only %d of 30 instances proven by both forms", both);
	cr_assert_gt(none_beats_the_optimum(h, NULL, 8, NULL, 14), 50);
	cr_assert_eq(h->open("smd", NULL, &o, &ctx, &sp, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "parameter-server") != NULL, "%s", err.msg);
}

/* The cache hook's reference: per cache instance, Belady's MIN equals the
 * caching ILP on the hook's traces, and no policy beats it. */
Test(online_adversary, cache_belady_equals_ilp_and_no_policy_beats_it, .timeout = 600)
{
	const struct sb_adversary *h = &sb_cache_adversary;
	struct sb_adversary_space sp;
	struct sb_opts o;
	struct sb_err err;
	void *ctx;
	int n, k, streams = 0;

	sb_opts_defaults(&o, h->params);
	cr_assert_eq(h->open("lru", NULL, &o, &ctx, &sp, &err), 0, "%s", err.msg);
	for (n = 0; n < 20; n++) {
		struct sb_rng r = sb_rng_stream(15, (uint64_t)n, 0, SB_RNG_TEST);
		struct sb_cache_graph g;
		struct sb_cache_setup s;
		struct sb_cache_trace t;
		int32_t train[16], sh, rep;
		int gene[SB_ADV_MAXGENES];
		for (k = 0; k < sp.ngenes; k++)
			gene[k] = (int)sb_rng_below(&r, (uint32_t)sp.hi[k]);
		cr_assert_eq(sb_cache_adversary_decode(ctx, gene, &g, train, &s, &err), 0, "%s",
			     err.msg);
		cr_assert_eq(sb_cache_trace_build(&s, 0, s.epochs, &t, &err), 0, "%s", err.msg);
		for (rep = 0; rep < 2; rep++)
			for (sh = 0; sh < s.P * s.k; sh++) {
				int32_t *req = SB_NEW(int32_t, t.nreq + 1), *bat = SB_NEW(int32_t, t.nreq + 1);
				struct sb_cache_shard info;
				int64_t m = sb_cache_shard_stream(&s, &t, rep, sh, req, bat), hi, hb;
				int status, warm;
				sb_cache_shard_range(&s, rep, sh, &info);
				for (warm = 0; warm < 2; warm++) {
					hb = sb_cache_belady_stream(req, bat, m, info.nloc, s.capacity,
								    SB_CACHE_MIN_BYPASS |
								    (warm ? SB_CACHE_MIN_WARM : 0));
					cr_assert_eq(sb_cache_ilp(req, bat, m, info.nloc, s.capacity, warm,
								  100000, &hi, &status, &err), 0, "%s",
						     err.msg);
					cr_assert_eq(status, SB_LP_OPTIMAL);
					cr_assert_eq(hi, hb, "instance %d shard %d warm %d: ILP %lld, MIN "
						     "%lld", n, sh, warm, (long long)hi, (long long)hb);
				}
				streams++;
				sb_free(req);
				sb_free(bat);
			}
		sb_cache_trace_release(&t);
		sb_cache_graph_release(&g);
	}
	sb_adversary_close(h, ctx);
	cr_assert_geq(streams, 40);
	cr_assert_gt(none_beats_the_optimum(h, NULL, 20, NULL, 16), 100);
}

/* The pipeline hook's reference: the MILP equals the enumeration of its
 * plan space (each plan's schedule by the scheduling MILP) on the hook's
 * instances, and no planner beats it; only plans with several pipeline
 * copies (DAPPLE, PipeDream-2BW) are declined. */
Test(online_adversary, pipeline_milp_equals_enumeration_and_no_planner_beats_it, .timeout = 600)
{
	static const char *const copies[] = { "dapple", "pipedream-2bw", NULL };
	const struct sb_adversary *h = &sb_pipeline_adversary;
	struct sb_adversary_space sp;
	struct sb_opts o;
	struct sb_err err;
	void *ctx;
	int n, k, both = 0;

	sb_opts_defaults(&o, h->params);
	cr_assert_eq(h->open("sppr", NULL, &o, &ctx, &sp, &err), 0, "%s", err.msg);
	for (n = 0; n < 12; n++) {
		struct sb_rng r = sb_rng_stream(17, (uint64_t)n, 0, SB_RNG_TEST);
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_problem pb;
		struct sb_pipeline_milp_opts mo = { .time_limit = 600, .node_limit = 20000 };
		struct sb_pipeline_milp_result mr;
		struct sb_pipeline_enum_result er;
		int gene[SB_ADV_MAXGENES];
		for (k = 0; k < sp.ngenes; k++)
			gene[k] = (int)sb_rng_below(&r, (uint32_t)sp.hi[k]);
		sb_pipeline_adversary_decode(ctx, gene, &m, &t, &pb);
		mo.overlap = n % 2;
		cr_assert_eq(sb_pipeline_milp(&pb, &mo, &mr, &err), 0, "%s", err.msg);
		cr_assert_eq(sb_pipeline_enumerate(&pb, &mo, &er, &err), 0, "%s", err.msg);
		if (mr.status == SB_LP_OPTIMAL && er.exact) {
			cr_assert(fabs(mr.obj - er.best) <= 1e-6 * er.best, "instance %d: MILP %.12g, "
				  "enumeration %.12g", n, mr.obj, er.best);
			both++;
		}
		sb_pipeline_milp_result_release(&mr);
		sb_pipeline_enum_result_release(&er);
		sb_pmodel_release(&m);
		sb_topo_release(&t);
	}
	sb_adversary_close(h, ctx);
	cr_assert_geq(both, 10, "only %d of 12 instances proven by both", both);
	cr_assert_gt(none_beats_the_optimum(h, NULL, 6, copies, 18), 30);
}

Test(online_adversary, anneal_reaches_the_exhaustive_worst_sbp_alloc_cache_pipeline, .timeout = 600)
{
	static const char *const sbp[] = { "layers=1", NULL };
	static const char *const alloc[] = { "jobs=1", "slots=2", NULL };
	static const char *const cache[] = { "n=4", "epochs=1", NULL };
	static const char *const pipeline[] = { "layers=1", NULL };

	/* sbp: 3 x 4 x 4 x 2 x 16 = 1,536 instances; alloc: 8 x 2 x 4 x 2 =
	 * 128; cache: 2^3 chords x 2 x 2 x 3 x 2 = 192; 600 proposals each */
	anneal_reaches(&sb_sbp_adversary, "greedy", sbp, 600);
	anneal_reaches(&sb_alloc_adversary, "tetris", alloc, 600);
	anneal_reaches(&sb_cache_adversary, "lru", cache, 600);
	/* pipeline: one layer (4 x 3 x 3) x 3 bandwidths x 3 M x 2 = 648 */
	anneal_reaches(&sb_pipeline_adversary, "pipedream", pipeline, 600);
}
