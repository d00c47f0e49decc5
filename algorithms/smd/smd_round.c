/*
 * smd_round.c - one round of SMD (alloc family), reconstructed [R] from
 * smd.md §2-3: M. Yu, C. Wu, B. Ji, J. Liu, "A Sum-of-Ratios Multi-
 * Dimensional-Knapsack Decomposition for DNN Resource Scheduling", IEEE
 * INFOCOM 2021 (abstract only: sum-of-ratios + multi-dimensional knapsack
 * decomposition, layered model, PS architecture [V]; inner allocation and
 * outer job selection [3P]).
 *
 * Each queued job's configurations (w workers, p <= w PSs) are enumerated,
 * which solves the sum-of-ratios inner problem exactly per job (smd.md §3
 * "exact alternative"): its cost is the completion time
 * (remaining / (w / tau(w, p))) at that configuration. The coupling
 * capacity rows are priced by Lagrangian multipliers updated by
 * subgradient steps; the outer multi-dimensional knapsack selection then
 * admits jobs greedily by time saved over waiting per normalised weight of
 * the chosen configuration, falling back to the best cheaper one that
 * fits. The best feasible selection over the iterations is kept.
 *
 * Family: alloc (core/alloc/).
 */
#include "smd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUBGRAD_ITERS 30

void sb_smd_round_release(struct sb_smd_round *rd)
{
	sb_free(rd->m.off);
	sb_free(rd->m.cost);
	sb_free(rd->m.dem);
	sb_free(rd->job);
	sb_free(rd->w);
	sb_free(rd->p);
	memset(rd, 0, sizeof *rd);
}

void sb_smd_round_build(struct sb_smd_round *rd, const struct sb_alloc_inst *in,
			const int *jobs, int n, const double *rem, int layered)
{
	int i, c, w, p, nc = 0, s, r;

	memset(rd, 0, sizeof *rd);
	for (i = 0; i < n; i++) {
		const struct sb_alloc_job *jb = &in->job[jobs[i]];
		for (w = 1; w <= jb->max_workers; w++)
			nc += jb->max_ps < w ? jb->max_ps : w;
		nc++;
	}
	rd->m.n = n;
	rd->m.off = SB_NEW(int, n + 1);
	rd->m.cost = SB_NEW(double, nc + 1);
	rd->m.dem = sb_xcalloc((size_t)nc + 1, sizeof *rd->m.dem);
	rd->job = SB_NEW(int, n + 1);
	rd->w = SB_NEW(int, nc + 1);
	rd->p = SB_NEW(int, nc + 1);
	for (s = 0; s < in->nserver; s++)
		for (r = 0; r < SB_ALLOC_NRES; r++)
			rd->m.cap[r] += in->cap[s][r];
	for (i = c = 0; i < n; i++) {
		int j = jobs[i], c0 = c;
		const struct sb_alloc_job *jb = &in->job[j];
		double best = INFINITY;
		rd->job[i] = j;
		rd->m.off[i] = c++;   /* idle, cost filled below */
		for (w = 1; w <= jb->max_workers; w++)
			for (p = 1; p <= jb->max_ps && p <= w; p++) {
				double rate = in->slot_s * w / sb_alloc_tau(jb, w, p, 0, layered);
				rd->m.cost[c] = rem[j] / rate * in->slot_s;
				best = sb_min(best, rd->m.cost[c]);
				for (r = 0; r < SB_ALLOC_NRES; r++)
					rd->m.dem[c][r] = w * jb->wdem[r] + p * jb->pdem[r];
				rd->w[c] = w;
				rd->p[c] = p;
				c++;
			}
		rd->m.cost[c0] = in->slot_s + best;
	}
	rd->m.off[n] = c;
}

static double nweight(const struct sb_smd_round *rd, int c)
{
	double x = 0;
	int r;
	for (r = 0; r < SB_ALLOC_NRES; r++)
		if (rd->m.cap[r] > 0)
			x += rd->m.dem[c][r] / rd->m.cap[r];
	return x;
}

static int fits(const struct sb_smd_round *rd, const double *used, int c)
{
	int r;
	for (r = 0; r < SB_ALLOC_NRES; r++)
		if (used[r] + rd->m.dem[c][r] > rd->m.cap[r] + 1e-9)
			return 0;
	return 1;
}

static const double *sort_key;

static int by_key_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	if (sort_key[x] != sort_key[y])
		return sort_key[x] > sort_key[y] ? -1 : 1;
	return x - y;
}

