/*
 * test_k2.c - the online family with K = 2 resource types (advlearn.md §2
 * variant, F6): the exact DP equals the Monte-Carlo mean of sampled
 * episodes; the 2-D knapsack DP equals GLPK (two capacity rows) on 1,000
 * random instances and its selection fits each type, LP >= ILP; the
 * episode checker rejects a sale that overdraws either type; every policy
 * is checked and never above OPT; exhaustive enumeration equals a loop over
 * every instance through sb_online_run; demand vectors (d, d) on equal
 * capacities give exactly twice the K = 1 game with demand d (K = 1 is the
 * special case); bad games and buyer files name the field.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "online/online.h"
#include "online/ptable.h"
#include "workloads/online/gen.h"
#include "tests/online/common.h"

static struct sb_online_game game2(int T, int C1, int C2, int D, double ul)
{
	struct sb_online_game g;
	struct sb_err err;
	int cap[2] = { C1, C2 };
	cr_assert_eq(sb_online_game_init_k(&g, T, 2, cap, D, 16, 1, ul, &err), 0, "%s", err.msg);
	return g;
}

static double ealg(const struct sb_online_game *g, const struct sb_online_inst *in,
		   const char *name)
{
	return sb_test_online_ealg(g, in, name, NULL);
}

Test(online_k2, state_and_demand_codes)
{
	struct sb_online_game g = game2(3, 4, 2, 2, 10);
	int dv[2] = { 2, 1 }, s = 4 * 3 + 1;   /* c = (4, 1) */

	cr_assert_eq(g.S, 15);
	cr_assert_eq(g.ND, 4);
	cr_assert_eq(sb_online_left(&g, g.S - 1, 0), 4);
	cr_assert_eq(sb_online_left(&g, g.S - 1, 1), 2);
	cr_assert_eq(sb_online_left(&g, s, 0), 4);
	cr_assert_eq(sb_online_left(&g, s, 1), 1);
	cr_assert_eq(sb_online_dcode(&g, dv), 3);
	cr_assert_eq(sb_online_dem(&g, 3, 0), 2);
	cr_assert_eq(sb_online_dem(&g, 3, 1), 1);
	cr_assert_eq(sb_online_size(&g, 3), 3);
	cr_assert(sb_online_fits(&g, s, 3));
	cr_assert_eq(sb_online_left(&g, s - sb_online_off(&g, 3), 0), 2);
	cr_assert_eq(sb_online_left(&g, s - sb_online_off(&g, 3), 1), 0);
	cr_assert(!sb_online_fits(&g, s, 4));   /* (2, 2): type 2 has 1 left */
}

Test(online_k2, dp_equals_monte_carlo_mean)
{
	static const char *const pol[] = { "randthresh", "zlw", "zcl" };
	struct sb_online_game g = game2(24, 6, 4, 2, 20);
	struct sb_rng gen = sb_rng_stream(3, 0, 0, SB_RNG_TEST);
	int i, k, n = 20000, comp;

	for (k = 0; k < 3; k++) {
		const struct sb_online_policy *p = sb_online_policy_find(pol[k]);
		struct sb_rng rng = sb_rng_stream(3, 1, (uint64_t)k, SB_RNG_TEST);
		struct sb_online_inst in;
		struct sb_online_table tb;
		struct sb_opts o;
		struct sb_err err;
		double price[24], s = 0, s2 = 0, e, mean, sd;
		unsigned char x[24];
		char why[256];
		sb_online_gen_random(&g, &in, 1, &gen);
		sb_opts_defaults(&o, p->params);
		cr_assert_eq(sb_online_tabulate(&g, &in, p, &o, &tb, &err), 0);
		e = sb_online_expect(&g, &in, &tb);
		cr_assert_eq(sb_online_check_expect(&g, &in, &tb, e, why, sizeof why), 0, "%s", why);
		for (i = 0; i < n; i++) {
			double w = sb_online_sample(&g, &in, &tb, &rng, price, x, &comp);
			cr_assert_eq(sb_online_check_episode(&g, &in, price, x, w, why, sizeof why), 0,
				     "%s: %s", pol[k], why);
			s += w;
			s2 += w * w;
		}
		mean = s / n;
		sd = sqrt(fmax(s2 / n - mean * mean, 0) / n);
		if (sd == 0) /* a deterministic policy on a deterministic path */
			cr_assert_float_eq(mean, e, 1e-9 * (1 + e), "%s", pol[k]);
		else
			cr_assert_lt(fabs(mean - e), 4 * sd, "%s: DP %g, Monte Carlo %g +- %g",
				     pol[k], e, mean, sd);
		sb_online_table_release(&tb);
		sb_online_inst_release(&in);
	}
}

