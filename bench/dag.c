/*
 * dag.c - `make bench` for the dag family: simulator events/s and
 * the wall time and peak memory of every policy on the largest inputs
 * (the dynamic-RNN TF graph on 50 devices when `make data` has run, and
 * synthetic layered graphs up to ~600k edges), written to
 * results/bench.h5 and printed as a table. Times are wall clock on this
 * machine: measured, never asserted.
 */
#include "dag/dag.h"
#include "h5.h"
#include "lp.h"
#include "rng.h"
#include "table.h"
#include "workloads/dag/load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dag/bound.h"
#include "bench.h"
#include "registry.h"
#include "exp.h"

static const struct sb_col cols[] = {
	{ "instance", SB_COL_STR, "" },
	{ "policy", SB_COL_STR, "" },
	{ "ops", SB_COL_INT, "" },
	{ "edges", SB_COL_INT, "" },
	{ "devices", SB_COL_INT, "" },
	{ "part_seconds", SB_COL_DBL, "s" },
	{ "sched_seconds", SB_COL_DBL, "s" },
	{ "events", SB_COL_INT, "" },
	{ "events_per_s", SB_COL_DBL, "1/s" },
	{ "peak_rss_mib", SB_COL_DBL, "MiB" },
	{ "makespan", SB_COL_DBL, "time units" },
	{ NULL, 0, NULL },
};

/* Run bench_inst in a child process, so that its peak RSS is its own, and
 * collect the child's rows through a pipe. */
static void bench_inst(struct sb_table *t, const struct sb_dag_inst *in, int all);

static void bench_isolated(struct sb_table *t, const struct sb_dag_inst *in, int all)
{
	int fd[2];
	pid_t pid;
	if (pipe(fd) != 0) {
		bench_inst(t, in, all);
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct sb_table mine;
		close(fd[0]);
		sb_table_init(&mine, cols);
		bench_inst(&mine, in, all);
		if (mine.nrow && write(fd[1], mine.data, mine.nrow * mine.rowsize) < 0)
			_exit(1);
		fflush(stdout);
		_exit(0);
	}
	close(fd[1]);
	for (;;) {
		size_t r = sb_table_add(t);
		ssize_t got = 0, want = (ssize_t)t->rowsize;
		while (got < want) {
			ssize_t k = read(fd[0], sb_table_row(t, r) + got, (size_t)(want - got));
			if (k <= 0)
				break;
			got += k;
		}
		if (got < want) {
			t->nrow--;
			break;
		}
	}
	close(fd[0]);
	waitpid(pid, NULL, 0);
}

static void bench_inst(struct sb_table *t, const struct sb_dag_inst *in, int all)
{
	int n, i;
	const struct sb_dag_policy *const *p = sb_dag_policies(&n);
	for (i = 0; i < n; i++) {
		struct sb_dag_combo c;
		struct sb_dag_metrics m;
		struct sb_opts po, so;
		struct sb_err err;
		struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_POLICY);
		char label[96];
		size_t row;
		if (!p[i]->partition)
			continue;
		/* the quadratic list schedulers only on the graphs they are meant for */
		if (!all && p[i]->default_sched && !strcmp(p[i]->default_sched, "heft-order"))
			continue;
		snprintf(label, sizeof label, "%s%s", p[i]->name,
			 p[i]->default_sched && !strcmp(p[i]->default_sched, "heft-order") ? "" : "+pct");
		if (sb_dag_combo_parse(&c, label, &err))
			continue;
		sb_opts_defaults(&po, c.part->params);
		sb_opts_defaults(&so, c.sched->params);
		if (sb_dag_run_combo(in, &c, &po, &so, &r, &m, NULL, &err)) {
			fprintf(stderr, "bench: %s on %s: %s\n", label, in->name, err.msg);
			continue;
		}
		row = sb_table_add(t);
		sb_table_set_str(t, row, "instance", in->name);
		sb_table_set_str(t, row, "policy", label);
		sb_table_set_int(t, row, "ops", in->g.n);
		sb_table_set_int(t, row, "edges", in->g.m);
		sb_table_set_int(t, row, "devices", in->dev.n);
		sb_table_set_dbl(t, row, "part_seconds", m.part_seconds);
		sb_table_set_dbl(t, row, "sched_seconds", m.sched_seconds);
		sb_table_set_int(t, row, "events", m.events);
		sb_table_set_dbl(t, row, "events_per_s", m.events / (m.sched_seconds > 0 ? m.sched_seconds : 1e-9));
		sb_table_set_dbl(t, row, "peak_rss_mib", sb_peak_rss_kib() / 1024.0);
		sb_table_set_dbl(t, row, "makespan", m.makespan);
		printf("%-16s %-16s %7d %8d %10.4f %10.4f %10ld %12.3g %8.1f\n", in->name, label,
		       in->g.n, in->g.m, m.part_seconds, m.sched_seconds, m.events,
		       m.events / (m.sched_seconds > 0 ? m.sched_seconds : 1e-9),
		       sb_peak_rss_kib() / 1024.0);
		fflush(stdout);
	}
}

