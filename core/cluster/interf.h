/*
 * interf.h - the topology-and-interference mode of the cluster family
 * (spec marl.md §2, §3.8; Zhao & Wu, "Large-scale Machine Learning Cluster
 * Scheduling via Multi-agent Graph Reinforcement Learning", IEEE TNSM
 * 2022). Verified [V, abstract]: co-located training jobs interfere, and a
 * learned interference model predicts slowdowns. Everything concrete here
 * is [O], our design: the ground truth below stands in for the testbed
 * measurements we do not have.
 *
 * A cluster with c->interf != NULL runs in this mode (cluster.h): jobs are
 * ring-all-reduce data-parallel with w_j workers of DL2 model type m_j
 * (job.model indexes both js->model and interf->type), and
 *
 *   tau_j = t_comp(m_j) * S_j + 2 (w_j - 1) / w_j * size(m_j) / BW_j
 *   S_j   = 1 + sum over co-located k of max(0, gamma * lambda(level(j, k))
 *               * <r_{m_j}, r_{m_k}> / 3 + eps_{jk})
 *
 * level(j, k): the closest two of their GPUs get (same PCIe switch, same
 * socket, same server); jobs on no common server do not interfere. BW_j is
 * the bandwidth of the job's spread level (topo.h), divided by the number
 * of cross-rack jobs sharing its busiest ToR uplink when it crosses racks.
 * eps_{jk} ~ U(-eps, eps) is drawn from a stream keyed by the unordered
 * pair {j, k}, so it is deterministic and symmetric; a job alone has S = 1.
 * Each pairwise term is clipped at 0 so that S >= 1 always (co-location
 * never speeds a job up, which the LP bound relies on).
 *
 * Speeds change whenever a neighbour starts or stops: the simulator
 * integrates progress piecewise and records the pieces; the checker
 * recomputes every piece's tau from the co-location state it implies.
 */
#ifndef SB_CLUSTER_INTERF_H
#define SB_CLUSTER_INTERF_H

#include <stdint.h>

#include "cluster/topo.h"
#include "sb.h"

#define SB_INTERF_MAXTYPE 16
#define SB_INTERF_NRES 3          /* PCIe, host CPU/memory bandwidth, NIC */

struct sb_interf_type {
	char name[32];
	double t_comp;            /* s per iteration, isolated [V, DL2 trace.py] */
	double size_mb;           /* model size, MB [V, DL2 trace.py] */
	double r[SB_INTERF_NRES]; /* intensity vector in [0, 1]^3 [O, seeded] */
};

struct sb_interf_pred;

struct sb_interf {
	const struct sb_cluster_tree *topo;   /* not owned */
	int ntype;
	struct sb_interf_type type[SB_INTERF_MAXTYPE];
	double lambda[3];         /* same switch, same socket, same server */
	double gamma;
	double eps;               /* half-width of the pair noise */
	uint64_t noise_seed;      /* eps_{jk} stream */
	int on;                   /* 0: S = 1 always (interference off) */
	int tor_share;            /* 1: cross-rack jobs split ToR uplinks */
	int migrate;              /* 1: preemption (and so migration) allowed,
	                             for the preemptive Tiresias; 0: the checker
	                             rejects a job run in two pieces */
	/* the learned predictor S^ (interference-aware placers), or NULL */
	const struct sb_interf_pred *pred;
	/* 1: S comes from pred instead of the ground truth, for the learned
	 * scheduler's training episodes (spec §3.7: rewards from S^); the
	 * simulator and the checker then both use S^. 0 for every evaluation */
	int use_pred;
	char source[300];         /* where the type table came from */
};

/* Seed of the intensity vectors (fixed: they are part of the model). */
#define SB_INTERF_INTENSITY_SEED 0x15a7e1ULL

/*
 * Defaults of spec §2: lambda = 1.5, 1.0, 0.6; gamma = 0.6; eps = 0.03;
 * on; ToR sharing on; no migration; the DL2 types ty[0..n) (name, t_comp,
 * size) with intensity vectors drawn U[0,1]^3 from SB_INTERF_INTENSITY_SEED
 * (type by type, in table order), noise_seed for the pair noise. The DL2
 * table itself is read in workloads/cluster/marl.h (sb_marl_types).
 */
