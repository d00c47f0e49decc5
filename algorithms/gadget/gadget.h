/*
 * gadget.h - the per-slot greedy of GADGET-R (alloc family), shared by
 * gadget-r and its ablation gadget-nolocality. See gadget_engine.c.
 *
 * Family: alloc (core/alloc/).
 */
#ifndef SB_GADGET_H
#define SB_GADGET_H

#include "alloc/alloc.h"

/* One slot of GADGET-R on plan pl. nolocal = 1: every rate as if the ring
 * crossed servers (B_out), and workers placed one by one on the least used
 * server instead of embedded (gadget.md §4, GADGET-nolocality). */
void sb_gadget_greedy(const struct sb_alloc_view *v, struct sb_alloc_plan *pl,
		      struct sb_rng *rng, int nolocal);

#endif
