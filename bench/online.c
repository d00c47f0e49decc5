/*
 * online.c - `make bench` for the online family: the default training run
 * of the learned policy (T = 20, C = 20, D = 4, 3,000 iterations with a
 * best response every 100; issue target <= 2 min on one core), the game
 * simulator's sampled rounds per second (target >= 10 M rounds/s) and the
 * exact DP's rounds per second; the same DP and a training run with K = 2
 * resource types (the DP over (C_1 + 1)(C_2 + 1) capacity states; the
 * training of online_ratio's k2 regime). Wall clock, and for the training run also
 * CPU time (clock()): the 2-minute target is about one core, and on a
 * shared machine the wall clock measures the other users too. Measured,
 * never asserted.
 */
#include "bench.h"
#include "online/online.h"
#include "algorithms/advlearn/train.h"
#include "workloads/online/gen.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

static const struct sb_col cols[] = {
	{ "what", SB_COL_STR, "" },
	{ "config", SB_COL_STR, "" },
	{ "seconds", SB_COL_DBL, "s" },
	{ "cpu_seconds", SB_COL_DBL, "s (this process's CPU time; NaN: not measured)" },
	{ "rounds_per_s", SB_COL_DBL, "1/s" },
	{ "value", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static void row(struct sb_table *t, const char *what, const char *config, double s,
		double cpu, double rps, double value)
{
	size_t r = sb_table_add(t);
	sb_table_set_str(t, r, "what", what);
	sb_table_set_str(t, r, "config", config);
	sb_table_set_dbl(t, r, "seconds", s);
	sb_table_set_dbl(t, r, "cpu_seconds", cpu);
	sb_table_set_dbl(t, r, "rounds_per_s", rps);
	sb_table_set_dbl(t, r, "value", value);
	printf("%-10s %-34s %10.3f s (cpu %8.3f s) %12.4g rounds/s  value %.6g\n", what, config,
	       s, cpu, rps, value);
}

/* The exact DP of zcl on one random instance of g, repeated for a second. */
static void time_dp(struct sb_table *tab, const struct sb_online_game *g, const char *config)
{
	struct sb_online_inst in;
	struct sb_online_table tb;
	struct sb_err err;
	struct sb_opts o;
	struct sb_rng gen = sb_rng_stream(1, 0, 0, SB_RNG_INSTANCE);
	const struct sb_online_policy *p = sb_online_policy_find("zcl");
	double t0, dt, e = 0;
	long reps = 0;

	sb_online_gen_random(g, &in, 1, &gen);
	sb_opts_defaults(&o, p->params);
	if (sb_online_tabulate(g, &in, p, &o, &tb, &err)) {
		sb_err_print(&err);
		sb_online_inst_release(&in);
		return;
	}
	t0 = sb_now();
	do {
		e = sb_online_expect(g, &in, &tb);
		reps++;
	} while (sb_now() - t0 < 1.0);
	dt = sb_now() - t0;
	row(tab, "dp", config, dt, NAN, reps * g->T / dt, e);
	sb_online_table_release(&tb);
	sb_online_inst_release(&in);
}

/* One training run of the learned policy on g (3,000 iterations, a best
 * response every 100), CPU time too. */
static void time_train(struct sb_table *tab, const struct sb_online_game *g, const char *config)
{
	struct sb_advlearn_cfg cfg;
	struct sb_advlearn_out out;
	struct sb_err err;
	double t0, c0, dt;

	sb_advlearn_defaults(&cfg);
	cfg.seed = 1;
	t0 = sb_now();
	c0 = (double)clock() / CLOCKS_PER_SEC;
	if (sb_advlearn_train(g, &cfg, &out, &err)) {
		sb_err_print(&err);
		return;
	}
	dt = sb_now() - t0;
	row(tab, "train", config, dt, (double)clock() / CLOCKS_PER_SEC - c0, NAN,
	    out.nlog ? out.log[out.nlog - 1].br : NAN);
	sb_advlearn_out_release(&out);
}

static void run(struct sb_table *tab, const char *data)
{
	struct sb_online_game g;
	struct sb_online_inst in;
	struct sb_online_table tb;
	struct sb_err err;
	struct sb_opts o;
	struct sb_rng gen = sb_rng_stream(1, 0, 0, SB_RNG_INSTANCE), rng = gen;
	const struct sb_online_policy *p = sb_online_policy_find("zcl");
	double *price, t0, dt, w = 0;
	unsigned char *x;
	long reps = 0;
	int comp;
	(void)data;

	/* simulator: sampled episodes of a tabulated policy, long horizon */
	if (sb_online_game_init(&g, 1000, 200, 4, 16, 1, 10, &err)) {
		sb_err_print(&err);
		return;
	}
	sb_online_gen_random(&g, &in, 1, &gen);
	sb_opts_defaults(&o, p->params);
	if (sb_online_tabulate(&g, &in, p, &o, &tb, &err)) {
		sb_err_print(&err);
		sb_online_inst_release(&in);
		return;
	}
	price = SB_NEW(double, g.T);
	x = SB_NEW(unsigned char, g.T);
	t0 = sb_now();
	do {
		w += sb_online_sample(&g, &in, &tb, &rng, price, x, &comp);
		reps++;
	} while (sb_now() - t0 < 1.0);
	dt = sb_now() - t0;
	row(tab, "simulate", "zcl,T=1000,C=200,D=4,sampled", dt, NAN, reps * g.T / dt,
	    w / reps);
	time_dp(tab, &g, "zcl,T=1000,C=200,D=4,exact-DP");
	sb_online_table_release(&tb);
	sb_online_inst_release(&in);
	sb_free(price);
	sb_free(x);

	/* K = 2: the DP over 21 x 21 capacity states, 16 demand vectors */
	{
		int cap[2] = { 20, 20 };
		if (sb_online_game_init_k(&g, 1000, 2, cap, 4, 16, 1, 10, &err)) {
			sb_err_print(&err);
			return;
		}
		time_dp(tab, &g, "zcl,K=2,T=1000,C=20x20,D=4,exact-DP");
	}

	/* the default training run, one core */
	if (sb_online_game_init(&g, 20, 20, 4, 16, 1, 10, &err)) {
		sb_err_print(&err);
		return;
	}
	time_train(tab, &g, "learned,T=20,C=20,D=4,U/L=10,3000it");
	printf("train      target: <= 120 s of CPU on one core (value: the last best "
	       "response's mean ratio)\n");
	/* K = 2: online_ratio's k2 game (5 rounds, 4 + 4 units, demands {1,2}^2) */
	{
		int cap[2] = { 4, 4 };
		if (sb_online_game_init_k(&g, 5, 2, cap, 2, 16, 1, 10, &err)) {
			sb_err_print(&err);
			return;
		}
		time_train(tab, &g, "learned,K=2,T=5,C=4x4,D=2,U/L=10,3000it");
	}
}

const struct sb_bench sb_bench_online = {
	.name = "online",
	.desc = "learned-policy training time; simulator and DP rounds/s",
	.cols = cols,
	.run = run,
};
