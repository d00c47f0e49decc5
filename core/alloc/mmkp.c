/*
 * mmkp.c - SMD's per-round multiple-choice multi-dimensional knapsack
 * (smd.md §2) solved exactly by dynamic programming over the lattice of
 * resources used. Ours [O].
 *
 * A round picks one configuration per item and keeps the summed demand
 * within capacity, at least total cost. When every demand is a whole
 * multiple of a unit per resource (SMD's PS rounds: GPUs in quarters of
 * DL2's four slots, CPUs in whole cores), the demand sums live on a
 * lattice of at most (cap_gpu/u + 1) x (cap_cpu/u + 1) points, and a
 * forward DP over items gives the optimum in O(points x configurations),
 * with no search and no limit: 40 GPUs and 120 CPUs are 41 x 61 points.
 * GLPK's branch and bound on the same ILP ran into its 3,000-node limit
 * on most rounds of a 5-server, 100-job instance, at 2-19 s each; the DP
 * takes milliseconds there and proves the optimum.
 *
 * States whose cost plus the least cost of the items still to come
 * exceeds the caller's feasible start choice cannot lead to a better
 * choice and are dropped; ties keep the first state and configuration
 * in index order, so the result is deterministic. A round off the
 * lattice, or too large for the DP's memory cap, is left to the caller
 * (GLPK's ILP): the DP never approximates.
 */
#include "bound.h"

#include <math.h>
#include <string.h>

#define LATTICE_SCALE 4.0        /* demands tried as multiples of 1/4 */
#define DP_MAX_CELLS (1L << 26)  /* items x lattice points kept for the trace back */

static long gcd_l(long a, long b)
{
	while (b) {
		long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Demand d as whole quarters in *q; 0 when it is not one. */
static int quarters(double d, long *q)
{
	double s = d * LATTICE_SCALE, r = floor(s + 0.5);
	if (!(d >= 0) || d > 1e12 || fabs(s - r) > 1e-9 * (1 + fabs(s)))
		return 0;
	*q = (long)r;
	return 1;
}

int sb_alloc_mmkp_dp(const struct sb_alloc_mmkp *m, const int *start, int *choice,
		     double *cost)
{
	int nc = m->off[m->n], c, i, r, rc = 0;
	long unit[SB_ALLOC_NRES], lev[SB_ALLOC_NRES], stride[SB_ALLOC_NRES], npt = 1, q;
	long *dl = NULL, *dk = NULL, s;
	int *from = NULL;
	double *dp = NULL, *nx = NULL, *tail = NULL, limit = 0;

	/* the lattice: per resource the gcd of the demands, in quarters */
	for (r = 0; r < SB_ALLOC_NRES; r++) {
		unit[r] = 0;
		for (c = 0; c < nc; c++) {
			if (!quarters(m->dem[c][r], &q))
				return 0;
			unit[r] = gcd_l(unit[r], q);
		}
		if (!unit[r])
			unit[r] = 1;   /* no item uses it: one level */
		if (!(m->cap[r] >= 0))
			return 0;
		lev[r] = (long)floor(m->cap[r] * LATTICE_SCALE / unit[r] + 1e-9);
		if (lev[r] > DP_MAX_CELLS)
			return 0;
		stride[r] = npt;
		npt *= lev[r] + 1;
		if (npt > DP_MAX_CELLS)
			return 0;
	}
	if ((long)m->n * npt > DP_MAX_CELLS)
		return 0;
	for (limit = 0, i = 0; i < m->n; i++)
		limit += m->cost[start[i]];

	/* each configuration's offset on the lattice; -1: over capacity alone */
	dl = SB_NEW(long, nc + 1);
	dk = SB_NEW(long, (size_t)nc * SB_ALLOC_NRES + 1);
	for (c = 0; c < nc; c++) {
		dl[c] = 0;
		for (r = 0; r < SB_ALLOC_NRES; r++) {
			long *k = &dk[(size_t)c * SB_ALLOC_NRES + r];
			quarters(m->dem[c][r], k);
			*k /= unit[r];
			if (*k > lev[r])
				dl[c] = -1;
			else if (dl[c] >= 0)
				dl[c] += *k * stride[r];
		}
	}
	/* tail[i]: the least cost items i.. can add, whatever they use */
	tail = SB_NEW(double, m->n + 1);
	tail[m->n] = 0;
	for (i = m->n - 1; i >= 0; i--) {
		double lo = INFINITY;
		for (c = m->off[i]; c < m->off[i + 1]; c++)
			if (dl[c] >= 0 && m->cost[c] < lo)
				lo = m->cost[c];
		tail[i] = tail[i + 1] + lo;
	}
	dp = SB_NEW(double, npt);
	nx = SB_NEW(double, npt);
	from = SB_NEW(int, (size_t)m->n * npt);
	for (s = 0; s < npt; s++)
		dp[s] = INFINITY;
	dp[0] = 0;
	/* a little slack so that the start choice itself survives rounding */
	limit += 1e-9 * (1 + fabs(limit));
	for (i = 0; i < m->n; i++) {
		int *fr = from + (size_t)i * npt;
		for (s = 0; s < npt; s++)
			nx[s] = INFINITY;
		for (s = 0; s < npt; s++) {
			long u[SB_ALLOC_NRES], rest = s;
			if (dp[s] == INFINITY)
				continue;
			for (r = SB_ALLOC_NRES - 1; r >= 0; r--) {
				u[r] = rest / stride[r];
				rest %= stride[r];
			}
			for (c = m->off[i]; c < m->off[i + 1]; c++) {
				long t = s + dl[c];
				double v = dp[s] + m->cost[c];
				const long *k = &dk[(size_t)c * SB_ALLOC_NRES];
				int fits = dl[c] >= 0;
				for (r = 0; r < SB_ALLOC_NRES && fits; r++)
					fits = u[r] + k[r] <= lev[r];
				if (!fits || v + tail[i + 1] > limit || !(v < nx[t]))
					continue;
				nx[t] = v;
				fr[t] = c;
			}
		}
		memcpy(dp, nx, sizeof *dp * (size_t)npt);
	}
	{
		long best = -1;
		for (s = 0; s < npt; s++)
			if (dp[s] < INFINITY && (best < 0 || dp[s] < dp[best]))
				best = s;
		/* the start choice is feasible and within the limit, so some
		 * state survives */
		SB_ASSERT(best >= 0);
		*cost = dp[best];
		for (i = m->n - 1; i >= 0; i--) {
			c = from[(size_t)i * npt + best];
			choice[i] = c;
			best -= dl[c];
		}
		SB_ASSERT(best == 0);
	}
	rc = 1;
	sb_free(dl);
	sb_free(dk);
	sb_free(tail);
	sb_free(dp);
	sb_free(nx);
	sb_free(from);
	return rc;
}
