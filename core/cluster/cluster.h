/*
 * cluster.h - the cluster family: a GPU cluster (servers x GPUs, intra- and
 * inter-server bandwidth), rigid gang-scheduled training jobs with a
 * parallel configuration and a communication graph, the policy interface
 * (schedulers and placers), the event-driven simulator clustersim and its
 * independent checker.
 *
 * Model (spec asrpt.md §2; [R] = our reconstruction, the paper's body is not
 * available): a job j arrives at a_j, needs g_j = d*t*p GPUs at once (data,
 * tensor, pipeline degree), runs n_j iterations, and one iteration lasts
 * tau_j(placement) seconds: compute plus the slowest transfer of each
 * communication phase over the links its placement uses (jobgraph.c). A
 * job holds its GPUs until it finishes or a scheduler preempts it; a
 * preempted job keeps its completed iterations and pays a restart overhead
 * when it runs again. One job per GPU.
 *
 * Policies never own the event loop: the simulator calls their hooks and
 * they act through sb_cluster_sim_start/sb_cluster_sim_preempt, every action checked.
 * Non-clairvoyant policies cannot see n_j: the simulator gives them job
 * records whose `iters` is -1 (only policies declared clairvoyant, i.e.
 * oracle baselines, see the true counts).
 */
#ifndef SB_CLUSTER_H
#define SB_CLUSTER_H

#include "opts.h"
#include "rng.h"
#include "sb.h"
#include "registry.h"

struct sb_interf;

/* ------------------------------------------------------------------ */
/* Cluster, models, jobs                                               */
/* ------------------------------------------------------------------ */

struct sb_cluster {
	char name[32];
	int nserver;          /* S servers */
	int gpus;             /* G GPUs per server */
	double b_in;          /* bytes/s between two GPUs of one server */
	double b_out;         /* bytes/s of a server's NIC, shared by the
	                         inter-server flows of one phase (<= b_in) */
	double gpu_flops;     /* peak FLOP/s of one GPU */
	double mfe;           /* model-FLOP efficiency, in (0, 1] */
	double restart;       /* seconds lost when a preempted job resumes */
	int additive;         /* 1: additive iteration time (sum of all
	                         transfers), 0: phase model (max per phase) */
	int replay;           /* 1: trace replay, the semantics of Tiresias'
	                         simulator (see sb_cluster_restart and
	                         sb_jobgraph.replay_tau): every job runs its
	                         trace duration whatever its placement, a
	                         resumed job pays no restart, arrivals and
	                         wake-ups fall on whole seconds */
	/* Topology-and-interference mode (spec marl.md; cluster/interf.h):
	 * NULL for the model above. Otherwise jobs are ring-all-reduce jobs
	 * of DL2 types on interf->topo (nserver x gpus must match it), their
	 * iteration times change whenever a co-located job starts or stops,
	 * progress is continuous (fractional iterations) and integrated
	 * piecewise, and the run records its speed pieces. Not owned. */
	const struct sb_interf *interf;
};

enum sb_model_class { SB_MODEL_CNN = 0, SB_MODEL_TRANSFORMER = 1 };

/* What the iteration-time model needs to know about a DNN. */
struct sb_model {
	char name[32];
	int cls;              /* enum sb_model_class */
	double params;        /* parameter count P */
	int layers;           /* L (transformers) */
	int hidden;           /* h (transformers) */
	int seq;              /* tokens per sequence (transformers) */
	double fwd_flops;     /* forward FLOPs per sample (CNNs) */
	double grad_bytes;    /* bytes of one full gradient exchanged by data
	                         parallelism (fp16 2P unless measured) */
	double act_bytes;     /* bytes of one sample's activation crossing a
	                         pipeline-stage boundary (fp16) */
	int batch;            /* default global batch (samples or sequences) */
};

