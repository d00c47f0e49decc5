/*
 * smd.h - SMD's round (alloc family): the multiple-choice multi-dimensional
 * knapsack of one scheduling round and its two-level heuristic, shared by
 * the policies smd and smd-oblivious, the tests and the experiments.
 *
 * Family: alloc (core/alloc/).
 */
#ifndef SB_SMD_H
#define SB_SMD_H

#include "alloc/alloc.h"
#include "alloc/bound.h"

/* One round: the MMKP plus what each configuration means. */
struct sb_smd_round {
	struct sb_alloc_mmkp m;
	int *job;       /* item -> job */
	int *w, *p;     /* per configuration (0, 0 for idle) */
};

/* Build the round of jobs[0..n) of in with remaining work rem[job]
 * (cost = the job's completion time in seconds at that configuration
 * across servers, idle = one slot of waiting plus its best time;
 * layered = -1 the jobs' own step-time model, 0 the non-layered one). */
void sb_smd_round_build(struct sb_smd_round *rd, const struct sb_alloc_inst *in,
			const int *jobs, int n, const double *rem, int layered);
void sb_smd_round_release(struct sb_smd_round *rd);
/* SMD's two-level heuristic [R]: Lagrangian multipliers on the capacity
 * rows (subgradient) for the inner per-job choice, then the outer greedy
 * selection by saving per normalised weight with fallback to cheaper
 * configurations. choice[i] = a configuration of item i; returns the
 * total cost (always feasible). */
double sb_smd_round_solve(const struct sb_smd_round *rd, int *choice);

#endif
