/*
 * pipeline.h - the pipeline family: a DNN as a chain of layers with per-sample
 * costs, and GPUs joined by a bandwidth matrix (spec pipeplan.md §2, §5;
 * dapple.md §2). Plans, schedules and the simulator pipesim build on these.
 *
 * Units: seconds, bytes, bytes/s. Per-layer costs are per SAMPLE (profiles
 * measured at a batch size are divided by it): a microbatch of b samples
 * costs b times as much (the linear scaling both PipeDream and DAPPLE use).
 */
#ifndef SB_PIPELINE_H
#define SB_PIPELINE_H

#include "opts.h"
#include "sb.h"
#include <stdint.h>
#include "registry.h"

/* One layer of the (linearised) model. */
struct sb_layer {
	char name[48];
	double fwd;           /* forward seconds per sample */
	double bwd;           /* backward seconds per sample */
	double act;           /* bytes of its output activation per sample (sent to
	                         the next layer, and to the next stage at a cut) */
	double stash;         /* bytes kept per sample from forward to backward */
	double params;        /* bytes of parameters (fp32 unless stated) */
};

/*
 * The operator DAG a measured profile's chain linearises (graph.txt after
 * PipeDream drops its "Input" sources and "__getitem__" sinks): costs per
 * sample in the units of struct sb_layer, nodes in file order, successors
 * in CSR form (off[v]..off[v+1]-1 of succ), and the chain layer holding
 * each node. Planners that cut the DAG elsewhere than the chain does
 * (PipeDream's antichains) read it. Owned by its model.
 */
struct sb_pgraph {
	int n;
	double *fwd, *bwd, *act, *params;
	int *off, *succ;
	int *layer;
};

/* A model: layers in execution order. Owned; sb_pmodel_release. */
struct sb_pmodel {
	char name[64];
	int n;
	struct sb_layer *layer;
	struct sb_pgraph *graph; /* measured profiles: the DAG (NULL: the chain
				    is the whole model) */
	int pbs;              /* batch size the profile was measured at (1 for
	                         analytic profiles) */
	char source[256];     /* "real: <file>" or "analytic: <description>" */
};

void sb_pmodel_release(struct sb_pmodel *m);

/* GPUs and the links between them. Owned; sb_topo_release. */
struct sb_topo {
	char name[64];
	int n;                /* GPUs */
	double *bw;           /* n x n bytes/s between two GPUs: the bottleneck of
	                         the widest path in the link graph; bw[g*n+g] is
	                         INFINITY (no transfer) */
	int *server;          /* server (machine) of each GPU */
	int nserver;
	double mem;           /* bytes of memory per GPU */
	double speed;         /* relative GPU speed (1: the profile's GPU) */
	double latency;       /* seconds per message */
};

void sb_topo_release(struct sb_topo *t);

/* ------------------------------------------------------------------ */
/* Plans                                                               */
/* ------------------------------------------------------------------ */

/* A stage: contiguous layers on r GPUs that split every microbatch
 * between them (split-concat, as DAPPLE does). */
struct sb_pipeline_stage {
	int first, last;      /* layers first..last, inclusive */
	int r;                /* replicas */
	int gpu[64];          /* their GPUs (r entries) */
};

/*
 * A plan of one synchronous iteration: `copies` identical pipelines of S
 * stages (outer data parallelism), stage s of copy c is st[c * S + s];
 * every copy processes M microbatches of batch / (copies M) samples. After
 * the last backward of stage s, its gradients are all-reduced over all
 * its GPUs in all copies (ring). Owned (st); sb_pipeline_plan_release.
 */
struct sb_pipeline_plan {
	int S, copies, M;
	double batch;         /* global batch (samples) */
	int recompute;        /* 1: backward re-runs the forward; only stage
	                         inputs are stashed */
	int overlap;          /* 1: a stage's all-reduce runs layer by layer
	                         behind its last backward (wait-free
	                         back-propagation); 0: after it */
	double kappa;         /* bytes of training state per parameter byte
	                         (2: weights + gradients, 4 with Adam);
	                         0 means 2 */
	struct sb_pipeline_stage *st;
	struct sb_pmodel *model; /* owned: the same DAG linearised along this
				    plan's cuts, when they are not cuts of the
				    problem's chain (stages index its layers);
				    NULL: the problem's model */
	double objective;     /* the planner's own prediction, seconds per
				 minibatch of objective_batch samples (0: none) */
	double objective_batch;
	char planner[48];     /* who made it */
	char schedule[32];    /* schedule the planner chose for it ("": the
	                         planner's default, sb_pipeline_planner.schedule) */
};

