/*
 * pipeline.c - `make bench` for the pipeline family: pipesim tasks/s
 * (compute tasks and transfers) under every registered schedule on
 * straight pipelines of 4-32 stages with 16-1024 microbatches, and every
 * registered planner's wall time on the models of the figures and on a
 * 100-layer synthetic chain over 64 GPUs (the target: <= 1 s).
 * Wall clock, measured, never asserted.
 */
#include "bench.h"
#include "pipeline/pipeline.h"
#include "workloads/pipeline/load.h"
#include "experiments/pipeline/common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct sb_col cols[] = {
	{ "what", SB_COL_STR, "" },
	{ "name", SB_COL_STR, "" },
	{ "instance", SB_COL_STR, "" },
	{ "layers", SB_COL_INT, "" },
	{ "gpus", SB_COL_INT, "" },
	{ "tasks", SB_COL_INT, "" },
	{ "seconds", SB_COL_DBL, "s" },
	{ "tasks_per_s", SB_COL_DBL, "1/s" },
	{ "iter_time", SB_COL_DBL, "s" },
	{ "peak_rss_mib", SB_COL_DBL, "MiB" },
	{ NULL, 0, NULL },
};

/* pipesim on a straight S-stage pipeline of m over t's first S GPUs */
static void bench_sim(struct sb_table *tab, const struct sb_pmodel *m, const struct sb_topo *t,
		      int S, int M)
{
	int n, k, s, reps;
	const struct sb_pipeline_schedule *const *sc = sb_pipeline_schedules(&n);
	struct sb_pipeline_plan p;
	struct sb_opts o;
	struct sb_err err;
	char inst[48];

	sb_pipeline_plan_init(&p, S, 1);
	p.M = M;
	p.batch = 4.0 * M;
	snprintf(p.planner, sizeof p.planner, "straight-%d", S);
	for (s = 0; s < S; s++) {
		p.st[s].first = s * m->n / S;
		p.st[s].last = (s + 1) * m->n / S - 1;
		p.st[s].r = 1;
		p.st[s].gpu[0] = s;
	}
	snprintf(inst, sizeof inst, "S%d-M%d", S, M);
	for (k = 0; k < n; k++) {
		struct sb_pipeline_result r;
		long tasks = 0;
		double t0 = sb_now(), dt, it = NAN;
		size_t row;
		sb_opts_defaults(&o, sc[k]->params);
		for (reps = 0; reps < 1000 && (reps < 3 || sb_now() - t0 < 0.5); reps++) {
			if (sb_pipeline_simulate(&p, m, t, sc[k], &o, &r, &err)) {
				sb_err_print(&err);
				break;
			}
			tasks += r.nev;
			it = r.iter_time;
			sb_pipeline_result_release(&r);
		}
		dt = sb_now() - t0;
		row = sb_table_add(tab);
		sb_table_set_str(tab, row, "what", "pipesim");
		sb_table_set_str(tab, row, "name", sc[k]->name);
		sb_table_set_str(tab, row, "instance", inst);
		sb_table_set_int(tab, row, "layers", m->n);
		sb_table_set_int(tab, row, "gpus", S);
		sb_table_set_int(tab, row, "tasks", tasks);
		sb_table_set_dbl(tab, row, "seconds", dt);
		sb_table_set_dbl(tab, row, "tasks_per_s", tasks / dt);
		sb_table_set_dbl(tab, row, "iter_time", it);
		sb_table_set_dbl(tab, row, "peak_rss_mib", sb_peak_rss_kib() / 1024.0);
		printf("%-8s %-16s %-22s %8ld tasks %8.3f s %10.3g tasks/s\n", "pipesim",
		       sc[k]->name, inst, tasks, dt, tasks / dt);
	}
	sb_pipeline_plan_release(&p);
}

static void bench_planners(struct sb_table *tab, const struct sb_pmodel *m,
			   const struct sb_topo *t, double batch, int M)
{
	int n, k;
	const struct sb_pipeline_planner *const *pl = sb_pipeline_planners(&n);
	for (k = 0; k < n; k++) {
		struct sb_pipeline_plan plan;
		const struct sb_pipeline_schedule *sc;
		struct sb_err err;
		double secs = NAN;
		size_t row;
		int rc = sb_pipeline_exp_plan(m, t, pl[k]->name, NULL, batch, M, &plan, &sc, &secs, &err);
		row = sb_table_add(tab);
		sb_table_set_str(tab, row, "what", "planner");
		sb_table_set_str(tab, row, "name", pl[k]->name);
		sb_table_set_str(tab, row, "instance", m->name);
		sb_table_set_int(tab, row, "layers", m->n);
		sb_table_set_int(tab, row, "gpus", t->n);
		sb_table_set_dbl(tab, row, "seconds", secs);
		sb_table_set_dbl(tab, row, "peak_rss_mib", sb_peak_rss_kib() / 1024.0);
		if (rc == 0) {
			struct sb_pipeline_result r;
			struct sb_opts o;
			sb_opts_defaults(&o, sc->params);
			if (sb_pipeline_simulate(&plan, m, t, sc, &o, &r, &err) == 0) {
				sb_table_set_dbl(tab, row, "iter_time", r.iter_time);
				sb_pipeline_result_release(&r);
			}
			sb_pipeline_plan_release(&plan);
		}
		printf("%-8s %-16s %-22s %4d layers %3d GPUs %8.4f s%s\n", "planner", pl[k]->name,
		       m->name, m->n, t->n, secs, rc ? " (no plan)" : "");
	}
}

static void run(struct sb_table *tab, const char *data)
{
	static const int S[] = { 4, 8, 16, 32 }, M[] = { 16, 64, 256, 1024 };
	struct sb_pmodel m, big;
	struct sb_topo t, t64;
	struct sb_err err;
	struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_INSTANCE);
	int i;

	if (sb_analytic_model("bert-48", &m, &err) || sb_topo_named("2x8-nvlink-25gbe", &t, &err)) {
		sb_err_print(&err);
		return;
	}
	printf("\n%-8s %-16s %-22s\n", "what", "name", "instance");
	{
		struct sb_topo wide;
		sb_topo_random(&wide, 32, &r);
		wide.mem = INFINITY;
		for (i = 0; i < 4; i++)
			bench_sim(tab, &m, &wide, S[i], M[i]);
		sb_topo_release(&wide);
	}
	bench_planners(tab, &m, &t, 256, 16);
	sb_pipeline_exp_random_model(&big, 100, &r);
	sb_topo_random(&t64, 64, &r);
	snprintf(t64.name, sizeof t64.name, "random-64");
	bench_planners(tab, &big, &t64, 4096, 16);
	sb_pmodel_release(&big);
	sb_topo_release(&t64);
	sb_topo_release(&t);
	sb_pmodel_release(&m);
}

const struct sb_bench sb_bench_pipeline = {
	.name = "pipeline",
	.desc = "pipesim tasks/s per schedule and every planner's wall time",
	.cols = cols,
	.run = run,
};
