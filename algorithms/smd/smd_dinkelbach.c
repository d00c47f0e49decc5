/*
 * smd_dinkelbach.c - Dinkelbach's parametric method for SMD's inner
 * sum-of-ratios allocation (smd.md §3 step 1, the "parametric route"),
 * reconstructed [R] from the spec (the paper's text was not available):
 * M. Yu, C. Wu, B. Ji, J. Liu, "A Sum-of-Ratios Multi-Dimensional-Knapsack
 * Decomposition for DNN Resource Scheduling", IEEE INFOCOM 2021; the
 * method: W. Dinkelbach, "On Nonlinear Fractional Programming",
 * Management Science 1967.
 *
 * For a fixed set of jobs to run, minimise sum_i num_i / den_i with
 * num_i = remaining_i x tau_i(w, p) and den_i = w over the jobs'
 * (w, p) under the capacity rows. With one parameter per ratio, beta_i =
 * the job's ratio at the current configuration, the parametric problem
 * min sum_i (num_i - beta_i den_i) is a multiple-choice knapsack, solved
 * exactly by GLPK; its optimum is <= 0 (the current choice gives 0), and
 * at 0 the choice is a fixed point. For one job this is Dinkelbach's exact
 * method; for a sum of ratios a fixed point need not be the optimum, and
 * the plain update may cycle (it weighs each job by its worker count, so
 * every job at few workers wants many), so the experiments (smd-F4) and
 * tests compare it with enumeration. The weighted variant (ours [O], the
 * Newton-type step of parametric sum-of-ratios methods) scales job i's
 * term by u_i = 1 / den_i at the current choice, so each term is its
 * ratio's relative change; its fixed points are those of the plain one.
 *
 * Family: alloc (core/alloc/).
 */
#include "smd.h"

#include <math.h>
#include <string.h>

#define MAX_ITERS 50

int sb_smd_dinkelbach(const struct sb_smd_round *rd, const int *run, int weighted, int *choice,
		      double *ratio_sum, int *iters, int *converged, struct sb_err *err)
{
	int n = rd->m.n, nc = rd->m.off[n], i, c, r, it, rc = 0, optimal;
	struct sb_alloc_mmkp q = rd->m;
	int *cur = SB_NEW(int, n + 1), *next = SB_NEW(int, n + 1);
	double used[SB_ALLOC_NRES] = { 0 }, best = INFINITY, big = 1;

	q.cost = SB_NEW(double, nc + 1);
	*iters = *converged = 0;
	for (i = 0; i < n; i++) {
		int b = rd->m.off[i];
		cur[i] = run[i] ? b + 1 : b;
		if (run[i] && b + 1 >= rd->m.off[i + 1]) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "dinkelbach: job %d has no configuration",
					rd->job[i]);
			goto out;
		}
		for (r = 0; r < SB_ALLOC_NRES; r++)
			used[r] += rd->m.dem[cur[i]][r];
		for (c = b; c < rd->m.off[i + 1]; c++)
			big += fabs(rd->m.cost[c]) * (rd->w[c] + 1);
	}
	for (r = 0; r < SB_ALLOC_NRES; r++)
		if (used[r] > rd->m.cap[r] + 1e-9) {
			rc = sb_err_set(err, SB_EXIT_INPUT,
					"dinkelbach: the jobs to run do not fit with one worker and one PS each");
			goto out;
		}
	for (it = 0; it < MAX_ITERS; it++) {
		double sum = 0, f = 0, scale = 1;
		for (i = 0; i < n; i++)
			if (run[i]) {
				sum += rd->m.cost[cur[i]];
				scale += rd->w[cur[i]] * rd->m.cost[cur[i]];
			}
		if (sum < best) {
			best = sum;
			memcpy(choice, cur, sizeof *cur * (size_t)n);
		}
		/* the parametric costs: u w (ratio - beta), idle forbidden for the
		 * jobs to run and the only option for the others */
		for (i = 0; i < n; i++) {
			double beta = rd->m.cost[cur[i]], u = weighted ? 1.0 / rd->w[cur[i]] : 1;
			for (c = rd->m.off[i]; c < rd->m.off[i + 1]; c++)
				q.cost[c] = !run[i] ? (c == rd->m.off[i] ? 0 : big) :
					    c == rd->m.off[i] ? big :
					    u * rd->w[c] * (rd->m.cost[c] - beta);
		}
		if ((rc = sb_alloc_mmkp_choose(&q, cur, next, &optimal, err)))
			goto out;
		*iters = it + 1;
		for (i = 0; i < n; i++)
			f += q.cost[next[i]];
		/* the current choice scores 0: no better one (beyond the MIP's
		 * relative tolerance) is a fixed point */
		if (f > -1e-6 * scale) {
			*converged = 1;
			break;
		}
		memcpy(cur, next, sizeof *cur * (size_t)n);
	}
	if (!*converged) {
		double sum = 0;
		for (i = 0; i < n; i++)
			if (run[i])
				sum += rd->m.cost[cur[i]];
		if (sum < best) {
			best = sum;
			memcpy(choice, cur, sizeof *cur * (size_t)n);
		}
	}
	*ratio_sum = best;
out:
	sb_free(q.cost);
	sb_free(cur);
	sb_free(next);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Exhaustive optimum for tiny instances                               */
/* ------------------------------------------------------------------ */

struct enum_state {
	const struct sb_smd_round *rd;
	const int *run;
	int *cur, *best;
	double used[SB_ALLOC_NRES], sum, best_sum;
	long visited, limit;
};

static void enum_rec(struct enum_state *e, int i)
{
	const struct sb_smd_round *rd = e->rd;
	int c, r;

	if (++e->visited > e->limit)
		return;
	if (i == rd->m.n) {
		if (e->sum < e->best_sum) {
			e->best_sum = e->sum;
			memcpy(e->best, e->cur, sizeof *e->cur * (size_t)rd->m.n);
		}
		return;
	}
	if (!e->run[i]) {
		e->cur[i] = rd->m.off[i];
		enum_rec(e, i + 1);
		return;
	}
	for (c = rd->m.off[i] + 1; c < rd->m.off[i + 1]; c++) {
		for (r = 0; r < SB_ALLOC_NRES; r++)
			if (e->used[r] + rd->m.dem[c][r] > rd->m.cap[r] + 1e-9)
				break;
		if (r < SB_ALLOC_NRES)
			continue;
		for (r = 0; r < SB_ALLOC_NRES; r++)
			e->used[r] += rd->m.dem[c][r];
		e->sum += rd->m.cost[c];
		e->cur[i] = c;
		enum_rec(e, i + 1);
		e->sum -= rd->m.cost[c];
		for (r = 0; r < SB_ALLOC_NRES; r++)
			e->used[r] -= rd->m.dem[c][r];
	}
}

int sb_smd_enumerate(const struct sb_smd_round *rd, const int *run, long limit, int *choice,
		     double *ratio_sum)
{
	struct enum_state e;

	memset(&e, 0, sizeof e);
	e.rd = rd;
	e.run = run;
	e.cur = SB_NEW(int, rd->m.n + 1);
	e.best = choice;
	e.best_sum = INFINITY;
	e.limit = limit;
	enum_rec(&e, 0);
	sb_free(e.cur);
	*ratio_sum = e.best_sum;
	if (e.visited > limit)
		return -1;
	return isfinite(e.best_sum) ? 0 : 1;
}