struct sb_job {
	int id;               /* index in the job set (arrival order) */
	double arrival;       /* seconds */
	int model;            /* index into the job set's model table */
	int d, t, p;          /* data, tensor, pipeline parallel degree */
	int gpus;             /* d * t * p */
	int micro;            /* micro-batches per iteration (>= 1) */
	int batch;            /* global batch (samples or sequences) */
	long iters;           /* true iteration count n_j; -1 when hidden */
	/* Known at arrival (predictor features; -1 / 0 when unknown): */
	int family;           /* recurrence family, -1 for a one-off job */
	int user;
	double batch_mult;    /* batch size relative to the family's default */
	double lr_mult;       /* learning rate relative to the default */
	double data_frac;     /* fraction of the data set */
	double trace_runtime; /* runtime in the trace it came from (s), or -1 */
};

/* The restart overhead the model charges a resumed job: cl->restart,
 * or 0 in trace-replay mode (Tiresias' simulator charges none). */
double sb_cluster_restart(const struct sb_cluster *c);

/* A workload: jobs sorted by (arrival, id) with id = index, and the model
 * table they refer to. Owned; free with sb_jobset_release. */
struct sb_jobset {
	int n;
	struct sb_job *job;
	int nmodel;
	struct sb_model *model;
	/* GPU-seconds of past jobs a scheduler may learn from (the YARN
	 * distribution Tiresias' Gittins index reads), or NULL: nhist values
	 * > 0, owned */
	double *hist;
	int nhist;
	char source[256];     /* "synthetic: W1 ..." or "real: <files>" */
};

void sb_jobset_release(struct sb_jobset *js);
/* Check the invariants above (ids, order, degrees, finite positive
 * numbers); returns 0 or SB_EXIT_INPUT naming the job and field. Also
 * rejects jobs that need more GPUs than c has (c may be NULL). */
int sb_jobset_validate(const struct sb_jobset *js, const struct sb_cluster *c,
		       struct sb_err *err);
/* Check a cluster description; 0 or SB_EXIT_INPUT naming the field. */
int sb_cluster_validate(const struct sb_cluster *c, struct sb_err *err);
/* Topology mode (check_interf.c): the cluster's shape matches its
 * topology (0 or SB_EXIT_INPUT), and the field of job j that the mode
 * cannot run (a type outside the interference table, tensor or pipeline
 * parallelism), or NULL. */
int sb_cluster_interf_validate(const struct sb_cluster *c, struct sb_err *err);
const char *sb_cluster_interf_job_bad(const struct sb_cluster *c, const struct sb_jobset *js,
				      const struct sb_job *j);

/* ------------------------------------------------------------------ */
/* Job communication graph and iteration time (jobgraph.c)             */
/* ------------------------------------------------------------------ */

enum sb_edge_type { SB_EDGE_TP = 0, SB_EDGE_PP = 1, SB_EDGE_DP = 2 };

/*
 * H_j: one vertex per worker (r, s, k) = (replica, stage, shard), numbered
 * v = (r * p + s) * t + k; edges carry the bytes one iteration moves
 * between two workers: tensor-parallel rings over the t shards of each
 * (r, s), pipeline edges (r, s, k) -> (r, s + 1, k), data-parallel rings
 * over the d replicas of each (s, k). A ring of 2 is one edge.
 */
struct sb_jobgraph {
	int nv, ne;
	int *eu, *ev;
	unsigned char *type;  /* enum sb_edge_type */
	double *w;            /* bytes per iteration */
	double t_comp;        /* compute seconds per iteration, pipeline
	                         bubble (m + p - 1) / m included */
	double replay_tau;    /* > 0 in trace-replay mode: the iteration time
	                         on every placement (trace runtime / n_j) */
};

void sb_jobgraph_build(struct sb_jobgraph *h, const struct sb_job *j,
		       const struct sb_model *m, const struct sb_cluster *c);
void sb_jobgraph_release(struct sb_jobgraph *h);
/* Seconds per iteration when vertex v runs on server server[v]. */
double sb_job_iter_time(const struct sb_cluster *c, const struct sb_jobgraph *h,
			const int *server);
