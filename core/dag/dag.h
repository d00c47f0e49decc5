/*
 * dag.h - the dag family: one training iteration of a dataflow graph,
 * placed on heterogeneous devices and ordered per device.
 *
 * Model (Mayer, Mayer, Laich, DIDL'17, as read from the authors' public
 * simulator; see the spec tfpart.md):
 *   - op v has work ops(v), output tensor size out(v) (sent along every
 *     out-edge; edges may carry their own size), persistent memory ram(v),
 *     a device-type constraint and a colocation component;
 *   - device d has speed s(d) (ops per time unit), memory M(d), a type, and
 *     symmetric link rates r(d,d') (tensor units per time unit; INFINITY
 *     means free transfers);
 *   - t(v,d) = ops(v)/s(d), or a general time matrix etc[v][d] when given
 *     (related machines vs. unrelated machines, as in the HEFT literature);
 *   - after placement, one Send task per producer u and distinct remote
 *     device d' hosting a consumer of u; it costs send_ops work on p(u) and
 *     waits in that device's ready queue like any op; the tensor reaches
 *     consumer v on d' at F(send) + size(u,v)/r(p(u),d'). With send_ops = 0
 *     Sends are pure delays that occupy no device.
 *   - no link contention, no latency; devices run one task at a time,
 *     non-preemptively and work-conserving, in the order a local scheduler
 *     chooses; the makespan is the largest finish time (Sends included).
 */
#ifndef SB_DAG_H
#define SB_DAG_H

#include "sb.h"
#include "opts.h"
#include "rng.h"
#include "registry.h"
#include "adversary.h"

enum sb_devtype { SB_DEV_CPU = 0, SB_DEV_GPU = 1, SB_DEV_TPU = 2 };
#define SB_DC_ANY (-1) /* op constraint: any device type */

/* ------------------------------------------------------------------ */
/* Instance                                                            */
/* ------------------------------------------------------------------ */

struct sb_dag {
	int n;            /* ops, numbered 0..n-1 */
	int m;            /* edges */
	double *ops;      /* work of each op */
	double *out;      /* output tensor size */
	double *ram;      /* persistent memory */
	int *dc;          /* SB_DC_ANY or the required enum sb_devtype */
	int *comp;        /* colocation component of each op, 0..ncomp-1;
	                     an op without colocation is its own component */
	int ncomp;
	/* CSR adjacency; succ_size[k] is the tensor size carried by the edge
	 * succ[k] (equal to out(u) for TF graphs). pred_edge[k] gives, for
	 * pred[k], the index of the same edge in succ[]. */
	int *succ_off, *succ;
	double *succ_size;
	int *pred_off, *pred, *pred_edge;
	int *topo;        /* a topological order (ties: smaller id first) */
	long *ext_id;     /* id of each op in the input file */
};

struct sb_devices {
	int n;
	double *speed;    /* ops per time unit */
	double *mem;      /* memory capacity */
	int *type;        /* enum sb_devtype */
	double *rate;     /* n*n, rate[d*n+e], symmetric; diagonal unused */
	long *ext_id;
};

struct sb_dag_inst {
	char *name;              /* short name for results ("cnn", "layered-p0.1") */
	struct sb_dag g;
	struct sb_devices dev;
	double *etc;             /* NULL, or n*ndev times etc[v*ndev+d]; an
	                            entry of INFINITY forbids the pair */
	double send_ops;         /* work of a Send task (10 in the TF model) */
	char *source;            /* where it came from: file paths or generator */
};

/* Build the CSR arrays, topological order and components of g from an
 * edge list (edges u->v with sizes; duplicates merged, keeping the first
 * size) and a colocation union list (pairs that must share a device).
 * Returns SB_EXIT_INPUT with err ("cycle through op 4") for a cycle, a
 * self-loop or an id out of range. Arrays ops/out/ram/dc/ext_id of g must
 * already be set (n ops). */
