/*
 * lb.c - the combinatorial lower bounds of the pipeline family (our design
 * [O], see bound.h): the bound of a plan, valid for every schedule of it
 * (spec pipeplan.md §3 step 4, plus the wait of a stage for its first
 * gradient and the FIFO links, because pipesim and the checker serialise
 * both; without them the bound is loose exactly where SPP-R's plans
 * differ), and a bound valid for every plan of a problem.
 */
#include "bound.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Combinatorial bound of a plan                                       */
/* ------------------------------------------------------------------ */

/*
 * For copy k and stage s (F, B, C of that copy, AR shared):
 *   h_s    = sum_{a<s} (F_a + C_a): no task of s starts earlier, since
 *            its first task is a forward whose input went through 0..s-1;
 *   up_s   = F_s + 2 C_s + up_{s+1} + B_s (up_{S-1} = F + B): from the
 *            start of F(s,i) to the end of B(s,i) at the least;
 *   g_s    = up_s - F_s - B_s: from the end of F(s,i) to the start of
 *            B(s,i) at the least;
 *   down_s = max(AR_s, C_{s-1} + B_{s-1} + down_{s-1}), down_0 = AR_0:
 *            after any B(s,i) ends, the iteration still needs this.
 * Stage s runs 2M tasks one at a time from h_s on; its backwards start
 * after h_s + F_s + g_s (the first gradient), the backward of its last
 * forward after h_s + M F_s + g_s. Each ends with a backward, so
 *   T >= h_s + max(M(F_s+B_s), F_s + g_s + M B_s, M F_s + g_s + B_s)
 *        + down_s.
 * A link direction carries M transfers one at a time: forward s -> s+1
 * from h_s + F_s on, and the last microbatch it carries still needs
 * up_{s+1} + C_s + B_s + down_s; backward from h_{s+1} + up_{s+1} on,
 * then B_s + down_s.
 */
double sb_pipeline_lb_costs(const struct sb_pipeline_costs *c, int M, struct sb_pipeline_lb_parts *parts)
{
	int S = c->S, k, s;
	double *h = SB_NEW(double, S), *up = SB_NEW(double, S), *down = SB_NEW(double, S);
	struct sb_pipeline_lb_parts q = { 0, 0, 0, 0 };

	for (k = 0; k < c->copies; k++) {
		const double *F = c->F + k * S, *B = c->B + k * S, *C = c->C + k * S;
		h[0] = 0;
		down[0] = c->AR[0];
		for (s = 1; s < S; s++) {
			h[s] = h[s - 1] + F[s - 1] + C[s - 1];
			down[s] = sb_max(c->AR[s], C[s - 1] + B[s - 1] + down[s - 1]);
		}
		up[S - 1] = F[S - 1] + B[S - 1];
		for (s = S - 2; s >= 0; s--)
			up[s] = F[s] + 2 * C[s] + up[s + 1] + B[s];
		for (s = 0; s < S; s++) {
			double g = s + 1 < S ? 2 * C[s] + up[s + 1] : 0;
			double busy = sb_max(M * (F[s] + B[s]),
					     sb_max(F[s] + g + M * B[s], M * F[s] + g + B[s]));
			q.stage = sb_max(q.stage, h[s] + busy + down[s]);
			if (s + 1 < S) {
				q.link = sb_max(q.link, h[s] + F[s] + M * C[s] + up[s + 1] + C[s] +
						B[s] + down[s]);
				q.link = sb_max(q.link, h[s + 1] + up[s + 1] + M * C[s] + B[s] +
						down[s]);
			}
		}
		q.chain = sb_max(q.chain, up[0] + down[0]);
	}
	q.stage += c->t_opt;
	q.link += c->t_opt;
	q.chain += c->t_opt;
	q.lb = sb_max(q.stage, sb_max(q.link, q.chain));
	if (parts)
		*parts = q;
	sb_free(h);
	sb_free(up);
	sb_free(down);
	return q.lb;
}

double sb_pipeline_lb_plan(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		       const struct sb_topo *t, struct sb_pipeline_lb_parts *parts)
{
	struct sb_pipeline_costs c;
	double lb;
	sb_pipeline_costs_build(&c, p, m, t);
	lb = sb_pipeline_lb_costs(&c, p->M, parts);
	sb_pipeline_costs_release(&c);
	return lb;
}

/* ------------------------------------------------------------------ */
/* Bound of a problem                                                  */
/* ------------------------------------------------------------------ */

/*
 * Every valid plan, whatever its copies, stages, replication, GPUs,
 * re-computation, overlap, kappa or schedule, satisfies the following
 * (sigma = GPU speed, N GPUs, f_l, b_l per sample):
 *
 * (1) Work. Stage s of copy c on r GPUs does M (F + B) per GPU with
 *     F = beta sum f / (r sigma), beta = batch / (copies M): over its r
 *     GPUs and all copies that is batch sum_{l in s} (f_l + b_l) / sigma
 *     (re-computation only adds). Every GPU belongs to one stage of one
 *     copy and runs one task at a time, so N T >= batch sum_l (f_l + b_l)
 *     / sigma.
 *
 * (2) Samples per replica. Validation gives beta >= r for every stage, so
 *     every replica gets q >= 1 samples of each microbatch. Take the copy
 *     with the fewest GPUs: it has n <= N / copies of them, so each of its
 *     stages has r <= N / copies and q = batch / (copies M r) >= batch /
 *     (M N). Hence in that copy F_s >= q f_s / sigma and B_s >= q b_s /
 *     sigma with q = max(1, batch / (M N)).
 *
 * (3) Stage bounds of that copy (sb_pipeline_lb_costs, dropping transfers and
 *     all-reduce, which only add): for the stage s holding layer l,
 *       h_s + M (F_s + B_s) + down_s >= sum_{a<s} (F_a + B_a) + M (F_s +
 *           B_s) >= q / sigma (sum_{l'<l} (f + b)_{l'} + M (f + b)_l)
 *     (the layers of s before l are counted once, those of earlier stages
 *     once); and h_s + F_s + g_s + M B_s + down_s >= sum of all F + B +
 *     (M-1) B_s >= q / sigma (sum_l' (f + b)_{l'} + (M-1) b_l), likewise
 *     with (M-1) f_l from the term M F_s + g_s + B_s.
 *
 * The optimizer step of pipecost is 0; it is not added.
 */
double sb_pipeline_lb_problem(const struct sb_pmodel *m, const struct sb_topo *t, double batch,
			  int M)
{
	double sigma = t->speed > 0 ? t->speed : 1, q, tot = 0, pre = 0, best;
	int l;

	if (m->n <= 0 || t->n <= 0 || M <= 0)
		return 0;
	q = sb_max(1.0, batch / ((double)M * t->n));
	for (l = 0; l < m->n; l++)
		tot += m->layer[l].fwd + m->layer[l].bwd;
	best = batch * tot / (t->n * sigma);
	for (l = 0; l < m->n; l++) {
		double f = m->layer[l].fwd, b = m->layer[l].bwd;
		best = sb_max(best, q / sigma * (pre + M * (f + b)));
		best = sb_max(best, q / sigma * (tot + (M - 1) * sb_max(f, b)));
		pre += f + b;
	}
	return best;
}
