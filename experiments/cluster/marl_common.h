/*
 * marl_common.h - what the experiments of the cluster family's
 * topology-and-interference mode share (spec marl.md §5, §8; Zhao & Wu,
 * IEEE TNSM 2022, abstract-only: everything here is [O], our design, and
 * every row says so in its `provenance` column): the environment with the
 * DL2 job types from DATA_DIR (sha256 recorded) or the built-in table, the
 * learned slowdown model the interference-aware greedy reads, the job
 * sets, and running one scheme into a checked row.
 */
#ifndef SB_EXPERIMENTS_CLUSTER_MARL_COMMON_H
#define SB_EXPERIMENTS_CLUSTER_MARL_COMMON_H

#include "common.h"
#include "workloads/cluster/marl.h"

/* The row columns of these experiments: the family's, then the mode's. */
#define SB_MARL_EXP_COLS \
	SB_CLUSTER_EXP_COLS, \
	{ "topo", SB_COL_STR, "" }, \
	{ "load", SB_COL_DBL, "offered load rho" }, \
	{ "interf_slowdown", SB_COL_DBL, "mean S, GPU-second weighted" }, \
	{ "provenance", SB_COL_STR, "" }

struct sb_marl_exp {
	struct sb_marl_env env;       /* must not move: see marl.h */
	struct sb_interf_pred *pred;  /* S^ for greedy-interf, or NULL */
	double mape, train_mape;      /* of S^ (percent), or -1 */
};

/* The heuristics compared in F1-F3 and F8 (NULL-ended): the mode's
 * placers under the agents scheduler, and the family's FIFO and Tiresias
 * with the consolidating placer on the same traces. */
extern const char *const sb_marl_exp_schemes[];

/*
 * Set up m on topology `topo`: DL2 types from DATA_DIR's
 * dl2/dl2_job_types.csv when it is there (registered as an input), else the
 * built-in table (said in c->inputs_note); the pair-noise seed from the
 * experiment seed; S^ trained with pred_epochs epochs (0: none, and
 * greedy-interf then uses the ground truth). 0 or an exit code with err.
 */
int sb_marl_exp_setup(struct sb_exp_ctx *c, struct sb_marl_exp *m, const char *topo,
		      int pred_epochs, struct sb_err *err);
void sb_marl_exp_release(struct sb_marl_exp *m);
/* An experiment's setup and teardown around one struct sb_marl_exp in
 * c->state, with npoints points and the parameter pred_epochs (0 when
 * the experiment declares none). */
int sb_marl_exp_setup_state(struct sb_exp_ctx *c, const char *topo, int npoints,
			    struct sb_err *err);
void sb_marl_exp_teardown(struct sb_exp_ctx *c);

/* A synthetic Philly-like job set (njobs, load) from the instance stream
 * of (seed, key, rep). */
void sb_marl_exp_jobs(const struct sb_exp_ctx *c, const struct sb_marl_exp *m, int njobs,
		      double load, uint64_t key, int rep, struct sb_jobset *js);

/*
 * The job set of one trace: synthetic (as above) when `trace` is 0, else
 * the trace-derived variant (Philly's arrivals and GPU counts from
 * DATA_DIR's philly/jobs.json, durations from philly/philly_runtime.csv;
 * both registered as inputs by sb_marl_exp_trace_inputs in setup, after
 * sb_marl_exp_setup_state, which it needs). *name
 * is the workload's label. 0 or an exit code with err.
 */
int sb_marl_exp_trace_inputs(struct sb_exp_ctx *c, struct sb_err *err);
int sb_marl_exp_workload(const struct sb_exp_ctx *c, const struct sb_marl_exp *m, int trace,
			 int njobs, double load, uint64_t key, int rep, struct sb_jobset *js,
			 const char **name, struct sb_err *err);

/*
 * Run `label` on js (checked; see sb_cluster_exp_run) and append its row
 * with the mode's columns (load as given). The mode's own scheduler may
 * not migrate jobs (checked); the family's others may (Tiresias preempts).
 * r_out as in sb_cluster_exp_run (NULL: released here).
 */
int sb_marl_exp_run(const struct sb_exp_ctx *c, struct sb_marl_exp *m, const struct sb_jobset *js,
		    const char *workload, const char *label, uint64_t key, int rep, double load,
		    struct sb_table *out, struct sb_table *timing, struct sb_cluster_result *r_out,
		    struct sb_err *err);

#endif
