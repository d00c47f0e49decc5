/*
 * ilp.c - the optimal SBP assignment as an ILP (spec oneflow.md §9, ours
 * [O]): binaries x[o,s] (op o uses signature s), one per op summing to 1,
 * and per edge a flow-style linearisation of the product of its two ends.
 * Signatures that give the producer the same output SBP (or the consumer
 * the same input SBP on that edge) cost the same on the edge, so the edge
 * variables are indexed by those classes: y[e,a,b] >= 0 continuous,
 *     sum_b y[e,a,b] = sum_{s: out_u(s) = a} x[u,s]
 *     sum_a y[e,a,b] = sum_{s: in_v(s) = b} x[v,s]
 * which, for integral x, forces y to the one pair in use (an exact and
 * much tighter model than y >= x + x - 1). Pairs whose boxing is not
 * supported get no column. Objective: sum of node costs (cost_ratio x
 * FLOPs) and boxing bytes. An optional row bounds the per-device memory.
 */
#include "lp.h"
#include "sbp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* classes of the SBPs on one end of an edge: cls[s] for every signature
 * of op o, representatives rep[] (nd-SBPs), returns the count */
static int classes(const struct sb_sbp_graph *g, int o, int slot, int *cls,
		   struct sb_sbp_nd *rep)
{
	int s, c, n = 0;
	for (s = 0; s < g->op[o].nsig; s++) {
		const struct sb_sbp_nd *x = slot < 0 ? &g->op[o].sig[s].out : &g->op[o].sig[s].in[slot];
		for (c = 0; c < n && !sb_sbp_nd_eq(&rep[c], x, g->pl.ndim); c++)
			;
		if (c == n)
			rep[n++] = *x;
		cls[s] = c;
	}
	return n;
}

int sb_sbp_ilp(const struct sb_sbp_graph *g, const struct sb_sbp_ilp_opts *io, int *sig,
	       struct sb_sbp_ilp_result *res, struct sb_err *err)
{
	struct sb_lp *lp = sb_lp_new("sbp", 1);
	int *xcol = SB_NEW(int, g->nop + 1), o, s, e, rc = 0, maxs = 1, ncols;
	int *cu = SB_NEW(int, SB_SBP_MAXSIG), *cv = SB_NEW(int, SB_SBP_MAXSIG);
	struct sb_sbp_nd *ru = SB_NEW(struct sb_sbp_nd, SB_SBP_MAXSIG);
	struct sb_sbp_nd *rv = SB_NEW(struct sb_sbp_nd, SB_SBP_MAXSIG);
	int *cols = NULL;
	double *vals = NULL, *start = NULL;
	int *ycol = NULL;   /* per edge: the first y column; y[a*nb+b] or -1 */
	int *ymap = NULL, ny = 0, ymcap = 0;
	struct sb_lp_result r;
	struct sb_lp_params par;

