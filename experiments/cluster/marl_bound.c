/*
 * marl_bound.c - figure marl-F8 (spec marl.md §7, §8): every scheme's
 * average JCT over a certified lower bound on 40-job traces on the small
 * topology T0 (4 servers x 4 GPUs). The bound is the family's preemptive
 * time-indexed LP (LB2 of cluster/lb2.c, GLPK, deterministic iteration
 * limit; its validity argument is written there) with slots of 60 s and
 * p_j = n_j tau_iso_j (the isolated best-locality duration: interference,
 * ToR sharing and a wider span only lengthen a job), maxed with LB1; the
 * JCT bound is (bound - sum of arrivals) / n. A ratio below 1 would be a
 * bug and fails the run. All [O], our design (the paper is abstract-only).
 */
#include "marl_common.h"
#include "cluster/bound.h"

#include <math.h>

static const struct sb_param params[] = {
	{ "jobs", 40, 2, 200, 1, "jobs per trace" },
	{ "reps", 10, 1, 1000, 1, "traces" },
	{ "load", 0.7, 0.05, 2, 0, "offered load rho" },
	{ "slot", 60, 1, 3600, 0, "LP slot length (s)" },
	{ "pred_epochs", 60, 0, 1000, 1, "training epochs of the slowdown model S^" },
	SB_MARL_TRAIN_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	SB_MARL_EXP_COLS,
	{ "lb_jct", SB_COL_DBL, "s (average JCT lower bound)" },
	{ "lb2_total", SB_COL_DBL, "s (sum C_j)" },
	{ "lb1_total", SB_COL_DBL, "s (sum C_j)" },
	{ "lp_status", SB_COL_STR, "" },
	{ "lp_iters", SB_COL_INT, "" },
	{ "slots", SB_COL_INT, "" },
	{ "ratio", SB_COL_DBL, "average JCT / lower bound" },
	{ NULL, 0, NULL },
};

/* F8's series: the heuristics, and the omniscient-myopic ILP scheduler
 * when it is registered */
static const char *const extra[] = { "myopic-ilp", NULL };

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	int rc = sb_marl_exp_setup_state(c, "T0", (int)sb_opts_get(&c->opts, "reps"), err);
	return rc ? rc : sb_marl_exp_learn(c, c->state, sb_marl_exp_learned, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_marl_exp *m = c->state;
	struct sb_jobset js;
	struct sb_lp_result res;
	double load = sb_opts_get(&c->opts, "load"), horizon = 0, lb1, lb2, lb, asum = 0;
	double *tl;
	size_t first_row = out->nrow, row;
	int k, j, rc = 0, slots;

	(void)timing;
	sb_marl_exp_jobs(c, m, (int)sb_opts_get(&c->opts, "jobs"), load, 8, point, &js);
	for (k = 0; sb_marl_exp_schemes[k] && !rc; k++) {
		struct sb_cluster_result r;
		rc = sb_marl_exp_run(c, m, &js, "philly-like", sb_marl_exp_schemes[k], 8, point, load,
				     out, NULL, &r, err);
		if (rc)
			break;
		for (j = 0; j < js.n; j++)
			horizon = sb_max(horizon, r.finish[j]);
		sb_cluster_result_release(&r);
	}
	for (k = 0; extra[k] && !rc; k++)
		if (sb_cluster_policy_find(extra[k]))
			rc = sb_marl_exp_run(c, m, &js, "philly-like", extra[k], 8, point, load, out,
					     NULL, NULL, err);
	if (rc)
		goto out;
	tl = SB_NEW(double, js.n);
	sb_cluster_tau_lb(&m->env.cl, &js, tl);
	slots = (int)ceil(horizon / sb_opts_get(&c->opts, "slot"));
	rc = sb_cluster_lb2(&m->env.cl, &js, tl, slots * sb_opts_get(&c->opts, "slot"), slots, 0,
			    &lb2, &res, err);
	lb1 = sb_cluster_lb1(&m->env.cl, &js, tl);
	sb_free(tl);
	if (rc)
		goto out;
	if (isnan(lb2)) {
		rc = sb_err_set(err, SB_EXIT_RUN, "marl_bound: the LP of trace %d stopped (%s, %s) "
				"without proving its optimum: no bound to store", point,
				sb_lp_status_name(res.status), sb_lp_stop_name(res.stopped));
		sb_lp_result_release(&res);
		goto out;
	}
	for (j = 0; j < js.n; j++)
		asum += js.job[j].arrival;
	lb = (sb_max(lb1, lb2) - asum) / js.n;
	for (row = first_row; row < out->nrow; row++) {
		double jct = sb_table_get_dbl(out, row, sb_table_col(out, "jct_mean"));
		sb_table_set_dbl(out, row, "lb_jct", lb);
		sb_table_set_dbl(out, row, "lb2_total", lb2);
		sb_table_set_dbl(out, row, "lb1_total", lb1);
		sb_table_set_str(out, row, "lp_status", sb_lp_status_name(res.status));
		sb_table_set_int(out, row, "lp_iters", res.iters);
		sb_table_set_int(out, row, "slots", slots);
		sb_table_set_dbl(out, row, "ratio", jct / lb);
		if (jct < lb * (1 - 1e-9)) {
			rc = sb_err_set(err, SB_EXIT_RUN, "marl_bound: a scheme's average JCT %.9g "
					"is below the LP lower bound %.9g on trace %d: a bug", jct,
					lb, point);
			break;
		}
	}
	sb_lp_result_release(&res);
out:
	sb_jobset_release(&js);
	return rc;
}


const struct sb_experiment sb_experiment_marl_bound = {
	.name = "marl_bound",
	.after = "marl_train", /* its trained weights */
	.desc = "average JCT over the LP lower bound, 40-job traces on T0 (16 GPUs)",
	.figure = "marl-F8",
	.family = "cluster",
	.params = params,
	.quick_set = "reps=3 slot=300 pred_epochs=15 " SB_MARL_TRAIN_QUICK,
	.cols = cols,
	.summary_by = "policy",
	.summary_of = "ratio jct_mean lb_jct",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_marl_exp_teardown,
};
