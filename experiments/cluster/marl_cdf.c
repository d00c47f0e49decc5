/*
 * marl_cdf.c - figure marl-F2 (spec marl.md §8): the distribution of job
 * completion times of every heuristic on T1 at load 0.7, one row per job
 * and scheme, for the CDF plot. Every run passes the checker first. All
 * [O], our design (the paper is abstract-only).
 */
#include "marl_common.h"

static const struct sb_param params[] = {
	{ "jobs", 200, 10, 1e5, 1, "jobs per trace" },
	{ "reps", 5, 1, 1000, 1, "test traces" },
	{ "load", 0.7, 0.05, 2, 0, "offered load rho" },
	{ "pred_epochs", 60, 0, 1000, 1, "training epochs of the slowdown model S^" },
	SB_MARL_TRAIN_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "policy", SB_COL_STR, "" },
	{ "rep", SB_COL_INT, "" },
	{ "job", SB_COL_INT, "" },
	{ "gpus", SB_COL_INT, "" },
	{ "iso_time", SB_COL_DBL, "s" },
	{ "jct", SB_COL_DBL, "s" },
	{ "queue", SB_COL_DBL, "s" },
	{ "provenance", SB_COL_STR, "" },
	{ NULL, 0, NULL },
};

static const struct sb_col run_cols[] = { SB_MARL_EXP_COLS, { NULL, 0, NULL } };

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	int rc = sb_marl_exp_setup_state(c, "T1", (int)sb_opts_get(&c->opts, "reps"), err);
	return rc ? rc : sb_marl_exp_learn(c, c->state, sb_marl_exp_learned, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_marl_exp *m = c->state;
	struct sb_jobset js;
	struct sb_table scratch;
	double load = sb_opts_get(&c->opts, "load");
	int k, j, rc = 0;

	(void)timing;
	sb_marl_exp_jobs(c, m, (int)sb_opts_get(&c->opts, "jobs"), load, 1, point, &js);
	sb_table_init(&scratch, run_cols);
	for (k = 0; sb_marl_exp_schemes[k] && !rc; k++) {
		struct sb_cluster_result r;
		rc = sb_marl_exp_run(c, m, &js, "philly-like", sb_marl_exp_schemes[k], 1, point, load,
				     &scratch, NULL, &r, err);
		if (rc)
			break;
		for (j = 0; j < js.n; j++) {
			size_t row = sb_table_add(out);
			sb_table_set_str(out, row, "policy", sb_marl_exp_schemes[k]);
			sb_table_set_int(out, row, "rep", point);
			sb_table_set_int(out, row, "job", j);
			sb_table_set_int(out, row, "gpus", js.job[j].gpus);
			sb_table_set_dbl(out, row, "iso_time", (double)js.job[j].iters * r.tau_ref[j]);
			sb_table_set_dbl(out, row, "jct", r.finish[j] - js.job[j].arrival);
			sb_table_set_dbl(out, row, "queue", r.first_start[j] - js.job[j].arrival);
			sb_table_set_str(out, row, "provenance", "ours");
		}
		sb_cluster_result_release(&r);
	}
	sb_table_release(&scratch);
	sb_jobset_release(&js);
	return rc;
}


const struct sb_experiment sb_experiment_marl_cdf = {
	.name = "marl_cdf",
	.after = "marl_train", /* its trained weights */
	.desc = "per-job completion times of every heuristic (JCT CDF), T1, load 0.7",
	.figure = "marl-F2",
	.family = "cluster",
	.params = params,
	.quick_set = "jobs=100 reps=2 pred_epochs=15 " SB_MARL_TRAIN_QUICK,
	.cols = cols,
	.summary_by = "policy",
	.summary_of = "jct queue",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_marl_exp_teardown,
};
