/*
 * dapple_model.h - DAPPLE's own cost model, shared by the planners dapple
 * and dapple-hpgo and the schedule early-backward (not registered).
 *
 * S. Fan et al., "DAPPLE: a pipelined data parallel approach for training
 * large models", PPoPP 2021 (spec dapple.md §2, §3.2, §3.3).
 *
 * What is here: the latency model L = T_w + T_s + T_e around a pivot
 * stage Q over 2S-1 slots (a transfer between two stages is a slot of its
 * own), DAPPLE's all-reduce and split-concat transfer rules, its memory
 * formula, the exact recursive 1F1B timeline, and the shared machinery of
 * both planners (GPU blocks for outer replication, the Fresh / Append /
 * Scatter First placement policies, building and memory-checking plans).
 *
 * This model is DAPPLE's estimate only. Plans are judged by the project's
 * simulator (pipesim, pipeline/cost.c), whose transfer model (narrowest link,
 * FIFO per direction) and all-reduce model (ring over the narrowest link)
 * differ on purpose: the two times are reported side by side.
 *
 * Bandwidth mapping [O]: DAPPLE names fixed constants (NVLink, Ethernet
 * P2P, Ethernet NCCL, dapple.md §2); we read them off the topology:
 *   NVLink of machine s  = the narrowest link between two GPUs of server s;
 *   Ethernet (NCCL) of s = the narrowest link from a GPU of s to a GPU of
 *                          another server; a transfer or all-reduce over
 *                          several machines uses the smallest value among
 *                          the machines involved;
 *   Ethernet P2P         = p2p_ratio x Ethernet (NCCL); DAPPLE's code has
 *                          1 GB/s P2P against 3 GB/s NCCL, so 1/3 by default.
 * On config-a this gives DAPPLE's own constants (25 GB/s, 3 GB/s, 1 GB/s).
 * Per-message latency (topo->latency) is not part of DAPPLE's model.
 *
 * Family: pipeline (core/pipeline/).
 */
#ifndef SB_DAPPLE_MODEL_H
#define SB_DAPPLE_MODEL_H

#include <stdint.h>

#include "opts.h"
#include "pipeline/pipeline.h"

/* ------------------------------------------------------------------ */
/* Bandwidth classes and transfer rules                                */
/* ------------------------------------------------------------------ */

struct sb_dapple_env {
	const struct sb_topo *topo;
	double p2p_ratio;     /* Ethernet P2P / Ethernet NCCL bandwidth */
	int pivot_index;      /* 0: the pivot test sums slots up to Q; 1: up
				 to Q-1 (the reading note's form) */
	double *nvl;          /* per server: narrowest link inside (INFINITY
				 for a one-GPU server) */
	double *eth;          /* per server: narrowest link to another server
				 (INFINITY with one server) */
};

/* Owner: e (sb_dapple_env_release); t must outlive it. */
void sb_dapple_env_init(struct sb_dapple_env *e, const struct sb_topo *t, double p2p_ratio,
			int pivot_index);
void sb_dapple_env_release(struct sb_dapple_env *e);

/* All-reduce of `bytes` over GPUs gpu[0..n): 0 for n <= 1; inside one
 * machine 2W(n-1)/n / NVLink / (n/2); else 2W(n-1)/n / Ethernet. */
double sb_dapple_allreduce(const struct sb_dapple_env *e, const int *gpu, int n, double bytes);

/* Split-concat transfer of `bytes` from the GPUs x[0..nx) to y[0..ny):
 * all on one machine: A / NVLink; y on one machine and some of x
 * elsewhere: A |x elsewhere| / |x| / Ethernet P2P; y on several machines:
 * A / Ethernet. */
double sb_dapple_split_concat(const struct sb_dapple_env *e, const int *x, int nx, const int *y,
			      int ny, double bytes);

