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

struct sb_marl_net;

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

/* The parameters of every experiment that runs learned placers, with the
 * same names, defaults and quick values as marl_train's, so that the
 * inputs hash of the weights it stored matches (pred_epochs too: 60,
 * quick 15). */
#define SB_MARL_TRAIN_PARAMS \
	{ "train_episodes", 400, 1, 1e5, 1, "training episodes of each learned placer" }, \
	{ "train_jobs", 200, 10, 1e5, 1, "jobs per training episode" }
#define SB_MARL_TRAIN_QUICK "train_episodes=8 train_jobs=60"
/* Where sb run marl_train writes by default: the weights looked up. */
#define SB_MARL_TRAIN_RESULTS "results/marl_train.h5"

/* The learned placers of F1-F3 and F8, run under the agents scheduler
 * (NULL-ended); their nets are loaded or trained by setup. */
extern const char *const sb_marl_exp_learned[];

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

/*
 * The trained net of variant `name` (algorithms/marl/variant.h) trained on
 * env (rewards from env's predictor) with the experiment's train_episodes,
 * train_jobs and seed, stored in SB_MARL_TRAIN_RESULTS under `key` (the
 * variant, or "variant@topology" for a net trained elsewhere than T1):
 * loaded from there when its inputs hash matches (the file is then
 * registered as an input), else trained here, deterministically, with a
 * note on stderr saying why. Appends what was done to c->inputs_note.
 * *out owned by the caller. 0, or SB_EXIT_INPUT when the stored file is
 * corrupt (naming file, row and field), or the trainer's error.
 */
int sb_marl_exp_net(struct sb_exp_ctx *c, struct sb_marl_env *env, const char *name,
		    const char *key, struct sb_marl_net **out, struct sb_err *err);
/* The inputs hash of that training run (for marl_train's rows). */
void sb_marl_exp_net_hash(const struct sb_exp_ctx *c, const struct sb_marl_env *env,
			  const char *name, char hash[17]);
/* The environment learned placers are trained on by default: T1 with the
 * experiment's types, pair-noise seed and slowdown model. Release with
 * sb_marl_exp_release. */
int sb_marl_exp_train_env(struct sb_exp_ctx *c, const struct sb_marl_exp *like,
			  const char *topo, struct sb_marl_exp *out, struct sb_err *err);
/* Nets of every name in names (NULL-ended), trained on T1, into the
 * process's placer table (sb_marl_nets_put). 0 or an exit code. */
int sb_marl_exp_learn(struct sb_exp_ctx *c, struct sb_marl_exp *m, const char *const *names,
		      struct sb_err *err);
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
/* The same with the policy options `set` ("k=v,...", as sb_cluster_exp_run;
 * NULL for none) and the row's policy column relabelled `as` (NULL: the
 * label), in out and in timing. */
int sb_marl_exp_run_set(const struct sb_exp_ctx *c, struct sb_marl_exp *m,
			const struct sb_jobset *js, const char *workload, const char *label,
			const char *set, const char *as, uint64_t key, int rep, double load,
			struct sb_table *out, struct sb_table *timing,
			struct sb_cluster_result *r_out, struct sb_err *err);

#endif
