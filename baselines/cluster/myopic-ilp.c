/*
 * myopic-ilp.c - the omniscient-myopic placement ILP (spec marl.md §7; [O],
 * the upper reference for one-step decisions of our reconstruction of Zhao
 * & Wu, IEEE TNSM 2022), solved with GLPK at every decision epoch on small
 * clusters (at most 8 servers; T0 is the spec's 4 x 4 GPUs). It sees the
 * ground truth: every job's remaining work and the pairwise slowdowns,
 * noise included.
 *
 * The first (at most) `window` (6) waiting jobs in arrival order are placed
 * jointly. Variables: x_{js} in 0..w_j workers of waiting job j on server
 * s; u_j in {0,1} placed; o_{js} in {0,1} uses s; y_{jr} in {0,1} uses rack
 * r (a job stays in one rack, as the fill rule keeps it); c_{jks} in [0,1]
 * co-location of waiting jobs j, k on s. Rows: sum_s x_{js} = w_j u_j;
 * sum_j x_{js} <= free_s; x_{js} <= w_j o_{js}; o_{js} <= x_{js};
 * o_{js} <= y_{j,rack(s)}; sum_r y_{jr} <= 1; c_{jks} >= o_{js} + o_{ks} - 1.
 * Objective (seconds): sum_j [ sum over running k on s of (R_j + R_k)
 * alpha_{jk} o_{js} + sum over waiting k of (R_j + R_k) alpha_{jk} c_{jks}
 * + B_j (sum_s o_{js} - u_j) + M_j (1 - u_j) ], with R_j the job's
 * remaining compute seconds (iterations left x t_comp), alpha_{jk} the
 * ground-truth pairwise term at same-socket distance (the GPUs within a
 * server are chosen after the solve, by the fill rule's best-fitting
 * switch), B_j the extra communication seconds of spanning servers
 * (remaining iterations x (tau alone in a rack - tau alone in a server)),
 * and M_j a penalty above every other term, larger for earlier jobs, so
 * that it places what fits, favouring arrival order. Unlike the spec's
 * objective, the running co-runners' own slowdown (R_k) counts too: an
 * omniscient one-step optimiser sees it.
 *
 * Placed jobs start on the chosen servers (GPUs by the fill rule's
 * per-server order). The solve stops on a deterministic node limit
 * (`nodes`) and uses its incumbent; without one (or on a flat cluster) the
 * epoch falls back to FIFO with the run's placer, which is as deterministic
 * as the limit. A GLPK failure, or a solve stopped by the time-limit safety
 * net, fails the run (sb_cluster_sim_fail): its answer would depend on the
 * machine's load. Non-preemptive.
 */
#include "cluster/topoplace.h"
#include "cluster/util.h"
#include "lp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXS 8
#define MAXW 8

static const struct sb_param params[] = {
	{ "window", 6, 1, MAXW, 1, "waiting jobs placed jointly (the first in arrival order)" },
	{ "nodes", 5000, 1, 1e7, 1, "branch-and-bound node limit per solve (deterministic)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct myopic {
	struct sb_clq q;
	int window;
	long nodes;
};

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	struct myopic *m = SB_NEW(struct myopic, 1);
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	(void)rng;
	if (cl->interf && cl->nserver > MAXS)
		SB_BUG("myopic-ilp places on at most %d servers (spec marl.md §7), not %d", MAXS,
		       cl->nserver);
	sb_clq_init(&m->q);
	m->window = (int)sb_opts_get(o, "window");
	m->nodes = (long)sb_opts_get(o, "nodes");
	return m;
}

static void release(void *ctx)
{
	struct myopic *m = ctx;
	sb_clq_release(&m->q);
	sb_free(m);
}

static void on_arrival(void *ctx, struct sb_csim *s, int j)
{
	(void)s;
	sb_clq_insert(&((struct myopic *)ctx)->q, j);
}

/* alpha_{jk}: the ground-truth pairwise term at same-socket distance */
static double alpha(const struct sb_interf *m, int j, int tj, int k, int tk)
{
	const double *a = m->type[tj].r, *b = m->type[tk].r;
	double dot = 0, v;
	int d;
	if (!m->on)
		return 0;
	for (d = 0; d < SB_INTERF_NRES; d++)
		dot += a[d] * b[d];
	v = m->gamma * m->lambda[1] * dot / SB_INTERF_NRES + sb_interf_noise(m, j, k);
	return v > 0 ? v : 0;
}

static double remaining_compute(const struct sb_csim *s, int j)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	const struct sb_job *job = sb_cluster_sim_job(s, j);
	return ((double)job->iters - sb_cluster_sim_progress(s, j)) *
	       cl->interf->type[job->model].t_comp;
}

/* Solve the epoch's ILP; 0 and the placement in x[a][s] (workers) and
 * u[a], or -1 without an incumbent. */
