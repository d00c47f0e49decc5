/*
 * test_online.c - the online family: the checkers reject broken episodes
 * and expectations; every policy's E[ALG] (exact DP) is checked and never
 * above OPT; the DP equals the Monte-Carlo mean of sampled episodes; the
 * knapsack DP equals GLPK on 1,000 random instances and LP >= ILP; ZCL
 * (unrounded, small items) never exceeds 1 + ln(U/L) on staircases and
 * random inputs and comes within 10% of it on a staircase; bad games.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "online/online.h"
#include "online/ptable.h"
#include "workloads/online/gen.h"
#include "tests/online/common.h"

static struct sb_online_game game(int T, int C, int D, double ul)
{
	struct sb_online_game g;
	struct sb_err err;
	cr_assert_eq(sb_online_game_init(&g, T, C, D, 16, 1, ul, &err), 0, "%s", err.msg);
	return g;
}

/* shared with test_k2.c (common.h) */
double sb_test_online_ealg(const struct sb_online_game *g, const struct sb_online_inst *in,
			   const char *name, const char *set)
{
	const struct sb_online_policy *p = sb_online_policy_find(name);
	struct sb_online_result r;
	struct sb_opts o;
	struct sb_err err;
	struct sb_rng rng = sb_rng_stream(1, 0, 0, SB_RNG_TEST);
	double e;

	cr_assert_not_null(p, "%s", name);
	sb_opts_defaults(&o, p->params);
	if (set)
		cr_assert_eq(sb_opts_set(&o, p->params, set, "test", &err), 0);
	cr_assert_eq(sb_online_run(g, in, p, &o, &rng, &r, &err), 0, "%s", err.msg);
	e = r.ealg;
	sb_online_result_release(&r);
	return e;
}

Test(online, checkers_reject_broken_runs)
{
	struct sb_online_game g = game(3, 2, 2, 10);
	int d[3] = { 1, 2, 1 };
	double v[3] = { 5, 8, 2 }, price[3] = { 4, 9, 1 };
	unsigned char x[3] = { 1, 0, 1 };
	struct sb_online_inst in = { 3, d, v };
	char why[256];

	cr_assert_eq(sb_online_check_episode(&g, &in, price, x, 7, why, sizeof why), 0, "%s", why);
	x[1] = 1; /* refuses at 9, served anyway */
	cr_assert_eq(sb_online_check_episode(&g, &in, price, x, 23, why, sizeof why), 1);
	x[1] = 0;
	x[2] = 0; /* buys and fits, refused */
	cr_assert_eq(sb_online_check_episode(&g, &in, price, x, 5, why, sizeof why), 1);
	x[2] = 1;
	cr_assert_eq(sb_online_check_episode(&g, &in, price, x, 8, why, sizeof why), 1);
	price[1] = 1; /* buys, 2 units do not fit after the first */
	x[1] = 1;
	cr_assert_eq(sb_online_check_episode(&g, &in, price, x, 23, why, sizeof why), 1);
	cr_assert_not_null(strstr(why, "left"), "%s", why);

	/* expectation: a tampered value and a tampered distribution */
	{
		const struct sb_online_policy *p = sb_online_policy_find("randthresh");
		struct sb_online_table tb;
		struct sb_opts o;
		struct sb_err err;
		double e;
		sb_opts_defaults(&o, p->params);
		cr_assert_eq(sb_online_tabulate(&g, &in, p, &o, &tb, &err), 0);
		e = sb_online_expect(&g, &in, &tb);
		cr_assert_eq(sb_online_check_expect(&g, &in, &tb, e, why, sizeof why), 0, "%s", why);
		cr_assert_eq(sb_online_check_expect(&g, &in, &tb, e * 1.001, why, sizeof why), 1);
		tb.prob[0] = 0.5;
		cr_assert_eq(sb_online_check_expect(&g, &in, &tb, e, why, sizeof why), 1);
		cr_assert_not_null(strstr(why, "sum to"), "%s", why);
		sb_online_table_release(&tb);
	}
}

/* the table-reading policies get a random table of game g (common.h) */
void sb_test_online_tables(const struct sb_online_game *g, uint64_t k)
{
	static const char *const var[] = { "learned", "learned-random", "learned-reinforce" };
	size_t n = sb_online_ptable_cells(g), c;
	double *prob = SB_NEW(double, n * (size_t)g->M);
	struct sb_rng r = sb_rng_stream(9, k, 0, SB_RNG_TEST);
	struct sb_err err;
	int v, m;

	sb_online_ptable_clear();
	for (v = 0; v < 3; v++) {
		for (c = 0; c < n; c++) {
			double s = 0, *q = prob + c * (size_t)g->M;
			for (m = 0; m < g->M; m++)
				s += q[m] = sb_rng_uniform(&r) * (sb_rng_uniform(&r) < 0.5);
			if (s == 0)
				s += q[0] = 1;
			for (m = 0; m < g->M; m++)
				q[m] /= s;
		}
		cr_assert_eq(sb_online_ptable_put(var[v], g, prob, &err), 0, "%s", err.msg);
	}
	sb_free(prob);
}

