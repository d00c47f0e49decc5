/*
 * small.h - the seeded small instances the alloc tests share
 * (sb_alloc_gen_small with S identical servers of G GPUs and 4G CPUs).
 */
#ifndef SB_TEST_ALLOC_SMALL_H
#define SB_TEST_ALLOC_SMALL_H

#include <criterion/criterion.h>
#include <math.h>

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

/* Every registered policy that fits in, run through the checker: its
 * utility at most bound (maximize) or its flow slots at least bound. */
static inline void sb_test_alloc_every_policy(const struct sb_alloc_inst *in, double bound,
					      int maximize, const char *what)
{
	int np, i;
	const struct sb_alloc_policy *const *p = sb_alloc_policies(&np);
	for (i = 0; i < np; i++) {
		struct sb_alloc_result r;
		struct sb_opts o;
		struct sb_err err;
		struct sb_rng rng = sb_rng_stream(3, 0, 0, SB_RNG_TEST);
		double v;
		if (!sb_alloc_policy_fits(p[i], in))
			continue;
		sb_opts_defaults(&o, p[i]->params);
		cr_assert_eq(sb_alloc_run(in, p[i], &o, &rng, &r, &err), 0, "%s", err.msg);
		v = maximize ? r.utility : r.flow_slots;
		if (maximize)
			cr_assert_leq(v, bound + 1e-6 * (1 + fabs(bound)), "%s: %s %.9g above the bound %.9g",
				      what, p[i]->name, v, bound);
		else
			cr_assert_geq(v, bound - 1e-6 * (1 + fabs(bound)), "%s: %s %.9g below the bound %.9g",
				      what, p[i]->name, v, bound);
		sb_alloc_result_release(&r);
	}
}

#endif
