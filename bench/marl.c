/*
 * marl.c - `make bench` for the topology-and-interference mode of the
 * cluster family (spec marl.md; issue #15: one placement decision on a
 * 128-GPU topology, target <= 1 ms for the learned scheduler): the time of
 * one placement decision of every heuristic placer on T3 (128 GPUs) in
 * mid-run states of a load-0.9 trace, the training time of the learned
 * interference model, and simulated events per second. Wall clock,
 * measured, never asserted; a miss of the 1 ms target is marked '!'.
 */
#include "bench.h"
#include "cluster/topoplace.h"
#include "workloads/cluster/marl.h"

#include <stdio.h>
#include <string.h>

static const struct sb_col cols[] = {
	{ "what", SB_COL_STR, "" },
	{ "policy", SB_COL_STR, "" },
	{ "seconds", SB_COL_DBL, "s" },
	{ "us_per_job", SB_COL_DBL, "us (policy hooks per placed job)" },
	{ "value", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static void row(struct sb_table *t, const char *what, const char *policy, double s, double us,
		double value)
{
	size_t r = sb_table_add(t);
	sb_table_set_str(t, r, "what", what);
	sb_table_set_str(t, r, "policy", policy);
	sb_table_set_dbl(t, r, "seconds", s);
	sb_table_set_dbl(t, r, "us_per_job", us);
	sb_table_set_dbl(t, r, "value", value);
	printf("%-10s %-28s %9.3f s %12.2f us/placed job%s  value %.6g\n", what, policy, s, us,
	       us > 1000 ? " !" : "  ", value);
}

static void run(struct sb_table *tab, const char *data)
{
	static const char *const placers[] = { "marl-random", "consolidate", "spread", "tetris",
					       "greedy-interf", NULL };
	struct sb_marl_env *e = SB_NEW(struct sb_marl_env, 1);
	struct sb_interf_pred_params pp;
	struct sb_interf_pred *pred;
	struct sb_marl_gen gp;
	struct sb_jobset js;
	struct sb_err err;
	struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_INSTANCE);
	double t0, dt, mape;
	int k;
	(void)data;

	if (sb_marl_env_init(e, "T3", NULL, 1, 1, &err)) {
		sb_err_print(&err);
		sb_free(e);
		return;
	}
	sb_interf_pred_defaults(&pp);
	t0 = sb_now();
	pred = sb_interf_pred_train(&e->interf, &pp, &mape, NULL);
	row(tab, "train", "interference-mlp", sb_now() - t0, 0, mape);
	e->interf.pred = pred;
	sb_marl_gen_defaults(&gp);
	gp.njobs = 400;
	gp.load = 0.9;
	sb_marl_generate(e, &gp, &r, &js);
	/* a whole run of each placer under two agents: the time in the
	 * policy hooks per placed job (every job is placed once; the
	 * attempts that deferred, and the simulator's recomputation of the
	 * neighbours' speeds at every start, which runs inside the hook, are
	 * charged to the jobs too, so this over-estimates one decision) */
	for (k = 0; placers[k]; k++) {
		struct sb_cluster_combo cb;
		struct sb_cluster_result res;
		struct sb_opts so, po;
		char label[64];
		snprintf(label, sizeof label, "agents+%s", placers[k]);
		if (sb_cluster_combo_parse(&cb, label, &err)) {
			sb_err_print(&err);
			continue;
		}
		sb_opts_defaults(&so, cb.sched->params);
		sb_opts_defaults(&po, cb.place->params);
		t0 = sb_now();
		if (sb_cluster_simulate(&e->cl, &js, &cb, &so, &po, 1, &res, &err)) {
			sb_err_print(&err);
			continue;
		}
		dt = sb_now() - t0;
		row(tab, "place", placers[k], res.sched_seconds,
		    1e6 * res.sched_seconds / js.n, (double)res.decisions);
		row(tab, "simulate", label, dt, 0, (double)res.events / dt);
		sb_cluster_result_release(&res);
	}
	sb_jobset_release(&js);
	sb_interf_pred_free(pred);
	sb_marl_env_release(e);
	sb_free(e);
}

const struct sb_bench sb_bench_marl = {
	.name = "marl",
	.desc = "topology mode: one placement decision per heuristic on 128 GPUs, S^ training",
	.cols = cols,
	.run = run,
};
