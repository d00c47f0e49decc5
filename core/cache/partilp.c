/*
 * partilp.c - the partition ILP of spec bgl.md §10.3 [O] on tiny graphs
 * (n <= 40, P <= 4), solved by GLPK through core/lp.h with a node limit
 * (deterministic: the answer does not depend on the machine's load).
 *
 *   y[v,p] in {0,1}, sum_p y[v,p] = 1,
 *   sum_v y[v,p] <= ceil((1+eps) n / P), the same for training nodes,
 *   z[a,b] >= y[a,p] - y[b,p] for every p (z = 1 iff a, b are apart),
 *   objective A: sum over edges of z; objective B: sum over pairs of
 *   (f[a,b] + f[b,a]) z[a,b], f the expected expansions of part.h (so B
 *   is the expected remote sampling requests of a non-replicating
 *   partition, exactly the metric remote_expand).
 *
 * Symmetry: machines are interchangeable, so node v may only use machines
 * 0..v (number machines by their smallest node); without it GLPK spends
 * its nodes on P! copies of every partition.
 */
#include "cache/part.h"
#include "lp.h"

#include <stdio.h>
#include <string.h>

#define MAX_N 40
#define MAX_P 4

void sb_cache_part_ilp_release(struct sb_cache_part_ilp *r)
{
	sb_free(r->part);
	r->part = NULL;
}

double *sb_cache_part_expansions(const struct sb_cache_graph *g, const uint8_t *train,
				 const struct sb_cache_sampler *fan)
{
	size_t n = (size_t)g->n;
	double *f = sb_calloc(n * n, sizeof *f), *x = sb_malloc(sizeof *x * n);
	double *y = sb_malloc(sizeof *y * n);
	int32_t s, u;
	int h;

	if (!f || !x || !y) {
		sb_free(f);
		f = NULL;
		goto out;
	}
	for (s = 0; s < g->n; s++) {
		if (!train[s])
			continue;
		memset(x, 0, sizeof *x * n);
		x[s] = 1;
		for (h = 0; h < fan->nlayers; h++) {
			for (u = 0; u < g->n; u++)
				f[(size_t)s * n + u] += x[u];
			if (h + 1 < fan->nlayers) {
				sb_cache_walk_step(g, fan->fanout[h], x, y);
				memcpy(x, y, sizeof *x * n);
			}
		}
	}
out:
	sb_free(x);
	sb_free(y);
	return f;
}

int sb_cache_part_ilp_feasible(const struct sb_cache_graph *g, const uint8_t *train,
			       const int32_t *part, int P, double eps)
{
	int64_t cnt[SB_CACHE_PART_MAX] = { 0 }, tr[SB_CACHE_PART_MAX] = { 0 }, ntrain = 0;
	int32_t v;
	int q;

	for (v = 0; v < g->n; v++) {
		cnt[part[v]]++;
		tr[part[v]] += train[v] != 0;
		ntrain += train[v] != 0;
	}
	for (q = 0; q < P; q++)
		if (cnt[q] > sb_cache_part_cap(g->n, P, eps) ||
		    tr[q] > sb_cache_part_cap(ntrain, P, eps))
			return 0;
	return 1;
}

