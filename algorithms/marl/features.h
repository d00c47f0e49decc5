/*
 * features.h - what the marl placer's networks read, from plain values
 * any cluster simulator has: the 16 features of a GPU (marl.md §3.2), the
 * 14 of a job (§3.4), the critic's 18 (§3.5), and the shared reward
 * r_e = -(jobs in system) dt / T_norm between decision epochs (§3.6).
 * Keeping them here means the simulator adapter fills numbers and the
 * encoding lives in one place for training, evaluation and the ablations.
 *
 * Reconstructed [O]: marl.md §3.2-3.7; the scaling constants are ours.
 *
 * Family: cluster (core/cluster/).
 */
#ifndef SB_MARL_FEATURES_H
#define SB_MARL_FEATURES_H

#include "algorithms/marl/net.h"
#include "workloads/cluster/marl.h"  /* SB_MARL_NTYPE, the DL2 model types */


/* Where training rewards come from (marl.md §3.7 and the ablations of
 * §4.7): the learned interference predictor S^ (the paper's setting), the
 * ground truth S (upper reference) or none (S = 1, interference-blind).
 * Evaluation always runs on the ground truth. */
enum sb_marl_reward_src { SB_MARL_REWARD_PREDICTED = 0, SB_MARL_REWARD_TRUE = 1,
			  SB_MARL_REWARD_NONE = 2 };
const char *sb_marl_reward_src_name(enum sb_marl_reward_src s);

/* One job as the networks see it. */
struct sb_marl_jobview {
	int type;               /* 0 .. SB_MARL_NTYPE - 1 */
	int workers;            /* 1, 2, 4, 8 */
	double remaining_s;     /* isolated remaining time */
	double waiting_s;       /* time since arrival */
	double intensity[3];    /* PCIe, host, NIC, each in [0, 1] */
	double progress;        /* fraction done, in [0, 1] (running jobs) */
};

/* T_norm: seconds that scale times into features and rewards (1 h). */
#define SB_MARL_TNORM 3600.0

/* out[SB_MARL_GF] of a GPU: busy flag, type one-hot, progress, intensity,
 * workers / 8, two zeros of padding; an idle GPU (job NULL) is all zero. */
void sb_marl_gpu_features(const struct sb_marl_jobview *job, double *out);
/* out[SB_MARL_JF]: type one-hot, workers / 8, remaining and waiting time
 * as log1p(t / T_norm) (heavy-tailed durations), intensity. */
void sb_marl_job_features(const struct sb_marl_jobview *job, double *out);
/* out[SB_MARL_CF] of the centralised critic: the mean job features of the
 * n queued jobs (all agents' queues) and each agent's queue length / 16;
 * for an independent critic, the caller passes only its own queue and
 * qlen with its own entry. */
void sb_marl_critic_features(const struct sb_marl_jobview *queued, int n, const int *qlen,
			     int nagents, double *out);

#endif
