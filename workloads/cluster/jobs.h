/*
 * jobs.h - workloads of the cluster family: the model catalogue, cluster
 * shapes and the job-set generators (spec asrpt.md §8).
 *
 * Generators take every random draw from the stream they are given: the
 * same stream gives a bit-identical job set. Invalid parameters are a bug
 * of the caller (the harness checks user options first).
 */
#ifndef SB_JOBS_H
#define SB_JOBS_H

#include "cluster/cluster.h"
#include "rng.h"

/* ------------------------------------------------------------------ */
/* Model catalogue (catalog.c)                                         */
/* ------------------------------------------------------------------ */

struct sb_config {
	int d, t, p;
};

/* A catalogue entry: the model and the parallel configurations jobs of it
 * use (spec §8 table; configurations are ours [O]). */
struct sb_catalog_entry {
	struct sb_model model;
	int nconf;
	struct sb_config conf[16];
};

/* The catalogue: ResNet-50, VGG-16, BERT-base, BERT-large, GPT-2 medium,
 * large and XL, then the other CNNs of the Tiresias trace (AlexNet,
 * GoogLeNet, Inception-v3/v4, ResNet-101/152, VGG-11/19), which only run
 * data-parallel. Public model facts (parameters, forward FLOPs as
 * multiply-adds per sample at 224x224, as usually quoted). */
const struct sb_catalog_entry *sb_catalog(int *n);
/* Index of the named model (case-sensitive, e.g. "vgg16"), or -1. */
int sb_catalog_find(const char *name);
/* Copy the whole catalogue into js->model (js->nmodel = catalogue size),
 * so that job.model indices are catalogue indices. */
void sb_catalog_models(struct sb_jobset *js);

/* ------------------------------------------------------------------ */
/* Clusters                                                            */
/* ------------------------------------------------------------------ */

/*
 * Named cluster shapes (spec §2.1, §8): "testbed" 4 x 4 GPUs, PCIe 16 GB/s
 * inside, 10 GbE between servers; "sim128" 16 x 8 and "sim512" 64 x 8,
 * NVLink 300 GB/s inside, 100 Gb/s between; "pai6500" 1625 x 4 = 6,500
 * GPUs for the speed comparison with Alibaba's PAI simulator (shape ours);
 * "tiresias64" 16 x 4 GPUs, the shape of the Tiresias trace's
 * cluster_spec.csv, with the testbed's links (the file gives none).
 * All: 312 TFLOP/s per GPU at efficiency 0.35, restart overhead 30 s, phase
 * model. Returns 0 or SB_EXIT_INPUT for an unknown name.
 */
int sb_cluster_named(const char *name, struct sb_cluster *c, struct sb_err *err);

/* ------------------------------------------------------------------ */
/* W1: synthetic recurring job families (w1.c)                         */
/* ------------------------------------------------------------------ */

struct sb_w1_params {
	int njobs;           /* jobs (1,000 in the spec's simulations) */
	int nfamilies;       /* 50 */
	double family_share; /* share of jobs that belong to a family, 0.8 */
	int nusers;          /* 20 */
	double sigma;        /* log-normal noise of the iteration count, 0.2 */
	double load;         /* offered load: arrival rate x E[g p*] / N */
	double min_base;     /* family base counts ~ LogUniform[min, max] */
	double max_base;
	int max_gpus;        /* only configurations of at most this many GPUs
	                        (0: the cluster's size) */
};

void sb_w1_defaults(struct sb_w1_params *p);
/*
 * Generate W1 on cluster c (the load is relative to it; job sizes use the
 * reference placement of each job on c): families with a model, a
 * configuration, a user, a base count b_f, exponents alpha_f ~ U[0.3, 1]
 * and gamma_f ~ U[0, 0.5]; instance i of family f draws a batch multiplier
 * B and a learning-rate multiplier in {0.5, 1, 2} and a data fraction
 * phi ~ U[0.25, 1], and runs
 *     n = b_f * (1/B)^alpha_f * (1/lr)^gamma_f * phi * LogNormal(0, sigma)
 * iterations; one-off jobs draw their own b, alpha, gamma. Poisson
 * arrivals at the rate that gives the requested load. Owned by js.
 */