/* The same with every transfer at intra-server speed: no placement on any
 * cluster is faster (b_out <= b_in), so n_j times this is a lower bound on
 * the job's processing time. */
double sb_job_iter_time_lb(const struct sb_cluster *c, const struct sb_jobgraph *h);
/* Bytes per iteration on edges whose endpoints are on different servers. */
double sb_jobgraph_cut(const struct sb_jobgraph *h, const int *server);
/*
 * Reference placement on an otherwise empty cluster: workers in vertex
 * order fill ceil(g / G) servers (tensor groups, then stages, stay
 * together). Fills server[nv]; returns its iteration time.
 */
double sb_job_ref_placement(const struct sb_cluster *c, const struct sb_jobgraph *h,
			    int *server);

/* ------------------------------------------------------------------ */
/* Simulator state seen by policies (cluster/sim.c)                     */
/* ------------------------------------------------------------------ */

struct sb_csim;

enum sb_job_state {
	SB_JOB_FUTURE = 0,    /* not arrived yet */
	SB_JOB_PENDING = 1,   /* arrived, not running, not done */
	SB_JOB_RUNNING = 2,
	SB_JOB_DONE = 3,
};

double sb_cluster_sim_now(const struct sb_csim *s);
const struct sb_cluster *sb_cluster_sim_cluster(const struct sb_csim *s);
/* Job records as this policy may see them (iters = -1 unless the policy
 * is clairvoyant) and the model table. */
const struct sb_job *sb_cluster_sim_job(const struct sb_csim *s, int j);
const struct sb_model *sb_cluster_sim_model(const struct sb_csim *s, int j);
int sb_cluster_sim_njobs(const struct sb_csim *s);
const struct sb_jobgraph *sb_cluster_sim_graph(const struct sb_csim *s, int j);
/* Iteration time of j on its reference placement (sb_job_ref_placement). */
double sb_cluster_sim_tau_ref(const struct sb_csim *s, int j);
/* The job set's history of GPU-seconds (sb_jobset.hist; NULL, *n = 0
 * when it has none). */
const double *sb_cluster_sim_history(const struct sb_csim *s, int *n);
int sb_cluster_sim_state(const struct sb_csim *s, int j);
/* Iterations completed so far (whole iterations; a running job's count
 * grows as it runs), executed seconds, attained service (GPUs x executed
 * seconds, restart overheads included), seconds since j last started or
 * last became pending, and its number of preemptions. */
long sb_cluster_sim_done(const struct sb_csim *s, int j);
double sb_cluster_sim_executed(const struct sb_csim *s, int j);
double sb_cluster_sim_attained(const struct sb_csim *s, int j);
double sb_cluster_sim_since(const struct sb_csim *s, int j);
int sb_cluster_sim_preemptions(const struct sb_csim *s, int j);
/* Iteration time of a running job on its current placement (0 if not
 * running), and the seconds its current run has lasted. */
double sb_cluster_sim_tau(const struct sb_csim *s, int j);
/* Arrived, unfinished jobs in arrival order; the array is valid until the
 * next simulator call. */
const int *sb_cluster_sim_active(struct sb_csim *s, int *n);
/* Running jobs (in no particular but deterministic order); valid until
 * the next start, preemption or completion. */
const int *sb_cluster_sim_running(const struct sb_csim *s, int *n);
/* The g_j GPUs of running job j (worker v on gpus[v]), NULL if it is not
 * running; valid until its run ends. */
const int *sb_cluster_sim_gpus(const struct sb_csim *s, int j);
/* Iterations completed so far as a real number (topology mode: progress
 * integrated piecewise; otherwise the whole iterations). */
double sb_cluster_sim_progress(const struct sb_csim *s, int j);
/* Multi-agent decision epochs (baselines/cluster/agents.c): the agent on
 * whose behalf the scheduler is placing now (0 when there is one), so a
 * placer (the learned one) can condition on it. */