static int solve(struct myopic *mc, struct sb_csim *s, const int *wj, int m, int x[][MAXS],
		 int *u)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	const struct sb_interf *mi = cl->interf;
	const struct sb_cluster_tree *t = mi->topo;
	const int *fs = sb_cluster_sim_free_per_server(s);
	int S = cl->nserver, a, b, sv, r, nr, rc = -1, i;
	int cx[MAXW][MAXS], co[MAXW][MAXS], cu[MAXW], cy[MAXW][MAXS];
	const int *run = sb_cluster_sim_running(s, &nr);
	double R[MAXW], B[MAXW], cost[MAXW][MAXS], pair[MAXW][MAXW], maxcost = 1;
	struct sb_lp *lp = sb_lp_new("myopic-ilp", 1);
	struct sb_lp_params par;
	struct sb_lp_result res;
	struct sb_err err;
	char name[48];
	int cols[3 * MAXS + 4];
	double vals[3 * MAXS + 4];

	memset(&par, 0, sizeof par);
	par.node_limit = mc->nodes;
	par.iter_limit = 100 * mc->nodes + 10000;
	sb_lp_set_params(lp, &par);
	for (a = 0; a < m; a++)
		R[a] = remaining_compute(s, wj[m + a]);
	/* the objective's coefficients first: the penalties M_j must exceed
	 * every other term */
	for (a = 0; a < m; a++) {
		int j = wj[m + a], tj = sb_cluster_sim_job(s, j)->model, w = wj[a];
		B[a] = w <= 1 ? 0 :
		       ((double)sb_cluster_sim_job(s, j)->iters - sb_cluster_sim_progress(s, j)) *
		       (sb_interf_tau_alone(mi, tj, w, SB_TREE_GPU - SB_TREE_RACK) -
			sb_interf_tau_alone(mi, tj, w, SB_TREE_GPU - SB_TREE_SERVER));
		maxcost += B[a] * S;
		for (sv = 0; sv < S; sv++) {
			cost[a][sv] = 0;
			for (i = 0; i < nr; i++) {
				const struct sb_job *kj = sb_cluster_sim_job(s, run[i]);
				const int *g = sb_cluster_sim_gpus(s, run[i]);
				int v, on = 0;
				for (v = 0; v < kj->gpus && !on; v++)
					on = g[v] / cl->gpus == sv;
				if (on)
					cost[a][sv] += (R[a] + remaining_compute(s, run[i])) *
						       alpha(mi, j, tj, run[i], kj->model);
			}
			maxcost += cost[a][sv];
		}
		for (b = a + 1; b < m; b++) {
			pair[a][b] = alpha(mi, j, tj, wj[m + b], sb_cluster_sim_job(s, wj[m + b])->model) *
				     (R[a] + R[b]);
			maxcost += pair[a][b] * S;
		}
	}
	/* columns: x, o per server; u (objective -B - M: M (1 - u) without its
	 * constant); y per rack */
	for (a = 0; a < m; a++) {
		int w = wj[a];
		double M = 10 * maxcost * (1 + (double)(m - a) / m);
		for (sv = 0; sv < S; sv++) {
			snprintf(name, sizeof name, "x_%d_%d", a, sv);
			cx[a][sv] = sb_lp_add_col(lp, name, SB_LP_INT, 0, sb_min(w, fs[sv]), 0);
			snprintf(name, sizeof name, "o_%d_%d", a, sv);
			co[a][sv] = sb_lp_add_col(lp, name, SB_LP_BIN, 0, 1, cost[a][sv] + B[a]);
		}
		snprintf(name, sizeof name, "u_%d", a);
		cu[a] = sb_lp_add_col(lp, name, SB_LP_BIN, 0, 1, -B[a] - M);
		for (r = 0; r < t->nrack; r++) {
			snprintf(name, sizeof name, "y_%d_%d", a, r);
			cy[a][r] = sb_lp_add_col(lp, name, SB_LP_BIN, 0, 1, 0);
		}
	}
	/* co-location of waiting jobs on one server */
	for (a = 0; a < m; a++)
		for (b = a + 1; b < m; b++) {
			if (pair[a][b] <= 0)
				continue;
			for (sv = 0; sv < S; sv++) {
				snprintf(name, sizeof name, "c_%d_%d_%d", a, b, sv);
				cols[0] = sb_lp_add_col(lp, name, SB_LP_CONT, 0, 1, pair[a][b]);
				vals[0] = 1;
				cols[1] = co[a][sv], vals[1] = -1;
				cols[2] = co[b][sv], vals[2] = -1;
				sb_lp_add_row(lp, "coloc", -1, SB_LP_INF, 3, cols, vals);
			}
		}
	for (a = 0; a < m; a++) {
		int w = wj[a], n = 0;
		for (sv = 0; sv < S; sv++) {
			cols[n] = cx[a][sv];
			vals[n++] = 1;
		}
		cols[n] = cu[a];
		vals[n++] = -w;
		sb_lp_add_row(lp, "workers", 0, 0, n, cols, vals);
		for (sv = 0; sv < S; sv++) {
			cols[0] = cx[a][sv], vals[0] = 1;
			cols[1] = co[a][sv], vals[1] = -w;
			sb_lp_add_row(lp, "x<=wo", -SB_LP_INF, 0, 2, cols, vals);
			cols[1] = co[a][sv], vals[1] = -1;
			sb_lp_add_row(lp, "o<=x", 0, SB_LP_INF, 2, cols, vals);
			cols[0] = co[a][sv], vals[0] = 1;
			cols[1] = cy[a][t->server_rack[sv]], vals[1] = -1;
			sb_lp_add_row(lp, "o<=y", -SB_LP_INF, 0, 2, cols, vals);
		}
		for (r = 0; r < t->nrack; r++) {
			cols[r] = cy[a][r];
			vals[r] = 1;
		}
		sb_lp_add_row(lp, "one-rack", -SB_LP_INF, 1, t->nrack, cols, vals);
	}
	for (sv = 0; sv < S; sv++) {
		for (a = 0; a < m; a++) {
			cols[a] = cx[a][sv];
			vals[a] = 1;
		}
		sb_lp_add_row(lp, "capacity", -SB_LP_INF, fs[sv], m, cols, vals);
	}
	if (sb_lp_solve(lp, 0, 600, 0, &res, &err) != 0) {
		sb_cluster_sim_fail(s, "myopic-ilp: %s", err.msg);
		rc = -2;
	} else if (res.stopped == SB_LP_STOP_TIME) {
		/* the answer would depend on the machine's load */
		sb_cluster_sim_fail(s, "myopic-ilp: the solve for %d waiting jobs stopped on "
				    "its 600 s time-limit safety net after %ld nodes (node "
				    "limit %ld)", m, res.nodes, mc->nodes);
		rc = -2;
	} else if (res.x && (res.status == SB_LP_OPTIMAL || res.status == SB_LP_FEASIBLE)) {
		for (a = 0; a < m; a++) {
			u[a] = res.x[cu[a]] > 0.5;
			for (sv = 0; sv < S; sv++)
				x[a][sv] = (int)floor(res.x[cx[a][sv]] + 0.5);
		}
		rc = 0;
	}
	sb_lp_result_release(&res);
	sb_lp_free(lp);
	return rc;
}