/* The simulator alone: FIFO keys (no priority cost) on the densest graph,
 * best of 3 runs, events per second of simulate() only. */
static void bench_sim(struct sb_table *t)
{
	struct sb_dag_inst in;
	struct sb_layered_params lp;
	struct sb_devgen_params dp;
	struct sb_rng r = sb_rng_stream(1, 2, 0, SB_RNG_INSTANCE);
	struct sb_dag_plan plan;
	struct sb_dag_exec x;
	double best = 1e300;
	long events = 0;
	int k, v;
	size_t row;

	memset(&in, 0, sizeof in);
	sb_layered_defaults(&lp);
	lp.p = 0.9;
	sb_gen_layered(&in.g, &lp, &r);
	sb_devgen_defaults(&dp);
	sb_gen_devices(&in.dev, &dp, &r);
	in.send_ops = 10;
	in.name = sb_xstrdup("layered-p0.9");
	sb_dag_plan_init(&plan, in.g.n);
	for (v = 0; v < in.g.n; v++) /* hash-like spread: many Sends, many events */
		plan.place[v] = v % in.dev.n;
	sb_dag_exec_build(&x, &in, plan.place);
	for (k = 0; k < 3; k++) {
		struct sb_dag_result res;
		struct sb_err err;
		double t0 = sb_now(), dt;
		if (sb_dag_simulate(&x, &plan, sb_dag_policy_find("fifo"), NULL, &res, &err))
			break;
		dt = sb_now() - t0;
		events = res.events;
		if (dt < best)
			best = dt;
		sb_dag_result_release(&res);
	}
	row = sb_table_add(t);
	sb_table_set_str(t, row, "instance", in.name);
	sb_table_set_str(t, row, "policy", "dagsim-only(fifo)");
	sb_table_set_int(t, row, "ops", in.g.n);
	sb_table_set_int(t, row, "edges", in.g.m);
	sb_table_set_int(t, row, "devices", in.dev.n);
	sb_table_set_dbl(t, row, "sched_seconds", best);
	sb_table_set_int(t, row, "events", events);
	sb_table_set_dbl(t, row, "events_per_s", events / best);
	sb_table_set_dbl(t, row, "peak_rss_mib", sb_peak_rss_kib() / 1024.0);
	printf("%-16s %-16s %7d %8d %10s %10.4f %10ld %12.3g %8.1f   (simulator alone, best of 3)\n",
	       in.name, "dagsim(fifo)", in.g.n, in.g.m, "-", best, events, events / best,
	       sb_peak_rss_kib() / 1024.0);
	sb_dag_exec_release(&x);
	sb_dag_plan_release(&plan);
	sb_dag_inst_release(&in);
}

/* The relaxed-send MILP on random DAGs (4 devices, two speeds), warm
 * started from HEFT: the largest n proven optimal within the time limit
 * (n = 10, 15, 20, ... until a solve is not proven optimal). */
