/*
 * optimus.h - the loss-curve model of the Optimus-like baseline
 * (baselines/cluster/optimus.c), exposed for its tests.
 *
 * The curve is l(k) = 1 / (b0 k + b1) + b2 at iteration k, with b[0] = b0,
 * b[1] = b1, b[2] = b2.
 */
#ifndef SB_OPTIMUS_H
#define SB_OPTIMUS_H

#include "rng.h"

/*
 * Fit b to n samples (k[i], l[i]) (k >= 0 not all equal, l > 0) by
 * nonlinear least squares on relative residuals (GSL trust-region
 * Levenberg-Marquardt, b0 and b1 kept positive). Returns 0, or -1 when
 * there are fewer than 3 samples, a sample is not finite, GSL fails or
 * does not converge, or the fit is not physical (b2 < 0). b is written
 * only on success.
 */
int sb_optimus_fit(const double *k, const double *l, int n, double b[3]);

/* Iteration at which the curve b falls to loss `target`: +inf when it
 * never does (target <= b2), 0 when it starts below it. */
double sb_optimus_iters_to(const double b[3], double target);

/* Loss of the curve b at iteration k. */
double sb_optimus_loss(const double b[3], double k);

/*
 * A job's true curve, drawn from rng (three draws, always): asymptote b2 ~
 * U[0.1, 1], initial gap 1/b1 ~ U[1, 4], and b0 such that the gap has
 * shrunk to a fraction f ~ U[0.05, 0.25] of the initial gap at iteration
 * n; *target = l(n), so the target is reached exactly at n.
 */
void sb_optimus_curve(struct sb_rng *rng, long n, double b[3], double *target);

#endif
