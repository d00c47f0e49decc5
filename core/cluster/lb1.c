/*
 * lb1.c - LB1 of the cluster family, a virtual single machine without a
 * solver, and the per-job iteration-time lower bounds tau_lb that LB1 and
 * LB2 (cluster/lb2.c) start from. Spec asrpt.md §7; our benchmark
 * design [O], not the paper's (see cluster/bound.h).
 *
 * Notation: job j arrives at a_j, needs g_j GPUs, runs n_j iterations;
 * p_j = n_j tau_lb_j (sb_job_iter_time_lb: every transfer at intra-server
 * speed) is never more than the time it runs on any placement; N = S x G.
 *
 * LB1 = max( sum of completion times of preemptive SRPT on one machine of
 * speed N fed the works g_j p_j at their arrivals, sum_j a_j + p_j ). Why
 * it is a bound (replay on that machine; SRPT is optimal for
 * 1|r_j, pmtn|sum C_j): see sb_cluster_lb1 in cluster/bound.h.
 */
#include "bound.h"
#include "cluster/interf.h"
#include "heap.h"

#include <math.h>

void sb_cluster_tau_lb(const struct sb_cluster *c, const struct sb_jobset *js,
		       double *tau_lb)
{
	int j;
	for (j = 0; j < js->n; j++) {
		struct sb_jobgraph h;
		if (c->interf) {   /* topology mode: alone at best locality */
			tau_lb[j] = sb_interf_tau_iso(c->interf, js->job[j].model, js->job[j].gpus);
			continue;
		}
		sb_jobgraph_build(&h, &js->job[j], &js->model[js->job[j].model], c);
		tau_lb[j] = sb_job_iter_time_lb(c, &h);
		sb_jobgraph_release(&h);
	}
}

/* ------------------------------------------------------------------ */
/* LB1                                                                 */
/* ------------------------------------------------------------------ */

void sb_cluster_srpt_completions(const struct sb_cluster *c, const struct sb_jobset *js,
				 const double *tau_lb, double *cv)
{
	struct sb_heap h;
	struct sb_heap_item it;
	double N = (double)c->nserver * c->gpus, t = 0, *rem = SB_NEW(double, js->n);
	int next = 0, cur = -1, n = js->n;
	double rcur = 0;

	sb_heap_init(&h);
	while (next < n || cur >= 0 || sb_heap_size(&h) > 0) {
		double ta = next < n ? js->job[next].arrival : INFINITY;
		if (cur < 0) {
			if (sb_heap_pop(&h, &it)) {
				cur = (int)it.val;
				rcur = rem[cur];
			} else {
				t = ta;
			}
		}
		if (cur >= 0 && t + rcur / N <= ta) {
			t += rcur / N;
			cv[cur] = t;
			cur = -1;
			continue;
		}
		/* an arrival before the current job ends */
		if (cur >= 0) {
			rcur -= (ta - t) * N;
			t = ta;
		}
		while (next < n && js->job[next].arrival == ta) {
			const struct sb_job *j = &js->job[next];
			rem[next] = j->gpus * (double)j->iters * tau_lb[next];
			if (cur >= 0 && rem[next] < rcur) {
				/* preemptive SRPT: the shorter job takes over */
				rem[cur] = rcur;
				sb_heap_push(&h, rcur, cur);
				cur = next;
				rcur = rem[next];
			} else {
				sb_heap_push(&h, rem[next], next);
			}
			next++;
		}
	}
	sb_heap_release(&h);
	sb_free(rem);
}

double sb_cluster_lb1(const struct sb_cluster *c, const struct sb_jobset *js,
		      const double *tau_lb)
{
	double *cv = SB_NEW(double, js->n > 0 ? js->n : 1), a = 0, b = 0;
	int j;
	sb_cluster_srpt_completions(c, js, tau_lb, cv);
	for (j = 0; j < js->n; j++) {
		a += cv[j];
		b += js->job[j].arrival + (double)js->job[j].iters * tau_lb[j];
	}
	sb_free(cv);
	return sb_max(a, b);
}
