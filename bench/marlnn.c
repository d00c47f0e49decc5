/*
 * marlnn.c - `make bench` for the marl placer's networks (algorithms/marl/):
 * the wall time of one placement decision (a forward pass of the two-level
 * GNN, actor, defer head and critic) on T1 and on the 128-GPU T3 (issue
 * target <= 1 ms), FLOP/s of the forward and backward passes next to the
 * measured peak of a plain C dot-product loop, and the default training
 * run's time extrapolated from the measured cost of one rollout decision
 * and one PPO sample update, and from a measured PPO batch of 8 episodes
 * x 200 jobs on T1 with the simulator (issue targets: 400 episodes x 200
 * jobs on T1 <= 10 min on one core, QUICK <= 1 min). Measured, never
 * asserted; the extrapolations are labelled as such.
 *
 * Times are CPU seconds of this process (sb_cpu_now): the bench machine is
 * shared, and the targets are "on one core". FLOP/s are nominal:
 * the dense multiply-adds of the layers divided by the time; the kernel
 * skips zero inputs (idle GPUs, ReLU zeros), so nominal rates can exceed
 * the dot-product loop's, which does every multiply-add with one
 * dependent sum.
 */
#include "bench.h"
#include "algorithms/marl/net.h"
#include "algorithms/marl/placer.h"
#include "algorithms/marl/train.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct sb_col cols[] = {
	{ "what", SB_COL_STR, "" },
	{ "config", SB_COL_STR, "" },
	{ "seconds", SB_COL_DBL, "s" },
	{ "flops", SB_COL_DBL, "FLOP/s" },
	{ "target_s", SB_COL_DBL, "s" },
	{ NULL, 0, NULL },
};

static void row(struct sb_table *t, const char *what, const char *config, double s,
		double flops, double target)
{
	size_t r = sb_table_add(t);
	sb_table_set_str(t, r, "what", what);
	sb_table_set_str(t, r, "config", config);
	sb_table_set_dbl(t, r, "seconds", s);
	sb_table_set_dbl(t, r, "flops", flops);
	sb_table_set_dbl(t, r, "target_s", target);
	printf("%-16s %-40s %12.4g s", what, config, s);
	if (flops > 0)
		printf("  %8.3f GFLOP/s", flops / 1e9);
	if (target > 0)
		printf("  (target <= %g s)%s", target, s > target ? " !" : "");
	printf("\n");
}

/* multiply-adds of the dense layers of one forward pass (2 FLOP each);
 * the backward pass does twice as many (weight and input gradients) */
static double net_flops(const struct sb_marl_net *n, const struct sb_marl_graph *gr)
{
	double f = 0;
	int k, l;

	for (k = 0; k < n->npol + 1; k++) {
		const struct sb_nn *nn = k < n->npol ? n->pol[k] : n->val[0];
		double rows = nn == n->s1->lin || nn == n->s2->lin ? (double)gr->nserv * gr->nsn :
			      nn == n->d1->lin || nn == n->d2->lin ? gr->ndc :
			      nn == n->actor ? gr->nserv : 1;
		for (l = 0; l < nn->nlayers; l++)
			f += 2.0 * rows * nn->size[l] * nn->size[l + 1];
	}
	return f;
}

static void obs_fill(const struct sb_marl_graph *gr, struct sb_rng *r, double *gpu, double *fr,
		     double *job, double *crit, unsigned char *mask, struct sb_marl_obs *o)
{
	int i;

	for (i = 0; i < gr->nserv * gr->ngpu * SB_MARL_GF; i++)
		gpu[i] = sb_rng_bernoulli(r, 0.3) ? sb_rng_uniform(r) : 0;
	for (i = 0; i < gr->nserv; i++) {
		fr[i] = sb_rng_uniform(r);
		mask[i] = sb_rng_bernoulli(r, 0.8);
	}
	mask[gr->nserv] = 1;
	for (i = 0; i < SB_MARL_JF; i++)
		job[i] = sb_rng_uniform(r);
	for (i = 0; i < SB_MARL_CF; i++)
		crit[i] = sb_rng_uniform(r);
	o->gpu = gpu;
	o->free = fr;
	o->job = job;
	o->crit = crit;
	o->mask = mask;
	o->agent = 0;
}

/* the plain C dot-product loop: the machine's scalar double peak for
 * code written like the kernel's */
static double dot_peak(void)
{
	static double a[4096], b[4096];
	volatile double sink = 0;
	double t0, dt, s;
	long reps = 0, i;

	for (i = 0; i < 4096; i++) {
		a[i] = 1.0 + 1e-9 * i;
		b[i] = 1.0 - 1e-9 * i;
	}
	t0 = sb_cpu_now();
	do {
		s = 0;
		for (i = 0; i < 4096; i++)
			s += a[i] * b[i];
		sink += s;
		reps++;
	} while ((dt = sb_cpu_now() - t0) < 0.3);
	(void)sink;
	return 2.0 * 4096 * reps / dt;
}

/* One PPO batch (8 episodes x 200 jobs, load 0.5 -> 0.9) on T1 with the
 * simulator and two agents: CPU seconds and decisions. */
