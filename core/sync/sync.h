/*
 * sync.h - the sync family: parameter-server training with heterogeneous
 * workers, simulated on a virtual clock while running real SGD.
 *
 * Model [O, the small-scale reproduction of papers/adsp.md §7; the
 * protocols it hosts are [V, code] from the ADSP authors' repository]:
 * M workers each hold a local copy W_i of a small net (core/nn.h: softmax
 * regression 64-10 or an MLP 64-64-10) and W_i^sync, the global model they
 * last pulled. A worker runs mini-batch SGD steps on its own data shard; a
 * step's virtual duration is (batch / 32) / v_i times a clamped log-normal
 * jitter, whatever the host's speed. After every step the policy says
 * whether the worker commits: it pushes Delta_i = W_i - W_i^sync, the PS
 * applies W += Delta_i / M at once, the worker then waits at the gate
 * until commits_i - min_j commits_j < s (the staleness bound s in commits
 * set by the policy: 1 = barrier (BSP, ADACOMM), 40 = SSP, infinite = ASP
 * and ADSP), pulls W (W_i = W_i^sync = W) and spends the communication
 * cost o_i = 2 (latency + bytes * mult / bw_i) + delay before its next
 * step. Charging the whole round trip after the gate is our
 * simplification [O]; it keeps "blocked" time pure waiting.
 *
 * The PS evaluates the global model every Γ/2 on fixed test batches and
 * calls the policy's on_eval hook (ADSP's curve fit needs the half-period
 * point); the convergence rule of the authors' scripts uses the
 * evaluations at multiples of Γ only: convergence time = time of the
 * evaluation at which the count of evaluations with loss < target reaches
 * `conv_count` (10).
 *
 * Every run logs a trace (steps, pushes, gate releases with the bound in
 * force, pulls) that sb_sync_check verifies independently of the
 * simulator: the gate rule, that nobody waits longer than the rule
 * requires, durations, and the blocked/compute/comm totals.
 */
#ifndef SB_SYNC_H
#define SB_SYNC_H

#include <stddef.h>
#include <stdio.h>

#include "nn.h"
#include "opts.h"
#include "registry.h"
#include "rng.h"
#include "sb.h"

#define SB_SYNC_INF 1000000000L   /* staleness bound meaning "never wait" */

/* A labelled data set, rows x d features (owned; sb_sync_data_release). */
struct sb_sync_data {
	int n, d, k;         /* rows, features, classes */
	double *x;           /* n * d */
	int *y;              /* n labels in [0, k) */
};
void sb_sync_data_release(struct sb_sync_data *s);
/* The seeded Gaussian mixture of adsp.md §7: k classes, class means
 * N(0, sep^2 I), noise N(0, 1). */
void sb_sync_gmm(struct sb_sync_data *s, int n, int d, int k, double sep, struct sb_rng *r);
/* The scikit-learn digits CSV (64 pixel columns then the label; an optional
 * header line). A gzip-compressed file (as scikit-learn ships it) is refused
 * with a message to decompress it first. Bad rows return SB_EXIT_INPUT
 * naming file, line and field. Features are scaled by 1/16. */
int sb_sync_digits_load(struct sb_sync_data *s, const char *path, struct sb_err *err);
/* Split s into train (first n - ntest rows after a seeded shuffle) and test. */
void sb_sync_split(const struct sb_sync_data *s, int ntest, struct sb_rng *r,
		   struct sb_sync_data *train, struct sb_sync_data *test);

enum sb_sync_model { SB_SYNC_SOFTMAX = 0, SB_SYNC_MLP = 1 };

