/*
 * small.h - the seeded small instances the alloc tests share
 * (sb_alloc_gen_small with S identical servers of G GPUs and 4G CPUs).
 */
#ifndef SB_TEST_ALLOC_SMALL_H
#define SB_TEST_ALLOC_SMALL_H

#include "workloads/alloc/alloc_wl.h"

/* small_slots: see struct sb_alloc_genp (0: half the horizon). */
static inline void sb_test_alloc_small(struct sb_alloc_inst *in, int mode, int util, int njob,
				       int S, int G, int T, int K, double small_slots,
				       uint64_t seed)
{
	struct sb_alloc_genp g;
	struct sb_alloc_types ty;
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_TEST);
	sb_alloc_types_builtin(&ty);
	sb_alloc_genp_defaults(&g, mode);
	g.njob = njob;
	g.nserver = S;
	g.gpus = G;
	g.cpus = 4 * G;
	g.nslot = T;
	g.kmax = K;
	g.pmax = K;
	g.util = util;
	g.small_slots = small_slots;
	sb_alloc_gen_small(in, &g, &ty, &r);
}

#endif