/* The two rules on summaries of the GPU sets (what the planners keep up
 * to date incrementally). All-reduce over n GPUs, all on server srv
 * (one = 1) or not, eth = narrowest Ethernet of their machines. Transfer
 * from x (nx GPUs, crossx of them not on srv) to y (on server srv when
 * one = 1), eth = narrowest Ethernet over the machines of both. */
double sb_dapple_allreduce_rule(const struct sb_dapple_env *e, double bytes, int n, int one,
				int srv, double eth);
double sb_dapple_split_concat_rule(const struct sb_dapple_env *e, double bytes, int nx,
				   int crossx, int one, int srv, double eth);

/* ------------------------------------------------------------------ */
/* The latency model                                                   */
/* ------------------------------------------------------------------ */

/*
 * Pivot of n slots with per-microbatch times F, B and M microbatches:
 * Q <- n-1, then for s = n-2 down to 0, Q <- s when
 *   (M-1)(F_s+B_s) > (M-1)(F_Q+B_Q) + sum_{a=s+1}^{Q - index} (F_a+B_a),
 * index = 0 or 1 (struct sb_dapple_env.pivot_index). With index 0 this is
 * the last argmax of sum_{a<s}(F_a+B_a) + M (F_s+B_s).
 */
int sb_dapple_pivot(int n, const double *F, const double *B, int M, int index);

/*
 * L = T_w + T_s + T_e over n slots (AR[x]: all-reduce after the slot's
 * last backward, 0 on transfer slots): T_w = sum_{s<=Q} F_s,
 * T_s = (M-1)(F_Q+B_Q), T_e = max_s [AR_s + E_s] with E_s =
 * sum_{a=s}^{Q} B_a (s <= Q) or -sum_{a=Q+1}^{s} B_a (s > Q). *pivot
 * (may be NULL) gets Q.
 */
double sb_dapple_latency(int n, const double *F, const double *B, const double *AR, int M,
			 int index, int *pivot);

/*
 * DAPPLE's 2S-1 slots of plan p: slot 2s is stage s (F, B split over its
 * replicas, AR over its GPUs in every copy), slot 2s+1 the transfer of
 * stage s's output activation to stage s+1 (F) and of its gradient back
 * (B) by split-concat, the slowest copy's. Arrays of 2S-1, caller's.
 */
void sb_dapple_slots(const struct sb_dapple_env *e, const struct sb_pipeline_plan *p,
		     const struct sb_pmodel *m, double *F, double *B, double *AR);

/*
 * The same latency, built from the last stage forwards in O(1) per stage
 * (the planners' DP). A pipeline's bookkeeping relative to its first
 * slot: fq, bq = sums of F and B over slots 0..Q, xq = F_Q + B_Q, and the
 * maxima of AR_s - PB over the stages s <= Q (ale: PB(s), ale2: PB(s+1))
 * and s > Q (agt: PB(s+1)), PB(k) = sum of B over the slots before k;
 * then V = sum_{a<Q}(F_a+B_a) + M (F_Q+B_Q) and L = V + max(ale, agt).
 * The pivot scan runs from the last slot to the first, so it continues
 * from the suffix's pivot. A zeroed struct is the empty pipeline.
 */
struct sb_dapple_suffix {
	double L, V;
	double fq, bq, xq, ale, ale2, agt;
	int nst;              /* stages */
};

/* o = s with a stage (Fn, Bn, ARn) and its transfer to s's first stage
 * (Fc, Bc; ignored when s is empty) put in front. */
void sb_dapple_suffix_prepend(const struct sb_dapple_suffix *s, struct sb_dapple_suffix *o,
			      double Fn, double Bn, double ARn, double Fc, double Bc, int M,
			      int index);

/* DAPPLE's estimate of one iteration of p: sb_dapple_latency over its
 * slots. *pivot (may be NULL) gets the pivot slot. */
double sb_dapple_estimate(const struct sb_dapple_env *e, const struct sb_pipeline_plan *p,
			  const struct sb_pmodel *m, int *pivot);