void sb_pipeline_plan_init(struct sb_pipeline_plan *p, int S, int copies);
void sb_pipeline_plan_release(struct sb_pipeline_plan *p);
/* The model p's stages index: its own (p->model) or m. Every function
 * taking a plan and a model resolves it through this. */
const struct sb_pmodel *sb_pipeline_plan_model(const struct sb_pipeline_plan *p,
					   const struct sb_pmodel *m);
/* Structural check against model and topology: layers covered in order by
 * every copy, GPUs distinct and in range, M >= 1, batch divisible into
 * microbatches of at least one sample per replica. 0 or SB_EXIT_INPUT
 * naming the stage and field. */
int sb_pipeline_plan_validate(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
			  const struct sb_topo *t, struct sb_err *err);

/* ------------------------------------------------------------------ */
/* Costs of a plan (pipeline/cost.c): the model of spec pipeplan.md §2      */
/* ------------------------------------------------------------------ */

struct sb_pipeline_costs {
	int S, copies;
	double beta;          /* samples per microbatch */
	double *F, *B;        /* per (copy, stage): seconds per microbatch (B
	                         includes the re-forward with recompute) */
	double *C;            /* per (copy, stage s < S-1): transfer s -> s+1
	                         (and back, gradients of the same size) */
	double *AR;           /* per stage: all-reduce time after its last
	                         backward ends (with overlap: only the part the
	                         backward could not hide) */
	double *mem_w;        /* per stage: fixed bytes per GPU (kappa W; with
	                         recompute plus one microbatch's activations) */
	double *mem_a;        /* per stage: stashed bytes per microbatch per GPU */
	double t_opt;         /* optimizer step */
	double gpu_mem;       /* bytes of memory per GPU (the topology's) */
};

/* The costs of plan p (kappa from the plan). Owned; sb_pipeline_costs_release. */
void sb_pipeline_costs_build(struct sb_pipeline_costs *c, const struct sb_pipeline_plan *p,
			 const struct sb_pmodel *m, const struct sb_topo *t);
void sb_pipeline_costs_release(struct sb_pipeline_costs *c);

/* ------------------------------------------------------------------ */
/* Schedules and the simulator pipesim (pipeline/sim.c)                     */
/* ------------------------------------------------------------------ */

enum sb_pipeline_kind { SB_PIPELINE_F = 0, SB_PIPELINE_B = 1 };

struct sb_pipeline_task {
	int kind;             /* enum sb_pipeline_kind */
	int mb;               /* microbatch */
};

/* What a schedule policy sees of one stage when it decides. */
struct sb_pipeline_view {
	const struct sb_pipeline_plan *plan;
	const struct sb_pipeline_costs *costs;
	int copy, stage;
	int inflight;         /* forwards done whose backward has not started */
	int fdone, bdone;     /* forwards / backwards started so far */
	const double *rank;   /* upward ranks (critical path to the end): rank[s]
	                         of a forward, rank[S + s] of a backward on stage
	                         s (equal for every microbatch), or NULL */
};

/*
 * A per-stage schedule: which ready task a free stage runs next. Like the
 * other families, one ops struct, registered by its file.
 */
struct sb_pipeline_schedule {
	const char *name;
	const char *cite;
	const char *desc;
	const char *provenance;
	const struct sb_param *params;
	/* Most forwards in flight on stage s (forwarded, backward not yet
	 * started); the simulator never exceeds it. <= 0: M. */
	int (*cap)(const struct sb_pipeline_view *v, const struct sb_opts *o);
	/* Index into ready[0..n) of the task to run now, or -1 to wait for
	 * something else to become ready. Ready forwards are only offered
	 * while the cap allows. */
	int (*pick)(const struct sb_pipeline_view *v, const struct sb_pipeline_task *ready, int n,
		    const struct sb_opts *o);
	int wants_rank;       /* 1: the simulator computes upward ranks */
};

const struct sb_pipeline_schedule *sb_pipeline_schedule_find(const char *name);
const struct sb_pipeline_schedule *const *sb_pipeline_schedules(int *n);
const char *sb_pipeline_schedule_file(const struct sb_pipeline_schedule *p);
SB_REGISTERED(sb_pipeline_schedule);

/* One executed task of the timeline. */
struct sb_pipeline_event {
	int copy, stage;      /* stage, or -1 for a transfer */
	int kind;             /* F/B, for transfers the direction (F: s -> s+1) */
	int mb;
	int link;             /* transfers: the lower stage s of link s <-> s+1 */
	double start, end;
};

