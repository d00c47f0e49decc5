/*
 * dag_time.c - figure tf-F5 (spec tfpart.md §9): wall time of every
 * partitioner (with PCT) and of the simulator against graph size, on
 * layered DAGs of our own generator (edge probability fixed) with 50
 * devices. The times are wall clock and live in the `timing` dataset;
 * the `points` dataset holds the (deterministic) makespans of the same
 * runs.
 */
#include "dag/bound.h"
#include "common.h"

#include <stdio.h>
#include <string.h>

static const int levels[6] = { 5, 10, 25, 50, 100, 200 };

static const struct sb_param params[] = {
	{ "reps", 3, 1, 100, 1, "graphs per size" },
	{ "sizes", 6, 1, 6, 1, "how many of the sizes (5 ... 200 levels, ~200 ... ~8000 ops)" },
	{ "p", 0.02, 0.0001, 1, 0, "edge probability" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = { SB_DAG_EXP_COLS, { NULL, 0, NULL } };
static const struct sb_col timing_cols[] = { SB_DAG_EXP_TIMING_COLS, { NULL, 0, NULL } };

struct state {
	int reps, nsize, ncombo;
	double p;
	char **combos;
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct state *s = SB_NEW(struct state, 1);
	int n, i;
	const struct sb_dag_policy *const *all = sb_dag_policies(&n);
	(void)err;
	c->state = s;
	s->reps = (int)sb_opts_get(&c->opts, "reps");
	s->nsize = (int)sb_opts_get(&c->opts, "sizes");
	s->p = sb_opts_get(&c->opts, "p");
	/* every partitioner once: placing ones with pct, planners alone */
	s->combos = SB_NEW(char *, n + 1);
	for (i = 0; i < n; i++) {
		char b[96];
		if (!all[i]->partition)
			continue;
		snprintf(b, sizeof b, "%s%s", all[i]->name,
			 all[i]->default_sched && !strcmp(all[i]->default_sched, "heft-order")
				 ? "" : "+pct");
		s->combos[s->ncombo++] = sb_xstrdup(b);
	}
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: layered DAGs of our own, 50 generated devices");
	c->npoints = s->nsize * s->reps;
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct state *s = c->state;
	int lv = levels[point / s->reps], rep = point % s->reps, k, rc;
	struct sb_dag_inst in;
	struct sb_dag_bounds b;

	rc = sb_dag_exp_layered(c, &in, lv, s->p, (uint64_t)point, err);
	if (rc)
		return rc;
	sb_dag_lower_bounds(&in, &b);
	for (k = 0; k < s->ncombo && !rc; k++) {
		struct sb_dag_metrics m;
		rc = sb_dag_exp_run(c, &in, s->combos[k], (uint64_t)point, rep, b.lb, out,
				   timing, &m, err);
	}
	sb_dag_inst_release(&in);
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

const struct sb_experiment sb_experiment_dag_time = {
	.name = "dag_time",
	.desc = "partitioning and scheduling wall time vs graph size",
	.figure = "tf-F5",
	.family = "dag",
	.params = params,
	.quick_set = "reps=1 sizes=3",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "ops policy",
	.summary_of = "makespan ratio_lb",
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
