/*
 * test_cache.c - the cache family: the checker rejects each kind of broken
 * schedule, and every registered policy gives checked schedules never
 * better than the optimum on seeded random instances.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "cache/cache.h"

Test(cache, checker_rejects_broken_schedules)
{
	double p[2] = { 2, 3 }, w[2] = { 1, 1 }, s[2] = { 0, 2 }, f[2] = { 2, 5 };
	struct sb_cache_inst in = { 2, p, w };
	struct sb_cache_result r = { s, f, 7 };
	char why[256];
	cr_assert_eq(sb_cache_check(&in, &r, why, sizeof why), 0, "%s", why);
	s[1] = 1.5;                        /* overlaps job 0 */
	cr_assert_eq(sb_cache_check(&in, &r, why, sizeof why), 1);
	s[1] = 2; f[1] = 4;                /* runs shorter than p */
	cr_assert_eq(sb_cache_check(&in, &r, why, sizeof why), 1);
	f[1] = 5; r.objective = 6;         /* wrong objective */
	cr_assert_eq(sb_cache_check(&in, &r, why, sizeof why), 1);
}

Test(cache, every_policy_checked_and_not_below_the_optimum)
{
	int np, i, k;
	const struct sb_cache_policy *const *p = sb_cache_policies(&np);
	cr_assert_gt(np, 0);
	for (k = 0; k < 50; k++) {
		struct sb_rng gen = sb_rng_stream(7, (uint64_t)k, 0, SB_RNG_TEST);
		struct sb_cache_inst in;
		double opt;
		sb_cache_gen(&in, 1 + k % 20, &gen);
		opt = sb_cache_opt(&in);
		for (i = 0; i < np; i++) {
			struct sb_opts o;
			struct sb_cache_result r;
			struct sb_err err;
			struct sb_rng rng = sb_rng_stream(7, (uint64_t)k, 1, SB_RNG_TEST);
			sb_opts_defaults(&o, p[i]->params);
			cr_assert_eq(sb_cache_run(&in, p[i], &o, &rng, &r, &err), 0, "%s", err.msg);
			cr_assert_geq(r.objective, opt * (1 - 1e-12), "%s below the optimum",
				      p[i]->name);
			sb_cache_result_release(&r);
		}
		sb_cache_inst_release(&in);
	}
}