/*
 * DAPPLE's memory formula per GPU of a stage of layers first..last on r
 * replicas (dapple.md §2): kappa W + inflight A ceil(beta / (r pbs)),
 * A = the stage's stash per profiled batch of pbs samples (DAPPLE counts
 * activations in whole profiled batches).
 */
double sb_dapple_stage_mem(const struct sb_pipeline_prefix *x, int pbs, int first, int last, int r,
			   double beta, int inflight, double kappa);

/* ------------------------------------------------------------------ */
/* Exact 1F1B timeline (sync_pipeline_speedup_recursive)               */
/* ------------------------------------------------------------------ */

/*
 * Timeline of n slots x M microbatches where slot x is either a device
 * running strict 1F1B with K[x] >= 1 warm-up forwards (min(K[x], M)):
 *   f[i][x] starts at max(end b[i-K][x], end f[i-1][x], end f[i][x-1]),
 *   b[i][x] starts at max(end b[i][x+1], end f[i+K-1][x], end b[i-1][x])
 * (the last term, one task at a time while draining, is implicit in
 * DAPPLE's formula), or, for K[x] == 0, a link whose two directions are
 * FIFO queues: f[i][x] after f[i][x-1] and f[i-1][x], b[i][x] after
 * b[i][x+1] and b[i-1][x]. The last slot's backward follows its own
 * forward. Start times go to fs[i*n+x], bs[i*n+x] (either may be NULL).
 * Returns max over device slots of (end of its last backward + AR[x]) (AR
 * may be NULL).
 */
double sb_dapple_timeline(int n, int M, const double *F, const double *B, const double *AR,
			  const int *K, double *fs, double *bs);

/* DAPPLE's exact evaluator: the timeline of p's 2S-1 slots, transfers
 * counted as stages (K[x] = 2S-1-x). The released code splits a stage's
 * compute into equal halves for F and B; we use the profile's F and B. */
double sb_dapple_recursive(const struct sb_dapple_env *e, const struct sb_pipeline_plan *p,
			   const struct sb_pmodel *m);

/* ------------------------------------------------------------------ */
/* Early backward scheduling (dapple.md §3.3)                          */
/* ------------------------------------------------------------------ */

/* Microbatches stage i of S injects before its first backward:
 * min(S-i, M) when acr <= threshold, else min(2(S-i)-1, M). */
int sb_dapple_inject(int S, int i, int M, double acr, double threshold);

/* Activation-communication ratio of a stage under the project's costs:
 * its outgoing transfer C_s over F_s + B_s (0 for the last stage). */
double sb_dapple_acr(const struct sb_pipeline_costs *c, int copy, int stage);

/* ------------------------------------------------------------------ */
/* Planner machinery                                                   */
/* ------------------------------------------------------------------ */

enum {
	SB_DAPPLE_FRESH = 1,   /* unused machines first */
	SB_DAPPLE_APPEND = 2,  /* partly used machines first */
	SB_DAPPLE_SCATTER = 4, /* round robin over the used machines */
};

/*
 * rp pipeline copies of `width` GPUs each: GPUs sorted by (server, id)
 * and cut into consecutive blocks; the planners place copy 0's stages on
 * local GPUs 0..width-1 (a bitmask) and every other copy mirrors them.
 * Owned; sb_dapple_grid_release.
 */
struct sb_dapple_grid {
	int rp, width;
	int *gpu;             /* rp x width: global GPU of local k in copy c */
	int nmach;            /* machines of copy 0's block */
	int *mach;            /* width: local machine of local GPU k */
	uint64_t *mmask;      /* nmach: local GPUs of each machine */
};

/* width = t->n / rp must be 1..64. */
void sb_dapple_grid_init(struct sb_dapple_grid *g, const struct sb_topo *t, int rp);
void sb_dapple_grid_release(struct sb_dapple_grid *g);

