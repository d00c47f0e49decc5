/*
 * common.h - what the dag-family experiments share: locating real inputs
 * with a synthetic fallback, the list of policy combinations to compare,
 * and running one combination on an instance into a results row.
 */
#ifndef SB_EXPERIMENTS_DAG_COMMON_H
#define SB_EXPERIMENTS_DAG_COMMON_H

#include "dag/dag.h"
#include "exp.h"
#include "lp.h"

/* Every combination worth comparing, from the registry: every placing
 * partitioner with every static/dynamic scheduler except heft-order, and
 * every planning partitioner (default scheduler heft-order) with its plan
 * order and with pct. Returns a NULL-terminated array of labels (owned;
 * free with sb_exp_free_list). */
char **sb_dag_exp_all_combos(int *n);

/* The columns every dag experiment row starts with. */
#define SB_DAG_EXP_COLS \
	{ "instance", SB_COL_STR, "" }, \
	{ "policy", SB_COL_STR, "" }, \
	{ "part", SB_COL_STR, "" }, \
	{ "sched", SB_COL_STR, "" }, \
	{ "rep", SB_COL_INT, "" }, \
	{ "ops", SB_COL_INT, "" }, \
	{ "edges", SB_COL_INT, "" }, \
	{ "devices", SB_COL_INT, "" }, \
	{ "makespan", SB_COL_DBL, "time units" }, \
	{ "plan_makespan", SB_COL_DBL, "time units" }, \
	{ "comm_volume", SB_COL_DBL, "tensor units" }, \
	{ "sends", SB_COL_INT, "" }, \
	{ "devices_used", SB_COL_INT, "" }, \
	{ "busy_fraction", SB_COL_DBL, "" }, \
	{ "lb", SB_COL_DBL, "time units" }, \
	{ "ratio_lb", SB_COL_DBL, "" }

#define SB_DAG_EXP_TIMING_COLS \
	{ "instance", SB_COL_STR, "" }, \
	{ "policy", SB_COL_STR, "" }, \
	{ "rep", SB_COL_INT, "" }, \
	{ "ops", SB_COL_INT, "" }, \
	{ "edges", SB_COL_INT, "" }, \
	{ "part_seconds", SB_COL_DBL, "s (wall clock)" }, \
	{ "sched_seconds", SB_COL_DBL, "s (wall clock)" }

/* Run combination `label` on `in` with the policy stream of
 * (seed, inst_key, rep), validate it, and append one row to out (and to
 * timing if not NULL). lb is the instance's best lower bound (for
 * ratio_lb). Returns 0 or an exit code with err. */
int sb_dag_exp_run(const struct sb_exp_ctx *c, const struct sb_dag_inst *in,
		  const char *label, uint64_t inst_key, int rep, double lb,
		  struct sb_table *out, struct sb_table *timing,
		  struct sb_dag_metrics *m, struct sb_err *err);
/* The same, also returning placement and op start times (or NULL). */
int sb_dag_exp_run_start(const struct sb_exp_ctx *c, const struct sb_dag_inst *in,
			const char *label, uint64_t inst_key, int rep, double lb,
			struct sb_table *out, struct sb_table *timing,
			struct sb_dag_metrics *m, int *place, double *start,
			struct sb_err *err);

/* A synthetic instance of our own: a layered DAG (spec §7 generator,
 * `levels` levels, edge probability p) on the paper's device model
 * (50 generated devices), drawn from the instance stream of
 * (seed, inst_key). Name "layered-L<levels>-p<p>". */
int sb_dag_exp_layered(const struct sb_exp_ctx *c, struct sb_dag_inst *in,
		      int levels, double p, uint64_t inst_key, struct sb_err *err);

/* 0, or SB_EXIT_RUN when a GLPK solve of point `point` stopped at its
 * time-limit safety net (param time_param) before its deterministic limit
 * (param limit_param): such a row would depend on the machine and its
 * load, so it is never stored. */
int sb_dag_exp_no_time_stop(const struct sb_exp_ctx *c, int point, const char *model,
			    const struct sb_lp_result *lr, const char *time_param,
			    const char *limit_param, struct sb_err *err);
/* Replace the devices of `in` by a copy of `dev`. */
void sb_dag_exp_set_devices(struct sb_dag_inst *in, const struct sb_devices *dev);

/* The paper's 50-device file under c->data_dir: loaded into dev (and
 * registered as an input) when present; otherwise returns 0 with
 * *real = 0 and dev untouched. */
int sb_dag_exp_paper_devices(struct sb_exp_ctx *c, struct sb_devices *dev, int *real,
			    struct sb_err *err);

#endif