static void bench_milp(struct sb_table *t)
{
	const char *lim = getenv("SB_BENCH_MILP_LIMIT");
	double limit = lim ? atof(lim) : 60;
	int n;
	printf("\nrelaxed-send MILP, 4 devices of two speeds, time limit %g s:\n", limit);
	for (n = 10; n <= 60; n += 5) {
		struct sb_dag_inst in;
		struct sb_rng r = sb_rng_stream(1, (uint64_t)n, 0, SB_RNG_INSTANCE);
		struct sb_dag_combo c;
		struct sb_dag_metrics m;
		struct sb_opts po, so;
		struct sb_err err;
		struct sb_dag_milp_opts mo;
		struct sb_lp_result lr;
		int *place;
		double *start;
		char name[64];
		size_t row;
		int optimal;

		sb_gen_small(&in, n, 4, 0.2, &r);
		place = SB_NEW(int, n);
		start = SB_NEW(double, n);
		sb_dag_combo_parse(&c, "heft", &err);
		sb_opts_defaults(&po, c.part->params);
		sb_opts_defaults(&so, c.sched->params);
		if (sb_dag_run_combo_start(&in, &c, &po, &so, &r, &m, place, start, &err)) {
			sb_err_print(&err);
			break;
		}
		memset(&mo, 0, sizeof mo);
		mo.time_limit = limit;
		mo.inc_place = place;
		mo.inc_start = start;
		mo.inc_makespan = m.makespan;
		if (sb_dag_milp_relaxed(&in, &mo, &lr, &err)) {
			sb_err_print(&err);
			break;
		}
		optimal = lr.status == SB_LP_OPTIMAL;
		snprintf(name, sizeof name, "milp-n%d", n);
		row = sb_table_add(t);
		sb_table_set_str(t, row, "instance", name);
		sb_table_set_str(t, row, "policy", sb_lp_status_name(lr.status));
		sb_table_set_int(t, row, "ops", n);
		sb_table_set_int(t, row, "edges", in.g.m);
		sb_table_set_int(t, row, "devices", 4);
		sb_table_set_dbl(t, row, "sched_seconds", lr.seconds);
		sb_table_set_dbl(t, row, "makespan", lr.obj);
		printf("  n=%2d edges=%3d  %-9s %7.2f s  best %.6g  bound %.6g  (HEFT %.6g)\n", n,
		       in.g.m, sb_lp_status_name(lr.status), lr.seconds, lr.obj, lr.bound, m.makespan);
		fflush(stdout);
		sb_lp_result_release(&lr);
		sb_free(place);
		sb_free(start);
		sb_dag_inst_release(&in);
		if (!optimal)
			break;
	}
}

static void run(struct sb_table *t, const char *data)
{
	char g[4096], d[4096];
	struct sb_err err;
	double p[3] = { 0.01, 0.1, 0.9 };
	int i;

	printf("%-16s %-16s %7s %8s %10s %10s %10s %12s %8s\n", "instance", "policy", "ops",
	       "edges", "part_s", "sched_s", "events", "events/s", "rss_MiB");
	snprintf(g, sizeof g, "%s/tfpartsched/graph/dynamic_rnn_graph.csv", data);
	snprintf(d, sizeof d, "%s/tfpartsched/device/2017_02_03_11_22_48-50-10-100-100000000-10-60-0.6.csv", data);
	if (access(g, R_OK) == 0 && access(d, R_OK) == 0) {
		struct sb_dag_inst in;
		if (sb_load_tf_inst(g, d, &in, &err) == 0) {
			bench_isolated(t, &in, 1);
			sb_dag_inst_release(&in);
		}
	} else {
		fprintf(stderr, "bench: no TF graphs in %s (run make data); synthetic graphs only\n", data);
	}
	for (i = 0; i < 3; i++) {
		struct sb_dag_inst in;
		struct sb_layered_params lp;
		struct sb_devgen_params dp;
		struct sb_rng r = sb_rng_stream(1, (uint64_t)i, 0, SB_RNG_INSTANCE);
		char name[64];
		memset(&in, 0, sizeof in);
		sb_layered_defaults(&lp);
		lp.p = p[i];
		sb_gen_layered(&in.g, &lp, &r);
		sb_devgen_defaults(&dp);
		sb_gen_devices(&in.dev, &dp, &r);
		in.send_ops = 10;
		snprintf(name, sizeof name, "layered-p%g", p[i]);
		in.name = sb_xstrdup(name);
		bench_isolated(t, &in, i == 0);
		sb_dag_inst_release(&in);
	}
	bench_sim(t);
	bench_milp(t);
}

const struct sb_bench sb_bench_dag = {
	.name = "dag",
	.desc = "dagsim events/s, every policy's time and memory on the largest graphs, MILP times",
	.cols = cols,
	.run = run,
};