/* One simulated system + training job. Arrays owned (sb_sync_inst_release). */
struct sb_sync_inst {
	int m;               /* workers */
	double *v;           /* speed, steps/s at batch 32, > 0 */
	double *bw;          /* bandwidth, Mb/s, > 0 */
	double jitter;       /* sigma of the log-normal step jitter (clamped at 3 sigma) */
	double latency;      /* s per message */
	double bytes_mult;   /* communication inflation (adsp.md §7: x30) */
	double delay;        /* injected delay per commit round trip, s */
	enum sb_sync_model model;
	int hidden;          /* MLP width */
	double lr;
	int batch;           /* default mini-batch */
	double period;       /* check period Γ, s */
	double horizon;      /* simulated seconds */
	double target;       /* loss threshold of the convergence rule */
	int conv_count;      /* evaluations below target needed (10) */
	int stop_at_conv;    /* end the run at convergence */
	int eval_batches, eval_batch;  /* evaluation: 10 test batches of 128 */
	const struct sb_sync_data *train, *test;   /* borrowed */
	uint64_t seed;       /* model init, batches and jitter streams */
	uint64_t point;
	double ps_momentum;  /* explicit PS momentum mu in [0, 1): v = mu v +
	                        Delta_i / M, W += v [V, code: strain.py's
	                        optional path, off by default]; 0 = W += Delta_i / M */
	int log_updates;     /* 1: the result keeps every update the PS applied
	                        (the conservation check; memory grows with
	                        commits x parameters, so tests only) */
};
void sb_sync_inst_release(struct sb_sync_inst *in);
/* Defaults of adsp.md §7 for m workers (speeds and bandwidths unset). */
void sb_sync_inst_defaults(struct sb_sync_inst *in, int m);
/* The EC2 mix (1.0 x7, 1.8 x5, 3.0 x4, 1.8 x2; every (18/m)-th entry for
 * m < 18, repeated for m > 18)
 * stretched so that H = mean v / min v, slowest step `slow` seconds;
 * bandwidths uniform in [5, 50] Mb/s from r. Returns SB_EXIT_INPUT if
 * H < 1, slow <= 0 or m < 1. */
int sb_sync_speeds(struct sb_sync_inst *in, double h, double slow, struct sb_rng *r,
		   struct sb_err *err);
/* SB_EXIT_INPUT naming the field when a value is out of range. */
int sb_sync_inst_validate(const struct sb_sync_inst *in, struct sb_err *err);
/* Communication round-trip cost o_i of worker i, s. */
double sb_sync_comm(const struct sb_sync_inst *in, size_t nparams, int i);
/* Wait-free bound: no system of these workers does n steps before
 * n / sum_i (v_i e^{3 jitter}) seconds (adsp.md §10). */
double sb_sync_bound(const struct sb_sync_inst *in, long n);

/* Data and instance together (workloads/sync/data.c). */
struct sb_sync_world_cfg {
	const char *digits;  /* digits CSV, or NULL for the Gaussian mixture */
	double sep;          /* mixture: class-mean spread */
	int m;
	double h, slow, lr;
	enum sb_sync_model model;
	uint64_t seed, point;
};
struct sb_sync_world {
	struct sb_sync_data all, train, test;
	struct sb_sync_inst in;  /* points at train and test */
	char source[96];         /* "real: ..." or "synthetic: ..." */
};
/* Build the data and the instance (defaults of adsp.md §7, speeds for H).
 * Bad values or a bad digits file: SB_EXIT_INPUT with err. The world must
 * not move after this (the instance points into it). */
int sb_sync_world_make(struct sb_sync_world *w, const struct sb_sync_world_cfg *cfg,
		       struct sb_err *err);
void sb_sync_world_release(struct sb_sync_world *w);

/* Test loss of a single node after `epochs` passes of SGD from the same
 * initial model: the convergence threshold is 1.05 times it (adsp.md §7). */
double sb_sync_reference_loss(const struct sb_sync_inst *in, double epochs);

/* ---- the simulator's state a policy may read ---- */
struct sb_sync_sim {
	const struct sb_sync_inst *in;
	double now;
	long *steps;         /* local steps done by worker i */
	long *since;         /* steps since its last commit */
	double *last_commit; /* time of its last pull (start: 0) */
	double *o;           /* its communication cost o_i */
	long *commits;
	size_t nparams;
};

/* What a policy may change at an evaluation (and in init). */
struct sb_sync_ctl {
	long bound;          /* staleness bound s in commits (SB_SYNC_INF: none) */
	int snapshot;        /* 1: save the PS model now */
	int restore;         /* 1: every model := the saved one (search trials) */
	int pause;           /* 1: PS pauses every worker to evaluate now
	                        (costs nothing on the virtual clock; [O]) */
	double setting;      /* the commit rate / tau / bound in force (reported) */
};

/* A policy: every baselines/sync/ and algorithms/adsp/ file ends with one
 * `const struct sb_sync_policy sb_sync_policy_<name>`. */