	memset(res, 0, sizeof *res);
	memset(&r, 0, sizeof r);
	for (o = 0; o < g->nop; o++)
		if (g->op[o].nsig > maxs)
			maxs = g->op[o].nsig;
	cols = SB_NEW(int, 2 * SB_SBP_MAXSIG + g->nop * maxs + 1);
	vals = SB_NEW(double, 2 * SB_SBP_MAXSIG + g->nop * maxs + 1);
	for (o = 0; o < g->nop; o++) {
		char nm[64];
		xcol[o] = sb_lp_ncols(lp);
		for (s = 0; s < g->op[o].nsig; s++) {
			snprintf(nm, sizeof nm, "x_%d_%d", o, s);
			sb_lp_add_col(lp, nm, SB_LP_BIN, 0, 1, sb_sbp_node_cost(g, o, s));
			cols[s] = xcol[o] + s;
			vals[s] = 1;
		}
		sb_lp_add_row(lp, "one", 1, 1, g->op[o].nsig, cols, vals);
	}
	xcol[g->nop] = sb_lp_ncols(lp);
	ycol = SB_NEW(int, g->nedge + 1);
	for (e = 0; e < g->nedge; e++) {
		const struct sb_sbp_edge *ed = &g->edge[e];
		int na = classes(g, ed->u, -1, cu, ru), nb = classes(g, ed->v, ed->slot, cv, rv);
		int a, b, n;
		ycol[e] = ny;
		if (ymcap < ny + na * nb) {
			ymcap = 2 * (ny + na * nb);
			ymap = sb_xrealloc(ymap, sizeof *ymap * (size_t)ymcap);
		}
		for (a = 0; a < na; a++)
			for (b = 0; b < nb; b++) {
				double c = sb_sbp_box(&ru[a], &rv[b], ed->bytes, &g->pl, g->penalty);
				ymap[ny + a * nb + b] = c >= SB_SBP_INF ? -1 :
					sb_lp_add_col(lp, "y", SB_LP_CONT, 0, 1, c);
			}
		for (a = 0; a < na; a++) {
			n = 0;
			for (b = 0; b < nb; b++)
				if (ymap[ny + a * nb + b] >= 0)
					cols[n] = ymap[ny + a * nb + b], vals[n++] = 1;
			for (s = 0; s < g->op[ed->u].nsig; s++)
				if (cu[s] == a)
					cols[n] = xcol[ed->u] + s, vals[n++] = -1;
			sb_lp_add_row(lp, "out", 0, 0, n, cols, vals);
		}
		for (b = 0; b < nb; b++) {
			n = 0;
			for (a = 0; a < na; a++)
				if (ymap[ny + a * nb + b] >= 0)
					cols[n] = ymap[ny + a * nb + b], vals[n++] = 1;
			for (s = 0; s < g->op[ed->v].nsig; s++)
				if (cv[s] == b)
					cols[n] = xcol[ed->v] + s, vals[n++] = -1;
			sb_lp_add_row(lp, "in", 0, 0, n, cols, vals);
		}
		ny += na * nb;
	}
	if (io->mem > 0) {
		int n = 0;
		sb_free(cols);
		sb_free(vals);
		cols = SB_NEW(int, xcol[g->nop] + 1);
		vals = SB_NEW(double, xcol[g->nop] + 1);
		for (o = 0; o < g->nop; o++)
			for (s = 0; s < g->op[o].nsig; s++)
				cols[n] = xcol[o] + s, vals[n++] = g->op[o].sig[s].mem;
		sb_lp_add_row(lp, "mem", -SB_LP_INF, io->mem, n, cols, vals);
	}
	ncols = sb_lp_ncols(lp);
	if (io->start) {
		/* the start assignment as a full solution (x and its y) */
		start = SB_NEW(double, ncols);
		for (o = 0; o < g->nop; o++)
			start[xcol[o] + io->start[o]] = 1;
		for (e = 0; e < g->nedge; e++) {
			const struct sb_sbp_edge *ed = &g->edge[e];
			int nb = classes(g, ed->v, ed->slot, cv, rv), c;
			classes(g, ed->u, -1, cu, ru);
			c = ymap[ycol[e] + cu[io->start[ed->u]] * nb + cv[io->start[ed->v]]];
			if (c >= 0)
				start[c] = 1;
		}
		sb_lp_set_incumbent(lp, start);
	}
	memset(&par, 0, sizeof par);
	par.node_limit = io->node_limit > 0 ? io->node_limit : 20000;
	par.tol_obj = 1e-9;
	par.dual = 1;
	sb_lp_set_params(lp, &par);
	rc = sb_lp_solve(lp, 0, io->time_limit > 0 ? io->time_limit : 600, 0, &r, err);
	if (!rc) {
		res->status = r.status;
		res->stopped = r.stopped;
		res->obj = r.obj;
		res->bound = r.bound;
		res->gap = r.gap;
		res->seconds = r.seconds;
		res->nodes = r.nodes;
		res->ncols = ncols;
		res->nrows = sb_lp_nrows(lp);
		if (r.x && (r.status == SB_LP_OPTIMAL || r.status == SB_LP_FEASIBLE))
			for (o = 0; o < g->nop; o++) {
				int best = 0;
				for (s = 1; s < g->op[o].nsig; s++)
					if (r.x[xcol[o] + s] > r.x[xcol[o] + best])
						best = s;
				sig[o] = best;
			}
	}
	sb_lp_result_release(&r);
	sb_lp_free(lp);
	sb_free(xcol);
	sb_free(cu);
	sb_free(cv);
	sb_free(ru);
	sb_free(rv);
	sb_free(cols);
	sb_free(vals);
	sb_free(start);
	sb_free(ycol);
	sb_free(ymap);
	return rc;
}
