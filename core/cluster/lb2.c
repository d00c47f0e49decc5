/*
 * lb2.c - LB2 of the cluster family: the time-indexed LP relaxation of
 * spec asrpt.md §7, with the corrections below (solved with GLPK). All of
 * it is our benchmark design [O], not the paper's (see cluster/bound.h).
 *
 * Notation: job j arrives at a_j, needs g_j GPUs, runs n_j iterations;
 * p_j = n_j tau_lb_j (sb_job_iter_time_lb: every transfer at intra-server
 * speed) is never more than the time it runs on any placement; N = S x G.
 * A schedule of the simulator is described by each job's progress
 * f_j(t) in [0, 1]: it grows by 1/n_j per completed iteration, linearly
 * over that iteration's time on the job's GPUs, and not at all during
 * restart overheads or iterations a preemption cut short. So df_j/dt <=
 * 1/(n_j tau_j(placement)) <= 1/p_j, the job holds g_j GPUs whenever f_j
 * grows, and f_j reaches 1 at C_j.
 *
 * LB2 - the time-indexed LP of §7, and why each row is valid:
 *   x_{j,t} = f_j((t+1)D) - f_j(tD), the share of j done in slot t =
 *   [tD, (t+1)D).
 *   - x_{j,t} = 0 when (t+1)D <= a_j: nothing runs before its arrival.
 *   - x_{j,t} <= min(D, (t+1)D - a_j) / p_j: j runs at most that long in
 *     the slot, at rate <= 1/p_j.
 *   - sum_j g_j p_j x_{j,t} <= N D: j holds g_j GPUs for at least
 *     p_j x_{j,t} seconds of the slot.
 *   - mean busy time M_j = int t df_j(t) >= sum_t x_{j,t} e_{j,t} with
 *     e_{j,t} the earliest moment j can work in slot t. The spec uses the
 *     lower slot edge tD; we use e_{j,t} = max(tD, a_j), also valid (a job
 *     arriving mid-slot works only after a_j) and tighter in the arrival
 *     slot. And C_j >= M_j + p_j / 2: with rate <= 1/p_j the latest
 *     possible mean is that of working uniformly on [C_j - p_j, C_j].
 *   - C_j >= a_j + p_j.
 *   One row of the spec is NOT valid as written: sum_{t<T} x_{j,t} = 1
 *   asks every job to finish by the horizon T D, which a schedule that
 *   ends later (a policy worse than the FIFO run that gave the horizon,
 *   or simply a different order; the sum-C optimum need not have the
 *   smallest makespan) violates. We add an overflow slot T = [T D, inf)
 *   with x_{j,T} in [0, 1], no rate or capacity row (it is unbounded) and
 *   e_{j,T} = max(T D, a_j), and require sum_{t<=T} x_{j,t} = 1. Then
 *   every schedule of the simulator, preemptive or not, with any restart
 *   overhead, maps to a feasible point of cost <= its sum of C_j, and the
 *   LP optimum is a lower bound. The horizon only sets the resolution.
 *   The spec's optional cover cut sum_{g_j > N/2} x_{j,t} <= 1 is not
 *   valid either (two short big jobs can both finish inside one slot); we
 *   add the valid form sum_{g_j > N/2} p_j x_{j,t} <= D (big jobs never
 *   overlap, so their running times in a slot add up to at most D).
 *   Rows that cannot bind (their largest possible left side fits) are
 *   left out; time is measured in slots inside the LP. The LP optimum is
 *   GLPK's, within its feasibility tolerance (1e-7 relative); tests
 *   compare with 1e-6 relative slack.
 *
 * GLPK only through lp.h, with a deterministic limit (simplex iterations)
 * and a wall-time limit of SB_CLB_TIME_LIMIT as a safety net only;
 * statuses are reported as GLPK gave them. tau_lb comes from cluster/lb1.c
 * (sb_cluster_tau_lb) when the caller passes none; the row buffer from
 * boundutil.h.
 */
#include "boundutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* LB2                                                                 */
/* ------------------------------------------------------------------ */

#define LB2_MAX_SLOTS 100000
#define LB2_MAX_COLS 4000000L

