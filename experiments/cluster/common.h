/*
 * common.h - what the cluster-family experiments share: the row layout,
 * building the spec's workloads (with synthetic fallbacks), and running one
 * scheduler+placer on a job set into a checked results row.
 */
#ifndef SB_EXPERIMENTS_CLUSTER_COMMON_H
#define SB_EXPERIMENTS_CLUSTER_COMMON_H

#include "cluster/cluster.h"
#include "exp.h"
#include "workloads/cluster/jobs.h"

/* The columns every cluster experiment row starts with. */
#define SB_CLUSTER_EXP_COLS \
	{ "workload", SB_COL_STR, "" }, \
	{ "policy", SB_COL_STR, "" }, \
	{ "sched", SB_COL_STR, "" }, \
	{ "place", SB_COL_STR, "" }, \
	{ "rep", SB_COL_INT, "" }, \
	{ "jobs", SB_COL_INT, "" }, \
	{ "gpus", SB_COL_INT, "" }, \
	{ "jct_mean", SB_COL_DBL, "s" }, \
	{ "jct_p50", SB_COL_DBL, "s" }, \
	{ "jct_p95", SB_COL_DBL, "s" }, \
	{ "jct_p99", SB_COL_DBL, "s" }, \
	{ "queue_mean", SB_COL_DBL, "s" }, \
	{ "makespan", SB_COL_DBL, "s" }, \
	{ "util", SB_COL_DBL, "" }, \
	{ "inter_bytes", SB_COL_DBL, "bytes" }, \
	{ "slowdown", SB_COL_DBL, "" }, \
	{ "preemptions", SB_COL_INT, "" }, \
	{ "flow_total", SB_COL_DBL, "s" }, \
	{ "lb1_flow", SB_COL_DBL, "s" }, \
	{ "ratio_lb1", SB_COL_DBL, "" }, \
	{ "load_ref", SB_COL_DBL, "" }, \
	{ "load_eff", SB_COL_DBL, "" }, \
	{ "idle_fit", SB_COL_DBL, "" }, \
	{ "spread", SB_COL_DBL, "" }

#define SB_CLUSTER_EXP_TIMING_COLS \
	{ "workload", SB_COL_STR, "" }, \
	{ "policy", SB_COL_STR, "" }, \
	{ "rep", SB_COL_INT, "" }, \
	{ "jobs", SB_COL_INT, "" }, \
	{ "decisions", SB_COL_INT, "" }, \
	{ "sim_seconds", SB_COL_DBL, "s (wall clock)" }, \
	{ "policy_seconds", SB_COL_DBL, "s (wall clock)" }, \
	{ "us_per_decision", SB_COL_DBL, "us (wall clock)" }

/*
 * Run `label` ("SCHED[+PLACER]") on js with the options `set` ("k=v,k=v",
 * scheduler's or placer's keys; NULL for none), the policy streams of
 * (seed, key, rep); validate the run with the independent checker (a run
 * that fails it is an error, never a row); append one row to out (and one
 * to timing) with metrics over jobs first..n-1 and the LB1 ratio of the
 * total flow time over all jobs. If r_out is not NULL the result is moved
 * there (caller releases). Returns 0 or an exit code with err.
 */
int sb_cluster_exp_run(const struct sb_exp_ctx *c, const struct sb_cluster *cl,
		 const struct sb_jobset *js, const char *workload, const char *label,
		 const char *set, uint64_t key, int rep, int first, struct sb_table *out,
		 struct sb_table *timing, struct sb_cluster_result *r_out, struct sb_err *err);

/* Lower bound on the total flow time sum (C_j - a_j) of js on cl: LB1
 * minus the arrivals. */
double sb_cluster_exp_lb1_flow(const struct sb_cluster *cl, const struct sb_jobset *js);

/* W1 on cl at `load` with njobs jobs, from the instance stream of
 * (seed, key). */
void sb_cluster_exp_w1(const struct sb_exp_ctx *c, const struct sb_cluster *cl, int njobs,
		 double load, uint64_t key, struct sb_jobset *js);

/*
 * W3 (Tiresias' 60-job trace) on cl if DATA_DIR has it (registered as an
 * input; *real = 1), else a synthetic stand-in: 60 data-parallel CNN jobs
 * of 1-8 GPUs, W1-style sizes, arrivals every U[20, 45] s (*real = 0).
 */
int sb_cluster_exp_w3(struct sb_exp_ctx *c, const struct sb_cluster *cl, struct sb_jobset *js,
		int *real, struct sb_err *err);

/* The schedulers compared in the headline figures (NULL-ended). */
extern const char *const sb_cluster_exp_schedulers[];

/* Every registered scheduler (with its default placer), then the labels
 * of `extra` (NULL-ended, may be NULL). Free with sb_exp_free_list. */
char **sb_cluster_exp_all_schedulers(const char *const *extra);

/*
 * The state of a W1 sweep (c->state): `nval` values of one swept quantity
 * (the experiment's parameter `count`) x `reps` workloads, read from the
 * parameters jobs, reps, warmup and load (0 when not declared), on the
 * named cluster; labels = the given schedulers (NULL-ended), or every
 * registered scheduler when NULL. Free with sb_cluster_exp_sweep_teardown.
 */
struct sb_cluster_exp_sweep {
	int jobs, reps, nval;
	double warmup, load;
	struct sb_cluster cl;
	char **labels;
};

int sb_cluster_exp_sweep_setup(struct sb_exp_ctx *c, const char *count, const char *cluster,
			 const char *const *labels, struct sb_err *err);
void sb_cluster_exp_sweep_teardown(struct sb_exp_ctx *c);

/*
 * One point of a W1 sweep: generate W1 (njobs, load) on cl from the
 * instance stream of (seed, key), run every label (with sets[k] options
 * if sets is not NULL), leave the first warmup x njobs jobs out of the
 * metrics, and write x into column xcol of the new rows.
 */
int sb_cluster_exp_w1_point(const struct sb_exp_ctx *c, const struct sb_cluster *cl, int njobs,
		      double load, double warmup, uint64_t key, int rep, const char *xcol,
		      double x, const char *const *labels, const char *const *sets,
		      struct sb_table *out, struct sb_table *timing, struct sb_err *err);

#endif
