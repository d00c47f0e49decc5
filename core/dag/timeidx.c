/*
 * timeidx.c - the time-indexed model of spec tfpart.md §10.4 (identical
 * processors, free communication; our design [O], see bound.h).
 */
#include "boundutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* §10.4 time-indexed P|prec|Cmax                                      */
/* ------------------------------------------------------------------ */

int sb_dag_time_indexed(const struct sb_dag_inst *in, int nproc, int horizon,
			const struct sb_dag_milp_opts *o, struct sb_lp_result *res,
			struct sb_err *err)
{
	const struct sb_dag *g = &in->g;
	int n = g->n, v, t, k, rc = 0, T;
	int *p = SB_NEW(int, n), *first = SB_NEW(int, n + 1), *est = SB_NEW(int, n),
	    *lst = SB_NEW(int, n);
	double *w = SB_NEW(double, n), *head = SB_NEW(double, n), *tail = SB_NEW(double, n);
	double total = 0, cp;
	struct sb_lp *lp = NULL;
	int *ri = NULL, cc, ncap = 0, nn;
	double *rv = NULL, t0 = sb_now(), l0 = sb_lp_now();
	char name[64];

	memset(res, 0, sizeof *res);
	if (nproc < 1) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "time-indexed model: %d processors", nproc);
		goto out;
	}
	for (v = 0; v < n; v++) {
		double r = nearbyint(g->ops[v]);
		if (fabs(g->ops[v] - r) > 1e-9 || r < 0 || r > 1e7) {
			rc = sb_err_set(err, SB_EXIT_INPUT,
					"time-indexed model: op %ld: duration %g is not a "
					"small non-negative integer", g->ext_id[v], g->ops[v]);
			goto out;
		}
		p[v] = (int)r;
		w[v] = r;
		total += r;
	}
	if (horizon <= 0)
		horizon = (int)total;
	T = horizon;
	cp = sb_dag_bnd_heads_tails(g, w, head, tail);
	if (cp > T) {
		sb_dag_bnd_infeasible(res);
		goto out;
	}
	if ((double)n * (T + 1) > 2e6) {
		rc = sb_err_set(err, SB_EXIT_INPUT,
				"time-indexed model too large (%d ops x horizon %d)", n, T);
		goto out;
	}
	lp = sb_lp_new("p-prec-cmax", 1);
	{
		struct sb_lp_params par = sb_dag_bnd_lp_params;
		par.node_limit = o ? o->node_limit : 0;
		par.iter_limit = o ? o->iter_limit : 0;
		sb_lp_set_params(lp, &par);
	}
	cc = sb_lp_add_col(lp, "C", SB_LP_CONT,
			   sb_max(cp, ceil(total / nproc - 1e-9)), T, 1);
	/* x_{v,t} = 1: v starts at t, t in [head, T - p - tail] */
	for (v = 0; v < n; v++) {
		est[v] = (int)head[v];
		lst[v] = T - p[v] - (int)tail[v];
		first[v] = sb_lp_ncols(lp);
		for (t = est[v]; t <= lst[v]; t++) {
			snprintf(name, sizeof name, "x_%d_%d", v, t);
			sb_lp_add_col(lp, name, SB_LP_BIN, 0, 1, 0);
		}
	}
	first[n] = sb_lp_ncols(lp);
	ncap = n * (T + 2) + 2;
	ri = SB_NEW(int, ncap);
	rv = SB_NEW(double, ncap);
	for (v = 0; v < n; v++) {
		nn = 0;
		for (t = est[v]; t <= lst[v]; t++) {
			ri[nn] = first[v] + t - est[v];
			rv[nn++] = 1;
		}
		snprintf(name, sizeof name, "once_%d", v);
		sb_lp_add_row(lp, name, 1, 1, nn, ri, rv);
		/* C >= Σ (t + p_v) x_{v,t} (sinks; the others follow) */
		if (g->succ_off[v + 1] == g->succ_off[v]) {
			nn = 0;
			ri[nn] = cc;
			rv[nn++] = 1;
			for (t = est[v]; t <= lst[v]; t++) {
				ri[nn] = first[v] + t - est[v];
				rv[nn++] = -(double)(t + p[v]);
			}
			snprintf(name, sizeof name, "cmax_%d", v);
			sb_lp_add_row(lp, name, 0, SB_LP_INF, nn, ri, rv);
		}
	}
	/* at most nproc ops running in [t, t+1) */
	for (t = 0; t < T; t++) {
		nn = 0;
		for (v = 0; v < n; v++) {
			int a = t - p[v] + 1, b = t;
			if (a < est[v])
				a = est[v];
			if (b > lst[v])
				b = lst[v];
			for (k = a; k <= b; k++) {
				ri[nn] = first[v] + k - est[v];
				rv[nn++] = 1;
			}
		}
		if (nn > nproc) {
			snprintf(name, sizeof name, "cap_%d", t);
			sb_lp_add_row(lp, name, -SB_LP_INF, nproc, nn, ri, rv);
		}
	}
	/* Σ t x_{w,t} >= Σ t x_{v,t} + p_v */
	for (v = 0; v < n; v++)
		for (k = g->succ_off[v]; k < g->succ_off[v + 1]; k++) {
			int wv = g->succ[k];
			nn = 0;
			for (t = est[wv]; t <= lst[wv]; t++) {
				ri[nn] = first[wv] + t - est[wv];
				rv[nn++] = t;
			}
			for (t = est[v]; t <= lst[v]; t++) {
				ri[nn] = first[v] + t - est[v];
				rv[nn++] = -t;
			}
			snprintf(name, sizeof name, "prec_%d_%d", v, wv);
			sb_lp_add_row(lp, name, p[v], SB_LP_INF, nn, ri, rv);
		}
	/* the time limit covers building the model too */
	rc = sb_lp_solve(lp, 0, sb_max((o && o->time_limit > 0 ? o->time_limit : 60) -
				       (sb_lp_now() - l0), 1e-3),
			 o ? o->mip_gap : 0, res, err);
	res->seconds = sb_now() - t0;
	if (rc)
		sb_err_prefix(err, "time-indexed model of '%s': ", in->name ? in->name : "");
	else
		sb_dag_bnd_floor(res, sb_max(cp, ceil(total / nproc - 1e-9)));
out:
	sb_lp_free(lp);
	sb_free(p); sb_free(first); sb_free(est); sb_free(lst);
	sb_free(w); sb_free(head); sb_free(tail);
	sb_free(ri); sb_free(rv);
	return rc;
}

