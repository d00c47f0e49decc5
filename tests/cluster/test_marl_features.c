/*
 * test_marl_features.c - the marl placer's feature vectors and reward
 * (algorithms/marl/features.c): layouts, an idle GPU is all zero, the
 * critic's mean. The reward is tested with the simulator
 * (test_marl_placer.c).
 */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "algorithms/marl/features.h"

Test(marl_features, layouts)
{
	struct sb_marl_jobview j = { 3, 4, 3600.0 * (M_E - 1), 0, { 0.1, 0.2, 0.3 }, 0.25 };
	double g[SB_MARL_GF], f[SB_MARL_JF], c[SB_MARL_CF];
	int q[2] = { 3, 8 }, i, ones = 0;

	sb_marl_gpu_features(NULL, g);
	for (i = 0; i < SB_MARL_GF; i++)
		cr_assert_eq(g[i], 0.0);
	sb_marl_gpu_features(&j, g);
	cr_assert_eq(g[0], 1.0);
	cr_assert_eq(g[1 + 3], 1.0);
	cr_assert_eq(g[9], 0.25);
	cr_assert_eq(g[12], 0.3);
	cr_assert_eq(g[13], 0.5);
	cr_assert_eq(g[14], 0.0);
	sb_marl_job_features(&j, f);
	for (i = 0; i < SB_MARL_NTYPE; i++)
		ones += f[i] == 1.0;
	cr_assert_eq(ones, 1);
	cr_assert_eq(f[3], 1.0);
	cr_assert_float_eq(f[9], 1.0, 1e-12);
	cr_assert_eq(f[10], 0.0);
	cr_assert_eq(f[13], 0.3);
	{
		struct sb_marl_jobview two[2] = { j, j };
		two[1].type = 5;
		sb_marl_critic_features(two, 2, q, 2, c);
		cr_assert_eq(c[3], 0.5);
		cr_assert_eq(c[5], 0.5);
		cr_assert_eq(c[SB_MARL_JF], 3 / 16.0);
		cr_assert_eq(c[SB_MARL_JF + 1], 0.5);
		cr_assert_eq(c[SB_MARL_JF + 2], 0.0);
	}
	cr_assert_str_eq(sb_marl_reward_src_name(SB_MARL_REWARD_NONE), "none");
}