int sb_cluster_lb2(const struct sb_cluster *c, const struct sb_jobset *js,
		   const double *tau_lb, double horizon, int slots, long iter_limit,
		   double *lb, struct sb_lp_result *res, struct sb_err *err)
{
	struct sb_lp_result local;
	struct sb_lp_result *r = res ? res : &local;
	struct sb_lp *lp = NULL;
	struct sb_lp_params par;
	struct rowbuf rb;
	double *tl = NULL, *ap = NULL, *pp = NULL, delta, N;
	int *t0 = NULL, *first = NULL, *ccol = NULL;
	int n = js->n, j, t, T, rc = 0, nbig = 0;
	long ncols = 0;
	char name[64];

	memset(&rb, 0, sizeof rb);
	memset(r, 0, sizeof *r);
	r->obj = r->bound = NAN;
	*lb = NAN;
	if ((rc = sb_cluster_validate(c, err)) != 0 ||
	    (rc = sb_jobset_validate(js, c, err)) != 0)
		goto out;
	if (!(horizon > 0) || !isfinite(horizon)) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "lb2: horizon %g is not a positive number",
				horizon);
		goto out;
	}
	T = slots > 0 ? slots : SB_CLB_LB2_SLOTS;
	if (T > LB2_MAX_SLOTS) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "lb2: %d slots (at most %d)", T,
				LB2_MAX_SLOTS);
		goto out;
	}
	if (n == 0) {
		r->status = SB_LP_OPTIMAL;
		r->obj = r->bound = 0;
		*lb = 0;
		goto out;
	}
	delta = horizon / T;
	N = (double)c->nserver * c->gpus;
	tl = SB_NEW(double, n);
	if (tau_lb)
		memcpy(tl, tau_lb, sizeof(double) * (size_t)n);
	else
		sb_cluster_tau_lb(c, js, tl);
	ap = SB_NEW(double, n);
	pp = SB_NEW(double, n);
	t0 = SB_NEW(int, n);
	first = SB_NEW(int, n);
	ccol = SB_NEW(int, n);
	for (j = 0; j < n; j++) {
		const struct sb_job *jb = &js->job[j];
		double a = jb->arrival / delta;
		if (!(tl[j] > 0) || !isfinite(tl[j])) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "lb2: job %d: tau_lb %g", j, tl[j]);
			goto out;
		}
		/* in slots; the arrival a hair early (rounding of a_j / D must
		 * never cut off a slot in which j can work) */
		ap[j] = a - 1e-12 * (1 + a);
		pp[j] = (double)jb->iters * tl[j] / delta;
		t0[j] = ap[j] >= T ? T : (int)floor(sb_max(ap[j], 0));
		ncols += T - t0[j] + 2;
		nbig += 2 * jb->gpus > N;
	}
	if (ncols > LB2_MAX_COLS) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "lb2: model too large (%ld columns; "
				"fewer slots or jobs)", ncols);
		goto out;
	}

	lp = sb_lp_new("cluster-lb2", 1);
	memset(&par, 0, sizeof par);
	par.iter_limit = iter_limit > 0 ? iter_limit : SB_CLB_LB2_ITERS;
	par.dual = 1;
	sb_lp_set_params(lp, &par);
	/* columns: C_j, then x_{j,t} for t = t0_j .. T (T: the overflow) */
	for (j = 0; j < n; j++) {
		const struct sb_job *jb = &js->job[j];
		snprintf(name, sizeof name, "C_%d", j);
		ccol[j] = sb_lp_add_col(lp, name, SB_LP_CONT,
					(jb->arrival + (double)jb->iters * tl[j]) / delta,
					SB_LP_INF, 1);
		first[j] = sb_lp_ncols(lp);
		for (t = t0[j]; t < T; t++) {
			double len = sb_min(1, t + 1 - ap[j]);
			snprintf(name, sizeof name, "x_%d_%d", j, t);
			sb_lp_add_col(lp, name, SB_LP_CONT, 0, sb_min(1, len / pp[j]), 0);
		}
		snprintf(name, sizeof name, "x_%d_over", j);
		sb_lp_add_col(lp, name, SB_LP_CONT, 0, 1, 0);
	}
	/* sum_t x = 1;  C_j - sum_t e_{j,t} x_{j,t} >= p_j / 2 */
	for (j = 0; j < n; j++) {
		rb.n = 0;
		for (t = t0[j]; t <= T; t++)
			rb_add(&rb, first[j] + t - t0[j], 1);
		snprintf(name, sizeof name, "once_%d", j);
		sb_lp_add_row(lp, name, 1, 1, rb.n, rb.col, rb.val);
		rb.n = 0;
		rb_add(&rb, ccol[j], 1);
		for (t = t0[j]; t <= T; t++)
			rb_add(&rb, first[j] + t - t0[j], -sb_max(t, ap[j]));
		snprintf(name, sizeof name, "mbt_%d", j);
		sb_lp_add_row(lp, name, pp[j] / 2, SB_LP_INF, rb.n, rb.col, rb.val);
	}
	/* GPU-seconds per slot, and the big jobs' running time per slot */
	for (t = 0; t < T; t++) {
		double most = 0, most_big = 0;
		int big;
		for (big = 0; big < 2; big++) {
			rb.n = 0;
			most = 0;
			for (j = 0; j < n && t0[j] <= t; j++) {
				const struct sb_job *jb = &js->job[j];
				double ub = sb_min(1, sb_min(1, t + 1 - ap[j]) / pp[j]);
				if (big && !(2 * jb->gpus > N))
					continue;
				rb_add(&rb, first[j] + t - t0[j], big ? pp[j] : jb->gpus * pp[j]);
				most += rb.val[rb.n - 1] * ub;
			}
			if (!big && most > N * (1 + 1e-12)) {
				snprintf(name, sizeof name, "gpus_%d", t);
				sb_lp_add_row(lp, name, -SB_LP_INF, N, rb.n, rb.col, rb.val);
			}
			most_big = most;
			if (big && nbig >= 2 && rb.n >= 2 && most_big > 1 + 1e-12) {
				snprintf(name, sizeof name, "big_%d", t);
				sb_lp_add_row(lp, name, -SB_LP_INF, 1, rb.n, rb.col, rb.val);
			}
		}
	}
	rc = sb_lp_solve(lp, 1, SB_CLB_TIME_LIMIT, 0, r, err);
	if (rc) {
		sb_err_prefix(err, "lb2: ");
		goto out;
	}
	if (r->status == SB_LP_OPTIMAL)
		*lb = r->obj * delta;
out:
	if (!res)
		sb_lp_result_release(&local);
	sb_lp_free(lp);
	rb_release(&rb);
	sb_free(tl); sb_free(ap); sb_free(pp);
	sb_free(t0); sb_free(first); sb_free(ccol);
	return rc;
}
