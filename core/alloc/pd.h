/*
 * pd.h - the online primal-dual reservation engine of the alloc family,
 * shared by OASiS (baselines/alloc/oasis.c) and GADGET-PD
 * (algorithms/gadget/gadget-pd.c). Reconstructed [R] from the description
 * of OASiS in pslocality.md §4 and of GADGET-PD in gadget.md §3: Y. Bao,
 * Y. Peng, C. Wu, Z. Li, "Online Job Scheduling in Distributed Machine
 * Learning Clusters", IEEE INFOCOM 2018 (arXiv 1801.00936) [V, abstract:
 * at each arrival, the job's best schedule under current resource prices;
 * admit iff utility - resource cost > 0] and [M] prices exponential in
 * utilisation, p = L (U/L)^(used/capacity).
 *
 * How it works. The engine keeps, over a window of `horizon` slots ahead,
 * what every admitted job has reserved per server, resource and slot. When
 * a job is considered (at its arrival; again, up to `retry` jobs a slot,
 * once an admitted job has left and freed capacity), every (server, resource, slot) of the window gets the price
 * L (U/L)^(reserved/capacity); a unit (one worker with its bundled PS)
 * costs its demand over capacity times the price, plus `gpu_cost` per GPU.
 * Per slot the job's options are k = 1..K workers either on the cheapest
 * single server that holds them all (local rate) or dealt one by one to
 * the cheapest server with room (local only if they land on one); their
 * progress is the family's rate model, counted in equal steps of the job's
 * remaining work (at least `units`, about 8 per slot at its best rate, at
 * most 512), rounded down (so the real run never falls
 * behind the plan). A dynamic programme over the window gives the least
 * cost of q steps done by the end of each slot c; the job takes the (q, c)
 * with the largest value(q / units, c) - cost, and is admitted iff that is
 * positive: its plan is reserved and executed slot by slot; a job that
 * finishes early frees the rest. U and L (OASiS assumes them known) are
 * taken from the jobs: U = the largest value per unit of normalised
 * resource-slot a job can need, L = the smallest value spread over the
 * most a job can hold in the window, over 4 [O].
 */
#ifndef SB_ALLOC_PD_H
#define SB_ALLOC_PD_H

#include "alloc.h"

/* What completing the fraction frac (0..1] of job j's remaining work by
 * the end of slot c (absolute) is worth, in the units of the costs, when
 * it has done `done` worker-steps so far. */
typedef double sb_alloc_pd_value(void *arg, const struct sb_alloc_inst *in, int j, double done,
				 double frac, int c);

struct sb_alloc_pd_cfg {
	int horizon;            /* slots planned ahead, >= 1 */
	int units;              /* least steps of a job's work in the programme,
	                           1..512 (more for long jobs: about 8 a slot) */
	int retry;              /* a job not admitted is considered again once
	                           an admitted job has left since; at most this
	                           many such jobs a slot, earliest first (0: a
	                           refused job is refused for good) */
	double gpu_cost;        /* added to a unit's cost per GPU it holds */
	sb_alloc_pd_value *value;
	void *arg;              /* value's first argument */
	int plain;              /* 1: price and option every slot afresh (the
	                           reference the tests hold the engine to); 0:
	                           a slot holding what the previous slot holds
	                           reuses its prices, options and placements */
};

struct sb_alloc_pd;
/* New engine for in (owned by the caller; free with sb_alloc_pd_free). */
struct sb_alloc_pd *sb_alloc_pd_new(const struct sb_alloc_inst *in, const struct sb_alloc_pd_cfg *c);
void sb_alloc_pd_free(struct sb_alloc_pd *pd);
/* Slots whose prices and options were taken from the previous slot so
 * far (0 when plain). */
long sb_alloc_pd_reused(const struct sb_alloc_pd *pd);
/* One slot: admit what is worth it, then fill pl with slot v->t's
 * reservations. */
void sb_alloc_pd_allocate(struct sb_alloc_pd *pd, const struct sb_alloc_view *v,
			  struct sb_alloc_plan *pl);

#endif