int sb_cluster_sim_agent(const struct sb_csim *s);
void sb_cluster_sim_set_agent(struct sb_csim *s, int agent);
/* Free GPUs: in all, per server (array of S), and per GPU (N flags). */
int sb_cluster_sim_free(const struct sb_csim *s);
const int *sb_cluster_sim_free_per_server(const struct sb_csim *s);
const unsigned char *sb_cluster_sim_gpu_free(const struct sb_csim *s);

/* Actions (from schedule/on_* hooks only). sb_cluster_sim_start places pending
 * job j with the run's placer and starts it: 0, or -1 when the placer
 * finds no room (nothing changes). sb_cluster_sim_start_on starts j on the given
 * GPUs (a policy bug, SB_BUG, if they are not free or not g_j distinct
 * GPUs). sb_cluster_sim_preempt stops running job j (its completed iterations
 * are kept). sb_cluster_sim_wake asks for a schedule() call at time t > now
 * (in trace-replay mode only until the next decision, which must ask
 * again: the earliest request of a decision replaces the earlier ones). */
int sb_cluster_sim_start(struct sb_csim *s, int j);
void sb_cluster_sim_start_on(struct sb_csim *s, int j, const int *gpus);
void sb_cluster_sim_preempt(struct sb_csim *s, int j);
void sb_cluster_sim_wake(struct sb_csim *s, double t);
/* From any policy hook: count n units of the policy's own work (what: a
 * static string naming them without white space, e.g. "curve-fits"; one kind per policy), for
 * the speed account of experiment cluster_speed (result.work). */
void sb_cluster_sim_work(struct sb_csim *s, const char *what, long n);
/* From a scheduler hook: the policy cannot decide (e.g. its solver failed
 * or stopped on a time-limit safety net), so the run fails with this
 * message (SB_EXIT_RUN) after the hook returns; nothing is recorded. */
