/*
 * dag_density.c - figure tf-F2 (spec tfpart.md §9): makespan against the
 * edge density of synthetic layered DAGs (the authors' generator, spec
 * §7) on the paper's 50-device file (or 50 generated devices without
 * `make data`).
 *
 * The paper lists ten evaluation graphs of 3528-4641 nodes with 830 ...
 * 665137 edges, not published. We aim at the same edge counts: with
 * widths U{1..80} a node has about 162 candidate parents, so
 * m ~ 1.1 * n * 162 * p (long-range edges add ~10%) and
 * p = target / (1.1 * 162 * 4050) at 100 levels [O]. The actual edge
 * count of every generated graph is recorded.
 */
#include "dag/bound.h"
#include "common.h"
#include "workloads/dag/load.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "reps", 5, 1, 100, 1, "graphs (seeds) per density" },
	{ "levels", 100, 5, 400, 1, "levels of the layered generator" },
	{ "targets", 10, 1, 10, 1, "how many of the paper's ten edge counts" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	SB_DAG_EXP_COLS,
	{ "p", SB_COL_DBL, "" },
	{ "target_edges", SB_COL_INT, "" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = { SB_DAG_EXP_TIMING_COLS, { NULL, 0, NULL } };

/* the paper's evaluation graphs' edge counts [V, code/paper list in spec §7] */
static const long target_edges[10] = { 830, 1536, 3620, 6112, 14174, 46065, 53253,
				       150905, 380243, 665137 };

static const char *const policies[] = {
	"hash+fifo", "hash+pct", "cp+fifo", "cp+pct", "cp+msr", "mite+pct",
	"batchsplit+pct", "dfs+pct", "heft", "fastest+fifo", NULL,
};

struct state {
	int reps, levels, ntarget;
	int real_devices;
	struct sb_devices dev;
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct state *s = SB_NEW(struct state, 1);
	int rc;

	c->state = s;
	s->reps = (int)sb_opts_get(&c->opts, "reps");
	s->levels = (int)sb_opts_get(&c->opts, "levels");
	s->ntarget = (int)sb_opts_get(&c->opts, "targets");
	rc = sb_dag_exp_paper_devices(c, &s->dev, &s->real_devices, err);
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "graphs: layered generator of our own (spec section 7); devices: %s",
		 s->real_devices ? "the paper's 50-device file (real)"
				 : "50 generated devices (synthetic fallback)");
	c->npoints = s->ntarget * s->reps;
	return rc;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct state *s = c->state;
	int t = point / s->reps, rep = point % s->reps, k, rc = 0;
	double p = target_edges[t] / (1.1 * 162.0 * 4050.0);
	struct sb_dag_inst in;
	struct sb_dag_bounds b;
	size_t first = out->nrow, r;
	uint64_t key = (uint64_t)point;

	if (p > 1)
		p = 1;
	rc = sb_dag_exp_layered(c, &in, s->levels, p, key, err);
	if (rc)
		return rc;
	if (s->real_devices)
		sb_dag_exp_set_devices(&in, &s->dev); /* same graph, the paper's devices */
	sb_dag_lower_bounds(&in, &b);
	for (k = 0; policies[k] && !rc; k++) {
		struct sb_dag_metrics m;
		rc = sb_dag_exp_run(c, &in, policies[k], key, rep, b.lb, out, timing, &m, err);
	}
	for (r = first; r < out->nrow && !rc; r++) {
		sb_table_set_dbl(out, r, "p", p);
		sb_table_set_int(out, r, "target_edges", target_edges[t]);
	}
	sb_dag_inst_release(&in);
	return rc;
}

static void teardown(struct sb_exp_ctx *c)
{
	struct state *s = c->state;
	if (!s)
		return;
	if (s->real_devices)
		sb_devices_release(&s->dev);
	sb_free(s);
}

const struct sb_experiment sb_experiment_dag_density = {
	.name = "dag_density",
	.desc = "makespan vs edge density of layered DAGs, 50 devices",
	.figure = "tf-F2",
	.family = "dag",
	.params = params,
	.quick_set = "reps=3 levels=12 targets=6",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "target_edges policy",
	.summary_of = "p edges makespan comm_volume lb ratio_lb",
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