struct sb_sync_policy {
	const char *name;        /* = file name = CLI name */
	const char *cite;        /* "Authors, Title, Venue Year" */
	const char *desc;        /* one line */
	const char *provenance;  /* "verified: ..." or "reconstructed" or "ours" */
	const struct sb_param *params;   /* NULL-terminated, or NULL */
	/* Once per run, before any step: allocate *ctx, set ctl->bound.
	 * Returns 0 or an exit code with err. */
	int (*init)(const struct sb_sync_sim *s, const struct sb_opts *o, void **ctx,
		    struct sb_sync_ctl *ctl, struct sb_err *err);
	/* Frees ctx (NULL: nothing to free). */
	void (*release)(void *ctx);
	/* Mini-batch of worker i's next step (NULL: the instance's batch). */
	int (*batch)(void *ctx, const struct sb_sync_sim *s, int i);
	/* After each local step of worker i: 1 = commit now. Required. */
	int (*should_commit)(void *ctx, const struct sb_sync_sim *s, int i);
	/* At every evaluation (t = k Γ/2, k >= 0; full = 1 at multiples of
	 * Γ) with the global test loss; may change ctl. NULL: nothing. */
	void (*on_eval)(void *ctx, const struct sb_sync_sim *s, double loss, int full,
			struct sb_sync_ctl *ctl);
};
SB_REGISTERED(sb_sync_policy);

/* should_commit of the policies that push after every step. */
int sb_sync_every_step(void *ctx, const struct sb_sync_sim *s, int i);

const struct sb_sync_policy *const *sb_sync_policies(int *n);
const struct sb_sync_policy *sb_sync_policy_find(const char *name);
const char *sb_sync_policy_file(const struct sb_sync_policy *p);

/* ---- the trace and the result ---- */
enum sb_sync_ev { SB_SYNC_STEP = 0, SB_SYNC_PUSH = 1, SB_SYNC_RELEASE = 2, SB_SYNC_PULL = 3 };
struct sb_sync_rec {
	int kind, worker;
	double t0, t1;       /* STEP: compute interval; PUSH: t0 = t1 = push
	                        time; RELEASE: [push, release] blocked; PULL:
	                        [release, resume] communication */
	long bound;          /* PUSH, RELEASE: the bound in force then */
	int batch;           /* STEP */
};

struct sb_sync_result {
	/* trace, owned */
	struct sb_sync_rec *rec;
	size_t nrec, caprec;
	/* evaluations (every Γ/2), owned */
	double *eval_t, *eval_loss;
	long *eval_steps;
	int neval, capeval;
	/* totals (seconds summed over workers) */
	double compute, blocked, comm;
	long steps, commits;
	double end;          /* simulated time the run ended */
	double conv_time;    /* convergence time; < 0 if not reached */
	long conv_steps;
	double final_loss;
	double dc_final;     /* last commit-rate / tau setting the policy reported */
	/* with in->log_updates (else NULL/0): the PS model at the start and at
	 * the end, and every change to it in order: a push with its Delta_i
	 * (delta + k * nparams), a snapshot or a restore; owned */
	size_t nparams;
	double *w0, *wfinal, *delta;
	struct sb_sync_upd { int kind, worker; double t; size_t k; } *upd;
	size_t nupd, capupd, ndelta;
};
enum { SB_SYNC_UPD_PUSH = 0, SB_SYNC_UPD_SNAPSHOT = 1, SB_SYNC_UPD_RESTORE = 2 };
void sb_sync_result_release(struct sb_sync_result *r);
/* Time at which the n-th step (over all workers) completed; < 0 if fewer. */
double sb_sync_time_to_steps(const struct sb_sync_result *r, long n);

/* Run policy p on in (the simulator owns the loop and calls the hooks),
 * then validate the trace with the checker; a run the checker rejects is
 * an SB_EXIT_RUN error, never a result. */
int sb_sync_run(const struct sb_sync_inst *in, const struct sb_sync_policy *p,
		const struct sb_opts *o, struct sb_sync_result *r, struct sb_err *err);
/* The independent checker: 0 if r is a valid run of in, else 1 with
 * why[] filled. nparams gives o_i. */
int sb_sync_check(const struct sb_sync_inst *in, size_t nparams,
		  const struct sb_sync_result *r, char *why, size_t len);
/* PS conservation, for a run with in->log_updates: every push of the trace
 * was applied exactly once (one logged update per PUSH record, same worker
 * and time, in order) and the final PS model equals, bit for bit, the
 * replay of the logged updates (W += Delta / M, or through the momentum
 * v when in->ps_momentum > 0; snapshots, and restores, which zero v)
 * from the initial model. 0 if so, else 1 with why[] filled. */
int sb_sync_check_updates(const struct sb_sync_inst *in, const struct sb_sync_result *r,
			  char *why, size_t len);
/* Parameters of the net the instance trains. */
size_t sb_sync_nparams(const struct sb_sync_inst *in);

/* `sb eval sync ...` (family.c) and the family's entry in the table. */
int sb_sync_eval(int argc, char **argv);
extern const struct sb_family sb_family_sync;

#endif
