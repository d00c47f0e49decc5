/*
 * asrpt.h - the A-SRPT scheduler as reconstructed here, shared by its
 * registered variants (asrpt, asrpt-strict, asrpt-bf, asrpt-pre,
 * asrpt-oracle, asrpt-median).
 *
 * Z. Luo, J. Liu, M. Lee, N. B. Shroff, "Prediction-Assisted Online
 * Distributed Deep Learning Workload Scheduling in GPU Clusters", arXiv
 * 2501.05563, 2025 (IEEE INFOCOM 2025).
 *
 * Verified from the abstract [V]: a random forest predicts iteration counts
 * of recurring jobs; the multi-server problem is mapped to a single-machine
 * instance that preemptive SRPT solves optimally, and that solution guides
 * the cluster schedule; placement minimises inter-server communication.
 * Everything else - the features, the virtual machine's job sizes, the
 * three ways of driving the cluster, the adaptive correction, all
 * constants - is our reconstruction [R] (spec asrpt.md §3) and every
 * result must be labelled "A-SRPT as reconstructed here".
 *
 * Step A: predict n_j at arrival (random forest once the job's family has
 *         kmin completed runs and the forest is trained, else the median
 *         of completed jobs of the same model, else of all, else a prior);
 *         when a running job reaches its prediction, raise it to
 *         ceil((1 + gamma) done) and add the difference to its virtual work.
 * Step B: virtual work W_j = g_j n^_j tau_ref_j (reference placement on an
 *         empty cluster).
 * Step C: a virtual machine of speed N (GPUs) runs preemptive SRPT on W;
 *         C^V_j is j's virtual completion.
 * Step D: D0 (asrpt, asrpt-oracle, asrpt-median) - every arrived job is
 *         ranked by the virtual machine (virtually completed jobs first, by
 *         C^V, then the rest by virtual remaining work) and the ranking is
 *         dispatched with first-fit backfilling, non-preemptively;
 *         D1 (asrpt-strict) - a job joins a list at C^V_j; the list head
 *         starts when it fits (strict order); D1b (asrpt-bf) - the same
 *         with first-fit backfilling; D2 (asrpt-pre) - preemptive priority
 *         by virtual remaining work. Parameter dispatch overrides a
 *         variant's own choice. D0 and D2 keep the pending jobs in heaps
 *         in ranking order (their keys do not change while they wait);
 *         reference=1 ranks every arrived job at every call instead, the
 *         plain reading, and gives the same schedules (tests/cluster/
 *         test_asrpt_fast.c compares them exactly).
 * Step E: placement by the `kl` placer (kl.c).
 *
 * Family: cluster (core/cluster/).
 */
#ifndef SB_ASRPT_H
#define SB_ASRPT_H

#include "cluster/cluster.h"

enum sb_asrpt_dispatch { SB_ASRPT_D1 = 1, SB_ASRPT_D1B = 2, SB_ASRPT_D2 = 3, SB_ASRPT_D0 = 4 };
enum sb_asrpt_predict {
	SB_ASRPT_RF = 0,      /* random forest with the fallbacks of step A */
	SB_ASRPT_MEDIAN = 1,  /* the fallbacks only (no learned prediction) */
	SB_ASRPT_ORACLE = 2,  /* true counts, optionally with log-normal noise */
};

/* The forest of step A: the exact CART forest (the reference) or its
 * histogram speed variant [O] (rf.h, issue #11 item 7), used by the
 * `-hist` policies, which are labelled speed_variant_of their reference. */
enum sb_asrpt_forest { SB_ASRPT_EXACT = 0, SB_ASRPT_HIST = 1 };

struct sb_rf_params;
/* The forest parameters A-SRPT trains with: defaults, `trees` trees, no
 * out-of-bag predictions; SB_ASRPT_HIST adds the variant's bins and
 * bootstrap size (one definition, shared with experiment cluster_pred). */
void sb_asrpt_forest_params(struct sb_rf_params *par, int forest, int trees);

/* Predictor features (step A [R]): what is known of a job at its arrival,
 * with its family's history of completed runs. */
#define SB_ASRPT_NFEAT 14

struct sb_asrpt_fam {
	int count;            /* completed runs of the family */
	double sum_log;       /* sum of their ln(iterations) */
	double last_log;      /* ln(iterations) of the latest */
	double last_time;     /* when the latest completed */
};

/* x[0..SB_ASRPT_NFEAT): ln params, model class, ln batch, ln lr + 1, data
 * fraction, g, d, t, p, user, family mean ln n, family last ln n, family
 * count, ln(1 + seconds since the family's last completion); missing
 * history is -1 (every real value is >= 0). fam may be NULL (one-off). */
void sb_asrpt_features(const struct sb_job *job, const struct sb_model *m,
		       const struct sb_asrpt_fam *fam, double now, double *x);

/* The parameters every variant accepts (a {NULL}-ended table). */
extern const struct sb_param sb_asrpt_params[];

/* Hooks shared by the variants: init takes the variant's dispatch and
 * predictor from its own params (sb_asrpt_params plus "dispatch" and
 * "predict" defaults fixed by each file). */
void *sb_asrpt_init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng,
		    int dispatch, int predict);
/* The same with the forest chosen (sb_asrpt_init: SB_ASRPT_EXACT). */
void *sb_asrpt_init_forest(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng,
			   int dispatch, int predict, int forest);
void sb_asrpt_release(void *ctx);
void sb_asrpt_on_arrival(void *ctx, struct sb_csim *s, int j);
void sb_asrpt_on_finish(void *ctx, struct sb_csim *s, int j);
void sb_asrpt_schedule(void *ctx, struct sb_csim *s);

/* The fields every variant's registration shares. */
#define SB_ASRPT_COMMON \
	.cite = "Luo, Liu, Lee, Shroff, Prediction-Assisted Online Distributed DL " \
		"Workload Scheduling in GPU Clusters, arXiv 2501.05563 (INFOCOM 2025)", \
	.provenance = "reconstructed", \
	.params = sb_asrpt_params, \
	.release = sb_asrpt_release, \
	.on_arrival = sb_asrpt_on_arrival, \
	.on_finish = sb_asrpt_on_finish, \
	.schedule = sb_asrpt_schedule, \
	.default_place = "kl"

#endif