struct sb_pipeline_result {
	double iter_time;     /* one synchronous iteration */
	double throughput;    /* samples per second */
	double bubble;        /* idle share of the stages' time before their AR */
	double peak_mem;      /* bytes, the most loaded GPU */
	int fits;             /* peak_mem within the GPUs' memory (set by
	                         sb_pipeline_evaluate) */
	int *peak_inflight;   /* per stage (copy 0) */
	int nev;
	struct sb_pipeline_event *ev;
};

void sb_pipeline_result_release(struct sb_pipeline_result *r);

/*
 * Simulate one iteration of plan p under schedule sc: every stage runs one
 * task at a time, transfers queue FIFO on the link between two stages, a
 * forward of microbatch i on stage s waits for its activations, a backward
 * for the gradients from stage s+1 (the last stage: its own forward).
 * Returns 0, SB_EXIT_INPUT (bad plan) or SB_EXIT_RUN (the schedule
 * deadlocked: waited with nothing to wait for) with err. Owner: r.
 */
int sb_pipeline_simulate(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		     const struct sb_topo *t, const struct sb_pipeline_schedule *sc,
		     const struct sb_opts *o, struct sb_pipeline_result *r, struct sb_err *err);

/*
 * Independent check of a timeline (pipeline/check.c): durations recomputed
 * from the costs, precedence with transfer delays, one task at a time per
 * stage and per link direction, every task exactly once, the in-flight
 * cap, memory within the GPUs' capacity, and the iteration time. 0, or -1
 * with the first violation in why.
 */
int sb_pipeline_check(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		  const struct sb_topo *t, const struct sb_pipeline_schedule *sc,
		  const struct sb_opts *o, const struct sb_pipeline_result *r, char *why,
		  size_t whysz);

/* ------------------------------------------------------------------ */
/* Planners                                                            */
/* ------------------------------------------------------------------ */

/* What a planner is asked: train `model` on `topo` with global batch
 * `batch`, in M microbatches per pipeline copy (M = 0: the planner
 * chooses), with `kappa` bytes of state per parameter byte (0: 2), for
 * its plans to be run under schedule `sched` (memory: its in-flight cap;
 * NULL: the planner's own default). */
struct sb_pipeline_problem {
	const struct sb_pmodel *model;
	const struct sb_topo *topo;
	double batch;
	int M;
	double kappa;
	const struct sb_pipeline_schedule *sched;
};

/*
 * A planner: partition, replication and device mapping (and, when the
 * problem leaves it open, the number of microbatches). One ops struct per
 * planner file, registered like every policy.
 */
struct sb_pipeline_planner {
	const char *name;
	const char *cite;
	const char *desc;
	const char *provenance;   /* "published algorithm", "public code",
				     "reconstruction (ours)", ... */
	const struct sb_param *params;
	const char *schedule;     /* schedule its plans run under by default */
	/* Fill out (initialised here; the caller releases it) with a plan
	 * that passes sb_pipeline_plan_validate and fits the GPUs' memory under
	 * the problem's schedule. 0; SB_EXIT_RUN with err when no plan of
	 * its family fits (e.g. the model is too large for pure data
	 * parallelism); SB_EXIT_INPUT for a problem it cannot take. */
	int (*plan)(const struct sb_pipeline_problem *pb, const struct sb_opts *o,
		    struct sb_pipeline_plan *out, struct sb_err *err);
};

const struct sb_pipeline_planner *sb_pipeline_planner_find(const char *name);
const struct sb_pipeline_planner *const *sb_pipeline_planners(int *n);
const char *sb_pipeline_planner_file(const struct sb_pipeline_planner *p);
SB_REGISTERED(sb_pipeline_planner);
/* `sb eval pipeline ...` (core/pipeline/eval.c) */
int sb_pipeline_eval(int argc, char **argv);
/* its entry in the family table (core/pipeline/family.c) */
extern const struct sb_family sb_family_pipeline;
/* its `sb adversary` hook (core/pipeline/adversary.c) */
struct sb_adversary;
extern const struct sb_adversary sb_pipeline_adversary;
/* The model, topology and problem (pointing at them) the hook's context
 * (its open) codes by gene, for the tests. Owner: m and t. */
void sb_pipeline_adversary_decode(void *ctx, const int *gene, struct sb_pmodel *m,
				  struct sb_topo *t, struct sb_pipeline_problem *pb);

/* ------------------------------------------------------------------ */
/* Shared helpers of the planners (pipeline/pipeline.c)                             */
/* ------------------------------------------------------------------ */

/* Smallest bandwidth between a GPU of a[0..na) and a different GPU of
 * b[0..nb) (INFINITY if none): the bottleneck of a transfer between two
 * GPU sets, or of a ring over one set (a = b). */
double sb_pipeline_min_bw(const struct sb_topo *t, const int *a, int na, const int *b, int nb);