Test(online_k2, knapsack_dp_equals_glpk_on_1000_instances)
{
	/* capacities 1..12 per type, 1..30 rounds: two GLPK rows */
	sb_test_online_opt_1000(2, 12, 12, 30);
}

Test(online_k2, checker_rejects_overdrawing_either_type)
{
	/* C = (3, 2); buyers (1, 2), (1, 1), (2, 1) at value 5, price 1 */
	struct sb_online_game g = game2(3, 3, 2, 2, 10);
	int dv[3][2] = { { 1, 2 }, { 1, 1 }, { 2, 1 } }, d[3], t;
	double v[3] = { 5, 5, 5 }, price[3] = { 1, 1, 1 };
	unsigned char x[3] = { 1, 0, 0 };
	struct sb_online_inst in = { 3, d, v };
	char why[256];

	for (t = 0; t < 3; t++)
		d[t] = sb_online_dcode(&g, dv[t]);
	/* after (1, 2) type 2 is empty: nothing else fits, refusing is right */
	cr_assert_eq(sb_online_check_episode(&g, &in, price, x, 15, why, sizeof why), 0, "%s", why);
	x[1] = 1;   /* type 2 overdrawn; type 1 would fit */
	cr_assert_eq(sb_online_check_episode(&g, &in, price, x, 25, why, sizeof why), 1);
	cr_assert_not_null(strstr(why, "type 2"), "%s", why);
	/* type 1 overdrawn: (1, 1) then (2, 1) then (1, 2) on C = (2, 4) */
	{
		struct sb_online_game h = game2(3, 2, 4, 2, 10);
		int ev[3][2] = { { 1, 1 }, { 2, 1 }, { 1, 2 } };
		unsigned char y[3] = { 1, 1, 0 };
		for (t = 0; t < 3; t++)
			d[t] = sb_online_dcode(&h, ev[t]);
		cr_assert_eq(sb_online_check_episode(&h, &in, price, y, 25, why, sizeof why), 1);
		cr_assert_not_null(strstr(why, "type 1"), "%s", why);
		y[1] = 0;
		y[2] = 1;   /* (1, 1) + (1, 2) = (2, 3) fits; (2, 1) refused rightly */
		cr_assert_eq(sb_online_check_episode(&h, &in, price, y, 25, why, sizeof why), 0,
			     "%s", why);
		/* the welfare counts |d| = d1 + d2 units */
		cr_assert_eq(sb_online_check_episode(&h, &in, price, y, 15, why, sizeof why), 1);
	}
}

Test(online_k2, every_policy_checked_and_not_above_opt)
{
	int k;

	for (k = 0; k < 40; k++) {
		int C1 = 1 + k % 7, C2 = 1 + k % 5, cmin = C1 < C2 ? C1 : C2;
		struct sb_online_game g = game2(3 + k % 12, C1, C2, 1 + k % cmin, 2 + k % 30);
		sb_test_online_all_below_opt(&g, 17, k);
	}
	sb_online_ptable_clear();
}

Test(online_k2, exhaust_equals_a_loop_over_every_instance)
{
	static const char *const pol[] = { "zcl", "zlw", "randthresh", "greedy" };
	struct sb_online_game g = game2(3, 3, 2, 2, 8);
	int k;

	for (k = 0; k < 4; k++) {
		const struct sb_online_policy *p = sb_online_policy_find(pol[k]);
		struct sb_opts o;
		struct sb_err err;
		unsigned long long code, count, c, n = 1, wc = 0;
		double worst, w = -1;
		int t;
		sb_opts_defaults(&o, p->params);
		cr_assert_eq(sb_online_exhaust(&g, p, &o, 3, &worst, &code, &count, &err), 0, "%s",
			     err.msg);
		for (t = 0; t < g.T; t++)
			n *= 3 * 4;
		cr_assert_eq(count, n);
		for (c = 0; c < n; c++) {
			struct sb_online_inst in;
			double e, r;
			sb_online_gen_enum(&g, &in, 3, c);
			e = ealg(&g, &in, pol[k]);
			r = e > 0 ? sb_online_opt(&g, &in, NULL) / e : INFINITY;
			if (r > w * (1 + 1e-12) || (isinf(r) && !isinf(w))) {
				w = r;
				wc = c;
			}
			sb_online_inst_release(&in);
		}
		cr_assert(worst == w || fabs(worst - w) <= 1e-9 * w, "%s: enumeration %.12g, loop "
			  "%.12g", pol[k], worst, w);
		/* the worst instance it names replays to its ratio (ties may name
		 * another instance than the loop's first) */
		{
			struct sb_online_inst in;
			double e, r;
			sb_online_gen_enum(&g, &in, 3, code);
			e = ealg(&g, &in, pol[k]);
			r = e > 0 ? sb_online_opt(&g, &in, NULL) / e : INFINITY;
			cr_assert(r == worst || fabs(r - worst) <= 1e-9 * worst, "%s: instance %llu "
				  "replays to %.12g, not %.12g (loop's first: %llu)", pol[k], code, r,
				  worst, wc);
			sb_online_inst_release(&in);
		}
	}
}

