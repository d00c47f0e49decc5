/*
 * bpart.h - BGL's block partitioner, shared by the two
 * registered variants bgl-released.c and bgl-paper.c. See bpart.c.
 *
 * Family: cache (core/cache/).
 */
#ifndef SB_BGL_BPART_H
#define SB_BGL_BPART_H

#include "cache/part.h"

/* The parameters both variants accept (defaults of spec bgl.md §6). */
extern const struct sb_param sb_bgl_bpart_params[];

/* Phase 1 (blocks) and phase 2 (greedy block assignment) into pt->part.
 * paper = 0: as released (2-hop term N2 and training-node balance term
 * off); paper = 1: both on ([M] the paper's description). */
int sb_bgl_bpart(const struct sb_cache_graph *g, const uint8_t *train, const struct sb_opts *o,
		 struct sb_rng *rng, int paper, struct sb_cache_part *pt, struct sb_err *err);

/* Phase 1 alone, for tests: block id of every node into blk (dense ids
 * 0..nblocks-1, numbered in order of their smallest node); nblocks
 * returned, -1 when out of memory. */
int32_t sb_bgl_blocks(const struct sb_cache_graph *g, const struct sb_opts *o, struct sb_rng *rng,
		      int32_t *blk);

#endif
