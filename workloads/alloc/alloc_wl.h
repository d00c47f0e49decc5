/*
 * alloc_wl.h - inputs of the alloc family: the DL2 job-type table and
 * Google-trace arrival patterns (../shared/data/dl2/, SOURCES.md §8), job
 * tables and cluster files a user brings, and the generators that build
 * instances from them (or from their synthetic fallbacks).
 *
 * Loaders follow workloads/cluster/trace.h: they return 0, SB_EXIT_INPUT
 * (a message naming file, line and field) or SB_EXIT_RUN (out of memory);
 * CSV headers must name exactly the expected columns in order; blank
 * lines are skipped; CRLF and a missing final newline are accepted; on
 * failure nothing is left to free.
 */
#ifndef SB_ALLOC_WL_H
#define SB_ALLOC_WL_H

#include "alloc/alloc.h"
#include "rng.h"
#include "workloads/cluster/trace.h"

#define SB_ALLOC_MAXTYPE 32

/* One DL2 job type (trace.py, Trace.__init__) [V]. */
struct sb_alloc_type {
	char model[32];
	double compute;       /* local_comp_time_s: s per step */
	double model_mb;
	double epoch_size;    /* steps per epoch */
	double bw_inter, bw_intra;  /* MB/s */
	double worker_cpu, worker_gpu, ps_cpu, ps_gpu;  /* DL2 slots (1 GPU = 4) */
	double epoch_frac;    /* epochs = frac x MAX_NUM_EPOCHS */
};

struct sb_alloc_types {
	int n;
	struct sb_alloc_type t[SB_ALLOC_MAXTYPE];
	char source[300];     /* "builtin" or "file=<path>" */
};

/* The 8 DL2 types as transcribed in dl2_job_types.csv (the fallback when
 * the file is absent; same numbers). */
void sb_alloc_types_builtin(struct sb_alloc_types *ty);
/* dl2_job_types.csv: header type_id,model,local_comp_time_s,model_size_mb,
 * epoch_size,inter_bw_mb_per_s,intra_bw_mb_per_s,worker_cpu,worker_gpu,
 * ps_cpu,ps_gpu,num_epochs_fraction; 1..32 rows; ids 1..n in order; names
 * unique, 1..31 characters; times, sizes and bandwidths > 0; demands >= 0
 * with worker_cpu + worker_gpu > 0; fraction in (0, 1]. */
int sb_alloc_load_types(const char *path, struct sb_alloc_types *ty, struct sb_err *err);
/* Index of model in ty, or -1. */
int sb_alloc_type_find(const struct sb_alloc_types *ty, const char *model);

/* dl2_arrival_patterns.csv: header max_arrivals_per_ts,timeslot,num_arrivals;
 * integers >= 0 (K >= 1); per K the slots run 0, 1, 2, ... without gaps.
 * *counts (from sb_malloc, *n entries) gets pattern K's raw counts capped
 * at K, as DL2 does. A K the file does not hold is an error naming the
 * ones it does. */
int sb_alloc_load_arrivals(const char *path, int K, int **counts, int *n, struct sb_err *err);

/* A job table a user brings: header arrival,mode,model,epochs,max_workers,
 * max_ps,weight; arrival an integer slot >= 0; mode "rar" or "ps"; model a
 * type of ty; epochs > 0; max_workers 1..64; max_ps 0 for rar, 1..64 for
 * ps; weight > 0. At least one row. */
struct sb_alloc_jobrow {
	int arrival, mode, type, max_workers, max_ps;
	double epochs, weight;
};
int sb_alloc_load_jobs(const char *path, const struct sb_alloc_types *ty,
		       struct sb_alloc_jobrow **rows, int *n, struct sb_err *err);

/* A cluster file: header count,gpus,cpus; rows of identical servers
 * (count 1..100000, gpus and cpus integers 0..1e6, not both 0), at most
 * 100000 servers in all; or a Tiresias cluster file (nXgY.csv header),
 * read by sb_load_tiresias_cluster. *cap (sb_malloc) has *ns rows. */
int sb_alloc_load_cluster(const char *path, double (**cap)[SB_ALLOC_NRES], int *ns,
			  struct sb_err *err);

/* ------------------------------------------------------------------ */
/* Instances                                                           */
/* ------------------------------------------------------------------ */

/* How an instance is built (ours [O], defaults in gadget.md §5, smd.md
 * §5, pslocality.md §5). */
struct sb_alloc_genp {
	int mode;             /* enum sb_alloc_mode of every job */
	int njob;
	int nserver, gpus, cpus;  /* identical servers (when no cluster file) */
	int nslot;            /* horizon */
	double slot_s;
	int util;
	double eta, eps;
	double epochs_max;    /* DL2 MAX_NUM_EPOCHS (30000; 1000 for its testbed) */
	int kmax, pmax;       /* worker and PS caps */
	double bw_in, bw_out; /* MB/s for RAR jobs; <= 0: the type's */
	double poisson;       /* mean arrivals per slot when no pattern is given */
	int layered;          /* PS jobs: WFBP overlap */
	int nlayer;           /* synthetic layers per PS job (no tensor table) */
	double small_slots;   /* sb_alloc_gen_small: slots a job needs on 4
	                         spread workers (0: half the horizon) */
};
void sb_alloc_genp_defaults(struct sb_alloc_genp *g, int mode);