/* every registered policy (random tables for the table-reading ones) on a
 * random instance of g: checked, 0 <= E[ALG] <= OPT, and the best fixed
 * price in hindsight at least every fixed price (common.h) */
void sb_test_online_all_below_opt(const struct sb_online_game *g, uint64_t seed, int k)
{
	int np, i;
	const struct sb_online_policy *const *p = sb_online_policies(&np);
	struct sb_rng gen = sb_rng_stream(seed, (uint64_t)k, 0, SB_RNG_TEST);
	struct sb_online_inst in;
	double opt;

	cr_assert_geq(np, 5);
	sb_online_gen_random(g, &in, k & 1, &gen);
	opt = sb_online_opt(g, &in, NULL);
	sb_test_online_tables(g, (uint64_t)k);
	for (i = 0; i < np; i++) {
		double e = sb_test_online_ealg(g, &in, p[i]->name, NULL);
		cr_assert_leq(e, opt * (1 + 1e-12), "%s: E[ALG] %g above OPT %g", p[i]->name, e,
			      opt);
		cr_assert_geq(e, 0);
	}
	cr_assert_geq(sb_test_online_ealg(g, &in, "hindsight", NULL),
		      sb_test_online_ealg(g, &in, "greedy", NULL) - 1e-9);
	sb_online_inst_release(&in);
}

Test(online, every_policy_checked_and_not_above_opt)
{
	int k;

	for (k = 0; k < 60; k++) {
		struct sb_online_game g = game(5 + k % 30, 1 + k % 12, 1 + k % 3 % (1 + k % 12),
					       2 + k % 40);
		sb_test_online_all_below_opt(&g, 7, k);
	}
}

Test(online, dp_equals_monte_carlo_mean)
{
	struct sb_online_game g = game(30, 8, 2, 20);
	struct sb_rng gen = sb_rng_stream(3, 0, 0, SB_RNG_TEST), rng = sb_rng_stream(3, 1, 0, SB_RNG_TEST);
	const struct sb_online_policy *p = sb_online_policy_find("randthresh");
	struct sb_online_inst in;
	struct sb_online_table tb;
	struct sb_opts o;
	struct sb_err err;
	double price[30], s = 0, s2 = 0, e, mean, sd;
	unsigned char x[30];
	int n = 20000, i, comp;

	sb_online_gen_random(&g, &in, 1, &gen);
	sb_opts_defaults(&o, p->params);
	cr_assert_eq(sb_online_tabulate(&g, &in, p, &o, &tb, &err), 0);
	e = sb_online_expect(&g, &in, &tb);
	for (i = 0; i < n; i++) {
		double w = sb_online_sample(&g, &in, &tb, &rng, price, x, &comp);
		s += w;
		s2 += w * w;
	}
	mean = s / n;
	sd = sqrt((s2 / n - mean * mean) / n);
	cr_assert_gt(sd, 0);
	cr_assert_lt(fabs(mean - e), 4 * sd, "DP %g, Monte Carlo %g +- %g", e, mean, sd);
	sb_online_table_release(&tb);
	sb_online_inst_release(&in);
}

/* the knapsack DP's selection fits every type and has its value; GLPK's
 * ILP (one row per type) equals it; LP >= ILP (common.h) */
void sb_test_online_check_opt(const struct sb_online_game *g, const struct sb_online_inst *in,
			      int k)
{
	struct sb_err err;
	unsigned char *take = SB_NEW(unsigned char, in->T);
	double dp, ilp, lp, w = 0;
	int t, j, used[SB_ONLINE_MAXK] = { 0 };

	dp = sb_online_opt(g, in, take);
	for (t = 0; t < in->T; t++)
		if (take[t]) {
			for (j = 0; j < g->K; j++)
				used[j] += sb_online_dem(g, in->d[t], j);
			w += in->v[t] * sb_online_size(g, in->d[t]);
		}
	for (j = 0; j < g->K; j++)
		cr_assert_leq(used[j], g->Ck[j], "instance %d: type %d overdrawn", k, j + 1);
	cr_assert_float_eq(w, dp, 1e-9 * (1 + dp));
	cr_assert_eq(sb_online_opt_glpk(g, in, &ilp, &lp, &err), 0, "%s", err.msg);
	cr_assert_float_eq(dp, ilp, 1e-6 * (1 + dp), "instance %d: DP %.10g, GLPK %.10g", k, dp,
			   ilp);
	cr_assert_geq(lp, ilp - 1e-6 * (1 + dp));
	sb_free(take);
}

/* 1,000 random games of K types (capacities 1..maxc, rounds 1..maxt, D up
 * to the smallest capacity) and instances, each through check_opt
 * (common.h) */