int sb_cache_part_ilp(const struct sb_cache_graph *g, const uint8_t *train, int P, double eps,
		      int obj, const struct sb_cache_sampler *fan, long node_limit,
		      const int32_t *warm, struct sb_cache_part_ilp *r, struct sb_err *err)
{
	int32_t n = g->n, a, b;
	int y[MAX_N][MAX_P], npair = 0, q, rc = 0;
	int pa[MAX_N * MAX_N], pb[MAX_N * MAX_N], pz[MAX_N * MAX_N];
	double coef[MAX_N * MAX_N], *f = NULL, *x0 = NULL;
	int64_t ntrain = 0;
	struct sb_lp *lp = NULL;
	struct sb_lp_result res = { 0 };
	struct sb_lp_params prm = { 0 };

	memset(r, 0, sizeof *r);
	if (n > MAX_N || P > MAX_P || P < 1)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "partition ILP: %d nodes and %d machines, at most %d and %d", n, P,
				  MAX_N, MAX_P);
	if (obj == SB_CACHE_PART_TRAFFIC && !(f = sb_cache_part_expansions(g, train, fan)))
		return sb_err_set(err, SB_EXIT_RUN, "partition ILP: out of memory");
	/* the pairs that carry cost: edges (A) or pairs with expansions (B) */
	for (a = 0; a < n; a++)
		for (b = a + 1; b < n; b++) {
			double c = 0;
			if (obj == SB_CACHE_PART_CUT) {
				int64_t e;
				for (e = g->off[a]; e < g->off[a + 1]; e++)
					c += g->adj[e] == b;
			} else {
				c = f[(size_t)a * n + b] + f[(size_t)b * n + a];
			}
			if (c > 0) {
				pa[npair] = a;
				pb[npair] = b;
				coef[npair++] = c;
			}
		}
	lp = sb_lp_new(obj == SB_CACHE_PART_CUT ? "part-cut" : "part-traffic", 1);
	for (a = 0; a < n; a++) {
		ntrain += train[a] != 0;
		for (q = 0; q < P; q++)
			y[a][q] = sb_lp_add_col(lp, "y", SB_LP_BIN, 0, q <= a ? 1 : 0, 0);
	}
	for (b = 0; b < npair; b++)
		pz[b] = sb_lp_add_col(lp, "z", SB_LP_CONT, 0, 1, coef[b]);
	for (a = 0; a < n; a++) {
		double one[MAX_P] = { 1, 1, 1, 1 };
		sb_lp_add_row(lp, "assign", 1, 1, P, y[a], one);
	}
	for (q = 0; q < P; q++) {
		int cols[MAX_N], nc = 0, tc[MAX_N], nt = 0;
		double ones[MAX_N];
		for (a = 0; a < n; a++) {
			ones[a] = 1;
			cols[nc++] = y[a][q];
			if (train[a])
				tc[nt++] = y[a][q];
		}
		sb_lp_add_row(lp, "nodes", -SB_LP_INF, (double)sb_cache_part_cap(n, P, eps), nc, cols,
			      ones);
		if (nt)
			sb_lp_add_row(lp, "train", -SB_LP_INF,
				      (double)sb_cache_part_cap(ntrain, P, eps), nt, tc, ones);
	}
	for (b = 0; b < npair; b++)
		for (q = 0; q < P; q++) {
			int cols[3] = { pz[b], y[pa[b]][q], y[pb[b]][q] };
			double vals[3] = { 1, -1, 1 };
			sb_lp_add_row(lp, "apart", 0, SB_LP_INF, 3, cols, vals);
		}
	if (warm) {
		/* renumber machines by first appearance, as the symmetry rows want */
		int map[SB_CACHE_PART_MAX], next = 0;
		for (q = 0; q < SB_CACHE_PART_MAX; q++)
			map[q] = -1;
		x0 = sb_calloc((size_t)sb_lp_ncols(lp), sizeof *x0);
		if (x0) {
			for (a = 0; a < n; a++) {
				if (warm[a] < 0 || warm[a] >= P)
					break;
				if (map[warm[a]] < 0)
					map[warm[a]] = next++;
				x0[y[a][map[warm[a]]]] = 1;
			}
			for (b = 0; b < npair && a == n; b++)
				x0[pz[b]] = map[warm[pa[b]]] != map[warm[pb[b]]];
			if (a == n)
				sb_lp_set_incumbent(lp, x0);
		}
	}
	prm.node_limit = node_limit;
	sb_lp_set_params(lp, &prm);
	/* the wall-clock limit is only a safety net: a solve it stops depends on
	 * the machine's load, so it fails the run instead of being stored */
	if ((rc = sb_lp_solve(lp, 0, 600, 0, &res, err)))
		goto out;
	if (res.stopped == SB_LP_STOP_TIME) {
		rc = sb_err_set(err, SB_EXIT_RUN, "partition ILP (%d nodes, P = %d) reached its "
				"600 s safety limit before its node limit; lower node_limit", n, P);
		goto out;
	}
	r->status = res.status;
	r->stopped = res.stopped;
	r->obj = res.obj;
	r->bound = res.bound;
	r->nodes = res.nodes;
	if (res.x && (r->part = sb_malloc(sizeof *r->part * (size_t)n)))
		for (a = 0; a < n; a++)
			for (q = 0; q < P; q++)
				if (res.x[y[a][q]] > 0.5)
					r->part[a] = q;
out:
	sb_lp_result_release(&res);
	sb_lp_free(lp);
	sb_free(f);
	sb_free(x0);
	return rc;
}
