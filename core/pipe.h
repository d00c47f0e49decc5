/*
 * pipe.h - the pipeline family: a DNN as a chain of layers with per-sample
 * costs, and GPUs joined by a bandwidth matrix (spec pipeplan.md §2, §5;
 * dapple.md §2). Plans, schedules and the simulator pipesim build on these.
 *
 * Units: seconds, bytes, bytes/s. Per-layer costs are per SAMPLE (profiles
 * measured at a batch size are divided by it): a microbatch of b samples
 * costs b times as much (the linear scaling both PipeDream and DAPPLE use).
 */
#ifndef SB_PIPE_H
#define SB_PIPE_H

#include "opts.h"
#include "sb.h"

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

/* A model: layers in execution order. Owned; sb_pmodel_release. */
struct sb_pmodel {
	char name[64];
	int n;
	struct sb_layer *layer;
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
struct sb_pipe_stage {
	int first, last;      /* layers first..last, inclusive */
	int r;                /* replicas */
	int gpu[64];          /* their GPUs (r entries) */
};

/*
 * A plan of one synchronous iteration: `copies` identical pipelines of S
 * stages (outer data parallelism), stage s of copy c is st[c * S + s];
 * every copy processes M microbatches of batch / (copies M) samples. After
 * the last backward of stage s, its gradients are all-reduced over all
 * its GPUs in all copies (ring). Owned (st); sb_pipe_plan_release.
 */
struct sb_pipe_plan {
	int S, copies, M;
	double batch;         /* global batch (samples) */
	int recompute;        /* 1: backward re-runs the forward; only stage
	                         inputs are stashed */
	struct sb_pipe_stage *st;
	char planner[48];     /* who made it */
};

void sb_pipe_plan_init(struct sb_pipe_plan *p, int S, int copies);
void sb_pipe_plan_release(struct sb_pipe_plan *p);
/* Structural check against model and topology: layers covered in order by
 * every copy, GPUs distinct and in range, M >= 1, batch divisible into
 * microbatches of at least one sample per replica. 0 or SB_EXIT_INPUT
 * naming the stage and field. */
int sb_pipe_plan_validate(const struct sb_pipe_plan *p, const struct sb_pmodel *m,
			  const struct sb_topo *t, struct sb_err *err);

/* ------------------------------------------------------------------ */
/* Costs of a plan (pipecost.c): the model of spec pipeplan.md §2      */
/* ------------------------------------------------------------------ */

struct sb_pipe_costs {
	int S, copies;
	double beta;          /* samples per microbatch */
	double *F, *B;        /* per (copy, stage): seconds per microbatch (B
	                         includes the re-forward with recompute) */
	double *C;            /* per (copy, stage s < S-1): transfer s -> s+1
	                         (and back, gradients of the same size) */
	double *AR;           /* per stage: all-reduce after its last backward */
	double *mem_w;        /* per stage: parameter memory per GPU (kappa W) */
	double *mem_a;        /* per stage: stashed bytes per microbatch per GPU */
	double t_opt;         /* optimizer step */
};

/* kappa: bytes of state per parameter byte (2: weights + gradients, 4
 * with Adam). Owned; sb_pipe_costs_release. */
void sb_pipe_costs_build(struct sb_pipe_costs *c, const struct sb_pipe_plan *p,
			 const struct sb_pmodel *m, const struct sb_topo *t, double kappa);
void sb_pipe_costs_release(struct sb_pipe_costs *c);

/* ------------------------------------------------------------------ */
/* Schedules and the simulator pipesim (pipesim.c)                     */
/* ------------------------------------------------------------------ */

enum sb_pipe_kind { SB_PIPE_F = 0, SB_PIPE_B = 1 };

struct sb_pipe_task {
	int kind;             /* enum sb_pipe_kind */
	int mb;               /* microbatch */
};

/* What a schedule policy sees of one stage when it decides. */
struct sb_pipe_view {
	const struct sb_pipe_plan *plan;
	const struct sb_pipe_costs *costs;
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
struct sb_pipe_schedule {
	const char *name;
	const char *cite;
	const char *desc;
	const char *provenance;
	const struct sb_param *params;
	/* Most forwards in flight on stage s (forwarded, backward not yet
	 * started); the simulator never exceeds it. <= 0: M. */
	int (*cap)(const struct sb_pipe_view *v, const struct sb_opts *o);
	/* Index into ready[0..n) of the task to run now, or -1 to wait for
	 * something else to become ready. Ready forwards are only offered
	 * while the cap allows. */
	int (*pick)(const struct sb_pipe_view *v, const struct sb_pipe_task *ready, int n,
		    const struct sb_opts *o);
	int wants_rank;       /* 1: the simulator computes upward ranks */
};

const struct sb_pipe_schedule *sb_pipe_schedule_find(const char *name);
const struct sb_pipe_schedule *const *sb_pipe_schedules(int *n);

/* One executed task of the timeline. */
struct sb_pipe_event {
	int copy, stage;      /* stage, or -1 for a transfer */
	int kind;             /* F/B, for transfers the direction (F: s -> s+1) */
	int mb;
	int link;             /* transfers: the lower stage s of link s <-> s+1 */
	double start, end;
};

struct sb_pipe_result {
	double iter_time;     /* one synchronous iteration */
	double throughput;    /* samples per second */
	double bubble;        /* idle share of the stages' time before their AR */
	double peak_mem;      /* bytes, the most loaded GPU */
	int *peak_inflight;   /* per stage (copy 0) */
	int nev;
	struct sb_pipe_event *ev;
};

void sb_pipe_result_release(struct sb_pipe_result *r);

/*
 * Simulate one iteration of plan p under schedule sc: every stage runs one
 * task at a time, transfers queue FIFO on the link between two stages, a
 * forward of microbatch i on stage s waits for its activations, a backward
 * for the gradients from stage s+1 (the last stage: its own forward).
 * Returns 0, SB_EXIT_INPUT (bad plan) or SB_EXIT_RUN (the schedule
 * deadlocked: waited with nothing to wait for) with err. Owner: r.
 */
int sb_pipe_simulate(const struct sb_pipe_plan *p, const struct sb_pmodel *m,
		     const struct sb_topo *t, const struct sb_pipe_schedule *sc,
		     const struct sb_opts *o, struct sb_pipe_result *r, struct sb_err *err);

/*
 * Independent check of a timeline (pipecheck.c): durations recomputed
 * from the costs, precedence with transfer delays, one task at a time per
 * stage and per link direction, every task exactly once, the in-flight
 * cap, memory within the GPUs' capacity, and the iteration time. 0, or -1
 * with the first violation in why.
 */
int sb_pipe_check(const struct sb_pipe_plan *p, const struct sb_pmodel *m,
		  const struct sb_topo *t, const struct sb_pipe_schedule *sc,
		  const struct sb_opts *o, const struct sb_pipe_result *r, char *why,
		  size_t whysz);

#endif