void sb_cluster_sim_fail(struct sb_csim *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------------ */
/* Policies                                                            */
/* ------------------------------------------------------------------ */

/*
 * One struct for both roles, like the dag family: a scheduler fills the
 * scheduling hooks and names a default placer; a placer fills .place. A
 * run combines one of each ("fifo+firstfit"; a scheduler alone uses its
 * default placer).
 */
struct sb_cluster_policy {
	const char *name;        /* = file name = CLI name */
	const char *cite;
	const char *desc;
	const char *provenance;  /* "reconstructed", "ours", "published algorithm" */
	const struct sb_param *params;
	int clairvoyant;         /* 1: sees true iteration counts (oracles) */
	int topo;                /* 1: made for the topology-and-interference
	                            mode (marl.md); on a flat cluster it still
	                            runs, but the flat-model experiments' lists
	                            of every policy leave it out. 2: the same,
	                            and the placer reads the learned slowdown
	                            model cl->interf->pred (callers train it) */
	const char *speed_variant_of; /* non-NULL: the same scheduler as the one
	                            named, computed differently for speed (e.g.
	                            another solver); the experiments' lists of
	                            every policy leave it out, `make bench`
	                            and the tests run it */

	/* Scheduler. init: private state (may be NULL), called once before
	 * the first event; rng is the policy's own stream. release frees it. */
	void *(*init)(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng);
	void (*release)(void *ctx);
	/* Called when job j arrives / finishes (before schedule). Optional. */
	void (*on_arrival)(void *ctx, struct sb_csim *s, int j);
	void (*on_finish)(void *ctx, struct sb_csim *s, int j);
	/* Called once after every batch of simultaneous events (arrivals,
	 * completions, wake-ups): start and preempt jobs here. Required. */
	void (*schedule)(void *ctx, struct sb_csim *s);
	const char *default_place;

	/* Placer: choose g_j free GPUs for pending job j into gpus[0..g_j)
	 * (gpus[v] runs worker v of the job graph). 0, or -1 if j does not
	 * fit. Must not change the simulator. */
	int (*place)(const struct sb_csim *s, int j, const struct sb_opts *o,
		     struct sb_rng *rng, int *gpus);
	/* Learned placers: load trained weights from a results file (sb
	 * eval --weights FILE) before a run. 0 or SB_EXIT_INPUT with err
	 * naming the file and field. NULL for every other policy. */
	int (*load_weights)(const char *path, struct sb_err *err);
};

const struct sb_cluster_policy *sb_cluster_policy_find(const char *name);
const struct sb_cluster_policy *const *sb_cluster_policies(int *n);
const char *sb_cluster_policy_file(const struct sb_cluster_policy *p);
SB_REGISTERED(sb_cluster_policy);
/* `sb eval cluster ...` (core/cluster/eval.c) */
int sb_cluster_eval(int argc, char **argv);
/* its entry in the family table (core/cluster/family.c) */
extern const struct sb_family sb_family_cluster;
/* The family's `sb adversary` hook (core/cluster/adversary.c). */
struct sb_adversary;
extern const struct sb_adversary sb_cluster_adversary;

struct sb_cluster_combo {
	const struct sb_cluster_policy *sched;
	const struct sb_cluster_policy *place;
	char label[96];          /* "fifo+firstfit" */
};
/* Parse "SCHED+PLACER" or "SCHED" (its default placer); SB_EXIT_INPUT
 * listing what is registered when a name is unknown or has the wrong role. */
int sb_cluster_combo_parse(struct sb_cluster_combo *c, const char *spec,
			   struct sb_err *err);

/* ------------------------------------------------------------------ */
/* Running: simulate, check, measure                                   */
/* ------------------------------------------------------------------ */

/* One stretch of a job on one set of GPUs. */
struct sb_cluster_seg {
	int job;
	double start, end;       /* the run; the first `overhead` s are restart */
	double overhead;
	long iters;              /* whole iterations completed in it */
	double tau;              /* iteration time on its GPUs */
	double cut;              /* inter-server bytes per iteration */
	int gpu_off;             /* its g_j GPUs: gpu[gpu_off .. gpu_off + g) */
	int preempted;           /* 1: ended by a preemption */
};

/* Topology mode: one stretch of a segment at one iteration time. The
 * pieces of a segment tile [start, end] in time order. */
struct sb_cluster_piece {
	int seg;
	double start, end;
	double tau;              /* iteration time during the piece */
	double slow;             /* its interference slowdown S */
};

struct sb_cluster_result {
	int n;                   /* jobs */
	double *first_start;     /* per job */
	double *finish;
	int *npreempt;
	double *tau_ref;         /* reference iteration time */
	double *tau_lb;          /* sb_job_iter_time_lb */
	int nseg;
	struct sb_cluster_seg *seg;
	int *gpu;                /* segment GPU lists */
	int npiece;              /* topology mode: speed pieces, else 0 */
	struct sb_cluster_piece *piece;
	long events;             /* simulator events processed */
	long decisions;          /* schedule() calls */
	double active_mean;      /* arrived, unfinished jobs per schedule() call */
	double sched_seconds;    /* wall time in policy hooks (not deterministic) */
	double sim_seconds;      /* wall time of the whole simulation (idem) */
	double sim_cpu_seconds;  /* process CPU time of the simulation (idem) */
	/* the policy's own work, counted by sb_cluster_sim_work (deterministic):
	 * work units of the kind work_what names (a static string; NULL when
	 * the policy counts none) */
	long work;
	const char *work_what;
};

void sb_cluster_result_release(struct sb_cluster_result *r);

/*
 * Simulate the job set under combo c (options of the scheduler and of the
 * placer, policy random streams from seed). Returns 0, SB_EXIT_INPUT (bad
 * job set or cluster), or SB_EXIT_RUN (the policy left jobs waiting on an
 * idle cluster forever) with err filled. Owner: r.
 */
int sb_cluster_simulate(const struct sb_cluster *cl, const struct sb_jobset *js,
			const struct sb_cluster_combo *c, const struct sb_opts *sopts,
			const struct sb_opts *popts, uint64_t seed,
			struct sb_cluster_result *r, struct sb_err *err);

/*
 * Independent validation of a result against the job set (cluster/check.c):
 * every job runs exactly its n_j iterations after its arrival, always on
 * exactly g_j distinct GPUs, no GPU ever holds two jobs, segment lengths
 * agree with the iteration time recomputed from their GPUs (restart
 * overhead on every resumption), preemption counts agree. Returns 0, or -1
 * with the first violation in why.
 */
int sb_cluster_check(const struct sb_cluster *cl, const struct sb_jobset *js,
		     const struct sb_cluster_result *r, char *why, size_t whysz);

/* Topology mode (called by sb_cluster_check, cluster/check_interf.c):
 * recompute every job's iteration time from the co-location state the
 * segments imply, over every interval between segment boundaries; check
 * that the recorded pieces tile each segment and agree with it, that the
 * progress so integrated reaches n_j exactly at the job's end, that no job
 * runs in two segments unless interf->migrate, and that every JCT is at
 * least the isolated duration n_j tau_iso. 0 or -1 with why. */
int sb_cluster_check_interf(const struct sb_cluster *cl, const struct sb_jobset *js,
			    const struct sb_cluster_result *r, char *why, size_t whysz);

/* Topology mode: the run's mean interference slowdown S, weighted by
 * GPU-seconds over its speed pieces (1 without pieces). */
double sb_cluster_interf_slowdown(const struct sb_jobset *js, const struct sb_cluster_result *r);

/*
 * Ask placer pl where it would put job j of js when exactly the GPUs with
 * gpu_free[g] = 1 are free (no simulation runs: a frozen cluster state).
 * Fills gpus[0..g_j) and returns 0, or -1 if the placer finds no room;
 * *cut (bytes per iteration across servers) and *tau (iteration time) of
 * the choice when not NULL. SB_BUG if the placer returns GPUs that are not
 * free or not distinct.
 */
int sb_cluster_probe_place(const struct sb_cluster *cl, const struct sb_jobset *js, int j,
			   const unsigned char *gpu_free, const struct sb_cluster_policy *pl,
			   const struct sb_opts *o, uint64_t seed, int *gpus, double *cut,
			   double *tau);

struct sb_cluster_metrics {
	int n;                   /* jobs measured */
	double jct_mean, jct_p50, jct_p95, jct_p99;
	double total_completion; /* sum of finish times of the measured jobs */
	double queue_mean;       /* first start - arrival */
	double makespan;         /* last finish - first arrival (all jobs) */
	double util;             /* busy GPU-seconds / (N x makespan), all jobs */
	double inter_bytes;      /* inter-server bytes, measured jobs */
	double slowdown_mean;    /* mean tau_actual / tau_ref over segments, weighted by iterations */
	long preemptions;        /* measured jobs */
	/* Where capacity goes (all jobs; span = first to last arrival): */
	double load_ref;         /* sum g_j n_j tau_ref_j / (N span): the offered load */
	double load_eff;         /* busy GPU-seconds / (N span): what was really asked of the
	                            cluster, slowdowns and restarts included */
	double idle_fit;         /* GPU-seconds idle while an arrived, waiting job had as
	                            many GPUs free as it needs, / (N span) */
	double spread;           /* share of busy GPU-seconds on more servers than the
	                            job needs on an empty cluster */
};

/* Metrics over jobs first..n-1 (first > 0 leaves a warm-up out); makespan
 * and utilisation always cover every job. */
void sb_cluster_metrics(const struct sb_cluster *cl, const struct sb_jobset *js,
			const struct sb_cluster_result *r, int first,
			struct sb_cluster_metrics *m);

#endif