/*
 * Min-max contiguous partition of layers 0..L-1 into exactly S stages
 * (1 <= S <= L): minimise the largest cost(first, last, stage) over the
 * stages; a stage is allowed only if cost is finite (return INFINITY to
 * forbid it, e.g. when it does not fit in memory). Ties keep the earliest
 * cut found scanning cut positions upwards. Writes the last layer of
 * stage s to last[s]; returns the optimum (INFINITY: no partition). O(S L^2)
 * calls of cost.
 */
double sb_pipeline_minmax(int L, int S, double (*cost)(void *ctx, int first, int last, int stage),
		      void *ctx, int *last);

/* The GPUs of stage s in every copy of p into out (room for copies x r);
 * returns their number. */
int sb_pipeline_stage_gpus(const struct sb_pipeline_plan *p, int s, int *out);

/* Prefix sums over the layers, per sample: x[j] = sum of layers 0..j-1,
 * so layers i..j cost x[j+1] - x[i]. Owned; sb_pipeline_prefix_release. */
struct sb_pipeline_prefix {
	int n;
	double *fwd, *bwd, *params, *stash;
};

void sb_pipeline_prefix_init(struct sb_pipeline_prefix *x, const struct sb_pmodel *m);
void sb_pipeline_prefix_release(struct sb_pipeline_prefix *x);

void sb_pgraph_release(struct sb_pgraph *g);

/*
 * The states PipeDream's optimizer cuts a model at (pipeline/antichain.c):
 * the antichain DAG of m->graph (use_graph and a graph present), else of
 * the chain of layers (one state per layer). States are in upstream's
 * topological order; state i covers the down-set down[i] of graph nodes;
 * sums over it per sample (comp = forward + backward seconds, stash and
 * params bytes) and the output activation of its augmented antichain;
 * anc (bit sets) and anc_idx[anc_off[i]..anc_off[i+1]) (ascending) its
 * transitive predecessors in the antichain DAG. 0; SB_EXIT_RUN with err
 * beyond max_states. Owned; sb_pipeline_states_release.
 */
struct sb_pipeline_states {
	int n, nodes, words, awords;
	uint64_t *down, *anc;
	double *comp, *stash, *params, *out_act;
	int *anc_off, *anc_idx;
};

int sb_pipeline_states_build(const struct sb_pmodel *m, int use_graph, int max_states,
			     struct sb_pipeline_states *st, struct sb_err *err);
/* 1 if state k precedes state j in the antichain DAG */
int sb_pipeline_states_is_anc(const struct sb_pipeline_states *st, int k, int j);
/* 1 if graph node `node` is in the down-set of state s */
int sb_pipeline_states_has(const struct sb_pipeline_states *st, int s, int node);
void sb_pipeline_states_release(struct sb_pipeline_states *st);

/*
 * Bytes per GPU of a stage holding layers first..last on r replicas with
 * microbatches of beta samples, `inflight` of them stashed at once:
 * kappa params + inflight beta stash / r (with recompute the stash is
 * the stage's input activation only) - the model pipesim and the checker
 * use (pipeline/cost.c).
 */
double sb_pipeline_stage_mem(const struct sb_pmodel *m, const struct sb_pipeline_prefix *x,
			 int first, int last, int r, double beta, int inflight, double kappa,
			 int recompute);

/* In-flight cap the schedule puts on stage s of an S-stage plan with M
 * microbatches (its cap hook; M when it has none or returns <= 0). */
int sb_pipeline_sched_cap(const struct sb_pipeline_schedule *sc, const struct sb_pipeline_plan *p,
		      int stage, const struct sb_opts *o);

/* The plan as one line: "S=2 copies=1 M=8 | 0-11 x4 [0,1,2,3] | 12-25 x4 [...]". */
void sb_pipeline_plan_format(const struct sb_pipeline_plan *p, char *buf, size_t len);

/*
 * Run plan p under schedule sc in pipesim and check the timeline with
 * sb_pipeline_check; the metrics are only returned for a valid timeline. A
 * plan that needs more memory than the GPUs have is still simulated and
 * checked (against unbounded memory) so that its time and memory can be
 * reported, with r->fits = 0: callers must not count it as a feasible
 * plan. 0, SB_EXIT_INPUT (bad plan), SB_EXIT_RUN (deadlock, or the
 * checker rejected the timeline: a bug, message in err). Owner: r.
 */
int sb_pipeline_evaluate(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		     const struct sb_topo *t, const struct sb_pipeline_schedule *sc,
		     const struct sb_opts *o, struct sb_pipeline_result *r, struct sb_err *err);

#endif
