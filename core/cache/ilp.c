/*
 * ilp.c - the caching ILP of spec bgl.md §10.1 [O], batched: on one tiny
 * stream, x[v,t] = 1 when node v is held after batch t; at most C held;
 * a node may enter only in a batch that requests it; a request of v in
 * batch t hits when x[v,t-1] = 1. Maximising hits gives the optimum of
 * every policy that may bypass, so it must equal Belady's MIN with bypass
 * (tests/cache). The LP relaxation is integral for unit sizes (interval
 * structure), so GLPK finishes quickly; a node limit keeps the stored
 * answer independent of machine load. warm = 1 lets the initial content
 * be any C nodes (the bound for pre-filled static caches).
 */
#include "cache.h"

#include "lp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sb_cache_ilp(const int32_t *req, const int32_t *bat, int64_t n, int64_t nloc, int64_t C,
		 int warm, long node_limit, int64_t *hits, int *status, struct sb_err *err)
{
	int64_t i, T = 0, t, v;
	int32_t *tb, *col;
	int *cols;
	double *vals, *w;
	unsigned char *asked;
	struct sb_lp *lp;
	struct sb_lp_result res = { 0 };
	struct sb_lp_params prm = { 0 };
	int rc;

	if (nloc * (n > 0 ? n : 1) > 4000000)
		return sb_err_set(err, SB_EXIT_INPUT, "cache ILP: %lld nodes x %lld requests is "
				  "too large for an exact solve", (long long)nloc, (long long)n);
	tb = SB_NEW(int32_t, n + 1);
	for (i = 0; i < n; i++) {
		if (i > 0 && bat[i] != bat[i - 1])
			T++;
		tb[i] = (int32_t)T;
	}
	T = n > 0 ? T + 1 : 1;
	/* column x[v,t]: v held before batch t (t = 0 is the initial content) */
	col = SB_NEW(int32_t, nloc * T);
	asked = SB_NEW(unsigned char, nloc * T);
	w = SB_NEW(double, nloc * T);
	cols = SB_NEW(int, nloc + 2);
	vals = SB_NEW(double, nloc + 2);
	for (i = 0; i < n; i++) {
		asked[(int64_t)req[i] * T + tb[i]] = 1;
		/* a request of v in batch t hits when x[v,t] = 1 */
		w[(int64_t)req[i] * T + tb[i]] += 1;
	}
	lp = sb_lp_new("cache", 0);
	for (v = 0; v < nloc; v++)
		for (t = 0; t < T; t++) {
			char name[48];
			snprintf(name, sizeof name, "x_%lld_%lld", (long long)v, (long long)t);
			col[v * T + t] = sb_lp_add_col(lp, name, SB_LP_BIN, 0,
						       t == 0 && !warm ? 0 : 1, w[v * T + t]);
		}
	for (t = 0; t < T; t++) {
		char name[48];
		for (v = 0; v < nloc; v++) {
			cols[v] = col[v * T + t];
			vals[v] = 1;
		}
		snprintf(name, sizeof name, "cap_%lld", (long long)t);
		sb_lp_add_row(lp, name, -SB_LP_INF, (double)C, (int)nloc, cols, vals);
		if (t == 0)
			continue;
		/* a node enters only in a batch that requested it */
		for (v = 0; v < nloc; v++) {
			cols[0] = col[v * T + t];
			vals[0] = 1;
			cols[1] = col[v * T + t - 1];
			vals[1] = -1;
			snprintf(name, sizeof name, "enter_%lld_%lld", (long long)v, (long long)t);
			sb_lp_add_row(lp, name, -SB_LP_INF, asked[v * T + t - 1] ? 1 : 0, 2, cols, vals);
		}
	}
	prm.node_limit = node_limit;
	sb_lp_set_params(lp, &prm);
	rc = sb_lp_solve(lp, 0, 120, 0, &res, err);
	/* the wall-clock limit is only a safety net: never a load-dependent answer */
	if (!rc && res.stopped == SB_LP_STOP_TIME)
		rc = sb_err_set(err, SB_EXIT_RUN, "cache ILP reached its 120 s safety limit before "
				"its node limit; lower the node limit");
	if (!rc) {
		*status = res.status;
		*hits = res.status <= SB_LP_FEASIBLE ? (int64_t)(res.obj + 0.5) : -1;
	}
	sb_lp_result_release(&res);
	sb_lp_free(lp);
	sb_free(tb);
	sb_free(col);
	sb_free(asked);
	sb_free(w);
	sb_free(cols);
	sb_free(vals);
	return rc;
}
