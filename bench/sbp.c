/*
 * sbp.c - `make bench` for the sbp family: on a 24-layer GPT (forward and
 * backward) at p = 8, the greedy and elimination planners' wall time and
 * the ILP's time and status (issue targets: greedy <= 10 ms, ILP proven
 * within 60 s or reported with its gap); the actor DES's events/s on a
 * long chain and on a pipeline (target >= 10 M events/s), per wall
 * second and per CPU second (on a shared machine the wall rate mostly
 * measures the other load). Measured, never asserted.
 */
#include "bench.h"
#include "lp.h"
#include "sbp/actor.h"
#include "sbp/sbp.h"
#include "workloads/sbp/models.h"

#include <math.h>
#include <stdio.h>

static const struct sb_col cols[] = {
	{ "what", SB_COL_STR, "" },
	{ "name", SB_COL_STR, "" },
	{ "instance", SB_COL_STR, "" },
	{ "seconds", SB_COL_DBL, "s" },
	{ "events_per_s", SB_COL_DBL, "1/s (wall clock)" },
	{ "events_per_cpu_s", SB_COL_DBL, "1/s (CPU time)" },
	{ "cost", SB_COL_DBL, "" },
	{ "status", SB_COL_STR, "" },
	{ "gap", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static void row(struct sb_table *t, const char *what, const char *name, const char *inst,
		double s, double eps, double epc, double cost, const char *status, double gap)
{
	size_t r = sb_table_add(t);
	sb_table_set_str(t, r, "what", what);
	sb_table_set_str(t, r, "name", name);
	sb_table_set_str(t, r, "instance", inst);
	sb_table_set_dbl(t, r, "seconds", s);
	sb_table_set_dbl(t, r, "events_per_s", eps);
	sb_table_set_dbl(t, r, "events_per_cpu_s", epc);
	sb_table_set_dbl(t, r, "cost", cost);
	sb_table_set_str(t, r, "status", status);
	sb_table_set_dbl(t, r, "gap", gap);
	if (isnan(gap))
		printf("%-8s %-14s %-22s %10.4f s %12.4g ev/s %12.4g ev/cpu-s cost %.6g %s no bound\n",
		       what, name, inst, s, eps, epc, cost, status);
	else
		printf("%-8s %-14s %-22s %10.4f s %12.4g ev/s %12.4g ev/cpu-s cost %.6g %s gap %.2g\n",
		       what, name, inst, s, eps, epc, cost, status, gap);
}

static void run(struct sb_table *tab, const char *data)
{
	struct sb_sbp_graph g;
	struct sb_sbp_place pl;
	struct sb_err err;
	static const char *const planners[] = { "greedy", "elim", "data-parallel", "megatron" };
	int i, *sig;
	(void)data;
	sb_sbp_place_1d(&pl, 8);
	sb_sbp_graph_init(&g, "gpt24");
	sb_sbp_build_gpt(&g, 24, 8, 1024, 4096, 32, 1);
	if (sb_sbp_graph_finish(&g, &pl, &err)) {
		sb_err_print(&err);
		return;
	}
	sig = SB_NEW(int, g.nop);
	for (i = 0; i < 4; i++) {
		const struct sb_sbp_planner *p = sb_sbp_planner_find(planners[i]);
		struct sb_opts o;
		double t0, dt;
		int reps = 0;
		sb_opts_defaults(&o, p->params);
		t0 = sb_now();
		do {
			if (p->plan(&g, &o, sig, &err)) {
				sb_err_print(&err);
				break;
			}
			reps++;
		} while (sb_now() - t0 < 0.3 && reps < 1000);
		dt = (sb_now() - t0) / (reps ? reps : 1);
		row(tab, "planner", p->name, "gpt24-p8", dt, NAN, NAN, sb_sbp_assign_cost(&g, sig), "", NAN);
	}
	{
		struct sb_sbp_ilp_opts io = { 0 };
		struct sb_sbp_ilp_result res;
		const struct sb_sbp_planner *el = sb_sbp_planner_find("elim");
		struct sb_opts o;
		int *start = SB_NEW(int, g.nop);
		double t0;
		sb_opts_defaults(&o, el->params);
		el->plan(&g, &o, start, &err);
		io.node_limit = 20000;
		io.time_limit = 60;
		io.start = start;
		t0 = sb_now();
		if (sb_sbp_ilp(&g, &io, sig, &res, &err))
			sb_err_print(&err);
		else
			/* a solve stopped before any bound has no gap to report */
			row(tab, "ilp", "glpk", "gpt24-p8", sb_now() - t0, NAN, NAN, res.obj,
			    sb_lp_status_name(res.status),
			    isfinite(res.bound) && fabs(res.bound) < 1e300 ? res.gap : NAN);
		sb_free(start);
	}
	sb_free(sig);
	sb_sbp_graph_release(&g);
	/* actor DES */
	{
		struct sb_actor_sys s;
		struct sb_actor_result r;
		int64_t d[16];
		int n = 16, k;
		double t0, c0;
		sb_actor_sys_init(&s);
		for (k = 0; k < n; k++) {
			d[k] = 1000 + 37 * k;
			sb_actor_add(&s, "a", d[k]);
			if (k + 1 < n)
				sb_actor_slot(&s, k, 2, 1);
			if (k)
				sb_actor_connect(&s, k - 1, 0, k, 1);
		}
		s.a[0].limit = 200000;
		t0 = sb_now();
		c0 = sb_cpu_now();
		if (!sb_actor_run(&s, NULL, -1, -1, &r, &err)) {
			double dt = sb_now() - t0, dc = sb_cpu_now() - c0;
			row(tab, "actors", "chain", "16-actors-200k", dt, r.events / dt, r.events / dc,
			    NAN, "", NAN);
			sb_actor_result_release(&r);
		}
		sb_actor_sys_release(&s);
		{
			int64_t F[8], B[8];
			for (k = 0; k < 8; k++)
				F[k] = 1000, B[k] = 2000;
			sb_actor_sys_init(&s);
			sb_actor_pipeline(&s, 8, 100000, F, B, SB_PIPE_1F1B);
			t0 = sb_now();
			c0 = sb_cpu_now();
			if (!sb_actor_run(&s, NULL, -1, -1, &r, &err)) {
				double dt = sb_now() - t0, dc = sb_cpu_now() - c0;
				row(tab, "actors", "pipeline-1f1b", "S8-M100k", dt, r.events / dt,
				    r.events / dc, NAN, "", NAN);
				sb_actor_result_release(&r);
			}
			sb_actor_sys_release(&s);
		}
	}
}

const struct sb_bench sb_bench_sbp = {
	.name = "sbp",
	.desc = "sbp planners and the ILP on a 24-layer GPT at p = 8; actor DES events/s",
	.cols = cols,
	.run = run,
};
