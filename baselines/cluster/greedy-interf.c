/*
 * greedy-interf.c - interference-aware greedy, white box (spec marl.md
 * §4.5; [O], the strongest baseline of our reconstruction of Zhao & Wu,
 * IEEE TNSM 2022): for every feasible anchor, predict with the learned
 * interference model S^ (cluster/interf.h, cl->interf->pred) the new
 * iteration time of the job and of every running job that shares a server
 * with it, and choose the anchor that adds the least remaining time:
 *     sum over affected running k of R_k (tau^_k' - tau^_k) + R_j tau^_j'
 * with tau^ = t_comp S^ + the communication term (known from the
 * topology), R the remaining iterations when the scheduler is clairvoyant
 * (agents), else 1 (relative time). Ties to the lower anchor. Without a
 * trained S^ it uses the ground truth (an oracle reference, named so by
 * the callers); on a flat cluster it places like `packed`.
 */
#include "cluster/topoplace.h"

#include <string.h>

struct greedy {
	struct sb_interf_job *st;    /* running jobs, then the candidate */
	int nr;
	double *tau_now;             /* tau^ of each running job now */
	double *tau0_now;            /* their taus without interference, now */
	double *tau0;                /* scratch: the same with the candidate */
	double *S;                   /* scratch */
	struct sb_interf flat;       /* the model with interference off */
};

/* S of job k of st[0..n): the predictor's, or the truth without one */
static double slow(const struct sb_interf *m, struct greedy *g, int n, int k)
{
	if (m->pred)
		return sb_interf_pred_S(m->pred, m, g->st, n, k);
	sb_interf_eval(m, g->st, n, g->S, NULL);
	return g->S[k];
}

static double remaining(const struct sb_csim *s, int j)
{
	long it = sb_cluster_sim_job(s, j)->iters;
	return it < 0 ? 1 : (double)it - sb_cluster_sim_progress(s, j);
}

static int shares_server(int G, const struct sb_interf_job *a, const struct sb_interf_job *b)
{
	int u, v;
	for (u = 0; u < a->w; u++)
		for (v = 0; v < b->w; v++)
			if (a->gpus[u] / G == b->gpus[v] / G)
				return 1;
	return 0;
}

static double score(const struct sb_csim *s, int j, int anchor, const int *gpus, void *ctx)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	const struct sb_interf *m = cl->interf;
	struct greedy *g = ctx;
	struct sb_interf_job *me = &g->st[g->nr];
	int k, n = g->nr + 1;
	double add;
	(void)anchor;
	me->id = j;
	me->type = sb_cluster_sim_job(s, j)->model;
	me->w = sb_cluster_sim_job(s, j)->gpus;
	me->gpus = gpus;
	sb_interf_eval(&g->flat, g->st, n, NULL, g->tau0);
	add = remaining(s, j) * (g->tau0[g->nr] + m->type[me->type].t_comp *
				 (slow(m, g, n, g->nr) - 1));
	for (k = 0; k < g->nr; k++) {
		double t;
		if (!shares_server(cl->gpus, &g->st[k], me) && g->tau0[k] == g->tau0_now[k])
			continue;
		t = g->tau0[k] + m->type[g->st[k].type].t_comp * (slow(m, g, n, k) - 1);
		add += remaining(s, g->st[k].id) * (t - g->tau_now[k]);
	}
	return add;
}

static int place(const struct sb_csim *s, int j, const struct sb_opts *o, struct sb_rng *rng,
		 int *gpus)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	struct greedy g;
	int nr, k, rc;
	(void)o;
	(void)rng;
	(void)sb_cluster_sim_running(s, &nr);
	memset(&g, 0, sizeof g);
	g.st = SB_NEW(struct sb_interf_job, nr + 1);
	g.tau_now = SB_NEW(double, nr + 1);
	g.tau0 = SB_NEW(double, nr + 1);
	g.tau0_now = SB_NEW(double, nr + 1);
	g.S = SB_NEW(double, nr + 1);
	if (cl->interf) {
		g.nr = sb_cluster_topo_state(s, g.st);
		g.flat = *cl->interf;
		g.flat.on = 0;
		sb_interf_eval(&g.flat, g.st, g.nr, NULL, g.tau0_now);
		for (k = 0; k < g.nr; k++)
			g.tau_now[k] = g.tau0_now[k] + cl->interf->type[g.st[k].type].t_comp *
				       (slow(cl->interf, &g, g.nr, k) - 1);
	}
	rc = sb_cluster_topo_place(s, j, score, &g, gpus) >= 0 ? 0 : -1;
	sb_free(g.st);
	sb_free(g.tau_now);
	sb_free(g.tau0);
	sb_free(g.tau0_now);
	sb_free(g.S);
	return rc;
}

const struct sb_cluster_policy sb_cluster_policy_greedy_interf = {
	.name = "greedy-interf",
	.cite = "interference-aware greedy (white-box baseline of Zhao & Wu, IEEE TNSM 2022; ours)",
	.desc = "anchor adding the least predicted remaining time (learned slowdown model)",
	.provenance = "ours",
	.topo = 2,
	.place = place,
};
