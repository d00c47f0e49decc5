/*
 * adsp.h - what ADSP (online search) and ADSP+ (offline grid) share: the
 * worker's commit rule and the curve fit of the commit-rate scheduler.
 * Family: sync (core/sync/).
 * Hu, Wang & Wu, "Distributed Machine Learning through
 * Heterogeneous Edge Systems", AAAI 2020.
 */
#ifndef SB_ADSP_H
#define SB_ADSP_H

#include "sync/sync.h"

/* The worker's rule [V, code: cifar10/strain.py]: commit when the time
 * since the last commit is at least T_i = max(min_interval, Γ/dc - o_i);
 * before the scheduler's first check (dc <= 0), every `bootstrap` steps. */
int sb_adsp_commit(double dc, double min_interval, long bootstrap,
		   const struct sb_sync_sim *s, int i);

/* Levenberg-Marquardt fit (GSL multifit_nlinear) of l(t) = 1/(a^2 t + b) + e
 * to n >= 3 points; returns 0 with p = {a, b, e}, or 1 if GSL fails or the
 * result is not finite. Deterministic: fixed start, fixed iteration cap. */
int sb_adsp_fit(const double *t, const double *l, int n, double p[3]);

/* Algorithm 1's score of a fitted curve: the inverse of the predicted time
 * for l(t) to reach target, a^2 / (1/(target - e) - b); 0 when the curve
 * never reaches it (target <= e). */
double sb_adsp_reward(const double p[3], double target);

#endif