static void schedule(void *ctx, struct sb_csim *s)
{
	struct myopic *mc = ctx;
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	int wj[2 * MAXW], x[MAXW][MAXS], u[MAXW], m, a, sv, fits = 0;

	if (!cl->interf || mc->q.n == 0) {
		sb_cluster_dispatch_list(s, &mc->q, 1);
		return;
	}
	m = mc->q.n < mc->window ? mc->q.n : mc->window;
	for (a = 0; a < m; a++) {
		wj[m + a] = mc->q.job[a];
		wj[a] = sb_cluster_sim_job(s, wj[m + a])->gpus;
		fits |= wj[a] <= sb_cluster_sim_free(s);
	}
	if (!fits)
		return;
	switch (solve(mc, s, wj, m, x, u)) {
	case 0:
		break;
	case -2:   /* the run fails (sb_cluster_sim_fail) */
		return;
	default:   /* no incumbent within the node limit: deterministic */
		sb_cluster_dispatch_list(s, &mc->q, 1);
		return;
	}
	for (a = m - 1; a >= 0; a--) {
		unsigned char *taken;
		int gpus[MAXW * 8], k = 0, j = wj[m + a];
		if (!u[a])
			continue;
		taken = SB_NEW(unsigned char, cl->nserver * cl->gpus);
		for (sv = 0; sv < cl->nserver; sv++)
			if (x[a][sv] > 0 &&
			    sb_cluster_tree_fill_server(cl->interf->topo, sb_cluster_sim_gpu_free(s),
							taken, sv, x[a][sv], gpus, &k) != x[a][sv])
				SB_BUG("myopic-ilp: server %d lacks the %d GPUs the ILP gave job %d",
				       sv, x[a][sv], j);
		sb_free(taken);
		if (k != wj[a])
			SB_BUG("myopic-ilp: job %d got %d of its %d workers", j, k, wj[a]);
		sb_cluster_sim_start_on(s, j, gpus);
		sb_clq_remove_at(&mc->q, a);
	}
}

const struct sb_cluster_policy sb_cluster_policy_myopic_ilp = {
	.name = "myopic-ilp",
	.cite = "omniscient-myopic placement ILP (upper reference of our reconstruction of "
		"Zhao & Wu, IEEE TNSM 2022; ours)",
	.desc = "GLPK ILP placing up to 6 waiting jobs per epoch with true slowdowns (small clusters)",
	.provenance = "ours",
	.params = params,
	.clairvoyant = 1,
	.topo = 1,
	.init = init,
	.release = release,
	.on_arrival = on_arrival,
	.schedule = schedule,
	.default_place = "consolidate",
};