void sb_test_online_opt_1000(int K, uint64_t seed, int maxc, int maxt)
{
	int k, j;

	for (k = 0; k < 1000; k++) {
		struct sb_rng gen = sb_rng_stream(seed, (uint64_t)k, 0, SB_RNG_TEST);
		struct sb_online_game g;
		struct sb_online_inst in;
		struct sb_err err;
		int cap[SB_ONLINE_MAXK], cmin = maxc, T;
		for (j = 0; j < K; j++) {
			cap[j] = 1 + (int)sb_rng_below(&gen, (uint32_t)maxc);
			cmin = cap[j] < cmin ? cap[j] : cmin;
		}
		T = 1 + (int)sb_rng_below(&gen, (uint32_t)maxt);
		cr_assert_eq(sb_online_game_init_k(&g, T, K, cap,
						   1 + (int)sb_rng_below(&gen, (uint32_t)cmin), 16, 1,
						   50, &err), 0, "%s", err.msg);
		sb_online_gen_random(&g, &in, k & 1, &gen);
		sb_test_online_check_opt(&g, &in, k);
		sb_online_inst_release(&in);
	}
}

Test(online, knapsack_dp_equals_glpk_on_1000_instances)
{
	sb_test_online_opt_1000(1, 11, 30, 40);
}

/* ZCL posting psi(z) itself, unit demands: OPT / E[ALG] <= 1 + ln(U/L) on
 * every staircase truncation and on random inputs; and a staircase comes
 * within 10% of the bound (C large enough for the small-item regime). */
Test(online, zcl_ratio_bound_small_items)
{
	static const double uls[] = { 2, 5, 10, 20, 50 };
	int u, top, k;

	for (u = 0; u < 5; u++) {
		struct sb_online_game g = game(400, 40, 1, uls[u]);
		double bound = 1 + log(uls[u]), worst = 0;
		for (top = 0; top < 10; top++) {
			struct sb_online_inst in;
			double r;
			sb_online_gen_staircase(&g, &in, 10, top, 1);
			r = sb_online_opt(&g, &in, NULL) / sb_test_online_ealg(&g, &in, "zcl", "round=0");
			cr_assert_leq(r, bound + 1e-9, "U/L %g, staircase %d: %g > %g", uls[u], top,
				      r, bound);
			worst = sb_max(worst, r);
			sb_online_inst_release(&in);
		}
		cr_assert_geq(worst, bound / 1.1, "U/L %g: worst staircase %g, bound %g", uls[u],
			      worst, bound);
		for (k = 0; k < 20; k++) {
			struct sb_rng gen = sb_rng_stream(5, (uint64_t)k, (uint64_t)u, SB_RNG_TEST);
			struct sb_online_inst in;
			double r;
			sb_online_gen_random(&g, &in, k & 1, &gen);
			r = sb_online_opt(&g, &in, NULL) / sb_test_online_ealg(&g, &in, "zcl", "round=0");
			cr_assert_leq(r, bound + 1e-9);
			sb_online_inst_release(&in);
		}
	}
}

Test(online, bad_games_name_the_field)
{
	struct sb_online_game g;
	struct sb_err err;

	cr_assert_eq(sb_online_game_init(&g, 0, 5, 1, 16, 1, 10, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "'T'"));
	cr_assert_eq(sb_online_game_init(&g, 5, 0, 1, 16, 1, 10, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "'C'"));
	cr_assert_eq(sb_online_game_init(&g, 5, 5, 6, 16, 1, 10, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "'D'"));
	cr_assert_eq(sb_online_game_init(&g, 5, 5, 1, 65, 1, 10, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "'M'"));
	cr_assert_eq(sb_online_game_init(&g, 5, 5, 1, 16, 1, 1, &err), SB_EXIT_INPUT);
	cr_assert_eq(sb_online_game_init(&g, 5, 5, 1, 16, 1, NAN, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "U/L"));
	cr_assert_eq(sb_online_game_init(&g, 5, 5, 1, 16, 1, 10, &err), 0);
	cr_assert_eq(g.price[0], 1);
	cr_assert_eq(g.price[15], 10);
}

Test(online, enumeration_covers_the_grid)
{
	struct sb_online_game g = game(3, 2, 2, 10);
	unsigned long long code, n = 1;
	int t, seen[4][2] = { { 0 } };

	for (t = 0; t < 3; t++)
		n *= 4 * 2;
	for (code = 0; code < n; code++) {
		struct sb_online_inst in;
		struct sb_err err;
		sb_online_gen_enum(&g, &in, 4, code);
		cr_assert_eq(sb_online_inst_check(&g, &in, &err), 0, "%s", err.msg);
		for (t = 0; t < 3; t++) {
			int lv = (int)lround(3 * log(in.v[t]) / log(10.0));
			seen[lv][in.d[t] - 1]++;
		}
		sb_online_inst_release(&in);
	}
	for (t = 0; t < 8; t++)
		cr_assert_eq(seen[t / 2][t % 2], 3 * 64, "type %d seen %d times", t, seen[t / 2][t % 2]);
}
