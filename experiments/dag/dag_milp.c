/*
 * dag_milp.c - figure tf-F7 (spec tfpart.md §9, §10.1): every policy's
 * makespan against the relaxed-send MILP on small random DAGs (4 devices
 * of two speeds). The MILP optimum is a certified lower bound on the
 * simulator optimum (Sends as pure delays), so ratio_milp >= 1 for every
 * policy. GLPK stops at a node limit (deterministic: the bound it proved
 * is used, and the status says so, never "optimal"); a solve that reaches
 * the time-limit safety net first fails the run instead of storing a row
 * that depends on the machine.
 */
#include "dag/bound.h"
#include "common.h"
#include "lp.h"
#include "workloads/dag/load.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "reps", 6, 1, 100, 1, "random instances per size" },
	{ "sizes", 6, 1, 6, 1, "how many of the sizes 6, 8, 10, 12, 16, 20" },
	{ "devices", 4, 2, 8, 1, "devices (two speed classes)" },
	{ "edge_p", 0.3, 0.01, 1, 0, "edge probability" },
	{ "node_limit", 200000, 1, 1e9, 1, "branch-and-bound nodes per MILP (deterministic limit)" },
	{ "time_limit", 120, 0.1, 3600, 0, "time-limit safety net per MILP, model building "
	  "included (CPU s; a run that hits it fails rather than store a machine-dependent row)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const int sizes[6] = { 6, 8, 10, 12, 16, 20 };

static const struct sb_col cols[] = {
	SB_DAG_EXP_COLS,
	{ "n", SB_COL_INT, "" },
	{ "milp_lb", SB_COL_DBL, "time units" },
	{ "milp_best", SB_COL_DBL, "time units" },
	{ "milp_status", SB_COL_STR, "" },
	{ "milp_stop", SB_COL_STR, "" },
	{ "milp_nodes", SB_COL_INT, "" },
	{ "ratio_milp", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = {
	SB_DAG_EXP_TIMING_COLS,
	{ "milp_seconds", SB_COL_DBL, "s (wall clock)" },
	{ NULL, 0, NULL },
};

struct state {
	int reps, nsize, ndev, ncombo;
	double edge_p, tlim;
	long nlim;
	char **combos;
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct state *s = SB_NEW(struct state, 1);
	(void)err;
	c->state = s;
	s->reps = (int)sb_opts_get(&c->opts, "reps");
	s->nsize = (int)sb_opts_get(&c->opts, "sizes");
	s->ndev = (int)sb_opts_get(&c->opts, "devices");
	s->edge_p = sb_opts_get(&c->opts, "edge_p");
	s->tlim = sb_opts_get(&c->opts, "time_limit");
	s->nlim = (long)sb_opts_get(&c->opts, "node_limit");
	s->combos = sb_dag_exp_all_combos(&s->ncombo);
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: small random DAGs of our own (sb_gen_small)");
	c->npoints = s->nsize * s->reps;
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct state *s = c->state;
	int si = point / s->reps, rep = point % s->reps, n = sizes[si], k, rc = 0;
	struct sb_rng r = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_INSTANCE);
	struct sb_dag_inst in;
	struct sb_dag_bounds b;
	struct sb_dag_milp_opts mo;
	struct sb_lp_result lr;
	int *place = SB_NEW(int, n), *best_place = SB_NEW(int, n);
	double *start = SB_NEW(double, n), *best_start = SB_NEW(double, n);
	double best = INFINITY;
	size_t first = out->nrow, row;

	memset(&lr, 0, sizeof lr);
	sb_gen_small(&in, n, s->ndev, s->edge_p, &r);
	sb_dag_lower_bounds(&in, &b);
	for (k = 0; k < s->ncombo && !rc; k++) {
		struct sb_dag_metrics m;
		rc = sb_dag_exp_run_start(c, &in, s->combos[k], (uint64_t)point, rep, b.lb, out,
					 timing, &m, place, start, err);
		if (!rc && m.makespan < best) {
			best = m.makespan;
			memcpy(best_place, place, sizeof(int) * (size_t)n);
			memcpy(best_start, start, sizeof(double) * (size_t)n);
		}
	}
	if (rc)
		goto out;
	memset(&mo, 0, sizeof mo);
	mo.time_limit = s->tlim;
	mo.node_limit = s->nlim;
	mo.inc_place = best_place;
	mo.inc_start = best_start;
	mo.inc_makespan = best;
	rc = sb_dag_milp_relaxed(&in, &mo, &lr, err);
	if (!rc)
		rc = sb_dag_exp_no_time_stop(c, point, "relaxed-send MILP", &lr, "time_limit",
					     "node_limit", err);
	if (rc)
		goto out;
	for (row = first; row < out->nrow; row++) {
		double ms = sb_table_get_dbl(out, row, sb_table_col(out, "makespan"));
		sb_table_set_int(out, row, "n", n);
		sb_table_set_str(out, row, "milp_stop", sb_lp_stop_name(lr.stopped));
		sb_table_set_int(out, row, "milp_nodes", lr.nodes);
		sb_table_set_dbl(out, row, "milp_lb", lr.bound);
		sb_table_set_dbl(out, row, "milp_best", lr.obj);
		sb_table_set_str(out, row, "milp_status", sb_lp_status_name(lr.status));
		sb_table_set_dbl(out, row, "ratio_milp", ms / lr.bound);
		if (ms < lr.bound * (1 - 1e-9)) {
			rc = sb_err_set(err, SB_EXIT_RUN,
					"policy %s beat the certified MILP bound (%g < %g): a bug",
					sb_table_get_str(out, row, sb_table_col(out, "policy")), ms,
					lr.bound);
			goto out;
		}
	}
	if (timing)
		for (row = 0; row < timing->nrow; row++)
			sb_table_set_dbl(timing, row, "milp_seconds", lr.seconds);
out:
	sb_lp_result_release(&lr);
	sb_dag_inst_release(&in);
	sb_free(place);
	sb_free(best_place);
	sb_free(start);
	sb_free(best_start);
	return rc;
}

static void teardown(struct sb_exp_ctx *c)
{
	struct state *s = c->state;
	if (!s)
		return;
	sb_exp_free_list(s->combos);
	sb_free(s);
}

const struct sb_experiment sb_experiment_dag_milp = {
	.name = "dag_milp",
	.desc = "every policy vs the relaxed-send MILP on small random DAGs",
	.figure = "tf-F7",
	.family = "dag",
	.params = params,
	.quick_set = "reps=3 sizes=2 node_limit=5000",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "n policy",
	.summary_of = "makespan ratio_milp ratio_lb milp_lb",
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
