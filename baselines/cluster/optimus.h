/*
 * optimus.h - the loss-curve model of the Optimus-like baseline
 * (baselines/cluster/optimus.c), exposed for its tests.
 *
 * The curve is l(k) = 1 / (b0 k + b1) + b2 at iteration k, with b[0] = b0,
 * b[1] = b1, b[2] = b2.
 */
#ifndef SB_OPTIMUS_H
#define SB_OPTIMUS_H

#include "cluster/cluster.h"
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

/*
 * The same model fitted to the same relative residuals by variable
 * projection (optimus-vp.c): for a fixed ratio r = b0/b1 the loss is
 * linear in (1/b1, b2), solved in closed form; the remaining one-dimensional
 * cost of ln r is minimised by Brent's method from the same starting point
 * as sb_optimus_fit. Same contract and return values.
 */
int sb_optimus_fit_vp(const double *k, const double *l, int n, double b[3]);

/* A loss-curve fit of the contract above. */
typedef int (*sb_optimus_fit_fn)(const double *k, const double *l, int n, double b[3]);

/* What optimus and optimus-vp share: parameters, the scheduler with the
 * fit as the only difference, and the fields of their registrations. */
extern const struct sb_param sb_optimus_params[];
void *sb_optimus_init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng,
		      sb_optimus_fit_fn fit);
void sb_optimus_release(void *ctx);
void sb_optimus_arrival(void *ctx, struct sb_csim *s, int j);
void sb_optimus_schedule(void *ctx, struct sb_csim *s);

#define SB_OPTIMUS_COMMON \
	.provenance = "reconstructed", \
	.params = sb_optimus_params, \
	.clairvoyant = 1, /* only to synthesise the observed loss curves (optimus.c) */ \
	.release = sb_optimus_release, \
	.on_arrival = sb_optimus_arrival, \
	.schedule = sb_optimus_schedule, \
	.default_place = "packed"

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