int sb_dag_finish(struct sb_dag *g, int nedges, const int *eu, const int *ev,
		  const double *esize, int npairs, const int *cu, const int *cv,
		  struct sb_err *err);
void sb_dag_release(struct sb_dag *g);
void sb_devices_release(struct sb_devices *d);
void sb_dag_inst_release(struct sb_dag_inst *in);
/* Allocate the op arrays of g for n ops (zeroed, dc = SB_DC_ANY,
 * ext_id = index). */
void sb_dag_alloc(struct sb_dag *g, int n);
void sb_devices_alloc(struct sb_devices *d, int n);

/* Execution time of op v on device d (INFINITY if forbidden). */
double sb_dag_time(const struct sb_dag_inst *in, int v, int d);
/* 1 if op v may run on device d (type constraint and finite time). */
int sb_dag_allowed(const struct sb_dag_inst *in, int v, int d);
/* Memory demand used while partitioning: ram(v) + out(v) + sum of out(u)
 * over predecessors u (the authors' definition). */
double sb_dag_mem(const struct sb_dag_inst *in, int v);
/* Transfer time of an edge of size `size` from d to e (0 if d == e). */
double sb_dag_xfer(const struct sb_dag_inst *in, double size, int d, int e);

/* ------------------------------------------------------------------ */
/* Placement and planned schedules                                     */
/* ------------------------------------------------------------------ */

enum sb_dag_plan_kind {
	SB_DAG_PLAN_NONE = 0,
	SB_DAG_PLAN_SCHEDULE = 1,
	SB_DAG_PLAN_KEYS = 2,
};

struct sb_dag_plan {
	int *place;          /* device of each op (n entries, caller-owned) */
	/* A partitioner that also plans a full schedule (HEFT, CPOP, ETF...)
	 * sets has_plan = SB_DAG_PLAN_SCHEDULE and fills the planned start and
	 * finish time of each op in its own model (Sends as pure delays) and
	 * plan_makespan. The harness validates that planned schedule with
	 * sb_dag_check too. SB_DAG_PLAN_KEYS: the planned times are only keys
	 * for a local scheduler (heft-order), not a schedule of any model (the
	 * authors' HEFT starts an op when its first input arrives); they are
	 * neither checked nor reported. */
	int has_plan;     /* enum sb_dag_plan_kind */
	double *plan_start;  /* n entries, caller-owned */
	double *plan_finish; /* n entries, caller-owned */
	double plan_makespan;
};

void sb_dag_plan_init(struct sb_dag_plan *p, int n);
void sb_dag_plan_release(struct sb_dag_plan *p);

/* ------------------------------------------------------------------ */
/* Execution graph: ops plus Sends, built from a placement             */
/* ------------------------------------------------------------------ */

struct sb_dag_exec {
	const struct sb_dag_inst *in;
	const int *place;
	int n;             /* ops: tasks 0..n-1 */
	int nsend;         /* Sends: tasks n..n+nsend-1 */
	int ntask;
	int *dev;          /* device of each task */
	double *dur;       /* duration of each task */
	int *send_op;      /* producer op of Send n+k */
	int *send_dst;     /* destination device of Send n+k */
	int delay_sends;   /* 1 when Sends are pure delays (send_ops == 0) */
	/* exec edges (CSR): task -> task with a delay (0 for same-device
	 * edges and op->Send; size/rate for Send->consumer) */
	int *x_off, *x_to;
	double *x_delay;
	int *indeg;        /* number of exec predecessors of each task */
	double comm_volume;/* sum over Sends of the largest size they carry */
};

/* Build the execution graph of placement `place` (which must be complete
 * and within range). Owned by x; free with sb_dag_exec_release. */
void sb_dag_exec_build(struct sb_dag_exec *x, const struct sb_dag_inst *in,
		       const int *place);
void sb_dag_exec_release(struct sb_dag_exec *x);

/* ------------------------------------------------------------------ */
/* Simulator                                                           */
/* ------------------------------------------------------------------ */

