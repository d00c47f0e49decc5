/*
 * pipeline_predict.c - figure dapple-F5 (spec dapple.md §7, "predicted vs
 * simulated"): for the plans of DAPPLE's two planners on every model and
 * configuration of pipeline_dapple (three global batches each), DAPPLE's own
 * analytic latency L (pivot-stage model), its exact recursive 1F1B
 * timeline (transfers counted as stages) and the project's simulated
 * iteration time under the early-backward schedule. The two DAPPLE
 * estimates use DAPPLE's cost rules and constants; the simulation uses the
 * project's shared cost model, so the gap measures how far DAPPLE's model
 * is from ours, not from a testbed.
 */
#include "algorithms/dapple/dapple_model.h"
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "models", 5, 1, 5, 1, "how many of vgg19, bert-48, gnmt-16, xlnet-36, amoeba-36" },
	{ "configs", 3, 1, 3, 1, "how many of config-a, config-b, config-c" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const char *const planners[] = { "dapple", "dapple-hpgo", NULL };

static const struct sb_col cols[] = {
	SB_PIPELINE_EXP_COLS,
	{ "estimate", SB_COL_DBL, "s" },
	{ "recursive", SB_COL_DBL, "s" },
	{ "est_over_sim", SB_COL_DBL, "" },
	{ "rec_over_sim", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	/* pipeline_dapple's smallest batch, x4 and x16 */
	return sb_pipeline_exp_dapple_grid(c, (int)sb_opts_get(&c->opts, "models"),
				     (int)sb_opts_get(&c->opts, "configs"), 3, 4, planners, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_pipeline_exp_state *s = c->state;
	const struct sb_pipeline_exp_point *p = &s->pt[point];
	const struct sb_pmodel *m = &s->model[p->model];
	struct sb_topo t;
	int k, rc;

	(void)timing;
	rc = sb_pipeline_exp_topo(c, p, &t, err);
	if (rc)
		return rc;
	for (k = 0; s->labels[k] && !rc; k++) {
		const struct sb_pipeline_planner *pl = sb_pipeline_planner_find(s->labels[k]);
		struct sb_dapple_env env;
		struct sb_pipeline_plan plan;
		struct sb_opts po;
		size_t row = out->nrow;
		double est, rec, sim;
		rc = sb_pipeline_exp_run(m, &t, s->labels[k], NULL, p->batch, p->M, out, NULL, &plan, err);
		if (rc || !sb_table_get_int(out, row, sb_table_col(out, "feasible")))
			continue;
		/* DAPPLE's two estimates with the planner's own parameters */
		sb_opts_defaults(&po, pl->params);
		sb_dapple_env_init(&env, &t, sb_opts_get_or(&po, "p2p_ratio", 1.0 / 3.0),
				   (int)sb_opts_get_or(&po, "pivot_index", 0));
		est = sb_dapple_estimate(&env, &plan, m, NULL);
		rec = sb_dapple_recursive(&env, &plan, m);
		sim = sb_table_get_dbl(out, row, sb_table_col(out, "iter_time"));
		sb_table_set_dbl(out, row, "estimate", est);
		sb_table_set_dbl(out, row, "recursive", rec);
		sb_table_set_dbl(out, row, "est_over_sim", est / sim);
		sb_table_set_dbl(out, row, "rec_over_sim", rec / sim);
		sb_dapple_env_release(&env);
		sb_pipeline_plan_release(&plan);
	}
	sb_topo_release(&t);
	return rc;
}

const struct sb_experiment sb_experiment_pipeline_predict = {
	.name = "pipeline_predict",
	.desc = "DAPPLE's analytic latency and exact recursive timeline vs the simulated "
		"iteration time of its plans",
	.figure = "dapple-F5",
	.family = "pipeline",
	.params = params,
	.quick_set = "models=2 configs=1",
	.cols = cols,
	.timing_cols = NULL,
	.summary_by = "planner topo",
	.summary_of = "est_over_sim rec_over_sim",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_pipeline_exp_teardown,
};
