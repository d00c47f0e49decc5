/*
 * train.h - the adversarially learned online pricing of advlearn.md §3:
 * a price network and an adversary network in a zero-sum game on
 * OPT / E[ALG], alternating updates, a hall of fame of hard instances, and
 * a best-response adversary trained periodically against the frozen price
 * policy (exploitability, the Nash-gap diagnostic).
 *
 * Du, Huang, Wu, "Adversarial Deep Learning for Online Resource
 * Allocation", ACM TOMPECS 2021. Verified [V, abstract]: the two networks,
 * the zero-sum game on the competitive ratio, a per-round update that
 * updates every action of every round. Reconstructed [O]: the problem
 * (posted-price online knapsack, K = 1), the networks, the payoff, the
 * training loop, the hall of fame and every number here.
 *
 * Family: online (core/online/).
 */
#ifndef SB_ADVLEARN_TRAIN_H
#define SB_ADVLEARN_TRAIN_H

#include "online/online.h"

enum sb_advlearn_update {
	SB_ADVLEARN_PERROUND = 0,   /* exact gradient of OPT / E[ALG] by the per-round DP */
	SB_ADVLEARN_REINFORCE = 1,  /* ablation: score function on sampled actions */
};
enum sb_advlearn_inputs {
	SB_ADVLEARN_ADVERSARY = 0,  /* the adversary network plus the hall of fame */
	SB_ADVLEARN_RANDOM = 1,     /* ablation: i.i.d. log-uniform random instances */
};

struct sb_advlearn_cfg {
	int update, inputs;
	int iters;        /* alternating iterations */
	int batch;        /* instances per iteration */
	int steps;        /* Adam steps of the price network per iteration */
	int hall;         /* hall-of-fame size */
	double hall_frac; /* share of a batch drawn from the hall of fame */
	int br_every;     /* iterations between best-response measurements (0: none) */
	int br_steps;     /* REINFORCE steps of a fresh best-response adversary */
	double lr, adv_lr, entropy;
	/* 1: pin the staircases into the hall of fame at the start (the
	 * adversary network never proposes them); 1: at every best-response
	 * measurement re-score the hall and offer it the best response's worst
	 * instance. Both on by default; 0 reproduces the first version. */
	int seed_hall, br_feedback;
	uint64_t seed, point;   /* the RNG streams: sb_rng_stream(seed, point, ., .) */
};
/* advlearn.md §3's defaults (3,000 iterations, B = 64, 5 Adam steps). */
void sb_advlearn_defaults(struct sb_advlearn_cfg *cfg);

/* One row of the training log, at every best-response measurement. */
struct sb_advlearn_log {
	int iter;
	double game;     /* mean OPT/E[ALG] of the policy on the training adversary's batch */
	double br;       /* mean OPT/E[ALG] of the best response's last batch */
	double br_max;   /* worst OPT/E[ALG] the best response found */
	double zcl;      /* mean OPT/E[ALG] of ZCL on the training adversary's batch */
};

struct sb_advlearn_out {
	double *prob;                   /* trained table, sb_online_ptable layout; owned */
	int nlog;
	struct sb_advlearn_log *log;    /* owned */
	int nhall;
	struct sb_online_inst *hall;    /* the hall of fame at the end; owned */
	double *hall_ratio;             /* their ratios under the final policy */
};
void sb_advlearn_out_release(struct sb_advlearn_out *out);

/* Train on game g (every random draw from cfg's streams; single-threaded,
 * so the table is bit-identical for a seed). Returns 0 or an exit code. */
int sb_advlearn_train(const struct sb_online_game *g, const struct sb_advlearn_cfg *cfg,
		      struct sb_advlearn_out *out, struct sb_err *err);

/* OPT / E[ALG] of a policy on one instance, for the best response. */
typedef double (*sb_advlearn_ratio_fn)(void *ctx, const struct sb_online_game *g,
				       const struct sb_online_inst *in, double opt);
/* The ratio of a table policy (prob in the sb_online_ptable layout). */
double sb_advlearn_table_ratio(void *prob, const struct sb_online_game *g,
			       const struct sb_online_inst *in, double opt);
/* The ratio of a registered policy (ctx: a struct sb_advlearn_pol whose p
 * and o are set and rc is 0): tabulates it and runs the exact DP. The first
 * error sticks in rc/err and later calls return 0, so the caller checks rc
 * once after the search. */
struct sb_advlearn_pol {
	const struct sb_online_policy *p;
	struct sb_opts o;
	int rc;
	struct sb_err err;
};
double sb_advlearn_policy_ratio(void *ctx, const struct sb_online_game *g,
				const struct sb_online_inst *in, double opt);
/* The per-round update's gradient: adds d(OPT/E[ALG])/dpi(m | t, c, d) of
 * table prob on `in` to G (same layout) and returns OPT/E[ALG]. */
double sb_advlearn_grad(const struct sb_online_game *g, const double *prob,
			const struct sb_online_inst *in, double opt, double *G);
/* Train a fresh adversary for `steps` REINFORCE steps of `batch` instances
 * against a fixed policy; *last gets the mean ratio of its last batch and
 * worst (if not NULL, allocated by the caller) the worst instance found.
 * Returns the worst ratio found. */
double sb_advlearn_best_response(const struct sb_online_game *g, sb_advlearn_ratio_fn ratio,
				 void *ctx, int steps, int batch, double lr, double entropy,
				 uint64_t seed, uint64_t point, uint64_t rep, double *last,
				 struct sb_online_inst *worst);

#endif