/* What a dynamic scheduler may look at when it picks. */
struct sb_dag_simstate {
	const struct sb_dag_exec *x;
	const struct sb_dag_plan *plan;
	double now;
	const int *missing;  /* per task: inputs not yet arrived */
	const int *nready;   /* per device: ready tasks waiting */
	const int *busy;     /* per device: 1 while running a task */
	const double *prio;  /* static keys of the paired scheduler, if any */
};

struct sb_dag_policy;

struct sb_dag_result {
	int ntask;
	double *start, *finish;  /* per exec task (owned) */
	double makespan;
	double comm_volume;
	long events;             /* events processed */
	double busy_time;        /* sum of task durations on devices */
};

/* Simulate one iteration of placement plan->place with scheduler `sched`
 * (opts so). Returns 0, or SB_EXIT_INPUT if the scheduler reports an error
 * (e.g. heft-order without a planned schedule). */
int sb_dag_simulate(const struct sb_dag_exec *x, const struct sb_dag_plan *plan,
		    const struct sb_dag_policy *sched, const struct sb_opts *so,
		    struct sb_dag_result *res, struct sb_err *err);
void sb_dag_result_release(struct sb_dag_result *res);

/* ------------------------------------------------------------------ */
/* Independent checker                                                 */
/* ------------------------------------------------------------------ */

/* A schedule as the checker sees it: ops with device and times, and the
 * Sends that were executed. The checker derives the Sends that must exist
 * from the instance and placement on its own. */
struct sb_dag_schedule {
	int n;
	const int *place;
	const double *start, *finish;     /* per op */
	int nsend;
	const int *send_op, *send_dst;
	const double *send_start, *send_finish;
	int delay_sends;                  /* 1: Sends occupy no device */
	double makespan;                  /* claimed */
};

/* 0 if valid: placement complete, allowed and colocated, memory within
 * capacity, durations right, exactly one Send per (producer, remote
 * consumer device), precedence with transfer delays, no overlap on a
 * device, makespan = largest finish. Otherwise SB_EXIT_RUN with the first
 * violation in err. Tolerance: 1e-9 relative. */
int sb_dag_check(const struct sb_dag_inst *in, const struct sb_dag_schedule *s,
		 struct sb_err *err);
/* Checker views of a simulator result and of a planned schedule. */
void sb_dag_schedule_of_result(struct sb_dag_schedule *s,
			       const struct sb_dag_exec *x,
			       const struct sb_dag_result *r);
/* For a plan: Sends as pure delays; the plan arrays are used as they are;
 * send arrays are filled from the plan (start = finish = F(u)) in the
 * caller-provided scratch x built with the same placement. */
void sb_dag_schedule_of_plan(struct sb_dag_schedule *s,
			     const struct sb_dag_exec *x,
			     const struct sb_dag_plan *p, double *scratch_send_times);

/* ------------------------------------------------------------------ */
/* Policies                                                            */
/* ------------------------------------------------------------------ */

/*
 * One ops struct for the dag family. A file in algorithms/ or
 * baselines/dag/ ends with exactly one
 *     const struct sb_dag_policy sb_dag_policy_<name> = { ... };
 * and the build registers it. A policy is a partitioner (partition set),
 * a local scheduler (priority or pick set), or both. Optional hooks are
 * NULL. Policies keep no global state.
 */
struct sb_dag_policy {
	const char *name;        /* = file name = CLI name */
	const char *cite;        /* "Authors, Title, Venue Year" */
	const char *desc;        /* one line */
	const char *provenance;  /* "verified (authors' code)", "reconstructed",
	                            "ours", "published algorithm" */
	const struct sb_param *params; /* accepted options, {NULL}-ended, or NULL */

