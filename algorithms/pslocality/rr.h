/*
 * rr.h - PS-locality's randomized rounding (alloc family): one rounding of
 * the LP relaxation of the time-indexed packing/covering model
 * (core/alloc/bound.h, struct sb_alloc_psmodel), its statistics before
 * repair, and the repair into a slot plan. Shared by the policy
 * pslocality and the rounding study (experiments/alloc/alloc_rounding.c).
 *
 * Family: alloc (core/alloc/).
 */
#ifndef SB_RR_H
#define SB_RR_H

#include "alloc/alloc.h"
#include "alloc/bound.h"

/* A rounded schedule over the model's window. */
struct sb_rr_plan {
	int J, H, T;
	int *w, *p;       /* [(i * H + h) * T + t]: workers and PSs */
};
void sb_rr_plan_init(struct sb_rr_plan *r, int J, int H, int T);
void sb_rr_plan_release(struct sb_rr_plan *r);

/* One rounding of the LP solution x of m with scaling kappa >= 1
 * (pslocality.md §3 steps 2-3): per job and slot one categorical draw of
 * the regime (local on h with probability min(1, kappa y), distributed
 * with min(1, kappa z), scaled down together when they sum above 1),
 * then counts floor(kappa x / prob) plus a Bernoulli of the fraction,
 * capped at the worker cap, and a PS per worker (gamma = 1) up to the PS
 * cap, on the workers' servers. */
void sb_rr_round(const struct sb_alloc_inst *in, const struct sb_alloc_psmodel *m,
		 const double *x, double kappa, struct sb_rng *rng, struct sb_rr_plan *out);

/* Before repair: flow slots by the model's per-worker rates (an unfinished
 * job counts the window end + 1 - arrival), the largest load / capacity
 * over servers, resources and slots, and the jobs whose rounded progress
 * falls short of their work (covering rows violated). */
struct sb_rr_stats {
	double flow;
	double max_viol;
	int cov_fail;
};
void sb_rr_stats(const struct sb_alloc_inst *in, const struct sb_alloc_psmodel *m,
		 const struct sb_rr_plan *r, struct sb_rr_stats *st);

/* Repair, packing side: add slot t's (absolute) rounded grants to pl in
 * job order, each shrunk a worker (with its PS) at a time until it fits. */
void sb_rr_apply(const struct sb_rr_plan *r, int t0, const struct sb_alloc_view *v,
		 struct sb_alloc_plan *pl);
/* Repair, covering side [O]: the capacity left goes to the active jobs,
 * least remaining work first, a worker (with its PS) at a time where the
 * job already runs, else the first server with room. */
void sb_rr_fill(const struct sb_alloc_view *v, struct sb_alloc_plan *pl, struct sb_rng *rng);

#endif