/* The order in which a placement policy takes the local GPUs not in
 * `used` (out: up to 64); returns how many are free. Every policy is
 * prefix-closed: k GPUs are the first k of this order. */
int sb_dapple_order(const struct sb_dapple_grid *g, uint64_t used, int policy, int *out);

/* k more local GPUs, chosen from those not in `used` by one placement
 * policy; 0 if fewer than k are free. */
uint64_t sb_dapple_place(const struct sb_dapple_grid *g, uint64_t used, int k, int policy);

/* Global GPUs of local set `set` in copy c, ascending local order; returns
 * the count. */
int sb_dapple_gpus(const struct sb_dapple_grid *g, int c, uint64_t set, int *out);

/*
 * A GPU set of one copy summarised for the transfer and all-reduce rules,
 * grown one GPU at a time (the placement orders are prefix-closed), next
 * to a fixed set Z (the neighbouring stage; may be absent).
 */
struct sb_dapple_sum {
	int n, srv, one;      /* GPUs, server of the first, all on it */
	double eth;           /* narrowest Ethernet of their machines */
	int off;              /* of them, not on Z's first server */
	int on;               /* GPUs of Z on this set's first server */
};

/* Summary of a whole list (off, on = 0). */
void sb_dapple_sum_of(const struct sb_dapple_env *e, struct sb_dapple_sum *z, const int *gpu,
		      int n);
/* Add GPU gpu to y; z and its list zgpu (NULL: no neighbour). */
void sb_dapple_sum_add(const struct sb_dapple_env *e, struct sb_dapple_sum *y,
		       const struct sb_dapple_sum *z, const int *zgpu, int gpu);
/* Split-concat of `bytes` from y to z (to_z = 1) or from z to y. */
double sb_dapple_sum_transfer(const struct sb_dapple_env *e, double bytes,
			      const struct sb_dapple_sum *y, const struct sb_dapple_sum *z, int to_z);

/* Smallest i <= j such that layers i..j-1 need at most mem bytes as
 * kappa W + coef A (W, A: parameter and stash bytes per sample); j when
 * even layer j-1 alone does not fit. Memory grows as i falls. */
int sb_dapple_mem_first(const struct sb_pipeline_prefix *x, int j, double kappa, double coef,
			double mem);

/* In-flight cap schedule sc (options so) gives a stage with `nafter`
 * stages from it to the end, seen as stage 0 of such a plan and without
 * costs (as through sb_pipeline_sched_cap); M when it has none. */
int sb_dapple_cap_ahead(const struct sb_pipeline_schedule *sc, const struct sb_opts *so, int nafter,
			int M, int copies, double batch);

/*
 * Fill p (initialised here; caller releases) with S stages, stage s
 * holding layers first[s]..last[s] on local set set[s] in every copy.
 */
void sb_dapple_plan_build(struct sb_pipeline_plan *p, const struct sb_dapple_grid *g, int S,
			  const int *first, const int *last, const uint64_t *set, int M,
			  double batch, double kappa, const char *planner, const char *sched);

/*
 * 1 if every GPU of p fits in memory both by DAPPLE's formula (in flight:
 * min(S-s, M)) and by the project's model under schedule sc with options
 * so (its cap hook sees the plan's costs, as in the simulator), else 0.
 */
int sb_dapple_plan_fits(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
			const struct sb_topo *t, const struct sb_pipeline_schedule *sc,
			const struct sb_opts *so);

/*
 * One cell of the planners' beam DPs: up to `beam` entries of `size` bytes
 * that begin with two uint64_t, the GPUs used and those of the first
 * stage, and hold a double score at byte offset `off` (smaller is better).
 * o enters if no entry has the same GPU sets and a score as good, and the
 * cell has room or o beats its worst; *cnt is the number of entries and
 * *cw caches the worst score of a full cell.
 */
void sb_dapple_beam_insert(void *cell, size_t size, size_t off, int beam, int *cnt, double *cw,
			   const void *o);

#endif