	/* Partitioner: called once per run; fills plan->place (and optionally
	 * the planned schedule). rng is this policy's own stream. May only
	 * write *plan. Returns 0, or SB_EXIT_INPUT with err when the instance
	 * has no feasible placement for it (e.g. memory). */
	int (*partition)(const struct sb_dag_inst *in, const struct sb_opts *o,
			 struct sb_rng *rng, struct sb_dag_plan *plan,
			 struct sb_err *err);

	/* Static local scheduler: called once after the execution graph is
	 * built; fills key[t] for every task (ops and Sends). A free device
	 * runs its ready task with the smallest key; equal keys run in the
	 * order they became ready. Returns 0 or SB_EXIT_INPUT. */
	int (*priority)(const struct sb_dag_exec *x, const struct sb_dag_plan *plan,
			const struct sb_opts *o, double *key, struct sb_err *err);

	/* Dynamic local scheduler: called when device d is free and has ready
	 * tasks ready[0..nready) (in the order they became ready); returns the
	 * index of the task to run. st->prio holds the keys of .priority if
	 * the policy also has one (used for tie-breaks). */
	int (*pick)(const struct sb_dag_simstate *st, int d, const int *ready,
		    int nready, const struct sb_opts *o);

	/* For a partitioner that is a whole baseline (heft, cpop, etf...): the
	 * scheduler it is run with when named alone. NULL otherwise. */
	const char *default_sched;
};

/* Look up a registered dag policy by name (NULL if none). */
const struct sb_dag_policy *sb_dag_policy_find(const char *name);
/* All registered dag policies, in name order; *n set to the count. */
const struct sb_dag_policy *const *sb_dag_policies(int *n);
/* The source file a registered policy was defined in. */
const char *sb_dag_policy_file(const struct sb_dag_policy *p);
SB_REGISTERED(sb_dag_policy);
/* `sb eval dag ...` (core/dag/eval.c) */
int sb_dag_eval(int argc, char **argv);
/* its entry in the family table (core/dag/family.c) */
extern const struct sb_family sb_family_dag;
/* The family's `sb adversary` hook (adversary.c). */
extern const struct sb_adversary sb_dag_adversary;

/* A resolved "PARTITIONER+SCHEDULER" or a single baseline name. */
struct sb_dag_combo {
	const struct sb_dag_policy *part;
	const struct sb_dag_policy *sched;
	char label[96];   /* "cp+pct", "heft" */
};
/* Parse "cp+pct" or "heft"; SB_EXIT_INPUT with a message listing what is
 * registered when a name is unknown or has the wrong role. */
int sb_dag_combo_parse(struct sb_dag_combo *c, const char *spec,
		       struct sb_err *err);

/*
 * Run a combination on an instance end to end: partition, validate the
 * planned schedule (if any) with the checker, build the execution graph,
 * simulate, validate the simulated schedule with the checker. Metrics are
 * filled only when every check passes (a run that fails validation yields
 * SB_EXIT_RUN and no metrics).
 */
struct sb_dag_metrics {
	double makespan;       /* simulated (dagsim) */
	double plan_makespan;  /* the policy's own planned makespan, or NAN */
	double comm_volume;
	int nsend;
	double part_seconds;   /* wall clock: partitioning */
	double sched_seconds;  /* wall clock: priorities + simulation */
	long events;
	double busy_fraction;  /* busy time / (makespan * devices) */
	int devices_used;
};
int sb_dag_run_combo(const struct sb_dag_inst *in, const struct sb_dag_combo *c,
		     const struct sb_opts *popts, const struct sb_opts *sopts,
		     struct sb_rng *rng, struct sb_dag_metrics *m,
		     int *place_out /* n entries or NULL */, struct sb_err *err);
/* The same, also returning the simulated start time of every op (n
 * entries, or NULL): an incumbent for the MILPs. */
int sb_dag_run_combo_start(const struct sb_dag_inst *in, const struct sb_dag_combo *c,
			   const struct sb_opts *popts, const struct sb_opts *sopts,
			   struct sb_rng *rng, struct sb_dag_metrics *m, int *place_out,
			   double *start_out, struct sb_err *err);

#endif
