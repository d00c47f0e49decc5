/*
 * m-sct.c - Baechi's memory-constrained Small Communication Times (m-SCT).
 *
 * B. Jeon, L. Cai, P. Srivastava, J. Jiang, X. Ke, Y. Meng, C. Xie,
 * I. Gupta, "Baechi: fast device placement of machine learning graphs",
 * ACM SoCC 2020 (code: beomyeol/baechi, placer/m_sct.py), after the SCT
 * heuristic of Hanen and Munier for small communication delays.
 *
 * Algorithm (published): (1) solve the LP
 *     min w  s.t.  s_i + p_i + c_ij x_ij <= s_j   for every edge (i,j),
 *                  s_i + p_i <= w,
 *                  sum_j x_ij >= |succ(i)| - 1,  sum_i x_ij >= |pred(j)| - 1,
 *                  0 <= x <= 1,  s >= 0;
 * (2) an edge with x_ij < 0.5 makes j the favourite child of i (x = 0
 * means "kept on one device"); (3) run m-ETF, except that a device whose
 * latest op i has a ready, unplaced favourite child, and which is among the
 * devices where that child can start earliest, keeps itself for the child:
 * another op may start there only once it is urgent (its start has passed
 * on every device it may use).
 *
 * Our choices: Baechi assumes identical devices; we take p_i = ops(i)/s̄
 * (mean speed), or the mean ETC time over the allowed devices when an ETC
 * matrix is given, and c_ij = size(i,j)/r̄ (mean rate over pairs d != d',
 * 0 if every rate is infinite). The LP is solved with GLPK's dual simplex
 * (not MOSEK) under a limit on simplex iterations (parameter lp_iters: a
 * deterministic limit, so the result does not depend on the machine) and
 * a time limit as a safety net (lp_time); the row s_i + p_i <= w is
 * written for exit ops only, which implies it for all. The LP's row sums
 * allow at most one x < 0.5 per op and per child; rounding noise is
 * guarded by keeping the smallest x. If the LP does not end optimal
 * within its iterations (or GLPK fails), m-SCT warns on stderr and runs as
 * m-ETF: the same on every machine. If it stops at the time limit instead,
 * the run fails: which of the two schedules it gives would depend on the
 * machine's load. Ties, memory, colocation and Sends as in m-etf.c.
 */
#include "listsched.h"
#include "lp.h"

#include <math.h>

static const struct sb_param msct_params[] = {
	{ "lp_iters", 15000, 1, 1e9, 1, "simplex iteration limit of the favourite-child LP "
	  "(enough for the 5k-op TF graph; larger layered graphs fall back to m-etf)" },
	{ "lp_time", 600, 0.01, 3600, 0, "time limit of the favourite-child LP (seconds; a "
	  "safety net: a run that hits it depends on the machine, and says so)" },
	{ "threshold", 0.5, 0, 1, 0, "an edge with x below this is a favourite-child edge" },
	{ NULL, 0, 0, 0, 0, NULL },
};

/* Solve the LP; x[e] for every edge. Returns 0, -1 (with a warning
 * already printed) when no optimal solution came back within the
 * iteration limit, or SB_EXIT_RUN (err filled) at the time limit. */