static void train_batch(struct sb_table *tab)
{
	struct sb_marl_env e;
	struct sb_marl_cluster_task tk;
	struct sb_marl_cfg cfg;
	struct sb_marl_curve cv[8];
	struct sb_err err;
	struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_POLICY);
	struct sb_marl_net *n;
	double t0, dt;
	long dec = 0;
	char what[64];
	int k;

	if (sb_marl_env_init(&e, "T1", NULL, 1, 1, &err) ||
	    sb_marl_cluster_task_init(&tk, &e, "agents+marl", 2, 200, &err)) {
		sb_err_print(&err);
		return;
	}
	sb_marl_cfg_defaults(&cfg);
	cfg.episodes = 8;
	n = sb_marl_net_new(SB_MARL_ARCH_GNN, 1, 0, &err);
	sb_marl_net_init(n, &r);
	t0 = sb_cpu_now();
	if (sb_marl_train(n, &tk.task, &cfg, cv, &err))
		sb_err_print(&err);
	dt = sb_cpu_now() - t0;
	for (k = 0; k < 8; k++)
		dec += cv[k].decisions;
	snprintf(what, sizeof what, "ppo-T1-8x200jobs-%lddecisions", dec);
	row(tab, "train-batch", what, dt, 0, 0);
	row(tab, "train-extrap", "default-ppo-T1-400x200-from-batch", dt * 50, 0, 600);
	row(tab, "train-extrap", "quick-ppo-T1-40x100-from-batch", dt * 5 / 2, 0, 60);
	sb_marl_net_free(n);
	sb_marl_cluster_task_release(&tk);
	sb_marl_env_release(&e);
}

static void run(struct sb_table *tab, const char *data)
{
	static const struct { const char *name; int shape[6]; } topo[2] = {
		{ "T1-64gpu", { 2, 2, 4, 2, 1, 2 } },
		{ "T3-128gpu", { 2, 4, 4, 2, 1, 2 } },
	};
	struct sb_err err;
	struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_POLICY);
	struct sb_marl_net *n = sb_marl_net_new(SB_MARL_ARCH_GNN, 1, 0, &err);
	double peak = dot_peak(), upd_t1 = 0, fwd_t1 = 0;
	char cfg[64];
	int k;
	(void)data;

	sb_marl_net_init(n, &r);
	row(tab, "dot-peak", "dot-4096-doubles", 0, peak, 0);
	for (k = 0; k < 2; k++) {
		struct sb_marl_graph gr;
		struct sb_marl_obs o;
		double *gpu, *fr, job[SB_MARL_JF], crit[SB_MARL_CF], *dz, t0, dt, fl, v;
		unsigned char *mask;
		long reps = 0;
		const double *p;
		int j, a;

		if (sb_marl_graph_regular(&gr, topo[k].shape[0], topo[k].shape[1], topo[k].shape[2],
					  topo[k].shape[3], topo[k].shape[4], topo[k].shape[5],
					  &err)) {
			sb_err_print(&err);
			break;
		}
		gpu = SB_NEW(double, (size_t)gr.nserv * gr.ngpu * SB_MARL_GF);
		fr = SB_NEW(double, gr.nserv);
		mask = SB_NEW(unsigned char, gr.nserv + 1);
		dz = SB_NEW(double, gr.nserv + 1);
		obs_fill(&gr, &r, gpu, fr, job, crit, mask, &o);
		fl = net_flops(n, &gr);
		t0 = sb_cpu_now();
		do {
			p = sb_marl_forward(n, &gr, &o, &v);
			a = sb_marl_argmax(p, gr.nserv + 1);
			reps++;
		} while ((dt = sb_cpu_now() - t0) < 0.5);
		(void)a;
		snprintf(cfg, sizeof cfg, "%s-fwd-%.3gflop", topo[k].name, fl);
		row(tab, "decision", cfg, dt / reps, fl * reps / dt, k == 1 ? 1e-3 : 0);
		if (k == 0)
			fwd_t1 = dt / reps;
		reps = 0;
		t0 = sb_cpu_now();
		do {
			p = sb_marl_forward(n, &gr, &o, &v);
			for (j = 0; j <= gr.nserv; j++)
				dz[j] = p[j] - (j == 0);
			sb_marl_backward(n, dz, 0.1);
			reps++;
		} while ((dt = sb_cpu_now() - t0) < 0.5);
		snprintf(cfg, sizeof cfg, "%s-fwd+bwd", topo[k].name);
		row(tab, "fwd+bwd", cfg, dt / reps, 3 * fl * reps / dt, 0);
		if (k == 0)
			upd_t1 = dt / reps;
		sb_free(gpu);
		sb_free(fr);
		sb_free(mask);
		sb_free(dz);
		sb_marl_graph_release(&gr);
	}
	/* Extrapolation, labelled: the default run has 400 episodes x 200
	 * jobs x ~2 decisions (marl.md §3.9 budget) = 1.6e5 decisions, each
	 * one rollout forward pass and 4 PPO forward + backward passes; the
	 * simulator's own time is not included. QUICK: 40 episodes x 100
	 * jobs. */
	{
		double dec = 400.0 * 200 * 2, qdec = 40.0 * 100 * 2;
		row(tab, "train-extrap", "default-ppo-T1-1.6e5dec-nosim",
		    dec * (fwd_t1 + 4 * upd_t1), 0, 600);
		row(tab, "train-extrap", "quick-ppo-T1-8e3dec-nosim",
		    qdec * (fwd_t1 + 4 * upd_t1), 0, 60);
	}
	sb_marl_net_free(n);
	train_batch(tab);
}

const struct sb_bench sb_bench_marlnn = {
	.name = "marlnn",
	.desc = "marl placer networks (CPU s): decision latency T1/T3, nominal forward/backward FLOP/s vs a dot-product loop, training time extrapolated",
	.cols = cols,
	.run = run,
};
