/*
 * common.h - helpers shared by the online family's tests (defined in
 * test_online.c).
 */
#ifndef SB_TEST_ONLINE_COMMON_H
#define SB_TEST_ONLINE_COMMON_H

#include "online/online.h"

/* E[ALG] of the registered policy `name` on `in` through sb_online_run
 * (both checkers), with one --set style option or NULL; asserts success. */
double sb_test_online_ealg(const struct sb_online_game *g, const struct sb_online_inst *in,
			   const char *name, const char *set);
/* Put a random table of game g (stream k) for each table-reading policy. */
void sb_test_online_tables(const struct sb_online_game *g, uint64_t k);
/* The knapsack DP's selection fits every type and has its value, GLPK's
 * ILP equals it and LP >= ILP, on instance number k (for messages). */
void sb_test_online_check_opt(const struct sb_online_game *g, const struct sb_online_inst *in,
			      int k);
/* check_opt on 1,000 random games of K types and instances (stream seed;
 * capacities 1..maxc, rounds 1..maxt). */
void sb_test_online_opt_1000(int K, uint64_t seed, int maxc, int maxt);
/* Every registered policy on a random instance of g (stream seed, k):
 * checked, 0 <= E[ALG] <= OPT, hindsight >= greedy. */
void sb_test_online_all_below_opt(const struct sb_online_game *g, uint64_t seed, int k);

#endif