/*
 * Build jobs into in: types drawn uniformly from ty; arrivals from the
 * per-slot counts pattern[0..npat) (cycled) or, when npat = 0, Poisson;
 * epochs fraction x epochs_max x Weibull(shape 2, mean 1), at least 1;
 * layers from tensors (Tiresias names: DL2 "resnet-50" is "resnet50",
 * "vgg-16" is "vgg16") or log-uniform synthetic sizes summing to the
 * model size. cap NULL: g's identical servers.
 */
void sb_alloc_gen(struct sb_alloc_inst *in, const struct sb_alloc_genp *g,
		  const struct sb_alloc_types *ty, const int *pattern, int npat,
		  const struct sb_tensor_table *tensors, struct sb_rng *r);
/* As sb_alloc_gen, with each job's arrival slot and requested workers
 * taken from trace jobs (submit / slot_s; GPUs capped at kmax), the
 * first g->njob of them. */
void sb_alloc_gen_trace(struct sb_alloc_inst *in, const struct sb_alloc_genp *g,
			const struct sb_alloc_types *ty, const struct sb_trace *tr,
			const struct sb_tensor_table *tensors, struct sb_rng *r);
/* The Tiresias tensor-table name of a DL2 model ("resnet-50" ->
 * "resnet50", "vgg-16" -> "vgg16"), or NULL when Tiresias has none. */
const char *sb_alloc_tiresias_name(const char *dl2);
/* One job of every type of ty in type order, all arriving at slot 0 (the
 * per-model figures: step-time models, speed fits). */
void sb_alloc_gen_each_type(struct sb_alloc_inst *in, const struct sb_alloc_genp *g,
			    const struct sb_alloc_types *ty, const struct sb_tensor_table *tensors,
			    struct sb_rng *r);
/* From a user's job table and cluster. */
void sb_alloc_build(struct sb_alloc_inst *in, const struct sb_alloc_genp *g,
		    const struct sb_alloc_types *ty, const struct sb_alloc_jobrow *rows, int n,
		    double (*cap)[SB_ALLOC_NRES], int ns, const struct sb_tensor_table *tensors,
		    struct sb_rng *r);
/* Small instances for the exact optima (gadget.md §8 generator): arrivals
 * in the first quarter of the horizon; each job's target shrunk so it
 * finishes in about small_slots (default T/2) slots on 4 workers spread
 * over servers (x U(0.5, 1.5)): with the default, every job alone can
 * finish in the horizon. */
void sb_alloc_gen_small(struct sb_alloc_inst *in, const struct sb_alloc_genp *g,
			const struct sb_alloc_types *ty, struct sb_rng *r);

/* ------------------------------------------------------------------ */
/* DL2's measured PS training speeds (config_speed.txt, speed.c)       */
/* ------------------------------------------------------------------ */

/* One measurement: model, total batch, PSs and workers, and the sums DL2
 * uses (job speed = sum of the workers' speeds, steps per second). */
struct sb_alloc_speed_row {
	int model;            /* index into sb_alloc_speeds.model */
	int ps, workers;      /* 1..SB_ALLOC_MAXK */
	double batch;         /* tot_batch_size */
	double speed;         /* sum of the per-worker speeds, >= 0 (0: the
	                         run made no progress; no step time) */
	double ps_cpu, worker_cpu;  /* sums of the CPU usages */
};
struct sb_alloc_speeds {
	int nmodel;
	char model[SB_ALLOC_MAXTYPE][32];
	char sync[SB_ALLOC_MAXTYPE][32];  /* sync_mode per model */
	int n;
	struct sb_alloc_speed_row *row;   /* owned (sb_malloc) */
	char source[300];     /* "file=<path>" */
};
/* config_speed.txt: one Python tuple literal per line (blank lines
 * skipped), (model, sync_mode, tot_batch_size, num_ps, num_worker,
 * [speeds], [ps_cpu_usages], [worker_cpu_usages]); strings quoted, 1..31
 * characters, one sync_mode per model; batch 1..1e6; num_ps and
 * num_worker 1..SB_ALLOC_MAXK; the lists have num_worker, num_ps and
 * num_worker entries; speeds and usages >= 0; at most 32 models and one
 * row per (model, num_ps, num_worker). Errors name file, line and field;
 * on failure nothing is left to free. */
int sb_alloc_load_speeds(const char *path, struct sb_alloc_speeds *sp, struct sb_err *err);
void sb_alloc_speeds_release(struct sb_alloc_speeds *sp);
/* Index of model, or -1; the row of (model, ps, workers), or NULL. */
int sb_alloc_speeds_model(const struct sb_alloc_speeds *sp, const char *model);
const struct sb_alloc_speed_row *sb_alloc_speeds_find(const struct sb_alloc_speeds *sp,
						      int model, int ps, int workers);
/* The Optimus form of the step time (smd.md §4, [M]/[R]):
 * tau = t0 batch / w + t1 + t2 w / p + t3 w + t4 p, t >= 0, fitted by exact
 * non-negative least squares to the measured step times w / speed of one
 * model (rows of speed 0 skipped); *rms = root mean squared error (s).
 * -1 if the model has no row with a speed. */
#define SB_ALLOC_FIT_N 5
int sb_alloc_speed_fit(const struct sb_alloc_speeds *sp, int model,
		       double theta[SB_ALLOC_FIT_N], double *rms);
double sb_alloc_speed_fit_tau(const double theta[SB_ALLOC_FIT_N], double batch, int ps, int w);

#endif