/* C = (C, C) and demand vectors (d, d): the same acceptances as K = 1 with
 * capacity C and demand d, and |d| = 2d, so E[ALG] and OPT double exactly. */
Test(online_k2, diagonal_demands_are_twice_the_k1_game)
{
	static const char *const pol[] = { "zcl", "greedy", "randthresh", "hindsight" };
	int k, i, t;

	for (k = 0; k < 20; k++) {
		struct sb_online_game g1, g2 = game2(4 + k % 9, 2 + k % 6, 2 + k % 6, 1 + k % 2,
						     2 + k);
		struct sb_rng gen = sb_rng_stream(23, (uint64_t)k, 0, SB_RNG_TEST);
		struct sb_online_inst a, b;
		struct sb_err err;
		cr_assert_eq(sb_online_game_init(&g1, g2.T, g2.C, g2.D, 16, 1, 2 + k, &err), 0);
		sb_online_gen_random(&g1, &a, k & 1, &gen);
		sb_online_inst_alloc(&b, a.T);
		for (t = 0; t < a.T; t++) {
			int dv[2] = { a.d[t], a.d[t] };
			b.d[t] = sb_online_dcode(&g2, dv);
			b.v[t] = a.v[t];
		}
		cr_assert_eq(sb_online_opt(&g2, &b, NULL), 2 * sb_online_opt(&g1, &a, NULL));
		for (i = 0; i < 4; i++)
			cr_assert_float_eq(ealg(&g2, &b, pol[i]), 2 * ealg(&g1, &a, pol[i]),
					   1e-12 * (1 + ealg(&g2, &b, pol[i])), "%s, game %d", pol[i], k);
		sb_online_inst_release(&a);
		sb_online_inst_release(&b);
	}
}

Test(online_k2, bad_games_and_files_name_the_field)
{
	struct sb_online_game g;
	struct sb_online_inst in;
	struct sb_err err;
	int cap[2] = { 5, 3 }, big[2] = { 2000, 2000 }, zero[2] = { 5, 0 };
	char path[] = "/tmp/sb-k2-XXXXXX";
	FILE *f;
	int fd;

	cr_assert_eq(sb_online_game_init_k(&g, 5, 3, cap, 1, 16, 1, 10, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "'K'"), "%s", err.msg);
	cr_assert_eq(sb_online_game_init_k(&g, 5, 0, cap, 1, 16, 1, 10, &err), SB_EXIT_INPUT);
	cr_assert_eq(sb_online_game_init_k(&g, 5, 2, zero, 1, 16, 1, 10, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "'C2'"), "%s", err.msg);
	cr_assert_eq(sb_online_game_init_k(&g, 5, 2, big, 1, 16, 1, 10, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "'C2'"), "%s", err.msg);
	cr_assert_eq(sb_online_game_init_k(&g, 5, 2, cap, 4, 16, 1, 10, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "'D'"), "%s", err.msg);
	cr_assert_eq(sb_online_game_init_k(&g, 5, 2, cap, 3, 16, 1, 10, &err), 0);
	/* a demand code beyond D^2 */
	sb_online_inst_alloc(&in, 5);
	memset(in.d, 0, 5 * sizeof *in.d);
	in.d[0] = 10;
	cr_assert_eq(sb_online_inst_check(&g, &in, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "round 0: field 'd'"), "%s", err.msg);
	sb_online_inst_release(&in);
	/* buyer files: the K = 2 header, each demand's field and line */
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	fprintf(f, "d1,d2,v\n1,2,3\n2,0,3\n");
	fclose(f);
	cr_assert_eq(sb_online_load(path, 2, 2, 1, 10, &in, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "line 3"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "'d2'"), "%s", err.msg);
	cr_assert_eq(sb_online_load(path, 1, 2, 1, 10, &in, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "header 'd,v'"), "%s", err.msg);
	f = fopen(path, "w");
	fprintf(f, "d1,d2,v\n1,2,3\n2,1,9\n");
	fclose(f);
	cr_assert_eq(sb_online_load(path, 2, 2, 1, 10, &in, &err), 0, "%s", err.msg);
	cr_assert_eq(in.T, 2);
	cr_assert_eq(in.d[0], 2);   /* (1, 2): (1 - 1) 2 + 2 */
	cr_assert_eq(in.d[1], 3);   /* (2, 1) */
	sb_online_inst_release(&in);
	remove(path);
}
