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

/* SMD with the LP-outer selection [R] (smd.md §3 step 2, "LP
 * rounding"): the round's MMKP LP relaxation (GLPK) picks each job's
 * configuration (its largest LP weight), then the same greedy admission as
 * sb_smd_round_solve repairs it to feasibility. *total = its cost. 0 or
 * SB_EXIT_RUN with err when the LP is not solved. */
int sb_smd_round_solve_lp(const struct sb_smd_round *rd, int *choice, double *total,
			  struct sb_err *err);
/* Dinkelbach's parametric method for the inner sum-of-ratios problem
 * (smd.md §3 step 1) on the jobs with run[i] = 1 (the others idle):
 * each job's cost is the ratio num / den = (remaining x tau(w, p)) / w;
 * with beta_i the ratio of its current configuration, the parametric
 * problem min sum_i (num_i - beta_i den_i) under the capacity rows is
 * solved exactly (GLPK, the family's node limit), and beta updated, until
 * the parametric optimum is 0 (a fixed point) or 50 iterations. Starts
 * from one worker and one PS per job. choice[i] = the best configuration
 * seen, *ratio_sum its cost, *iters the iterations, *converged 1 at a
 * fixed point. weighted = 1 scales job i's parametric term by 1 / den_i
 * at the current choice (ours [O]: the plain update cycles). SB_EXIT_INPUT
 * when the jobs do not fit at (1, 1). */
int sb_smd_dinkelbach(const struct sb_smd_round *rd, const int *run, int weighted, int *choice,
		      double *ratio_sum, int *iters, int *converged, struct sb_err *err);

/* The exhaustive optimum of the same problem (the check of smd.md §7 on
 * tiny instances): every combination of the run jobs' configurations that
 * fits. 0 with choice and *ratio_sum; 1 if none fits; -1 if more than
 * limit nodes would be visited (nothing decided). */
int sb_smd_enumerate(const struct sb_smd_round *rd, const int *run, long limit, int *choice,
		     double *ratio_sum);

#endif
