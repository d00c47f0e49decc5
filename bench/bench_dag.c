/*
 * bench_dag.c - `make bench` for the dag family: simulator events/s and
 * the wall time and peak memory of every policy on the largest inputs
 * (the dynamic-RNN TF graph on 50 devices when `make data` has run, and
 * synthetic layered graphs up to ~600k edges), written to
 * results/bench.h5 and printed as a table. Times are wall clock on this
 * machine: measured, never asserted.
 */
#include "dag.h"
#include "h5.h"
#include "lp.h"
#include "rng.h"
#include "table.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
	const char *data = getenv("DATA_DIR") ? getenv("DATA_DIR") : "data";
	const char *out = argc > 1 ? argv[1] : "results/bench.h5";
	char g[4096], d[4096];
	struct sb_table t;
	struct sb_attrs at;
	struct sb_err err;
	struct sb_h5_dataset ds = { "dag", &t };
	double p[3] = { 0.01, 0.1, 0.9 };
	int i;

	sb_table_init(&t, cols);
	printf("%-16s %-16s %7s %8s %10s %10s %10s %12s %8s\n", "instance", "policy", "ops",
	       "edges", "part_s", "sched_s", "events", "events/s", "rss_MiB");
	snprintf(g, sizeof g, "%s/tfpartsched/graph/dynamic_rnn_graph.csv", data);
	snprintf(d, sizeof d, "%s/tfpartsched/device/2017_02_03_11_22_48-50-10-100-100000000-10-60-0.6.csv", data);
	if (access(g, R_OK) == 0 && access(d, R_OK) == 0) {
		struct sb_dag_inst in;
		if (sb_load_tf_inst(g, d, &in, &err) == 0) {
			bench_inst(&t, &in, 1);
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
		bench_inst(&t, &in, i == 0);
		sb_dag_inst_release(&in);
	}
	sb_attrs_init(&at);
	sb_attrs_str(&at, "experiment", "bench");
	sb_attrs_str(&at, "glpk_version", sb_lp_version());
	sb_attrs_str(&at, "hdf5_version", sb_h5_version());
	sb_attrs_str(&at, "compiler", "gcc " __VERSION__);
	sb_attrs_str(&at, "nondeterministic", "every time and rate here is wall clock");
	if (sb_h5_write(out, &at, 1, &ds, &err)) {
		sb_err_print(&err);
		return 1;
	}
	sb_attrs_release(&at);
	sb_table_release(&t);
	fprintf(stderr, "bench: wrote %s\n", out);
	return 0;
}