/* Outer selection: items by saving per weight of want[i]; each admitted
 * with the best configuration no costlier in weight that still fits. */
static double select_greedy(const struct sb_smd_round *rd, const int *want, int *choice)
{
	int n = rd->m.n, i, k, c;
	int *ord = SB_NEW(int, n + 1);
	double *key = SB_NEW(double, n + 1), used[SB_ALLOC_NRES] = { 0 }, total = 0;

	for (i = 0; i < n; i++) {
		int c0 = rd->m.off[i];
		double wgt = nweight(rd, want[i]);
		ord[i] = i;
		key[i] = want[i] == c0 ? -INFINITY : (rd->m.cost[c0] - rd->m.cost[want[i]]) /
						       (wgt > 0 ? wgt : 1e-12);
	}
	sort_key = key;
	qsort(ord, (size_t)n, sizeof *ord, by_key_desc);
	sort_key = NULL;
	for (k = 0; k < n; k++) {
		int it = ord[k], best = rd->m.off[it];
		double lim = nweight(rd, want[it]) + 1e-12;
		for (c = rd->m.off[it] + 1; c < rd->m.off[it + 1]; c++)
			if (nweight(rd, c) <= lim && fits(rd, used, c) &&
			    rd->m.cost[c] < rd->m.cost[best])
				best = c;
		choice[it] = best;
		for (i = 0; i < SB_ALLOC_NRES; i++)
			used[i] += rd->m.dem[best][i];
		total += rd->m.cost[best];
	}
	sb_free(ord);
	sb_free(key);
	return total;
}

double sb_smd_round_solve(const struct sb_smd_round *rd, int *choice)
{
	int n = rd->m.n, it, i, c, r;
	int *want = SB_NEW(int, n + 1), *cand = SB_NEW(int, n + 1);
	double lam[SB_ALLOC_NRES] = { 0 }, best = INFINITY, scale = 0;

	for (i = 0; i < n; i++)
		scale = sb_max(scale, rd->m.cost[rd->m.off[i]]);
	for (it = 0; it < SUBGRAD_ITERS; it++) {
		double used[SB_ALLOC_NRES] = { 0 }, v;
		/* inner: each job's best configuration under the prices */
		for (i = 0; i < n; i++) {
			int b = rd->m.off[i];
			double bv = INFINITY;
			for (c = rd->m.off[i]; c < rd->m.off[i + 1]; c++) {
				double x = rd->m.cost[c];
				for (r = 0; r < SB_ALLOC_NRES; r++)
					if (rd->m.cap[r] > 0)
						x += lam[r] * rd->m.dem[c][r] / rd->m.cap[r];
				if (x < bv) {
					bv = x;
					b = c;
				}
			}
			want[i] = b;
			for (r = 0; r < SB_ALLOC_NRES; r++)
				used[r] += rd->m.dem[b][r];
		}
		v = select_greedy(rd, want, cand);
		if (v < best) {
			best = v;
			memcpy(choice, cand, sizeof *choice * (size_t)n);
		}
		/* subgradient on the normalised capacity rows */
		for (r = 0; r < SB_ALLOC_NRES; r++)
			if (rd->m.cap[r] > 0)
				lam[r] = sb_max(0, lam[r] + scale / (it + 1) *
							    (used[r] / rd->m.cap[r] - 1));
	}
	if (!n)
		best = 0;
	sb_free(want);
	sb_free(cand);
	return best;
}

int sb_smd_round_solve_lp(const struct sb_smd_round *rd, int *choice, double *total,
			  struct sb_err *err)
{
	int n = rd->m.n, nc = rd->m.off[n], i, c, rc = 0;
	double *x = SB_NEW(double, nc + 1), obj;
	int *want = SB_NEW(int, n + 1);

	*total = 0;
	if (!n)
		goto out;
	if ((rc = sb_alloc_mmkp_lp(&rd->m, x, &obj, err)))
		goto out;
	/* each job's configuration of largest LP weight (the LP is integral
	 * but for at most one job per capacity row); ties to the cheaper */
	for (i = 0; i < n; i++) {
		int b = rd->m.off[i];
		for (c = b + 1; c < rd->m.off[i + 1]; c++)
			if (x[c] > x[b] + 1e-9 || (x[c] > x[b] - 1e-9 && rd->m.cost[c] < rd->m.cost[b]))
				b = c;
		want[i] = b;
	}
	*total = select_greedy(rd, want, choice);
out:
	sb_free(x);
	sb_free(want);
	return rc;
}