void sb_w1_generate(struct sb_jobset *js, const struct sb_w1_params *p,
		    const struct sb_cluster *c, struct sb_rng *r);

/* ------------------------------------------------------------------ */
/* A job set from CSV (jobcsv.c)                                       */
/* ------------------------------------------------------------------ */

/*
 * Columns named by a header, any order: arrival, model (catalogue name),
 * d, t, p, iters required; micro (4p), batch (the model's), family (-1),
 * user (0) optional. Sorted by arrival (ties in file order). Returns 0,
 * SB_EXIT_INPUT naming file, line and field, or SB_EXIT_RUN (memory).
 * Owned by js (sb_jobset_release).
 */
int sb_load_jobs_csv(const char *path, struct sb_jobset *js, struct sb_err *err);

/* ------------------------------------------------------------------ */
/* Job sets from traces (w23.c; trace loaders in trace.h)              */
/* ------------------------------------------------------------------ */

struct sb_trace;

/* How W3 sizes its jobs. */
enum sb_w3_sizes {
	SB_W3_DURATION = 0,   /* n_j = trace duration / tau_ref on c */
	SB_W3_ITERS = 1,      /* the trace's own iteration counts */
	SB_W3_REPLAY = 2,     /* for trace replay (c->replay): n_j = the
	                         duration in whole seconds (truncated, as
	                         Tiresias' simulator reads it), trace_runtime
	                         = n_j, so every iteration lasts one second */
};

/* W3 from Tiresias' 60-job trace: DP CNN jobs, batch 32 per GPU, sized as
 * `sizes` says (enum sb_w3_sizes). SB_EXIT_INPUT for a model that is not
 * a catalogue CNN or a missing count. Owned by js. */
int sb_w3_from_trace(const struct sb_trace *t, const struct sb_cluster *c, int sizes,
		     struct sb_jobset *js, struct sb_err *err);
/* W2 from Philly's jobs.json: nearest catalogue configuration, model drawn
 * (CNNs favoured up to 4 GPUs), sizes from runtimes, pseudo-families
 * (model, configuration, runtime decile); load > 0 rescales arrivals to
 * that offered load. Owned by js. */
int sb_w2_from_trace(const struct sb_trace *t, const struct sb_cluster *c, double load,
		     struct sb_rng *r, struct sb_jobset *js, struct sb_err *err);
/* The speed benchmark's Philly-scale job set (see w23.c). */
void sb_philly_scale(const double *runtimes, int nrt, const struct sb_trace *w2, int njobs,
		     const struct sb_cluster *c, double load, struct sb_rng *r,
		     struct sb_jobset *js);

/* The settings of the cluster speed account (speed.c; make bench and
 * experiment cluster_speed): the Philly-scale set on sim512 and the PAI
 * setting on pai6500, each with share `scale` of its jobs, from stream
 * (seed, 0) and (seed, 1); c and js are filled (js owned by the caller).
 * sb_speed_policies: the schedulers timed, NULL-terminated. */
#define SB_SPEED_PHILLY_JOBS 117325
#define SB_SPEED_PAI_JOBS 20000
#define SB_SPEED_TARGET_PHILLY 2.0   /* CPU seconds on one core, issue #11 */
#define SB_SPEED_TARGET_PAI 5.0
extern const char *const sb_speed_policies[];
void sb_speed_philly(const double *runtimes, int nrt, const struct sb_trace *w2, double scale,
		     uint64_t seed, struct sb_cluster *c, struct sb_jobset *js);
void sb_speed_pai(double scale, uint64_t seed, struct sb_cluster *c, struct sb_jobset *js);

/* Processing time of job j on its reference placement on c (n_j tau_ref):
 * p*_j of the spec. */
double sb_job_ref_time(const struct sb_cluster *c, const struct sb_jobset *js, int j);

#endif
