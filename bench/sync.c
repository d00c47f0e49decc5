/*
 * sync.c - speed of the sync family's simulator (#18): one 1,500-simulated-
 * second run with 18 workers on the MLP 64-64-10 per scheme (target: at
 * most 10 s on one core), reported as CPU seconds of this process (the
 * machine may be shared: wall time would measure the neighbours) and
 * SGD steps per CPU second.
 */
#include "bench.h"
#include "sync/sync.h"

#include <stdio.h>
#include <time.h>

static const struct sb_col cols[] = {
	{ "policy", SB_COL_STR, "" },
	{ "sim_seconds", SB_COL_DBL, "s (simulated)" },
	{ "workers", SB_COL_INT, "" },
	{ "steps", SB_COL_INT, "" },
	{ "cpu_seconds", SB_COL_DBL, "s" },
	{ "steps_per_cpu_s", SB_COL_DBL, "1/s" },
	{ NULL, 0, NULL },
};

static void run(struct sb_table *t, const char *data)
{
	static const char *const pol[] = { "adsp", "bsp" };
	struct sb_sync_world_cfg cfg = { NULL, 0.4, 18, 2.6, 1.0, 0.05, SB_SYNC_MLP, 1, 0 };
	struct sb_sync_world w;
	struct sb_err err;
	size_t k;

	if (sb_sync_world_make(&w, &cfg, &err)) {
		sb_err_print(&err);
		return;
	}
	w.in.horizon = 1500;
	w.in.target = 0.36;   /* about 1.05 x the single-node loss; the run lasts the horizon */
	for (k = 0; k < sizeof pol / sizeof pol[0]; k++) {
		const struct sb_sync_policy *p = sb_sync_policy_find(pol[k]);
		struct sb_sync_result r;
		struct sb_opts o;
		clock_t c0;
		double cpu;
		size_t row;
		sb_opts_defaults(&o, p->params);
		c0 = clock();
		if (sb_sync_run(&w.in, p, &o, &r, &err)) {
			sb_err_print(&err);
			continue;
		}
		cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
		row = sb_table_add(t);
		sb_table_set_str(t, row, "policy", p->name);
		sb_table_set_dbl(t, row, "sim_seconds", w.in.horizon);
		sb_table_set_int(t, row, "workers", w.in.m);
		sb_table_set_int(t, row, "steps", r.steps);
		sb_table_set_dbl(t, row, "cpu_seconds", cpu);
		sb_table_set_dbl(t, row, "steps_per_cpu_s", r.steps / cpu);
		printf("sync %-6s 1500 simulated s, 18 workers, MLP: %ld steps, %.2f CPU s "
		       "(%.0f steps/s); target <= 10 CPU s: %s\n", p->name, r.steps, cpu,
		       r.steps / cpu, cpu <= 10 ? "met" : "missed !");
		sb_sync_result_release(&r);
	}
	sb_sync_world_release(&w);
}

const struct sb_bench sb_bench_sync = {
	.name = "sync",
	.desc = "sync simulator: CPU time of a 1,500 s run, 18 workers, MLP",
	.cols = cols,
	.run = run,
};