static int favourite_lp(const struct sb_dag_inst *in, double time_limit, long iter_limit,
			double *x, struct sb_err *out_err)
{
	const struct sb_dag *g = &in->g;
	double *wbar = SB_NEW(double, g->n), *cbar = SB_NEW(double, g->m);
	int *cols = SB_NEW(int, g->m + 3);
	double *vals = SB_NEW(double, g->m + 3);
	double sbar = sb_dag_mean_speed(in);
	struct sb_lp *lp = sb_lp_new("m-sct favourite children", 1);
	struct sb_lp_params par = { .dual = 1, .iter_limit = iter_limit };
	struct sb_lp_result res = { 0 };
	struct sb_err err = { 0 };
	int v, e, k, s0, wcol, rc = -1;

	sb_ls_mean_costs(in, wbar, cbar);
	for (v = 0; v < g->n; v++) {
		if (!in->etc)
			wbar[v] = g->ops[v] / sbar;
		if (!isfinite(wbar[v]))
			goto out;  /* an op without a device: m-etf reports it */
	}
	for (e = 0; e < g->m; e++)
		sb_lp_add_col(lp, NULL, SB_LP_CONT, 0, 1, 0);
	s0 = g->m;
	for (v = 0; v < g->n; v++)
		sb_lp_add_col(lp, NULL, SB_LP_CONT, 0, SB_LP_INF, 0);
	wcol = sb_lp_add_col(lp, NULL, SB_LP_CONT, 0, SB_LP_INF, 1);

	for (v = 0; v < g->n; v++) {
		int nsucc = g->succ_off[v + 1] - g->succ_off[v];
		int npred = g->pred_off[v + 1] - g->pred_off[v];
		for (e = g->succ_off[v]; e < g->succ_off[v + 1]; e++) {
			cols[0] = s0 + v;     vals[0] = 1;
			cols[1] = s0 + g->succ[e]; vals[1] = -1;
			cols[2] = e;          vals[2] = cbar[e];
			sb_lp_add_row(lp, NULL, -SB_LP_INF, -wbar[v], 3, cols, vals);
		}
		if (nsucc >= 2) {
			for (k = 0; k < nsucc; k++) {
				cols[k] = g->succ_off[v] + k;
				vals[k] = 1;
			}
			sb_lp_add_row(lp, NULL, nsucc - 1, SB_LP_INF, nsucc, cols, vals);
		}
		if (npred >= 2) {
			for (k = 0; k < npred; k++) {
				cols[k] = g->pred_edge[g->pred_off[v] + k];
				vals[k] = 1;
			}
			sb_lp_add_row(lp, NULL, npred - 1, SB_LP_INF, npred, cols, vals);
		}
		if (!nsucc) {
			cols[0] = s0 + v;  vals[0] = 1;
			cols[1] = wcol;    vals[1] = -1;
			sb_lp_add_row(lp, NULL, -SB_LP_INF, -wbar[v], 2, cols, vals);
		}
	}
	sb_lp_set_params(lp, &par);
	if (sb_lp_solve(lp, 1, time_limit, 0, &res, &err))
		sb_warn("m-sct: %s; running as m-etf", err.msg);
	else if (res.stopped == SB_LP_STOP_TIME)
		rc = sb_err_set(out_err, SB_EXIT_RUN, "m-sct: the favourite-child lp stopped "
				"at its time limit (lp_time = %g s) before its iteration limit "
				"(lp_iters = %ld): the schedule would depend on the machine's "
				"load; raise lp_time or lower lp_iters", time_limit, iter_limit);
	else if (res.status != SB_LP_OPTIMAL || !res.x)
		sb_warn("m-sct: favourite-child lp ended %s (%s limit) after %.1f s; "
			"running as m-etf", sb_lp_status_name(res.status),
			sb_lp_stop_name(res.stopped), res.seconds);
	else {
		for (e = 0; e < g->m; e++)
			x[e] = res.x[e];
		rc = 0;
	}
out:
	sb_lp_result_release(&res);
	sb_lp_free(lp);
	sb_free(wbar);
	sb_free(cbar);
	sb_free(cols);
	sb_free(vals);
	return rc;
}

/* fav[i] = favourite child of i or -1: among i's edges with x < thr the
 * smallest x (ties to the lower edge), and a child keeps only the parent
 * whose edge has the smallest x. */
static void favourites(const struct sb_dag *g, const double *x, double thr, int *fav)
{
	int *parent = SB_NEW(int, g->n), *fedge = SB_NEW(int, g->n);
	int v, e;

	for (v = 0; v < g->n; v++) {
		fav[v] = parent[v] = fedge[v] = -1;
		for (e = g->succ_off[v]; e < g->succ_off[v + 1]; e++)
			if (x[e] < thr && (fedge[v] < 0 || x[e] < x[fedge[v]]))
				fedge[v] = e;
	}
	for (v = 0; v < g->n; v++) {
		int j, p;
		if (fedge[v] < 0)
			continue;
		j = g->succ[fedge[v]];
		p = parent[j];
		if (p >= 0 && x[fedge[p]] <= x[fedge[v]])
			continue;
		if (p >= 0)
			fav[p] = -1;
		parent[j] = v;
		fav[v] = j;
	}
	sb_free(parent);
	sb_free(fedge);
}

static int msct_partition(const struct sb_dag_inst *in, const struct sb_opts *o,
			  struct sb_rng *rng, struct sb_dag_plan *plan,
			  struct sb_err *err)
{
	const struct sb_dag *g = &in->g;
	int *fav = SB_NEW(int, g->n);
	double *x = SB_NEW(double, g->m);
	struct sb_ls_etf_cfg cfg = { .tie = SB_LS_TIE_TOPO, .fav = fav };
	int v, rc;

	for (v = 0; v < g->n; v++)
		fav[v] = -1;
	rc = g->m > 0 ? favourite_lp(in, sb_opts_get_or(o, "lp_time", 600),
				     (long)sb_opts_get_or(o, "lp_iters", 15000), x, err) : -1;
	if (rc > 0)
		goto out;
	if (rc == 0)
		favourites(g, x, sb_opts_get_or(o, "threshold", 0.5), fav);
	rc = sb_ls_etf(in, &cfg, plan, err);
out:
	sb_free(fav);
	sb_free(x);
	return rc;
}

const struct sb_dag_policy sb_dag_policy_m_sct = {
	.name = "m-sct",
	.cite = "Jeon, Cai, Srivastava, Jiang, Ke, Meng, Xie, Gupta, Baechi: fast "
		"device placement of machine learning graphs, ACM SoCC 2020",
	.desc = "m-etf that keeps a device for the LP-chosen favourite child (Baechi)",
	.provenance = "published algorithm",
	.params = msct_params,
	.partition = msct_partition,
	.priority = NULL,
	.pick = NULL,
	.default_sched = "heft-order",
};