void sb_interf_init(struct sb_interf *m, const struct sb_cluster_tree *t, int n,
		    const char *const *names, const double *t_comp, const double *size_mb,
		    uint64_t noise_seed);
/* One job of a co-location state: its id (the eps key), type, workers and
 * GPUs (not owned). */
struct sb_interf_job {
	int id;
	int type;
	int w;
	const int *gpus;
};

/*
 * Slowdown S and iteration time tau of every job of a co-location state
 * (jobs[0..n) hold distinct GPUs); S or tau may be NULL. Cost O(n w G).
 */
void sb_interf_eval(const struct sb_interf *m, const struct sb_interf_job *jobs, int n,
		    double *S, double *tau);
/* The pairwise term of j and k placed as given (0 when they share no
 * server or interference is off); symmetric in (j, k). */
double sb_interf_pair(const struct sb_interf *m, const struct sb_interf_job *j,
		      const struct sb_interf_job *k);
/* The lambda index of GPUs x and y: 0 same PCIe switch, 1 same socket,
 * 2 same server, -1 on different servers (no interference). */
int sb_interf_level(const struct sb_cluster_tree *t, int x, int y);
/* eps_{jk}: the pair noise, symmetric, in [-eps, eps). */
double sb_interf_noise(const struct sb_interf *m, int j, int k);
/* Isolated iteration time of a job of type `type` and w workers at its
 * best locality on an empty cluster: no placement is faster. */
double sb_interf_tau_iso(const struct sb_interf *m, int type, int w);
/* Iteration time of a job alone at spread level l (no ToR sharing). */
double sb_interf_tau_alone(const struct sb_interf *m, int type, int w, int spread);

/* ------------------------------------------------------------------ */
/* The learned predictor S^ (spec §3.8, interf_pred.c)                 */
/* ------------------------------------------------------------------ */

/* Features of job j in a co-location state: type one-hot (8 slots; types
 * beyond 8 share none), w_j / 8, spread level one-hot (levels 1..6), the
 * summed intensity vectors of its co-runners at switch, socket and server
 * level (3 x 3), and the co-runner counts per level / 4 (3). */
#define SB_INTERF_NFEAT 27
void sb_interf_features(const struct sb_interf *m, const struct sb_interf_job *jobs, int n,
			int j, double *feat);

struct sb_interf_pred_params {
	int nsamples;             /* co-location states sampled, 5,000 */
	int nheld;                /* of which held out, 1,000 */
	int epochs;               /* 60 */
	int batch;                /* 64 */
	double lr;                /* Adam, 1e-3 */
	uint64_t seed;
};
void sb_interf_pred_defaults(struct sb_interf_pred_params *p);

/*
 * Train S^ (27 -> 64 -> 32 -> 1, ReLU, predicting log S, MSE) on states
 * sampled from m's ground truth on its topology: 2..10 jobs of random
 * types and worker counts at random feasible anchors (the fill rule of
 * topo.h), the target job drawn among them. Deterministic for p->seed.
 * Returns the predictor (owned by the caller, sb_interf_pred_free) and
 * its held-out MAPE in *mape (percent) and train MAPE in *train_mape.
 */
struct sb_interf_pred *sb_interf_pred_train(const struct sb_interf *m,
					    const struct sb_interf_pred_params *p,
					    double *mape, double *train_mape);
void sb_interf_pred_free(struct sb_interf_pred *pr);
/* S^ of job j in the state (>= 1: the prediction is clipped at 1). */
double sb_interf_pred_S(const struct sb_interf_pred *pr, const struct sb_interf *m,
			const struct sb_interf_job *jobs, int n, int j);
/* The held-out set: true and predicted S of each held-out state (arrays
 * of *n values owned by pr) for the F7 scatter. */
void sb_interf_pred_heldout(const struct sb_interf_pred *pr, const double **truth,
			    const double **pred, int *n);
/* The weights (for the HDF5 results): *n doubles owned by pr, and the
 * layer sizes (4 values: 27, 64, 32, 1). */
const double *sb_interf_pred_weights(const struct sb_interf_pred *pr, size_t *n);

#endif
